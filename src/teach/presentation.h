#pragma once
// Presentation mode for a projector: a high-contrast palette and style sheet with large fonts,
// and an animator that fades one heatmap into another (e.g. masked scores into weights).

#include <QFont>
#include <QObject>
#include <QPalette>
#include <QString>
#include <memory>

#include "export/heatmap_data.h"

class QVariantAnimation;
class QWidget;

namespace attn {

struct PresentationOptions {
    double fontScale = 1.6;       // multiplies the application font size
    bool darkBackground = false;  // white on near-black instead of black on white
};

// High-contrast palette: pure black text on white (or the reverse), strong blue highlight.
QPalette presentationPalette(const PresentationOptions& options = {});
// Style sheet with large fonts and thick focus outlines; basePointSize is the normal font size.
// Widgets with the dynamic property presentationRole = "title" get 1.4x that size (bold),
// "caption" 0.8x, so headings stay headings.
QString presentationStyleSheet(const PresentationOptions& options = {},
                               double basePointSize = 10.0);

// Applies to a top-level window and remembers what it replaces; restore() puts it back.
class PresentationMode {
  public:
    void apply(QWidget* window, const PresentationOptions& options = {});
    void restore();
    bool isActive() const { return window_ != nullptr; }

  private:
    QWidget* window_ = nullptr;
    QPalette oldPalette_;
    QString oldStyleSheet_;
    QFont oldFont_;
};

// Interpolates between two heatmaps of the same size. Finite cells blend linearly; a cell that
// is -inf (or hidden) at one end stays drawn as masked while its value moves to the other end,
// so masked cells read as "going to 0" from scaled_scores to weights.
class CellFadeAnimator : public QObject {
    Q_OBJECT
  public:
    explicit CellFadeAnimator(QObject* parent = nullptr);
    ~CellFadeAnimator() override;

    // False (and nothing set) when the sizes differ.
    bool setEndpoints(const HeatmapData& from, const HeatmapData& to);
    void setDuration(int ms);  // default 1200
    int duration() const;
    bool isRunning() const;

    // The frame at t in [0, 1] (eased by the caller if wanted).
    HeatmapData frameAt(double t) const;
    static HeatmapData interpolate(const HeatmapData& from, const HeatmapData& to, double t);

  public slots:
    void start();
    void stop();  // jumps to the end frame

  signals:
    void frame(const attn::HeatmapData& data, double t);
    void finished();

  private:
    HeatmapData from_, to_;
    QVariantAnimation* anim_ = nullptr;
};

}  // namespace attn
