#pragma once
// A lesson as slides: one landscape PDF page per screen, with its section and title, the heatmap
// of the step the screen shows (computed as the screen computes it: the screen's module on the
// book's input, or its trained model, text, layer and head) and its text, for teachers who
// present from a PDF.

#include <QString>
#include <vector>

#include "engine/cancel.h"
#include "export/heatmap_data.h"
#include "export/model_figure.h"
#include "pipeline/settings.h"

namespace attn {

struct LessonScreen;

// The settings a lesson screen shows, from the settings before it: the screen's module with
// the book's input and seeds, or the screen's model, text and layer; its step and head. Loaded
// files are set aside; colours and values stay as they were.
Settings lessonScreenSettings(const LessonScreen& screen, const Settings& previous);

// One page: what it says and the figure it shows, the figure of the screen's centre page.
struct Slide {
    QString heading;  // "3.5.1  Causal attention weights"
    QString html;     // the screen's text
    // Layer steps: the step's heatmap (with `table` beside it on a screen about the next-token
    // list).
    HeatmapData figure;
    // The figure is a head the screen switched off: veiled and crossed out, as on screen.
    bool switchedOff = false;
    // All layers: every head's pooled attention (L, H, P, P), drawn as the overview figure.
    Tensor overview;
    OverviewFigureOptions overviewOptions;
    // Head scores, Logit lens and the next-token list: the numbers those pages show, as an
    // HTML table.
    QString table;
    // A trained model's screen: the loss line under the next-token list ("Loss on this text:
    // 5.529 nats per token.").
    QString caption;
};

// Every screen's slide. Runs the screens' modules and models (the bundled model a screen names
// is read once): call it off the GUI thread. Throws UserError when a screen cannot be computed
// and Cancelled when `cancel` is set.
std::vector<Slide> lessonSlides(const std::vector<LessonScreen>& screens, const Settings& base,
                                const CancelToken* cancel = nullptr);

// The body text's pixel size on a slide's 960 x 540 page: the largest from 19 down to 10 at
// which all of `html` fits its column, so no sentence is cut off; 0 when even 10 does not.
int slideTextPixelSize(const QString& html);

// Writes the slides as a PDF of 16:9 pages (a projector's shape), the heatmaps as vector
// graphics. Draws figures with QCustomPlot: call it on the GUI thread. The file appears complete
// or not at all; throws UserError("output", ...) when it cannot be written.
void writeSlidesPdf(const std::vector<Slide>& slides, const QString& title, const QString& path);

}  // namespace attn
