#pragma once
// Model mode's "Append sampled" (DESIGN.md, Asking a model why: sampling): how many tokens,
// temperature, top-k, top-p and a seed, and a button that generates that many tokens after the
// text, off the GUI thread, then appends them (undoably, their ids kept). The same seed and
// settings give the same tokens; while it runs the button cancels.

#include <QWidget>
#include <memory>

class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace attn {

class LatestJob;
class Workspace;
struct SamplingOptions;

class SamplingBar : public QWidget {
    Q_OBJECT
  public:
    SamplingBar(Workspace* workspace, QWidget* parent = nullptr);
    ~SamplingBar() override;

    // The controls' values (for tests and the lesson).
    void setOptions(int tokens, double temperature, int topK, double topP, int seed);
    bool isGenerating() const;
    // What the last generation said ("Appended 10 tokens sampled at temperature 0.8, seed 7."),
    // or why it could not run.
    QString note() const;

  public slots:
    // Generates and appends; while generating, cancels instead.
    void appendSampled();

  private:
    void update();
    Workspace* workspace_;
    QSpinBox* count_ = nullptr;
    QDoubleSpinBox* temperature_ = nullptr;
    QSpinBox* topK_ = nullptr;
    QDoubleSpinBox* topP_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QPushButton* button_ = nullptr;
    QLabel* note_ = nullptr;
    std::unique_ptr<LatestJob> job_;
    bool generating_ = false;
};

}  // namespace attn
