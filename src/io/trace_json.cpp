#include "io/trace_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>
#include <thread>

#include "engine/step_ids.h"
#include "io/text_format.h"

namespace attn::io {

namespace {

void appendShape(std::string& out, const Shape& shape) {
    out.push_back('[');
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i)
            out.append(", ");
        out.append(std::to_string(shape[i]));
    }
    out.push_back(']');
}

void appendKey(std::string& out, const char* key) {
    out.push_back('"');
    out.append(key);
    out.append("\": ");
}

void appendDoubleOrName(std::string& out, double d) {
    if (std::isfinite(d))
        appendDouble(out, d);
    else
        out.append(std::isnan(d) ? "\"nan\"" : d > 0 ? "\"inf\"" : "\"-inf\"");
}

void appendFactValue(std::string& out, const FactValue& value) {
    if (const auto* s = std::get_if<std::string>(&value)) {
        appendJsonString(out, *s);
    } else if (const auto* i = std::get_if<int64_t>(&value)) {
        out.append(std::to_string(*i));
    } else if (const auto* u = std::get_if<uint64_t>(&value)) {
        out.append(std::to_string(*u));
    } else if (const auto* d = std::get_if<double>(&value)) {
        appendDoubleOrName(out, *d);
    } else if (const auto* b = std::get_if<bool>(&value)) {
        out.append(*b ? "true" : "false");
    } else {
        out.push_back('[');
        const auto& list = std::get<std::vector<int64_t>>(value);
        for (size_t i = 0; i < list.size(); ++i) {
            if (i)
                out.append(", ");
            out.append(std::to_string(list[i]));
        }
        out.push_back(']');
    }
}

// Typical float32 text is 10 to 12 characters with its comma; the string grows if needed.
uint64_t estimateBytes(const Tensor& t) {
    return uint64_t(t.numel()) * 12 + 64;
}

}  // namespace

namespace {

// Formats p[0..n) as comma-separated JSON numbers. Numbers go into a stack buffer that is
// appended in 64 KiB blocks: per-number std::string appends (capacity checks) or one big
// zero-filled resize both cost more than the formatting itself.
void appendNumbers(std::string& out, const float* p, size_t n) {
    constexpr size_t kBlock = 1 << 16;
    constexpr size_t kMaxChars = 16;  // "-1.17549435e-38" and a comma
    char buf[kBlock];
    char* w = buf;
    for (size_t i = 0; i < n; ++i) {
        if (w > buf + kBlock - kMaxChars) {
            out.append(buf, w);
            w = buf;
        }
        if (i)
            *w++ = ',';
        const float v = p[i];
        if (std::isfinite(v)) {
            w = std::to_chars(w, buf + kBlock, v).ptr;
        } else {
            const std::string_view text = std::isnan(v) ? "\"nan\""
                                          : v > 0       ? "\"inf\""
                                                        : "\"-inf\"";
            w = std::copy(text.begin(), text.end(), w);
        }
    }
    out.append(buf, w);
}

}  // namespace

void appendTensorData(std::string& out, const Tensor& tensor) {
    out.push_back('[');
    if (!tensor.empty() && tensor.numel() > 0) {
        const Tensor c = tensor.contiguous();
        const float* p = c.data();
        const size_t n = static_cast<size_t>(c.numel());
        // Shortest-float formatting is the whole cost of a big trace (about 20 ns a number), so
        // large tensors are formatted in slices on every core and joined in order.
        constexpr size_t kParallelFrom = size_t(1) << 20;
        const size_t threads =
            std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), 8);
        if (n < kParallelFrom || threads < 2) {
            appendNumbers(out, p, n);
        } else {
            std::vector<std::string> parts(threads);
            std::vector<std::thread> workers;
            const size_t slice = (n + threads - 1) / threads;
            for (size_t t = 0; t < threads; ++t) {
                const size_t begin = std::min(n, t * slice), end = std::min(n, begin + slice);
                workers.emplace_back([&parts, p, begin, end, t] {
                    parts[t].reserve((end - begin) * 12);
                    appendNumbers(parts[t], p + begin, end - begin);
                });
            }
            for (std::thread& w : workers)
                w.join();
            for (size_t t = 0; t < threads; ++t) {
                if (parts[t].empty())
                    continue;
                if (t)
                    out.push_back(',');
                out.append(parts[t]);
                std::string().swap(parts[t]);  // free each slice as soon as it is copied
            }
        }
    }
    out.push_back(']');
}

std::string factsToJson(const Facts& facts) {
    std::string out = "{";
    for (size_t i = 0; i < facts.size(); ++i) {
        if (i)
            out.append(", ");
        appendJsonString(out, facts[i].key);
        out.append(": ");
        appendFactValue(out, facts[i].value);
    }
    out.push_back('}');
    return out;
}

void appendStepJson(std::string& out, const Step& step) {
    out.push_back('{');
    appendKey(out, "id");
    appendJsonString(out, step.info.id);
    out.append(", ");
    appendKey(out, "title");
    appendJsonString(out, step.info.title);
    out.append(", ");
    appendKey(out, "op");
    appendJsonString(out, step.info.op);
    out.append(", ");
    appendKey(out, "shape");
    appendShape(out, step.value.empty() ? step.info.shape : step.value.shape());
    out.append(", ");
    appendKey(out, "dims");
    out.push_back('[');
    for (size_t i = 0; i < step.info.dims.size(); ++i) {
        if (i)
            out.append(", ");
        appendJsonString(out, step.info.dims[i]);
    }
    out.append("], ");
    appendKey(out, "data");
    appendTensorData(out, step.value);
    out.push_back('}');
}

std::string stepToJson(const Step& step) {
    std::string out;
    out.reserve(estimateBytes(step.value));
    appendStepJson(out, step);
    return out;
}

std::string traceToJson(const Trace& trace, const std::vector<std::string>& tokens,
                        const Facts& config) {
    uint64_t estimate = 4096;
    for (const Step& s : trace.steps)
        estimate += estimateBytes(s.value) + s.info.op.size() + 256;
    const Step* outputStep = trace.find(step_id::kOutput);
    if (outputStep)
        estimate += estimateBytes(outputStep->value);
    std::string out;
    out.reserve(estimate);

    out.append("{\"config\": ");
    out.append(factsToJson(config));
    out.append(",\n\"tokens\": [");
    for (size_t i = 0; i < tokens.size(); ++i) {
        if (i)
            out.append(", ");
        appendJsonString(out, tokens[i]);
    }
    out.append("],\n\"parameters\": ");
    out.append(std::to_string(trace.parameterCount));
    out.append(",\n\"steps\": [");
    for (size_t i = 0; i < trace.steps.size(); ++i) {
        out.append(i ? ",\n" : "\n");
        appendStepJson(out, trace.steps[i]);
    }
    out.append("\n],\n\"output\": {\"shape\": ");
    // A trace without an `output` step (never made by runTrace) still gives valid JSON.
    if (outputStep) {
        appendShape(out, outputStep->value.shape());
        out.append(", \"data\": ");
        appendTensorData(out, outputStep->value);
    } else {
        out.append("[], \"data\": []");
    }
    out.append("}}\n");
    return out;
}

}  // namespace attn::io
