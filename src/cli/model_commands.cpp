// The CLI's model mode: `model` (every layer's attention and the next-token top-k of a trained
// GPT model on a text), and the model-mode halves of trace, export, bench and pytorch.

#include <QCommandLineParser>
#include <QRegularExpression>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "cli/commands.h"
#include "engine/attribution.h"
#include "engine/composition.h"
#include "engine/generate.h"
#include "engine/head_scores.h"
#include "engine/patching.h"
#include "io/file_io.h"
#include "io/text_format.h"
#include "io/trace_json.h"
#include "pipeline/options.h"
#include "pipeline/pytorch_code.h"
#include "tokenizer/hf_tokenizer.h"

namespace attn::cli {

namespace {

void writeStdout(std::string_view bytes) {
    std::fwrite(bytes.data(), 1, bytes.size(), stdout);
    std::fflush(stdout);
}

// The "model" object: what the file or folder holds, as read (modelFacts: the same facts a
// model trace's "config" tells).
std::string modelJson(const DecoderModel& m) {
    return io::factsToJson(modelFacts(m));
}

// A token id as text: the model's own token, or the GPT-2 token it is, or "<id N>" beyond
// GPT-2's vocabulary.
std::string tokenText(const DecoderModel& m, int64_t id) {
    try {
        return tokenJsonText(modelToken(&m, id));
    } catch (const std::out_of_range&) {
        return "<id " + std::to_string(id) + ">";
    }
}

// [{"id": 464, "token": " The", "prob": 0.1}, ...]
void appendTokenList(std::string& out, const DecoderModel& m,
                     const std::vector<TokenProbability>& tokens) {
    out += "[";
    for (size_t i = 0; i < tokens.size(); ++i) {
        out += (i ? ", " : "") + std::string("{\"id\": ") + std::to_string(tokens[i].id) +
               ", \"token\": ";
        io::appendJsonString(out, tokenText(m, tokens[i].id));
        out += ", \"prob\": ";
        io::appendDouble(out, tokens[i].probability);
        out += "}";
    }
    out += "]";
}

// `"loss": L, "token_losses": [...]`: the text's mean next-token cross-entropy in nats and each
// predicted token's own (-ln p of token i + 1 after tokens 0..i); null for a one-token text,
// which predicts nothing.
void appendLossJson(std::string& out, const DecoderRun& run) {
    const std::vector<double> logp = tokenLogProbabilities(run);
    out += ", \"loss\": ";
    if (logp.empty()) {
        out += "null";
    } else {
        double sum = 0.0;
        for (double v : logp)
            sum -= v;
        io::appendDouble(out, sum / static_cast<double>(logp.size()));
    }
    out += ", \"token_losses\": [";
    for (size_t i = 0; i < logp.size(); ++i) {
        out += i ? ", " : "";
        io::appendDouble(out, -logp[i]);
    }
    out += "]";
}

// The text of `ids`: their bytes by the model's tokenizer (or GPT-2's) joined, so characters
// split across tokens come out whole; tokens the tokenizer adds (<bos>) are left out.
std::string decodedText(const DecoderModel& m, const std::vector<int64_t>& ids) {
    std::string text;
    for (int64_t id : ids) {
        try {
            const Token t = modelToken(&m, id);
            if (!t.addedByTokenizer)
                text += t.bytes;
        } catch (const std::out_of_range&) {
            text += tokenText(m, id);  // an id the model has and its tokenizer not: "<id N>"
        }
    }
    return text;
}

double doubleOption(const QCommandLineParser& p, const char* name, double fallback) {
    if (!p.isSet(name))
        return fallback;
    bool ok = false;
    const double v = p.value(name).toDouble(&ok);
    if (!ok)
        throw UserError(name, std::string("--") + name + " expects a number, got \"" +
                                  p.value(name).toStdString() + "\".");
    return v;
}

// An (L, H) score matrix as nested arrays, an unknown score (NaN) as null.
void appendLayerHeadScores(std::string& out, const std::vector<double>& scores, int64_t heads) {
    out += "[";
    for (size_t i = 0; i < scores.size(); ++i) {
        out += i == 0 ? "[" : i % size_t(heads) == 0 ? "], [" : ", ";
        if (std::isfinite(scores[i]))
            io::appendDouble(out, scores[i]);
        else
            out += "null";
    }
    out += scores.empty() ? "]" : "]]";
}

// `"head_scores": {...}`: every head's previous-token and first-token scores, and where the
// text repeats itself (findRepeat) its induction scores, the period and the rows they used.
void appendHeadScoresJson(std::string& out, const DecoderRun& run) {
    const HeadScores s = headScores(run);
    out += ", \"head_scores\": {\"previous_token\": ";
    appendLayerHeadScores(out, s.previousToken, s.heads);
    out += ", \"first_token\": ";
    appendLayerHeadScores(out, s.firstWeight, s.heads);
    out += ", \"induction\": ";
    if (s.repeat.found()) {
        appendLayerHeadScores(out, s.induction, s.heads);
        out += ", \"period\": " + std::to_string(s.repeat.period) + ", \"induction_rows\": [" +
               std::to_string(s.repeat.first) + ", " + std::to_string(s.repeat.end - 1) + "]}";
    } else {
        out += "null, \"period\": null, \"induction_rows\": null}";
    }
}

// A token id typed as digits, checked against the model's vocabulary (digits too many for a
// number are no id either, not 0).
int64_t typedTokenId(const QString& digits, int64_t vocab, const char* field) {
    bool ok = false;
    const qlonglong id = digits.toLongLong(&ok);
    if (!ok || id >= vocab)
        throw UserError(field, "Token id " + digits.toStdString() +
                                   " is not in the model's vocabulary (ids 0 to " +
                                   std::to_string(vocab - 1) + ").");
    return id;
}

// A --dla target: an id, "A-B" (two ids: the logit difference), or a text that is one token of
// the model's; returns {target, other} (other -1 without a difference).
std::pair<int64_t, int64_t> dlaTarget(const DecoderModel& m, const QString& given) {
    static const QRegularExpression ids(QStringLiteral("^(\\d+)(?:-(\\d+))?$"));
    const QRegularExpressionMatch match = ids.match(given);
    if (match.hasMatch())
        return {typedTokenId(match.captured(1), m.arch.vocab, "dla"),
                match.captured(2).isEmpty() ? -1
                                            : typedTokenId(match.captured(2), m.arch.vocab, "dla")};
    const std::string text = given.toStdString();
    std::vector<int64_t> tokens;
    if (m.tokenizer)
        tokens = m.tokenizer->encodeIds(text, false);
    else
        for (const Token& t : tokenize(TokenizerKind::Gpt2, text))
            tokens.push_back(t.id);
    if (tokens.size() != 1)
        throw UserError("dla", "--dla \"" + text + "\" is " + std::to_string(tokens.size()) +
                                   " tokens of this model, not one: give a single token, its "
                                   "id, or two ids as A-B for a logit difference.");
    return {tokens.front(), -1};
}

// `"dla": {...}`: each part's share of the target's logit (difference) at the position.
void appendAttributionJson(std::string& out, const LogitAttribution& a) {
    out += ", \"dla\": {\"target\": " + std::to_string(a.target) +
           ", \"other\": " + (a.other >= 0 ? std::to_string(a.other) : std::string("null")) +
           ", \"position\": " + std::to_string(a.position) + ", \"embed\": ";
    io::appendDouble(out, a.embed);
    out += ", \"heads\": ";
    appendLayerHeadScores(out, a.head, a.heads);
    out += ", \"mlps\": [";
    for (size_t l = 0; l < a.mlp.size(); ++l) {
        out += l ? ", " : "";
        io::appendDouble(out, a.mlp[l]);
    }
    out += "], \"biases\": ";
    io::appendDouble(out, a.biases);
    out += ", \"total\": ";
    io::appendDouble(out, a.total);
    out += "}";
}

// --metric: "A-B" (two ids: the logit of A minus that of B after the last token) or "loss".
PatchMetric patchMetric(const QString& given, int64_t vocab) {
    if (given == QLatin1String("loss"))
        return {PatchMetric::Kind::Loss, 0, 0};
    static const QRegularExpression pair(QStringLiteral("^(\\d+)-(\\d+)$"));
    const QRegularExpressionMatch m = pair.match(given);
    if (!m.hasMatch())
        throw UserError("metric",
                        "--metric expects two token ids as A-B (the logit of A minus "
                        "that of B after the last token) or loss, got \"" +
                            given.toStdString() + "\".");
    return {PatchMetric::Kind::LogitDifference, typedTokenId(m.captured(1), vocab, "metric"),
            typedTokenId(m.captured(2), vocab, "metric")};
}

// `"patching": {...}`: the metric on the clean and the corrupted text, and on the clean one
// with each head's context, and each block's input at each position, from the corrupted run.
void appendPatchingJson(std::string& out, const PatchingResult& p, const QString& metric) {
    out += ", \"patching\": {\"metric\": ";
    io::appendJsonString(out, metric.toStdString());
    out += ", \"clean\": ";
    io::appendDouble(out, p.clean);
    out += ", \"corrupted\": ";
    io::appendDouble(out, p.corrupted);
    out += ", \"heads\": ";
    appendLayerHeadScores(out, p.head, p.heads);
    out += ", \"resid\": ";
    appendLayerHeadScores(out, p.resid, p.tokens);
    out += "}";
}

// `"composition": {...}`: how the heads feed each other, from the weights (composition.h): the
// heads' names, then q, k and v as (L * H) x (L * H) matrices [earlier][later] (null where the
// later head is not in a later layer) and each head's copying score as (L, H).
void appendCompositionJson(std::string& out, const DecoderModel& m) {
    const CompositionScores c = compositionScores(m);
    const int64_t n = c.layers * c.heads;
    out += ", \"composition\": {\"heads\": [";
    for (int64_t i = 0; i < n; ++i)
        out += (i ? ", \"L" : "\"L") + std::to_string(i / c.heads) + "H" +
               std::to_string(i % c.heads) + "\"";
    out += "]";
    for (const auto& [key, scores] : {std::pair{"q", &c.q}, {"k", &c.k}, {"v", &c.v}}) {
        out += std::string(", \"") + key + "\": ";
        appendLayerHeadScores(out, *scores, n);
    }
    out += ", \"copying\": ";
    appendLayerHeadScores(out, c.copying, c.heads);
    out += "}";
}

void writeOutput(const QCommandLineParser& p, const std::string& out) {
    if (p.isSet("out"))
        io::writeFileAtomically(p.value("out").toStdString(), out);
    else
        writeStdout(out);
}

}  // namespace

std::shared_ptr<const DecoderModel> modelOfOptions(const CliInput& in) {
    const Settings& s = in.settings;
    const std::optional<int64_t> heads = in.given.contains(QStringLiteral("heads"))
                                             ? std::optional<int64_t>(s.config.heads)
                                             : std::nullopt;
    std::shared_ptr<const DecoderModel> model =
        loadModel(s.modelFile, heads, nullptr, {}, s.modelConfigFile);
    // Only a GPT-2 file reads --heads (its tensors do not say how many); the other families
    // take theirs from config.json, so --heads would be ignored.
    if (heads && model->arch.family != Family::Gpt2)
        throw UserError("heads", QStringLiteral("--heads does not apply to %1: a %2 model takes "
                                                "its heads from its config.json (%3). Leave "
                                                "--heads out.")
                                     .arg(QString::fromStdString(model->source),
                                          QString::fromStdString(familyName(model->arch.family)))
                                     .arg(model->arch.heads)
                                     .toStdString());
    // Runs, but not silently: the JSON says it too ("tokenizer_is_the_models": false). Token ids
    // given with --ids are the model's own: no tokenizer cut them, and there is nothing to note.
    if (const QString note = modelTokenizerNote(*model); !note.isEmpty() && s.inputIds.empty())
        notes().push_back(note.toStdString());
    return model;
}

ModelRun modelFromOptions(const CliInput& in) {
    RequestHooks hooks;
    hooks.layerTrace = false;
    return runRequestOrThrow(Request{in.settings, in.files, modelOfOptions(in), nullptr, nullptr},
                             hooks)
        .model;
}

int modelCommand(const QStringList& args) {
    QCommandLineParser p;
    addSettingOptions(p, {SettingGroup::Input, SettingGroup::Module});
    p.addOptions(
        {{"top-k", "How many most probable next tokens to list (default 5).", "k"},
         {"position", "The position whose next token is predicted (from 0; default the last).",
          "i"},
         {"logit-lens",
          "Also the logit lens: each layer's k most probable tokens at every position.", "k"},
         {"dla",
          "Also the direct logit attribution of a token at --position: each head's, each "
          "feed-forward's and the embeddings' share of its logit: a token, its id, A-B for the "
          "difference of two ids' logits, or next (the text's next token there, or the "
          "model's top one at the end).",
          "target"},
         {"patch-from",
          "Also activation patching: this corrupted text (as many tokens as the text) gives "
          "each head's context and each block's input at each position in turn to the clean "
          "run, measured by --metric.",
          "text"},
         {"patch-from-ids", "The corrupted text of --patch-from as token ids.", "ids"},
         {"metric",
          "With --patch-from: A-B (the logit of id A minus that of id B after the last token) "
          "or loss (the text's mean next-token loss).",
          "metric"},
         {"composition",
          "Also how the heads feed each other, from the weights: Q, K and V composition scores "
          "between heads of different layers and each head's copying score."},
         {"repeat-random",
          "Instead of a text: the test for induction heads, n distinct random tokens (from every "
          "ordinary token of the model) said --repeats times after the beginning-of-text token.",
          "n"},
         {"repeats", "With --repeat-random: how often the tokens are said (default 2).", "r"},
         {"repeat-seed", "With --repeat-random: the seed the tokens are drawn with (default 0).",
          "s"},
         {"out", "Write the JSON to this file instead of stdout.", "file"}});
    parseOrThrow(p, args, "model",
                 "a trained GPT model's attention in every layer and its next-token predictions");
    CliInput in = settingsFromOptions(p);
    if (!in.settings.modelMode())
        throw UserError("model",
                        "Say which model with --model PATH (a model folder, a .safetensors or "
                        ".pth file, or tiny-shakespeare).");
    const bool repeatRandom = p.isSet("repeat-random");
    for (const char* option : {"repeats", "repeat-seed"})
        if (p.isSet(option) && !repeatRandom)
            throw UserError(option, std::string("--") + option +
                                        " goes with --repeat-random; give that too, or leave "
                                        "--" +
                                        option + " out.");
    const bool textGiven =
        in.given.contains(QStringLiteral("text")) || !in.settings.inputIds.empty();
    if (repeatRandom && textGiven)
        throw UserError("repeat-random",
                        "--repeat-random makes the tokens itself, so the text or ids given would "
                        "not be read: give one or the other.");
    if (!repeatRandom && !textGiven)
        throw UserError("input",
                        "Give the text with --text or --text-file, token ids with --ids, or "
                        "--repeat-random N for the induction test.");
    const int k = nonNegativeOption(p, "top-k", 5);
    if (k < 1)
        throw UserError("top-k", "--top-k expects a whole number from 1, got \"0\".");
    ModelRun m;
    if (repeatRandom) {
        uint64_t seed = 0;
        if (p.isSet("repeat-seed")) {
            bool ok = false;
            seed = p.value("repeat-seed").toULongLong(&ok);
            if (!ok)
                throw UserError("repeat-seed",
                                "--repeat-seed expects a whole number from 0, got \"" +
                                    p.value("repeat-seed").toStdString() + "\".");
        }
        const std::shared_ptr<const DecoderModel> model = modelOfOptions(in);
        in.settings.inputIds = inductionTestIds(*model, nonNegativeOption(p, "repeat-random", 0),
                                                nonNegativeOption(p, "repeats", 2), seed);
        RequestHooks hooks;
        hooks.layerTrace = false;
        m = runRequestOrThrow(Request{in.settings, in.files, model, nullptr, nullptr}, hooks).model;
    } else {
        m = modelFromOptions(in);
    }
    const DecoderRun& run = *m.run;
    const int64_t T = run.tokens();
    const int position = nonNegativeOption(p, "position", int(T - 1));
    if (position >= T)
        throw UserError("position", "--position " + std::to_string(position) +
                                        " is beyond the text's " +
                                        (T == 1 ? std::string("only token (position 0).")
                                                : std::to_string(T) + " tokens (positions 0 to " +
                                                      std::to_string(T - 1) + ")."));

    const DecoderArchitecture& a = m.model->arch;
    std::string out = "{\"model\": " + modelJson(*m.model) + ", \"tokens\": [";
    for (size_t i = 0; i < m.input.tokens.size(); ++i) {
        if (i)
            out += ", ";
        io::appendJsonString(out, tokenJsonText(m.input.tokens[i]));
    }
    out += "], \"ids\": [";
    for (size_t i = 0; i < m.input.tokens.size(); ++i)
        out += (i ? ", " : "") + std::to_string(m.input.tokens[i].id);
    out += "], \"attention\": {\"shape\": [" + std::to_string(a.layers) + ", " +
           std::to_string(a.heads) + ", " + std::to_string(T) + ", " + std::to_string(T) +
           "], \"data\": ";
    if (run.attentionKept()) {
        io::appendTensorData(out, run.attention);
    } else {
        // Too big to keep: each layer is recomputed in turn and written out, then dropped.
        std::string layers = "[";
        for (int64_t l = 0; l < a.layers; ++l) {
            std::string one;
            io::appendTensorData(one, layerAttention(run, l));
            if (l)
                layers += ',';
            layers.append(one, 1, one.size() - 2);  // without its brackets
        }
        out += layers + "]";
    }
    out += "}, \"next\": ";
    appendTokenList(out, *m.model, nextTokens(run, position, k));
    appendLossJson(out, run);
    appendHeadScoresJson(out, run);
    if (p.isSet("composition"))
        appendCompositionJson(out, *m.model);
    const bool patch = p.isSet("patch-from") || p.isSet("patch-from-ids");
    if (p.isSet("patch-from") && p.isSet("patch-from-ids"))
        throw UserError("patch-from",
                        "Give the corrupted text once: --patch-from or "
                        "--patch-from-ids, not both.");
    if (patch != p.isSet("metric"))
        throw UserError(patch ? "metric" : "patch-from",
                        patch ? "Activation patching needs --metric A-B (two token ids) or "
                                "--metric loss."
                              : "--metric goes with --patch-from or --patch-from-ids.");
    if (patch) {
        const PatchMetric metric = patchMetric(p.value("metric"), m.model->arch.vocab);
        Settings corrupted = in.settings;
        corrupted.inputIds.clear();
        QVariantMap given;
        if (p.isSet("patch-from"))
            given.insert(QStringLiteral("text"), p.value("patch-from"));
        else
            given.insert(QStringLiteral("ids"), p.value("patch-from-ids"));
        corrupted = applyGivenSettings(corrupted, given);
        std::vector<int64_t> corruptedIds;
        for (const Token& t : modelTokens(corrupted, m.model.get()).tokens)
            corruptedIds.push_back(t.id);
        appendPatchingJson(out,
                           activationPatching(m.model, run.ids, corruptedIds, metric, run.ablation),
                           p.value("metric"));
    }
    if (p.isSet("dla")) {
        std::pair<int64_t, int64_t> target{-1, -1};
        if (p.value("dla") != QLatin1String("next"))
            target = dlaTarget(*m.model, p.value("dla"));
        else if (position + 1 < T)
            target.first = run.ids[size_t(position + 1)];
        else
            target.first = nextTokens(run, position, 1).front().id;
        appendAttributionJson(out,
                              directLogitAttribution(run, position, target.first, target.second));
    }
    if (!run.ablation.empty()) {
        out += ", \"ablated\": [";
        for (size_t i = 0; i < run.ablation.heads.size(); ++i)
            out += (i ? ", [" : "[") + std::to_string(run.ablation.heads[i].layer) + ", " +
                   std::to_string(run.ablation.heads[i].head) + "]";
        out += "], \"ablate_mode\": ";
        io::appendJsonString(out, ablationModeName(run.ablation.mode));
    }
    if (p.isSet("logit-lens")) {
        const int lensK = nonNegativeOption(p, "logit-lens", 5);
        if (lensK < 1)
            throw UserError("logit-lens", "--logit-lens expects a whole number from 1, got \"0\".");
        out += ", \"logit_lens\": [";
        const LogitLens lens = logitLens(run, lensK);
        for (size_t l = 0; l < lens.size(); ++l) {
            out += l ? ", [" : "[";
            for (size_t i = 0; i < lens[l].size(); ++i) {
                out += i ? ", " : "";
                appendTokenList(out, *m.model, lens[l][i]);
            }
            out += "]";
        }
        out += "]";
    }
    out += "}\n";
    writeOutput(p, out);
    return 0;
}

int generateCommand(const QStringList& args) {
    QCommandLineParser p;
    addSettingOptions(p, {SettingGroup::Input, SettingGroup::Module});
    p.addOptions(
        {{"max-new", "How many tokens to generate (default 20).", "n"},
         {"temperature",
          "Divide the logits by this before sampling (default 1; 0: always the most probable).",
          "t"},
         {"top-k", "Sample only among the k most probable tokens (default 0: all).", "k"},
         {"top-p",
          "Sample only among the most probable tokens whose probabilities reach p together "
          "(default 1: all).",
          "p"},
         {"sample-seed",
          "The sampling generator's seed: the same seed, the same tokens "
          "(default 123).",
          "s"},
         {"out", "Write the JSON to this file instead of stdout.", "file"}});
    parseOrThrow(p, args, "generate", "text generated by a trained model, token by token");
    const CliInput in = settingsFromOptions(p);
    if (!in.settings.modelMode())
        throw UserError("model",
                        "Say which model with --model PATH (a model folder, a .safetensors or "
                        ".pth file, or tiny-shakespeare).");
    GenerateRequest g;
    g.maxNew = nonNegativeOption(p, "max-new", 20);
    g.sampling.temperature = doubleOption(p, "temperature", 1.0);
    g.sampling.topK = nonNegativeOption(p, "top-k", 0);
    g.sampling.topP = doubleOption(p, "top-p", 1.0);
    if (p.isSet("sample-seed")) {
        bool ok = false;
        g.seed = p.value("sample-seed").toULongLong(&ok);
        if (!ok)
            throw UserError("sample-seed", "--sample-seed expects a whole number from 0, got \"" +
                                               p.value("sample-seed").toStdString() + "\".");
    }
    checkSamplingOptions(g.sampling);
    // The prompt's tokens as model mode reads them (the model's tokenizer, or --ids), checked.
    RequestHooks hooks;
    hooks.layerTrace = false;
    const ModelRun prompt =
        runRequestOrThrow(Request{in.settings, in.files, modelOfOptions(in), nullptr, nullptr},
                          hooks)
            .model;
    g.model = prompt.model;
    g.ids = prompt.run->ids;
    g.ablation = in.settings.ablation;
    g.memoryBudgetBytes = in.settings.config.memoryBudgetBytes;
    const Generated result = generate(g);

    std::string out = "{\"ids\": [";
    for (size_t i = 0; i < result.ids.size(); ++i)
        out += (i ? ", " : "") + std::to_string(result.ids[i]);
    out += "], \"prompt_tokens\": " + std::to_string(g.ids.size()) + ", \"text\": ";
    io::appendJsonString(out, decodedText(*g.model, result.ids));
    out += ", \"generated\": [";
    for (size_t i = 0; i < result.tokens.size(); ++i) {
        const SampledToken& t = result.tokens[i];
        out += (i ? ", " : "") + std::string("{\"id\": ") + std::to_string(t.id) + ", \"token\": ";
        io::appendJsonString(out, tokenText(*g.model, t.id));
        out += ", \"prob\": ";
        io::appendDouble(out, t.probability);
        out += ", \"model_prob\": ";
        io::appendDouble(out, t.modelProbability);
        out += "}";
    }
    out += "], \"temperature\": ";
    io::appendDouble(out, g.sampling.temperature);
    out += ", \"top_k\": " + std::to_string(g.sampling.topK) + ", \"top_p\": ";
    io::appendDouble(out, g.sampling.topP);
    out += ", \"seed\": " + std::to_string(g.seed) + "}\n";
    writeOutput(p, out);
    return 0;
}

int modelBench(const CliInput& in, int repeat) {
    const auto loadStart = std::chrono::steady_clock::now();
    const std::shared_ptr<const DecoderModel> model = modelOfOptions(in);
    const double loadMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - loadStart)
            .count();
    // The first run checks the text and warms the caches; each timed run is dropped before
    // the next, so only one run's memory is held at a time.
    RequestHooks forwardOnly;
    forwardOnly.layerTrace = false;
    const Request request{in.settings, in.files, model, nullptr, nullptr};
    int64_t tokens = 0;
    bool kept = false;
    {
        const ModelRun first = runRequestOrThrow(request, forwardOnly).model;
        tokens = first.run->tokens();
        kept = first.run->attentionKept();
    }
    std::string out = "{\"model\": " + modelJson(*model) +
                      ", \"tokens\": " + std::to_string(tokens) +
                      ", \"repeat\": " + std::to_string(repeat) +
                      ", \"attention_kept\": " + (kept ? "true" : "false") + ", \"load_ms\": ";
    io::appendDouble(out, loadMs);
    // What the app does for a text: the forward keeping every layer's attention, and the last
    // position's next tokens (the output head for that one position).
    out += ", " + timedRunsJson(repeat, [&] {
               const ModelRun m = runRequestOrThrow(request, forwardOnly).model;
               (void)nextTokens(*m.run, m.run->tokens() - 1, 5);
           });
    out += "}\n";
    writeStdout(out);
    return 0;
}

}  // namespace attn::cli
