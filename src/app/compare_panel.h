#pragma once
// The Compare panel: the shown step beside another and their difference (CompareView), on one
// colour scale unless asked otherwise. What B is: the chapter's other masking method, the same
// settings with one option changed (mask, variant, d_out), another sentence (the coreference
// pair "... too tired" / "... too wide"), another head of the step, another layer of a trained
// model, or another model on the same text (the chapter-3 module, a bundled or a recent model,
// read by a loader of its own). B's trace runs on a controller of its own, so the main trace is
// untouched.

#include <QWidget>
#include <optional>

#include "app/trace_jobs.h"

class QComboBox;
class QProgressBar;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace attn {

class CompareView;
class ModelLoader;
class TraceController;
class Workspace;

class ComparePanel : public QWidget {
    Q_OBJECT
  public:
    // In the order of the picker.
    enum class Preset {
        MaskingMethods,      // weights vs weights_renormalized of the current trace
        MaskNoneCausal,      // the current settings with no mask vs the causal mask
        WrapperVsMultiHead,  // MultiHeadAttentionWrapper vs MultiHeadAttention
        DOut2Vs768,          // d_out 2 vs d_out 768
        TwoSentences,        // the same module or model on a second sentence
        TwoHeads,            // another head of the shown step
        TwoLayers,           // the shown step in another layer of a trained model
        // After chapter 3, on grouped-query and rotary attention:
        GroupsVsMultiHead,   // the current key/value groups vs one per head (multi-head)
        GroupsVsMultiQuery,  // the current key/value groups vs one for all (multi-query)
        RopeOnOff,           // rotary with and without the rotation, the same weights
        TwoModels            // the same text in another model (or the chapter-3 module)
    };
    ComparePanel(Workspace* workspace, QWidget* parent = nullptr);
    CompareView* view() const { return view_; }
    void setPreset(Preset preset);
    Preset preset() const;
    QString message() const;
    TraceController* controller() const { return controller_; }
    // B's sentence, head and layer for TwoSentences, TwoHeads and TwoLayers; B's layer and head
    // also for TwoModels (A's to start with). A trained model offers only the presets that
    // apply to it (another sentence, head, layer or model, and the masking methods): Compare
    // opens on two layers there unless the user picked another.
    void setSecondText(const QString& text);
    QString secondText() const;
    void setSecondHead(int head);
    void setSecondLayer(int layer);
    // B's model for TwoModels: a bundled model's name or a path; empty for the chapter-3 module.
    void setSecondModel(const QString& nameOrPath);
    QString secondModel() const;
    // The second sentence the panel offers first: the other half of the coreference pair when
    // the text is one of its halves, else the text itself (to edit).
    static QString pairedSentence(const QString& text);

  signals:
    void updated();  // a new comparison (or the reason there is none) is shown

  protected:
    void showEvent(QShowEvent* event) override;

  public slots:
    // Draws the panel for the shown result when it is on screen (a tab behind another, or a
    // hidden dock, waits): the window calls it when the panel's tab comes to the front.
    void refresh();

  private:
    void submit();
    void setMessage(const QString& text);
    void refreshControls();
    QString requestKey() const;  // what B's run depends on besides the shown result
    bool compareHeads(const TraceOutcome& shown);
    Workspace* workspace_;
    QComboBox* presetCombo_ = nullptr;
    QLineEdit* textB_ = nullptr;
    QLabel* headLabel_ = nullptr;
    QSpinBox* headB_ = nullptr;
    QLabel* layerLabel_ = nullptr;
    QSpinBox* layerB_ = nullptr;
    QLabel* modelLabel_ = nullptr;
    QComboBox* modelB_ = nullptr;  // item data: a bundled name or a path; empty: the module
    ModelLoader* loaderB_ = nullptr;
    std::shared_ptr<const DecoderModel> otherModel_;  // B's model, read
    QString otherModelName_;                          // what otherModel_ was read from
    QString otherModelError_;                         // why B's model could not be read
    bool modelChosen_ = false;  // the user picked B's model: it is kept while it is offered
    void fillModelChoices();
    QLabel* note_ = nullptr;
    CompareView* view_ = nullptr;
    TraceController* controller_ = nullptr;
    std::optional<TraceOutcome> other_;
    quint64 forGeneration_ = 0;  // the workspace's result the comparison was made for
    QString forKey_;             // and the preset, sentence and layer B was run for
    bool waiting_ = false;
    bool textEdited_ = false;    // the user typed B's sentence: it is no longer offered anew
    bool presetChosen_ = false;  // the user picked the preset: kept while it applies
    QString defaultsFor_;        // the B model whose layer and head were set to A's
    // B's layer and head in the range of B's model (TwoModels); -1 when B has no such count.
    int modelBLayers() const;
    int modelBHeads() const;
};

}  // namespace attn
