#include "pipeline/model_request.h"

#include "tokenizer/gpt2_bpe.h"
#include "tokenizer/hf_tokenizer.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <cstring>
#include <optional>

#include "engine/embeddings.h"
#include "engine/head_scores.h"
#include "engine/step_ids.h"
#include "engine/weight_names.h"
#include "io/model_file.h"
#include "tokenizer/gpt2_bpe.h"

namespace attn {

namespace {

class Text {
    Q_DECLARE_TR_FUNCTIONS(attn::ModelRequest)
};

const char* const kModelSuffix = ".safetensors";

}  // namespace

QString bundledModelDirectory() {
    const QString env = qEnvironmentVariable("ATTN_MODEL_DIR");
    if (!env.isEmpty())
        return env;
    // The program's folder: Qt's once an application object exists, else the kernel's link to
    // the running executable (the launch checks its options before it makes the application).
    const QString program =
        QCoreApplication::instance()
            ? QCoreApplication::applicationDirPath()
            : QFileInfo(QFileInfo(QStringLiteral("/proc/self/exe")).canonicalFilePath()).path();
    if (program.isEmpty() || program == QLatin1String("."))
        return {};
    const QDir bin(program);
    for (const char* relative :
         {"../share/attention-lens/models", "../../share/attention-lens/models"}) {
        const QString dir = QDir::cleanPath(bin.filePath(QLatin1String(relative)));
        if (QFileInfo(dir).isDir())
            return dir;
    }
    return {};
}

QStringList bundledModelNames() {
    const QString dir = bundledModelDirectory();
    QStringList names;
    if (dir.isEmpty())
        return names;
    // A GPT-2 file is named by its base name; a folder (a Hugging Face model with its
    // config.json) by the folder's name.
    for (const QFileInfo& f :
         QDir(dir).entryInfoList({QStringLiteral("*.safetensors")}, QDir::Files, QDir::Name))
        names << f.completeBaseName();
    for (const QFileInfo& f :
         QDir(dir).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (QFileInfo(QDir(f.filePath()).filePath(QStringLiteral("config.json"))).isFile())
            names << f.fileName();
    names.sort();
    return names;
}

QString modelFilePath(const QString& nameOrPath) {
    if (QFileInfo(nameOrPath).isFile() || QFileInfo(nameOrPath).isDir())
        return nameOrPath;
    if (bundledModelNames().contains(nameOrPath)) {
        const QDir dir(bundledModelDirectory());
        return QFileInfo(dir.filePath(nameOrPath)).isDir()
                   ? dir.filePath(nameOrPath)
                   : dir.filePath(nameOrPath + QLatin1String(kModelSuffix));
    }
    const QStringList bundled = bundledModelNames();
    throw UserError(
        "model",
        (bundled.isEmpty() ? Text::tr("No model file %1 (and this installation has no bundled "
                                      "models).")
                                 .arg(nameOrPath)
                           : Text::tr("No model file or folder %1; give a model folder, a "
                                      ".safetensors or .pth file, or one of the models that ship "
                                      "with the app: %2.")
                                 .arg(nameOrPath, bundled.join(QStringLiteral(", "))))
            .toStdString());
}

QString modelName(const QString& nameOrPath) {
    const QFileInfo info(nameOrPath);
    QString name = info.fileName();
    if (info.isDir() || name.isEmpty())
        return name.isEmpty() ? QDir(nameOrPath).dirName() : name;
    for (const char* suffix : {".safetensors", ".pth", ".pt", ".bin"})
        if (name.endsWith(QLatin1String(suffix), Qt::CaseInsensitive))
            return name.left(name.size() - qsizetype(std::strlen(suffix)));
    return name;
}

std::shared_ptr<const DecoderModel> loadModel(const QString& nameOrPath,
                                              std::optional<int64_t> heads,
                                              const CancelToken* cancel,
                                              const ModelLoadProgress& progress,
                                              const QString& configPath) {
    io::ModelLoadOptions o;
    o.heads = heads;
    o.configPath = configPath.toStdString();
    o.cancel = cancel;
    if (progress)
        o.progress = [&progress](int done, int total, const std::string& what) {
            progress(done, total, QString::fromStdString(what));
        };
    return io::loadDecoderModel(modelFilePath(nameOrPath).toStdString(), o);
}

namespace {

// Appended tokens keep their ids while the text is still what they spell (read as characters,
// as the text box holds them), as GPT-2's do (Settings::tokenIds): the ids with the tokens the
// tokenizer adds around the text (its <bos>) where `encoded` (the text's own tokens) has them;
// nothing when the text changed since.
std::optional<std::vector<Token>> keptTokens(const HfTokenizer& tokenizer,
                                             const std::vector<int64_t>& ids,
                                             const std::vector<Token>& encoded,
                                             const std::string& text) {
    size_t front = 0, back = 0;
    while (front < encoded.size() && encoded[front].addedByTokenizer)
        ++front;
    while (back + front < encoded.size() && encoded[encoded.size() - 1 - back].addedByTokenizer)
        ++back;
    if (ids.size() < front + back)
        return std::nullopt;
    std::vector<Token> kept;
    std::string spelled;
    try {
        for (size_t i = 0; i < ids.size(); ++i) {
            Token t = tokenizer.token(ids[i]);
            const bool added = i < front || i >= ids.size() - back;
            if (added && t.id != encoded[i < front ? i : encoded.size() - (ids.size() - i)].id)
                return std::nullopt;
            t.addedByTokenizer = added;
            if (!added)
                spelled += t.bytes;
            kept.push_back(std::move(t));
        }
    } catch (const std::out_of_range&) {
        return std::nullopt;  // an id outside the vocabulary (an edited session)
    }
    // The text box holds characters: a byte token that is part of one shows as U+FFFD there,
    // so the ids spell the text when their bytes read as characters the same way.
    if (spelled != text && QString::fromUtf8(spelled.data(), qsizetype(spelled.size())) !=
                               QString::fromUtf8(text.data(), qsizetype(text.size())))
        return std::nullopt;
    return kept;
}

}  // namespace

QString modelTokenizerName(const DecoderModel& model) {
    return model.tokenizer ? QStringLiteral("tokenizer.json") : QStringLiteral("gpt2");
}

Facts modelFacts(const DecoderModel& model, int64_t layer) {
    Facts facts = {{"names", weightNamesName(model.names)}};
    for (Fact& f : architectureFacts(model.arch, layer))
        facts.push_back(std::move(f));
    facts.push_back({"dtype", model.dtype});
    facts.push_back({"tokenizer", modelTokenizerName(model).toStdString()});
    facts.push_back({"tokenizer_is_the_models", modelTokenizerNote(model).isEmpty()});
    return facts;
}

QString modelTokenizerNote(const DecoderModel& model) {
    // GPT-2's tokenizer is the model's for a GPT-2 model, and for one whose file says it was
    // trained on GPT-2's tokens (the bundled tiny-shakespeare-llama: "tokenizer": "gpt2").
    const auto said = model.metadata.find("tokenizer");
    if (model.tokenizer || model.arch.family == Family::Gpt2 ||
        (said != model.metadata.end() && said->second == "gpt2"))
        return {};
    return Text::tr(
               "%1 is a %2 model without its tokenizer.json, so GPT-2's tokenizer cuts "
               "the text: the ids are not the ones the model learned, and its predictions "
               "say little. Put the model's tokenizer.json beside its config.json.")
        .arg(QString::fromStdString(model.source),
             QString::fromStdString(familyName(model.arch.family)));
}

int64_t maxTextBytesPerToken(const Settings& settings, const DecoderModel* model) {
    if (settings.modelMode()) {
        if (!model)
            return -1;
        return model->tokenizer ? model->tokenizer->maxTextBytesPerToken() : gpt2MaxTokenBytes();
    }
    switch (settings.tokenizer) {
        case TokenizerKind::Gpt2:
            return gpt2MaxTokenBytes();
        case TokenizerKind::Chars:
            return 4;  // one character, at most 4 bytes of UTF-8
        default:
            return -1;  // a word can be as long as the text
    }
}

int64_t contextLengthOf(const Settings& settings, const DecoderModel* model) {
    if (settings.modelMode())
        return model ? model->arch.contextLength : 0;
    return settings.config.contextLength;
}

Token modelToken(const DecoderModel* model, int64_t id) {
    return model && model->tokenizer ? model->tokenizer->token(id) : gpt2Token(id);
}

InputTokens modelTokens(const Settings& settings, const DecoderModel* model) {
    InputTokens in;
    const HfTokenizer* own = model ? model->tokenizer.get() : nullptr;
    if (own && !settings.inputIds.empty()) {
        for (int64_t id : settings.inputIds) {
            if (id >= own->vocabSize())
                throw UserError("ids", Text::tr("Token id %1 is not in the model's tokenizer "
                                                "(ids 0 to %2).")
                                           .arg(id)
                                           .arg(own->vocabSize() - 1)
                                           .toStdString());
            in.tokens.push_back(own->token(id));
        }
    } else if (own) {
        const std::string text = settings.inputText().toStdString();
        refuseTextBeyondContext(
            text, model->arch.contextLength, false,
            [own](std::string_view prefix) { return int64_t(own->encode(prefix, true).size()); });
        in.tokens = own->encode(text, true);
        if (!settings.tokenIds.empty() && settings.source == InputSource::Text)
            if (auto kept = keptTokens(*own, settings.tokenIds, in.tokens, text))
                in.tokens = std::move(*kept);
    } else {
        Settings gpt2 = settings;
        gpt2.tokenizer = TokenizerKind::Gpt2;  // a GPT-2 model reads GPT-2 tokens
        if (model && settings.inputIds.empty()) {
            const QByteArray utf8 = settings.inputText().toUtf8();
            refuseTextBeyondContext(
                std::string_view(utf8.constData(), size_t(utf8.size())), model->arch.contextLength,
                false, [](std::string_view prefix) {
                    return int64_t(tokenize(TokenizerKind::Gpt2, prefix).size());
                });
        }
        in.tokens = gpt2.textTokens();
    }
    for (const Token& t : in.tokens)
        in.labels.push_back(t.display);
    return in;
}

std::vector<ValidationIssue> checkModelSettings(const Settings& settings, const DecoderModel& model,
                                                const InputTokens& tokens) {
    std::vector<ValidationIssue> issues;
    auto add = [&](const char* field, const QString& message) {
        issues.push_back({field, message.toStdString()});
    };
    const DecoderArchitecture& a = model.arch;
    if (settings.source == InputSource::File)
        add("embeddings", Text::tr("A trained model makes its own input vectors from the text; "
                                   "forget the embeddings file to use it."));
    if (settings.source == InputSource::Text && settings.tokenizer != TokenizerKind::Gpt2 &&
        !model.tokenizer)
        add("tokenizer", Text::tr("%1 reads GPT-2 tokens: choose the GPT-2 tokenizer.")
                             .arg(QString::fromStdString(model.source)));
    const int64_t T = tokens.count();
    if (T == 0)
        add("input", Text::tr("The text has no tokens: type a word or two."));
    else if (T > a.contextLength)
        add("input", Text::tr("The text has %1 tokens, more than the model's context length of "
                              "%2. Shorten the text.")
                         .arg(T)
                         .arg(a.contextLength));
    for (const Token& t : tokens.tokens)
        if (t.id >= a.vocab) {
            add("input",
                Text::tr("The token \"%1\" (id %2) is beyond the model's vocabulary of "
                         "%3 tokens.")
                        .arg(QString::fromStdString(t.display))
                        .arg(t.id)
                        .arg(a.vocab) +
                    (!modelTokenizerNote(model).isEmpty()
                         ? Text::tr(" GPT-2's tokenizer cut the text, since the model has no "
                                    "tokenizer.json.")
                         : QString()));
            break;
        }
    if (settings.layer >= a.layers)
        add("layer", Text::tr("The model has %1 layers (0 to %2); layer %3 does not exist.")
                         .arg(a.layers)
                         .arg(a.layers - 1)
                         .arg(settings.layer));
    for (const HeadRef& r : settings.ablation.heads)
        if (r.layer >= a.layers || r.head >= a.heads) {
            add("ablate", Text::tr("Head %1.%2 does not exist: the model has %3 layers (0 to %4) "
                                   "of %5 heads (0 to %6).")
                              .arg(r.layer)
                              .arg(r.head)
                              .arg(a.layers)
                              .arg(a.layers - 1)
                              .arg(a.heads)
                              .arg(a.heads - 1));
            break;
        }
    return issues;
}

TraceRun layerTraceRun(const ModelRun& run, const CancelToken* cancel) {
    TraceRun t;
    t.settings = run.settings;
    t.input = run.input;
    t.trace = std::make_shared<const Trace>(layerTrace(*run.run, run.settings.layer, cancel));
    if (const Step* x = t.trace->find(step_id::kInputs))
        t.x = stepMatrix(*x, 0, 0);  // (T, d): the layer's LayerNorm1 output
    return t;
}

const std::vector<std::string>& blockContextStepIds() {
    static const std::vector<std::string> ids = {
        step_id::kBlockInput, step_id::kResidualAfterAttention,
        step_id::kNorm2,      step_id::kFfHidden,
        step_id::kFfOutput,   step_id::kBlockOutput};
    return ids;
}

std::vector<StepInfo> plannedModelSteps(const DecoderArchitecture& arch, int64_t layer,
                                        int64_t tokens, bool simpleMaskSteps) {
    // One layer's attention is the module layerTraceConfig says, with the model's sizes.
    const int64_t d = std::max<int64_t>(1, arch.dModel);
    DecoderArchitecture a = arch;
    a.dModel = d;
    Config c = layerTraceConfig(a, layer, tokens);
    c.simpleMaskSteps = simpleMaskSteps;
    const int64_t T = std::max<int64_t>(1, tokens);
    auto around = [&](const char* id, int64_t width, const char* widthName) {
        StepInfo s;
        s.id = id;
        s.dims = {"b", "T", widthName};
        s.shape = {1, T, width};
        s.kind = StepKind::Projection;
        return s;
    };
    std::vector<StepInfo> steps{around(step_id::kBlockInput, d, "d_model")};
    for (StepInfo& s : planSteps(c, T)) {
        if (s.id == step_id::kInputs)
            s.source = StepSource::LayerInput;
        steps.push_back(std::move(s));
    }
    steps.push_back(around(step_id::kResidualAfterAttention, d, "d_model"));
    steps.push_back(around(step_id::kNorm2, d, "d_model"));
    steps.push_back(around(step_id::kFfHidden, std::max<int64_t>(1, arch.ffHidden), "ff_hidden"));
    steps.push_back(around(step_id::kFfOutput, d, "d_model"));
    steps.push_back(around(step_id::kBlockOutput, d, "d_model"));
    if (arch.layers > 0) {
        const BlockFacts block = a.blockFacts(layer);
        for (StepInfo& s : steps)
            s.block = block;
    }
    return steps;
}

namespace {

// The layer's switched-off heads in its chapter-3 steps: each head's own steps stay what it
// computes (its weights, its context), and `context` (the heads side by side) and `output` are
// what the forward used (blockContext: the switched-off heads' columns 0, or their mean over
// the positions), so `output` is what the block adds. The titles say so.
void switchHeadsOff(Trace& trace, const DecoderRun& run, int layer,
                    const DecoderBlockContext& block) {
    QStringList off;
    for (const HeadRef& r : run.ablation.heads)
        if (r.layer == layer)
            off << QString::number(r.head);
    if (off.isEmpty())
        return;
    const QString note = run.ablation.mode == AblationMode::Mean
                             ? Text::tr(
                                   " (head %1 switched off: its columns are its mean over "
                                   "the positions)")
                             : Text::tr(" (head %1 switched off: its columns are 0)");
    for (Step& s : trace.steps) {
        const Tensor* used = s.info.id == step_id::kContext  ? &block.context
                             : s.info.id == step_id::kOutput ? &block.attentionProjected
                                                             : nullptr;
        if (!used)
            continue;
        s.value = used->contiguous().view(s.value.shape());
        s.info.title += note.arg(off.join(QStringLiteral(", "))).toStdString();
    }
}

}  // namespace

TraceRun layerTraceRunInBlock(const ModelRun& run, const CancelToken* cancel) {
    TraceRun t = layerTraceRun(run, cancel);
    const DecoderBlockContext c = blockContext(*run.run, run.settings.layer, cancel);
    const int64_t T = run.run->tokens();
    const BlockFacts block = run.model->arch.blockFacts(run.settings.layer);
    auto step = [&](const char* id, const QString& title, const std::string& op,
                    const Tensor& value, const char* width) {
        Step s;
        s.info.id = id;
        s.info.title = title.toStdString();
        s.info.op = op;
        s.info.dims = {"b", "T", width};
        s.info.shape = {1, T, value.size(-1)};
        s.info.kind = StepKind::Projection;
        s.info.block = block;
        s.value = value.contiguous().view(s.info.shape);
        return s;
    };
    Trace trace = *t.trace;
    switchHeadsOff(trace, *run.run, run.settings.layer, c);
    std::vector<Step> steps;
    steps.push_back(step(step_id::kBlockInput,
                         Text::tr("The block's input: the residual stream, token embeddings plus "
                                  "what the blocks before added"),
                         "x", c.residualIn, "d_model"));
    for (const Step& s : trace.steps)
        steps.push_back(s);
    // The block around attention as the model's architecture builds it (the book's code:
    // chapter 4's GPTModel, llama3.py and qwen3.py's TransformerBlock, Gemma 3's four norms),
    // its modules named as the model names them (engine/weight_names.h).
    const DecoderArchitecture& a = run.model->arch;
    const WeightNameTable& names = weightNameTable(a.family, run.model->names);
    const int64_t layer = run.settings.layer;
    auto call = [&](const std::string& part, const std::string& argument) {
        return names.module(layer, part) + "(" + argument + ")";
    };
    // A sandwich norm (Gemma 3) around what a sublayer adds.
    auto afterNorm = [&](const std::string& part, const std::string& inner) {
        return part.empty() ? inner : call(part, inner);
    };
    const bool layerNorm = a.norm == NormKind::LayerNorm;
    steps.push_back(
        step(step_id::kResidualAfterAttention,
             Text::tr("The residual stream after attention: the input plus what attention adds"),
             "x = x + " +
                 afterNorm(names.postAttentionNorm, call(names.attention, call(names.norm1, "x"))),
             c.residualMid, "d_model"));
    steps.push_back(
        step(step_id::kNorm2,
             layerNorm ? Text::tr("LayerNorm 2: each token's vector scaled to mean 0, variance 1, "
                                  "then scale and shift")
                       : Text::tr("RMSNorm before the feed-forward: each token's vector divided by "
                                  "its root mean square, then scaled"),
             call(names.norm2, "x"), c.norm2, "d_model"));
    QString hiddenTitle;
    std::string hiddenOp;
    switch (a.feedForward) {
        case FeedForwardKind::Gelu:
            hiddenTitle = Text::tr(
                "Feed-forward, first layer and GELU: four times wider, one token at a time");
            hiddenOp = "gelu(" + call(names.up, "norm2") + ", approximate=\"tanh\")";
            break;
        case FeedForwardKind::GeGlu:
            hiddenTitle = Text::tr(
                "Feed-forward, gated (GeGLU): GELU of one projection times another, one token at "
                "a time");
            hiddenOp = "gelu(" + call(names.gate, "norm2") + ", approximate=\"tanh\") * " +
                       call(names.up, "norm2");
            break;
        case FeedForwardKind::SwiGlu:
            hiddenTitle = Text::tr(
                "Feed-forward, gated (SwiGLU): SiLU of one projection times another, one token at "
                "a time");
            hiddenOp = "silu(" + call(names.gate, "norm2") + ") * " + call(names.up, "norm2");
            break;
    }
    steps.push_back(step(step_id::kFfHidden, hiddenTitle, hiddenOp, c.ffHidden, "ff_hidden"));
    steps.push_back(step(step_id::kFfOutput,
                         names.postFeedForwardNorm.empty()
                             ? Text::tr("Feed-forward, second layer: back to d_model")
                             : Text::tr("Feed-forward, last layer back to d_model, then its "
                                        "RMSNorm"),
                         afterNorm(names.postFeedForwardNorm, call(names.down, "ff_hidden")),
                         c.ffOutput, "d_model"));
    steps.push_back(step(step_id::kBlockOutput,
                         Text::tr("The block's output: the residual stream plus the feed-forward, "
                                  "the next block's input"),
                         "x = x + " + afterNorm(names.postFeedForwardNorm,
                                                call(names.feedForward, call(names.norm2, "x"))),
                         c.residualOut, "d_model"));
    trace.steps = std::move(steps);
    t.trace = std::make_shared<const Trace>(std::move(trace));
    return t;
}

QString describeModel(const DecoderModel& model) {
    const DecoderArchitecture& a = model.arch;
    const QLocale c = QLocale::c();
    // The heads: "4 heads of 32 (d 128)" when each has its own keys and values, else which
    // query heads share how many key/value heads.
    const QString heads =
        a.keyValueHeads() == a.heads
            ? Text::tr("%1 heads of %2 (d %3)").arg(a.heads).arg(a.headSize()).arg(a.dModel)
            : Text::tr("%1 query heads sharing %2 key/value heads of %3 (d %4)")
                  .arg(a.heads)
                  .arg(a.keyValueHeads())
                  .arg(a.headSize())
                  .arg(a.dModel);
    QString line = Text::tr("%1, %2 layers, %3, context %4")
                       .arg(QString::fromStdString(familyName(a.family)))
                       .arg(a.layers)
                       .arg(heads)
                       .arg(c.toString(qlonglong(a.contextLength)));
    // Which layers see only a window of keys, and the rest by number.
    QStringList full;
    int64_t sliding = 0, window = 0;
    for (int64_t l = 0; l < a.layers; ++l) {
        if (a.windowOf(l) > 0) {
            ++sliding;
            window = std::max(window, a.windowOf(l));
        } else {
            full << QString::number(l);
        }
    }
    if (sliding == a.layers)
        line += Text::tr(", every layer a sliding window of %1").arg(c.toString(qlonglong(window)));
    else if (sliding > 0)
        line += Text::tr(", a sliding window of %1 on %2 of %3 layers (full attention: %4)")
                    .arg(c.toString(qlonglong(window)))
                    .arg(sliding)
                    .arg(a.layers)
                    .arg(full.join(QStringLiteral(", ")));
    return line + Text::tr(", vocabulary %1, %2")
                      .arg(c.toString(qlonglong(a.vocab)))
                      .arg(QString::fromStdString(model.dtype));
}

namespace {

QString metadataValue(const DecoderModel& model, const char* key) {
    const auto it = model.metadata.find(key);
    return it == model.metadata.end() ? QString() : QString::fromStdString(it->second).trimmed();
}

// A number the metadata writes in C notation ("4.5529") in the reader's locale ("4,5529" in
// German), with the decimals it was written with; text that is no number stays as it is.
QString localNumber(const QString& text) {
    bool ok = false;
    const double value = QLocale::c().toDouble(text, &ok);
    if (!ok)
        return text;
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    const int decimals = dot < 0 ? 0 : int(text.size() - dot - 1);
    return QLocale().toString(value, 'f', decimals);
}

}  // namespace

QString describeValidationLoss(const DecoderModel& model) {
    const QString loss = localNumber(metadataValue(model, "validation_loss"));
    const QString bigram = localNumber(metadataValue(model, "baseline_bigram_validation_loss"));
    if (!loss.isEmpty() && !bigram.isEmpty())
        return Text::tr("Validation loss %1 nats per token (a bigram model: %2).")
            .arg(loss, bigram);
    if (!loss.isEmpty())
        return Text::tr("Validation loss %1 nats per token.").arg(loss);
    return {};
}

QString describeModelOrigin(const DecoderModel& model) {
    QStringList parts;
    const QString description = metadataValue(model, "description");
    if (!description.isEmpty())
        parts << description;
    const QString loss = describeValidationLoss(model);
    if (!loss.isEmpty())
        parts << loss;
    const QString licence = metadataValue(model, "licence");
    if (!licence.isEmpty())
        parts << Text::tr("Licence: %1.").arg(licence);
    return parts.join(QLatin1Char(' '));
}

QString modelMetadataHtml(const DecoderModel& model) {
    if (model.metadata.empty())
        return {};
    QString html = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"3\">");
    for (const auto& [key, value] : model.metadata)
        html += QStringLiteral("<tr><td valign=\"top\"><b>%1</b></td><td>%2</td></tr>")
                    .arg(QString::fromStdString(key).toHtmlEscaped(),
                         QString::fromStdString(value).toHtmlEscaped());
    return html + QStringLiteral("</table>");
}

std::vector<int64_t> inductionTestIds(const DecoderModel& m, int64_t n, int64_t repeats,
                                      uint64_t seed) {
    std::vector<int64_t> pool;
    int64_t prefix = -1;
    if (const HfTokenizer* t = m.tokenizer.get()) {
        const int64_t size = std::min(m.arch.vocab, t->modelVocabSize());
        for (int64_t id = 0; id < size; ++id)
            if (!t->isSpecial(id))
                pool.push_back(id);
        prefix = t->addedAtStart();
    } else {
        // GPT-2's only special token is <|endoftext|>.
        const int64_t endOfText = gpt2::kEndOfText;
        for (int64_t id = 0; id < std::min(m.arch.vocab, endOfText); ++id)
            pool.push_back(id);
        if (m.arch.vocab > endOfText)
            prefix = endOfText;
    }
    std::vector<int64_t> ids = repeatedRandomIds(n, repeats, std::move(pool), seed);
    if (prefix >= 0)
        ids.insert(ids.begin(), prefix);
    return ids;
}

}  // namespace attn
