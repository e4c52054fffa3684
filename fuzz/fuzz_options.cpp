// fuzz_options: the shared CLI/app run options. The input is split at '\n' into argv strings
// (after a program name) and parsed with addRunOptions + parseRunOptions; the resulting Config
// is validated for the input's token count, and when valid and tiny it is traced with
// runTrace on random (T, d_in) inputs, and pytorchCode() is generated for it.
// Only attn::EngineError may escape. Options that read files (--text-file, --embeddings,
// --weights) are parsed but no file is opened: --text-file inputs are skipped.
#include <QCommandLineParser>
#include <QStringList>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string_view>

#include "cli/pytorch_code.h"
#include "cli/run_options.h"
#include "engine/embeddings.h"
#include "engine/trace.h"
#include "fuzz_common.h"

using namespace attn;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view in(reinterpret_cast<const char*>(data), size);
    QStringList args{QStringLiteral("attention-lens-cli")};
    size_t start = 0;
    while (start <= in.size()) {
        size_t end = in.find('\n', start);
        if (end == std::string_view::npos)
            end = in.size();
        args << QString::fromUtf8(in.data() + start, static_cast<qsizetype>(end - start));
        start = end + 1;
    }

    QCommandLineParser parser;
    addRunOptions(parser);
    if (!parser.parse(args))
        return 0;  // unknown option, missing value: the CLI says so
    if (parser.isSet("text-file"))
        return 0;  // would open an arbitrary path

    RunSpec spec;
    if (!fuzz::expectOnlyEngineError("parseRunOptions", [&] { spec = parseRunOptions(parser); }))
        return 0;
    Config& c = spec.config;

    int64_t T = 6;  // the book preset; also used for --embeddings
    std::vector<std::string> labels = bookTokens();
    if (spec.input.kind == InputKind::Text) {
        std::vector<Token> tokens;
        fuzz::expectOnlyEngineError(
            "tokenize", [&] { tokens = tokenize(spec.input.tokenizer, spec.input.text); });
        T = static_cast<int64_t>(tokens.size());
        labels.clear();
        for (const Token& t : tokens)
            labels.push_back(t.display);
    }
    std::vector<ValidationIssue> issues;
    fuzz::expectOnlyEngineError("validate", [&] { issues = validate(c, T); });
    fuzz::expectOnlyEngineError("validate(context_length)",
                                [&] { (void)validate(c, c.contextLength); });
    if (!issues.empty() || T <= 0)
        return 0;

    // Tiny configurations only: the fuzzer looks for crashes, not for slow big traces.
    const int64_t d = std::max(c.dIn, c.dOut);
    if (c.batch * T * d > 4096 || c.batch * c.effectiveHeads() * T * T > 4096 ||
        c.dIn * c.dOut > 4096)
        return 0;

    std::mt19937 rng(static_cast<uint32_t>(size * 2654435761u));
    std::normal_distribution<float> normal(0.f, 1.f);
    std::vector<float> x(static_cast<size_t>(T * c.dIn));
    for (float& v : x)
        v = normal(rng);

    TraceRequest req;
    req.config = c;
    req.inputs = Tensor({T, c.dIn}, x);
    Trace trace;
    if (!fuzz::expectOnlyEngineError("runTrace", [&] { trace = runTrace(req); }))
        fuzz::fail("runTrace", "validate() accepted a configuration that runTrace() rejects");
    for (const Step& s : trace.steps) {
        fuzz::touch(s.value, s.info.id.c_str());
        fuzz::check(s.value.shape() == s.info.shape, "step shape differs from its plan", s.info.id);
    }
    fuzz::check(!trace.steps.empty() && trace.steps.back().info.id == "output", "trace",
                "no output step");

    PreparedInput prepared;
    prepared.inputs = req.inputs;
    prepared.labels = labels;
    fuzz::expectOnlyEngineError("pytorchCode", [&] { (void)pytorchCode(spec, prepared, c); });
    return 0;
}
