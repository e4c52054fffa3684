#include "pipeline/settings.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <cmath>
#include <limits>

#include "engine/embeddings.h"

namespace attn {

namespace {

class Text {
    Q_DECLARE_TR_FUNCTIONS(attn::Settings)
};

QString str(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// A value as the text a user typed or a file holds (QSettings keeps everything as text).
QString text(const QVariant& v) {
    return v.toString().trimmed();
}

// Problems are phrased with "{}" where the caller names the setting: --d-in on the command line,
// "d_in" in a session.
QString wholeNumber(const QVariant& v, int64_t* out) {
    bool ok = false;
    qlonglong n = 0;
    if (v.typeId() == QMetaType::Double) {
        const double d = v.toDouble();
        ok = d == double(qlonglong(d)) && std::abs(d) < 9.2e18;
        n = qlonglong(d);
    } else {
        n = text(v).toLongLong(&ok);
    }
    if (!ok)
        return Text::tr("{} expects a whole number, got \"%1\"").arg(text(v));
    *out = n;
    return {};
}

// The sizes of the module: 1 .. kMaxDimension, as the engine takes them.
QString size(const QVariant& v, int64_t* out) {
    int64_t n = 0;
    if (!wholeNumber(v, &n).isEmpty() || n < 1 || n > kMaxDimension)
        return Text::tr("{} expects a whole number from 1 to %1, got \"%2\"")
            .arg(kMaxDimension)
            .arg(text(v));
    *out = n;
    return {};
}

// A size with a default: 0 stands for it (latent_dim, head_dim), else as size().
QString sizeOrDefault(const QVariant& v, int64_t* out) {
    int64_t n = 0;
    if (!wholeNumber(v, &n).isEmpty() || n < 0 || n > kMaxDimension)
        return Text::tr("{} expects a whole number from 1 to %1, or 0 for the default, got \"%2\"")
            .arg(kMaxDimension)
            .arg(text(v));
    *out = n;
    return {};
}

QString positive(const QVariant& v, double* out) {
    bool ok = v.typeId() == QMetaType::Double;
    const double d = ok ? v.toDouble() : text(v).toDouble(&ok);
    if (!ok || !(d > 0.0) || !std::isfinite(d))
        return Text::tr("{} expects a positive number, got \"%1\"").arg(text(v));
    *out = d;
    return {};
}

QString count(const QVariant& v, int* out) {
    int64_t n = 0;
    if (wholeNumber(v, &n).isEmpty() && n >= 0 && n <= std::numeric_limits<int>::max()) {
        *out = int(n);
        return {};
    }
    return Text::tr("{} expects a whole number from 0, got \"%1\"").arg(text(v));
}

// Seeds as torch.manual_seed takes them: 0 .. 2^64-1, and negatives, which wrap as in PyTorch.
QString seed(const QVariant& v, uint64_t* out) {
    const QString t = text(v);
    bool ok = false;
    const qulonglong u = t.toULongLong(&ok);
    if (ok) {
        *out = u;
        return {};
    }
    const qlonglong s = t.toLongLong(&ok);
    if (ok && s < 0) {
        *out = uint64_t(s);
        return {};
    }
    return Text::tr("{} expects a whole number from -2^63 to 2^64-1, got \"%1\"").arg(t);
}

QString rate(const QVariant& v, double* out) {
    bool ok = v.typeId() == QMetaType::Double;
    const double d = ok ? v.toDouble() : text(v).toDouble(&ok);
    if (!ok || !(d >= 0.0 && d < 1.0))
        return Text::tr("{} expects a number from 0 up to (not including) 1, got \"%1\"")
            .arg(text(v));
    *out = d;
    return {};
}

QString boolean(const QVariant& v, bool* out) {
    if (v.typeId() == QMetaType::Bool) {
        *out = v.toBool();
        return {};
    }
    const QString t = text(v).toLower();
    if (t == QLatin1String("true") || t == QLatin1String("1")) {
        *out = true;
        return {};
    }
    if (t == QLatin1String("false") || t == QLatin1String("0")) {
        *out = false;
        return {};
    }
    return Text::tr("{} expects true or false, got \"%1\"").arg(text(v));
}

// An enum by name: parse(name), or "Unknown <what> "x"; use <choices>".
template <typename T, typename Parse>
QString named(const QVariant& v, Parse parse, const QString& what, const char* choices, T* out) {
    const QString t = text(v);
    if (const auto parsed = parse(t.toStdString())) {
        *out = *parsed;
        return {};
    }
    return Text::tr("Unknown %1 \"%2\"; use %3").arg(what, t, QString::fromLatin1(choices));
}

QVariant wide(int64_t v) {
    return QVariant(qlonglong(v));
}

QVariant seedValue(uint64_t v) {
    return QVariant(qulonglong(v));
}

// Token ids as text, "464 3797 3332" (empty for none).
QVariant idsText(const std::vector<int64_t>& ids) {
    QStringList parts;
    for (int64_t id : ids)
        parts << QString::number(id);
    return QVariant(parts.join(QLatin1Char(' ')));
}

QString ids(const QVariant& v, std::vector<int64_t>* out) {
    std::vector<int64_t> parsed;
    // Spaces (as sessions write them) or one comma (as --ids takes them) between the ids; an
    // empty place beside a comma ("1,,2", "1,2,") is a missing id, not nothing.
    static const QRegularExpression separators(QStringLiteral("\\s*,\\s*|\\s+"));
    const QString all = text(v).trimmed();
    for (const QString& part : all.isEmpty() ? QStringList() : all.split(separators)) {
        if (part.isEmpty())
            return Text::tr(
                       "{} expects token ids (whole numbers from 0) separated by commas or "
                       "spaces; \"%1\" has a comma with no id before or after it")
                .arg(all);
        bool ok = false;
        const qlonglong id = part.toLongLong(&ok);
        if (!ok || id < 0)
            return Text::tr(
                       "{} expects token ids (whole numbers from 0) separated by commas or "
                       "spaces, "
                       "got \"%1\"")
                .arg(part);
        parsed.push_back(id);
    }
    *out = std::move(parsed);
    return {};
}

// SettingField::applies: which runs a setting says something about.
bool always(const Settings&) {
    return true;
}
bool chapter3(const Settings& s) {
    return !s.modelMode();
}
bool trainedModel(const Settings& s) {
    return s.modelMode();
}
// Token ids given instead of text are the tokens of a text input (Settings::textTokens) and of
// a trained model's (modelTokens); the book's vectors and an embeddings file leave them unread.
bool givenIds(const Settings& s) {
    return s.idsAreInput();
}
bool inputSource(const Settings& s) {
    return !givenIds(s);
}
bool typedText(const Settings& s) {
    return s.source == InputSource::Text && !givenIds(s);
}
bool appendedIds(const Settings& s) {
    return typedText(s) && !s.tokenIds.empty();
}
// Tokens that become the chapter-2 embeddings (a trained model embeds its own by its own
// tokenizer, which the model's facts name).
bool embeddedTokens(const Settings& s) {
    return chapter3(s) && s.source == InputSource::Text;
}
bool embeddingsFile(const Settings& s) {
    return s.source == InputSource::File && !givenIds(s);
}
bool hasWeights(const Settings& s) {
    return chapter3(s) && variantHasWeights(s.config.variant);
}
bool loadedWeights(const Settings& s) {
    return hasWeights(s) && !s.weightsFile.isEmpty();
}
bool drawnWeights(const Settings& s) {
    return hasWeights(s) && s.weightsFile.isEmpty();
}
// A model layer's d_out (GPT-2's multi-head layer) is its d_model: true, so it stays.
bool hasDOut(const Settings& s) {
    return variantHasDOut(s.config.variant);
}
bool hasHeads(const Settings& s) {
    return chapter3(s) && variantHasHeads(s.config.variant);
}
bool hasKvGroups(const Settings& s) {
    return chapter3(s) && variantHasKvGroups(s.config.variant);
}
bool latent(const Settings& s) {
    return chapter3(s) && s.config.variant == Variant::Latent;
}
bool rotary(const Settings& s) {
    return chapter3(s) && s.config.variant == Variant::Rotary;
}
bool rotating(const Settings& s) {
    return rotary(s) && s.config.rope;
}
bool configFile(const Settings& s) {
    return trainedModel(s) && !s.modelConfigFile.isEmpty();
}
bool ablating(const Settings& s) {
    return trainedModel(s) && !s.ablation.heads.empty();
}

#define GET(expr) [](const Settings& s) -> QVariant { return (expr); }
#define SET(body) [](Settings& s, const QVariant& v) -> QString { body }

std::vector<SettingField> makeFields() {
    using G = SettingGroup;
    return {
        // What goes in. "source" has no option of its own: --preset book, --text, --text-file
        // and --embeddings set it (see pipeline/options.cpp).
        {"source", nullptr, nullptr, "", G::Input, false, inputSource,
         GET(str(inputSourceName(s.source))),
         SET(return named(v, parseInputSource, Text::tr("input"), "book, text or file",
                          &s.source);)},
        {"text", "text", "text", "Text to tokenize and embed.", G::Input, false, typedText,
         GET(s.text), SET(s.text = v.toString(); return {};)},
        {"token_ids", nullptr, nullptr, "", G::Input, false, appendedIds, GET(idsText(s.tokenIds)),
         SET(return ids(v, &s.tokenIds);)},
        {"ids", "ids", "ids",
         "Token ids instead of text, separated by commas (1,2,3): GPT-2's, or with --model the "
         "model's own.",
         G::Input, false, givenIds, GET(idsText(s.inputIds)), SET(return ids(v, &s.inputIds);)},
        {"tokenizer", "tokenizer", "name", "gpt2 (default), words or chars.", G::Input, false,
         embeddedTokens, GET(str(tokenizerName(s.tokenizer))),
         SET(return named(v, parseTokenizer, Text::tr("tokenizer"), "gpt2, words or chars",
                          &s.tokenizer);)},
        {"embedding_seed", "embedding-seed", "s",
         "torch.manual_seed for the chapter-2 embeddings (default 123).", G::Input, false,
         embeddedTokens, GET(seedValue(s.embeddingSeed)), SET(return seed(v, &s.embeddingSeed);)},
        {"positions", "no-positions", nullptr, "Do not add positional embeddings.", G::Input, true,
         embeddedTokens, GET(s.positions), SET(return boolean(v, &s.positions);)},
        {"embeddings_file", "embeddings", "file",
         "Embeddings file (.npy, .json, .csv) of shape (T, d_in) or (b, T, d_in).", G::Input, false,
         embeddingsFile, GET(s.embeddingsFile), SET(s.embeddingsFile = v.toString(); return {};)},
        {"weights_file", "weights", "file",
         "Weights file (.json or .safetensors) with PyTorch state_dict names.", G::Input, false,
         loadedWeights, GET(s.weightsFile), SET(s.weightsFile = v.toString(); return {};)},

        // The module.
        {"variant", "variant", "name",
         "simplified, self-attention-v1, self-attention, causal, multi-head-wrapper, multi-head "
         "(default); after chapter 3: grouped-query, latent, rotary.",
         G::Module, false, always, GET(str(variantName(s.config.variant))),
         SET(return named(v, parseVariant, Text::tr("variant"),
                          "simplified, self-attention-v1, self-attention, causal, "
                          "multi-head-wrapper, multi-head, grouped-query, latent or rotary",
                          &s.config.variant);)},
        {"d_in", "d-in", "n", "Embedding size d_in (default 3).", G::Module, false, always,
         GET(wide(s.config.dIn)), SET(return size(v, &s.config.dIn);)},
        {"d_out", "d-out", "n", "Output size d_out (default 2).", G::Module, false, hasDOut,
         GET(wide(s.config.dOut)), SET(return size(v, &s.config.dOut);)},
        {"heads", "heads", "n", "Number of heads (default 2).", G::Module, false, hasHeads,
         GET(wide(s.config.heads)), SET(return size(v, &s.config.heads);)},
        {"kv_groups", "kv-groups", "G",
         "grouped-query and rotary: key/value groups, each shared by heads / G query heads; "
         "divides the heads (default 1: multi-query attention).",
         G::Module, false, hasKvGroups, GET(wide(s.config.kvGroups)),
         SET(return size(v, &s.config.kvGroups);)},
        {"latent_dim", "latent-dim", "n",
         "latent: size of the latent keys and values are rebuilt from (default max(16, d_out / "
         "8)).",
         G::Module, false, latent, GET(wide(s.config.latentDim)),
         SET(return sizeOrDefault(v, &s.config.latentDim);)},
        {"head_dim", "head-dim", "n", "rotary: numbers per head (default d_in / heads).", G::Module,
         false, rotary, GET(wide(s.config.headDim)),
         SET(return sizeOrDefault(v, &s.config.headDim);)},
        {"qk_norm", "qk-norm", nullptr,
         "rotary: RMS-normalise each head's queries and keys before the rotation (Qwen3).",
         G::Module, false, rotary, GET(s.config.qkNorm), SET(return boolean(v, &s.config.qkNorm);)},
        {"rope_base", "rope-base", "B",
         "rotary: the RoPE base theta (default 10000; Llama 3 500000, Qwen3 1000000).", G::Module,
         false, rotating, GET(s.config.ropeBase), SET(return positive(v, &s.config.ropeBase);)},
        {"rope", "no-rope", nullptr,
         "rotary: the same weights without the rotation, to compare with and without RoPE.",
         G::Module, true, rotary, GET(s.config.rope), SET(return boolean(v, &s.config.rope);)},
        {"mask", "mask", "mask", "none, causal or window:K (default: the variant's).", G::Module,
         false, always, GET(str(maskName(s.config.effectiveMask()))), SET({
             MaskSpec m;
             const QString e = named(v, parseMask, Text::tr("mask"),
                                     "none, causal or window:K (K a whole number)", &m);
             if (!e.isEmpty())
                 return e;
             if (m.kind == MaskKind::Window && (m.window < 1 || m.window > kMaxDimension))
                 return Text::tr(
                            "The window size K of {} must be from 1 to %1 (each token sees "
                            "itself and the K-1 tokens before it), got %2")
                     .arg(kMaxDimension)
                     .arg(m.window);
             s.config.mask = m;
             return QString();
         })},
        {"dropout", "dropout", "p", "Dropout rate p in [0, 1) (default 0).", G::Module, false,
         always, GET(s.config.dropout), SET(return rate(v, &s.config.dropout);)},
        {"mode", "mode", "mode", "train (default, as a fresh PyTorch module) or eval.", G::Module,
         false, always, GET(str(modeName(s.config.mode))),
         SET(return named(v, parseMode, Text::tr("mode"), "train or eval", &s.config.mode);)},
        {"dropout_rng", "dropout-rng", "rng",
         "default (PyTorch's portable kernel: Debian's PyTorch, AMD CPUs, and what the book's "
         "notebooks print) or mkl (PyTorch wheels with Intel MKL on Intel CPUs).",
         G::Module, false, chapter3, GET(str(dropoutRngName(s.config.dropoutRng))),
         SET(return named(v, parseDropoutRng, Text::tr("dropout RNG"), "default or mkl",
                          &s.config.dropoutRng);)},
        {"seed", "seed", "s", "torch.manual_seed for the weights (default 123).", G::Module, false,
         drawnWeights, GET(seedValue(s.config.seed)), SET(return seed(v, &s.config.seed);)},
        {"qkv_bias", "qkv-bias", nullptr, "Give the query, key and value projections a bias.",
         G::Module, false, hasWeights, GET(s.config.qkvBias),
         SET(return boolean(v, &s.config.qkvBias);)},
        {"batch", "batch", "b", "Batch size b: the input stacked b times (default 1).", G::Module,
         false, always, GET(wide(s.config.batch)), SET(return size(v, &s.config.batch);)},
        {"context_length", "context-length", "n",
         "Context length (default 1024; a weights file's mask buffer sets it when not given).",
         G::Module, false, chapter3, GET(wide(s.config.contextLength)),
         SET(return size(v, &s.config.contextLength);)},
        {"model", "model", "path",
         "A trained model instead of the chapter-3 module: a Hugging Face model folder (GPT-2, "
         "Llama, Qwen2, Qwen3, Gemma 3), a .safetensors or torch.save file (.pth, .pt, .bin), or "
         "tiny-shakespeare (the model that ships with the app).",
         G::Module, false, trainedModel, GET(s.modelFile),
         SET(s.modelFile = v.toString(); return {};)},
        {"model_config", "config", "file",
         "With --model and a single weights file: its config.json (a folder has its own).",
         G::Module, false, configFile, GET(s.modelConfigFile),
         SET(s.modelConfigFile = v.toString(); return {};)},
        {"layer", "layer", "n", "With --model: the block whose attention the trace shows (from 0).",
         G::Module, false, trainedModel, GET(s.layer), SET(return count(v, &s.layer);)},
        {"ablate", "ablate", "L.H,...",
         "With --model: switch these heads off (layer.head, from 0; e.g. 0.1,2.3): what they "
         "write is replaced before the output projection (--ablate-mode).",
         G::Module, false, ablating, GET(str(headListText(s.ablation.heads))), SET({
             const auto heads = parseHeadList(text(v).toStdString());
             if (!heads)
                 return Text::tr(
                            "{} expects heads as layer.head separated by commas (e.g. "
                            "0.1,2.3), got \"%1\"")
                     .arg(text(v));
             s.ablation.heads = *heads;
             return {};
         })},
        {"ablate_mode", "ablate-mode", "mode",
         "zero (default: a switched-off head writes 0) or mean (its mean over the text's "
         "positions).",
         G::Module, false, ablating, GET(str(ablationModeName(s.ablation.mode))),
         SET(return named(v, parseAblationMode, Text::tr("ablation mode"), "zero or mean",
                          &s.ablation.mode);)},

        // What the views show.
        {"step", "step", "id", "Step id, e.g. weights.", G::View, false, always, GET(s.step),
         SET(s.step = text(v); return {};)},
        {"head", "head", "h", "Head of a per-head step (default 0).", G::View, false, always,
         GET(s.head), SET(return count(v, &s.head);)},
        {"batch_index", "batch-index", "i", "Batch entry (default 0).", G::View, false, always,
         GET(s.batchIndex), SET(return count(v, &s.batchIndex);)},
        {"colormap", "colormap", "name",
         "auto (by step, the default), viridis, magma, cividis or diverging.", G::View, false,
         always, GET(s.colormap), SET({
             const QString name = text(v);
             if (name != QLatin1String("auto") && !parseColormap(name.toStdString()))
                 return Text::tr(
                            "Unknown colormap \"%1\"; use auto, viridis, magma, cividis or "
                            "diverging")
                     .arg(name);
             s.colormap = name;
             return {};
         })},
        {"show_values", "no-values", nullptr, "Do not write the values in the cells.", G::View,
         true, always, GET(s.showValues), SET(return boolean(v, &s.showValues);)},
        {"decimals", "decimals", "n",
         "Decimals the cells print, 1 to 4 (default 2; the book prints 4).", G::View, false, always,
         GET(s.decimals), SET({
             int n = 0;
             if (!count(v, &n).isEmpty() || n < kMinDecimals || n > kMaxDecimals)
                 return Text::tr("{} expects a whole number from %1 to %2, got \"%3\"")
                     .arg(kMinDecimals)
                     .arg(kMaxDecimals)
                     .arg(text(v));
             s.decimals = n;
             return {};
         })},
        {"color_scale", "color-scale", "scale",
         "matrix (default: one scale for the matrix), row (each row its own range) or log.",
         G::View, false, always, GET(str(colorScaleName(s.colorScale))),
         SET(return named(v, parseColorScale, Text::tr("colour scale"), "matrix, row or log",
                          &s.colorScale);)},
    };
}

#undef GET
#undef SET

}  // namespace

std::string inputSourceName(InputSource s) {
    switch (s) {
        case InputSource::Book:
            return "book";
        case InputSource::Text:
            return "text";
        case InputSource::File:
            return "file";
    }
    return "book";
}

std::optional<InputSource> parseInputSource(std::string_view s) {
    if (s == "book")
        return InputSource::Book;
    if (s == "text")
        return InputSource::Text;
    if (s == "file")
        return InputSource::File;
    return std::nullopt;
}

Settings::Settings() : text(QString::fromStdString(bookSentence())) {}

Config Settings::bookConfig() {
    Config c;
    c.variant = Variant::MultiHead;
    c.dIn = 3;
    c.dOut = 2;
    c.heads = 2;
    c.mask = MaskSpec{MaskKind::Causal, 0};
    c.seed = 123;
    return c;
}

QString Settings::inputText() const {
    return source == InputSource::Book ? QString::fromStdString(bookSentence()) : text;
}

std::vector<Token> Settings::textTokens() const {
    if (!inputIds.empty()) {
        if (tokenizer != TokenizerKind::Gpt2)
            throw UserError("ids",
                            Text::tr("Token ids need the GPT-2 tokenizer (or a model's own): the "
                                     "%1 tokenizer numbers tokens by their first appearance in a "
                                     "text.")
                                .arg(QString::fromStdString(tokenizerName(tokenizer)))
                                .toStdString());
        std::vector<Token> tokens;
        for (int64_t id : inputIds) {
            if (id >= gpt2VocabSize())
                throw UserError("ids", Text::tr("Token id %1 is not in GPT-2's vocabulary (ids 0 "
                                                "to %2).")
                                           .arg(id)
                                           .arg(gpt2VocabSize() - 1)
                                           .toStdString());
            tokens.push_back(gpt2Token(id));
        }
        return tokens;
    }
    const QByteArray utf8 = inputText().toUtf8();
    const std::string_view bytes(utf8.constData(), size_t(utf8.size()));
    if (!tokenIds.empty() && tokenizer == TokenizerKind::Gpt2 && source == InputSource::Text) {
        try {
            // As characters: a byte token that is part of one is U+FFFD in the text box.
            const std::string decoded = gpt2Decode(tokenIds);
            if (decoded == bytes ||
                QString::fromUtf8(decoded.data(), qsizetype(decoded.size())) == inputText()) {
                std::vector<Token> tokens;
                tokens.reserve(tokenIds.size());
                for (int64_t id : tokenIds)
                    tokens.push_back(gpt2Token(id));
                return tokens;
            }
        } catch (const std::out_of_range&) {
            // An id outside the vocabulary (an edited session): the text is tokenized.
        }
    }
    return tokenize(tokenizer, bytes);
}

Settings bookSettings() {
    return Settings();
}

const std::vector<SettingField>& settingFields() {
    static const std::vector<SettingField> fields = makeFields();
    return fields;
}

const SettingField* findSettingField(QStringView key) {
    for (const SettingField& f : settingFields())
        if (key == QLatin1String(f.key))
            return &f;
    return nullptr;
}

const SettingField* findSettingOption(QStringView option) {
    for (const SettingField& f : settingFields())
        if (f.option && option == QLatin1String(f.option))
            return &f;
    return nullptr;
}

QString settingProblem(const QString& problem, const QString& name) {
    QString text = problem;
    text.replace(QLatin1String("{}"), name);
    return text + QLatin1Char('.');
}

QVariantMap settingsToMap(const Settings& settings) {
    QVariantMap map;
    for (const SettingField& f : settingFields()) {
        const QVariant v = f.get(settings);
        map.insert(QLatin1String(f.key), v.typeId() == QMetaType::ULongLong
                                             ? QVariant(QString::number(v.toULongLong()))
                                             : v);
    }
    return map;
}

Facts settingFacts(const Settings& settings) {
    Facts facts;
    for (const SettingField& f : settingFields()) {
        if (f.group == SettingGroup::View || !f.applies(settings))
            continue;
        const QVariant v = f.get(settings);
        FactValue value;
        switch (v.typeId()) {
            case QMetaType::Bool:
                value = v.toBool();
                break;
            case QMetaType::Int:
            case QMetaType::LongLong:
                value = int64_t{v.toLongLong()};
                break;
            case QMetaType::ULongLong:
                value = uint64_t{v.toULongLong()};
                break;
            case QMetaType::Double:
                value = v.toDouble();
                break;
            default:
                value = v.toString().toStdString();
        }
        facts.push_back({f.key, std::move(value)});
    }
    return facts;
}

Settings settingsFromMap(const QVariantMap& map, const Settings& base, QStringList* missing) {
    Settings s = base;
    for (const SettingField& f : settingFields()) {
        const auto it = map.constFind(QLatin1String(f.key));
        if (it == map.constEnd()) {
            if (missing)
                *missing << QLatin1String(f.key);
            continue;
        }
        const QString problem = f.set(s, *it);
        if (!problem.isEmpty())
            throw UserError(
                "settings",
                settingProblem(problem, QStringLiteral("\"%1\"").arg(QLatin1String(f.key)))
                    .toStdString());
    }
    return s;
}

}  // namespace attn
