// The request pipeline on its own: the settings codec, the command-line options, the one path
// from settings to a trace, export names and the PyTorch listing.
#include <gtest/gtest.h>

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <functional>
#include <set>

#include "engine/embeddings.h"
#include "io/model_config.h"
#include "io/safetensors.h"
#include "io/tokenizer_file.h"
#include "pipeline/issue_text.h"
#include "pipeline/model_request.h"
#include "pipeline/options.h"
#include "pipeline/pytorch_code.h"
#include "pipeline/run_request.h"
#include "pipeline/step_files.h"

using namespace attn;

namespace {

// The settings a command line gives, applied to the defaults.
Settings fromArgs(QStringList args, QVariantMap* given = nullptr) {
    QCommandLineParser p;
    addSettingOptions(p, {SettingGroup::Input, SettingGroup::Module, SettingGroup::View});
    args.prepend(QStringLiteral("attention-lens-cli"));
    EXPECT_TRUE(p.parse(args)) << p.errorText().toStdString();
    const QVariantMap g = givenSettings(p);
    if (given)
        *given = g;
    return applyGivenSettings(Settings(), g);
}

std::string problemOf(QStringList args) {
    try {
        fromArgs(std::move(args));
    } catch (const UserError& e) {
        return e.what();
    }
    return {};
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(bytes);
    return path;
}

}  // namespace

TEST(SettingsCodec, EveryFieldRoundTripsThroughAMapAndJson) {
    Settings s;
    s.source = InputSource::Text;
    s.text = QStringLiteral("Hello, \"world\"\n");
    s.tokenizer = TokenizerKind::Words;
    s.embeddingSeed = 18446744073709551615ull;  // 2^64 - 1: more than a JSON number holds
    s.positions = false;
    s.embeddingsFile = QStringLiteral("/tmp/x.npy");
    s.weightsFile = QStringLiteral("/tmp/w.safetensors");
    s.config.variant = Variant::MultiHeadWrapper;
    s.config.dIn = 12;
    s.config.dOut = 8;
    s.config.heads = 4;
    s.config.mask = MaskSpec{MaskKind::Window, 3};
    s.config.dropout = 0.125;
    s.config.mode = Mode::Eval;
    s.config.dropoutRng = DropoutRng::Mkl;
    s.config.seed = 9223372036854775809ull;
    s.config.qkvBias = true;
    s.config.batch = 3;
    s.config.contextLength = 77;
    s.config.kvGroups = 2;
    s.config.latentDim = 5;
    s.config.headDim = 6;
    s.config.qkNorm = true;
    s.config.ropeBase = 1000000.0;
    s.config.rope = false;
    s.tokenIds = {464, 198, 198};
    s.step = QStringLiteral("scores");
    s.head = 2;
    s.batchIndex = 1;
    s.colormap = QStringLiteral("magma");
    s.showValues = false;
    s.decimals = 4;
    s.colorScale = ColorScale::Log;

    QStringList missing;
    EXPECT_EQ(settingsFromMap(settingsToMap(s), Settings(), &missing), s);
    EXPECT_TRUE(missing.isEmpty()) << missing.join(',').toStdString();
    // Through JSON, as sessions store it: numbers become doubles, seeds stay exact as text.
    const QByteArray json = QJsonDocument(QJsonObject::fromVariantMap(settingsToMap(s))).toJson();
    const QVariantMap back = QJsonDocument::fromJson(json).object().toVariantMap();
    EXPECT_EQ(settingsFromMap(back, Settings()), s);
    EXPECT_EQ(back.value("seed").toString(), "9223372036854775809");
    // Every field has exactly one key.
    EXPECT_EQ(settingsToMap(s).size(), qsizetype(settingFields().size()));
}

// Two appended line breaks are two tokens (198, 198), as the model generated them, while the
// text is theirs; tokenizing "\n\n" again gives one (628). An edit of the text tokenizes it.
TEST(SettingsCodec, AppendedTokenIdsAreTheTokensWhileTheyAreTheText) {
    Settings s;
    s.source = InputSource::Text;
    s.text = QStringLiteral("Hi?\n\n");
    EXPECT_EQ(tokenIds(s.textTokens()), (std::vector<int64_t>{17250, 30, 628}));
    s.tokenIds = {17250, 30, 198, 198};
    EXPECT_EQ(tokenIds(s.textTokens()), (std::vector<int64_t>{17250, 30, 198, 198}));
    s.text += QStringLiteral("A");
    EXPECT_EQ(tokenIds(s.textTokens()), tokenIds(tokenize(TokenizerKind::Gpt2, "Hi?\n\nA")));
    s.text = QStringLiteral("Hi?\n\n");
    s.tokenizer = TokenizerKind::Words;  // pins are GPT-2 ids
    EXPECT_EQ(s.textTokens().size(), 2u);
    EXPECT_THROW(settingsFromMap({{"token_ids", "1 x"}}, Settings()), UserError);
}

std::set<std::string> keysOf(const Facts& facts) {
    std::set<std::string> keys;
    for (const Fact& f : facts)
        EXPECT_TRUE(keys.insert(f.key).second) << "twice: " << f.key;
    return keys;
}

// A run's record (the trace JSON's config) is the settings table's fields that apply to the
// run, each under its key with its own value: every variant's own settings (rotary's RoPE base,
// the grouped variants' kv_groups, latent's latent_dim), none of another's, seeds as numbers.
TEST(SettingsCodec, ARunsFactsAreTheFieldsThatApplyToIt) {
    for (const Variant v : allVariants()) {
        Settings s;
        s.source = InputSource::Text;
        s.config.variant = v;
        const std::set<std::string> keys = keysOf(settingFacts(s));
        for (const std::string& k : keys)
            EXPECT_NE(findSettingField(QString::fromStdString(k)), nullptr) << k;
        const std::string name = variantName(v);
        EXPECT_EQ(keys.count("rope_base"), v == Variant::Rotary ? 1u : 0u) << name;
        EXPECT_EQ(keys.count("head_dim"), v == Variant::Rotary ? 1u : 0u) << name;
        EXPECT_EQ(keys.count("qk_norm"), v == Variant::Rotary ? 1u : 0u) << name;
        EXPECT_EQ(keys.count("kv_groups"), variantHasKvGroups(v) ? 1u : 0u) << name;
        EXPECT_EQ(keys.count("latent_dim"), v == Variant::Latent ? 1u : 0u) << name;
        EXPECT_EQ(keys.count("d_out"), variantHasDOut(v) ? 1u : 0u) << name;
        EXPECT_EQ(keys.count("heads"), variantHasHeads(v) ? 1u : 0u) << name;
        EXPECT_EQ(keys.count("seed"), variantHasWeights(v) ? 1u : 0u) << name;
        for (const char* k : {"variant", "d_in", "mask", "mode", "batch", "source", "text",
                              "tokenizer", "embedding_seed", "positions", "context_length"})
            EXPECT_EQ(keys.count(k), 1u) << name << " " << k;
        for (const char* k : {"model", "layer", "ablate", "step", "head", "colormap", "ids",
                              "embeddings_file", "weights_file"})
            EXPECT_EQ(keys.count(k), 0u) << name << " " << k;
    }
    Settings rotary;
    rotary.config.variant = Variant::Rotary;
    rotary.config.ropeBase = 500000.0;
    rotary.config.seed = 18446744073709551615ull;
    const Facts facts = settingFacts(rotary);
    EXPECT_EQ(findFact(facts, "rope_base")->value, FactValue(500000.0));
    EXPECT_EQ(findFact(facts, "seed")->value, FactValue(uint64_t{18446744073709551615ull}));
    EXPECT_EQ(findFact(facts, "source")->value, FactValue(std::string("book")));
    EXPECT_EQ(findFact(facts, "text"), nullptr);  // the book's vectors: no text, no tokenizer
    EXPECT_EQ(findFact(facts, "tokenizer"), nullptr);
    rotary.inputIds = {464, 3797};  // the book's vectors leave ids unread: they are not told
    EXPECT_EQ(findFact(settingFacts(rotary), "ids"), nullptr);
    EXPECT_NE(findFact(settingFacts(rotary), "source"), nullptr);
    rotary.source = InputSource::Text;  // a text's tokens: the ids, and no text
    EXPECT_EQ(findFact(settingFacts(rotary), "ids")->value, FactValue(std::string("464 3797")));
    EXPECT_EQ(findFact(settingFacts(rotary), "text"), nullptr);
    EXPECT_EQ(findFact(settingFacts(rotary), "source"), nullptr);
    rotary.config.rope = false;  // the rotation switched off: its base says nothing
    EXPECT_EQ(findFact(settingFacts(rotary), "rope_base"), nullptr);
    EXPECT_NE(findFact(settingFacts(rotary), "rope"), nullptr);
}

// In model mode the record is what the model is (its architecture, the tokenizer that cut the
// text) and what its trace follows (the layer's variant and mask), with no key twice and none
// of the chapter-3 module's sizes or seeds.
TEST(SettingsCodec, AModelRunsFactsAreItsArchitecture) {
    DecoderArchitecture qwen3;
    qwen3.family = Family::Qwen3;
    qwen3.layers = 2;
    qwen3.dModel = 32;
    qwen3.heads = 4;
    qwen3.kvHeads = 2;
    qwen3.headDim = 16;
    qwen3.vocab = 300;
    qwen3.contextLength = 64;
    qwen3.ffHidden = 64;
    qwen3.norm = NormKind::RmsNorm;
    qwen3.feedForward = FeedForwardKind::SwiGlu;
    qwen3.qkNorm = true;
    qwen3.rope = true;
    qwen3.globalRope.base = 1e6;
    DecoderArchitecture gemma = qwen3;
    gemma.family = Family::Gemma3;
    gemma.windows = {4, 0};
    gemma.localRope.base = 1e4;
    gemma.queryScale = 0.25;
    gemma.sandwichNorms = true;
    DecoderArchitecture qwen2 = qwen3;
    qwen2.family = Family::Qwen2;
    qwen2.qkvBias = true;
    qwen2.qkNorm = false;
    qwen2.headDim = 0;
    DecoderArchitecture gpt2 = gpt2Architecture(2, 32, 4, 300, 64, 128, true, true);
    for (const DecoderArchitecture* a : {&qwen3, &gemma, &qwen2, &gpt2}) {
        DecoderModel m;
        m.arch = *a;
        m.names = WeightNames::HuggingFace;
        m.dtype = "F32";
        m.source = "m";
        for (int64_t layer = 0; layer < a->layers; ++layer) {
            Settings s;
            s.source = InputSource::Text;
            s.modelFile = QStringLiteral("m");
            s.layer = int(layer);
            const Config traced = layerTraceConfig(*a, layer, 5);
            const Facts facts = traceConfigFacts(s, traced, &m);
            const std::set<std::string> keys = keysOf(facts);
            const std::string name = familyName(a->family) + " " + std::to_string(layer);
            // Nothing of chapter 3's module the model does not have; `positions` is the
            // architecture's ("learned" or "rope"), not chapter 3's flag.
            for (const char* k : {"seed", "dropout_rng", "embedding_seed", "kv_groups", "rope",
                                  "latent_dim", "tokenizer_kind"})
                EXPECT_EQ(keys.count(k), 0u) << name << " " << k;
            EXPECT_EQ(findFact(facts, "positions")->value,
                      FactValue(std::string(a->rope ? "rope" : "learned")))
                << name;
            EXPECT_EQ(findFact(facts, "variant")->value, FactValue(variantName(traced.variant)));
            EXPECT_EQ(findFact(facts, "mask")->value, FactValue(maskName(traced.effectiveMask())));
            EXPECT_EQ(findFact(facts, "heads")->value, FactValue(int64_t{4})) << name;
            EXPECT_EQ(findFact(facts, "qkv_bias")->value, FactValue(a->qkvBias)) << name;
            EXPECT_EQ(findFact(facts, "query_width")->value, FactValue(a->queryWidth())) << name;
            EXPECT_EQ(findFact(facts, "window")->value, FactValue(a->windowOf(layer))) << name;
            EXPECT_EQ(findFact(facts, "layer")->value, FactValue(layer)) << name;
            EXPECT_EQ(findFact(facts, "tokenizer")->value, FactValue(std::string("gpt2")));
            // A chapter-3 d_out is there only where the layer's module has one (GPT-2's
            // multi-head layer), and then it is d_model.
            if (const Fact* dOut = findFact(facts, "d_out")) {
                EXPECT_EQ(dOut->value, FactValue(a->dModel)) << name;
            }
            EXPECT_EQ(findFact(facts, "d_out") != nullptr, a->family == Family::Gpt2) << name;
        }
    }
    DecoderModel m;
    m.arch = gemma;
    Settings s;
    s.modelFile = QStringLiteral("m");
    const Facts sliding = traceConfigFacts(s, layerTraceConfig(gemma, 0, 5), &m);
    EXPECT_EQ(findFact(sliding, "rope_base")->value, FactValue(1e4));
    EXPECT_EQ(findFact(sliding, "mask")->value, FactValue(std::string("window:4")));
    EXPECT_EQ(findFact(sliding, "query_pre_attn_scalar")->value, FactValue(16.0));
    s.layer = 1;
    EXPECT_EQ(findFact(traceConfigFacts(s, layerTraceConfig(gemma, 1, 5), &m), "rope_base")->value,
              FactValue(1e6));
}

TEST(SettingsCodec, MissingKeysKeepTheBaseAndAreListed) {
    Settings base;
    base.config.dOut = 6;
    QStringList missing;
    const Settings s = settingsFromMap({{"heads", 3}}, base, &missing);
    EXPECT_EQ(s.config.heads, 3);
    EXPECT_EQ(s.config.dOut, 6);
    EXPECT_TRUE(missing.contains("d_out"));
    EXPECT_FALSE(missing.contains("heads"));
}

TEST(SettingsCodec, ValuesOutsideWhatTheEngineTakesAreRefusedNotClamped) {
    auto problem = [](const QVariantMap& map) {
        try {
            settingsFromMap(map, Settings());
        } catch (const UserError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_EQ(problem({{"d_out", 0}}),
              "\"d_out\" expects a whole number from 1 to 1048576, got \"0\".");
    EXPECT_EQ(problem({{"d_in", 1048577}}),
              "\"d_in\" expects a whole number from 1 to 1048576, got \"1048577\".");
    EXPECT_EQ(problem({{"dropout", 1.0}}),
              "\"dropout\" expects a number from 0 up to (not including) 1, got \"1\".");
    EXPECT_EQ(problem({{"heads", 2.5}}),
              "\"heads\" expects a whole number from 1 to 1048576, got \"2.5\".");
    EXPECT_EQ(problem({{"mask", "window:0"}}),
              "The window size K of \"mask\" must be from 1 to 1048576 (each token sees itself "
              "and the K-1 tokens before it), got 0.");
    EXPECT_EQ(problem({{"variant", "transformer"}}),
              "Unknown variant \"transformer\"; use simplified, self-attention-v1, "
              "self-attention, causal, multi-head-wrapper, multi-head, grouped-query, latent or "
              "rotary.");
    EXPECT_EQ(problem({{"colormap", "jet"}}),
              "Unknown colormap \"jet\"; use auto, viridis, magma, cividis or diverging.");
    // The cells print 1 to 4 decimals (the book's four at most).
    EXPECT_EQ(problem({{"decimals", 7}}),
              "\"decimals\" expects a whole number from 1 to 4, got \"7\".");
    EXPECT_EQ(settingsFromMap({{"decimals", "3"}}, Settings()).decimals, 3);
    // QSettings hands back text: the same values read from text.
    const Settings s =
        settingsFromMap({{"d_out", "768"}, {"qkv_bias", "true"}, {"dropout", "0.5"}}, Settings());
    EXPECT_EQ(s.config.dOut, 768);
    EXPECT_TRUE(s.config.qkvBias);
    EXPECT_EQ(s.config.dropout, 0.5);
}

TEST(Options, DefaultsAreTheBookExample) {
    const Settings s = fromArgs({});
    EXPECT_EQ(s.source, InputSource::Book);
    EXPECT_EQ(s.config, Settings::bookConfig());
    EXPECT_EQ(s, Settings());
}

TEST(Options, OnlyTheGivenSettingsChangeAndVariantsBringTheirMask) {
    QVariantMap given;
    const Settings s =
        fromArgs({"--variant", "self-attention", "--d-out", "4", "--seed", "-1"}, &given);
    EXPECT_EQ(given.keys(), (QStringList{"d_out", "seed", "variant"}));
    EXPECT_EQ(s.config.variant, Variant::SelfAttention);
    EXPECT_EQ(s.config.effectiveMask().kind, MaskKind::None);  // SelfAttention_v2 has none
    EXPECT_EQ(s.config.dOut, 4);
    EXPECT_EQ(s.config.seed, 18446744073709551615ull);  // -1 wraps as in torch.manual_seed
    EXPECT_EQ(s.config.dIn, 3);
    EXPECT_EQ(fromArgs({"--variant", "causal", "--mask", "window:2"}).config.effectiveMask(),
              (MaskSpec{MaskKind::Window, 2}));
}

TEST(Options, PresetsAndInputs) {
    Settings s = fromArgs({"--preset", "gpt2-small"});
    EXPECT_EQ(s.source, InputSource::Text);  // the book's sentence, typed
    EXPECT_EQ(s.text, QString::fromStdString(bookSentence()));
    EXPECT_EQ(s.config.dIn, 768);
    EXPECT_EQ(s.config.dOut, 768);
    EXPECT_EQ(s.config.heads, 12);
    s = fromArgs({"--preset", "gpt2-medium", "--heads", "8", "--text", "Hi"});
    EXPECT_EQ(s.config.heads, 8);
    EXPECT_EQ(s.config.dOut, 1024);
    EXPECT_EQ(s.text, "Hi");
    s = fromArgs({"--tokenizer", "chars"});
    EXPECT_EQ(s.source, InputSource::Text);
    EXPECT_EQ(s.tokenizer, TokenizerKind::Chars);
    EXPECT_EQ(fromArgs({"--embeddings", "x.npy"}).source, InputSource::File);
    s = fromArgs({"--ids", "464,3797"});  // the ids are a text's tokens, not the book's vectors
    EXPECT_EQ(s.source, InputSource::Text);
    EXPECT_EQ(tokenIds(s.textTokens()), (std::vector<int64_t>{464, 3797}));
    EXPECT_EQ(problemOf({"--text", "a", "--preset", "book"}),
              "Give only one input: --preset book, --text, --text-file or --embeddings.");
    EXPECT_EQ(problemOf({"--preset", "gpt5"}),
              "Unknown preset \"gpt5\"; the presets are book, gpt2-small, gpt2-medium, "
              "gpt2-large and gpt2-xl.");
    EXPECT_EQ(problemOf({"--d-in", "lots"}),
              "--d-in expects a whole number from 1 to 1048576, got \"lots\".");
}

TEST(Options, TextFilesMustBeUtf8AndLoseTheirByteOrderMark) {
    QTemporaryDir dir;
    EXPECT_EQ(readUtf8TextFile(writeFile(dir, "bom.txt", "\xef\xbb\xbfHello")), "Hello");
    const QString latin1 = writeFile(dir, "cafe.txt", "Caf\xe9");
    try {
        readUtf8TextFile(latin1);
        FAIL() << "Latin-1 text was accepted";
    } catch (const UserError& e) {
        EXPECT_EQ(e.field(), "input");
        EXPECT_EQ(std::string(e.what()),
                  latin1.toStdString() +
                      " is not UTF-8 text: the byte 0xe9 at offset 3 (counting from 0) does not "
                      "start or continue a UTF-8 character. Save the file as UTF-8.");
    }
}

TEST(Request, TheBookExampleMatchesTheChapter) {
    const TraceRun run = runSettings(Settings(), {});
    EXPECT_EQ(run.input.labels, bookTokens());
    ASSERT_EQ(run.input.tokens.size(), 6u);  // the sentence's six GPT-2 tokens, for the chips
    EXPECT_EQ(run.input.tokens[1].id, 7002);
    EXPECT_EQ(run.x, bookInputs());
    EXPECT_EQ(run.trace->config, Settings::bookConfig());
    EXPECT_EQ(run.trace->find("weights")->info.shape, (Shape{1, 2, 6, 6}));
}

TEST(Request, EveryProblemComesWithTheFieldOfItsControl) {
    Settings s;
    s.config.dIn = 5;    // the book's vectors are 3-d
    s.config.heads = 3;  // does not divide d_out = 2
    const auto issues = checkSettings(s, {}, 6);
    ASSERT_EQ(issues.size(), 2u);
    EXPECT_EQ(issues[0].field, "heads");
    EXPECT_EQ(issues[1].field, "d_in");
    EXPECT_EQ(issues[1].message,
              "The book's input vectors are 3-dimensional, so d_in must be 3 (it is 5).");
    Settings text;
    text.source = InputSource::Text;
    text.text = QString();
    EXPECT_EQ(tokenizeInput(text, {}).count(), 0);
    const auto empty = checkSettings(text, {}, 0);
    ASSERT_EQ(empty.size(), 1u);
    EXPECT_EQ(empty[0].message, "The text has no tokens: type a word or two.");
}

// The engine writes its validation messages in English, piece by piece; the pipeline looks each
// piece up as a translation. Every piece the engine writes must be one lupdate has seen (else
// the German window shows it in English), and the pieces must make the engine's message.
TEST(Request, EveryValidationMessageIsMadeOfTranslatablePieces) {
    struct Case {
        Config config;
        int64_t tokens;
    };
    std::vector<Case> cases;
    auto add = [&](Variant v, const std::function<void(Config&)>& edit, int64_t tokens = 6) {
        Config c;
        c.variant = v;
        edit(c);
        cases.push_back({c, tokens});
    };
    const int64_t huge = kMaxDimension + 1;
    add(Variant::MultiHead,
        [](Config& c) { c.dIn = c.dOut = c.batch = c.contextLength = c.heads = 0; });
    add(Variant::MultiHead,
        [&](Config& c) { c.dIn = c.dOut = c.batch = c.contextLength = c.heads = huge; });
    add(Variant::MultiHead, [](Config& c) { c.heads = 3; });
    add(Variant::GroupedQuery, [](Config& c) { c.kvGroups = 0; });
    add(Variant::GroupedQuery, [](Config& c) {
        c.dOut = 4;
        c.heads = 4;
        c.kvGroups = 3;
    });
    add(Variant::GroupedQuery, [](Config& c) {
        c.heads = 1;
        c.kvGroups = 2;
    });
    add(Variant::Latent, [](Config& c) { c.latentDim = -1; });
    add(Variant::Rotary, [](Config& c) { c.headDim = -1; });
    add(Variant::Rotary, [](Config& c) {
        c.dIn = 8;
        c.heads = 3;
    });
    add(Variant::Rotary, [](Config& c) {
        c.dIn = 9;
        c.heads = 2;
    });
    add(Variant::Rotary, [](Config& c) {
        c.dIn = 3;
        c.heads = 1;
        c.ropeBase = 0.0;
        c.qkvBias = true;
    });
    add(Variant::Rotary, [](Config& c) {
        c.dIn = 4;
        c.heads = 4;  // a head size of 1: "set head_dim to 2", no second choice
    });
    add(Variant::Causal, [](Config& c) {
        c.mask = MaskSpec{MaskKind::Window, 0};
        c.dropout = 1.5;
    });
    add(
        Variant::MultiHead, [](Config&) {}, 0);
    add(Variant::MultiHead, [](Config& c) { c.contextLength = 4; });
    add(
        Variant::MultiHead,
        [](Config& c) {
            c.dIn = 768;
            c.dOut = 100000;
            c.heads = 1;
        },
        10);
    add(
        Variant::MultiHead, [](Config& c) { c.contextLength = 200000; }, 100000);
    add(Variant::Rotary, [](Config& c) {
        c.dIn = 64;
        c.heads = 4;
        c.headDim = 1000000;
    });
    std::set<std::string> fields, formats;
    for (const Case& k : cases) {
        const std::vector<ValidationIssue> issues = validate(k.config, k.tokens);
        EXPECT_FALSE(issues.empty()) << variantName(k.config.variant);
        for (const ValidationIssue& i : issues) {
            fields.insert(i.field);
            ASSERT_FALSE(i.parts.empty()) << i.message;
            EXPECT_EQ(formatMessage(i.parts), i.message);
            // Without a translator the pipeline's text is the engine's, word for word.
            EXPECT_EQ(issueText(i).toStdString(), i.message);
            for (const MessagePart& p : i.parts) {
                EXPECT_TRUE(isTranslatableFormat(p.format))
                    << "not in issue_text.cpp: " << p.format;
                formats.insert(p.format);
            }
        }
    }
    for (const char* f :
         {"d_in", "d_out", "batch", "context_length", "heads", "kv_groups", "latent_dim",
          "head_dim", "rope_base", "qkv_bias", "mask", "dropout", "input"})
        EXPECT_TRUE(fields.count(f)) << f;
    EXPECT_GE(formats.size(), 36u);
}

// A weights file that does not fit: the message under the weights is made of translatable
// pieces too (file name, each problem with its hint, joined by "; ").
TEST(Request, EveryWeightsProblemIsMadeOfTranslatablePieces) {
    Settings s;
    s.config.variant = Variant::Causal;
    s.config.contextLength = 4;
    s.weightsFile = QStringLiteral("/data/w.safetensors");
    std::vector<std::pair<Config, WeightMap>> cases;
    WeightMap wrong;  // a wrong shape, a missing key and a mask of the wrong size
    wrong["W_query.weight"] = Tensor({4, 3});
    wrong["W_key.weight"] = Tensor({2, 3});
    wrong["mask"] = Tensor({6, 6});
    cases.push_back({s.config, wrong});
    WeightMap notTriu = wrong;  // a mask that is not the causal one; biases not asked for
    notTriu["W_query.weight"] = Tensor({2, 3});
    notTriu["W_value.weight"] = Tensor({2, 3});
    notTriu["mask"] = Tensor({4, 4});
    notTriu["W_query.bias"] = Tensor({2});
    cases.push_back({s.config, notTriu});
    Config biases = s.config;  // biases asked for, none in the file
    biases.qkvBias = true;
    WeightMap plain;
    for (const char* m : {"W_query", "W_key", "W_value"})
        plain[m] = Tensor({3, 2});
    cases.push_back({biases, plain});  // also plain names: self-attention v1's
    Config simplified = s.config;
    simplified.variant = Variant::Simplified;
    cases.push_back({simplified, plain});
    Config wrapper = s.config;
    wrapper.variant = Variant::MultiHeadWrapper;
    wrapper.heads = 1;
    WeightMap heads = plain;
    heads["heads.7.W_query.weight"] = Tensor({2, 3});
    cases.push_back({s.config, heads});
    Config v1 = s.config;
    v1.variant = Variant::SelfAttentionV1;
    WeightMap linear;
    for (const char* m : {"W_query.weight", "W_key.weight", "W_value.weight"})
        linear[m] = Tensor({2, 3});
    cases.push_back({v1, linear});
    std::set<std::string> formats;
    for (auto& [config, weights] : cases) {
        InputFiles files;
        files.weights = std::make_shared<const WeightMap>(weights);
        Settings k = s;
        k.config = config;
        for (const ValidationIssue& i : checkSettings(k, files, 6)) {
            if (i.field != "weights")
                continue;
            ASSERT_FALSE(i.parts.empty()) << i.message;
            EXPECT_EQ(formatMessage(i.parts), i.message);
            EXPECT_EQ(issueText(i).toStdString(), i.message);
            EXPECT_EQ(i.message.rfind("w.safetensors: ", 0), 0u) << i.message;
            for (const MessagePart& p : i.parts) {
                EXPECT_TRUE(isTranslatableFormat(p.format))
                    << "not in issue_text.cpp: " << p.format;
                formats.insert(p.format);
            }
        }
    }
    EXPECT_GE(formats.size(), 12u);
}

// The errors a user meets when a file or a model cannot be read are made of translatable pieces
// (what the app shows in its language), and their English is the pieces' text, word for word.
TEST(Request, UnreadableFilesAndModelsSayWhyInTranslatablePieces) {
    QTemporaryDir dir;
    const auto folder = [&](const QString& name, const QByteArray& config) {
        EXPECT_TRUE(QDir(dir.path()).mkpath(name));
        if (!config.isEmpty())
            writeFile(dir, name + QStringLiteral("/config.json"), config);
        return dir.filePath(name);
    };
    const QString noConfig = folder(QStringLiteral("no-config"), {});
    writeFile(dir, QStringLiteral("no-config/model.safetensors"), "x");
    struct Case {
        QString what;
        std::function<void()> read;
        std::string field, message;
    };
    const std::string root = dir.path().toStdString();
    const std::vector<Case> cases = {
        {"a model folder without config.json", [&] { loadModel(noConfig); }, "model",
         "no-config: the folder has no config.json; a Hugging Face model folder holds "
         "config.json, model.safetensors (or model.safetensors.index.json and its shards) and "
         "tokenizer.json"},
        {"a folder without weights",
         [&] {
             loadModel(folder(QStringLiteral("no-weights"),
                              R"({"model_type": "gpt2", "n_layer": 1, "n_embd": 4, "n_head": 1,
                                  "vocab_size": 8, "n_positions": 4})"));
         },
         "model",
         "no-weights: the folder has neither model.safetensors nor model.safetensors.index.json "
         "with its shards"},
        {"an unknown model_type",
         [&] { loadModel(folder(QStringLiteral("bert"), R"({"model_type": "bert"})")); }, "model",
         "config.json: \"model_type\" = \"bert\" is not a model this program reads; it reads " +
             io::supportedModelTypes()},
        {"no model_type", [&] { loadModel(folder(QStringLiteral("untyped"), "{}")); }, "model",
         "config.json: it has no \"model_type\"; a Hugging Face config names its architecture "
         "there (this program reads " +
             io::supportedModelTypes() + ")"},
        {"a config.json with a comma missing",
         [&] {
             loadModel(folder(QStringLiteral("comma"), R"({"model_type": "gpt2" "n_layer": 1})"));
         },
         "model",
         "config.json: expected ',' or '}' in an object but found '\"' (line 1, column 23)"},
        {"a config.json cut short",
         [&] { loadModel(folder(QStringLiteral("cut"), R"({"model_type": )")); }, "model",
         "config.json: the file ends early, expected a value (line 1, column 16)"},
        {"a missing key",
         [&] { loadModel(folder(QStringLiteral("short"), R"({"model_type": "gpt2"})")); }, "model",
         "config.json: it has no \"n_layer\", which this model type needs"},
        {"a key of the wrong type",
         [&] {
             loadModel(
                 folder(QStringLiteral("typo"), R"({"model_type": "gpt2", "n_layer": "12"})"));
         },
         "model", "config.json: \"n_layer\" is a string; it must be a number"},
        {"a size out of range",
         [&] {
             loadModel(folder(QStringLiteral("huge"), R"({"model_type": "gpt2", "n_layer": 0})"));
         },
         "model",
         "config.json: \"n_layer\" = 0 is not a size this model can have: it must be a whole "
         "number from 1 to 1024"},
        {"a model file that is neither safetensors nor PyTorch",
         [&] { loadModel(writeFile(dir, QStringLiteral("notes.bin"), "just some text")); }, "model",
         "notes.bin: this is neither a .safetensors file nor a PyTorch file written by "
         "torch.save; a model comes as model.safetensors, pytorch_model.bin or a .pth saved with "
         "torch.save(model.state_dict(), path)"},
        {"a tensor file that is not GPT-2's",
         [&] {
             WeightMap w;
             w["encoder.weight"] = Tensor({2, 2});
             const QString path = dir.filePath(QStringLiteral("bert.safetensors"));
             io::writeSafetensors(path.toStdString(), w);
             loadModel(path);
         },
         "model",
         "bert.safetensors: it is not a GPT-2 model: it has neither wte.weight (Hugging Face "
         "GPT-2) nor tok_emb.weight (the book's GPTModel); it holds encoder.weight."},
        {"a missing embeddings file", [&] { readEmbeddings(dir.filePath("gone.npy")); },
         "embeddings", "Cannot read " + root + "/gone.npy: the file does not exist"},
        {"a folder as embeddings", [&] { readEmbeddings(folder(QStringLiteral("dir.npy"), {})); },
         "embeddings", "Cannot read " + root + "/dir.npy: it is a folder, not a file"},
        {"an .npy that is not one",
         [&] { readEmbeddings(writeFile(dir, QStringLiteral("x.npy"), "not numpy at all")); },
         "embeddings", "x.npy: this is not a NumPy .npy file (it does not start with \\x93NUMPY)"},
        {"embeddings of another kind",
         [&] { readEmbeddings(writeFile(dir, QStringLiteral("x.txt"), "1 2 3")); }, "embeddings",
         "x.txt: embeddings must be a .npy, .json or .csv file, not '.txt'"},
        {"a safetensors file that is not one",
         [&] { readWeights(writeFile(dir, QStringLiteral("w.safetensors"), "not a safetensors")); },
         "weights",
         "w.safetensors: the header length says 7021991845529153390 bytes but the file has only "
         "9 bytes after it; the file is truncated or not a safetensors file"},
        // A tokenizer.json's content, each message in its own pieces (the tokenizer's).
        {"a tokenizer of another model type",
         [&] {
             io::loadTokenizer(
                 writeFile(dir, QStringLiteral("wp.json"),
                           R"({"model": {"type": "WordPiece", "vocab": {"a": 0}, "merges": []}})")
                     .toStdString());
         },
         "tokenizer",
         "wp.json: model.type is \"WordPiece\"; this program reads BPE tokenizers (Llama 3, "
         "Qwen, SmolLM2, Gemma 3, TinyLlama), not WordPiece"},
        {"a merge of a token the vocabulary lacks",
         [&] {
             io::loadTokenizer(
                 writeFile(dir, QStringLiteral("m.json"),
                           R"({"model": {"vocab": {"a": 0, "b": 1}, "merges": ["a c"]}})")
                     .toStdString());
         },
         "tokenizer",
         "m.json: model.merges[0] merges \"a\" and \"c\", but \"c\" is not in model.vocab"},
        {"a tokenizer.json that is not JSON",
         [&] {
             io::loadTokenizer(writeFile(dir, QStringLiteral("t.json"), "[1, 2").toStdString());
         },
         "tokenizer", ""},
        {"weights of another kind", [&] { readWeights(writeFile(dir, QStringLiteral("w"), "{}")); },
         "weights", "w: weights must be a .json or .safetensors file, not '(no extension)'"},
    };
    std::set<std::string> formats;
    for (const Case& c : cases) {
        try {
            c.read();
            ADD_FAILURE() << c.what.toStdString() << ": no error";
        } catch (const UserError& e) {
            EXPECT_EQ(e.field(), c.field) << c.what.toStdString();
            if (!c.message.empty())  // else a library's own words
                EXPECT_EQ(e.what(), c.message) << c.what.toStdString();
            ASSERT_FALSE(e.parts().empty()) << c.what.toStdString() << ": " << e.what();
            EXPECT_EQ(formatMessage(e.parts()), e.what());
            // Without a translator the text is the English, word for word.
            EXPECT_EQ(errorText(e).toStdString(), e.what());
            for (const MessagePart& p : e.parts()) {
                EXPECT_TRUE(isTranslatableFormat(p.format))
                    << "not in issue_text.cpp: " << p.format;
                formats.insert(p.format);
            }
        }
    }
    EXPECT_GE(formats.size(), 20u);

    // As an issue (what a run reports, the app shows under the field): the same pieces.
    try {
        loadModel(noConfig);
    } catch (const UserError& e) {
        const ValidationIssue issue = issueOf(e);
        EXPECT_EQ(issue.field, "model");
        EXPECT_EQ(issue.parts.size(), e.parts().size());
        EXPECT_EQ(issue.message, e.what());
    }
}

TEST(Request, EmbeddingsFilesSetDInAndBatchAndMustFit) {
    Settings s;
    s.source = InputSource::File;
    InputFiles files;
    files.embeddings = std::make_shared<const Tensor>(Tensor(Shape{2, 4, 5}));
    fitSettingsToFiles(&s, files, {});
    EXPECT_EQ(s.config.dIn, 5);
    EXPECT_EQ(s.config.batch, 2);
    EXPECT_EQ(tokenizeInput(s, files).labels, (std::vector<std::string>{"0", "1", "2", "3"}));
    EXPECT_TRUE(checkSettings(s, files, 4).empty());
    s.config.batch = 1;
    const auto issues = checkSettings(s, files, 4);
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].field, "batch");
    EXPECT_EQ(issues[0].message,
              "The embeddings file holds 2 batch entries, so the batch size must be 2 (it is 1).");
    Settings given;
    given.source = InputSource::File;
    given.config.dIn = 7;
    fitSettingsToFiles(&given, files, {true, false});
    EXPECT_EQ(given.config.dIn, 7);  // given explicitly: the check says it does not fit
    EXPECT_EQ(checkSettings(given, files, 4).front().field, "d_in");
}

// One rule for the CLI, the launch options and the window (they had three, two of them
// different): named options are the user's, and so is a context length already chosen before.
TEST(Request, OneRuleForWhichSizesAreTheUsers) {
    const Settings defaults;
    EXPECT_FALSE(givenSizes(defaults, {}).dIn);
    EXPECT_FALSE(givenSizes(defaults, {}).contextLength);
    EXPECT_TRUE(givenSizes(defaults, {{"d_in", 4}}).dIn);
    EXPECT_TRUE(givenSizes(defaults, {{"context_length", 6}}).contextLength);
    Settings session;
    session.config.contextLength = 12;  // a session's, a file's or the user's earlier choice
    EXPECT_TRUE(givenSizes(session, {}).contextLength);
    EXPECT_FALSE(givenSizes(session, {{"text", "hi"}}).dIn);
}

TEST(Request, AMaskBufferSetsTheContextLengthUnlessItWasGiven) {
    QTemporaryDir dir;
    // A CausalAttention state_dict as the chapter saves it: weights and the mask buffer.
    Settings s;
    s.config.variant = Variant::Causal;
    s.config.mask = MaskSpec{MaskKind::Causal, 0};
    WeightMap w = runSettings(s, {}).trace->parameters;
    std::vector<float> mask(36, 0.0f);
    for (int i = 0; i < 6; ++i)
        for (int j = i + 1; j < 6; ++j)
            mask[size_t(i * 6 + j)] = 1.0f;
    w["mask"] = Tensor(Shape{6, 6}, mask);
    const QString path = dir.filePath("causal.safetensors");
    io::writeSafetensors(path.toStdString(), w);

    s.weightsFile = path;
    InputFiles files = readInputFiles(s);
    const QStringList notes = fitSettingsToFiles(&s, files, {});
    EXPECT_EQ(s.config.contextLength, 6);
    EXPECT_EQ(notes, (QStringList{"The context length is 6, the size of the mask buffer in "
                                  "causal.safetensors."}));
    EXPECT_TRUE(checkSettings(s, files, 6).empty());
    EXPECT_EQ(runSettings(s, files).trace->parameters.at("W_query.weight"), w.at("W_query.weight"));

    Settings given = s;
    given.config.contextLength = 1024;
    try {
        fitSettingsToFiles(&given, files, {false, true});
        FAIL() << "a context length that disagrees with the file was accepted";
    } catch (const UserError& e) {
        EXPECT_EQ(e.field(), "context_length");
        EXPECT_EQ(std::string(e.what()),
                  "The context length is 1024, but the mask buffer in causal.safetensors is 6 x "
                  "6. Leave the context length out to use the file's, or give 6.");
    }
}

TEST(StepFiles, NamesAndTheStepAViewShows) {
    Settings s;
    s.config.batch = 2;
    const TraceRun run = runSettings(s, {});
    const Trace& t = *run.trace;
    EXPECT_EQ(stepToShow(t, "scores")->info.id, "scores");
    EXPECT_EQ(stepToShow(t, "no_such_step")->info.id, "weights");
    EXPECT_EQ(stepHeadCount(t.find("weights")->info), 2);
    EXPECT_EQ(stepHeadCount(t.find("inputs")->info), 0);
    EXPECT_EQ(stepBatchCount(t.find("weights")->info), 2);
    EXPECT_EQ(stepFileName(t.find("weights")->info, 1, -1, "svg"), "weights_head1.svg");
    EXPECT_EQ(stepFileName(t.find("mask")->info, -1, 1, "png"), "mask_batch1.png");

    const auto first = allStepFigures(t, "svg", false);
    const auto every = allStepFigures(t, "svg", true);
    int perHeadSteps = 0;
    for (const Step& step : t.steps)
        perHeadSteps += stepHeadCount(step.info) > 0;
    const int plain = int(t.steps.size()) - perHeadSteps;
    EXPECT_EQ(int(first.size()), plain + 2 * perHeadSteps);
    // Every batch entry: twice, except the mask, which has no batch axis.
    EXPECT_EQ(int(every.size()), 2 * (plain - 1) + 1 + 4 * perHeadSteps);
    EXPECT_EQ(first.front().fileName, "01_inputs.svg");
    EXPECT_EQ(every.front().fileName, "01_inputs_batch0.svg");
    EXPECT_EQ(every[1].fileName, "01_inputs_batch1.svg");
    // Listed by name, the files are in the pipeline's order: their numbers never go down.
    int previous = 0;
    for (const StepFigure& f : every) {
        const int position = f.fileName.section(QLatin1Char('_'), 0, 0).toInt();
        EXPECT_GE(position, previous) << f.fileName.toStdString();
        EXPECT_LE(position, previous + 1) << f.fileName.toStdString();
        previous = position;
    }
    EXPECT_EQ(previous, int(t.steps.size()));
}

TEST(PyTorchListing, SaysWhenItReproducesTheView) {
    Settings s;
    PyTorchListing l = pytorchListing(runSettings(s, {}));
    EXPECT_TRUE(l.exact);
    EXPECT_EQ(l.reproduces,
              "Gives the same output as the view (float32, to about 1e-6) on any CPU build of "
              "PyTorch.");
    EXPECT_NE(l.code.find("module = MultiHeadAttention(3, 2, 1024, 0.0, 2, qkv_bias=False)"),
              std::string::npos);
    EXPECT_NE(l.code.find("[0.43, 0.15, 0.89],  # Your"), std::string::npos) << l.code;
    s.config.dropout = 0.5;
    s.config.dropoutRng = DropoutRng::Mkl;
    l = pytorchListing(runSettings(s, {}));
    EXPECT_FALSE(l.exact);
    EXPECT_NE(l.reproduces.find("on other builds (Debian's python3-torch, AMD CPUs) dropout keeps "
                                "other weights"),
              std::string::npos);
    EXPECT_NE(l.code.find("# The view drops the weights"), std::string::npos);
}

// The listing prints the step on screen after the output, under the chapter's name, read from
// what the book's forward() computed (its locals, recorded while it runs): attn_weights for
// weights; the simple method's steps derived from them; a step the forward has no variable for
// says how the view computes it. (tests/fixtures/check_pytorch_steps.py ran every listing of
// fifteen configurations in Debian's PyTorch: 310 steps equal to the CLI's export to 1e-5.)
TEST(PyTorchListing, PrintsTheStepOnScreen) {
    Settings s;
    const TraceRun run = runSettings(s, {});
    const std::string weights = pytorchListing(run, "weights").code;
    EXPECT_NE(weights.find("def run_with_steps(module, x, *args):"), std::string::npos);
    EXPECT_NE(weights.find("output, calls = run_with_steps(module, x)\nprint(output)\n"),
              std::string::npos);
    EXPECT_NE(weights.find("# The step on screen, weights: shape (1, 2, 6, 6).\n"
                           "attn_weights = (lambda s: s[\"attn_weights\"][0])(calls[0])\n"
                           "print(attn_weights)\n"),
              std::string::npos)
        << weights;
    EXPECT_NE(
        pytorchListing(run, "queries_split")
            .code.find(
                "queries_split = (lambda s: s[\"queries\"][0].view(x.shape[0], x.shape[1], 2, "
                "1))(calls[0])"),
        std::string::npos);
    // The output alone: the listing as before, without the recorder.
    const std::string output = pytorchListing(run, "output").code;
    EXPECT_EQ(output.find("run_with_steps"), std::string::npos);
    EXPECT_NE(output.find("with torch.no_grad():\n    output = module(x)\nprint(output)\n"),
              std::string::npos);
    // The wrapper's heads run one after the other: their tensors are stacked.
    s.config.variant = Variant::MultiHeadWrapper;
    EXPECT_NE(pytorchListing(runSettings(s, {}), "weights")
                  .code.find("attn_weights = torch.stack([s[\"attn_weights\"][0] for s in calls])"),
              std::string::npos);
    // Dropout's keep mask is no variable of the forward.
    s.config.variant = Variant::Causal;
    s.config.dropout = 0.5;
    EXPECT_NE(
        pytorchListing(runSettings(s, {}), "dropout_mask")
            .code.find("# The step on screen, dropout_mask, is not a variable of the forward"),
        std::string::npos);
}

// The classes after chapter 3 are the book's, built with its constructor arguments; Qwen3's
// class gets the mask and the RoPE tables from the code around it, as the book's model passes
// them, and --no-rope gives it angles of 0. The steps the book's forward reassigns are read by
// position: the grouped keys are the second value of `keys`, the repeated ones the last.
// (check_pytorch_steps.py ran these listings in Debian's PyTorch: every step equal.)
TEST(PyTorchListing, TheClassesAfterChapter3) {
    Settings s;
    s.config.variant = Variant::GroupedQuery;
    s.config.dOut = 4;
    s.config.heads = 4;
    s.config.kvGroups = 2;
    std::string code = pytorchListing(runSettings(s, {}), "keys_groups").code;
    EXPECT_NE(code.find("module = GroupedQueryAttention(3, 4, 0.0, num_heads=4, num_kv_groups=2, "
                        "qkv_bias=False)"),
              std::string::npos)
        << code;
    EXPECT_NE(code.find("keys_groups = (lambda s: s[\"keys\"][1])(calls[0])"), std::string::npos);
    EXPECT_NE(pytorchListing(runSettings(s, {}), "keys_repeated")
                  .code.find("keys_repeated = (lambda s: s[\"keys\"][-1])(calls[0])"),
              std::string::npos);

    s.config.variant = Variant::Latent;
    s.config.heads = 2;
    code = pytorchListing(runSettings(s, {}), "latent").code;
    EXPECT_NE(code.find("module = MultiHeadLatentAttention(3, 4, 0.0, num_heads=2, "
                        "qkv_bias=False, latent_dim=None)"),
              std::string::npos)
        << code;
    EXPECT_NE(code.find("latent = (lambda s: s[\"latent\"][0])(calls[0])"), std::string::npos);

    s.config.variant = Variant::Rotary;
    s.config.headDim = 2;
    s.config.qkNorm = true;
    s.config.ropeBase = 500000.0;
    code = pytorchListing(runSettings(s, {}), "keys_rotated").code;
    EXPECT_NE(code.find("module = GroupedQueryAttention(3, num_heads=2, num_kv_groups=2, "
                        "head_dim=2, qk_norm=True)"),
              std::string::npos)
        << code;
    EXPECT_NE(code.find("cos, sin = compute_rope_params(2, theta_base=500000.0, "
                        "context_length=1024)\n"),
              std::string::npos);
    EXPECT_NE(code.find("output, calls = run_with_steps(module, x, mask, cos, sin)"),
              std::string::npos);
    EXPECT_NE(code.find("keys_rotated = (lambda s: s[\"keys\"][3])(calls[0])"), std::string::npos);
    s.config.rope = false;
    code = pytorchListing(runSettings(s, {}), "output").code;
    EXPECT_NE(code.find("cos = torch.ones(x.shape[1], 2)\nsin = torch.zeros(x.shape[1], 2)\n"),
              std::string::npos)
        << code;
}

TEST(PyTorchListing, LoadsSafetensorsStrictlyWithoutExtraPackages) {
    QTemporaryDir dir;
    Settings s;
    s.config.variant = Variant::SelfAttention;
    s.config.mask = MaskSpec{MaskKind::None, 0};
    const QString path = dir.filePath("w.safetensors");
    io::writeSafetensors(path.toStdString(), runSettings(s, {}).trace->parameters);
    s.weightsFile = path;
    const PyTorchListing l = pytorchListing(runSettings(s, readInputFiles(s)));
    EXPECT_EQ(l.code.find("safetensors.torch"), std::string::npos);
    EXPECT_NE(l.code.find("def load_safetensors(path):"), std::string::npos);
    EXPECT_NE(l.code.find("module.load_state_dict(state)\n"), std::string::npos);
    EXPECT_EQ(l.code.find("strict=False"), std::string::npos);
}
