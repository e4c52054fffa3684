#include "teach/model_overview.h"

#include <QAbstractScrollArea>
#include <QCheckBox>
#include <QContextMenuEvent>
#include <QEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "engine/decoder_forward.h"
#include "export/heatmap_data.h"
#include "export/heatmap_figure.h"
#include "export/model_figure.h"
#include "pipeline/latest_job.h"
#include "teach/scaled_font.h"

namespace attn {

namespace {

constexpr double kZoomStep = 1.25;

QString scoreText(double v, int decimals) {
    return std::isfinite(v) ? QString::number(v, 'f', decimals) : QString();
}

// The colour scale of the tiles: a small gradient between "0" and "1" (or "tile max").
class ScaleBar : public QWidget {
  public:
    explicit ScaleBar(QWidget* parent) : QWidget(parent) {
        setToolTip(tr("Colour scale of the tiles: dark = little attention, yellow = much"));
    }
    void setOwnScale(bool on) {
        own_ = on;
        updateGeometry();
        update();
    }
    QSize sizeHint() const override {
        const QFontMetrics fm(font());
        return {fm.horizontalAdvance(maxText()) + fm.horizontalAdvance(QStringLiteral("0")) + 96,
                fm.height() + 4};
    }

  protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        const QFontMetrics fm(font());
        const int zeroW = fm.horizontalAdvance(QStringLiteral("0")) + 4;
        const int maxW = fm.horizontalAdvance(maxText()) + 4;
        const QRect bar(zeroW, 3, std::max(8, width() - zeroW - maxW), height() - 6);
        for (int x = 0; x < bar.width(); ++x)
            p.fillRect(QRect(bar.left() + x, bar.top(), 1, bar.height()),
                       colormapColor(Colormap::Viridis, (x + 0.5) / bar.width()));
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(0, 0, zeroW, height()), Qt::AlignLeft | Qt::AlignVCenter,
                   QStringLiteral("0"));
        p.drawText(QRect(bar.right() + 1, 0, maxW, height()), Qt::AlignRight | Qt::AlignVCenter,
                   maxText());
    }

  private:
    QString maxText() const { return own_ ? tr("tile max") : QStringLiteral("1"); }
    bool own_ = false;
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// The scrolling grid. Labels are painted at fixed places over the viewport (layers on the
// left, heads on top) so they stay in view while the tiles scroll.

class OverviewGrid : public QAbstractScrollArea {
  public:
    explicit OverviewGrid(ModelOverview* owner) : QAbstractScrollArea(owner), o_(owner) {
        setFrameShape(QFrame::NoFrame);
        setFocusPolicy(Qt::StrongFocus);
        viewport()->setMouseTracking(true);
        viewport()->setBackgroundRole(QPalette::Base);
        viewport()->setAutoFillBackground(true);
        setAccessibleName(ModelOverview::tr("Attention of every layer and head"));
        setToolTip(ModelOverview::tr(
            "Every layer's (rows) and head's (columns) attention pattern. Click to select, "
            "double-click or Enter to open the head, arrows move, Ctrl+wheel or +/- zoom"));
    }

    struct Geometry {
        QFont font, boldFont;
        int leftW = 0, topH = 0;  // the label strips
        int groupH = 0;           // the key/value groups' line at the top of topH, or 0
        int tile = 0, gap = 0, pitch = 0;
        bool longHeadLabels = true;  // "head 3" fits above a tile, else "3"
    };

    const Geometry& geometry() const {
        if (geometryDirty_) {
            computeGeometry();
            geometryDirty_ = false;
        }
        return g_;
    }
    void invalidate() {
        geometryDirty_ = true;
        updateScrollBars();
        viewport()->update();
    }

    // Tile rectangle in viewport coordinates.
    QRect tileRect(int layer, int head) const {
        const Geometry& g = geometry();
        return {g.leftW + g.gap + head * g.pitch - horizontalScrollBar()->value(),
                g.topH + g.gap + layer * g.pitch - verticalScrollBar()->value(), g.tile, g.tile};
    }
    // The tile whose cell (tile and half the gaps around it) holds a viewport point.
    bool tileAt(const QPoint& pos, int* layer, int* head) const {
        const Geometry& g = geometry();
        if (pos.x() < g.leftW || pos.y() < g.topH || g.pitch <= 0)
            return false;
        const double x = pos.x() - g.leftW - g.gap / 2.0 + horizontalScrollBar()->value();
        const double y = pos.y() - g.topH - g.gap / 2.0 + verticalScrollBar()->value();
        const int h = int(std::floor(x / g.pitch)), l = int(std::floor(y / g.pitch));
        if (h < 0 || l < 0 || h >= o_->heads_ || l >= o_->layers_)
            return false;
        *layer = l;
        *head = h;
        return true;
    }
    void ensureVisible(int layer, int head) {
        const Geometry& g = geometry();
        const QRect r = tileRect(layer, head);
        const QRect area(g.leftW, g.topH, viewport()->width() - g.leftW,
                         viewport()->height() - g.topH);
        if (r.left() - g.gap < area.left())
            horizontalScrollBar()->setValue(horizontalScrollBar()->value() -
                                            (area.left() - r.left()) - g.gap);
        else if (r.right() + g.gap > area.right())
            horizontalScrollBar()->setValue(horizontalScrollBar()->value() +
                                            (r.right() - area.right()) + g.gap);
        if (r.top() - g.gap < area.top())
            verticalScrollBar()->setValue(verticalScrollBar()->value() - (area.top() - r.top()) -
                                          g.gap);
        else if (r.bottom() + g.gap > area.bottom())
            verticalScrollBar()->setValue(verticalScrollBar()->value() +
                                          (r.bottom() - area.bottom()) + g.gap);
    }
    // Scaled pictures are made for the tile size at hand and kept until it or the layer changes.
    void dropScaled() { scaled_.clear(); }

  protected:
    void resizeEvent(QResizeEvent* e) override {
        QAbstractScrollArea::resizeEvent(e);
        geometryDirty_ = true;
        updateScrollBars();
    }
    void scrollContentsBy(int, int) override { viewport()->update(); }

    bool viewportEvent(QEvent* e) override {
        if (e->type() == QEvent::ToolTip) {
            auto* he = static_cast<QHelpEvent*>(e);
            int l = 0, h = 0;
            if (tileAt(he->pos(), &l, &h))
                QToolTip::showText(he->globalPos(), o_->tileToolTip(l, h), viewport(),
                                   tileRect(l, h));
            else
                QToolTip::showText(he->globalPos(), toolTip(), viewport());
            return true;
        }
        return QAbstractScrollArea::viewportEvent(e);
    }

    void mousePressEvent(QMouseEvent* e) override {
        int l = 0, h = 0;
        if (e->button() == Qt::LeftButton && tileAt(e->position().toPoint(), &l, &h))
            o_->selectTile(l, h, true);
        QAbstractScrollArea::mousePressEvent(e);
    }
    void contextMenuEvent(QContextMenuEvent* e) override {
        int l = 0, h = 0;
        const bool mouse = e->reason() == QContextMenuEvent::Mouse;
        if (mouse ? tileAt(e->pos(), &l, &h)
                  : (l = o_->currentLayer_, h = o_->currentHead_, l >= 0 && h >= 0)) {
            if (mouse)
                o_->selectTile(l, h, true);
            const QPoint at =
                mouse ? e->globalPos() : viewport()->mapToGlobal(tileRect(l, h).center());
            emit o_->tileMenuRequested(l, h, at);
            e->accept();
            return;
        }
        QAbstractScrollArea::contextMenuEvent(e);
    }
    void mouseDoubleClickEvent(QMouseEvent* e) override {
        int l = 0, h = 0;
        if (e->button() == Qt::LeftButton && tileAt(e->position().toPoint(), &l, &h))
            emit o_->tileActivated(l, h);
    }
    void wheelEvent(QWheelEvent* e) override {
        if (e->modifiers() & Qt::ControlModifier) {
            if (e->angleDelta().y() > 0)
                o_->zoomIn();
            else if (e->angleDelta().y() < 0)
                o_->zoomOut();
            e->accept();
            return;
        }
        QAbstractScrollArea::wheelEvent(e);
    }
    void keyPressEvent(QKeyEvent* e) override {
        switch (e->key()) {
            case Qt::Key_Left:
                o_->moveCurrent(0, -1);
                return;
            case Qt::Key_Right:
                o_->moveCurrent(0, 1);
                return;
            case Qt::Key_Up:
                o_->moveCurrent(-1, 0);
                return;
            case Qt::Key_Down:
                o_->moveCurrent(1, 0);
                return;
            case Qt::Key_Return:
            case Qt::Key_Enter:
                if (o_->currentLayer_ >= 0 && o_->currentHead_ >= 0)
                    emit o_->tileActivated(o_->currentLayer_, o_->currentHead_);
                return;
            case Qt::Key_Plus:
            case Qt::Key_Equal:
                o_->zoomIn();
                return;
            case Qt::Key_Minus:
                o_->zoomOut();
                return;
            case Qt::Key_0:
                o_->zoomToFit();
                return;
            default:
                QAbstractScrollArea::keyPressEvent(e);
        }
    }
    void paintEvent(QPaintEvent*) override;

  private:
    void computeGeometry() const;
    void updateScrollBars() {
        const Geometry& g = geometry();
        const QSize v = viewport()->size();
        const int contentW = o_->heads_ * g.pitch + g.gap, contentH = o_->layers_ * g.pitch + g.gap;
        const int areaW = std::max(1, v.width() - g.leftW),
                  areaH = std::max(1, v.height() - g.topH);
        horizontalScrollBar()->setRange(0, std::max(0, contentW - areaW));
        horizontalScrollBar()->setPageStep(areaW);
        horizontalScrollBar()->setSingleStep(std::max(1, g.pitch / 2));
        verticalScrollBar()->setRange(0, std::max(0, contentH - areaH));
        verticalScrollBar()->setPageStep(areaH);
        verticalScrollBar()->setSingleStep(std::max(1, g.pitch / 2));
    }
    const QImage* scaledImage(int layer, int head, int pixels) const;

    ModelOverview* o_;
    mutable Geometry g_;
    mutable bool geometryDirty_ = true;
    struct Scaled {
        QImage image;
        quint64 stamp = 0;
    };
    mutable std::vector<Scaled> scaled_;  // layer * heads + head
};

void OverviewGrid::computeGeometry() const {
    Geometry& g = g_;
    g.font = scaledFont(font(), o_->fontScale_);
    g.boldFont = g.font;
    g.boldFont.setBold(true);
    const QFontMetrics fm(g.boldFont);
    const int L = std::max(1, o_->layers_), H = std::max(1, o_->heads_);
    int labelW = fm.horizontalAdvance(ModelOverview::tr("layer %1").arg(L - 1));
    for (int l = 0; l < int(o_->windows_.size()) && l < o_->layers_; ++l)
        if (o_->windows_[size_t(l)] > 0)
            labelW = std::max(labelW, fm.horizontalAdvance(o_->layerLabel(l)));
    g.leftW = labelW + 14;
    g.groupH = o_->groupOfHead_.empty() ? 0 : fm.height() + 6;
    g.topH = g.groupH + fm.height() + 8;
    // The fit: the largest tile whose grid (tiles, gaps between them and around them) fits
    // the view as it is without scroll bars.
    const QSize avail = maximumViewportSize();
    const int areaW = avail.width() - g.leftW, areaH = avail.height() - g.topH;
    const auto gapFor = [](int tile) { return std::max(4, tile / 10); };
    int fit = std::max(1, std::min(areaW / H, areaH / L));
    while (fit > ModelOverview::kMinTile && (H * (fit + gapFor(fit)) + gapFor(fit) > areaW ||
                                             L * (fit + gapFor(fit)) + gapFor(fit) > areaH))
        --fit;
    // Zoom magnifies from the fit, or from the smallest tile when the fit is smaller still, so
    // every zoom step shows.
    const double base = std::max(fit, ModelOverview::kMinTile);
    g.tile = std::clamp(int(std::floor(base * o_->zoom_)), ModelOverview::kMinTile,
                        ModelOverview::kMaxTile);
    g.gap = gapFor(g.tile);
    g.pitch = g.tile + g.gap;
    g.longHeadLabels = fm.horizontalAdvance(ModelOverview::tr("head %1").arg(H - 1)) + 4 <= g.pitch;
}

const QImage* OverviewGrid::scaledImage(int layer, int head, int pixels) const {
    const auto& data = o_->layerData_[size_t(layer)];
    if (data.images.size() != size_t(o_->heads_))
        return nullptr;
    const size_t i = size_t(layer) * size_t(o_->heads_) + size_t(head);
    if (scaled_.size() != size_t(o_->layers_) * size_t(o_->heads_))
        scaled_.assign(size_t(o_->layers_) * size_t(o_->heads_), {});
    Scaled& s = scaled_[i];
    if (s.stamp != data.stamp || s.image.width() != pixels) {
        const QImage& src = data.images[size_t(head)];
        // Cells larger than a pixel stay crisp squares; smaller ones are averaged.
        s.image =
            src.scaled(pixels, pixels, Qt::IgnoreAspectRatio,
                       pixels >= src.width() ? Qt::FastTransformation : Qt::SmoothTransformation);
        s.stamp = data.stamp;
    }
    return &s.image;
}

void OverviewGrid::paintEvent(QPaintEvent*) {
    QPainter p(viewport());
    const QPalette pal = palette();
    const Geometry& g = geometry();
    const QRect all = viewport()->rect();
    p.setFont(g.font);
    if (o_->layers_ == 0 || o_->heads_ == 0) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(all, Qt::AlignCenter | Qt::TextWordWrap,
                   ModelOverview::tr("No model run yet: load a model and type some text."));
        return;
    }
    const FigureColors colors = FigureColors::fromPalette(pal);
    const double dpr = viewport()->devicePixelRatioF();
    const int pixels = std::max(1, int(std::lround(g.tile * dpr)));
    const int hScroll = horizontalScrollBar()->value(), vScroll = verticalScrollBar()->value();
    const int h0 = std::max(0, (hScroll - g.gap) / g.pitch);
    const int h1 = std::min(o_->heads_ - 1, (hScroll + all.width() - g.leftW) / g.pitch);
    const int l0 = std::max(0, (vScroll - g.gap) / g.pitch);
    const int l1 = std::min(o_->layers_ - 1, (vScroll + all.height() - g.topH) / g.pitch);

    p.save();
    p.setClipRect(QRect(g.leftW, g.topH, all.width() - g.leftW, all.height() - g.topH));
    // Heads that share a key/value group stand together: every other group's columns on a
    // tinted band, a line between groups.
    const std::vector<int>& groups = o_->groupOfHead_;
    if (!groups.empty()) {
        const int top = tileRect(l0, 0).top() - g.gap, bottom = tileRect(l1, 0).bottom() + g.gap;
        for (int h = h0; h <= h1; ++h) {
            const QRect r = tileRect(0, h);
            if (groups[size_t(h)] % 2 == 1)
                p.fillRect(QRect(r.left() - g.gap / 2, top, g.pitch, bottom - top),
                           pal.color(QPalette::AlternateBase));
            if (h > 0 && groups[size_t(h)] != groups[size_t(h - 1)]) {
                p.setPen(QPen(pal.color(QPalette::Dark), std::max(2, g.gap / 2)));
                const int x = r.left() - (g.gap + 1) / 2;
                p.drawLine(x, top, x, bottom);
            }
        }
    }
    QPen pending(pal.color(QPalette::Mid), 1, Qt::DashLine);
    bool computingNoted = false;
    for (int l = l0; l <= l1; ++l) {
        const auto& data = o_->layerData_[size_t(l)];
        for (int h = h0; h <= h1; ++h) {
            const QRect r = tileRect(l, h);
            if (data.thumbnails.empty()) {
                p.setPen(pending);
                p.setBrush(Qt::NoBrush);
                p.drawRect(r.adjusted(0, 0, -1, -1));
                continue;
            }
            p.fillRect(r, colors.maskFill);
            if (const QImage* img = scaledImage(l, h, pixels)) {
                QImage shown = *img;
                shown.setDevicePixelRatio(dpr);
                p.drawImage(r.topLeft(), shown);
            }
            if (o_->isAblated(l, h)) {
                // Switched off: greyed and crossed out, the picture still visible beneath.
                QColor veil = pal.color(QPalette::Base);
                veil.setAlphaF(0.55f);
                p.fillRect(r, veil);
                p.setPen(QPen(QColor(0xd7, 0x30, 0x27), std::max(2, g.tile / 16)));  // "off" red
                p.drawLine(r.topLeft(), r.bottomRight());
                p.drawLine(r.topRight(), r.bottomLeft());
            }
        }
        if (data.thumbnails.empty() && !computingNoted) {
            // The first layer still to come says so across its row.
            computingNoted = true;
            const QRect row(g.leftW + g.gap - hScroll, tileRect(l, 0).top(), o_->heads_ * g.pitch,
                            g.tile);
            p.setPen(pal.color(QPalette::PlaceholderText));
            p.drawText(row.intersected(all.adjusted(g.leftW, 0, 0, 0)), Qt::AlignCenter,
                       ModelOverview::tr("computing\u2026"));
        }
    }
    if (o_->currentLayer_ >= 0 && o_->currentHead_ >= 0) {
        const QRect r = tileRect(o_->currentLayer_, o_->currentHead_);
        const int w = std::max(2, g.gap / 2 + 1);
        p.setPen(
            QPen(pal.color(QPalette::Highlight), w, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
        p.setBrush(Qt::NoBrush);
        const double out = w / 2.0 + 0.5;
        p.drawRect(QRectF(r).adjusted(-out, -out, out, out));
    }
    p.restore();

    // The label strips, drawn over anything scrolled beneath them.
    const QColor text = pal.color(QPalette::Text), highlight = pal.color(QPalette::Highlight);
    const QColor faint = pal.color(QPalette::PlaceholderText);
    p.fillRect(QRect(0, 0, all.width(), g.topH), pal.color(QPalette::Base));
    p.fillRect(QRect(0, 0, g.leftW, all.height()), pal.color(QPalette::Base));
    p.save();
    p.setClipRect(QRect(g.leftW, 0, all.width() - g.leftW, g.topH));
    for (int h = h0; h <= h1; ++h) {
        const QRect r = tileRect(0, h);
        const bool current = h == o_->currentHead_;
        p.setFont(current ? g.boldFont : g.font);
        p.setPen(current ? highlight : text);
        const QString label =
            g.longHeadLabels ? ModelOverview::tr("head %1").arg(h) : QString::number(h);
        p.drawText(QRect(r.left() - g.gap, g.groupH, r.width() + 2 * g.gap, g.topH - g.groupH),
                   Qt::AlignHCenter | Qt::AlignVCenter, label);
    }
    // Above the heads, their key/value groups: a bracket over each group's columns, named as
    // long as it fits.
    for (int h = h0; h <= h1 && !groups.empty(); ++h) {
        if (h > h0 && groups[size_t(h)] == groups[size_t(h - 1)])
            continue;
        int last = h;
        while (last + 1 < o_->heads_ && groups[size_t(last + 1)] == groups[size_t(h)])
            ++last;
        int first = h;
        while (first > 0 && groups[size_t(first - 1)] == groups[size_t(h)])
            --first;
        const QRect span(tileRect(0, first).left(), 0,
                         tileRect(0, last).right() - tileRect(0, first).left() + 1, g.groupH);
        p.setPen(QPen(faint, 1));
        const int y = span.bottom() - 1;
        p.drawLine(span.left(), y, span.right(), y);
        p.drawLine(span.left(), y, span.left(), y - 3);
        p.drawLine(span.right(), y, span.right(), y - 3);
        const QFontMetrics fm(g.font);
        const int group = groups[size_t(h)];
        QString name = ModelOverview::tr("K/V group %1").arg(group);
        if (fm.horizontalAdvance(name) + g.gap + 6 > span.width())
            name = ModelOverview::tr("K/V %1").arg(group);
        if (fm.horizontalAdvance(name) + g.gap + 6 > span.width())
            name = QString::number(group);
        p.setFont(g.font);
        p.setPen(text);
        p.drawText(span.adjusted(0, 0, 0, -3), Qt::AlignHCenter | Qt::AlignVCenter, name);
    }
    p.restore();
    if (!g.longHeadLabels) {
        p.setFont(g.font);
        p.setPen(faint);
        p.drawText(QRect(0, g.groupH, g.leftW - 4, g.topH - g.groupH),
                   Qt::AlignRight | Qt::AlignVCenter, ModelOverview::tr("head"));
    }
    p.save();
    p.setClipRect(QRect(0, g.topH, g.leftW, all.height() - g.topH));
    for (int l = l0; l <= l1; ++l) {
        const QRect r = tileRect(l, 0);
        const bool current = l == o_->currentLayer_;
        p.setFont(current ? g.boldFont : g.font);
        p.setPen(current ? highlight : o_->layerData_[size_t(l)].thumbnails.empty() ? faint : text);
        p.drawText(QRect(0, r.top(), g.leftW - 8, r.height()), Qt::AlignRight | Qt::AlignVCenter,
                   o_->layerLabel(l));
    }
    p.restore();
}

// ---------------------------------------------------------------------------------------------
// The overview

ModelOverview::ModelOverview(QWidget* parent)
    : QWidget(parent), imageJob_(std::make_unique<LatestJob>()) {
    grid_ = new OverviewGrid(this);
    status_ = new QLabel(this);
    status_->setToolTip(tr("The model's size and how far the computation is"));
    status_->setTextFormat(Qt::PlainText);
    status_->setWordWrap(true);
    status_->setContentsMargins(6, 0, 6, 2);
    auto* bar = new ScaleBar(this);
    scaleBar_ = bar;
    ownScaleBox_ = new QCheckBox(tr("Each tile its own scale"), this);
    ownScaleBox_->setToolTip(
        tr("Colour every tile from 0 to its own largest weight, so faint, spread-out heads "
           "show their pattern too (unchecked: every tile from 0 to 1, comparable)"));
    auto makeButton = [this](const QString& text, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        return b;
    };
    zoomOutButton_ = makeButton(QStringLiteral("\u2212"), tr("Smaller tiles (-, Ctrl+wheel)"));
    fitButton_ = makeButton(tr("Fit"), tr("Tiles that fit the view (0)"));
    zoomInButton_ = makeButton(QStringLiteral("+"), tr("Larger tiles (+, Ctrl+wheel)"));
    connect(zoomOutButton_, &QToolButton::clicked, this, &ModelOverview::zoomOut);
    connect(fitButton_, &QToolButton::clicked, this, &ModelOverview::zoomToFit);
    connect(zoomInButton_, &QToolButton::clicked, this, &ModelOverview::zoomIn);
    connect(ownScaleBox_, &QCheckBox::toggled, this, &ModelOverview::setOwnScale);

    auto* top = new QHBoxLayout;
    top->setContentsMargins(4, 2, 4, 2);
    top->addWidget(bar);
    top->addSpacing(8);
    top->addWidget(ownScaleBox_);
    top->addStretch(1);
    top->addWidget(zoomOutButton_);
    top->addWidget(fitButton_);
    top->addWidget(zoomInButton_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(grid_, 1);
    layout->addWidget(status_);
    setFocusProxy(grid_);
    imageJob_->setErrorHandler([this](const QString& error) { status_->setText(error); });
    updateStatus();
    updateZoomButtons();
}

ModelOverview::~ModelOverview() = default;

void ModelOverview::resetLayers(int layers, int heads) {
    imageJob_->cancel();
    layers_ = std::max(0, layers);
    heads_ = layers_ > 0 ? std::max(0, heads) : 0;
    if (heads_ == 0)
        layers_ = 0;
    layerData_.assign(size_t(layers_), {});
    scores_ = {};
    if (currentLayer_ >= layers_ || currentHead_ >= heads_)
        currentLayer_ = currentHead_ = -1;
    grid_->dropScaled();
    grid_->invalidate();
    updateStatus();
}

void ModelOverview::clear() {
    resetLayers(0, 0);
}

void ModelOverview::setArchitecture(int layers, int heads) {
    groupOfHead_.clear();
    windows_.clear();
    resetLayers(layers, heads);
}

namespace {

// The group of every head when some heads share one, else empty.
std::vector<int> sharedGroups(const DecoderArchitecture& a) {
    std::vector<int> groups;
    if (a.keyValueHeads() >= a.heads)
        return groups;
    for (int64_t h = 0; h < a.heads; ++h)
        groups.push_back(int(a.groupOfHead(h)));
    return groups;
}

}  // namespace

void ModelOverview::setArchitecture(const DecoderArchitecture& arch) {
    resetLayers(int(arch.layers), int(arch.heads));
    groupOfHead_ = sharedGroups(arch);
    windows_ = arch.windows;
    grid_->invalidate();
}

QString ModelOverview::layerLabel(int layer) const {
    const int64_t window =
        layer >= 0 && layer < int(windows_.size()) ? windows_[size_t(layer)] : int64_t(0);
    return window > 0 ? tr("layer %1 \u00b7 window %2").arg(layer).arg(window)
                      : tr("layer %1").arg(layer);
}

void ModelOverview::setLayer(int layer, const Tensor& thumbnail) {
    if (layer < 0 || layer >= layers_ || thumbnail.dim() != 3 || thumbnail.size(0) != heads_ ||
        thumbnail.size(1) != thumbnail.size(2))
        return;
    Layer& d = layerData_[size_t(layer)];
    d.thumbnails = thumbnail;
    d.stamp = nextStamp_++;
    // One layer is at most heads x P x P cells (25 x 64 x 64 at GPT-2 XL): well under a
    // millisecond, so its pictures are built here and show at once.
    d.images = overviewTileImages(thumbnail, Colormap::Viridis, ownScale_);
    grid_->viewport()->update();
    updateStatus();
}

void ModelOverview::setRun(std::shared_ptr<const DecoderRun> run) {
    if (!run || !run->model || run->thumbnails.dim() != 4) {
        clear();
        return;
    }
    const Tensor& all = run->thumbnails;
    if (all.size(0) != layers_ || all.size(1) != heads_)
        resetLayers(int(all.size(0)), int(all.size(1)));
    groupOfHead_ = sharedGroups(run->model->arch);
    windows_ = run->model->arch.windows;
    for (int l = 0; l < layers_; ++l) {
        const Tensor t = all.select(0, l);
        Layer& d = layerData_[size_t(l)];
        if (d.thumbnails.sharesStorageWith(t) && d.thumbnails.data() == t.data() &&
            d.thumbnails.shape() == t.shape() && !d.images.empty())
            continue;  // already shown from this run's progress
        d.thumbnails = t;
        d.stamp = nextStamp_++;
        d.images.clear();
    }
    scores_ = runSummaries(*run);
    rebuildImages(false);
    grid_->viewport()->update();
    updateStatus();
}

void ModelOverview::rebuildImages(bool all) {
    struct Input {
        int layer;
        quint64 stamp;
        Tensor thumbnails;
    };
    std::vector<Input> inputs;
    for (int l = 0; l < layers_; ++l) {
        const Layer& d = layerData_[size_t(l)];
        if (!d.thumbnails.empty() && (all || d.images.empty()))
            inputs.push_back({l, d.stamp, d.thumbnails});
    }
    if (inputs.empty())
        return;
    struct Output {
        int layer;
        quint64 stamp;
        std::vector<QImage> images;
    };
    const bool own = ownScale_;
    imageJob_->run(
        [inputs = std::move(inputs), own](const CancelToken& cancel) {
            std::vector<Output> out;
            for (const Input& in : inputs) {
                throwIfCancelled(&cancel);
                out.push_back({in.layer, in.stamp,
                               overviewTileImages(in.thumbnails, Colormap::Viridis, own)});
            }
            return out;
        },
        [this](std::vector<Output> out) {
            for (Output& o : out) {
                // A layer set again meanwhile (setLayer) has newer pictures already.
                if (o.layer < layers_ && layerData_[size_t(o.layer)].stamp == o.stamp) {
                    Layer& d = layerData_[size_t(o.layer)];
                    d.images = std::move(o.images);
                    d.stamp = nextStamp_++;  // the scaled copies are stale now
                }
            }
            grid_->viewport()->update();
            updateStatus();
        });
    updateStatus();
}

void ModelOverview::setSummaries(const HeadScores& scores) {
    if (scores.layers != layers_ || scores.heads != heads_)
        return;
    scores_ = scores;
}

bool ModelOverview::hasLayer(int layer) const {
    return layer >= 0 && layer < layers_ && !layerData_[size_t(layer)].thumbnails.empty();
}

int ModelOverview::layersDone() const {
    return int(std::count_if(layerData_.begin(), layerData_.end(),
                             [](const Layer& d) { return !d.thumbnails.empty(); }));
}

bool ModelOverview::tilesReady() const {
    if (imageJob_->busy())
        return false;
    return std::all_of(layerData_.begin(), layerData_.end(), [this](const Layer& d) {
        return d.thumbnails.empty() || d.images.size() == size_t(heads_);
    });
}

void ModelOverview::setCurrent(int layer, int head) {
    if (layer < 0 || head < 0 || layer >= layers_ || head >= heads_)
        layer = head = -1;
    if (layer == currentLayer_ && head == currentHead_)
        return;
    currentLayer_ = layer;
    currentHead_ = head;
    if (layer >= 0)
        grid_->ensureVisible(layer, head);
    grid_->viewport()->update();
}

void ModelOverview::selectTile(int layer, int head, bool clicked) {
    setCurrent(layer, head);
    if (clicked)
        emit tileClicked(layer, head);
    emit currentChanged(layer, head);
}

void ModelOverview::moveCurrent(int dLayer, int dHead) {
    if (layers_ == 0)
        return;
    if (currentLayer_ < 0) {
        selectTile(0, 0, false);
        return;
    }
    const int l = std::clamp(currentLayer_ + dLayer, 0, layers_ - 1);
    const int h = std::clamp(currentHead_ + dHead, 0, heads_ - 1);
    if (l != currentLayer_ || h != currentHead_)
        selectTile(l, h, false);
}

void ModelOverview::setOwnScale(bool on) {
    if (on == ownScale_)
        return;
    ownScale_ = on;
    {
        const QSignalBlocker block(ownScaleBox_);
        ownScaleBox_->setChecked(on);
    }
    static_cast<ScaleBar*>(scaleBar_)->setOwnScale(on);
    rebuildImages(true);
}

void ModelOverview::setZoom(double zoom) {
    zoom = std::isfinite(zoom) ? std::clamp(zoom, 1.0, 16.0) : 1.0;
    if (zoom == zoom_)
        return;
    zoom_ = zoom;
    grid_->invalidate();
    if (currentLayer_ >= 0)
        grid_->ensureVisible(currentLayer_, currentHead_);
    updateZoomButtons();
}

void ModelOverview::zoomIn() {
    // Beyond the largest tile more zoom changes nothing: stop there.
    if (tileSize() < kMaxTile)
        setZoom(zoom_ * kZoomStep);
}

void ModelOverview::zoomOut() {
    setZoom(zoom_ / kZoomStep);
}

void ModelOverview::zoomToFit() {
    setZoom(1.0);
}

int ModelOverview::tileSize() const {
    return grid_->geometry().tile;
}

void ModelOverview::setFontScale(double scale) {
    if (!std::isfinite(scale) || scale <= 0 || scale == fontScale_)
        return;
    fontScale_ = scale;
    grid_->invalidate();
}

QRect ModelOverview::tileRect(int layer, int head) const {
    if (layer < 0 || head < 0 || layer >= layers_ || head >= heads_)
        return {};
    const QRect r = grid_->tileRect(layer, head);
    return QRect(grid_->viewport()->mapTo(this, r.topLeft()), r.size());
}

void ModelOverview::scrollToTile(int layer, int head) {
    if (layer >= 0 && head >= 0 && layer < layers_ && head < heads_)
        grid_->ensureVisible(layer, head);
}

void ModelOverview::setAblated(std::vector<HeadRef> heads) {
    if (heads == ablated_)
        return;
    ablated_ = std::move(heads);
    grid_->viewport()->update();
}

bool ModelOverview::isAblated(int layer, int head) const {
    return std::binary_search(ablated_.begin(), ablated_.end(), HeadRef{layer, head});
}

QString ModelOverview::tileToolTip(int layer, int head) const {
    if (layer < 0 || head < 0 || layer >= layers_ || head >= heads_)
        return {};
    QStringList lines{tr("Layer %1, head %2").arg(layer).arg(head)};
    if (isAblated(layer, head))
        lines << tr("switched off: what it writes is removed (its pattern is still shown)");
    if (head < int(groupOfHead_.size())) {
        const int g = groupOfHead_[size_t(head)];
        const auto first = std::find(groupOfHead_.begin(), groupOfHead_.end(), g);
        const auto count = std::count(groupOfHead_.begin(), groupOfHead_.end(), g);
        const int h0 = int(first - groupOfHead_.begin());
        lines << tr("reads key/value group %1, shared by heads %2 to %3")
                     .arg(g)
                     .arg(h0)
                     .arg(h0 + int(count) - 1);
    }
    if (layer < int(windows_.size()) && windows_[size_t(layer)] > 0)
        lines << tr("sliding window: each token sees itself and the %1 tokens before it")
                     .arg(windows_[size_t(layer)] - 1);
    if (!hasLayer(layer)) {
        lines << tr("computing\u2026");
        return lines.join(QLatin1Char('\n'));
    }
    const auto add = [&](const std::vector<double>& v, int decimals, const QString& format) {
        const QString s = scoreText(scores_.at(v, layer, head), decimals);
        if (!s.isEmpty())
            lines << format.arg(s);
    };
    add(scores_.entropy, 2, tr("entropy %1 nats (low = focused)"));
    add(scores_.distance, 2, tr("mean distance %1 tokens (1 = previous token)"));
    add(scores_.firstWeight, 2, tr("weight on the first token %1"));
    add(scores_.previousToken, 2, tr("previous-token score %1"));
    add(scores_.induction, 2, tr("induction score %1"));
    const Layer& d = layerData_[size_t(layer)];
    const Tensor tile = d.thumbnails.select(0, head).contiguous();
    lines << tr("largest pooled weight %1")
                 .arg(QString::number(tileMaximum(tile.data(), tile.numel()), 'f', 2));
    lines << tr("Double-click to open this head");
    return lines.join(QLatin1Char('\n'));
}

QString ModelOverview::statusText() const {
    if (layers_ == 0)
        return tr("No model run yet.");
    const int done = layersDone();
    const QString size = tr("%1 layers \u00d7 %2 heads").arg(layers_).arg(heads_);
    if (done < layers_)
        return tr("%1: computing, %2 of %3 layers done\u2026").arg(size).arg(done).arg(layers_);
    return tr("%1. Click a tile to select it, double-click to open that head.").arg(size);
}

void ModelOverview::updateStatus() {
    status_->setText(statusText());
}

void ModelOverview::updateZoomButtons() {
    zoomOutButton_->setEnabled(zoom_ > 1.0);
    fitButton_->setEnabled(zoom_ != 1.0);
}

void ModelOverview::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange)
        grid_->invalidate();
}

}  // namespace attn
