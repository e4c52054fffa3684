// config.json and model folders refused with one line naming the key, tensor or file, and what
// would be right (SPEC 9.2).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/file_io.h"
#include "io/model_config.h"
#include "io/model_file.h"
#include "io/safetensors.h"
#include "io_test_util.h"
#include "tokenizer/hf_tokenizer.h"

#ifndef ATTN_FIXTURES_DIR
#error "ATTN_FIXTURES_DIR must point at tests/fixtures"
#endif

namespace attn::io {
namespace {

namespace fs = std::filesystem;
using test::expectError;

const std::string kQwen3 =
    R"({"model_type": "qwen3", "hidden_size": 1024, "num_hidden_layers": 28,
        "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 128,
        "intermediate_size": 3072, "vocab_size": 151936, "max_position_embeddings": 40960,
        "rms_norm_eps": 1e-06, "rope_theta": 1000000, "tie_word_embeddings": true})";

TEST(ModelConfig, ReadsQwen3SizesAndItsFamilysTraits) {
    const ModelConfig c = parseModelConfig(kQwen3, "config.json");
    const DecoderArchitecture& a = c.arch;
    EXPECT_EQ(a.family, Family::Qwen3);
    EXPECT_EQ(a.layers, 28);
    EXPECT_EQ(a.heads, 16);
    EXPECT_EQ(a.keyValueHeads(), 8);
    EXPECT_EQ(a.headSize(), 128);  // not 1024 / 16
    EXPECT_EQ(a.groupOfHead(15), 7);
    EXPECT_TRUE(a.qkNorm);
    EXPECT_TRUE(a.rope);
    EXPECT_EQ(a.globalRope.base, 1e6);
    EXPECT_TRUE(a.tiedHead);
    EXPECT_EQ(a.norm, NormKind::RmsNorm);
    EXPECT_EQ(a.feedForward, FeedForwardKind::SwiGlu);
    EXPECT_TRUE(a.windows.empty());
}

TEST(ModelConfig, ReadsLlama3RopeScalingInBothSpellings) {
    const std::string base =
        R"("model_type": "llama", "hidden_size": 2048, "num_hidden_layers": 16,
           "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 8192,
           "vocab_size": 128256, "max_position_embeddings": 131072, "rms_norm_eps": 1e-05,)";
    const ModelConfig old = parseModelConfig(
        "{" + base +
            R"("rope_theta": 500000.0, "rope_scaling": {"factor": 32.0, "high_freq_factor": 4.0,
               "low_freq_factor": 1.0, "original_max_position_embeddings": 8192,
               "rope_type": "llama3"}})",
        "config.json");
    const ModelConfig newer =
        parseModelConfig("{" + base +
                             R"("rope_parameters": {"rope_theta": 500000.0, "factor": 32.0,
               "high_freq_factor": 4.0, "low_freq_factor": 1.0,
               "original_max_position_embeddings": 8192, "rope_type": "llama3"}})",
                         "config.json");
    for (const ModelConfig* c : {&old, &newer}) {
        EXPECT_EQ(c->arch.globalRope.scaling, RopeSpec::Scaling::Llama3);
        EXPECT_EQ(c->arch.globalRope.base, 500000.0);
        EXPECT_EQ(c->arch.globalRope.factor, 32.0);
        EXPECT_EQ(c->arch.globalRope.originalContext, 8192.0);
        EXPECT_EQ(c->arch.headSize(), 64);
        EXPECT_FALSE(c->arch.tiedHead);
    }
}

TEST(ModelConfig, GemmaLayersFromThePatternSlideButEverySixth) {
    const ModelConfig c = parseModelConfig(
        R"({"model_type": "gemma3_text", "hidden_size": 640, "num_hidden_layers": 7,
            "num_attention_heads": 4, "num_key_value_heads": 1, "head_dim": 256,
            "intermediate_size": 2048, "vocab_size": 262144, "max_position_embeddings": 32768,
            "query_pre_attn_scalar": 256, "sliding_window": 512, "rope_local_base_freq": 10000,
            "rope_theta": 1000000})",
        "config.json");
    EXPECT_EQ(c.arch.windows, (std::vector<int64_t>{512, 512, 512, 512, 512, 0, 512}));
    EXPECT_EQ(c.arch.ropeOf(0).base, 10000.0);
    EXPECT_EQ(c.arch.ropeOf(5).base, 1e6);
    EXPECT_DOUBLE_EQ(c.arch.queryScale, 1.0 / 16.0);
    EXPECT_DOUBLE_EQ(c.arch.embeddingScale, std::sqrt(640.0));
    EXPECT_TRUE(c.arch.tiedHead);
    EXPECT_EQ(c.arch.norm, NormKind::RmsNormOnePlus);
}

TEST(ModelConfig, QwenIgnoresItsWindowUnlessItIsSwitchedOn) {
    std::string config = kQwen3;
    config.insert(1, R"("sliding_window": 4096, "use_sliding_window": false, )");
    EXPECT_TRUE(parseModelConfig(config, "config.json").arch.windows.empty());
    config = kQwen3;
    config.insert(
        1, R"("sliding_window": 4096, "use_sliding_window": true, "max_window_layers": 26, )");
    const ModelConfig c = parseModelConfig(config, "config.json");
    EXPECT_EQ(c.arch.windowOf(25), 0);
    EXPECT_EQ(c.arch.windowOf(26), 4096);
}

// The value of fact `key`, or a failure naming the key when there is none.
FactValue factOf(const Facts& facts, const std::string& key) {
    const Fact* f = findFact(facts, key);
    EXPECT_NE(f, nullptr) << key;
    return f ? f->value : FactValue();
}

// What a trace's config and the `model` JSON say about an architecture is read from it: the
// query width beside d_model, the biases, the norm and feed-forward, the layer's own RoPE and
// window, and Gemma's query_pre_attn_scalar as its config gave it (24 is not head_dim and has
// no exact square root).
TEST(ModelConfig, ArchitectureFactsSayWhatTheConfigSays) {
    const Facts qwen3 = architectureFacts(parseModelConfig(kQwen3, "config.json").arch, 0);
    EXPECT_EQ(factOf(qwen3, "family"), FactValue(std::string("qwen3")));
    EXPECT_EQ(factOf(qwen3, "d_model"), FactValue(int64_t{1024}));
    EXPECT_EQ(factOf(qwen3, "heads"), FactValue(int64_t{16}));
    EXPECT_EQ(factOf(qwen3, "kv_heads"), FactValue(int64_t{8}));
    EXPECT_EQ(factOf(qwen3, "head_dim"), FactValue(int64_t{128}));
    EXPECT_EQ(factOf(qwen3, "query_width"), FactValue(int64_t{2048}));  // wider than d_model
    EXPECT_EQ(factOf(qwen3, "qk_norm"), FactValue(true));
    EXPECT_EQ(factOf(qwen3, "qkv_bias"), FactValue(false));
    EXPECT_EQ(factOf(qwen3, "norm"), FactValue(std::string("rms_norm")));
    EXPECT_EQ(factOf(qwen3, "norm_eps"), FactValue(1e-6));
    EXPECT_EQ(factOf(qwen3, "feed_forward"), FactValue(std::string("swiglu")));
    EXPECT_EQ(factOf(qwen3, "ff_hidden"), FactValue(int64_t{3072}));
    EXPECT_EQ(factOf(qwen3, "positions"), FactValue(std::string("rope")));
    EXPECT_EQ(factOf(qwen3, "rope_base"), FactValue(1e6));
    EXPECT_EQ(factOf(qwen3, "query_scale"), FactValue(1.0 / std::sqrt(128.0)));
    EXPECT_EQ(findFact(qwen3, "query_pre_attn_scalar"), nullptr);
    EXPECT_EQ(factOf(qwen3, "window"), FactValue(int64_t{0}));
    EXPECT_EQ(factOf(qwen3, "context_length"), FactValue(int64_t{40960}));
    EXPECT_EQ(factOf(qwen3, "vocab"), FactValue(int64_t{151936}));
    EXPECT_EQ(factOf(qwen3, "tied_head"), FactValue(true));

    std::string qwen2 = kQwen3;
    qwen2.replace(qwen2.find("qwen3"), 5, "qwen2");
    const Facts q2 = architectureFacts(parseModelConfig(qwen2, "config.json").arch);
    EXPECT_EQ(factOf(q2, "qkv_bias"), FactValue(true));
    EXPECT_EQ(factOf(q2, "qk_norm"), FactValue(false));
    EXPECT_EQ(findFact(q2, "window"), nullptr);  // the model as a whole: no layer's window

    const DecoderArchitecture gemma =
        parseModelConfig(
            R"({"model_type": "gemma3_text", "hidden_size": 640, "num_hidden_layers": 7,
            "num_attention_heads": 4, "num_key_value_heads": 1, "head_dim": 256,
            "intermediate_size": 2048, "vocab_size": 262144, "max_position_embeddings": 32768,
            "query_pre_attn_scalar": 24, "sliding_window": 512, "rope_local_base_freq": 10000,
            "rope_theta": 1000000, "rms_norm_eps": 1e-06})",
            "config.json")
            .arch;
    const Facts sliding = architectureFacts(gemma, 0), full = architectureFacts(gemma, 5);
    EXPECT_EQ(factOf(sliding, "query_pre_attn_scalar"), FactValue(24.0));
    EXPECT_EQ(factOf(sliding, "query_scale"), FactValue(1.0 / std::sqrt(24.0)));
    EXPECT_EQ(factOf(sliding, "window"), FactValue(int64_t{512}));
    EXPECT_EQ(factOf(sliding, "rope_base"), FactValue(10000.0));  // the sliding layers' own
    EXPECT_EQ(factOf(full, "window"), FactValue(int64_t{0}));
    EXPECT_EQ(factOf(full, "rope_base"), FactValue(1e6));
    EXPECT_EQ(factOf(full, "windows"),
              FactValue(std::vector<int64_t>{512, 512, 512, 512, 512, 0, 512}));
    EXPECT_EQ(factOf(full, "norm"), FactValue(std::string("rms_norm_one_plus")));
    EXPECT_EQ(factOf(full, "feed_forward"), FactValue(std::string("geglu")));
    EXPECT_EQ(factOf(full, "sandwich_norms"), FactValue(true));
    EXPECT_EQ(factOf(full, "embedding_scale"), FactValue(std::sqrt(640.0)));

    const DecoderArchitecture llama =
        parseModelConfig(
            R"({"model_type": "llama", "hidden_size": 2048, "num_hidden_layers": 16,
           "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 8192,
           "vocab_size": 128256, "max_position_embeddings": 131072, "rms_norm_eps": 1e-05,
           "rope_theta": 500000.0, "rope_scaling": {"factor": 32.0, "high_freq_factor": 4.0,
               "low_freq_factor": 1.0, "original_max_position_embeddings": 8192,
               "rope_type": "llama3"}})",
            "config.json")
            .arch;
    const Facts l = architectureFacts(llama, 3);
    EXPECT_EQ(factOf(l, "rope_scaling"), FactValue(std::string("llama3")));
    EXPECT_EQ(factOf(l, "rope_factor"), FactValue(32.0));
    EXPECT_EQ(factOf(l, "rope_original_context"), FactValue(8192.0));
    EXPECT_EQ(factOf(l, "tied_head"), FactValue(false));

    const Facts gpt2 =
        architectureFacts(gpt2Architecture(12, 768, 12, 50257, 1024, 3072, true, true), 0);
    EXPECT_EQ(factOf(gpt2, "positions"), FactValue(std::string("learned")));
    EXPECT_EQ(findFact(gpt2, "rope_base"), nullptr);
    EXPECT_EQ(factOf(gpt2, "norm"), FactValue(std::string("layer_norm")));
    EXPECT_EQ(factOf(gpt2, "feed_forward"), FactValue(std::string("gelu_mlp")));
    EXPECT_EQ(factOf(gpt2, "head_groups"),
              FactValue(std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));

    // One fact per key, whatever the family and layer.
    for (const Facts* facts : {&qwen3, &q2, &sliding, &full, &l, &gpt2})
        for (size_t i = 0; i < facts->size(); ++i)
            for (size_t j = i + 1; j < facts->size(); ++j)
                EXPECT_NE((*facts)[i].key, (*facts)[j].key);
}

// The key `key` of kQwen3 replaced by `value` (or removed when empty).
std::string qwen3With(const std::string& key, const std::string& value) {
    std::string s = kQwen3;
    const size_t at = s.find("\"" + key + "\"");
    const size_t end = s.find_first_of(",}", at);
    const std::string entry = value.empty() ? "" : "\"" + key + "\": " + value;
    if (value.empty())
        s.erase(at, end + (s[end] == ',' ? 1 : 0) - at);
    else
        s.replace(at, end - at, entry);
    return s;
}

TEST(ModelConfigErrors, NameTheKeyAndWhatWouldBeRight) {
    auto refused = [](const std::string& json, const std::string& message) {
        expectError([&] { parseModelConfig(json, "config.json"); }, "model",
                    "config.json: " + message);
    };
    refused(qwen3With("model_type", "\"mamba\""),
            "\"model_type\" = \"mamba\" is not a model this program reads; it reads gpt2, llama, "
            "qwen2, qwen3, gemma3_text and gemma3");
    refused(qwen3With("model_type", ""),
            "it has no \"model_type\"; a Hugging Face config names its architecture there (this "
            "program reads gpt2, llama, qwen2, qwen3, gemma3_text and gemma3)");
    refused(qwen3With("hidden_size", ""), "it has no \"hidden_size\", which this model type needs");
    refused(qwen3With("num_hidden_layers", "100000"),
            "\"num_hidden_layers\" = 100000 is not a size this model can have: it must be a "
            "whole number from 1 to 1024");
    refused(qwen3With("num_key_value_heads", "3"),
            "\"num_key_value_heads\" = 3 does not divide \"num_attention_heads\" = 16: each "
            "key/value head serves the same number of query heads");
    refused(qwen3With("head_dim", "127"),
            "\"head_dim\" = 127 is odd; RoPE turns pairs of numbers, so a head needs an even "
            "size");
    refused(qwen3With("vocab_size", "\"big\""), "\"vocab_size\" is a string; it must be a number");
    refused(qwen3With("rms_norm_eps", "-1"),
            "\"rms_norm_eps\" = -1 is out of range: it must be above 0 and at most 0.1");
    refused(qwen3With("rope_theta", "1e6, \"rope_scaling\": {\"rope_type\": \"yarn\"}"),
            "\"rope_scaling.rope_type\" = \"yarn\" is a RoPE scaling this program does not "
            "compute; it knows default, llama3 and linear");
    refused(qwen3With("tie_word_embeddings", "true, \"attention_bias\": true"),
            "\"attention_bias\" is true, but a qwen3 model has no attention biases");
    refused("[1, 2]", "a config.json holds one object, not an array");
}

std::string fixture(const std::string& name) {
    return (fs::path(ATTN_FIXTURES_DIR) / "families" / name).string();
}

TEST(ModelFolderErrors, NameTheFileOrTensor) {
    test::TempDir dir;
    const fs::path folder = fs::path(dir.path()) / "Llama";
    fs::copy(fixture("llama_bf16_sharded"), folder);
    const std::string name = "Llama";
    // A shard the index names is gone.
    fs::rename(folder / "model-00002-of-00002.safetensors", folder / "moved.safetensors");
    expectError([&] { loadDecoderModel(folder.string()); }, "model",
                name +
                    ": the shard model-00002-of-00002.safetensors that "
                    "model.safetensors.index.json names (for "
                    "model.layers.1.input_layernorm.weight, among others) is not in the "
                    "folder");
    // A shard shorter than its header says.
    const std::string bytes = readFileBytes((folder / "moved.safetensors").string());
    test::writeRaw((folder / "model-00002-of-00002.safetensors").string(),
                   bytes.substr(0, bytes.size() - 10));
    try {
        loadDecoderModel(folder.string());
        FAIL() << "a cut shard was read";
    } catch (const UserError& e) {
        EXPECT_EQ(e.field(), "model");
        EXPECT_EQ(std::string(e.what()).rfind("model-00002-of-00002.safetensors: ", 0), 0u)
            << e.what();
    }
    // No weights at all.
    fs::remove(folder / "model.safetensors.index.json");
    expectError([&] { loadDecoderModel(folder.string()); }, "model",
                name +
                    ": the folder has neither model.safetensors nor "
                    "model.safetensors.index.json with its shards");
}

TEST(ModelFolderErrors, ATensorTheConfigNeedsIsMissingOrMisshaped) {
    test::TempDir dir;
    const fs::path folder = fs::path(dir.path()) / "Qwen";
    fs::copy(fixture("qwen3"), folder);
    // The config says 8 key/value heads where the weights have 2.
    std::string config = readFileBytes((folder / "config.json").string());
    const size_t at = config.find("\"num_key_value_heads\": 2");
    ASSERT_NE(at, std::string::npos);
    config.replace(at, 24, "\"num_key_value_heads\": 4");
    test::writeRaw((folder / "config.json").string(), config);
    expectError([&] { loadDecoderModel(folder.string()); }, "model",
                "Qwen: model.layers.0.self_attn.k_proj.weight has shape (32, 32) but its config "
                "(hidden_size 32, 4 query and 4 key/value heads of 16, intermediate_size 64, "
                "vocab_size 300) needs (64, 32) = (num_key_value_heads * head_dim, hidden_size)");
    // A config of another family for these weights.
    config.replace(config.find("\"qwen3\""), 7, "\"llama\"");
    config.replace(config.find("\"num_key_value_heads\": 4"), 24, "\"num_key_value_heads\": 2");
    test::writeRaw((folder / "config.json").string(), config);
    expectError([&] { loadDecoderModel(folder.string()); }, "model",
                "Qwen: it holds model.layers.0.self_attn.k_norm.weight (shape (16,)), which a "
                "llama model of 2 layers does not have (is the config.json this model's?)");
}

}  // namespace
}  // namespace attn::io

namespace attn::io {
namespace {

// A 16-bit weight read in place is checked like a converted one: the value and where it is.
TEST(ModelFolderErrors, ANonFiniteWeightIsNamedWithItsIndex) {
    test::TempDir dir;
    const fs::path folder = fs::path(dir.path()) / "Qwen";
    fs::copy(fixture("qwen3_bf16"), folder);
    const std::string file = (folder / "model.safetensors").string();
    std::string bytes = readFileBytes(file);
    const SafetensorsHeader header = parseSafetensorsHeader(bytes, "model.safetensors");
    const auto it = std::find_if(header.entries.begin(), header.entries.end(), [](const auto& e) {
        return e.name == "model.layers.1.mlp.up_proj.weight";
    });
    ASSERT_NE(it, header.entries.end());
    ASSERT_EQ(it->dtype, "BF16");
    // Element (2, 3) of (64, 32) becomes +inf (bfloat16 0x7F80).
    const size_t at = header.dataStart + it->begin + 2 * (2 * 32 + 3);
    bytes[at] = '\x80';
    bytes[at + 1] = '\x7F';
    test::writeRaw(file, bytes);
    expectError([&] { loadDecoderModel(folder.string()); }, "model",
                "Qwen: model.layers.1.mlp.up_proj.weight holds inf at index (2, 3); a model's "
                "weights are finite numbers (the file is corrupt, or was saved from a training "
                "run that diverged)");
}

// The app asks for a config.json when the error is under "config", so only a family's weights
// given without one may be reported there.
TEST(ModelFolderErrors, AFamilysWeightsWithoutTheirConfigAreUnderConfig) {
    const std::string weights = (fs::path(fixture("llama")) / "model.safetensors").string();
    expectError([&] { loadDecoderModel(weights); }, "config",
                "model.safetensors: it holds model.embed_tokens.weight, the weights of a Llama, "
                "Qwen or Gemma model, which need their config.json: give the model's folder, or "
                "its config.json with --config");
    ModelLoadOptions o;
    o.configPath = (fs::path(fixture("llama")) / "config.json").string();
    EXPECT_EQ(loadDecoderModel(weights, o)->arch.family, Family::Llama);
    // A file that is no model at all stays the model's problem.
    test::TempDir dir;
    const std::string other = (fs::path(dir.path()) / "other.safetensors").string();
    writeSafetensors(other, {{"w", Tensor({2, 2})}});
    expectError([&] { loadDecoderModel(other); }, "model",
                "other.safetensors: it is not a GPT-2 model: it has neither wte.weight (Hugging "
                "Face GPT-2) nor tok_emb.weight (the book's GPTModel); it holds w.");
}

TEST(ModelContentSha256, AFolderHashesItsModelFilesByNameAndNoticesAChange) {
    test::TempDir dir;
    const fs::path folder = fs::path(dir.path()) / "qwen3";
    fs::copy(fixture("qwen3"), folder);
    const std::string first = modelContentSha256(folder.string());
    ASSERT_EQ(first.size(), 64u);
    // A file a model is not read from changes nothing.
    test::writeRaw((folder / "README.md").string(), "notes");
    EXPECT_EQ(modelContentSha256(folder.string()), first);
    // What the folder's hash is: each model file's name, a NUL and its bytes, by name.
    std::string joined;
    for (const char* name : {"config.json", "model.safetensors", "tokenizer.json"})
        joined += std::string(name) + '\0' + readFileBytes((folder / name).string());
    test::writeRaw((fs::path(dir.path()) / "joined").string(), joined);
    EXPECT_EQ(first, fileSha256((fs::path(dir.path()) / "joined").string()));
    // A changed tokenizer (or config, or weights) is a changed model.
    test::writeRaw((folder / "tokenizer.json").string(),
                   readFileBytes((folder / "tokenizer.json").string()) + " ");
    EXPECT_NE(modelContentSha256(folder.string()), first);
    // A file is its bytes; nothing readable is an empty hash.
    EXPECT_EQ(modelContentSha256((folder / "config.json").string()),
              fileSha256((folder / "config.json").string()));
    EXPECT_EQ(modelContentSha256((folder / "missing").string()), "");
    CancelToken cancel;
    cancel.cancel();
    EXPECT_THROW(modelContentSha256(folder.string(), &cancel), Cancelled);
}

// Gemma 3's published tokenizer adds <image_soft_token> as id 262,144, one past the text-only
// 270M's 262,144 embeddings: the folder opens (only that token, typed literally, would reach
// past them, and the text's check names it). A tokenizer whose own BPE vocabulary is larger
// than the model's is still another model's.
TEST(ModelFolderErrors, AnAddedTokenBeyondTheModelIsAllowedABiggerVocabularyIsNot) {
    test::TempDir dir;
    const fs::path folder = fs::path(dir.path()) / "gemma";
    fs::copy(fixture("gemma3"), folder);
    const std::string json = readFileBytes((folder / "tokenizer.json").string());
    const std::string added = "{\"id\": 3, \"content\": \"<unk>\"";
    const size_t at = json.find(added);
    ASSERT_NE(at, std::string::npos);
    // One more added token, id 300, in a model of 300 ids (0 to 299).
    std::string withImage = json;
    withImage.insert(at,
                     "{\"id\": 300, \"content\": \"<image_soft_token>\", \"single_word\": false, "
                     "\"lstrip\": false, \"rstrip\": false, \"normalized\": false, "
                     "\"special\": true}, ");
    test::writeRaw((folder / "tokenizer.json").string(), withImage);
    const auto model = loadDecoderModel(folder.string());
    ASSERT_NE(model->tokenizer, nullptr);
    EXPECT_EQ(model->tokenizer->vocabSize(), 301);
    EXPECT_EQ(model->tokenizer->modelVocabSize(), 299);
    // A BPE vocabulary entry with id 300 is beyond the model.
    std::string bigger = json;
    const size_t vocab = bigger.find("\"vocab\": {");
    ASSERT_NE(vocab, std::string::npos);
    bigger.insert(vocab + std::string("\"vocab\": {").size(), "\"zzzz\": 300, ");
    test::writeRaw((folder / "tokenizer.json").string(), bigger);
    expectError([&] { loadDecoderModel(folder.string()); }, "tokenizer",
                "gemma: its tokenizer.json has ids up to 300, beyond the model's vocabulary of "
                "300 (is it this model's tokenizer?)");
}

}  // namespace
}  // namespace attn::io
