#pragma once
// Presentation mode for a projector: a high-contrast palette with large fonts,
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

// How much larger text gets on a projector: large enough for the back row, small enough that
// the book example's heatmap still fits a 1280 x 720 screen.
constexpr double kPresentationFontScale = 1.6;

struct PresentationOptions {
    double fontScale = kPresentationFontScale;  // multiplies the window's font size
    bool darkBackground = false;                // white on near-black instead of black on white
};

// High-contrast palette: pure black text on white (or the reverse), strong blue highlight.
QPalette presentationPalette(const PresentationOptions& options = {});

// Applies the palette and a larger font to a top-level window and remembers what it replaces;
// restore() puts it back. Palette and font only: fonts a style sheet sets stick to some widgets
// (spin boxes, headers) after the sheet is removed.
class PresentationMode {
  public:
    void apply(QWidget* window, const PresentationOptions& options = {});
    void restore();
    bool isActive() const { return window_ != nullptr; }

  private:
    QWidget* window_ = nullptr;
    bool hadPalette_ = false;
    bool hadFont_ = false;
    QPalette oldPalette_;
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
