#include "app/ablation_actions.h"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QToolButton>

#include "app/flow_layout.h"
#include "app/workspace.h"
#include "engine/decoder_model.h"

namespace attn {

namespace {

QString headName(int layer, int head) {
    return AblationActions::tr("L%1H%2").arg(layer).arg(head);
}

// The selected head in model mode: the layer and head the step views show.
bool selectedHead(const Workspace* w, int* layer, int* head) {
    const Settings& s = w->settings();
    if (!s.modelMode() || !w->model())
        return false;
    const DecoderArchitecture& a = w->model()->arch;
    *layer = s.layer;
    *head = s.head;
    return s.layer < a.layers && s.head < a.heads;
}

}  // namespace

AblationActions::AblationActions(Workspace* workspace, QWidget* window)
    : QObject(window), workspace_(workspace), window_(window) {
    menu_ = new QMenu(tr("&Heads"), window);
    menu_->setObjectName(QStringLiteral("menuHeads"));
    toggle_ = menu_->addAction(QString());
    toggle_->setObjectName(QStringLiteral("actionToggleHead"));
    toggle_->setShortcut(QKeySequence(tr("Ctrl+K")));
    toggle_->setToolTip(tr("Remove what the selected head writes, and see what changes"));
    window->addAction(toggle_);  // presentation mode hides the menu bar
    connect(toggle_, &QAction::triggered, this, [this] {
        int l = 0, h = 0;
        if (selectedHead(workspace_, &l, &h))
            workspace_->setHeadAblated(l, h, !workspace_->settings().ablation.contains(l, h));
    });
    restoreAll_ = menu_->addAction(tr("Switch every head back &on"));
    restoreAll_->setObjectName(QStringLiteral("actionRestoreHeads"));
    restoreAll_->setShortcut(QKeySequence(tr("Ctrl+Shift+K")));
    window->addAction(restoreAll_);
    connect(restoreAll_, &QAction::triggered, workspace_, &Workspace::restoreAllHeads);
    menu_->addSeparator();
    modes_ = new QActionGroup(this);
    const struct {
        AblationMode mode;
        QString text;
        QString tip;
    } modes[] = {{AblationMode::Zero, tr("A switched-off head writes &zero"),
                  tr("Its context vectors are replaced by 0 before the output projection")},
                 {AblationMode::Mean, tr("A switched-off head writes its &mean"),
                  tr("Its context vectors are replaced by their mean over the text's positions: "
                     "what it writes on average stays, what depends on the token goes")}};
    for (const auto& m : modes) {
        QAction* a = menu_->addAction(m.text);
        a->setCheckable(true);
        a->setToolTip(m.tip);
        a->setData(int(m.mode));
        modes_->addAction(a);
    }
    menu_->setToolTipsVisible(true);
    connect(modes_, &QActionGroup::triggered, this,
            [this](QAction* a) { workspace_->setAblationMode(AblationMode(a->data().toInt())); });
    connect(workspace_, &Workspace::settingsChanged, this, &AblationActions::update);
    connect(workspace_, &Workspace::modelChanged, this, &AblationActions::update);
    update();
}

void AblationActions::update() {
    int l = 0, h = 0;
    const bool selected = selectedHead(workspace_, &l, &h);
    const HeadAblation& a = workspace_->settings().ablation;
    toggle_->setEnabled(selected);
    toggle_->setText(!selected          ? tr("Switch the selected head &off")
                     : a.contains(l, h) ? tr("Switch head %1 back &on").arg(headName(l, h))
                                        : tr("Switch head %1 &off").arg(headName(l, h)));
    restoreAll_->setEnabled(!a.empty());
    const bool model = workspace_->settings().modelMode();
    for (QAction* m : modes_->actions()) {
        m->setEnabled(model);
        m->setChecked(AblationMode(m->data().toInt()) == a.mode);
    }
}

void AblationActions::addHeadActions(QMenu* menu, int layer, int head) {
    if (!workspace_->settings().modelMode())
        return;
    const bool off = workspace_->settings().ablation.contains(layer, head);
    QAction* toggle = menu->addAction(off ? tr("Switch head %1 back &on").arg(headName(layer, head))
                                          : tr("Switch head %1 &off").arg(headName(layer, head)));
    toggle->setObjectName(QStringLiteral("menuToggleHead"));
    connect(toggle, &QAction::triggered, workspace_,
            [w = workspace_, layer, head, off] { w->setHeadAblated(layer, head, !off); });
    if (!workspace_->settings().ablation.empty())
        connect(menu->addAction(tr("Switch every head back on")), &QAction::triggered, workspace_,
                &Workspace::restoreAllHeads);
}

// ---------------------------------------------------------------------------------------------

AblationBar::AblationBar(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace) {
    setObjectName(QStringLiteral("ablationBar"));
    flow_ = new FlowLayout(this, 4, 2);
    flow_->setContentsMargins(4, 2, 4, 2);
    title_ = new QLabel(tr("Switched off:"), this);
    title_->setToolTip(tr("Heads whose output is removed; click one to switch it back on"));
    mode_ = new QComboBox(this);
    mode_->setObjectName(QStringLiteral("ablationMode"));
    mode_->addItem(tr("write zero"), int(AblationMode::Zero));
    mode_->addItem(tr("write their mean"), int(AblationMode::Mean));
    mode_->setToolTip(
        tr("What a switched-off head writes: 0, or its mean over the text's positions"));
    restoreAll_ = new QPushButton(tr("Restore all"), this);
    restoreAll_->setObjectName(QStringLiteral("ablationRestoreAll"));
    restoreAll_->setToolTip(tr("Switch every head back on (Ctrl+Shift+K)"));
    connect(restoreAll_, &QPushButton::clicked, workspace_, &Workspace::restoreAllHeads);
    connect(mode_, &QComboBox::activated, this, [this](int i) {
        workspace_->setAblationMode(AblationMode(mode_->itemData(i).toInt()));
    });
    connect(workspace_, &Workspace::settingsChanged, this, &AblationBar::update);
    update();
}

QString AblationBar::summary() const {
    if (isHidden())
        return {};
    QStringList names;
    for (const HeadRef& r : workspace_->settings().ablation.heads)
        names << headName(int(r.layer), int(r.head));
    return tr("Switched off: %1").arg(names.join(QStringLiteral(", ")));
}

void AblationBar::update() {
    const Settings& s = workspace_->settings();
    const bool show = s.modelMode() && !s.ablation.empty();
    setVisible(show);
    if (!show)
        return;
    while (QLayoutItem* item = flow_->takeAt(0))
        delete item;
    for (QWidget* b : headButtons_)
        b->deleteLater();
    headButtons_.clear();
    flow_->addWidget(title_);
    for (const HeadRef& r : s.ablation.heads) {
        auto* b = new QToolButton(this);
        b->setText(headName(int(r.layer), int(r.head)) + QStringLiteral(" \u2715"));
        b->setToolTip(tr("Switch head %1 back on").arg(headName(int(r.layer), int(r.head))));
        b->setAutoRaise(false);
        connect(b, &QToolButton::clicked, workspace_,
                [w = workspace_, r] { w->setHeadAblated(int(r.layer), int(r.head), false); });
        headButtons_.push_back(b);
        flow_->addWidget(b);
    }
    mode_->setCurrentIndex(mode_->findData(int(s.ablation.mode)));
    flow_->addWidget(mode_);
    flow_->addWidget(restoreAll_);
}

}  // namespace attn
