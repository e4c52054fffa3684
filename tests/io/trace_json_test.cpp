// The `trace` JSON of the CLI: exact text for a hand-made trace, and a real trace whose
// numbers read back bit for bit.

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <limits>

#include "engine/trace.h"
#include "io/json_reader.h"
#include "io/text_format.h"
#include "io/trace_json.h"
#include "io_test_util.h"

namespace attn::io {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

Step makeStep(std::string id, Shape shape, std::vector<std::string> dims, std::vector<float> data) {
    Step s;
    s.info.id = std::move(id);
    s.info.title = "Title of " + s.info.id;
    s.info.op = "x @ W \"q\"";
    s.info.shape = shape;
    s.info.dims = std::move(dims);
    s.value = Tensor(std::move(shape), std::move(data));
    return s;
}

// The writer knows no key: it writes the facts it is given, in their order, each value as
// its type is written (the settings table and the architecture say what a config holds).
TEST(TraceJson, FactsAreWrittenInTheirOrder) {
    const Facts facts = {
        {"variant", std::string("rotary")},
        {"seed", uint64_t{18446744073709551615ull}},  // torch.manual_seed takes any 64 bits
        {"d_in", int64_t{-3}},
        {"rope_base", 1e6},
        {"eps", 1e-6},
        {"scale", 0.25},
        {"qkv_bias", true},
        {"qk_norm", false},
        {"windows", std::vector<int64_t>{4, 4, 0}},
        {"none", std::vector<int64_t>{}},
        {"text", std::string("a \"quote\"\n")},
        {"odd", std::numeric_limits<double>::quiet_NaN()},
        {"big", -std::numeric_limits<double>::infinity()},
    };
    EXPECT_EQ(factsToJson(facts),
              "{\"variant\": \"rotary\", \"seed\": 18446744073709551615, \"d_in\": -3, "
              "\"rope_base\": 1e+06, \"eps\": 1e-06, \"scale\": 0.25, \"qkv_bias\": true, "
              "\"qk_norm\": false, \"windows\": [4, 4, 0], \"none\": [], "
              "\"text\": \"a \\\"quote\\\"\\n\", \"odd\": \"nan\", \"big\": \"-inf\"}");
    EXPECT_EQ(factsToJson({}), "{}");
}

TEST(TraceJson, StepJsonIsExact) {
    Step s = makeStep("scores", {1, 2, 2}, {"b", "T", "T"}, {0.5f, -kInf, std::nanf(""), 1e-05f});
    EXPECT_EQ(stepToJson(s),
              "{\"id\": \"scores\", \"title\": \"Title of scores\", \"op\": \"x @ W \\\"q\\\"\", "
              "\"shape\": [1, 2, 2], \"dims\": [\"b\", \"T\", \"T\"], "
              "\"data\": [0.5,\"-inf\",\"nan\",1e-05]}");
    std::string out;
    appendTensorData(out, Tensor({2, 2}, {1, 2, 3, kInf}).transpose(0, 1));
    EXPECT_EQ(out, "[1,3,2,\"inf\"]");
}

TEST(TraceJson, WholeTraceIsExact) {
    Trace t;
    t.config.variant = Variant::Simplified;
    t.config.dIn = 2;
    t.config.heads = 1;
    t.parameterCount = 0;
    t.steps.push_back(makeStep("inputs", {1, 2, 2}, {"b", "T", "d_in"}, {0.1f, 0.2f, 0.3f, 0.4f}));
    t.steps.push_back(makeStep("output", {1, 2, 2}, {"b", "T", "d_in"}, {1, 2, 3, 4}));
    EXPECT_EQ(
        traceToJson(t, {"Your", "jo\"urney\n"},
                    {{"variant", std::string("simplified")}, {"d_in", int64_t{2}}}),
        "{\"config\": {\"variant\": \"simplified\", \"d_in\": 2},\n"
        "\"tokens\": [\"Your\", \"jo\\\"urney\\n\"],\n"
        "\"parameters\": 0,\n"
        "\"steps\": [\n"
        "{\"id\": \"inputs\", \"title\": \"Title of inputs\", \"op\": \"x @ W \\\"q\\\"\", "
        "\"shape\": [1, 2, 2], \"dims\": [\"b\", \"T\", \"d_in\"], \"data\": [0.1,0.2,0.3,0.4]},\n"
        "{\"id\": \"output\", \"title\": \"Title of output\", \"op\": \"x @ W \\\"q\\\"\", "
        "\"shape\": [1, 2, 2], \"dims\": [\"b\", \"T\", \"d_in\"], \"data\": [1,2,3,4]}\n"
        "],\n"
        "\"output\": {\"shape\": [1, 2, 2], \"data\": [1,2,3,4]}}\n");
}

TEST(TraceJson, LargeTensorsFormatInOrder) {
    // Above a million numbers the text is made in slices on several threads: it must equal the
    // plain sequential text.
    std::vector<float> values(1'500'001);
    for (size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<float>(i) * 0.37f - 1000.0f;
    values[777'777] = -kInf;
    std::string expected = "[";
    for (size_t i = 0; i < values.size(); ++i) {
        if (i)
            expected += ',';
        expected += std::isfinite(values[i]) ? formatFloat(values[i]) : std::string("\"-inf\"");
    }
    expected += "]";
    std::string out;
    appendTensorData(out, Tensor({static_cast<int64_t>(values.size())}, values));
    EXPECT_EQ(out.size(), expected.size());
    EXPECT_TRUE(out == expected);
}

TEST(TraceJson, InvalidUtf8TokensStayValidJson) {
    Trace t;
    t.steps.push_back(makeStep("output", {1}, {"x"}, {1}));
    const std::string json = traceToJson(t, {"\xE4\xBD", "\x01"}, {});
    EXPECT_NE(json.find("\"tokens\": [\"\xEF\xBF\xBD\xEF\xBF\xBD\", \"\\u0001\"]"),
              std::string::npos);
}

TEST(TraceJson, RealTraceReadsBackBitExact) {
    TraceRequest request;
    request.config.contextLength = 6;
    request.config.dropout = 0.5;  // dropout steps too
    request.inputs =
        Tensor({6, 3}, {0.43f, 0.15f, 0.89f, 0.55f, 0.87f, 0.66f, 0.57f, 0.85f, 0.64f, 0.22f, 0.58f,
                        0.33f, 0.77f, 0.25f, 0.10f, 0.05f, 0.80f, 0.55f});
    const Trace trace = runTrace(request);
    const std::string json =
        traceToJson(trace, {"Your", "journey", "starts", "with", "one", "step"}, {});
    JsonReader reader(json, "trace.json");
    JsonValue root = reader.parseValue();
    reader.expectEnd();
    const JsonValue* steps = root.member("steps");
    ASSERT_NE(steps, nullptr);
    ASSERT_EQ(steps->items.size(), trace.steps.size());
    EXPECT_EQ(std::stoll(root.member("parameters")->text), trace.parameterCount);
    for (size_t i = 0; i < trace.steps.size(); ++i) {
        const JsonValue& s = steps->items[i];
        const Step& step = trace.steps[i];
        EXPECT_EQ(s.member("id")->text, step.info.id);
        const std::vector<float> values = step.value.toVector();
        const auto& data = s.member("data")->items;
        ASSERT_EQ(data.size(), values.size()) << step.info.id;
        for (size_t k = 0; k < values.size(); ++k) {
            float v = 0;
            if (data[k].type == JsonValue::Type::String) {
                v = data[k].text == "-inf" ? -kInf : data[k].text == "inf" ? kInf : std::nanf("");
            } else {
                std::from_chars(data[k].text.data(), data[k].text.data() + data[k].text.size(), v);
            }
            if (std::isnan(values[k]))
                EXPECT_TRUE(std::isnan(v));
            else
                EXPECT_EQ(test::floatBits(v), test::floatBits(values[k]))
                    << step.info.id << " " << k;
        }
    }
    EXPECT_EQ(root.member("output")->member("data")->items.size(), size_t(trace.output().numel()));
}

}  // namespace
}  // namespace attn::io
