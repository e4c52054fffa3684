#pragma once
// Value types passed between the main window, the TraceController and its worker thread.
// Everything here is copyable and owns (or shares immutably) its data, so it can cross threads
// through queued signals.

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "engine/config.h"
#include "engine/tensor.h"
#include "engine/trace.h"
#include "tokenizer/tokenizer.h"

namespace attn {

// Where the input x comes from.
enum class InputSource {
    Book,  // the chapter's six 3-d vectors (bookInputs())
    Text,  // typed text -> tokenizer -> chapter-2 embeddings (torch.manual_seed(embedding_seed))
    File   // a (T, d_in) or (b, T, d_in) matrix the user loaded
};

// One request for the worker. A value: the worker never reads the widgets.
struct AppRequest {
    quint64 generation = 0;
    InputSource source = InputSource::Book;
    QString text;  // what the user typed (Book: the book sentence)
    TokenizerKind tokenizer = TokenizerKind::Gpt2;
    Config config;
    uint64_t embeddingSeed = 123;
    bool positions = true;
    std::shared_ptr<const Tensor> fileEmbeddings;  // InputSource::File
    QString fileName;                              // for labels
    std::shared_ptr<const WeightMap> weights;      // loaded weights, else drawn from config.seed
};

// What the worker sends back. Exactly one of: trace set (success), issues non-empty
// (validation or engine error), cancelled.
struct AppResult {
    quint64 generation = 0;
    AppRequest request;
    std::shared_ptr<const Trace> trace;
    std::vector<Token> tokens;  // empty for File input
    QStringList tokenLabels;    // one short label per row of x (heatmap axes)
    double elapsedMs = 0.0;     // tokenize + embed + trace
    double traceMs = 0.0;       // runTrace only
    std::vector<ValidationIssue> issues;
    bool cancelled = false;

    bool ok() const { return trace != nullptr; }
};

// Tokens of one request, sent before the trace so the chips update at once.
struct TokensUpdate {
    quint64 generation = 0;
    std::vector<Token> tokens;
    bool fromBook = false;
};

// The whole user-visible state of the window (controls, not results): saved in QSettings,
// set from launch options, read by tests.
struct AppState {
    InputSource source = InputSource::Book;
    QString text = QStringLiteral("Your journey starts with one step");
    TokenizerKind tokenizer = TokenizerKind::Gpt2;
    Config config;  // defaults: multi-head, d_in 3, d_out 2, 2 heads, causal, seed 123
    uint64_t embeddingSeed = 123;
    bool positions = true;
    QString step = QStringLiteral("weights");
    int head = 0;
    int batchIndex = 0;
    QString colormap = QStringLiteral("auto");  // "auto" or a colormapName()
    bool showValues = true;
};

// The named presets of the preset combo.
struct Preset {
    QString name;       // shown in the combo
    QString key;        // "book", "gpt2-small", ..., "custom"
    bool book = false;  // uses the book inputs
    int64_t d = 0;      // d_in = d_out (GPT-2), 0 for book/custom
    int64_t heads = 0;
};
const std::vector<Preset>& presets();

// "Your", " journey" -> "journey"-like labels for axes: visible whitespace trimmed, never empty.
QString axisLabelForToken(const Token& t);
// Label for a chip: spaces shown as a middle dot, newlines and tabs as arrows.
QString chipTextForToken(const Token& t);
// "(b=1, h=2, T=6, T=6)"
QString namedShape(const StepInfo& info);
QString plainShape(const Shape& shape);  // "(1, 2, 6, 6)"
// A readable name of a variant for the combo ("Multi-head attention (MultiHeadAttention)").
QString variantDisplayName(Variant v);

}  // namespace attn

Q_DECLARE_METATYPE(attn::AppRequest)
Q_DECLARE_METATYPE(attn::AppResult)
Q_DECLARE_METATYPE(attn::TokensUpdate)
