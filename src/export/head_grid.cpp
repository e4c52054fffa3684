#include "export/head_grid.h"

#include <QContextMenuEvent>
#include <QImage>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QtConcurrent>

#include <cmath>
#include <numeric>

#include "engine/step_ids.h"
#include "engine/trace.h"
#include "export/heatmap_figure.h"
#include "pipeline/latest_job.h"
#include "pipeline/step_files.h"

namespace attn {

namespace {

constexpr int kPad = 6;
constexpr int kGap = 8;
constexpr int kPreferredThumbnail = 72;  // heightForWidth's thumbnail side

// Thumbnails, one pixel per cell, on one colour scale for every head: the heads are stacked
// into one tall matrix for colorScaling (Row then spans each row of each head). Masked cells
// take the figure's masked grey.
std::vector<QImage> paintThumbnails(const std::vector<HeatmapData>& heads, Colormap colormap,
                                    ColorScale scale, const FigureColors& colors) {
    std::vector<QImage> images;
    if (heads.empty())
        return images;
    const int cols = heads.front().cols;
    HeatmapData all;
    all.kind = heads.front().kind;
    all.cols = cols;
    bool anyHidden = false;
    for (const HeatmapData& h : heads) {
        if (h.cols != cols) {  // heads of different widths: each on its own scale
            for (const HeatmapData& one : heads) {
                const std::vector<QImage> own = paintThumbnails({one}, colormap, scale, colors);
                images.push_back(own.front());
            }
            return images;
        }
        anyHidden = anyHidden || !h.hidden.empty();
    }
    for (const HeatmapData& h : heads) {
        all.values.insert(all.values.end(), h.values.begin(), h.values.end());
        if (anyHidden) {
            if (h.hidden.empty())
                all.hidden.insert(all.hidden.end(), h.values.size(), 0);
            else
                all.hidden.insert(all.hidden.end(), h.hidden.begin(), h.hidden.end());
        }
        all.rows += h.rows;
    }
    const std::vector<float> t = colorPositions(all, colorScaling(all, colormap, scale));
    size_t offset = 0;
    for (const HeatmapData& h : heads) {
        QImage img(std::max(1, h.cols), std::max(1, h.rows), QImage::Format_RGB32);
        img.fill(colors.maskFill);
        for (int r = 0; r < h.rows; ++r) {
            auto* line = reinterpret_cast<QRgb*>(img.scanLine(r));
            for (int c = 0; c < h.cols; ++c) {
                const float p = t[offset + size_t(r) * size_t(h.cols) + size_t(c)];
                if (!std::isnan(p))
                    line[c] = colormapColor(colormap, p).rgb();
            }
        }
        offset += h.values.size();
        images.push_back(std::move(img));
    }
    return images;
}

// The columns that give the biggest square thumbnails for n heads in w x h.
struct GridShape {
    int columns = 1;
    int thumbnail = 0;
};

GridShape fitGrid(int w, int h, int n, int captionH) {
    GridShape best;
    for (int cols = 1; cols <= n; ++cols) {
        const int rows = (n + cols - 1) / cols;
        const int tw = (w - 2 * kPad - (cols - 1) * kGap) / cols;
        const int th = (h - 2 * kPad - (rows - 1) * kGap) / rows - captionH;
        const int t = std::min(tw, th);
        if (t > best.thumbnail) {
            best.thumbnail = t;
            best.columns = cols;
        }
    }
    best.thumbnail = std::max(best.thumbnail, 8);
    return best;
}

struct Tiles {
    std::vector<HeatmapData> heads;
    std::vector<QImage> images;
    Colormap colormap = Colormap::Viridis;
    ColorScale scale = ColorScale::Matrix;
    FigureColors colors;
};

}  // namespace

struct HeadGrid::Private {
    std::vector<HeatmapData> heads;
    std::vector<QImage> images;             // one pixel per cell
    FigureColors colors;                    // masked cells' grey and hatch: from the palette
    std::optional<Colormap> chosen;         // the user's pick; unset: each step's own
    Colormap colormap = Colormap::Viridis;  // the one the thumbnails are painted in
    ColorScale scale = ColorScale::Matrix;
    int current = 0;
    int hover = -1;
    std::vector<int> off;  // switched-off heads, sorted
    // The query heads per key/value group, so each caption names the group its head reads: on
    // a key/value group step (one tile per query head), and on every query-head step of a
    // module whose heads share groups (grouped-query attention); 0 on any other step.
    int64_t perGroup = 0;
    // A setStep's thumbnails are made on the thread pool and shown only if no setStep, setHeads
    // or clear came after it.
    LatestJob job;
    bool loading = false;
    // Layout, recomputed on resize and new data.
    int columns = 1;
    int thumbnail = 0;  // side of the square a head's heatmap may take
    int captionH = 16;
    std::vector<QRect> thumbnails;  // heatmap rect (aspect kept) per head
    std::vector<QRect> tiles;       // whole tile (heatmap + caption) per head
};

HeadGrid::HeadGrid(QWidget* parent) : QWidget(parent), d_(std::make_unique<Private>()) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setAccessibleName(tr("Attention heads"));
    setToolTip(QString());
    d_->colors = FigureColors::fromPalette(palette());
}

HeadGrid::~HeadGrid() = default;

Colormap HeadGrid::autoColormapFor(const std::vector<HeatmapData>& heads) {
    if (heads.empty())
        return Colormap::Viridis;
    HeatmapData all;
    all.kind = heads.front().kind;
    for (const HeatmapData& h : heads)
        all.values.insert(all.values.end(), h.values.begin(), h.values.end());
    return defaultColormapFor(all);
}

void HeadGrid::setStep(std::shared_ptr<const Trace> trace, const std::string& stepId,
                       const QStringList& labels, int batch, std::optional<Colormap> colormap,
                       ColorScale scale) {
    const Step* step = trace ? trace->find(stepId) : nullptr;
    const int heads = step ? stepHeadCount(step->info) : 0;
    d_->perGroup = 0;
    if (step && step->info.headAxisIsGroups()) {
        d_->perGroup = step->info.queryHeadsPerIndex();
    } else if (step && heads > 0) {
        const Config& c = trace->config;
        const int64_t groups = c.effectiveKvGroups();
        if (variantHasKvGroups(c.variant) && groups > 0 && groups < heads &&
            heads == c.effectiveHeads())
            d_->perGroup = heads / groups;
    }
    d_->chosen = colormap;
    d_->scale = scale;
    if (heads == 0) {
        clear();
        return;
    }
    d_->loading = true;
    std::vector<int> headIndex(size_t(heads), 0);
    std::iota(headIndex.begin(), headIndex.end(), 0);
    // Only values cross threads: the trace (kept alive by the shared pointer, read only),
    // copies of the id, labels and colours, and the thumbnails coming back. The heads are
    // pooled in parallel (the job's own thread takes part, so it never waits on the pool).
    const FigureColors colors = d_->colors;
    d_->job.run(
        [trace, stepId, labels, batch, headIndex, colormap, scale, colors](const CancelToken&) {
            const std::vector<HeatmapData> pooled =
                QtConcurrent::blockingMapped<std::vector<HeatmapData>>(headIndex, [&](int head) {
                    const Step* s = trace->find(stepId);
                    return pooledSlice(*s, labels, head, batch, trace->find(step_id::kMask),
                                       kThumbnailCells);
                });
            Tiles tiles;
            tiles.heads.assign(pooled.begin(), pooled.end());
            tiles.colormap = colormap ? *colormap : autoColormapFor(tiles.heads);
            tiles.images = paintThumbnails(tiles.heads, tiles.colormap, scale, colors);
            tiles.scale = scale;
            tiles.colors = colors;
            return tiles;
        },
        [this](Tiles tiles) {
            d_->loading = false;
            // The colours may have changed while the thumbnails were made (a colormap picked,
            // the palette): repaint in the ones in effect now.
            const Colormap now = d_->chosen ? *d_->chosen : tiles.colormap;
            const bool repaint =
                tiles.colormap != now || tiles.scale != d_->scale || !(tiles.colors == d_->colors);
            d_->colormap = now;
            showTiles(std::move(tiles.heads), std::move(tiles.images));
            if (repaint)
                repaintThumbnails();
            emit tilesReady();
        });
}

void HeadGrid::setHeads(const std::vector<HeatmapData>& heads) {
    d_->job.cancel();
    d_->perGroup = 0;
    d_->loading = false;
    d_->colormap = d_->chosen ? *d_->chosen : autoColormapFor(heads);
    showTiles(heads, paintThumbnails(heads, d_->colormap, d_->scale, d_->colors));
}

void HeadGrid::clear() {
    setHeads({});
}

bool HeadGrid::isLoading() const {
    return d_->loading;
}

void HeadGrid::showTiles(std::vector<HeatmapData> heads, std::vector<QImage> images) {
    d_->heads = std::move(heads);
    d_->images = std::move(images);
    d_->current = std::clamp(d_->current, 0, std::max(0, int(d_->heads.size()) - 1));
    d_->hover = -1;
    updateGeometry();
    relayout();
    update();
}

void HeadGrid::repaintThumbnails() {
    d_->images = paintThumbnails(d_->heads, d_->colormap, d_->scale, d_->colors);
    update();
}

void HeadGrid::setCurrentHead(int head) {
    if (head == d_->current || head < 0)
        return;
    d_->current = head;
    update();
}

int HeadGrid::currentHead() const {
    return d_->current;
}

void HeadGrid::setColormap(std::optional<Colormap> c) {
    d_->chosen = c;
    // While thumbnails are on their way, they are painted in the new colours when they arrive.
    const Colormap now = c ? *c : autoColormapFor(d_->heads);
    if (now == d_->colormap)
        return;
    d_->colormap = now;
    repaintThumbnails();
}

Colormap HeadGrid::colormap() const {
    return d_->colormap;
}

void HeadGrid::setColorScale(ColorScale scale) {
    if (scale == d_->scale)
        return;
    d_->scale = scale;
    repaintThumbnails();
}

ColorScale HeadGrid::colorScale() const {
    return d_->scale;
}

int HeadGrid::headCount() const {
    return int(d_->heads.size());
}

const HeatmapData& HeadGrid::headData(int head) const {
    static const HeatmapData none;
    return head >= 0 && head < headCount() ? d_->heads[size_t(head)] : none;
}

QRect HeadGrid::tileRect(int head) const {
    if (head < 0 || head >= int(d_->tiles.size()))
        return {};
    return d_->tiles[size_t(head)];
}

QRect HeadGrid::thumbnailRect(int head) const {
    if (head < 0 || head >= int(d_->thumbnails.size()))
        return {};
    return d_->thumbnails[size_t(head)];
}

QRect HeadGrid::captionRect(int head) const {
    const QRect tile = tileRect(head);
    if (tile.isEmpty())
        return {};
    // The caption may use half the gap on either side of its tile.
    return QRect(tile.left() - kGap / 2, tile.top() + d_->thumbnail + 2, tile.width() + kGap,
                 d_->captionH - 2);
}

QString HeadGrid::captionText(int head) const {
    if (head < 0 || head >= headCount())
        return {};
    // Measured in bold, as the selected head is drawn, so selecting a head never clips it.
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics fm(bold);
    const int room = captionRect(head).width() - 2;
    QStringList candidates;
    if (d_->perGroup > 0) {
        const int64_t group = head / d_->perGroup;
        candidates << tr("head %1 · group %2").arg(head).arg(group)
                   << tr("h%1 · g%2").arg(head).arg(group);
    }
    candidates << tr("head %1").arg(head) << tr("h%1").arg(head);
    for (const QString& text : candidates) {
        if (fm.horizontalAdvance(text) <= room)
            return text;
    }
    return QString::number(head);
}

int HeadGrid::headAt(const QPoint& pos) const {
    for (size_t i = 0; i < d_->tiles.size(); ++i)
        if (d_->tiles[i].contains(pos))
            return int(i);
    return -1;
}

bool HeadGrid::hasHeightForWidth() const {
    return true;
}

int HeadGrid::heightForWidth(int width) const {
    const int n = std::max(1, headCount());
    const int captionH = fontMetrics().height() + 4;
    const int columns = std::clamp((width - 2 * kPad + kGap) / (kPreferredThumbnail + kGap), 1, n);
    const int side = std::max(24, (width - 2 * kPad - (columns - 1) * kGap) / columns);
    const int rows = (n + columns - 1) / columns;
    return 2 * kPad + rows * (side + captionH) + (rows - 1) * kGap;
}

QSize HeadGrid::sizeHint() const {
    return {420, 150};
}

QSize HeadGrid::minimumSizeHint() const {
    return {120, 70};
}

void HeadGrid::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    relayout();
}

void HeadGrid::relayout() {
    const int n = headCount();
    d_->thumbnails.clear();
    d_->tiles.clear();
    if (n == 0)
        return;
    d_->captionH = fontMetrics().height() + 4;
    const GridShape shape = fitGrid(width(), height(), n, d_->captionH);
    d_->columns = shape.columns;
    d_->thumbnail = shape.thumbnail;
    const int side = shape.thumbnail;
    const int rows = (n + shape.columns - 1) / shape.columns;
    const int usedW = shape.columns * side + (shape.columns - 1) * kGap;
    const int usedH = rows * (side + d_->captionH) + (rows - 1) * kGap;
    const int x0 = kPad + std::max(0, (width() - 2 * kPad - usedW) / 2);
    const int y0 = kPad + std::max(0, (height() - 2 * kPad - usedH) / 2);
    for (int i = 0; i < n; ++i) {
        const int cx = x0 + (i % shape.columns) * (side + kGap);
        const int cy = y0 + (i / shape.columns) * (side + d_->captionH + kGap);
        // The heatmap keeps its aspect ratio inside the square.
        const HeatmapData& hd = d_->heads[size_t(i)];
        const double aspect = hd.rows > 0 && hd.cols > 0 ? double(hd.cols) / hd.rows : 1.0;
        int tw = side, th = side;
        if (aspect > 1)
            th = std::max(2, int(std::round(side / aspect)));
        else
            tw = std::max(2, int(std::round(side * aspect)));
        d_->tiles.emplace_back(cx, cy, side, side + d_->captionH);
        d_->thumbnails.emplace_back(cx + (side - tw) / 2, cy + (side - th) / 2, tw, th);
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
    for (size_t i = 0; i < d_->thumbnails.size() && i < d_->images.size(); ++i) {
        const QRect thumb = d_->thumbnails[i];
        const HeatmapData& h = d_->heads[i];
        p.setRenderHint(QPainter::SmoothPixmapTransform, false);
        p.drawImage(thumb, d_->images[i]);
        // Hatch masked cells when they are big enough to show it.
        const double cw = double(thumb.width()) / std::max(1, h.cols);
        const double ch = double(thumb.height()) / std::max(1, h.rows);
        if (cw >= 6 && ch >= 6) {
            for (int r = 0; r < h.rows; ++r)
                for (int c = 0; c < h.cols; ++c)
                    if (h.isMasked(r, c))
                        drawMaskHatch(&p,
                                      QRectF(thumb.left() + c * cw, thumb.top() + r * ch, cw, ch),
                                      d_->colors);
        }
        const bool current = int(i) == d_->current;
        const bool hovered = int(i) == d_->hover;
        p.setRenderHint(QPainter::Antialiasing, true);
        if (isHeadOff(int(i))) {
            // Switched off: veiled and crossed out in red, the pattern still visible beneath.
            QColor veil = window;
            veil.setAlphaF(0.55f);
            p.fillRect(thumb, veil);
            p.setPen(QPen(QColor(0xd7, 0x30, 0x27), 2.0));
            p.drawLine(thumb.topLeft(), thumb.bottomRight());
            p.drawLine(thumb.topRight(), thumb.bottomLeft());
        }
        QPen pen(current ? highlight : hovered ? hoverFrame : idleFrame);
        pen.setWidthF(current ? 3.0 : 1.0);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(thumb).adjusted(-1.5, -1.5, 1.5, 1.5));
        QFont f = font();
        f.setBold(current);
        p.setFont(f);
        p.setPen(current ? highlight : windowText);
        p.drawText(captionRect(int(i)), Qt::AlignHCenter | Qt::AlignTop, captionText(int(i)));
    }
    if (hasFocus() && d_->current >= 0 && d_->current < int(d_->tiles.size())) {
        p.setRenderHint(QPainter::Antialiasing, false);
        p.setPen(QPen(highlight, 1, Qt::DotLine));
        p.drawRect(d_->tiles[size_t(d_->current)].adjusted(-4, -4, 3, 3));
    }
}

void HeadGrid::setOffHeads(std::vector<int> heads) {
    std::sort(heads.begin(), heads.end());
    if (heads == d_->off)
        return;
    d_->off = std::move(heads);
    update();
}

bool HeadGrid::isHeadOff(int head) const {
    return std::binary_search(d_->off.begin(), d_->off.end(), head);
}

void HeadGrid::contextMenuEvent(QContextMenuEvent* event) {
    const bool mouse = event->reason() == QContextMenuEvent::Mouse;
    const int head = mouse ? headAt(event->pos()) : d_->current;
    if (head < 0 || head >= headCount())
        return QWidget::contextMenuEvent(event);
    const QPoint at = mouse ? event->globalPos() : mapToGlobal(tileRect(head).center());
    emit headMenuRequested(head, at);
    event->accept();
}

void HeadGrid::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    const int head = headAt(event->position().toPoint());
    if (head < 0)
        return;
    if (head != d_->current) {
        setCurrentHead(head);
        emit currentHeadChanged(head);
    }
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
        case Qt::Key_Return:
        case Qt::Key_Enter:
            emit headClicked(d_->current);
            return;
        default:
            return QWidget::keyPressEvent(event);
    }
    if (next != d_->current) {
        setCurrentHead(next);
        emit currentHeadChanged(next);
    }
}

void HeadGrid::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (FigureColors::followPalette(event, palette(), &d_->colors))
        repaintThumbnails();  // the masked-cell grey of the new palette
    if (event->type() == QEvent::FontChange)
        relayout();
}

bool HeadGrid::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(event);
        const int head = headAt(he->pos());
        if (head >= 0)
            QToolTip::showText(
                he->globalPos(),
                tr("head %1: click or press Enter to show it in the heatmap").arg(head), this);
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
