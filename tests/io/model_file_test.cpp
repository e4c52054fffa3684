// io::loadDecoderModel on files built here: what it reads from the shapes, how heads are resolved,
// weights used in place, progress and cancel, and every refusal by its exact message.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "engine/decoder_forward.h"
#include "io/file_io.h"
#include "io/model_file.h"
#include "io/safetensors.h"
#include "io_test_util.h"
#include "model_test_util.h"

namespace attn::io {
namespace {

using test::appendLe;
using test::expectError;

ModelLoadOptions withHeads(std::optional<int64_t> heads) {
    ModelLoadOptions o;
    o.heads = heads;
    return o;
}

TEST(ModelFile, ReadsTheArchitectureFromTheShapes) {
    const WeightMap w = test::hfWeights({});
    const auto m = loadDecoderModel(sharedBytes(safetensorsBytes(w, {{"heads", "2"}})), "m.st");
    EXPECT_EQ(m->arch.layers, 2);
    EXPECT_EQ(m->arch.dModel, 8);
    EXPECT_EQ(m->arch.heads, 2);
    EXPECT_EQ(m->arch.vocab, 20);
    EXPECT_EQ(m->arch.contextLength, 6);
    EXPECT_EQ(m->arch.ffHidden, 32);
    EXPECT_TRUE(m->arch.qkvBias);
    EXPECT_TRUE(m->arch.tiedHead);
    EXPECT_EQ(m->names, WeightNames::HuggingFace);
    EXPECT_EQ(m->headsSource, HeadsSource::Metadata);
    EXPECT_EQ(m->dtype, "F32");
    EXPECT_EQ(m->parameterCount(),
              20 * 8 + 6 * 8 + 2 * (4 * 8 + 8 * 24 + 24 + 64 + 8 + 8 * 32 + 32 + 32 * 8 + 8) + 16);

    test::HfOptions o;
    o.qkvBias = false;
    o.lmHead = true;
    o.ff = 20;
    const auto m2 =
        loadDecoderModel(sharedBytes(safetensorsBytes(test::hfWeights(o))), "m.st", withHeads(4));
    EXPECT_FALSE(m2->arch.qkvBias);
    EXPECT_FALSE(m2->arch.tiedHead);
    EXPECT_EQ(m2->arch.ffHidden, 20);
    EXPECT_EQ(m2->arch.heads, 4);
    EXPECT_EQ(m2->headsSource, HeadsSource::Request);
}

TEST(ModelFile, HeadsComeFromTheRequestTheMetadataOrDModelOver64) {
    test::HfOptions o;
    o.d = 128;
    const WeightMap w = test::hfWeights(o);
    auto heads = [&](const std::map<std::string, std::string>& meta, std::optional<int64_t> h) {
        const auto m = loadDecoderModel(sharedBytes(safetensorsBytes(w, meta)), "m", withHeads(h));
        return std::pair{m->arch.heads, m->headsSource};
    };
    EXPECT_EQ(heads({}, std::nullopt), std::pair(int64_t(2), HeadsSource::Default));
    EXPECT_EQ(heads({{"n_head", "8"}}, std::nullopt), std::pair(int64_t(8), HeadsSource::Metadata));
    EXPECT_EQ(heads({{"heads", "4"}, {"n_head", "8"}}, std::nullopt),
              std::pair(int64_t(4), HeadsSource::Metadata));
    EXPECT_EQ(heads({{"heads", "4"}}, 16), std::pair(int64_t(16), HeadsSource::Request));

    expectError([&] { heads({}, 3); }, "heads",
                "m: d_model = 128 cannot be split into 3 heads of equal size. Valid head counts: "
                "1, 2, 4, 8, 16, 32, 64, 128.");
    expectError(
        [&] {
            heads({{"heads", "four"}}, std::nullopt);
        },
        "model",
        "m: its metadata says heads = \"four\", which is not a head count (a whole "
        "number from 1)");
    expectError(
        [&] {
            heads({{"n_head", "0"}}, std::nullopt);
        },
        "model",
        "m: its metadata says n_head = \"0\", which is not a head count (a whole number "
        "from 1)");
    expectError(
        [&] { loadDecoderModel(sharedBytes(safetensorsBytes(test::hfWeights({}))), "m"); }, "model",
        "m: the file does not say how many attention heads the model has, and d_model = 8 is "
        "not a multiple of 64 (GPT-2's head size) to derive it from; give the head count "
        "(--heads). Valid head counts: 1, 2, 4, 8.");
}

TEST(ModelFile, AlignedFloat32WeightsAreUsedInPlace) {
    const std::string bytes = safetensorsBytes(test::hfWeights({}), {{"heads", "2"}});
    SharedBytes shared = sharedBytes(bytes);
    const char* begin = shared.bytes.data();
    const char* end = begin + shared.bytes.size();
    std::shared_ptr<const DecoderModel> m = loadDecoderModel(shared, "m");
    auto inside = [&](const Tensor& t) {
        const char* p = reinterpret_cast<const char*>(t.data());
        return p >= begin && p < end;
    };
    EXPECT_TRUE(inside(m->tokenEmbedding));
    EXPECT_TRUE(inside(m->blocks[1].ffOut.weight));
    EXPECT_TRUE(inside(m->blocks[0].value.weight));  // a column slice of c_attn
    EXPECT_EQ(m->blocks[0].value.rowStride(), 24);
    shared = {};  // the model keeps the bytes alive
    DecoderRequest r;
    r.model = m;
    r.ids = {1, 2, 3};
    EXPECT_EQ(runDecoder(r)->attention.shape(), (Shape{2, 2, 3, 3}));

    // F32 data off the 4-byte grid (after an odd-sized BOOL buffer) is copied instead.
    WeightMap odd = test::hfWeights({});
    const std::string header =
        "{\"__metadata__\":{\"heads\":\"2\"},\"h.0.attn.bias\":{\"dtype\":\"BOOL\",\"shape\":[1],"
        "\"data_offsets\":[0,1]},";
    std::string data = "\x01";
    std::string entries;
    for (const auto& [name, t] : odd) {
        const uint64_t at = data.size();
        data.append(reinterpret_cast<const char*>(t.data()), size_t(t.numel()) * 4);
        if (!entries.empty())
            entries += ",";
        entries += "\"" + name + "\":{\"dtype\":\"F32\",\"shape\":";
        entries += test::jsonShape(t.shape());
        entries +=
            ",\"data_offsets\":[" + std::to_string(at) + "," + std::to_string(data.size()) + "]}";
    }
    std::string text = header + entries + "}";
    text.append((8 - text.size() % 8) % 8, ' ');
    std::string file;
    appendLe<uint64_t>(file, text.size());
    file += text + data;
    const SharedBytes unaligned = sharedBytes(file);
    const auto copied = loadDecoderModel(unaligned, "odd");
    const char* p = reinterpret_cast<const char*>(copied->tokenEmbedding.data());
    EXPECT_FALSE(p >= unaligned.bytes.data() && p < unaligned.bytes.data() + file.size());
    EXPECT_EQ(copied->tokenEmbedding.toVector(), odd.at("wte.weight").toVector());
}

TEST(ModelFile, ReportsProgressPerBlockAndStopsWhenCancelled) {
    const std::string bytes = safetensorsBytes(test::hfWeights({}), {{"heads", "2"}});
    std::vector<std::string> seen;
    ModelLoadOptions o;
    o.progress = [&](int done, int total, const std::string& what) {
        seen.push_back(std::to_string(done) + "/" + std::to_string(total) + " " + what);
    };
    loadDecoderModel(sharedBytes(bytes), "m", o);
    EXPECT_EQ(seen, (std::vector<std::string>{"1/4 embeddings", "2/4 block 0", "3/4 block 1",
                                              "4/4 final norm"}));
    CancelToken token;
    o.cancel = &token;
    o.progress = [&](int done, int, const std::string&) {
        if (done == 2)
            token.cancel();
    };
    EXPECT_THROW(loadDecoderModel(sharedBytes(bytes), "m", o), Cancelled);
}

TEST(ModelFile, IgnoresTheBuffersAStateDictHolds) {
    WeightMap w = test::hfWeights({});
    w["h.0.attn.bias"] = Tensor(Shape{1, 1, 6, 6});
    w["h.1.attn.masked_bias"] = Tensor(Shape{}, {-1e4f});
    std::map<std::string, Tensor> prefixed;
    for (const auto& [name, t] : w)
        prefixed["transformer." + name] = t;
    const auto m = loadDecoderModel(sharedBytes(safetensorsBytes(prefixed)), "m", withHeads(2));
    EXPECT_EQ(m->arch.layers, 2);

    const auto book =
        loadDecoderModel(sharedBytes(safetensorsBytes(test::bookWeights())), "b", withHeads(2));
    EXPECT_EQ(book->names, WeightNames::Book);
    EXPECT_FALSE(book->arch.qkvBias);
    EXPECT_FALSE(book->arch.tiedHead);
    EXPECT_FALSE(book->blocks[0].query.inputMajor);
}

// Every way a file can fail to be a model, by its message.
TEST(ModelFileErrors, NamesTheTensorAndWhatWasExpected) {
    const std::string sizes =
        " (d_model = 8 and vocabulary = 20 come from wte.weight, context length 6 from "
        "wpe.weight, ff_hidden = 32 from h.0.mlp.c_fc.weight)";
    auto load = [](const WeightMap& w) {
        loadDecoderModel(sharedBytes(safetensorsBytes(w, {{"heads", "2"}})), "m.safetensors");
    };
    WeightMap w = test::hfWeights({});
    w.erase("h.1.ln_2.bias");
    expectError([&] { load(w); }, "model",
                "m.safetensors: it has no h.1.ln_2.bias (shape (8,) = (d_model,)), which a "
                "Hugging Face GPT-2 state_dict of this size needs" +
                    sizes);

    w = test::hfWeights({});
    w["h.1.attn.c_attn.weight"] = Tensor(Shape{8, 23});
    expectError([&] { load(w); }, "model",
                "m.safetensors: h.1.attn.c_attn.weight has shape (8, 23) but this model needs "
                "(8, 24) = (d_model, 3 * d_model)" +
                    sizes);

    w = test::hfWeights({});
    w["h.0.attn.c_attn.bias"] = Tensor(Shape{24});
    w.erase("h.1.attn.c_attn.bias");  // block 0 has q/k/v biases, so every block needs them
    expectError([&] { load(w); }, "model",
                "m.safetensors: it has no h.1.attn.c_attn.bias (shape (24,) = (3 * d_model,)), "
                "which a Hugging Face GPT-2 state_dict of this size needs" +
                    sizes);

    w = test::hfWeights({});
    w["h.0.mlp.c_fc.weight2"] = Tensor(Shape{2});
    expectError([&] { load(w); }, "model",
                "m.safetensors: it holds h.0.mlp.c_fc.weight2 (shape (2,)), which a Hugging Face "
                "GPT-2 state_dict does not have; a Hugging Face GPT-2 state_dict has only "
                "wte.weight, wpe.weight, h.N.{ln_1.weight, ln_1.bias, attn.c_attn.weight, "
                "attn.c_attn.bias, attn.c_proj.weight, attn.c_proj.bias, ln_2.weight, ln_2.bias, "
                "mlp.c_fc.weight, mlp.c_fc.bias, mlp.c_proj.weight, mlp.c_proj.bias} for N = "
                "0..1, ln_f.weight, ln_f.bias and lm_head.weight. Is it a GPT-2 model?");

    w = test::hfWeights({});
    w["h.3.ln_1.weight"] = Tensor(Shape{8});  // blocks 2 and 3 would be needed
    expectError([&] { load(w); }, "model",
                "m.safetensors: it has no h.2.ln_1.weight (shape (8,) = (d_model,)), which a "
                "Hugging Face GPT-2 state_dict of this size needs" +
                    sizes);

    w = test::hfWeights({});
    w["h.1.mlp.c_fc.weight"].mutableData()[3 * 32 + 5] = std::numeric_limits<float>::quiet_NaN();
    expectError([&] { load(w); }, "model",
                "m.safetensors: h.1.mlp.c_fc.weight holds nan at index (3, 5); a model's weights "
                "are finite numbers (the file is corrupt, or was saved from a training run that "
                "diverged)");
    w = test::hfWeights({});
    w["ln_f.bias"].mutableData()[7] = -std::numeric_limits<float>::infinity();
    expectError([&] { load(w); }, "model",
                "m.safetensors: ln_f.bias holds -inf at index (7,); a model's weights are finite "
                "numbers (the file is corrupt, or was saved from a training run that diverged)");

    w = test::hfWeights({});
    w.erase("wte.weight");
    expectError([&] { load(w); }, "model",
                "m.safetensors: it is not a GPT-2 model: it has neither wte.weight (Hugging Face "
                "GPT-2) nor tok_emb.weight (the book's GPTModel); it holds h.0.attn.c_attn.bias, "
                "h.0.attn.c_attn.weight, h.0.attn.c_proj.bias, ....");
    expectError([&] { load({}); }, "model",
                "m.safetensors: it is not a GPT-2 model: it has neither wte.weight (Hugging Face "
                "GPT-2) nor tok_emb.weight (the book's GPTModel) and holds no tensors at all.");
    w = test::hfWeights({});
    w["tok_emb.weight"] = Tensor(Shape{20, 8});
    expectError([&] { load(w); }, "model",
                "m.safetensors: it holds both wte.weight (Hugging Face GPT-2) and tok_emb.weight "
                "(the book's GPTModel); a model file holds one model");
    w = test::hfWeights({});
    w["transformer.wpe.weight"] = w.at("wpe.weight");
    expectError([&] { load(w); }, "model",
                "m.safetensors: it holds wpe.weight twice (with and without the \"transformer.\" "
                "prefix); a state_dict names each tensor once");
    w = test::hfWeights({});
    w["wpe.weight"] = Tensor(Shape{6 * 8});
    expectError([&] { load(w); }, "model",
                "m.safetensors: wpe.weight has shape (48,) but must be (context_length, d_model)");
    w = test::hfWeights({});
    for (int l = 0; l < 2; ++l)
        for (const char* n :
             {"ln_1.weight", "ln_1.bias", "attn.c_attn.weight", "attn.c_attn.bias",
              "attn.c_proj.weight", "attn.c_proj.bias", "ln_2.weight", "ln_2.bias",
              "mlp.c_fc.weight", "mlp.c_fc.bias", "mlp.c_proj.weight", "mlp.c_proj.bias"})
            w.erase("h." + std::to_string(l) + "." + n);
    expectError([&] { load(w); }, "model",
                "m.safetensors: it has no transformer blocks: no h.0.* tensors");

    const WeightMap book = test::bookWeights();
    WeightMap b = book;
    b.erase("trf_blocks.0.ff.layers.0.weight");
    expectError([&] { loadDecoderModel(sharedBytes(safetensorsBytes(b)), "b.st", withHeads(2)); },
                "model",
                "b.st: it has no trf_blocks.0.ff.layers.0.weight (shape (ff_hidden, d_model)), "
                "which the book's GPTModel state_dict needs");
}

TEST(ModelFileErrors, RefusesWeightsThatAreNotFloats) {
    // ln_1.weight as I64 (8 bytes each): a weight must be F32, F16 or BF16.
    WeightMap w = test::hfWeights({});
    w.erase("h.0.ln_1.weight");
    std::string bytes = safetensorsBytes(w, {{"heads", "2"}});
    const uint64_t headerLength = test::loadU64(bytes);
    std::string header = bytes.substr(8, headerLength);
    std::string data = bytes.substr(8 + headerLength);
    const uint64_t at = data.size();
    for (int i = 0; i < 8; ++i)
        appendLe<int64_t>(data, 1);
    while (header.back() == ' ')
        header.pop_back();
    header.pop_back();  // the closing brace
    header += ",\"h.0.ln_1.weight\":{\"dtype\":\"I64\",\"shape\":[8],\"data_offsets\":[" +
              std::to_string(at) + "," + std::to_string(data.size()) + "]}}";
    std::string file;
    appendLe<uint64_t>(file, header.size());
    file += header + data;
    expectError([&] { loadDecoderModel(sharedBytes(file), "m.safetensors"); }, "model",
                "m.safetensors: h.0.ln_1.weight has dtype I64; a model's weights must be F32, F16 "
                "or BF16 (float32, float16 or bfloat16)");
}

TEST(ModelFileErrors, RefusesWhatIsNotAModelFile) {
    test::TempDir dir;
    expectError([&] { loadDecoderModel(dir.file("none.safetensors")); }, "model",
                "Cannot read " + dir.file("none.safetensors") + ": the file does not exist");
    expectError([&] { loadDecoderModel(dir.path()); }, "model",
                fileDisplayName(dir.path()) +
                    ": the folder has no config.json; a Hugging Face model folder holds "
                    "config.json, model.safetensors (or model.safetensors.index.json and its "
                    "shards) and tokenizer.json");
    test::writeRaw(dir.file("empty.pth"), "");
    expectError([&] { loadDecoderModel(dir.file("empty.pth")); }, "model",
                "empty.pth: the file is empty");
    test::writeRaw(dir.file("notes.bin"), "hello, this is text and not a model");
    expectError([&] { loadDecoderModel(dir.file("notes.bin")); }, "model",
                "notes.bin: this is neither a .safetensors file nor a PyTorch file written by "
                "torch.save; a model comes as model.safetensors, pytorch_model.bin or a "
                ".pth saved with torch.save(model.state_dict(), path)");
    const std::string good = safetensorsBytes(test::hfWeights({}), {{"heads", "2"}});
    test::writeRaw(dir.file("cut.safetensors"), good.substr(0, good.size() - 4));
    const uint64_t dataSize = good.size() - 8 - test::loadU64(good) - 4;
    expectError([&] { loadDecoderModel(dir.file("cut.safetensors")); }, "model",
                "cut.safetensors: wte.weight: data_offsets [" +
                    std::to_string(dataSize - 20 * 8 * 4 + 4) + ", " +
                    std::to_string(dataSize + 4) + "] reach past the end of the data (" +
                    std::to_string(dataSize) + " bytes); the file is truncated or corrupt");
}

}  // namespace
}  // namespace attn::io
