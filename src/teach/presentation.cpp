#include "teach/presentation.h"

#include <QApplication>
#include <QVariantAnimation>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace attn {

QPalette presentationPalette(const PresentationOptions& o) {
    QPalette p;
    const QColor bg = o.darkBackground ? QColor(0x10, 0x10, 0x10) : QColor(Qt::white);
    const QColor fg = o.darkBackground ? QColor(Qt::white) : QColor(Qt::black);
    const QColor panel = o.darkBackground ? QColor(0x1e, 0x1e, 0x1e) : QColor(0xf2, 0xf2, 0xf2);
    const QColor accent = o.darkBackground ? QColor(0x56, 0xb4, 0xe9) : QColor(0x00, 0x4d, 0x99);
    for (auto group : {QPalette::Active, QPalette::Inactive}) {
        p.setColor(group, QPalette::Window, panel);
        p.setColor(group, QPalette::WindowText, fg);
        p.setColor(group, QPalette::Base, bg);
        p.setColor(group, QPalette::AlternateBase, panel);
        p.setColor(group, QPalette::Text, fg);
        p.setColor(group, QPalette::Button, panel);
        p.setColor(group, QPalette::ButtonText, fg);
        p.setColor(group, QPalette::Highlight, accent);
        p.setColor(group, QPalette::HighlightedText,
                   o.darkBackground ? QColor(Qt::black) : QColor(Qt::white));
        p.setColor(group, QPalette::ToolTipBase, bg);
        p.setColor(group, QPalette::ToolTipText, fg);
        p.setColor(group, QPalette::PlaceholderText,
                   o.darkBackground ? QColor(0xbb, 0xbb, 0xbb) : QColor(0x44, 0x44, 0x44));
        p.setColor(group, QPalette::Link, accent);
        p.setColor(group, QPalette::BrightText,
                   o.darkBackground ? QColor(0xff, 0xd0, 0x40) : QColor(0xb0, 0x00, 0x00));
    }
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    return p;
}

void PresentationMode::apply(QWidget* window, const PresentationOptions& options) {
    if (!window)
        return;
    if (window_ && window_ != window)
        restore();
    if (!window_) {
        hadPalette_ = window->testAttribute(Qt::WA_SetPalette);
        hadFont_ = window->testAttribute(Qt::WA_SetFont);
        oldPalette_ = window->palette();
        oldFont_ = window->font();
    }
    window_ = window;
    window->setPalette(presentationPalette(options));
    QFont f = oldFont_;
    f.setPointSizeF((oldFont_.pointSizeF() > 0 ? oldFont_.pointSizeF() : 10.0) *
                    std::clamp(options.fontScale, 0.5, 4.0));
    window->setFont(f);
}

void PresentationMode::restore() {
    if (!window_)
        return;
    // Back to what the window had: inherited from the application unless set before.
    window_->setPalette(hadPalette_ ? oldPalette_ : QPalette());
    window_->setFont(hadFont_ ? oldFont_ : QFont());
    window_->setAttribute(Qt::WA_SetPalette, hadPalette_);
    window_->setAttribute(Qt::WA_SetFont, hadFont_);
    window_ = nullptr;
}

CellFadeAnimator::CellFadeAnimator(QObject* parent)
    : QObject(parent), anim_(new QVariantAnimation(this)) {
    anim_->setStartValue(0.0);
    anim_->setEndValue(1.0);
    anim_->setDuration(1200);
    anim_->setEasingCurve(QEasingCurve::InOutCubic);
    connect(anim_, &QVariantAnimation::valueChanged, this, [this](const QVariant& v) {
        const double t = v.toDouble();
        emit frame(frameAt(t), t);
    });
    connect(anim_, &QVariantAnimation::finished, this, &CellFadeAnimator::finished);
}

CellFadeAnimator::~CellFadeAnimator() = default;

bool CellFadeAnimator::setEndpoints(const HeatmapData& from, const HeatmapData& to) {
    if (from.rows != to.rows || from.cols != to.cols || from.values.size() != to.values.size())
        return false;
    stop();
    from_ = from;
    to_ = to;
    return true;
}

void CellFadeAnimator::setDuration(int ms) {
    anim_->setDuration(std::max(1, ms));
}
int CellFadeAnimator::duration() const {
    return anim_->duration();
}
bool CellFadeAnimator::isRunning() const {
    return anim_->state() == QAbstractAnimation::Running;
}

HeatmapData CellFadeAnimator::interpolate(const HeatmapData& from, const HeatmapData& to,
                                          double t) {
    t = std::clamp(t, 0.0, 1.0);
    HeatmapData d = t < 0.5 ? from : to;  // labels, title, kind of the nearer end
    if (from.values.size() != to.values.size())
        return d;
    const size_t n = from.values.size();
    d.values.resize(n);
    d.hidden.assign(n, 0);
    // The colours blend; the numbers are those of the nearer end, never an in-between value
    // that no step holds (0.29 in a row of weights that ends at 1.00).
    const HeatmapData& nearer = t < 0.5 ? from : to;
    d.shownValues = nearer.shownValues.empty() ? nearer.values : nearer.shownValues;
    bool anyHidden = false;
    for (size_t i = 0; i < n; ++i) {
        const float a = from.values[i], b = to.values[i];
        const bool ha = (std::isinf(a) && a < 0) || (i < from.hidden.size() && from.hidden[i]);
        const bool hb = (std::isinf(b) && b < 0) || (i < to.hidden.size() && to.hidden[i]);
        if (std::isfinite(a) && std::isfinite(b)) {
            d.values[i] = float(a + (b - a) * t);
        } else if (std::isfinite(b)) {
            d.values[i] = b;  // e.g. -inf -> 0: show where it lands
        } else if (std::isfinite(a)) {
            d.values[i] = t < 1.0 ? a : b;
        } else {
            d.values[i] = t < 0.5 ? a : b;
        }
        // A cell masked at either end reads as masked throughout: it is the mask that fades.
        if (ha || hb) {
            d.hidden[i] = std::isfinite(d.values[i]) ? 1 : 0;
            anyHidden = anyHidden || d.hidden[i];
        }
    }
    if (!anyHidden)
        d.hidden.clear();
    return d;
}

HeatmapData CellFadeAnimator::frameAt(double t) const {
    return interpolate(from_, to_, t);
}

void CellFadeAnimator::start() {
    anim_->stop();
    anim_->start();
}

void CellFadeAnimator::stop() {
    if (anim_->state() == QAbstractAnimation::Running) {
        anim_->stop();
        emit frame(frameAt(1.0), 1.0);
        emit finished();
    }
}

}  // namespace attn
