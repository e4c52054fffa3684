// fuzz_options: the settings as command-line options, shared by the CLI and the app. The input
// is split at '\n' into argv strings (after a program name), registered with addSettingOptions
// and read with givenSettings + applyGivenSettings; the settings are checked for the input's
// token count, and when valid and tiny they are traced on random (T, d_in) inputs and the
// PyTorch listing is generated for them. Only attn::UserError may escape. Options that read
// files (--text-file, --embeddings, --weights) are parsed but no file is opened: --text-file
// inputs are skipped, and the files of --embeddings and --weights are never read.
#include <QCommandLineParser>
#include <QStringList>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string_view>

#include "engine/embeddings.h"
#include "engine/trace.h"
#include "fuzz_common.h"
#include "pipeline/options.h"
#include "pipeline/pytorch_code.h"

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
    addSettingOptions(parser, {SettingGroup::Input, SettingGroup::Module, SettingGroup::View});
    if (!parser.parse(args))
        return 0;  // unknown option, missing value: the CLI says so
    if (parser.isSet("text-file"))
        return 0;  // would open an arbitrary path

    Settings settings;
    if (!fuzz::expectOnlyUserError("givenSettings", [&] {
            settings = applyGivenSettings(Settings(), givenSettings(parser));
        }))
        return 0;
    settings.weightsFile.clear();  // never read files
    const Config& c = settings.config;

    InputTokens input;
    if (settings.source == InputSource::File) {
        // A file of random embeddings in place of the named one: labels 0..T-1.
        for (int i = 0; i < 6; ++i)
            input.labels.push_back(std::to_string(i));
    } else {
        fuzz::expectOnlyUserError("tokenizeInput", [&] { input = tokenizeInput(settings, {}); });
    }
    const int64_t T = input.count();
    std::vector<ValidationIssue> issues;
    fuzz::expectOnlyUserError("validate", [&] { issues = validate(c, T); });
    fuzz::expectOnlyUserError("validate(context_length)",
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
    if (!fuzz::expectOnlyUserError("runTrace", [&] { trace = runTrace(req); }))
        fuzz::fail("runTrace", "validate() accepted a configuration that runTrace() rejects");
    for (const Step& s : trace.steps) {
        fuzz::touch(s.value, s.info.id.c_str());
        fuzz::check(s.value.shape() == s.info.shape, "step shape differs from its plan", s.info.id);
    }
    fuzz::check(!trace.steps.empty() && trace.steps.back().info.id == "output", "trace",
                "no output step");

    TraceRun run;
    run.settings = settings;
    run.input = input;
    run.inputs = req.inputs;
    run.trace = std::make_shared<const Trace>(std::move(trace));
    fuzz::expectOnlyUserError("pytorchListing", [&] { (void)pytorchListing(run); });
    return 0;
}
