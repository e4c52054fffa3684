#include "teach/lesson_slides.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgRenderer>
#include <QTextDocument>

#include <map>
#include <memory>

#include "engine/head_scores.h"
#include "engine/step_ids.h"
#include "export/image_export.h"
#include "io/file_io.h"
#include "pipeline/run_request.h"
#include "pipeline/step_files.h"
#include "teach/lesson.h"

namespace attn {

namespace {

class Text {
    Q_DECLARE_TR_FUNCTIONS(attn::LessonSlides)
};

// A 16:9 page of 254 x 142.875 mm (10 x 5.625 in), drawn at 96 dpi: 960 x 540 page pixels.
constexpr double kPageWidthMm = 254.0;
constexpr double kPageHeightMm = 142.875;
constexpr int kDpi = 96;

// The head a screen that names "the strongest previous-token head" (or induction head) shows,
// as the lesson picks it in the window.
HeadPick pickHead(const LessonScreen& screen, const DecoderRun& run) {
    if (screen.pick == LessonHead::BestInduction)
        return highestScore(runInductionScores(run, run.tokens() / 2), run.model->arch.heads);
    return strongestPreviousTokenHead(headScores(run));
}

}  // namespace

Settings lessonScreenSettings(const LessonScreen& screen, const Settings& previous) {
    // Loaded files are set aside: a lesson runs on its own input.
    Settings s = previous;
    s.weightsFile.clear();
    s.embeddingsFile.clear();
    s.tokenIds.clear();
    if (screen.model.isEmpty()) {
        // Chapter 3: the book's input and seeds (or the screen's text), the screen's module.
        s.modelFile.clear();
        s.layer = 0;
        s.source = screen.text.isEmpty() ? InputSource::Book : InputSource::Text;
        // Every module screen sets the positions, so a screen without them leaves nothing
        // behind for the next screen or for the text typed after the lesson.
        s.positions = screen.positions;
        if (!screen.text.isEmpty()) {
            s.text = screen.text;
            s.tokenizer = TokenizerKind::Gpt2;
            s.embeddingSeed = 123;
        }
        s.config = screen.config;
    } else {
        s.modelFile = screen.model;
        s.source = InputSource::Text;
        s.text = screen.text;
        s.layer = screen.layer;
    }
    // Every screen says which heads are off (none, on most), so none stays off after it.
    s.ablation = {screen.ablate, AblationMode::Zero};
    if (!screen.stepId.empty())
        s.step = QString::fromStdString(screen.stepId);
    s.head = std::max(0, screen.head);
    s.batchIndex = std::max(0, screen.batch);
    return s;
}

std::vector<Slide> lessonSlides(const std::vector<LessonScreen>& screens, const Settings& base,
                                const CancelToken* cancel) {
    std::vector<Slide> slides;
    std::map<QString, std::shared_ptr<const DecoderModel>> models;  // each read once
    Settings previous = base;
    for (const LessonScreen& screen : screens) {
        throwIfCancelled(cancel);
        Settings s = lessonScreenSettings(screen, previous);
        previous = s;
        TraceRun run;
        if (s.modelMode()) {
            std::shared_ptr<const DecoderModel>& model = models[s.modelFile];
            if (!model)
                model = loadModel(s.modelFile, std::nullopt, cancel);
            RequestHooks hooks;
            hooks.cancel = cancel;
            hooks.layerTrace = false;  // the layer may still change to the picked head's
            ModelRun all = runRequestOrThrow(Request{s, {}, model, nullptr, nullptr}, hooks).model;
            if (screen.pick != LessonHead::Fixed) {
                // The forward holds every layer: the picked one is traced from it.
                const HeadPick best = pickHead(screen, *all.run);
                if (best.valid()) {
                    s.layer = int(best.layer);
                    s.head = int(best.head);
                    all.settings = s;
                }
            }
            run = layerTraceRunInBlock(all, cancel);
        } else {
            run = runSettings(s, {}, cancel);
        }
        const Step* step = stepToShow(*run.trace, s.step.toStdString());
        Slide slide;
        slide.heading = screen.section.isEmpty()
                            ? screen.title
                            : screen.section + QStringLiteral("  ") + screen.title;
        if (s.modelMode())
            slide.heading += Text::tr(" (layer %1, head %2)").arg(s.layer).arg(s.head);
        slide.html = screen.html;
        slide.figure =
            sliceStep(*step, rowLabels(run), s.head, s.batchIndex, run.trace->find(step_id::kMask));
        slides.push_back(std::move(slide));
    }
    return slides;
}

void writeSlidesPdf(const std::vector<Slide>& slides, const QString& title, const QString& path) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter pdf(&buffer);
        pdf.setResolution(kDpi);
        pdf.setCreator(QStringLiteral("Attention Lens"));
        pdf.setTitle(title);
        pdf.setPageLayout(
            QPageLayout(QPageSize(QSizeF(kPageWidthMm, kPageHeightMm), QPageSize::Millimeter,
                                  QString(), QPageSize::ExactMatch),
                        QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
        QPainter p;
        if (!p.begin(&pdf))
            throw UserError(
                "output",
                Text::tr("Cannot write %1: the PDF writer did not start.").arg(path).toStdString());
        const QRect page(0, 0, pdf.width(), pdf.height());
        const int margin = page.width() / 32;
        for (size_t i = 0; i < slides.size(); ++i) {
            if (i > 0)
                pdf.newPage();
            const Slide& slide = slides[i];
            QFont heading = p.font();
            heading.setPixelSize(page.height() / 18);
            heading.setBold(true);
            p.setFont(heading);
            p.setPen(Qt::black);
            const QRect headingRect(margin, margin / 2, page.width() - 2 * margin,
                                    page.height() / 9);
            p.drawText(headingRect, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap,
                       slide.heading);
            // The figure on the left three fifths, the text on the right.
            const int top = headingRect.bottom() + margin / 2;
            const QRect figureRect(margin, top, page.width() * 3 / 5 - margin,
                                   page.height() - top - margin / 2);
            const QRect textRect(figureRect.right() + margin, top,
                                 page.width() - figureRect.right() - 2 * margin,
                                 page.height() - top - margin);
            if (!slide.figure.isEmpty()) {
                FigureOptions o;
                o.showTitle = false;
                o.colormap = defaultColormapFor(slide.figure);
                o.width = figureRect.width();
                o.height = figureRect.height();
                o.vectorCells = true;
                QSvgRenderer svg(renderHeatmapBytes(slide.figure, o, ImageFormat::Svg));
                QSizeF size = svg.defaultSize();
                size.scale(figureRect.size(), Qt::KeepAspectRatio);
                const QRectF placed(figureRect.left() + (figureRect.width() - size.width()) / 2,
                                    figureRect.top(), size.width(), size.height());
                svg.render(&p, placed);
            }
            QTextDocument text;
            QFont body = p.font();
            body.setBold(false);
            body.setPixelSize(page.height() / 28);
            text.setDefaultFont(body);
            text.setHtml(slide.html);
            text.setTextWidth(textRect.width());
            p.save();
            p.translate(textRect.topLeft());
            text.drawContents(&p, QRectF(0, 0, textRect.width(), textRect.height()));
            p.restore();
            QFont footer = body;
            footer.setPixelSize(page.height() / 45);
            p.setFont(footer);
            p.setPen(QColor(0x66, 0x66, 0x66));
            p.drawText(QRect(margin, page.height() - margin / 2 - page.height() / 30,
                             page.width() - 2 * margin, page.height() / 30),
                       Qt::AlignRight | Qt::AlignVCenter,
                       Text::tr("%1 · %2 / %3").arg(title).arg(i + 1).arg(slides.size()));
        }
        p.end();
    }
    io::writeFileAtomically(path.toStdString(),
                            std::string_view(buffer.data().constData(), size_t(buffer.size())));
}

}  // namespace attn
