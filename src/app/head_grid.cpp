// HeadGrid: every head of a per-head step as small multiples, painted by one widget (fast with
// many heads), sharing one colour range so the heads can be compared.

#include <QImage>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <cmath>

#include "app/heatmap_view.h"

namespace attn {

struct HeadGrid::Private {
    std::vector<HeatmapData> heads;
    std::vector<QImage> images;  // one pixel per cell
    FigureColors colors;         // masked cells' grey and hatch: from the palette
    Colormap colormap = Colormap::Viridis;
    int current = 0;
    int hover = -1;
    // Layout, recomputed on resize and new data.
    int columns = 1;
    int tile = 0;  // side of the square a head's heatmap may take
    int captionH = 16;
    std::vector<QRect> tiles;  // heatmap rect (aspect kept) per head
    std::vector<QRect> cells;  // whole cell (heatmap + caption) per head
};

namespace {

constexpr int kPad = 6;
constexpr int kGap = 8;

std::pair<double, double> sharedRange(const std::vector<HeatmapData>& heads, Colormap c) {
    if (heads.empty())
        return {0.0, 1.0};
    HeatmapData all;
    all.kind = heads.front().kind;
    for (const HeatmapData& h : heads)
        all.values.insert(all.values.end(), h.values.begin(), h.values.end());
    all.rows = 1;
    all.cols = int(all.values.size());
    return colorRange(all, c);
}

}  // namespace

HeadGrid::HeadGrid(QWidget* parent) : QWidget(parent), d_(std::make_unique<Private>()) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setAccessibleName(tr("Attention heads"));
    setToolTip(QString());
    d_->colors = FigureColors::fromPalette(palette());
}

HeadGrid::~HeadGrid() = default;

void HeadGrid::setHeads(const std::vector<HeatmapData>& heads) {
    d_->heads = heads;
    d_->current = std::clamp(d_->current, 0, std::max(0, int(heads.size()) - 1));
    d_->hover = -1;
    setColormap(d_->colormap);  // rebuilds the images
}

void HeadGrid::setCurrentHead(int head) {
    if (head == d_->current)
        return;
    d_->current = head;
    update();
}

int HeadGrid::currentHead() const {
    return d_->current;
}

void HeadGrid::setColormap(Colormap c) {
    d_->colormap = c;
    d_->images.clear();
    const auto [lo, hi] = sharedRange(d_->heads, c);
    const double span = hi > lo ? hi - lo : 1.0;
    for (const HeatmapData& h : d_->heads) {
        QImage img(std::max(1, h.cols), std::max(1, h.rows), QImage::Format_RGB32);
        img.fill(d_->colors.maskFill);
        for (int r = 0; r < h.rows; ++r) {
            auto* line = reinterpret_cast<QRgb*>(img.scanLine(r));
            for (int col = 0; col < h.cols; ++col) {
                const float v = h.value(r, col);
                if (std::isnan(v) || h.isMasked(r, col))
                    continue;  // masked: grey
                const double t = std::isinf(v) ? 1.0 : (double(v) - lo) / span;
                line[col] = colormapColor(c, t).rgb();
            }
        }
        d_->images.push_back(img);
    }
    QResizeEvent e(size(), size());
    resizeEvent(&e);
    update();
}

Colormap HeadGrid::colormap() const {
    return d_->colormap;
}

int HeadGrid::headCount() const {
    return int(d_->heads.size());
}

QRect HeadGrid::tileRect(int head) const {
    if (head < 0 || head >= int(d_->cells.size()))
        return {};
    return d_->cells[size_t(head)];
}

int HeadGrid::headAt(const QPoint& pos) const {
    for (size_t i = 0; i < d_->cells.size(); ++i)
        if (d_->cells[i].contains(pos))
            return int(i);
    return -1;
}

QSize HeadGrid::sizeHint() const {
    return {420, 150};
}

QSize HeadGrid::minimumSizeHint() const {
    return {120, 70};
}

void HeadGrid::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    const int n = int(d_->heads.size());
    d_->tiles.clear();
    d_->cells.clear();
    if (n == 0)
        return;
    d_->captionH = fontMetrics().height() + 4;
    const int w = width() - 2 * kPad, h = height() - 2 * kPad;
    int bestCols = 1, bestTile = 0;
    for (int cols = 1; cols <= n; ++cols) {
        const int rows = (n + cols - 1) / cols;
        const int tw = (w - (cols - 1) * kGap) / cols;
        const int th = (h - (rows - 1) * kGap) / rows - d_->captionH;
        const int t = std::min(tw, th);
        if (t > bestTile) {
            bestTile = t;
            bestCols = cols;
        }
    }
    bestTile = std::max(bestTile, 8);
    d_->columns = bestCols;
    d_->tile = bestTile;
    const int rows = (n + bestCols - 1) / bestCols;
    const int usedW = bestCols * bestTile + (bestCols - 1) * kGap;
    const int usedH = rows * (bestTile + d_->captionH) + (rows - 1) * kGap;
    const int x0 = kPad + std::max(0, (w - usedW) / 2);
    const int y0 = kPad + std::max(0, (h - usedH) / 2);
    for (int i = 0; i < n; ++i) {
        const int cx = x0 + (i % bestCols) * (bestTile + kGap);
        const int cy = y0 + (i / bestCols) * (bestTile + d_->captionH + kGap);
        const QRect cell(cx, cy, bestTile, bestTile + d_->captionH);
        // Keep the heatmap's aspect ratio inside the square.
        const HeatmapData& hd = d_->heads[size_t(i)];
        const double aspect = hd.rows > 0 && hd.cols > 0 ? double(hd.cols) / hd.rows : 1.0;
        int tw = bestTile, th = bestTile;
        if (aspect > 1)
            th = std::max(2, int(std::round(bestTile / aspect)));
        else
            tw = std::max(2, int(std::round(bestTile * aspect)));
        const QRect tile(cx + (bestTile - tw) / 2, cy + (bestTile - th) / 2, tw, th);
        d_->cells.push_back(cell);
        d_->tiles.push_back(tile);
    }
}

void HeadGrid::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    if (d_->heads.empty())
        return;
    const QColor highlight = palette().color(QPalette::Highlight);
    // Tile frames: light greys on a light window; on a dark one, greys between the window and
    // its text, so idle frames stay quiet and the hovered one stands out.
    const bool dark = d_->colors.isDark();
    const QColor window = palette().color(QPalette::Window);
    const QColor windowText = palette().color(QPalette::WindowText);
    auto between = [&](double t) {
        return QColor::fromRgbF(
            float(window.redF() + (windowText.redF() - window.redF()) * t),
            float(window.greenF() + (windowText.greenF() - window.greenF()) * t),
            float(window.blueF() + (windowText.blueF() - window.blueF()) * t));
    };
    const QColor idleFrame = dark ? between(0.3) : QColor(0xbb, 0xbb, 0xbb);
    const QColor hoverFrame = dark ? between(0.65) : QColor(0x88, 0x88, 0x88);
    for (size_t i = 0; i < d_->tiles.size() && i < d_->images.size(); ++i) {
        const QRect tile = d_->tiles[i];
        const QRect cell = d_->cells[i];
        const HeatmapData& h = d_->heads[i];
        p.setRenderHint(QPainter::SmoothPixmapTransform, false);
        p.drawImage(tile, d_->images[i]);
        // Hatch masked cells when they are big enough to show it.
        const double cw = double(tile.width()) / std::max(1, h.cols);
        const double ch = double(tile.height()) / std::max(1, h.rows);
        if (cw >= 6 && ch >= 6) {
            for (int r = 0; r < h.rows; ++r)
                for (int c = 0; c < h.cols; ++c)
                    if (h.isMasked(r, c))
                        drawMaskHatch(&p, QRectF(tile.left() + c * cw, tile.top() + r * ch, cw, ch),
                                      d_->colors);
        }
        const bool current = int(i) == d_->current;
        const bool hovered = int(i) == d_->hover;
        p.setRenderHint(QPainter::Antialiasing, true);
        QPen pen(current ? highlight : hovered ? hoverFrame : idleFrame);
        pen.setWidthF(current ? 3.0 : 1.0);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(tile).adjusted(-1.5, -1.5, 1.5, 1.5));
        QFont f = font();
        f.setBold(current);
        p.setFont(f);
        p.setPen(current ? highlight : palette().color(QPalette::WindowText));
        const QRect caption(cell.left() - kGap / 2, cell.top() + d_->tile + 2, cell.width() + kGap,
                            d_->captionH - 2);
        p.drawText(caption, Qt::AlignHCenter | Qt::AlignTop, tr("head %1").arg(i));
    }
    if (hasFocus() && d_->current >= 0 && d_->current < int(d_->cells.size())) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 1, Qt::DotLine));
        p.drawRect(d_->cells[size_t(d_->current)].adjusted(-4, -4, 3, 3));
    }
}

void HeadGrid::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    const int head = headAt(event->position().toPoint());
    if (head < 0)
        return;
    setCurrentHead(head);
    emit headClicked(head);
}

void HeadGrid::mouseMoveEvent(QMouseEvent* event) {
    const int head = headAt(event->position().toPoint());
    if (head != d_->hover) {
        d_->hover = head;
        setCursor(head >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
        update();
    }
    QWidget::mouseMoveEvent(event);
}

void HeadGrid::keyPressEvent(QKeyEvent* event) {
    const int n = headCount();
    if (n == 0)
        return QWidget::keyPressEvent(event);
    int next = d_->current;
    switch (event->key()) {
        case Qt::Key_Left:
            next = std::max(0, d_->current - 1);
            break;
        case Qt::Key_Right:
            next = std::min(n - 1, d_->current + 1);
            break;
        case Qt::Key_Up:
            next = std::max(0, d_->current - d_->columns);
            break;
        case Qt::Key_Down:
            next = std::min(n - 1, d_->current + d_->columns);
            break;
        case Qt::Key_Home:
            next = 0;
            break;
        case Qt::Key_End:
            next = n - 1;
            break;
        default:
            return QWidget::keyPressEvent(event);
    }
    if (next != d_->current) {
        setCurrentHead(next);
        emit headClicked(next);
    }
}

void HeadGrid::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (FigureColors::followPalette(event, palette(), &d_->colors))
        setColormap(d_->colormap);  // rebuilds the images with the new masked-cell grey
}

bool HeadGrid::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(event);
        const int head = headAt(he->pos());
        if (head >= 0)
            QToolTip::showText(he->globalPos(),
                               tr("head %1: click to show it in the heatmap").arg(head), this);
        else
            QToolTip::hideText();
        return true;
    }
    if (event->type() == QEvent::Leave && d_->hover >= 0) {
        d_->hover = -1;
        update();
    }
    return QWidget::event(event);
}

}  // namespace attn
