#pragma once
// Which module the window shows: the chapter-3 module with random weights, a model that ships
// with the app, a recent model folder or file, or another one (Open model folder..., Open model
// file...). Reading a model runs
// off the GUI thread with its progress and Cancel here; a file that cannot be read is explained
// under the picker and the previous model stays.

#include <QStringList>
#include <QWidget>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace attn {

class FieldErrors;
class Workspace;

class ModelPicker : public QWidget {
    Q_OBJECT
  public:
    ModelPicker(Workspace* workspace, QWidget* parent = nullptr);
    QComboBox* combo() const { return combo_; }
    QString error() const;

    // Recent model folders and files, newest first, at most kMaxRecent (QSettings "model/recent").
    static constexpr int kMaxRecent = 6;
    static QStringList recentModels();
    static void addRecentModel(const QString& path);

  signals:
    // The user asked for a file (the window opens the file dialog).
    void openFileRequested();
    // The user asked for a folder (the window opens the folder dialog).
    void openFolderRequested();

  private:
    void rebuild();
    void onActivated(int index);
    // The model file's metadata, every entry, in a dialog of its own.
    void showMetadata();

    Workspace* workspace_;
    QComboBox* combo_ = nullptr;
    QLabel* about_ = nullptr;
    QLabel* origin_ = nullptr;  // what the file says of itself, and a link to all its metadata
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    FieldErrors* errors_ = nullptr;
};

}  // namespace attn
