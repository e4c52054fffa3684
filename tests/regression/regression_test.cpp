// Fuzzer findings (fuzz/README.md), replayed with the normal build. Each input file is
// inputs/<fuzz target>-<n>; ReplayAll runs every file through its target's checks (only
// attn::UserError may escape, round trips hold), and the named tests below state what each
// bug was and what correct behaviour looks like. Under the asan preset the replays also catch
// the sanitizer reports the fuzzers saw.

#include <gtest/gtest.h>

#include <QCommandLineParser>
#include <QStringList>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "pipeline/options.h"
#include "pipeline/request.h"
#include "engine/config.h"
#include "engine/tensor.h"
#include "engine/trace.h"
#include "engine/weight_check.h"
#include "io/csv.h"
#include "io/json_tensor.h"
#include "io/loaders.h"
#include "io/npy.h"
#include "io/safetensors.h"
#include "tokenizer/tokenizer.h"

namespace fs = std::filesystem;
using namespace attn;

namespace {

std::string readInput(const std::string& name) {
    const fs::path p = fs::path(ATTN_REGRESSION_INPUTS) / name;
    std::ifstream f(p, std::ios::binary);
    EXPECT_TRUE(f.good()) << "missing regression input " << p;
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

// Runs f; true when it returned, false on UserError; any other exception fails the test.
bool onlyUserError(const std::function<void()>& f, const std::string& what) {
    try {
        f();
        return true;
    } catch (const UserError&) {
        return false;
    } catch (const std::exception& e) {
        ADD_FAILURE() << what << " threw " << typeid(e).name() << ": " << e.what();
    } catch (...) {
        ADD_FAILURE() << what << " threw a non-std exception";
    }
    return false;
}

// Strides are exactly the row-major products of the trailing sizes; a tensor whose strides or
// element count do not fit in int64_t (they wrapped around) is a failure.
void expectExactStrides(const Tensor& t) {
    const Shape& shape = t.shape();
    // shapeNumel multiplies left to right: every partial product must fit too.
    int64_t n = 1;
    for (int64_t d : shape)
        if (__builtin_mul_overflow(n, d, &n)) {
            ADD_FAILURE() << "the element count of " << shapeToString(shape)
                          << " overflows int64_t";
            return;
        }
    int64_t s = 1;
    bool overflowed = false;
    for (size_t i = shape.size(); i-- > 0;) {
        if (overflowed) {
            ADD_FAILURE() << "stride " << i << " of " << shapeToString(shape)
                          << " does not fit in int64_t (it is " << t.strides()[i] << ")";
            return;
        }
        EXPECT_EQ(t.strides()[i], s) << "stride " << i << " of " << shapeToString(shape);
        overflowed = __builtin_mul_overflow(s, shape[i], &s);
    }
}

void replayNpy(const std::string& bytes) {
    Tensor t;
    if (!onlyUserError([&] { t = io::parseNpy(bytes, "input.npy"); }, "parseNpy"))
        return;
    expectExactStrides(t);
    EXPECT_EQ(static_cast<int64_t>(t.toVector().size()), t.numel());
}

void replayNpz(const std::string& bytes) {
    io::NamedTensors arrays;
    if (!onlyUserError([&] { arrays = io::parseNpz(bytes, "input.npz"); }, "parseNpz"))
        return;
    for (const auto& [name, t] : arrays)
        expectExactStrides(t);
}

void replaySafetensors(const std::string& bytes) {
    io::SafetensorsFile f;
    if (!onlyUserError([&] { f = io::parseSafetensors(bytes, "input.safetensors"); },
                         "parseSafetensors"))
        return;
    for (const auto& [name, t] : f.tensors)
        expectExactStrides(t);
    // A file the reader accepts must come back unchanged from the writer.
    std::string again;
    if (!onlyUserError([&] { again = io::safetensorsBytes(f.tensors, f.metadata); },
                         "safetensorsBytes"))
        return;
    io::SafetensorsFile back;
    ASSERT_TRUE(onlyUserError([&] { back = io::parseSafetensors(again, "again.safetensors"); },
                                "parseSafetensors(safetensorsBytes)"));
    std::vector<std::string> names, backNames;
    for (const auto& [name, t] : f.tensors)
        names.push_back(name);
    for (const auto& [name, t] : back.tensors)
        backNames.push_back(name);
    EXPECT_EQ(names, backNames) << "tensor names changed in the round trip";
    EXPECT_EQ(f.metadata, back.metadata) << "metadata changed in the round trip";
}

void replayJson(const std::string& text) {
    Tensor t;
    if (onlyUserError([&] { t = io::parseJsonTensor(text, "input.json"); }, "parseJsonTensor"))
        expectExactStrides(t);
    WeightMap w;
    if (onlyUserError([&] { w = io::parseJsonWeights(text, "input.json"); },
                        "parseJsonWeights")) {
        Config c;
        c.contextLength = 6;
        onlyUserError([&] { checkWeights(w, c, "input.json"); }, "checkWeights");
    }
}

void replayCsv(const std::string& text) {
    io::CsvMatrix m;
    if (!onlyUserError([&] { m = io::parseCsv(text, "input.csv"); }, "parseCsv"))
        return;
    EXPECT_EQ(m.values.dim(), 2);
}

void replayTokenizer(const std::string& text) {
    for (TokenizerKind k : {TokenizerKind::Gpt2, TokenizerKind::Words, TokenizerKind::Chars}) {
        std::vector<Token> tokens;
        EXPECT_NO_THROW(tokens = tokenize(k, text)) << tokenizerName(k);
        if (k == TokenizerKind::Gpt2) {
            EXPECT_NO_THROW((void)gpt2Decode(tokenIds(tokens)));
        }
    }
}

// As fuzz_options: argv split at '\n', parse, validate, and trace tiny valid configurations.
void replayOptions(const std::string& in) {
    QStringList args{QStringLiteral("attention-lens-cli")};
    size_t start = 0;
    while (start <= in.size()) {
        size_t end = in.find('\n', start);
        if (end == std::string::npos)
            end = in.size();
        args << QString::fromUtf8(in.data() + start, static_cast<qsizetype>(end - start));
        start = end + 1;
    }
    QCommandLineParser parser;
    addSettingOptions(parser, {SettingGroup::Input, SettingGroup::Module, SettingGroup::View});
    if (!parser.parse(args) || parser.isSet("text-file"))
        return;
    Settings settings;
    if (!onlyUserError([&] { settings = applyGivenSettings(Settings(), givenSettings(parser)); },
                       "givenSettings"))
        return;
    const Config& c = settings.config;
    int64_t T = 6;  // the book example, and a stand-in for an embeddings file
    if (settings.source == InputSource::Text)
        T = tokenizeInput(settings, {}).count();
    std::vector<ValidationIssue> issues;
    onlyUserError([&] { issues = validate(c, T); }, "validate");
    onlyUserError([&] { (void)validate(c, c.contextLength); }, "validate(context_length)");
    if (!issues.empty() || T <= 0)
        return;
    const int64_t d = std::max(c.dIn, c.dOut);
    if (c.batch * T * d > 4096 || c.batch * c.effectiveHeads() * T * T > 4096 ||
        c.dIn * c.dOut > 4096)
        return;
    TraceRequest req;
    req.config = c;
    req.inputs = Tensor(Shape{T, c.dIn});
    for (int64_t i = 0; i < T * c.dIn; ++i)
        req.inputs.mutableData()[i] = 0.01f * static_cast<float>(i % 97);
    EXPECT_TRUE(onlyUserError([&] { (void)runTrace(req); }, "runTrace"))
        << "validate() accepted a configuration runTrace() rejects";
}

const std::map<std::string, std::function<void(const std::string&)>>& replays() {
    static const std::map<std::string, std::function<void(const std::string&)>> m = {
        {"fuzz_npy", replayNpy},
        {"fuzz_npz", replayNpz},
        {"fuzz_safetensors", replaySafetensors},
        {"fuzz_json", replayJson},
        {"fuzz_csv", replayCsv},
        {"fuzz_tokenizer", replayTokenizer},
        {"fuzz_options", replayOptions},
    };
    return m;
}

// Replays one input with a deadline: a hang (one of the bugs found) fails the test instead of
// stalling the suite. A replay that overruns keeps spinning on its own thread until the test
// program exits.
void replay(const std::string& name, std::chrono::seconds kDeadline = std::chrono::seconds(20)) {
    // The default deadline is generous for ASan builds.
    const std::string target = name.substr(0, name.rfind('-'));
    const auto it = replays().find(target);
    ASSERT_NE(it, replays().end()) << name << ": no replay for target " << target;
    SCOPED_TRACE(name);
    auto done = std::make_shared<std::promise<void>>();
    std::future<void> finished = done->get_future();
    std::thread([fn = it->second, input = readInput(name), done] {
        fn(input);
        done->set_value();
    }).detach();
    if (finished.wait_for(kDeadline) != std::future_status::ready)
        ADD_FAILURE() << name << " did not finish within " << kDeadline.count() << " s (a hang)";
}

}  // namespace

// Every file in inputs/, whatever it is.
TEST(Regression, ReplayAll) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(ATTN_REGRESSION_INPUTS))
        if (e.is_regular_file())
            names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    for (const std::string& n : names)
        replay(n);
}

// fuzz_npy-1 and fuzz_npy-2: a header shape with a 0 and huge other sizes, e.g. (3356, 0,
// 12952233556, 1295223356, 4). It holds no data; parseNpy's size check once multiplied in
// uint64_t and let a later 0 reset the product, so the file passed it and
// Tensor::uninitialized overflowed int64_t in rowMajorStrides (fuzz_npy-1) or shapeNumel
// (fuzz_npy-2): UBSan "signed integer overflow", reachable with `--embeddings file.npy` and
// through .npz. The rule now: such a shape is refused with an UserError naming it.
TEST(Regression, NpyZeroSizedHugeShapeStridesOverflow) {
    replay("fuzz_npy-1");
}
TEST(Regression, NpyZeroSizedHugeShapeNumelOverflow) {
    replay("fuzz_npy-2");
}

// fuzz_safetensors-2 (written by hand after fuzz_npy-1): the same overflow once reached
// parseSafetensors with shape [0, 4, 2^62] and data_offsets [0, 0]; now an UserError.
TEST(Regression, SafetensorsZeroSizedHugeShapeStridesOverflow) {
    replay("fuzz_safetensors-2");
}

// fuzz_options-1: `--d-out 333333333333` (heads 2 by default). validate() once listed the
// valid head counts for its message before checking d_out against the 2^20 cap, and
// validHeadCounts() tried every h <= d_out: 3.3e11 divisions, so `attention-lens-cli trace
// --d-out 333333333333` hung (and --d-out 9223372036854775807 for ever). The rule now: the
// "too large" message at once.
TEST(Regression, OptionsHugeDOutHangsInValidHeadCounts) {
    replay("fuzz_options-1");
}

// fuzz_options-2: `--d-out 9223372036854775783` (the largest prime below 2^63). With an
// O(sqrt(d_out)) validHeadCounts, validate() still ran 3e9 divisions for its message: 11 s in
// the ASan build, minutes under the fuzzer. The rule now: a d_out above the 2^20 cap has no
// divisors listed. Validation takes microseconds, so 5 s is a generous bound even for a
// loaded CI machine.
TEST(Regression, OptionsHugePrimeDOutSlowInValidHeadCounts) {
    replay("fuzz_options-2", std::chrono::seconds(5));
}

// fuzz_safetensors-1: a tensor name with a byte that is not UTF-8 ("W_\xebey") in the JSON
// header. JsonReader::parseString once accepted raw invalid UTF-8 (RFC 8259 and the reference
// safetensors reader reject it), and safetensorsBytes -> appendJsonString wrote U+FFFD, so the
// name changed on a round trip. The rule now: the file is refused with an UserError.
TEST(Regression, SafetensorsInvalidUtf8NameRoundTrip) {
    replay("fuzz_safetensors-1");
}
