#pragma once
// The status bar: how many tokens, what the settings describe (not the stale result's), how
// long the last trace took, and while computing a progress bar with Cancel (Esc). The bar only
// appears for computations that take a moment, so typing does not flicker.

#include <QObject>

class QLabel;
class QProgressBar;
class QPushButton;
class QStatusBar;
class QTimer;

namespace attn {

class Workspace;

class StatusLine : public QObject {
    Q_OBJECT
  public:
    StatusLine(Workspace* workspace, QStatusBar* bar);
    QLabel* tokens() const { return tokens_; }
    QLabel* module() const { return module_; }
    QLabel* time() const { return time_; }
    QProgressBar* progress() const { return progress_; }
    QPushButton* cancel() const { return cancel_; }

  private:
    void refresh();
    Workspace* workspace_;
    QLabel* tokens_ = nullptr;
    QLabel* module_ = nullptr;
    QLabel* time_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QTimer* busyDelay_ = nullptr;
};

}  // namespace attn
