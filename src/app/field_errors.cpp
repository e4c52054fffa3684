#include "app/field_errors.h"

#include <QEvent>
#include <QLabel>
#include <QPainter>
#include <QWidget>

namespace attn {

namespace {

const QColor kErrorRed(0xc6, 0x28, 0x28);

// A red rounded outline around a control. An overlay instead of a style sheet, so spin boxes and
// combo boxes keep their native look (arrows and all). It lives in the control's parent so it
// can draw just outside the control.
class ErrorOutline : public QWidget {
  public:
    explicit ErrorOutline(QWidget* control) : QWidget(control->parentWidget()), control_(control) {
        setAttribute(Qt::WA_TransparentForMouseEvents);
        setAttribute(Qt::WA_NoSystemBackground);
        setFocusPolicy(Qt::NoFocus);
        control->installEventFilter(this);
    }
    QWidget* control() const { return control_; }
    void follow() { setGeometry(control_->geometry().adjusted(-2, -2, 2, 2)); }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == control_) {
            if (event->type() == QEvent::Move || event->type() == QEvent::Resize)
                follow();
            else if (event->type() == QEvent::Hide)
                hide();
        }
        return false;
    }
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(QPen(kErrorRed, 2));
        p.drawRoundedRect(QRectF(rect()).adjusted(1, 1, -1, -1), 3, 3);
    }

  private:
    QWidget* control_;
};

}  // namespace

QLabel* makeErrorLabel(QWidget* parent, const QString& objectName) {
    auto* l = new QLabel(parent);
    l->setObjectName(objectName);
    l->setWordWrap(true);
    l->setTextFormat(Qt::PlainText);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette p = l->palette();
    p.setColor(QPalette::WindowText, kErrorRed);
    l->setPalette(p);
    l->hide();
    return l;
}

FieldErrors::FieldErrors(QObject* parent) : QObject(parent) {}

void FieldErrors::add(const QString& field, QLabel* label, const QList<QWidget*>& controls) {
    fields_[field] = Field{label, controls, {}, {}};
}

void FieldErrors::setOutline(QWidget* control, bool on) {
    if (!control->parentWidget())
        return;
    ErrorOutline* outline = nullptr;
    for (QObject* o : control->parentWidget()->children())
        if (auto* e = dynamic_cast<ErrorOutline*>(o); e && e->control() == control)
            outline = e;
    control->setProperty("attnError", on);
    if (!on) {
        if (outline)
            outline->hide();
        return;
    }
    if (!outline)
        outline = new ErrorOutline(control);
    outline->follow();
    outline->show();
    outline->raise();
}

void FieldErrors::show(const std::vector<ValidationIssue>& issues, const QStringList& ignored) {
    for (auto& [field, f] : fields_)
        f.messages.clear();
    generalMessages_.clear();
    for (const ValidationIssue& i : issues) {
        const QString field = QString::fromStdString(i.field);
        if (ignored.contains(field))
            continue;
        auto it = fields_.find(field);
        if (it != fields_.end())
            it->second.messages << QString::fromStdString(i.message);
        else
            generalMessages_ << QString::fromStdString(i.message);
    }
    for (auto& [field, f] : fields_)
        refresh(field);
    if (general_) {
        general_->setText(generalMessages_.join(QLatin1Char('\n')));
        general_->setVisible(!generalMessages_.isEmpty());
    }
}

void FieldErrors::setNote(const QString& field, const QString& text) {
    auto it = fields_.find(field);
    if (it == fields_.end() || it->second.note == text)
        return;
    it->second.note = text;
    refresh(field);
}

void FieldErrors::refresh(const QString& field) {
    Field& f = fields_[field];
    QStringList lines = f.messages;
    if (!f.note.isEmpty())
        lines << f.note;
    const bool on = !lines.isEmpty();
    f.label->setText(lines.join(QLatin1Char('\n')));
    f.label->setVisible(on);
    for (QWidget* w : f.controls)
        setOutline(w, !f.messages.isEmpty());
}

QString FieldErrors::text(const QString& field) const {
    auto it = fields_.find(field);
    if (it == fields_.end())
        return general_ && general_->isVisibleTo(general_->window()) ? general_->text() : QString();
    return it->second.label->isVisibleTo(it->second.label->window()) ? it->second.label->text()
                                                                     : QString();
}

}  // namespace attn
