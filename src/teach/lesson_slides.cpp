#include "teach/lesson_slides.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgRenderer>
#include <QTextDocument>

#include <cmath>
#include <map>
#include <memory>

#include "engine/decoder_forward.h"
#include "engine/head_scores.h"
#include "engine/step_ids.h"
#include "export/image_export.h"
#include "io/file_io.h"
#include "pipeline/run_request.h"
#include "pipeline/step_files.h"
#include "teach/lesson.h"
#include "teach/next_tokens.h"

namespace attn {

namespace {

class Text {
    Q_DECLARE_TR_FUNCTIONS(attn::LessonSlides)
};

// A 16:9 page of 254 x 142.875 mm (10 x 5.625 in), drawn at 96 dpi: 960 x 540 page pixels.
constexpr double kPageWidthMm = 254.0;
constexpr double kPageHeightMm = 142.875;
constexpr int kDpi = 96;

// The page in page pixels, and where its parts go: the heading across the top, the figure on
// the left three fifths, the text on the right.
struct PageLayout {
    QRect page, heading, figure, text;
    int margin = 0;
};

PageLayout pageLayout(const QRect& page) {
    PageLayout l;
    l.page = page;
    l.margin = page.width() / 32;
    l.heading = QRect(l.margin, l.margin / 2, page.width() - 2 * l.margin, page.height() / 9);
    const int top = l.heading.bottom() + l.margin / 2;
    l.figure =
        QRect(l.margin, top, page.width() * 3 / 5 - l.margin, page.height() - top - l.margin / 2);
    l.text = QRect(l.figure.right() + l.margin, top, page.width() - l.figure.right() - 2 * l.margin,
                   page.height() - top - l.margin);
    return l;
}

QRect kPage() {
    return QRect(0, 0, int(std::lround(kPageWidthMm / 25.4 * kDpi)),
                 int(std::lround(kPageHeightMm / 25.4 * kDpi)));
}

// `html` laid out `width` wide in a font of `pixels`.
std::unique_ptr<QTextDocument> layOut(const QString& html, int width, int pixels) {
    auto doc = std::make_unique<QTextDocument>();
    QFont body;
    body.setPixelSize(pixels);
    doc->setDefaultFont(body);
    doc->setDocumentMargin(2);
    doc->setHtml(html);
    doc->setTextWidth(width);
    return doc;
}

// The largest pixel size from `largest` down to `smallest` at which `html` fits `box`; 0 when
// none does. A table (`unbroken`) fits only when no cell has to break a word.
int fittingPixelSize(const QString& html, const QSize& box, int largest, int smallest,
                     bool unbroken = false) {
    for (int px = largest; px >= smallest; --px) {
        if (unbroken && layOut(html, 100000, px)->idealWidth() > box.width())
            continue;
        if (layOut(html, box.width(), px)->size().height() <= box.height())
            return px;
    }
    return 0;
}

// A token as the next-token list shows it (a leading space as ·, a newline as ↵), for HTML.
QString tokenHtml(int64_t id, const DecoderModel* model) {
    return visibleTokenText(id, model).toHtmlEscaped();
}

QString number(double v) {
    return std::isfinite(v) ? QString::number(v, 'f', 2) : QStringLiteral("–");
}

// The Head scores page's numbers: one row per head, each column's leader in bold.
QString scoresTable(const HeadScores& scores) {
    struct Column {
        QString name;
        const std::vector<double>* values;
        bool highIsNotable;  // bold the largest (else the smallest)
    };
    std::vector<Column> columns = {
        {Text::tr("row entropy"), &scores.entropy, false},
        {Text::tr("mean distance"), &scores.distance, false},
        {Text::tr("weight on first token"), &scores.firstWeight, true},
        {Text::tr("previous-token score"), &scores.previousToken, true},
    };
    if (!scores.induction.empty())
        columns.push_back({Text::tr("induction score"), &scores.induction, true});
    QString html = QStringLiteral(
                       "<table cellspacing=0 cellpadding=3 border=1 "
                       "style='border-collapse:collapse'><tr><th>%1</th>")
                       .arg(Text::tr("head"));
    for (const Column& c : columns)
        html += QStringLiteral("<th>%1</th>").arg(c.name);
    html += QStringLiteral("</tr>");
    std::vector<int64_t> best(columns.size(), -1);
    for (size_t c = 0; c < columns.size(); ++c) {
        const std::vector<double>& v = *columns[c].values;
        for (int64_t i = 0; i < int64_t(v.size()); ++i) {
            if (!std::isfinite(v[size_t(i)]))
                continue;
            if (best[c] < 0 || (columns[c].highIsNotable ? v[size_t(i)] > v[size_t(best[c])]
                                                         : v[size_t(i)] < v[size_t(best[c])]))
                best[c] = i;
        }
    }
    for (int64_t l = 0; l < scores.layers; ++l)
        for (int64_t h = 0; h < scores.heads; ++h) {
            const int64_t i = scores.index(l, h);
            html += QStringLiteral("<tr><td>L%1H%2</td>").arg(l).arg(h);
            for (size_t c = 0; c < columns.size(); ++c) {
                const QString v = number(scores.at(*columns[c].values, l, h));
                html += i == best[c] ? QStringLiteral("<td align=right><b>%1</b></td>").arg(v)
                                     : QStringLiteral("<td align=right>%1</td>").arg(v);
            }
            html += QStringLiteral("</tr>");
        }
    return html + QStringLiteral("</table>");
}

// How many of the text's last tokens the Logit lens slide shows: the page opens scrolled to
// the text's end.
constexpr int64_t kLensColumns = 8;

// The Logit lens page's end: a column per token of the text's last kLensColumns, a row per
// layer, each cell the layer's most probable next token and its probability, bold where it is
// the text's real next token.
QString lensTable(const DecoderRun& run, const CancelToken* cancel) {
    const LogitLens lens = logitLens(run, 1, cancel);
    const int64_t T = run.tokens(), first = std::max<int64_t>(0, T - kLensColumns);
    const DecoderModel* model = run.model.get();
    QString html = QStringLiteral(
        "<table cellspacing=0 cellpadding=3 border=1 "
        "style='border-collapse:collapse'><tr><th></th>");
    for (int64_t t = first; t < T; ++t)
        html += QStringLiteral("<th>%1</th>").arg(tokenHtml(run.ids[size_t(t)], model));
    html += QStringLiteral("</tr>");
    for (size_t l = 0; l < lens.size(); ++l) {
        html += QStringLiteral("<tr><td>%1</td>").arg(Text::tr("after layer %1").arg(l));
        for (int64_t t = first; t < T; ++t) {
            const std::vector<TokenProbability>& top = lens[l][size_t(t)];
            if (top.empty()) {
                html += QStringLiteral("<td></td>");
                continue;
            }
            QString cell = QStringLiteral("%1<br><small>%2</small>")
                               .arg(tokenHtml(top[0].id, model), number(top[0].probability));
            if (t + 1 < T && top[0].id == run.ids[size_t(t + 1)])
                cell = QStringLiteral("<b>%1</b>").arg(cell);
            html += QStringLiteral("<td align=center>%1</td>").arg(cell);
        }
        html += QStringLiteral("</tr>");
    }
    return html + QStringLiteral("</table>") +
           Text::tr(
               "<p><small>The text's last %1 tokens; bold: the text's real next "
               "token.</small></p>")
               .arg(T - first);
}

// The Next token panel: the most probable tokens after the text's last token, with their
// probabilities as the list writes them ("99.8%", "<0.1%"; the slide wrote "6.6e-05"), escaped:
// an unescaped "<0.1%" opens a tag and the cell shows nothing.
QString predictionsTable(const DecoderRun& run) {
    const int64_t last = run.tokens() - 1;
    const DecoderModel* model = run.model.get();
    QString html =
        QStringLiteral("<p><b>%1</b></p>")
            .arg(Text::tr("Next token after %1").arg(tokenHtml(run.ids[size_t(last)], model)));
    html += QStringLiteral(
        "<table cellspacing=0 cellpadding=3 border=1 style='border-collapse:collapse'>");
    for (const TokenProbability& p : nextTokens(run, last, NextTokensPanel::kTopK))
        html += QStringLiteral("<tr><td>%1</td><td align=right>%2</td></tr>")
                    .arg(tokenHtml(p.id, model),
                         NextTokensPanel::probabilityText(p.probability).toHtmlEscaped());
    return html + QStringLiteral("</table>");
}

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
        Slide slide;
        slide.heading = screen.section.isEmpty()
                            ? screen.title
                            : screen.section + QStringLiteral("  ") + screen.title;
        slide.html = screen.html;
        const auto showStep = [&](const TraceRun& run, int64_t modelHeads) {
            const Step* step = stepToShow(*run.trace, s.step.toStdString());
            slide.figure = sliceStep(*step, rowLabels(run), s.head, s.batchIndex,
                                     run.trace->find(step_id::kMask));
            // A switched-off query head is marked as the window marks it (a group step's map
            // is the keys or values other heads read too: not crossed out).
            slide.switchedOff = s.modelMode() && !step->info.headAxisIsGroups() &&
                                stepHeadCount(step->info) == modelHeads &&
                                s.ablation.contains(s.layer, s.head);
        };
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
            const DecoderRun& forward = *all.run;
            // The loss line under the next-token list, which the screens that switch heads off
            // quote.
            slide.caption =
                NextTokensPanel::lossText(textLoss(forward, all.baseline.get(), cancel));
            // The figure of the screen's centre page: what the student sees there.
            if (screen.page == QLatin1String("overview")) {
                slide.overview = forward.thumbnails;
                slide.overviewOptions = overviewFigureOptions(s, false, &forward);
                slide.overviewOptions.title.clear();  // the heading says it
            } else if (screen.page == QLatin1String("scores")) {
                slide.table = scoresTable(headScores(forward, cancel));
            } else if (screen.page == QLatin1String("lens")) {
                slide.table = lensTable(forward, cancel);
            } else {
                slide.heading += Text::tr(" (layer %1, head %2)").arg(s.layer).arg(s.head);
                showStep(layerTraceRunInBlock(all, cancel), model->arch.heads);
                if (screen.predictions)
                    slide.table = predictionsTable(forward);
            }
        } else {
            showStep(runSettings(s, {}, cancel), 0);
        }
        slides.push_back(std::move(slide));
    }
    return slides;
}

int slideTextPixelSize(const QString& html) {
    return fittingPixelSize(html, pageLayout(kPage()).text.size(), 19, 10);
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
        const PageLayout layout = pageLayout(QRect(0, 0, pdf.width(), pdf.height()));
        const QRect& page = layout.page;
        const int margin = layout.margin;
        const auto drawSvg = [&](const QByteArray& bytes, const QRect& box) {
            QSvgRenderer svg(bytes);
            QSizeF size = svg.defaultSize();
            size.scale(box.size(), Qt::KeepAspectRatio);
            svg.render(&p, QRectF(box.left() + (box.width() - size.width()) / 2, box.top(),
                                  size.width(), size.height()));
        };
        // Rich text in `box`, as large as fits (a table, the screen's text).
        const auto drawHtml = [&](const QString& html, const QRect& box, int largest, int smallest,
                                  bool table) {
            const int px =
                std::max(smallest, fittingPixelSize(html, box.size(), largest, smallest, table));
            const std::unique_ptr<QTextDocument> doc = layOut(html, box.width(), px);
            p.save();
            p.translate(box.topLeft());
            doc->drawContents(&p, QRectF(0, 0, box.width(), box.height()));
            p.restore();
        };
        for (size_t i = 0; i < slides.size(); ++i) {
            if (i > 0)
                pdf.newPage();
            const Slide& slide = slides[i];
            QFont heading = p.font();
            heading.setPixelSize(page.height() / 18);
            heading.setBold(true);
            p.setFont(heading);
            p.setPen(Qt::black);
            p.drawText(layout.heading, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap,
                       slide.heading);
            QRect figureRect = layout.figure;
            if (!slide.caption.isEmpty()) {
                // The loss line under the figure, as under the next-token list (two lines with
                // heads switched off).
                QFont caption = p.font();
                caption.setBold(false);
                caption.setPixelSize(page.height() / 36);
                p.setFont(caption);
                const int h = p.fontMetrics()
                                  .boundingRect(QRect(0, 0, figureRect.width(), page.height()),
                                                Qt::TextWordWrap, slide.caption)
                                  .height() +
                              2;
                p.drawText(QRect(figureRect.left(), figureRect.bottom() - h, figureRect.width(), h),
                           Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, slide.caption);
                figureRect.setBottom(figureRect.bottom() - h - margin / 4);
            }
            QRect heatmapRect = figureRect;
            if (!slide.table.isEmpty() && !slide.figure.isEmpty()) {
                // The next-token list beside the heatmap, as the window shows both.
                const int tableWidth = figureRect.width() / 4;
                heatmapRect.setRight(figureRect.right() - tableWidth - margin / 2);
                drawHtml(slide.table,
                         QRect(figureRect.right() - tableWidth, figureRect.top(), tableWidth,
                               figureRect.height()),
                         16, 7, true);
            } else if (!slide.table.isEmpty()) {
                drawHtml(slide.table, figureRect, 16, 7, true);
            }
            if (!slide.overview.empty()) {
                OverviewFigureOptions o = slide.overviewOptions;
                drawSvg(renderOverviewBytes(slide.overview, o, ImageFormat::Svg), figureRect);
            } else if (!slide.figure.isEmpty()) {
                FigureOptions o;
                o.showTitle = false;
                o.colormap = defaultColormapFor(slide.figure);
                o.width = heatmapRect.width();
                o.height = heatmapRect.height();
                o.vectorCells = true;
                o.switchedOff = slide.switchedOff;
                drawSvg(renderHeatmapBytes(slide.figure, o, ImageFormat::Svg), heatmapRect);
            }
            // All of the screen's text, as large as fits its column.
            const int body = std::max(10, slideTextPixelSize(slide.html));
            drawHtml(slide.html, layout.text, body, body, false);
            QFont footer = p.font();
            footer.setBold(false);
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
