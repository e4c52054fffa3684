// The engine against reference fixtures made with real PyTorch 1.13 on CPU
// (tests/fixtures/make_fixtures.py writes tests/fixtures/torch/*.json; see its docstring for
// the format). One parameterised test per fixture file, found at run time:
//   trace      attn::runTrace: step ids and order, shapes, values (1e-5 abs + 1e-5 rel, -inf
//              exactly), parameters bit for bit, output
//   embedding  attn::chapterTwoEmbeddings (1e-5) and attn::normalTableRows (1e-6)
//   normal     attn::TorchGenerator::normal (float32, 1e-6) and normalDouble (float64)
// Every failure names the fixture, the step and the first differing flat index.

#include <gtest/gtest.h>

#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "engine/config.h"
#include "engine/embeddings.h"
#include "engine/rng.h"
#include "engine/tensor.h"
#include "engine/trace.h"

#ifndef ATTN_FIXTURES_DIR
#error "ATTN_FIXTURES_DIR must point at tests/fixtures"
#endif

namespace {

namespace fs = std::filesystem;

fs::path torchFixtureDir() {
    return fs::path(ATTN_FIXTURES_DIR) / "torch";
}

std::vector<std::string> listFixtures() {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(torchFixtureDir(), ec)) {
        if (entry.is_regular_file() && entry.path().extension() == ".json")
            names.push_back(entry.path().stem().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

// ---------------------------------------------------------------------------------------------
// Reading

struct RefTensor {
    attn::Shape shape;
    bool sampled = false;
    std::vector<int64_t> index;  // flat indices of `values` (0..n-1 when not sampled)
    std::vector<float> values;
    double sum = 0.0;
    double absSum = 0.0;
    int64_t nonfiniteCount = 0;
    std::optional<uint64_t> fnv;  // FNV-1a 64 of the float32 bytes, parameters only
};

float jsonFloat(const QJsonValue& v) {
    if (v.isString()) {
        const QString s = v.toString();
        if (s == QLatin1String("-inf"))
            return -std::numeric_limits<float>::infinity();
        if (s == QLatin1String("inf"))
            return std::numeric_limits<float>::infinity();
        return std::numeric_limits<float>::quiet_NaN();
    }
    // Written so that double -> float rounding gives the exact float32 value.
    return static_cast<float>(v.toDouble());
}

attn::Shape jsonShape(const QJsonValue& v) {
    attn::Shape shape;
    for (const QJsonValue& d : v.toArray())
        shape.push_back(d.toInteger());
    return shape;
}

RefTensor readTensor(const QJsonObject& o) {
    RefTensor t;
    t.shape = jsonShape(o.value("shape"));
    if (o.contains("data")) {
        const QJsonArray data = o.value("data").toArray();
        t.values.reserve(data.size());
        for (qsizetype i = 0; i < data.size(); ++i) {
            t.index.push_back(i);
            t.values.push_back(jsonFloat(data.at(i)));
        }
    } else {
        t.sampled = true;
        for (const QJsonValue& i : o.value("sample_index").toArray())
            t.index.push_back(i.toInteger());
        for (const QJsonValue& v : o.value("sample").toArray())
            t.values.push_back(jsonFloat(v));
        t.sum = o.value("sum").toDouble();
        t.absSum = o.value("abs_sum").toDouble();
        t.nonfiniteCount = o.value("nonfinite_count").toInteger();
    }
    if (o.contains("fnv1a64"))
        t.fnv = o.value("fnv1a64").toString().toULongLong(nullptr, 16);
    return t;
}

std::optional<QJsonObject> readFixture(const std::string& name, std::string* error) {
    QFile f(QString::fromStdString((torchFixtureDir() / (name + ".json")).string()));
    if (!f.open(QIODevice::ReadOnly)) {
        *error = "cannot open " + f.fileName().toStdString();
        return std::nullopt;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = "bad JSON in " + name + ": " + pe.errorString().toStdString();
        return std::nullopt;
    }
    return doc.object();
}

// ---------------------------------------------------------------------------------------------
// Comparing

std::string fmt(double v) {
    std::ostringstream s;
    s.precision(9);
    s << v;
    return s.str();
}

std::string indexString(const attn::Shape& shape, int64_t flat) {
    std::vector<int64_t> idx(shape.size());
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
        const int64_t n = shape[static_cast<size_t>(d)];
        idx[static_cast<size_t>(d)] = n > 0 ? flat % n : 0;
        flat = n > 0 ? flat / n : 0;
    }
    std::string s = "[";
    for (size_t i = 0; i < idx.size(); ++i) {
        if (i)
            s += ",";
        s += std::to_string(idx[i]);
    }
    return s + "]";
}

uint64_t fnv1a64(const std::vector<float>& values) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (float v : values) {
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        for (int b = 0; b < 4; ++b) {  // little-endian bytes
            h ^= (bits >> (8 * b)) & 0xFFu;
            h *= 0x100000001b3ULL;
        }
    }
    return h;
}

bool closeEnough(float expected, float got, double absTol, double relTol) {
    if (std::isnan(expected))
        return std::isnan(got);
    if (std::isinf(expected))
        return got == expected;
    if (!std::isfinite(got))
        return false;
    return std::fabs(double(got) - double(expected)) <=
           absTol + relTol * std::fabs(double(expected));
}

bool bitEqual(float a, float b) {
    return std::memcmp(&a, &b, sizeof(float)) == 0;
}

// Compares `got` (any layout, read row-major) with the reference. Empty string when equal.
// bitwise: parameters; else within absTol + relTol * |expected|, non-finite values exactly.
// rowScaled (the scores steps): the relative tolerance applies to the largest magnitude in the
// element's last-dim row instead of the element. A score is a dot product whose rounding error
// grows with its terms, not with its result: at Qwen3's head size of 128 with QK-norm, the terms
// are about 1, and a score of 0.2 left over from their cancellation differs between PyTorch's
// blocked matrix product and ours by 2.6e-5 while the scaled scores, weights and outputs agree
// to 1e-5.
std::string compareTensor(const std::string& where, const RefTensor& ref, const attn::Tensor& got,
                          double absTol, double relTol, bool bitwise, bool rowScaled = false) {
    std::ostringstream msg;
    if (got.empty() && attn::shapeNumel(ref.shape) > 0)
        return where + ": tensor is empty";
    if (got.shape() != ref.shape) {
        msg << where << ": shape " << attn::shapeToString(got.shape()) << ", expected "
            << attn::shapeToString(ref.shape);
        return msg.str();
    }
    const int64_t n = got.numel();
    int64_t bad = 0;
    int64_t first = -1;
    float firstExp = 0.0f, firstGot = 0.0f;
    double maxDiff = 0.0;
    const int64_t rowLength = ref.shape.empty() ? 1 : std::max<int64_t>(ref.shape.back(), 1);
    std::map<int64_t, double> rowMax;  // row -> largest finite |expected| (rowScaled)
    if (rowScaled)
        for (size_t k = 0; k < ref.index.size(); ++k)
            if (std::isfinite(ref.values[k])) {
                double& m = rowMax[ref.index[k] / rowLength];
                m = std::max(m, std::fabs(double(ref.values[k])));
            }
    for (size_t k = 0; k < ref.index.size(); ++k) {
        const int64_t i = ref.index[k];
        if (i < 0 || i >= n)
            return where + ": fixture index " + std::to_string(i) + " out of range";
        const float e = ref.values[k];
        const float g = got.flat(i);
        const double abs = rowScaled ? absTol + relTol * rowMax[i / rowLength] : absTol;
        const bool ok = bitwise ? bitEqual(e, g) : closeEnough(e, g, abs, relTol);
        if (!ok) {
            if (first < 0) {
                first = i;
                firstExp = e;
                firstGot = g;
            }
            ++bad;
            if (std::isfinite(e) && std::isfinite(g))
                maxDiff = std::max(maxDiff, std::fabs(double(g) - double(e)));
        }
    }
    if (bad > 0) {
        msg << where << ": " << bad << " of " << ref.index.size() << (ref.sampled ? " sampled" : "")
            << " values differ; first at flat index " << first << " "
            << indexString(ref.shape, first) << ": expected " << fmt(firstExp) << ", got "
            << fmt(firstGot);
        if (bitwise) {
            uint32_t eb, gb;
            std::memcpy(&eb, &firstExp, 4);
            std::memcpy(&gb, &firstGot, 4);
            msg << " (bits 0x" << std::hex << eb << " vs 0x" << gb << std::dec << ")";
        }
        msg << "; largest finite difference " << fmt(maxDiff);
        return msg.str();
    }
    if (ref.fnv) {
        const uint64_t h = fnv1a64(got.toVector());
        if (h != *ref.fnv) {
            msg << where << ": FNV-1a of the float32 bytes differs (expected " << std::hex
                << *ref.fnv << ", got " << h << std::dec
                << "): some value outside the stored sample is not bit-identical";
            return msg.str();
        }
        return {};  // every byte checked: stronger than the sum
    }
    if (ref.sampled) {
        double sum = 0.0;
        int64_t nonfinite = 0;
        const std::vector<float> all = got.toVector();
        for (float v : all) {
            if (std::isfinite(v))
                sum += v;
            else
                ++nonfinite;
        }
        if (nonfinite != ref.nonfiniteCount) {
            msg << where << ": " << nonfinite << " non-finite values, expected "
                << ref.nonfiniteCount;
            return msg.str();
        }
        const double tol = absTol * double(n) + relTol * ref.absSum;
        if (!(std::fabs(sum - ref.sum) <= tol)) {
            msg << where << ": sum of finite values " << fmt(sum) << ", expected " << fmt(ref.sum)
                << " (tolerance " << fmt(tol) << ")";
            return msg.str();
        }
    }
    return {};
}

attn::Tensor toTensor(const RefTensor& ref) {
    return attn::Tensor(ref.shape, ref.values);  // only for full (not sampled) tensors
}

// ---------------------------------------------------------------------------------------------

constexpr double kAbs = 1e-5;
constexpr double kRel = 1e-5;

class TorchFixture : public ::testing::TestWithParam<std::string> {};

void checkFixtureSelfConsistent(const std::string& name, const std::string& what,
                                const RefTensor& ref) {
    // Guards the reader: the parsed values of a full tensor hash to what PyTorch wrote.
    if (ref.fnv && !ref.sampled) {
        EXPECT_EQ(fnv1a64(ref.values), *ref.fnv)
            << name << " / " << what << ": the fixture's own values do not parse back bit-exactly";
    }
}

attn::Config configFromFixture(const std::string& name, const QJsonObject& c, bool* ok) {
    attn::Config config;
    *ok = false;
    const auto variant = attn::parseVariant(c.value("variant").toString().toStdString());
    const auto mask = attn::parseMask(c.value("mask").toString().toStdString());
    const auto mode = attn::parseMode(c.value("mode").toString().toStdString());
    const auto rng = attn::parseDropoutRng(c.value("dropout_rng").toString().toStdString());
    if (!variant || !mask || !mode || !rng) {
        ADD_FAILURE() << name << ": config not understood by parseVariant/parseMask/parseMode/"
                      << "parseDropoutRng (variant " << c.value("variant").toString().toStdString()
                      << ", mask " << c.value("mask").toString().toStdString() << ", mode "
                      << c.value("mode").toString().toStdString() << ", dropout_rng "
                      << c.value("dropout_rng").toString().toStdString() << ")";
        return config;
    }
    config.variant = *variant;
    config.batch = c.value("batch").toInteger();
    config.dIn = c.value("d_in").toInteger();
    config.dOut = c.value("d_out").toInteger();
    config.heads = c.value("heads").toInteger();
    config.mask = *mask;
    config.dropout = c.value("dropout").toDouble();
    config.mode = *mode;
    config.dropoutRng = *rng;
    config.seed = static_cast<uint64_t>(c.value("seed").toInteger());
    config.qkvBias = c.value("qkv_bias").toBool();
    config.contextLength = c.value("context_length").toInteger();
    config.simpleMaskSteps = true;
    // After chapter 3 (section 9.1): absent from the chapter-3 fixtures, which keep the defaults.
    config.kvGroups = c.value("kv_groups").toInteger(config.kvGroups);
    config.latentDim = c.value("latent_dim").toInteger(config.latentDim);
    config.headDim = c.value("head_dim").toInteger(config.headDim);
    config.qkNorm = c.value("qk_norm").toBool(config.qkNorm);
    config.ropeBase = c.value("rope_base").toDouble(config.ropeBase);
    config.rope = c.value("rope").toBool(config.rope);
    *ok = true;
    return config;
}

std::string joinIds(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) {
        if (!s.empty())
            s += " ";
        s += x;
    }
    return s;
}

// Steps of `trace` against the fixture: ids in order, shapes, values, output. `label` tells
// which run this is in failure messages.
void checkTraceSteps(const std::string& label, const QJsonObject& fx, const attn::Trace& trace) {
    std::vector<std::string> expectedOrder;
    for (const QJsonValue& v : fx.value("step_order").toArray())
        expectedOrder.push_back(v.toString().toStdString());
    std::vector<std::string> gotOrder;
    for (const attn::Step& s : trace.steps)
        gotOrder.push_back(s.info.id);
    if (gotOrder != expectedOrder) {
        ADD_FAILURE() << label << ": step ids differ\n  expected: " << joinIds(expectedOrder)
                      << "\n  got:      " << joinIds(gotOrder);
    }

    const QJsonObject steps = fx.value("steps").toObject();
    for (const std::string& id : expectedOrder) {
        const attn::Step* step = trace.find(id);
        if (!step) {
            ADD_FAILURE() << label << " / " << id << ": step missing from the trace";
            continue;
        }
        const RefTensor ref = readTensor(steps.value(QString::fromStdString(id)).toObject());
        if (step->info.shape != ref.shape) {
            ADD_FAILURE() << label << " / " << id << ": StepInfo.shape "
                          << attn::shapeToString(step->info.shape) << ", expected "
                          << attn::shapeToString(ref.shape);
        }
        const std::string err = compareTensor(label + " / step " + id, ref, step->value, kAbs, kRel,
                                              false, step->info.kind == attn::StepKind::Scores);
        if (!err.empty())
            ADD_FAILURE() << err;
    }

    const RefTensor ref = readTensor(steps.value("output").toObject());
    const std::string err =
        compareTensor(label + " / trace.output()", ref, trace.output(), kAbs, kRel, false);
    if (!err.empty())
        ADD_FAILURE() << err;
}

void runTraceFixture(const std::string& name, const QJsonObject& fx) {
    bool ok = false;
    const attn::Config config = configFromFixture(name, fx.value("config").toObject(), &ok);
    if (!ok)
        return;

    const RefTensor inputs = readTensor(fx.value("inputs").toObject());
    ASSERT_FALSE(inputs.sampled) << name << ": inputs must be stored in full";
    const int64_t tokens = inputs.shape.size() == 3 ? inputs.shape[1] : 0;

    attn::TraceRequest request;
    request.config = config;
    request.inputs = toTensor(inputs);
    attn::Trace trace;
    try {
        trace = attn::runTrace(request);
    } catch (const attn::UserError& e) {
        FAIL() << name << ": runTrace threw UserError(field " << e.field() << "): " << e.what();
    } catch (const std::exception& e) {
        FAIL() << name << ": runTrace threw: " << e.what();
    }
    checkTraceSteps(name, fx, trace);

    // The plan (drives the UI before a result exists) names the same steps with the same shapes.
    std::vector<std::string> expectedOrder;
    for (const QJsonValue& v : fx.value("step_order").toArray())
        expectedOrder.push_back(v.toString().toStdString());
    {
        const std::vector<attn::StepInfo> plan = attn::planSteps(config, tokens);
        std::vector<std::string> planIds;
        for (const auto& info : plan)
            planIds.push_back(info.id);
        if (planIds != expectedOrder) {
            ADD_FAILURE() << name
                          << ": planSteps ids differ\n  expected: " << joinIds(expectedOrder)
                          << "\n  got:      " << joinIds(planIds);
        } else {
            const QJsonObject steps = fx.value("steps").toObject();
            for (const auto& info : plan) {
                const attn::Shape shape = jsonShape(
                    steps.value(QString::fromStdString(info.id)).toObject().value("shape"));
                if (info.shape != shape)
                    ADD_FAILURE() << name << " / " << info.id << ": planSteps shape "
                                  << attn::shapeToString(info.shape) << ", expected "
                                  << attn::shapeToString(shape);
            }
        }
    }

    // Parameters: same names, bit-identical values; names, shapes and count also from the
    // configuration alone.
    const QJsonObject params = fx.value("parameters").toObject();
    attn::WeightMap fixtureWeights;
    bool allFull = true;
    int64_t count = 0;
    for (auto it = params.begin(); it != params.end(); ++it) {
        const std::string pname = it.key().toStdString();
        const RefTensor ref = readTensor(it.value().toObject());
        count += attn::shapeNumel(ref.shape);
        checkFixtureSelfConsistent(name, "parameter " + pname, ref);
        if (ref.sampled)
            allFull = false;
        else
            fixtureWeights[pname] = toTensor(ref);
        const auto found = trace.parameters.find(pname);
        if (found == trace.parameters.end()) {
            ADD_FAILURE() << name << " / parameter " << pname << ": missing from trace.parameters";
            continue;
        }
        const std::string err =
            compareTensor(name + " / parameter " + pname, ref, found->second, 0, 0, true);
        if (!err.empty())
            ADD_FAILURE() << err;
    }
    for (const auto& [pname, tensor] : trace.parameters) {
        (void)tensor;
        if (!params.contains(QString::fromStdString(pname)))
            ADD_FAILURE() << name << " / parameter " << pname
                          << ": not a state_dict entry of the PyTorch module";
    }
    EXPECT_EQ(trace.parameterCount, count) << name << ": trace.parameterCount";
    EXPECT_EQ(attn::parameterCount(config), count) << name << ": parameterCount(config)";
    {
        std::map<std::string, attn::Shape> expected, got;
        for (auto it = params.begin(); it != params.end(); ++it)
            expected[it.key().toStdString()] = jsonShape(it.value().toObject().value("shape"));
        for (const auto& [pname, shape] : attn::parameterShapes(config))
            got[pname] = shape;
        if (expected != got) {
            std::string e, g;
            for (const auto& [k, v] : expected)
                e += " " + k + attn::shapeToString(v);
            for (const auto& [k, v] : got)
                g += " " + k + attn::shapeToString(v);
            ADD_FAILURE() << name << ": parameterShapes(config) differ\n  expected:" << e
                          << "\n  got:     " << g;
        }
    }

    // The same module from explicit weights (a --weights file): the seed no longer matters when
    // nothing is random in the forward pass, so use another one.
    const bool dropoutSteps = fx.value("steps").toObject().contains("dropout_mask");
    if (allFull && !fixtureWeights.empty() && !dropoutSteps) {
        attn::TraceRequest again;
        again.config = config;
        again.config.seed = config.seed + 1;
        again.inputs = toTensor(inputs);
        again.weights = &fixtureWeights;
        try {
            const attn::Trace t2 = attn::runTrace(again);
            checkTraceSteps(name + " [explicit weights, seed+1]", fx, t2);
        } catch (const std::exception& e) {
            ADD_FAILURE() << name << " [explicit weights]: runTrace threw: " << e.what();
        }
    }
}

void runEmbeddingFixture(const std::string& name, const QJsonObject& fx) {
    const QJsonObject c = fx.value("config").toObject();
    attn::EmbeddingConfig config;
    config.seed = static_cast<uint64_t>(c.value("seed").toInteger());
    config.dIn = c.value("d_in").toInteger();
    config.contextLength = c.value("context_length").toInteger();
    config.positions = c.value("positions").toBool();
    config.vocabSize = c.value("vocab_size").toInteger();
    std::vector<int64_t> ids;
    for (const QJsonValue& v : fx.value("ids").toArray())
        ids.push_back(v.toInteger());
    const QJsonObject steps = fx.value("steps").toObject();

    attn::Tensor x;
    try {
        x = attn::chapterTwoEmbeddings(config, ids);
    } catch (const std::exception& e) {
        FAIL() << name << ": chapterTwoEmbeddings threw: " << e.what();
    }
    const RefTensor refX = readTensor(steps.value("x").toObject());
    std::string err = compareTensor(name + " / x", refX, x, kAbs, kRel, false);
    if (!err.empty())
        ADD_FAILURE() << err;

    // Token rows alone: the table right after manual_seed.
    const RefTensor refTok = readTensor(steps.value("token_embeddings").toObject());
    std::vector<float> rows;
    try {
        rows = attn::normalTableRows(config.seed, config.vocabSize, config.dIn, ids);
    } catch (const std::exception& e) {
        FAIL() << name << ": normalTableRows threw: " << e.what();
    }
    if (static_cast<int64_t>(rows.size()) != attn::shapeNumel(refTok.shape)) {
        ADD_FAILURE() << name << " / token_embeddings: normalTableRows gave " << rows.size()
                      << " values, expected " << attn::shapeNumel(refTok.shape);
    } else {
        err = compareTensor(name + " / token_embeddings (normalTableRows)", refTok,
                            attn::Tensor(refTok.shape, rows), 1e-6, 1e-6, false);
        if (!err.empty())
            ADD_FAILURE() << err;
    }
}

void runNormalFixture(const std::string& name, const QJsonObject& fx) {
    const uint64_t seed =
        static_cast<uint64_t>(fx.value("config").toObject().value("seed").toInteger());
    attn::TorchGenerator gen(seed);
    const QJsonArray calls = fx.value("calls").toArray();
    for (qsizetype ci = 0; ci < calls.size(); ++ci) {
        const QJsonObject call = calls.at(ci).toObject();
        const std::string dtype = call.value("dtype").toString().toStdString();
        const int64_t n = call.value("n").toInteger();
        const double mean = call.value("mean").toDouble();
        const double stdv = call.value("std").toDouble();
        const QJsonArray data = call.value("data").toArray();
        const std::string where = name + " / call " + std::to_string(ci) + " (" + dtype +
                                  ", n=" + std::to_string(n) + ")";
        ASSERT_EQ(data.size(), n) << where << ": fixture data size";
        if (dtype == "float32") {
            std::vector<float> out(static_cast<size_t>(n));
            gen.normal(out.data(), n, static_cast<float>(mean), static_cast<float>(stdv));
            RefTensor ref;
            ref.shape = {n};
            for (qsizetype i = 0; i < data.size(); ++i) {
                ref.index.push_back(i);
                ref.values.push_back(jsonFloat(data.at(i)));
            }
            const std::string err =
                compareTensor(where, ref, attn::Tensor({n}, out), 1e-6, 1e-6, false);
            if (!err.empty())
                ADD_FAILURE() << err;
        } else {
            // Every value is drawn even after a difference, so later calls see the same stream.
            int64_t bad = 0;
            for (int64_t i = 0; i < n; ++i) {
                const double expected = data.at(i).toDouble();
                const double got = gen.normalDouble(mean, stdv);
                if (!(std::fabs(got - expected) <= 1e-12 + 1e-12 * std::fabs(expected)) &&
                    bad++ == 0) {
                    ADD_FAILURE() << where << ": first difference at index " << i << ": expected "
                                  << fmt(expected) << ", got " << fmt(got);
                }
            }
        }
    }
}

TEST_P(TorchFixture, MatchesPyTorch) {
    const std::string name = GetParam();
    std::string error;
    const auto fx = readFixture(name, &error);
    ASSERT_TRUE(fx.has_value()) << error;
    const QString kind = fx->value("kind").toString();
    if (kind == QLatin1String("trace"))
        runTraceFixture(name, *fx);
    else if (kind == QLatin1String("embedding"))
        runEmbeddingFixture(name, *fx);
    else if (kind == QLatin1String("normal"))
        runNormalFixture(name, *fx);
    else
        FAIL() << name << ": unknown kind " << kind.toStdString();
}

std::string testName(const ::testing::TestParamInfo<std::string>& info) {
    std::string s = info.param;
    for (char& ch : s)
        if (!std::isalnum(static_cast<unsigned char>(ch)))
            ch = '_';
    return s;
}

INSTANTIATE_TEST_SUITE_P(Torch, TorchFixture, ::testing::ValuesIn(listFixtures()), testName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(TorchFixture);

TEST(TorchFixtures, ArePresent) {
    const auto names = listFixtures();
    EXPECT_GE(names.size(), 40u) << "expected the PyTorch fixtures in "
                                 << torchFixtureDir().string()
                                 << " (regenerate with tests/fixtures/make_fixtures.py)";
    int traces = 0;
    for (const auto& n : names) {
        std::string error;
        const auto fx = readFixture(n, &error);
        ASSERT_TRUE(fx.has_value()) << error;
        if (fx->value("kind").toString() == QLatin1String("trace"))
            ++traces;
    }
    EXPECT_GE(traces, 30);
}

}  // namespace
