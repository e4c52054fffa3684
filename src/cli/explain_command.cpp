// `explain`: what the app's Explain panel shows for a step (title, what and why, formula, PyTorch
// expression, shape line) and for a clicked cell (where its number comes from), made by the same
// functions (teach/explanations.h, teach/derivation.h), as plain text or Markdown, in English or
// German. `--all-steps` prints every step in pipeline order: a handout.

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QLocale>
#include <QTextDocument>
#include <QTranslator>
#include <algorithm>
#include <cstdio>

#include "cli/commands.h"
#include "export/heatmap_data.h"
#include "io/file_io.h"
#include "pipeline/options.h"
#include "pipeline/step_files.h"
#include "teach/derivation.h"
#include "teach/explanations.h"

namespace attn::cli {

namespace {

enum class TextFormat { Text, Markdown };

// Characters of Unicode's private use area that stand for <sub>, </sub>, <sup>, </sup> while the
// rich text is converted: QTextDocument keeps the text but drops the tags, and "w<sub>ij</sub>"
// must not read "wij".
constexpr char16_t kSubOpen = 0xE000, kSubClose = 0xE001, kSupOpen = 0xE002, kSupClose = 0xE003;

// A sub- or superscript on paper: "_i", "^T" for one word, "_(i,j)" for more.
QString scriptText(const QString& inner, QChar mark) {
    const bool plain = !inner.isEmpty() && std::all_of(inner.begin(), inner.end(), [](QChar c) {
        return c.isLetterOrNumber() || c == QChar(0x2032);  // j′
    });
    return plain ? mark + inner : mark + QLatin1Char('(') + inner + QLatin1Char(')');
}

// The rich text the panel shows, as the reader asked for it: Markdown keeps sub- and superscripts
// as the HTML tags Markdown allows, plain text writes them as _ and ^. Non-breaking spaces (the
// panel keeps "Formula:" and its formula together with them) are plain spaces on paper.
QString convert(QString html, TextFormat format) {
    html.replace(QLatin1String("<sub>"), QChar(kSubOpen))
        .replace(QLatin1String("</sub>"), QChar(kSubClose))
        .replace(QLatin1String("<sup>"), QChar(kSupOpen))
        .replace(QLatin1String("</sup>"), QChar(kSupClose));
    QTextDocument doc;
    doc.setHtml(html);
    QString text = format == TextFormat::Markdown ? doc.toMarkdown() : doc.toPlainText();
    text.replace(QChar(0x00A0), QLatin1Char(' '));
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        const bool sub = c == QChar(kSubOpen);
        if (!sub && c != QChar(kSupOpen)) {
            out += c;
            continue;
        }
        const qsizetype end = text.indexOf(QChar(sub ? kSubClose : kSupClose), i + 1);
        const QString inner = text.mid(i + 1, (end < 0 ? text.size() : end) - i - 1);
        if (format == TextFormat::Markdown)
            out += (sub ? QLatin1String("<sub>") : QLatin1String("<sup>")) + inner +
                   (sub ? QLatin1String("</sub>") : QLatin1String("</sup>"));
        else
            out += scriptText(inner, sub ? QLatin1Char('_') : QLatin1Char('^'));
        i = end < 0 ? text.size() : end;
    }
    while (out.endsWith(QLatin1Char('\n')))
        out.chop(1);
    return out + QLatin1Char('\n');
}

// "I,J" -> the cell (row I, column J); anything else is refused with what is expected.
std::pair<int, int> parseCell(const QString& text) {
    const QStringList parts = text.split(QLatin1Char(','));
    bool okRow = false, okCol = false;
    const int row = parts.size() == 2 ? parts[0].trimmed().toInt(&okRow) : -1;
    const int col = parts.size() == 2 ? parts[1].trimmed().toInt(&okCol) : -1;
    if (!okRow || !okCol || row < 0 || col < 0)
        throw UserError("cell",
                        "--cell expects a row and a column from 0, as I,J (e.g. 2,1), got \"" +
                            text.toStdString() + "\".");
    return {row, col};
}

// The German UI's texts and number format, as the app has them when its language is German.
void useLanguage(const QString& language) {
    if (language == QLatin1String("en"))
        return;
    if (language != QLatin1String("de"))
        throw UserError("lang", "Unknown --lang \"" + language.toStdString() +
                                    "\"; the languages are en and de.");
    auto* translator = new QTranslator(QCoreApplication::instance());
    if (!translator->load(QStringLiteral(":/i18n/attention-lens_de.qm")))
        throw UserError("lang", "The German translation is not part of this build.");
    QCoreApplication::installTranslator(translator);
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
}

}  // namespace

int explainCommand(const QStringList& args) {
    QCommandLineParser p;
    addSettingOptions(p, {SettingGroup::Input, SettingGroup::Module});
    p.addOptions({
        {"step", "The step to explain, e.g. weights.", "id"},
        {"all-steps", "Explain every step, in pipeline order (a handout)."},
        {"head", "With --cell: the head of a per-head step (default 0).", "h"},
        {"batch-index", "With --cell: the batch entry (default 0).", "i"},
        {"cell",
         "Also print where the number in row I, column J of the step's heatmap comes from "
         "(printed last).",
         "I,J"},
        {"format", "text (default) or markdown.", "type"},
        {"lang", "en (default) or de.", "language"},
        {"out", "Write to this file instead of stdout.", "file"},
    });
    parseOrThrow(p, args, "explain", "what the Explain panel says about a step and a cell");
    if (p.isSet("step") == p.isSet("all-steps"))
        throw UserError("step", "Say what to explain: --step ID, or --all-steps for every step.");
    if (p.isSet("all-steps"))
        for (const char* name : {"cell", "head", "batch-index"})
            if (p.isSet(name))
                throw UserError(name, std::string("--") + name +
                                          " picks one step's cell: use it with --step ID, not "
                                          "--all-steps.");
    if (!p.isSet("cell"))
        for (const char* name : {"head", "batch-index"})
            if (p.isSet(name))
                throw UserError(name, std::string("--") + name +
                                          " picks the matrix of the cell to derive: give the "
                                          "cell with --cell I,J.");
    const QString formatName = p.isSet("format") ? p.value("format") : QStringLiteral("text");
    if (formatName != QLatin1String("text") && formatName != QLatin1String("markdown"))
        throw UserError("format", "Unknown --format \"" + formatName.toStdString() +
                                      "\"; use text or markdown.");
    const TextFormat format =
        formatName == QLatin1String("markdown") ? TextFormat::Markdown : TextFormat::Text;
    useLanguage(p.isSet("lang") ? p.value("lang") : QStringLiteral("en"));
    const std::optional<std::pair<int, int>> cell =
        p.isSet("cell") ? std::optional(parseCell(p.value("cell"))) : std::nullopt;

    const CliInput in = settingsFromOptions(p);
    const TraceRun run = traceFromOptions(in);
    const Trace& trace = *run.trace;
    const InputOrigin origin = inputOriginOf(run.settings);

    QString out;
    if (p.isSet("all-steps")) {
        for (size_t i = 0; i < trace.steps.size(); ++i) {
            if (i)
                out += format == TextFormat::Markdown
                           ? QStringLiteral("\n---\n\n")
                           : QStringLiteral("\n") + QString(72, QLatin1Char('-')) +
                                 QStringLiteral("\n\n");
            out += convert(explainStepHtml(trace, trace.steps[i].info.id, origin), format);
        }
    } else {
        const Step& step = requireStep(trace, p.value("step"));
        out = convert(explainStepHtml(trace, step.info.id, origin), format);
        if (cell) {
            const int heads = stepHeadCount(step.info);
            const int head = nonNegativeOption(p, "head", 0);
            if (const auto why = headProblem(head, heads, step.info.id))
                throw UserError(why->field, why->message);
            const int batches = stepBatchCount(step.info);
            const int batch = nonNegativeOption(p, "batch-index", 0);
            if (batch >= std::max(1, batches))
                throw UserError("batch-index",
                                QStringLiteral("--batch-index %1 does not exist: the batch has "
                                               "%2 entries (0 to %3).")
                                    .arg(batch)
                                    .arg(std::max(1, batches))
                                    .arg(std::max(1, batches) - 1)
                                    .toStdString());
            const QStringList labels = rowLabels(run);
            const HeatmapData shown = sliceStep(step, labels, head, batch);
            const auto [row, col] = *cell;
            if (row >= shown.rows || col >= shown.cols)
                throw UserError("cell", QStringLiteral("--cell %1,%2 is outside the heatmap of %3, "
                                                       "which has %4 rows and %5 columns (0,0 "
                                                       "to %6,%7).")
                                            .arg(row)
                                            .arg(col)
                                            .arg(QString::fromStdString(step.info.id))
                                            .arg(shown.rows)
                                            .arg(shown.cols)
                                            .arg(shown.rows - 1)
                                            .arg(shown.cols - 1)
                                            .toStdString());
            const QString derivation =
                deriveCellHtml(trace, labels, step.info.id, heads > 0 ? head : 0, batch, row, col);
            out += QLatin1Char('\n');
            out += convert(QStringLiteral("<h3>%1</h3>%2").arg(explainCellHeading(), derivation),
                           format);
        }
    }
    const QByteArray bytes = out.toUtf8();
    if (p.isSet("out")) {
        io::writeFileAtomically(p.value("out").toStdString(),
                                std::string_view(bytes.data(), size_t(bytes.size())));
    } else {
        std::fwrite(bytes.data(), 1, size_t(bytes.size()), stdout);
        std::fflush(stdout);
    }
    return 0;
}

}  // namespace attn::cli
