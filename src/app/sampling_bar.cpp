#include "app/sampling_bar.h"

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include "app/workspace.h"
#include "engine/generate.h"
#include "pipeline/latest_job.h"
#include "pipeline/model_request.h"
#include "tokenizer/tokenizer.h"

namespace attn {

namespace {

struct SampledText {
    std::vector<int64_t> ids;  // the prompt's and the new ones
    std::string bytes;         // the new tokens' bytes
    int64_t count = 0;
};

QSpinBox* spin(QWidget* parent, int lo, int hi, int value, const QString& tip) {
    auto* s = new QSpinBox(parent);
    s->setRange(lo, hi);
    s->setValue(value);
    s->setToolTip(tip);
    return s;
}

QDoubleSpinBox* doubleSpin(QWidget* parent, double lo, double hi, double step, double value,
                           const QString& tip) {
    auto* s = new QDoubleSpinBox(parent);
    s->setRange(lo, hi);
    s->setSingleStep(step);
    s->setDecimals(2);
    s->setValue(value);
    s->setToolTip(tip);
    return s;
}

}  // namespace

SamplingBar::SamplingBar(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace), job_(std::make_unique<LatestJob>(JobThread::Own)) {
    setObjectName(QStringLiteral("samplingBar"));
    count_ = spin(this, 1, 256, 10, tr("How many tokens to generate"));
    count_->setObjectName(QStringLiteral("sampleCount"));
    temperature_ = doubleSpin(this, 0.0, 5.0, 0.1, 0.8,
                              tr("Divides the logits before sampling: below 1 sharper, above 1 "
                                 "flatter; 0 always takes the most probable token"));
    temperature_->setObjectName(QStringLiteral("sampleTemperature"));
    topK_ = spin(this, 0, 1000000, 0,
                 tr("Sample only among the k most probable tokens; 0 = all of them"));
    topK_->setSpecialValueText(tr("all"));
    topK_->setObjectName(QStringLiteral("sampleTopK"));
    topP_ = doubleSpin(this, 0.01, 1.0, 0.05, 1.0,
                       tr("Sample only among the most probable tokens whose probabilities "
                          "reach p together; 1 = all of them"));
    topP_->setObjectName(QStringLiteral("sampleTopP"));
    seed_ = spin(this, 0, 2147483647, 123,
                 tr("The random generator's seed: the same seed and settings give the same "
                    "tokens"));
    seed_->setObjectName(QStringLiteral("sampleSeed"));
    button_ = new QPushButton(tr("Append sampled"), this);
    button_->setObjectName(QStringLiteral("appendSampled"));
    button_->setToolTip(
        tr("Generate the tokens after the text, each drawn from the model's "
           "next-token probabilities, and add them to the text"));
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("samplingNote"));
    note_->setWordWrap(true);
    note_->setForegroundRole(QPalette::PlaceholderText);

    // Two rows of three, each control under its short label: the left column is narrow.
    auto* g = new QGridLayout(this);
    g->setContentsMargins(4, 2, 4, 2);
    g->setHorizontalSpacing(6);
    g->setVerticalSpacing(1);
    const struct {
        QString label;
        QWidget* control;
    } cells[] = {{tr("tokens"), count_},
                 {tr("temperature"), temperature_},
                 {tr("top-k"), topK_},
                 {tr("top-p"), topP_},
                 {tr("seed"), seed_}};
    auto* title = new QLabel(tr("Sample a continuation"), this);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    g->addWidget(title, 0, 0, 1, 3);
    for (int i = 0; i < 5; ++i) {
        auto* label = new QLabel(cells[i].label, this);
        label->setBuddy(cells[i].control);
        label->setToolTip(cells[i].control->toolTip());
        const int row = 1 + (i / 3) * 2, column = i % 3;
        g->addWidget(label, row, column);
        g->addWidget(cells[i].control, row + 1, column);
    }
    g->addWidget(button_, 4, 2);
    g->addWidget(note_, 5, 0, 1, 3);
    note_->hide();
    connect(button_, &QPushButton::clicked, this, &SamplingBar::appendSampled);
    job_->setErrorHandler([this](const QString& error) {
        generating_ = false;
        note_->setText(error);
        note_->show();
        update();
    });
    connect(workspace_, &Workspace::resultApplied, this, &SamplingBar::update);
    connect(workspace_, &Workspace::staleChanged, this, &SamplingBar::update);
    connect(workspace_, &Workspace::modelChanged, this, &SamplingBar::update);
    update();
}

SamplingBar::~SamplingBar() = default;

void SamplingBar::setOptions(int tokens, double temperature, int topK, double topP, int seed) {
    count_->setValue(tokens);
    temperature_->setValue(temperature);
    topK_->setValue(topK);
    topP_->setValue(topP);
    seed_->setValue(seed);
}

bool SamplingBar::isGenerating() const {
    return generating_;
}

QString SamplingBar::note() const {
    return note_->isVisible() ? note_->text() : QString();
}

void SamplingBar::update() {
    button_->setText(generating_ ? tr("Cancel") : tr("Append sampled"));
    // It continues the text shown: not while a newer text is still being computed.
    button_->setEnabled(generating_ || (workspace_->model() && workspace_->shown() &&
                                        workspace_->shown()->modelRun && !workspace_->isStale()));
}

void SamplingBar::appendSampled() {
    if (generating_) {
        job_->cancel();
        generating_ = false;
        note_->setText(tr("Sampling cancelled; the text is as it was."));
        note_->show();
        update();
        return;
    }
    const TraceOutcome* shown = workspace_->shown();
    if (!workspace_->model() || !shown || !shown->modelRun || workspace_->isStale())
        return;
    GenerateRequest g;
    g.model = shown->modelRun->model;
    g.ids = shown->modelRun->ids;
    g.maxNew = count_->value();
    g.sampling = {temperature_->value(), topK_->value(), topP_->value()};
    g.seed = uint64_t(seed_->value());
    g.ablation = shown->modelRun->ablation;
    g.memoryBudgetBytes = workspace_->settings().config.memoryBudgetBytes;
    const int total = count_->value();
    generating_ = true;
    note_->setText(tr("Sampling 0 of %1 tokens\u2026").arg(total));
    note_->show();
    update();
    // The work never touches this object; its reports run here, on the GUI thread, and only
    // while the job is the newest (the LatestJob this object owns drops them otherwise).
    job_->run(
        [g, total, note = note_](const JobReports& reports) mutable {
            g.cancel = &reports.cancel();
            SampledText out;
            g.progress = [&reports, total, note](const SampledToken&, int64_t done) {
                reports.report([note, done, total] {
                    note->setText(
                        SamplingBar::tr("Sampling %1 of %2 tokens\u2026").arg(done).arg(total));
                });
            };
            const Generated result = generate(g);
            out.ids = result.ids;
            for (const SampledToken& t : result.tokens) {
                try {
                    out.bytes += modelToken(g.model.get(), t.id).bytes;
                } catch (const std::out_of_range&) {
                    // An id the model has and its tokenizer not has no text: the ids stay.
                }
            }
            out.count = int64_t(result.tokens.size());
            return out;
        },
        [this, total, temperature = temperature_->value(),
         seed = seed_->value()](const SampledText& out) {
            generating_ = false;
            note_->setText(tr("Appended %1 tokens sampled at temperature %2, seed %3.")
                               .arg(total)
                               .arg(temperature)
                               .arg(seed));
            workspace_->appendToText(out.ids, out.bytes,
                                     tr("Append %1 sampled tokens").arg(out.count));
            update();
        });
}

}  // namespace attn
