#include "teach/step_strip.h"

#include <QAccessible>
#include <QAccessibleWidget>
#include <QFocusEvent>
#include <QFontMetricsF>
#include <QHash>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPointer>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "engine/step_ids.h"
#include "teach/block_texts.h"
#include "teach/explanations.h"
#include "teach/scaled_font.h"

namespace attn {

namespace {

// The stages in the order the chapter computes them. The simple masking method is a side branch
// off softmax: it gives the same weights another way, so the main flow goes on to dropout.
struct StageDef {
    const char* key;
    const char* caption;
    const char* folded;  // the one chip's text while the stage is folded
    bool branch;
    std::vector<const char*> ids;
};

const std::vector<StageDef>& stageDefs() {
    // A trained model's layer adds the rest of its transformer block around the chapter's
    // steps (block_input before, the residual additions and the feed-forward after), so the
    // student sees where attention sits in the block.
    static const std::vector<StageDef> defs = {
        {"block_in",
         QT_TRANSLATE_NOOP("attn::StepStrip", "residual stream"),
         QT_TRANSLATE_NOOP("attn::StepStrip", "x"),
         false,
         {step_id::kBlockInput}},
        {"input",
         QT_TRANSLATE_NOOP("attn::StepStrip", "input"),
         QT_TRANSLATE_NOOP("attn::StepStrip", "input"),
         false,
         {step_id::kInputs}},
        {"qkv",
         QT_TRANSLATE_NOOP("attn::StepStrip", "Q K V"),
         QT_TRANSLATE_NOOP("attn::StepStrip", "Q K V"),
         false,
         {step_id::kQueries, step_id::kLatent, step_id::kKeys, step_id::kValues}},
        {"heads",
         QT_TRANSLATE_NOOP("attn::StepStrip", "split heads"),
         QT_TRANSLATE_NOOP("attn::StepStrip", "split heads"),
         false,
         {step_id::kQueriesSplit, step_id::kKeysSplit, step_id::kValuesSplit,
          step_id::kQueriesHeads, step_id::kKeysHeads, step_id::kValuesHeads, step_id::kKeysGroups,
          step_id::kValuesGroups}},
        // After chapter 3: QK-norm, the rotation and the sharing of key/value groups, each a
        // stage of its own between the heads and the dot product, in the order they happen.
        {"qk_norm",
         QT_TRANSLATE_NOOP("attn::StepStrip", "QK-norm"),
         QT_TRANSLATE_NOOP("attn::StepStrip", "QK-norm"),
         false,
         {step_id::kQueriesNormed, step_id::kKeysNormed}},
        {"rope",
         QT_TRANSLATE_NOOP("attn::StepStrip", "RoPE rotation"),
         QT_TRANSLATE_NOOP("attn::StepStrip", "RoPE"),
         false,
         {step_id::kRopeCos, step_id::kRopeSin, step_id::kQueriesRotated, step_id::kKeysRotated}},
        {"repeat",
         QT_TRANSLATE_NOOP("attn::StepStrip", "share K V"),
         QT_TRANSLATE_NOOP("attn::StepStrip", "share K V"),
         false,
         {step_id::kKeysRepeated, step_id::kValuesRepeated}},
        {"scores",
         QT_TRANSLATE_NOOP("attn::StepStrip", "dot product"),
         QT_TRANSLATE_NOOP("attn::StepStrip", "dot product"),
         false,
         {step_id::kScores}},
        {"mask",
         QT_TRANSLATE_NOOP("attn::StepStrip", "mask"),
         QT_TRANSLATE_NOOP("attn::StepStrip", "mask"),
         false,
         {step_id::kMask, step_id::kMaskedScores}},
        {"scale",
         QT_TRANSLATE_NOOP("attn::StepStrip", "scale"),
         QT_TRANSLATE_NOOP("attn::StepStrip", "scale"),
         false,
         {step_id::kScaledScores}},
        {"softmax",
         QT_TRANSLATE_NOOP("attn::StepStrip", "softmax"),
         QT_TRANSLATE_NOOP("attn::StepStrip", "softmax"),
         false,
         {step_id::kWeights}},
        {"simple_mask",
         QT_TRANSLATE_NOOP("attn::StepStrip", "simple masking (= weights)"),
         QT_TRANSLATE_NOOP("attn::StepStrip", "simple mask"),
         true,
         {step_id::kWeightsUnmasked, step_id::kWeightsTril, step_id::kWeightsRenormalized}},
        {"dropout",
         QT_TRANSLATE_NOOP("attn::StepStrip", "dropout"),
         QT_TRANSLATE_NOOP("attn::StepStrip", "dropout"),
         false,
         {step_id::kDropoutMask, step_id::kDroppedWeights}},
        {"context",
         QT_TRANSLATE_NOOP("attn::StepStrip", "context"),
         QT_TRANSLATE_NOOP("attn::StepStrip", "context"),
         false,
         {step_id::kContextHeads, step_id::kContextTransposed, step_id::kContext}},
        {"output",
         QT_TRANSLATE_NOOP("attn::StepStrip", "output"),
         QT_TRANSLATE_NOOP("attn::StepStrip", "output"),
         false,
         {step_id::kOutput}},
        {"residual_mid",
         QT_TRANSLATE_NOOP("attn::StepStrip", "+ residual"),
         QT_TRANSLATE_NOOP("attn::StepStrip", "x + attn"),
         false,
         {step_id::kResidualAfterAttention}},
        {"feed_forward",
         QT_TRANSLATE_NOOP("attn::StepStrip", "feed-forward"),
         QT_TRANSLATE_NOOP("attn::StepStrip", "feed-forward"),
         false,
         {step_id::kNorm2, step_id::kFfHidden, step_id::kFfOutput}},
        {"block_out",
         QT_TRANSLATE_NOOP("attn::StepStrip", "+ residual"),
         QT_TRANSLATE_NOOP("attn::StepStrip", "x out"),
         false,
         {step_id::kBlockOutput}},
    };
    return defs;
}

const char* const kOtherKey = "other";

QColor mix(const QColor& a, const QColor& b, double t) {
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t),
                            float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

QString namedShapeText(const StepInfo& s) {
    QStringList parts;
    for (size_t i = 0; i < s.shape.size(); ++i) {
        const QString name =
            i < s.dims.size() ? QString::fromStdString(s.dims[i]) : QStringLiteral("dim%1").arg(i);
        parts << QStringLiteral("%1=%2").arg(name).arg(s.shape[i]);
    }
    return QLatin1Char('(') + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
}

}  // namespace

QString StepStrip::chipLabelOf(const StepInfo& step) {
    // A model layer's norms and feed-forward are named as that model builds them.
    const QString model = blockChipLabel(step);
    return model.isEmpty() ? chipLabel(QString::fromStdString(step.id)) : model;
}

QString StepStrip::stageKeyOf(const QString& id) {
    for (const StageDef& d : stageDefs())
        for (const char* s : d.ids)
            if (id == QLatin1String(s))
                return QLatin1String(d.key);
    return QLatin1String(kOtherKey);
}

QString StepStrip::chipLabel(const QString& id) {
    // Inside a stage the caption already says what happens, so the chip names the result as
    // briefly as a projector needs: the three projections by name, the head reshapes by matrix.
    // Every step of a trace has a label here, so each chip reads in the interface's language;
    // the English label is the step's id (queries, scores, ...), which the tooltip shows.
    static const QHash<QString, const char*> labels = {
        {QString::fromLatin1(step_id::kInputs), QT_TRANSLATE_NOOP("attn::StepStrip", "inputs")},
        {QString::fromLatin1(step_id::kQueries), QT_TRANSLATE_NOOP("attn::StepStrip", "queries")},
        {QString::fromLatin1(step_id::kKeys), QT_TRANSLATE_NOOP("attn::StepStrip", "keys")},
        {QString::fromLatin1(step_id::kValues), QT_TRANSLATE_NOOP("attn::StepStrip", "values")},
        {QString::fromLatin1(step_id::kLatent), QT_TRANSLATE_NOOP("attn::StepStrip", "latent")},
        {QString::fromLatin1(step_id::kScores), QT_TRANSLATE_NOOP("attn::StepStrip", "scores")},
        {QString::fromLatin1(step_id::kMask), QT_TRANSLATE_NOOP("attn::StepStrip", "mask")},
        {QString::fromLatin1(step_id::kWeights), QT_TRANSLATE_NOOP("attn::StepStrip", "weights")},
        {QString::fromLatin1(step_id::kContext), QT_TRANSLATE_NOOP("attn::StepStrip", "context")},
        {QString::fromLatin1(step_id::kOutput), QT_TRANSLATE_NOOP("attn::StepStrip", "output")},
        {QString::fromLatin1(step_id::kQueriesSplit),
         QT_TRANSLATE_NOOP("attn::StepStrip", "Q split")},
        {QString::fromLatin1(step_id::kKeysSplit), QT_TRANSLATE_NOOP("attn::StepStrip", "K split")},
        {QString::fromLatin1(step_id::kValuesSplit),
         QT_TRANSLATE_NOOP("attn::StepStrip", "V split")},
        {QString::fromLatin1(step_id::kQueriesHeads),
         QT_TRANSLATE_NOOP("attn::StepStrip", "Q heads")},
        {QString::fromLatin1(step_id::kKeysHeads), QT_TRANSLATE_NOOP("attn::StepStrip", "K heads")},
        {QString::fromLatin1(step_id::kValuesHeads),
         QT_TRANSLATE_NOOP("attn::StepStrip", "V heads")},
        {QString::fromLatin1(step_id::kKeysGroups),
         QT_TRANSLATE_NOOP("attn::StepStrip", "K groups")},
        {QString::fromLatin1(step_id::kValuesGroups),
         QT_TRANSLATE_NOOP("attn::StepStrip", "V groups")},
        {QString::fromLatin1(step_id::kQueriesNormed),
         QT_TRANSLATE_NOOP("attn::StepStrip", "Q norm")},
        {QString::fromLatin1(step_id::kKeysNormed), QT_TRANSLATE_NOOP("attn::StepStrip", "K norm")},
        {QString::fromLatin1(step_id::kRopeCos), QT_TRANSLATE_NOOP("attn::StepStrip", "cos")},
        {QString::fromLatin1(step_id::kRopeSin), QT_TRANSLATE_NOOP("attn::StepStrip", "sin")},
        {QString::fromLatin1(step_id::kQueriesRotated),
         QT_TRANSLATE_NOOP("attn::StepStrip", "Q rotated")},
        {QString::fromLatin1(step_id::kKeysRotated),
         QT_TRANSLATE_NOOP("attn::StepStrip", "K rotated")},
        {QString::fromLatin1(step_id::kKeysRepeated),
         QT_TRANSLATE_NOOP("attn::StepStrip", "K per head")},
        {QString::fromLatin1(step_id::kValuesRepeated),
         QT_TRANSLATE_NOOP("attn::StepStrip", "V per head")},
        {QString::fromLatin1(step_id::kMaskedScores),
         QT_TRANSLATE_NOOP("attn::StepStrip", "masked")},
        {QString::fromLatin1(step_id::kScaledScores),
         QT_TRANSLATE_NOOP("attn::StepStrip", "scaled")},
        {QString::fromLatin1(step_id::kWeightsUnmasked),
         QT_TRANSLATE_NOOP("attn::StepStrip", "unmasked")},
        {QString::fromLatin1(step_id::kWeightsTril),
         QT_TRANSLATE_NOOP("attn::StepStrip", "\u00d7 tril")},
        {QString::fromLatin1(step_id::kWeightsRenormalized),
         QT_TRANSLATE_NOOP("attn::StepStrip", "renormalized")},
        // Not "mask": that is the causal mask's chip, and one name means one thing.
        {QString::fromLatin1(step_id::kDropoutMask),
         QT_TRANSLATE_NOOP("attn::StepStrip", "keep mask")},
        {QString::fromLatin1(step_id::kDroppedWeights),
         QT_TRANSLATE_NOOP("attn::StepStrip", "dropped")},
        {QString::fromLatin1(step_id::kContextHeads),
         QT_TRANSLATE_NOOP("attn::StepStrip", "per head")},
        {QString::fromLatin1(step_id::kContextTransposed),
         QT_TRANSLATE_NOOP("attn::StepStrip", "transposed")},
        {QString::fromLatin1(step_id::kBlockInput), QT_TRANSLATE_NOOP("attn::StepStrip", "x")},
        {QString::fromLatin1(step_id::kResidualAfterAttention),
         QT_TRANSLATE_NOOP("attn::StepStrip", "x + attn")},
        {QString::fromLatin1(step_id::kNorm2), QT_TRANSLATE_NOOP("attn::StepStrip", "LayerNorm 2")},
        {QString::fromLatin1(step_id::kFfHidden), QT_TRANSLATE_NOOP("attn::StepStrip", "GELU")},
        {QString::fromLatin1(step_id::kFfOutput), QT_TRANSLATE_NOOP("attn::StepStrip", "out")},
        {QString::fromLatin1(step_id::kBlockOutput),
         QT_TRANSLATE_NOOP("attn::StepStrip", "x + FF")},
    };
    const auto it = labels.find(id);
    return it == labels.end() ? id : tr(it.value());
}

namespace {

// Screen readers see the strip as a tab list with one tab per step: its chip label and id as
// the name, title, PyTorch op and shape as the description, selected when current. The tabs
// are not QObjects, so they are made when first asked for and registered with QAccessible.
class StepTabAccessible : public QAccessibleInterface {
  public:
    StepTabAccessible(StepStrip* strip, int index) : strip_(strip), index_(index) {}
    bool isValid() const override { return strip_ && index_ < strip_->stepIds().size(); }
    QObject* object() const override { return nullptr; }
    QWindow* window() const override { return strip_ ? strip_->window()->windowHandle() : nullptr; }
    QAccessibleInterface* parent() const override {
        return strip_ ? QAccessible::queryAccessibleInterface(strip_) : nullptr;
    }
    QAccessibleInterface* child(int) const override { return nullptr; }
    int childCount() const override { return 0; }
    int indexOfChild(const QAccessibleInterface*) const override { return -1; }
    QAccessibleInterface* childAt(int, int) const override { return nullptr; }
    QString text(QAccessible::Text t) const override {
        if (!isValid())
            return {};
        const QString id = strip_->stepIds()[index_];
        if (t == QAccessible::Name) {
            const QString label = StepStrip::chipLabelOf(strip_->steps()[size_t(index_)]);
            return label == id ? id : QStringLiteral("%1 (%2)").arg(label, id);
        }
        if (t == QAccessible::Description)
            return strip_->stepDescription(id);
        return {};
    }
    void setText(QAccessible::Text, const QString&) override {}
    QRect rect() const override {
        if (!isValid())
            return {};
        const QRect r = strip_->clickableRect(strip_->stepIds()[index_]);
        return r.isEmpty() ? QRect() : QRect(strip_->mapToGlobal(r.topLeft()), r.size());
    }
    QAccessible::Role role() const override { return QAccessible::PageTab; }
    QAccessible::State state() const override {
        QAccessible::State st;
        if (!isValid()) {
            st.invalid = true;
            return st;
        }
        const bool current = strip_->stepIds()[index_] == strip_->currentStep();
        st.selectable = true;
        st.focusable = true;
        st.selected = current;
        st.focused = current && strip_->hasFocus();
        st.offscreen = rect().isEmpty();
        return st;
    }

  private:
    QPointer<StepStrip> strip_;
    int index_;
};

class StepStripAccessible : public QAccessibleWidget {
  public:
    explicit StepStripAccessible(StepStrip* strip)
        : QAccessibleWidget(strip, QAccessible::PageTabList) {}
    ~StepStripAccessible() override {
        for (QAccessible::Id id : tabs_)
            QAccessible::deleteAccessibleInterface(id);
    }
    int childCount() const override { return int(strip()->stepIds().size()); }
    QAccessibleInterface* child(int index) const override {
        if (index < 0 || index >= childCount())
            return nullptr;
        while (int(tabs_.size()) <= index)
            tabs_.push_back(QAccessible::registerAccessibleInterface(
                new StepTabAccessible(strip(), int(tabs_.size()))));
        return QAccessible::accessibleInterface(tabs_[size_t(index)]);
    }
    int indexOfChild(const QAccessibleInterface* child) const override {
        for (int i = 0; i < int(tabs_.size()); ++i)
            if (QAccessible::accessibleInterface(tabs_[size_t(i)]) == child)
                return i < childCount() ? i : -1;
        return -1;
    }
    QAccessibleInterface* childAt(int x, int y) const override {
        for (int i = 0; i < childCount(); ++i) {
            QAccessibleInterface* c = child(i);
            if (c->rect().contains(x, y))
                return c;
        }
        return nullptr;
    }

  private:
    StepStrip* strip() const { return static_cast<StepStrip*>(widget()); }
    mutable std::vector<QAccessible::Id> tabs_;
};

QAccessibleInterface* stepStripAccessibleFactory(const QString& className, QObject* object) {
    if (className == QLatin1String("attn::StepStrip") && object && object->isWidgetType())
        return new StepStripAccessible(static_cast<StepStrip*>(object));
    return nullptr;
}

}  // namespace

StepStrip::StepStrip(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    static const bool factoryInstalled = [] {
        QAccessible::installFactory(stepStripAccessibleFactory);
        return true;
    }();
    Q_UNUSED(factoryInstalled);
    setAccessibleName(tr("Pipeline steps"));
    updateAccessibleText();
}

double StepStrip::Metrics::chipWidth(const QString& text) const {
    return std::ceil(QFontMetricsF(chipFont).horizontalAdvance(text) + 2 * padX);
}

StepStrip::Metrics StepStrip::metrics() const {
    Metrics m;
    m.chipFont = scaledFont(font(), fontScale_);
    m.captionFont = scaledFont(font(), 0.82 * fontScale_);
    const QFontMetricsF fm(m.chipFont);
    m.chipHeight = std::ceil(fm.height() + 0.4 * fm.height());
    m.captionHeight = std::ceil(QFontMetricsF(m.captionFont).height());
    m.padX = std::ceil(0.55 * fm.height());
    m.chipGap = std::ceil(0.25 * fm.height());
    m.separatorWidth = std::ceil(1.1 * fm.height());
    m.margin = 3;
    m.captionGap = 1;
    m.arrowWidth = std::ceil(1.2 * fm.height());
    return m;
}

// ---------------------------------------------------------------------------------------------
// Steps and selection

void StepStrip::setSteps(const std::vector<StepInfo>& steps) {
    const QString keep = currentStep();
    std::vector<StageDef> defs = stageDefs();
    defs.push_back({kOtherKey,
                    QT_TRANSLATE_NOOP("attn::StepStrip", "other"),
                    QT_TRANSLATE_NOOP("attn::StepStrip", "other"),
                    false,
                    {}});
    std::vector<std::vector<const StepInfo*>> byStage(defs.size());
    for (const StepInfo& s : steps) {
        const QString key = stageKeyOf(QString::fromStdString(s.id));
        for (size_t d = 0; d < defs.size(); ++d)
            if (key == QLatin1String(defs[d].key)) {
                byStage[d].push_back(&s);
                break;
            }
    }
    std::vector<StepInfo> ordered;
    stages_.clear();
    stageSteps_.clear();
    stageOfStep_.clear();
    for (size_t d = 0; d < defs.size(); ++d) {
        if (byStage[d].empty())
            continue;
        Stage stage;
        stage.key = QLatin1String(defs[d].key);
        stage.caption = tr(defs[d].caption);
        stage.foldedLabel = tr(defs[d].folded);
        stage.branch = defs[d].branch;
        if (isModelLayerInput(*byStage[d].front())) {
            // A trained model's layer reads its block's first norm, not token embeddings.
            stage.caption = chipLabelOf(*byStage[d].front());
            stage.foldedLabel = stage.caption;
        }
        std::vector<int> indices;
        for (const StepInfo* s : byStage[d]) {
            stage.stepIds << QString::fromStdString(s->id);
            indices.push_back(int(ordered.size()));
            stageOfStep_.push_back(int(stages_.size()));
            ordered.push_back(*s);
        }
        stages_.push_back(stage);
        stageSteps_.push_back(std::move(indices));
    }
    steps_ = std::move(ordered);
    lastInStage_.assign(stages_.size(), -1);
    current_ = -1;
    hoverChip_ = -1;
    setCurrentStep(keep);
    updateGeometry();
}

void StepStrip::setCurrentStep(const QString& id) {
    int found = -1;
    for (int i = 0; i < int(steps_.size()); ++i)
        if (QString::fromStdString(steps_[size_t(i)].id) == id)
            found = i;
    current_ = found;
    if (found >= 0)
        lastInStage_[size_t(stageOfStep_[size_t(found)])] = found;
    invalidateLayout();
    updateAccessibleText();
    update();
}

QString StepStrip::stepDescription(const QString& id) const {
    const int i = int(stepIds().indexOf(id));
    if (i < 0)
        return {};
    const StepInfo& s = steps_[size_t(i)];
    return QStringLiteral("%1. %2. Shape %3.")
        .arg(QString::fromStdString(s.title), QString::fromStdString(s.op), namedShapeText(s));
}

QString StepStrip::currentStep() const {
    return current_ < 0 ? QString() : QString::fromStdString(steps_[size_t(current_)].id);
}

QStringList StepStrip::stepIds() const {
    QStringList ids;
    for (const StepInfo& s : steps_)
        ids << QString::fromStdString(s.id);
    return ids;
}

void StepStrip::setFontScale(double scale) {
    fontScale_ = std::clamp(scale, 0.5, 4.0);
    invalidateLayout();
    updateGeometry();
    update();
}

void StepStrip::selectByUser(int step) {
    if (step < 0 || step >= int(steps_.size()) || step == current_)
        return;
    setCurrentStep(QString::fromStdString(steps_[size_t(step)].id));
    if (QAccessible::isActive()) {
        // The new current tab takes the focus, so a screen reader says which step it is.
        if (QAccessibleInterface* strip = QAccessible::queryAccessibleInterface(this)) {
            if (QAccessibleInterface* tab = strip->child(current_)) {
                QAccessibleEvent focus(tab, QAccessible::Focus);
                QAccessible::updateAccessibility(&focus);
            }
        }
        QAccessibleEvent description(this, QAccessible::DescriptionChanged);
        QAccessible::updateAccessibility(&description);
    }
    emit stepSelected(currentStep());
}

void StepStrip::updateAccessibleText() {
    if (current_ < 0) {
        setAccessibleDescription(tr("No step selected. Left and Right arrows move between steps."));
        return;
    }
    const StepInfo& s = steps_[size_t(current_)];
    setAccessibleDescription(
        tr("Step %1 of %2: %3, %4. Left and Right arrows move between steps, Home and End go to "
           "the first and last.")
            .arg(current_ + 1)
            .arg(steps_.size())
            .arg(QString::fromStdString(s.id), QString::fromStdString(s.title)));
}

bool StepStrip::isCollapsed(int stage) const {
    return stage >= 0 && stage < int(geometry().collapsed.size()) &&
           geometry().collapsed[size_t(stage)];
}

// ---------------------------------------------------------------------------------------------
// Layout: expand everything if it fits, else collapse stages farthest from the current one
// first; scroll only when all but the current stage are collapsed and the row is still too wide.

StepStrip::Geometry StepStrip::computeGeometry() const {
    const Metrics m = metrics();
    const QFontMetricsF capFm(m.captionFont);
    const int n = int(stages_.size());
    Geometry g;
    g.collapsed.assign(size_t(n), false);
    std::vector<double> full(static_cast<size_t>(n)), folded(static_cast<size_t>(n));
    const double branchPad = std::ceil(m.chipGap);  // room for the dashed frame
    for (int s = 0; s < n; ++s) {
        double chips = 0;
        for (int step : stageSteps_[size_t(s)])
            chips += m.chipWidth(chipLabelOf(steps_[size_t(step)]));
        chips += m.chipGap * double(stageSteps_[size_t(s)].size() - 1);
        const double pad = stages_[size_t(s)].branch ? 2 * branchPad : 0;
        full[size_t(s)] =
            std::max(chips, std::ceil(capFm.horizontalAdvance(stages_[size_t(s)].caption))) + pad;
        folded[size_t(s)] = m.chipWidth(stages_[size_t(s)].foldedLabel) + pad;
    }
    const double separators = m.separatorWidth * std::max(0, n - 1);
    const double avail = width() - 2 * m.margin;
    auto total = [&] {
        double t = separators;
        for (int s = 0; s < n; ++s)
            t += g.collapsed[size_t(s)] ? folded[size_t(s)] : full[size_t(s)];
        return t;
    };
    const int currentStage = current_ >= 0 ? stageOfStep_[size_t(current_)] : 0;
    std::vector<int> order;
    for (int s = 0; s < n; ++s)
        if (s != currentStage)
            order.push_back(s);
    // Farthest first; of two as far, the later one, since the row is read from the left.
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const int da = std::abs(a - currentStage), db = std::abs(b - currentStage);
        return da != db ? da > db : a > b;
    });
    for (int s : order) {
        if (total() <= avail)
            break;
        if (stageSteps_[size_t(s)].size() > 1 || folded[size_t(s)] < full[size_t(s)])
            g.collapsed[size_t(s)] = true;
    }
    g.contentWidth = total();
    g.scrolling = g.contentWidth > avail;

    const double chipTop = m.margin + m.captionHeight + m.captionGap;
    double x = 0;
    for (int s = 0; s < n; ++s) {
        const double w = g.collapsed[size_t(s)] ? folded[size_t(s)] : full[size_t(s)];
        g.stageFrames.push_back(QRectF(x, m.margin, w, chipTop + m.chipHeight - m.margin));
        double cx = x + (stages_[size_t(s)].branch ? branchPad : 0);
        if (g.collapsed[size_t(s)]) {
            const double pad = stages_[size_t(s)].branch ? 2 * branchPad : 0;
            g.chips.push_back({s, -1, QRectF(cx, chipTop, folded[size_t(s)] - pad, m.chipHeight)});
        } else {
            // A caption wider than its chips ("Skalarprodukt" over "Scores") centres them under
            // it, so the space it leaves falls on both sides rather than as a gap before the
            // next arrow.
            double chips = m.chipGap * double(stageSteps_[size_t(s)].size() - 1);
            for (int step : stageSteps_[size_t(s)])
                chips += m.chipWidth(chipLabelOf(steps_[size_t(step)]));
            const double pad = stages_[size_t(s)].branch ? 2 * branchPad : 0;
            cx += std::max(0.0, (w - pad - chips) / 2);
            for (int step : stageSteps_[size_t(s)]) {
                const double cw = m.chipWidth(chipLabelOf(steps_[size_t(step)]));
                g.chips.push_back({s, step, QRectF(cx, chipTop, cw, m.chipHeight)});
                cx += cw + m.chipGap;
            }
        }
        x += w;
        if (s + 1 < n) {
            g.separators.push_back(x + m.separatorWidth / 2);
            x += m.separatorWidth;
        }
    }
    return g;
}

const StepStrip::Geometry& StepStrip::geometry() const {
    if (layoutDirty_ || laidOutWidth_ != width()) {
        geometry_ = computeGeometry();
        laidOutWidth_ = width();
        layoutDirty_ = false;
        hoverChip_ = -1;
        // A new layout (new steps, current step, width or font) brings the current step into
        // view; only the user's own scrolling may leave it outside.
        offset_ = std::clamp(offset_, 0.0, maxOffset());
        scrollToCurrent();
    }
    return geometry_;
}

void StepStrip::invalidateLayout() {
    layoutDirty_ = true;
    update();
}

double StepStrip::maxOffset() const {
    if (!geometry().scrolling)
        return 0;
    return std::max(0.0, geometry().contentWidth - viewportRect().width());
}

QRectF StepStrip::viewportRect() const {
    const Metrics m = metrics();
    if (!geometry().scrolling)
        return QRectF(m.margin, 0, width() - 2 * m.margin, height());
    return QRectF(m.arrowWidth + m.margin, 0, width() - 2 * (m.arrowWidth + m.margin), height());
}

QRectF StepStrip::arrowRect(Arrow arrow) const {
    if (!geometry().scrolling || arrow == Arrow::None)
        return {};
    const Metrics m = metrics();
    const double x = arrow == Arrow::Left ? 0 : width() - m.arrowWidth;
    return QRectF(x, 0, m.arrowWidth, height());
}

QRectF StepStrip::chipInWidget(const Chip& chip) const {
    return chip.rect.translated(viewportRect().left() - offset_, 0);
}

void StepStrip::scrollToCurrent() const {
    if (!geometry().scrolling || current_ < 0)
        return;
    for (const Chip& c : geometry().chips) {
        if (c.step != current_)
            continue;
        const double view = viewportRect().width();
        // A little room on either side so the neighbours show where the row goes on.
        const double slack =
            std::min(metrics().separatorWidth, std::max(0.0, (view - c.rect.width()) / 2));
        if (c.rect.left() - slack < offset_)
            offset_ = c.rect.left() - slack;
        else if (c.rect.right() + slack > offset_ + view)
            offset_ = c.rect.right() + slack - view;
        offset_ = std::clamp(offset_, 0.0, maxOffset());
        return;
    }
}

void StepStrip::scrollBy(double dx) {
    const double next = std::clamp(offset_ + dx, 0.0, maxOffset());
    if (next == offset_)
        return;
    offset_ = next;
    hoverChip_ = -1;
    update();
}

QRect StepStrip::stageRect(int stage) const {
    if (stage < 0 || stage >= int(geometry().stageFrames.size()))
        return {};
    const QRectF r =
        geometry().stageFrames[size_t(stage)].translated(viewportRect().left() - offset_, 0);
    return r.intersected(viewportRect()).toAlignedRect();
}

QRect StepStrip::clickableRect(const QString& id) const {
    const int step = int(stepIds().indexOf(id));
    if (step < 0)
        return {};
    const int stage = stageOfStep_[size_t(step)];
    for (const Chip& c : geometry().chips) {
        if (c.step == step || (c.step < 0 && c.stage == stage)) {
            const QRectF r = chipInWidget(c);
            const QRectF view = viewportRect();
            if (!view.intersects(r))
                return {};
            return r.intersected(view).toAlignedRect();
        }
    }
    return {};
}

int StepStrip::chipAt(const QPointF& pos) const {
    if (!viewportRect().contains(pos))
        return -1;
    for (int i = 0; i < int(geometry().chips.size()); ++i)
        if (chipInWidget(geometry().chips[size_t(i)]).contains(pos))
            return i;
    return -1;
}

StepStrip::Arrow StepStrip::arrowAt(const QPointF& pos) const {
    for (Arrow a : {Arrow::Left, Arrow::Right})
        if (arrowRect(a).contains(pos))
            return a;
    return Arrow::None;
}

QString StepStrip::chipText(const Chip& chip) const {
    if (chip.step < 0)
        return stages_[size_t(chip.stage)].foldedLabel;
    return chipLabelOf(steps_[size_t(chip.step)]);
}

QString StepStrip::chipToolTip(const Chip& chip) const {
    if (chip.step < 0) {
        const Stage& s = stages_[size_t(chip.stage)];
        return tr("<b>%1</b>: %2<br>Click to open it.")
            .arg(s.caption.toHtmlEscaped(), s.stepIds.join(QStringLiteral(", ")).toHtmlEscaped());
    }
    const StepInfo& s = steps_[size_t(chip.step)];
    return QStringLiteral("<b>%1</b> &nbsp;%2<br><code>%3</code><br>%4")
        .arg(QString::fromStdString(s.id).toHtmlEscaped(),
             QString::fromStdString(s.title).toHtmlEscaped(),
             QString::fromStdString(s.op).toHtmlEscaped(), namedShapeText(s).toHtmlEscaped());
}

QSize StepStrip::sizeHint() const {
    const Metrics m = metrics();
    // The width with every stage expanded: what the row would like, not what it needs.
    const QFontMetricsF capFm(m.captionFont);
    double w = 2 * m.margin + m.separatorWidth * std::max<double>(0, double(stages_.size()) - 1);
    for (size_t s = 0; s < stages_.size(); ++s) {
        double chips = 0;
        for (int step : stageSteps_[s])
            chips += m.chipWidth(chipLabelOf(steps_[size_t(step)])) + m.chipGap;
        w += std::max(chips, capFm.horizontalAdvance(stages_[s].caption));
    }
    return {std::max(int(std::ceil(w)), minimumSizeHint().width()), minimumSizeHint().height()};
}

QSize StepStrip::minimumSizeHint() const {
    const Metrics m = metrics();
    const int h = int(std::ceil(2 * m.margin + m.captionHeight + m.captionGap + m.chipHeight));
    // Two scroll arrows and one chip's worth of row: it collapses and scrolls below that.
    return {int(std::ceil(2 * m.arrowWidth + 2 * m.margin + 4 * m.chipHeight)), h};
}

// ---------------------------------------------------------------------------------------------
// Painting

void StepStrip::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const Metrics m = metrics();
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    const QColor muted = mix(text, pal.color(QPalette::Window), 0.4);
    const QColor lineColor = mix(text, pal.color(QPalette::Window), 0.55);
    const QRectF view = viewportRect();

    if (steps_.empty()) {
        p.setPen(muted);
        p.setFont(m.chipFont);
        p.drawText(rect(), Qt::AlignCenter, tr("No steps yet"));
        return;
    }

    p.save();
    p.setClipRect(view);
    p.translate(view.left() - offset_, 0);

    // Stage captions, and the dashed frame that marks the side branch.
    p.setFont(m.captionFont);
    for (int s = 0; s < int(stages_.size()); ++s) {
        const QRectF frame = geometry().stageFrames[size_t(s)];
        if (stages_[size_t(s)].branch) {
            QPen pen(lineColor, 1, Qt::DashLine);
            p.setPen(pen);
            p.setBrush(Qt::NoBrush);
            p.drawRoundedRect(frame.adjusted(0.5, -m.margin + 1.5, -0.5, m.margin - 1.5), 5, 5);
        }
        if (geometry().collapsed[size_t(s)])
            continue;
        const double pad = stages_[size_t(s)].branch ? std::ceil(m.chipGap) : 0;
        p.setPen(muted);
        p.drawText(QRectF(frame.left() + pad, m.margin, frame.width() - 2 * pad, m.captionHeight),
                   Qt::AlignHCenter | Qt::AlignVCenter, stages_[size_t(s)].caption);
    }

    // Arrows between stages; dashed into and out of the side branch.
    const double chipMid = m.margin + m.captionHeight + m.captionGap + m.chipHeight / 2;
    for (size_t i = 0; i < geometry().separators.size(); ++i) {
        const bool dashed = stages_[i].branch || stages_[i + 1].branch;
        const double cx = geometry().separators[i];
        const double half = m.separatorWidth * 0.28;
        QPen pen(lineColor, std::max(1.2, 1.3 * fontScale_), dashed ? Qt::DotLine : Qt::SolidLine,
                 Qt::RoundCap, Qt::RoundJoin);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        QPainterPath chevron;
        chevron.moveTo(cx - half * 0.6, chipMid - half);
        chevron.lineTo(cx + half * 0.6, chipMid);
        chevron.lineTo(cx - half * 0.6, chipMid + half);
        p.drawPath(chevron);
    }

    // Chips.
    p.setFont(m.chipFont);
    const QColor button = pal.color(QPalette::Button);
    const QColor highlight = pal.color(QPalette::Highlight);
    for (int i = 0; i < int(geometry().chips.size()); ++i) {
        const Chip& c = geometry().chips[size_t(i)];
        const bool isCurrent = c.step >= 0 && c.step == current_;
        const bool isHover = i == hoverChip_;
        const QRectF r = c.rect.adjusted(0.5, 0.5, -0.5, -0.5);
        const double radius = m.chipHeight / 2.0;
        QColor fill = isCurrent ? highlight : button;
        if (!isCurrent && isHover)
            fill = mix(button, highlight, 0.22);
        QPen border(isCurrent ? highlight : pal.color(QPalette::Mid), 1);
        if (c.step < 0)
            border.setStyle(Qt::DashLine);  // a folded stage: more inside
        p.setPen(border);
        p.setBrush(fill);
        p.drawRoundedRect(r, radius, radius);
        p.setPen(isCurrent ? pal.color(QPalette::HighlightedText)
                           : pal.color(QPalette::ButtonText));
        p.drawText(r, Qt::AlignCenter, chipText(c));
        if (isCurrent && hasFocus()) {
            // The focus ring: a second outline just outside the selected chip.
            QPen ring(highlight, 2);
            p.setPen(ring);
            p.setBrush(Qt::NoBrush);
            p.drawRoundedRect(c.rect.adjusted(-2.5, -2.5, 2.5, 2.5), radius + 2.5, radius + 2.5);
        }
    }
    p.restore();

    // Scroll arrows, greyed out at the end they cannot go past.
    if (geometry().scrolling) {
        for (Arrow a : {Arrow::Left, Arrow::Right}) {
            const QRectF r = arrowRect(a);
            const bool enabled = a == Arrow::Left ? offset_ > 0 : offset_ < maxOffset();
            QColor bg = pal.color(QPalette::Button);
            if (enabled && hoverArrow_ == a)
                bg = mix(bg, highlight, 0.22);
            p.setPen(Qt::NoPen);
            p.setBrush(bg);
            const QRectF box(r.left() + 1, chipMid - m.chipHeight / 2, r.width() - 2, m.chipHeight);
            p.drawRoundedRect(box, 4, 4);
            QPen pen(enabled ? text : mix(text, bg, 0.7), std::max(1.5, 1.6 * fontScale_),
                     Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
            p.setPen(pen);
            p.setBrush(Qt::NoBrush);
            const double half = m.chipHeight * 0.2;
            const double dir = a == Arrow::Left ? -1 : 1;
            QPainterPath chevron;
            chevron.moveTo(box.center().x() - dir * half * 0.6, chipMid - half);
            chevron.lineTo(box.center().x() + dir * half * 0.6, chipMid);
            chevron.lineTo(box.center().x() - dir * half * 0.6, chipMid + half);
            p.drawPath(chevron);
        }
    }
    if (hasFocus() && current_ < 0) {
        p.setPen(QPen(highlight, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(rect()).adjusted(1, 1, -1, -1));
    }
}

// ---------------------------------------------------------------------------------------------
// Events

void StepStrip::resizeEvent(QResizeEvent* event) {
    invalidateLayout();
    QWidget::resizeEvent(event);
}

void StepStrip::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange) {
        invalidateLayout();
        updateGeometry();
    }
    QWidget::changeEvent(event);
}

bool StepStrip::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int chip = chipAt(help->pos());
        const Arrow arrow = arrowAt(help->pos());
        if (chip >= 0)
            QToolTip::showText(help->globalPos(), chipToolTip(geometry().chips[size_t(chip)]), this,
                               chipInWidget(geometry().chips[size_t(chip)]).toAlignedRect());
        else if (arrow != Arrow::None)
            QToolTip::showText(help->globalPos(),
                               arrow == Arrow::Left ? tr("Scroll left") : tr("Scroll right"), this,
                               arrowRect(arrow).toAlignedRect());
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void StepStrip::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    const Arrow arrow = arrowAt(event->position());
    if (arrow != Arrow::None) {
        const double page = std::max(40.0, viewportRect().width() * 0.6);
        scrollBy(arrow == Arrow::Left ? -page : page);
        return;
    }
    const int chip = chipAt(event->position());
    if (chip < 0)
        return;
    const Chip& c = geometry().chips[size_t(chip)];
    if (c.step >= 0) {
        selectByUser(c.step);
    } else {
        // A folded stage opens at the step last shown in it, else at its first step.
        const int last = lastInStage_[size_t(c.stage)];
        selectByUser(last >= 0 ? last : stageSteps_[size_t(c.stage)].front());
    }
}

void StepStrip::mouseMoveEvent(QMouseEvent* event) {
    const int chip = chipAt(event->position());
    const Arrow arrow = arrowAt(event->position());
    if (chip != hoverChip_ || arrow != hoverArrow_) {
        hoverChip_ = chip;
        hoverArrow_ = arrow;
        update();
    }
    QWidget::mouseMoveEvent(event);
}

void StepStrip::leaveEvent(QEvent* event) {
    hoverChip_ = -1;
    hoverArrow_ = Arrow::None;
    update();
    QWidget::leaveEvent(event);
}

void StepStrip::keyPressEvent(QKeyEvent* event) {
    const int n = int(steps_.size());
    if (n == 0) {
        QWidget::keyPressEvent(event);
        return;
    }
    int next = -2;
    switch (event->key()) {
        case Qt::Key_Left:
            next = current_ < 0 ? n - 1 : std::max(0, current_ - 1);
            break;
        case Qt::Key_Right:
            next = current_ < 0 ? 0 : std::min(n - 1, current_ + 1);
            break;
        case Qt::Key_Home:
            next = 0;
            break;
        case Qt::Key_End:
            next = n - 1;
            break;
        default:
            QWidget::keyPressEvent(event);
            return;
    }
    selectByUser(next);
    event->accept();
}

void StepStrip::wheelEvent(QWheelEvent* event) {
    if (!geometry().scrolling) {
        QWidget::wheelEvent(event);
        return;
    }
    // A vertical wheel scrolls the row too: the row has nothing else to do with it.
    const QPoint pixels = event->pixelDelta();
    const QPoint angle = event->angleDelta();
    double dx = 0;
    if (!pixels.isNull())
        dx = -(pixels.x() != 0 ? pixels.x() : pixels.y());
    else
        dx = -(angle.x() != 0 ? angle.x() : angle.y()) / 120.0 * 3 * metrics().separatorWidth;
    scrollBy(dx);
    event->accept();
}

void StepStrip::focusInEvent(QFocusEvent* event) {
    scrollToCurrent();
    update();
    QWidget::focusInEvent(event);
}

void StepStrip::focusOutEvent(QFocusEvent* event) {
    update();
    QWidget::focusOutEvent(event);
}

}  // namespace attn
