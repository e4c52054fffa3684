#pragma once
// File > Open model folder, Open model file, Open text, Load embeddings, Load weights and Forget
// loaded files: each asks for a file and hands it to the workspace. What a file cannot be used for
// is reported by fileError, for the window to show beside the control it concerns.

#include <QObject>
#include <functional>

class QAction;
class QWidget;

namespace attn {

class Workspace;

class OpenActions : public QObject {
    Q_OBJECT
  public:
    OpenActions(Workspace* workspace, QWidget* dialogParent);
    QAction* openModelAction() const { return openModel_; }
    QAction* openModelFolderAction() const { return openModelFolder_; }
    QAction* openTextAction() const { return openText_; }
    QAction* loadEmbeddingsAction() const { return embeddings_; }
    QAction* loadWeightsAction() const { return weights_; }
    QAction* forgetAction() const { return forget_; }

    // Asks for a file (caption, folder, filter) instead of the file dialog: tests answer it.
    using FileHook =
        std::function<QString(const QString& caption, const QString& dir, const QString& filter)>;
    void setFileHook(FileHook hook) { fileHook_ = std::move(hook); }

  signals:
    // `field` is "input", "embeddings" or "weights"; an empty message clears an earlier one.
    void fileError(const QString& field, const QString& message);

  private:
    void openModel();
    void openModelFolder();
    // A file the user opened holds a Llama, Qwen or Gemma model without its config.json: asks
    // for it and reads the file again with it; cancelled, the picker keeps saying why.
    void askForConfig(const QString& file);
    void openText();
    void loadFile(bool weights);

    Workspace* workspace_;
    QWidget* dialogParent_;
    QAction* openModel_ = nullptr;
    QAction* openModelFolder_ = nullptr;
    QAction* openText_ = nullptr;
    QAction* embeddings_ = nullptr;
    QAction* weights_ = nullptr;
    QAction* forget_ = nullptr;
    FileHook fileHook_;
};

}  // namespace attn
