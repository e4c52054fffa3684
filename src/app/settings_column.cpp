#include "app/settings_column.h"

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QLabel>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>

#include "app/input_panel.h"
#include "app/model_picker.h"
#include "app/module_panel.h"
#include "app/prediction_panel.h"
#include "app/workspace.h"

namespace attn {

SettingsColumn::SettingsColumn(Workspace* workspace, QWidget* parent)
    : QScrollArea(parent), workspace_(workspace) {
    setObjectName(QStringLiteral("settingsScroll"));
    auto* content = new QWidget;
    auto* column = new QVBoxLayout(content);
    picker_ = new ModelPicker(workspace_, content);
    input_ = new InputPanel(workspace_, content);
    module_ = new ModulePanel(workspace_, content);
    predictionTitle_ = new QLabel(tr("<b>Next token</b>"), content);
    predictions_ = new PredictionPanel(workspace_, content);
    predictions_->setObjectName(QStringLiteral("predictionPanel"));
    column->addWidget(new QLabel(tr("<b>Model</b>"), content));
    column->addWidget(picker_);
    column->addSpacing(6);
    column->addWidget(new QLabel(tr("<b>Input</b>"), content));
    column->addWidget(input_);
    column->addSpacing(6);
    column->addWidget(predictionTitle_);
    // In model mode the list takes the column's spare height (more predictions in view on a
    // tall screen); without a model it is hidden and the spare height stays at the bottom.
    column->addWidget(predictions_, 1);
    column->addSpacing(6);
    column->addWidget(new QLabel(tr("<b>Attention module</b>"), content));
    column->addWidget(module_);
    column->addStretch(1);
    column_ = column;
    setWidget(content);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // As wide as the controls need (their minimum sizes) plus the scroll bar: never clipped.
    setMinimumWidth(content->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width() +
                    4);
    // After the panels' own connections: their error lines are shown when this runs.
    connect(workspace_, &Workspace::resultApplied, this, &SettingsColumn::showNewProblems);
    connect(workspace_, &Workspace::settingsChanged, this, &SettingsColumn::refreshModelMode);
    connect(workspace_, &Workspace::modelChanged, this, &SettingsColumn::refreshModelMode);
    refreshModelMode();
    // The wheel scrolls the column; it changes a spin box or a drop-down only once the user has
    // clicked or tabbed into it. Scrolling to reach a setting must not change d_out on the way.
    for (QWidget* w : content->findChildren<QWidget*>())
        if (qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QComboBox*>(w)) {
            w->setFocusPolicy(Qt::StrongFocus);
            w->installEventFilter(this);
        }
}

bool SettingsColumn::eventFilter(QObject* watched, QEvent* event) {
    // Only the controls installed above: the scroll area filters its own viewport and bars too.
    auto* w = qobject_cast<QWidget*>(watched);
    const bool control =
        qobject_cast<QAbstractSpinBox*>(watched) || qobject_cast<QComboBox*>(watched);
    if (event->type() == QEvent::Wheel && control && !w->hasFocus()) {
        QCoreApplication::sendEvent(verticalScrollBar(), event);  // the column scrolls
        return true;
    }
    return QScrollArea::eventFilter(watched, event);
}

QString SettingsColumn::fieldError(const QString& field) const {
    return InputPanel::fields().contains(field) ? input_->fieldError(field)
                                                : module_->fieldError(field);
}

void SettingsColumn::showNewProblems() {
    QStringList fields;
    for (const ValidationIssue& i : workspace_->issues())
        fields << QString::fromStdString(i.field);
    QStringList added;
    for (const QString& f : fields)
        if (!problemFields_.contains(f) && !added.contains(f))
            added << f;
    problemFields_ = fields;
    if (added.isEmpty())
        return;
    // Once the error lines have their size: a line that wraps grows only when its layout runs.
    QTimer::singleShot(0, this, [this, added] { revealProblems(added); });
}

void SettingsColumn::revealProblems(const QStringList& added) {
    // The status bar says "see the highlighted setting": a problem that has just appeared is
    // scrolled into view with its control, unless one of the new ones is already in view (the
    // control being edited). Once only, so typing on does not pull the column about.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    const QRect view = viewport()->rect();
    QWidget* target = nullptr;
    for (const QString& f : added) {
        auto* label = widget()->findChild<QLabel*>(QStringLiteral("error_") + f);
        if (!label || !label->isVisibleTo(widget()))
            label = widget()->findChild<QLabel*>(QStringLiteral("error_general"));
        if (!label || !label->isVisibleTo(widget()))
            continue;
        // The error line and the control above it (they share a cell in the module panel).
        QWidget* cell = label->parentWidget();
        QWidget* shown = cell && cell != widget() && cell->height() < view.height() ? cell : label;
        const QRect r(shown->mapTo(viewport(), QPoint(0, 0)), shown->size());
        if (view.contains(r))
            return;
        if (!target)
            target = shown;
    }
    if (target)
        ensureWidgetVisible(target, 0, 8);
}

void SettingsColumn::refreshModelMode() {
    // Predictions need a trained model's output head.
    const bool model = workspace_->settings().modelMode();
    predictionTitle_->setVisible(model);
    predictions_->setVisible(model);
    column_->setStretch(column_->count() - 1, model ? 0 : 1);
}

}  // namespace attn
