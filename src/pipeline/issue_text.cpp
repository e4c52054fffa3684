#include "pipeline/issue_text.h"

#include <QCoreApplication>
#include <QLocale>
#include <QRegularExpression>
#include <QSet>

namespace attn {

namespace {

const char* const kContext = "attn::Validation";

// Every format the engine's validate() and weight check write, as lupdate must see them to
// put them in the .ts files. A format missing here still shows, in English; the pipeline test
// checks that every format the engine writes is listed.
const QSet<QByteArray>& formats() {
    static const QSet<QByteArray> all = {
        QT_TRANSLATE_NOOP("attn::Validation",
                          "d_in (the embedding size) must be at least 1 (it is %1)."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "d_in (the embedding size) = %1 is too large; the limit is %2."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "d_out (the output size) must be at least 1 (it is %1)."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "d_out (the output size) = %1 is too large; the limit is %2."),
        QT_TRANSLATE_NOOP("attn::Validation", "The batch size must be at least 1 (it is %1)."),
        QT_TRANSLATE_NOOP("attn::Validation", "The batch size = %1 is too large; the limit is %2."),
        QT_TRANSLATE_NOOP("attn::Validation", "The context length must be at least 1 (it is %1)."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "The context length = %1 is too large; the limit is %2."),
        QT_TRANSLATE_NOOP("attn::Validation", "The number of heads must be at least 1 (it is %1)."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "The number of heads = %1 is too large; the limit is %2."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "d_out = %1 is not divisible by %2 heads, so the heads cannot share "
                          "it equally. Valid head counts for d_out = %1: %3."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "The number of key/value groups must be from 1 to %1 (it is %2)."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "1 head cannot share %2 key/value groups equally: each group serves "
                          "heads / groups query heads. Valid group counts for 1 head: %3."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "%1 heads cannot share %2 key/value groups equally: each group serves "
                          "heads / groups query heads. Valid group counts for %1 heads: %3."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "The latent size must be from 1 to %1, or 0 for the book's default "
                          "max(16, d_out / 8) (it is %2)."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "head_dim must be from 1 to %1, or 0 for d_in / heads (it is %2)."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "d_in = %1 is not divisible by %2 heads, so head_dim cannot default "
                          "to d_in / heads: set head_dim"),
        QT_TRANSLATE_NOOP("attn::Validation", " (an even number, such as 2 or 4)"),
        QT_TRANSLATE_NOOP("attn::Validation", "."),
        QT_TRANSLATE_NOOP("attn::Validation", ", or pick heads from %1."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "RoPE rotates pairs of numbers, so the head size must be even; it is "
                          "%1"),
        QT_TRANSLATE_NOOP("attn::Validation", " (d_in / heads)"),
        QT_TRANSLATE_NOOP("attn::Validation", ". Set head_dim to %1"),
        QT_TRANSLATE_NOOP("attn::Validation", " or %1"),
        QT_TRANSLATE_NOOP("attn::Validation", ", or switch the rotation off."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "The RoPE base must be a positive number, such as 10000 (Llama 2) or "
                          "1000000 (Qwen3)."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "Qwen3's GroupedQueryAttention (rotary) has no biases: switch the "
                          "query, key and value bias off."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "The window size K must be at least 1 (each token sees itself and the "
                          "K-1 tokens before it); it is %1."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "The dropout rate must be at least 0 and below 1 (it is %1); at 1 "
                          "every attention weight would be dropped."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "There are no tokens: type some text or pick a preset."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "The input has %1 tokens, more than the context length of %2. Shorten "
                          "the text or raise the context length."),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "This configuration needs about %1 to keep every step, more than the "
                          "budget of %2; "),
        QT_TRANSLATE_NOOP("attn::Validation", "d_out = %1 takes the most."),
        QT_TRANSLATE_NOOP("attn::Validation", "d_in = %1 takes the most."),
        QT_TRANSLATE_NOOP("attn::Validation", "the batch = %1 takes the most."),
        QT_TRANSLATE_NOOP("attn::Validation", "the text's tokens = %1 takes the most."),
        QT_TRANSLATE_NOOP("attn::Validation", "the heads = %1 takes the most."),
        QT_TRANSLATE_NOOP("attn::Validation", "head_dim = %1 takes the most."),
        QT_TRANSLATE_NOOP("attn::Validation", " A d_out of at most %1 fits."),
        QT_TRANSLATE_NOOP("attn::Validation", " A d_in of at most %1 fits."),
        QT_TRANSLATE_NOOP("attn::Validation", " A batch of at most %1 fits."),
        QT_TRANSLATE_NOOP("attn::Validation", " A text of at most %1 tokens fits."),
        QT_TRANSLATE_NOOP("attn::Validation", " At most %1 heads fit."),
        QT_TRANSLATE_NOOP("attn::Validation", " A head_dim of at most %1 fits."),
        // A weights file that does not fit the module (engine/weight_check.cpp), after the
        // file's name; its problems are joined by "; " and end with ".".
        QT_TRANSLATE_NOOP("attn::Validation", "%1: "),
        QT_TRANSLATE_NOOP("attn::Validation", "; "),
        QT_TRANSLATE_NOOP("attn::Validation", "%1 has shape %2 but this model needs %3 %4"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "%1 has shape %2 but this model needs %3 (context_length, "
                          "context_length)"),
        QT_TRANSLATE_NOOP("attn::Validation", "; set context_length to %1 to match the file"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "%1 is not the causal mask torch.triu(torch.ones(%2, %2), "
                          "diagonal=1): element [%3][%4] is %5, expected %6"),
        QT_TRANSLATE_NOOP("attn::Validation", "missing %1"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          " (turn off qkv_bias if the module was built without biases)"),
        QT_TRANSLATE_NOOP("attn::Validation", "unexpected %1"),
        QT_TRANSLATE_NOOP("attn::Validation", " (%1 has no weights)"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          " (the file has query/key/value biases: turn on qkv_bias)"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          " (plain W_query, W_key, W_value belong to self-attention-v1)"),
        QT_TRANSLATE_NOOP("attn::Validation", " (heads.N names belong to multi-head-wrapper)"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          " (W_query.weight is an nn.Linear layer: choose self-attention, not "
                          "self-attention-v1)"),
        // A file or model that cannot be read (src/io, UserError's parts), after "%1: " with
        // the file's name where the format does not name the path itself.
        QT_TRANSLATE_NOOP("attn::Validation", "Cannot read %1: the file does not exist"),
        QT_TRANSLATE_NOOP("attn::Validation", "Cannot read %1: it is a folder, not a file"),
        QT_TRANSLATE_NOOP("attn::Validation", "Cannot read %1: you have no permission to read it"),
        QT_TRANSLATE_NOOP("attn::Validation", "Cannot read %1: the file is too large to load"),
        QT_TRANSLATE_NOOP("attn::Validation", "Cannot read %1: the file changed while reading"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "Cannot read %1: it is not a regular file (a model file must be mapped "
                          "into memory)"),
        QT_TRANSLATE_NOOP("attn::Validation", "the file is empty"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "this is neither a .safetensors file nor a PyTorch file written by "
                          "torch.save; a model comes as model.safetensors, pytorch_model.bin or a "
                          ".pth saved with torch.save(model.state_dict(), path)"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "the folder has no config.json; a Hugging Face model folder holds "
                          "config.json, model.safetensors (or model.safetensors.index.json and "
                          "its shards) and tokenizer.json"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "the folder has neither model.safetensors nor "
                          "model.safetensors.index.json with its shards"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "it holds model.embed_tokens.weight, the weights of a Llama, Qwen or "
                          "Gemma model, which need their config.json: give the model's folder, "
                          "or its config.json with --config"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "it has no %1, so it is not the book's GPTModel; a Llama3Model, "
                          "Qwen3Model or Gemma3Model state_dict needs its config.json "
                          "(--config)"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "d_model = %1 cannot be split into %2 heads of equal size. Valid head "
                          "counts: %3."),
        QT_TRANSLATE_NOOP("attn::Validation", "its config says %1 = %2 but its weights have %3"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "it is not a GPT-2 model: it has neither %1 (Hugging Face GPT-2) nor %2 "
                          "(the book's GPTModel)"),
        QT_TRANSLATE_NOOP("attn::Validation", " and holds no tensors at all"),
        QT_TRANSLATE_NOOP("attn::Validation", "; it holds %1"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "it has neither %1 (Hugging Face's names) nor %2 (the book's), so it is "
                          "not a %3 model as its config says"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "%1 has dtype %2; a model's weights must be F32, F16 or BF16"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "its tokenizer.json has ids up to %1, beyond the model's vocabulary of "
                          "%2 (is it this model's tokenizer?)"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "the folder has no tokenizer.json, where a Hugging Face model keeps "
                          "its tokenizer"),
        // A tokenizer.json's content (tokenizer/hf_tokenizer.cpp).
        QT_TRANSLATE_NOOP("attn::Validation", "%1 has no \"%2\""),
        QT_TRANSLATE_NOOP("attn::Validation", "%1 must be a string"),
        QT_TRANSLATE_NOOP("attn::Validation", "%1 must be an object"),
        QT_TRANSLATE_NOOP("attn::Validation", "%1 must be an array"),
        QT_TRANSLATE_NOOP("attn::Validation", "%1 must be true or false"),
        QT_TRANSLATE_NOOP("attn::Validation", "%1 must be a whole number"),
        QT_TRANSLATE_NOOP("attn::Validation", "the regex \"%1\" does not compile at offset %2: %3"),
        QT_TRANSLATE_NOOP("attn::Validation", "%1 must be {\"String\": ...} or {\"Regex\": ...}"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "%1 is \"%2\", a normalizer this program does not apply; it applies NFC, "
                          "NFD, NFKC, NFKD, Lowercase, Replace, Prepend, Strip and Sequence"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "%1 is \"%2\"; it must be Removed, Isolated, MergedWithPrevious, "
                          "MergedWithNext or Contiguous"),
        QT_TRANSLATE_NOOP("attn::Validation", "%1 is \"%2\"; it must be always, first or never"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "%1 is \"%2\", a pre-tokenizer this program does not apply; it applies "
                          "Split, ByteLevel, Metaspace, Digits and Sequence"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "model.type is \"%1\"; this program reads BPE tokenizers (Llama 3, Qwen, "
                          "SmolLM2, Gemma 3, TinyLlama), not %1"),
        QT_TRANSLATE_NOOP("attn::Validation", "%1 is set; this program reads BPE without one"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "model.dropout is set; a tokenizer for inference has none"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "model.vocab gives \"%1\" the id %2, outside 0 to 16,777,215"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "model.vocab gives the id %1 to both \"%2\" and \"%3\""),
        QT_TRANSLATE_NOOP("attn::Validation", "model.unk_token \"%1\" is not in model.vocab"),
        QT_TRANSLATE_NOOP("attn::Validation", "%1 is \"%2\"; a merge is \"left right\""),
        QT_TRANSLATE_NOOP("attn::Validation", "%1 must be two strings"),
        QT_TRANSLATE_NOOP("attn::Validation", "%1 must be \"left right\" or [left, right]"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "%1 merges \"%2\" and \"%3\", but \"%4\" is not in model.vocab"),
        QT_TRANSLATE_NOOP("attn::Validation", "%1 is %2, outside 0 to 16,777,215"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "%1 is \"%2\", a post-processor this program does not apply; it applies "
                          "ByteLevel, TemplateProcessing and Sequence"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "%1 must be {\"SpecialToken\": ...} or {\"Sequence\": ...}"),
        QT_TRANSLATE_NOOP("attn::Validation", "%1 names \"%2\", which %3 lacks"),
        QT_TRANSLATE_NOOP("attn::Validation", "%1 has id %2, outside the vocabulary"),
        QT_TRANSLATE_NOOP("attn::Validation", "it is not JSON: %1"),
        QT_TRANSLATE_NOOP("attn::Validation", "model.vocab is empty"),
        // config.json's keys and values.
        QT_TRANSLATE_NOOP("attn::Validation", "a config.json holds one object, not "),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "it has no \"model_type\"; a Hugging Face config names its "
                          "architecture there (this program reads %1 and %2)"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "\"model_type\" = \"%1\" is not a model this program reads; it reads "
                          "%2 and %3"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "it has no \"text_config\" object, where a gemma3 config keeps its "
                          "text model"),
        QT_TRANSLATE_NOOP("attn::Validation", "it has no \"%1\", which this model type needs"),
        QT_TRANSLATE_NOOP("attn::Validation", "\"%1\" = %2 is not a finite number"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "\"%1\" = %2 is not a size this model can have: it must be a whole "
                          "number from %3 to %4"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "\"%1\" = %2 is out of range: it must be above 0 and at most %3"),
        QT_TRANSLATE_NOOP("attn::Validation", "\"%1\" is "),
        QT_TRANSLATE_NOOP("attn::Validation", "; it must be a number"),
        QT_TRANSLATE_NOOP("attn::Validation", "; it must be true or false"),
        QT_TRANSLATE_NOOP("attn::Validation", "; it must be a string"),
        QT_TRANSLATE_NOOP("attn::Validation", "; it must be an object"),
        // A JSON value's type (io/json_reader's jsonTypePart).
        QT_TRANSLATE_NOOP("attn::Validation", "null"),
        QT_TRANSLATE_NOOP("attn::Validation", "a boolean"),
        QT_TRANSLATE_NOOP("attn::Validation", "a number"),
        QT_TRANSLATE_NOOP("attn::Validation", "a string"),
        QT_TRANSLATE_NOOP("attn::Validation", "an array"),
        QT_TRANSLATE_NOOP("attn::Validation", "an object"),
        // A JSON file's syntax (io/json_reader), followed by where: " (line 3, column 5)".
        QT_TRANSLATE_NOOP("attn::Validation", " (line %1, column %2)"),
        QT_TRANSLATE_NOOP("attn::Validation", "the file ends early, expected "),
        QT_TRANSLATE_NOOP("attn::Validation", "expected "),
        QT_TRANSLATE_NOOP("attn::Validation", " but found '%1'"),
        QT_TRANSLATE_NOOP("attn::Validation", "':' after an object key"),
        QT_TRANSLATE_NOOP("attn::Validation", "',' or '}' in an object"),
        QT_TRANSLATE_NOOP("attn::Validation", "',' or ']' in an array"),
        QT_TRANSLATE_NOOP("attn::Validation", "':' after a weight name"),
        QT_TRANSLATE_NOOP("attn::Validation", "',' or '}' after a weight"),
        QT_TRANSLATE_NOOP("attn::Validation", "unexpected '%1' after the end of the JSON value"),
        QT_TRANSLATE_NOOP("attn::Validation", "the file ends early, expected a string"),
        QT_TRANSLATE_NOOP("attn::Validation", "expected a string in double quotes but found '%1'"),
        QT_TRANSLATE_NOOP("attn::Validation", "a string is not closed (missing '\"')"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "a control character (line break or tab) inside a string must be "
                          "escaped"),
        QT_TRANSLATE_NOOP("attn::Validation", "the file ends early, expected a value"),
        QT_TRANSLATE_NOOP("attn::Validation", "unexpected character '%1'"),
        // Files that are not what their name says.
        QT_TRANSLATE_NOOP("attn::Validation",
                          "this is not a NumPy .npy file (it does not start with \\x93NUMPY)"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "the file is truncated: it is %1 bytes, shorter than the 8-byte header "
                          "length"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "the header length says %1 bytes but the file has only %2 bytes after "
                          "it; the file is truncated or not a safetensors file"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "the header does not start with '{'; this is not a safetensors file"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "this is a PyTorch file in the legacy format of PyTorch before 1.6, "
                          "which is not read; save it again with a current torch.save, or use "
                          "the model's .safetensors file"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "the archive holds no <name>/data.pkl, so torch.save did not write it; "
                          "save the state_dict with torch.save(model.state_dict(), path)"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "the file is empty; expected nested arrays of numbers"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "embeddings must be a .npy, .json or .csv file, not '(no extension)'"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "embeddings must be a .npy, .json or .csv file, not '%1'"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "weights must be a .json or .safetensors file, not '(no extension)'"),
        QT_TRANSLATE_NOOP("attn::Validation",
                          "weights must be a .json or .safetensors file, not '%1'"),
    };
    return all;
}

// An argument as the language writes numbers: "1.5 GiB" and "0.25" take the locale's decimal
// point. Whole numbers and lists of them stay as they are (no group separators: "50257"
// reads the same in both languages, and a size is typed back without them).
QString localArgument(const std::string& arg) {
    QString a = QString::fromStdString(arg);
    static const QRegularExpression decimal(QStringLiteral("^-?\\d+\\.\\d+( \\S+)?$"));
    const QString point = QLocale().decimalPoint();
    if (point != QLatin1String(".") && decimal.match(a).hasMatch())
        a.replace(QLatin1Char('.'), point);
    return a;
}

}  // namespace

bool isTranslatableFormat(const std::string& format) {
    return formats().contains(QByteArray::fromStdString(format));
}

QList<QByteArray> translatableFormats() {
    return formats().values();
}

QString issueText(const ValidationIssue& issue) {
    if (issue.parts.empty())
        return QString::fromStdString(issue.message);
    QString out;
    for (const MessagePart& part : issue.parts) {
        const QString f = QCoreApplication::translate(kContext, part.format.c_str());
        // %1 .. %9 as the engine fills them (QString::arg would also take %10 and renumber).
        for (qsizetype i = 0; i < f.size(); ++i) {
            const QChar c = f[i];
            if (c == QLatin1Char('%') && i + 1 < f.size() && f[i + 1] >= QLatin1Char('1') &&
                f[i + 1] <= QLatin1Char('9') &&
                size_t(f[i + 1].unicode() - '1') < part.args.size()) {
                out += localArgument(part.args[size_t(f[i + 1].unicode() - '1')]);
                ++i;
            } else {
                out += c;
            }
        }
    }
    return out;
}

QString errorText(const std::exception& error) {
    const auto* user = dynamic_cast<const UserError*>(&error);
    if (!user || user->parts().empty())
        return QString::fromUtf8(error.what());
    return issueText(ValidationIssue{user->field(), user->what(), user->parts()});
}

ValidationIssue issueOf(const UserError& error) {
    ValidationIssue issue{error.field(), error.what(), error.parts()};
    if (!issue.parts.empty())
        issue.message = issueText(issue).toStdString();
    return issue;
}

void translateIssues(std::vector<ValidationIssue>& issues) {
    for (ValidationIssue& issue : issues)
        if (!issue.parts.empty())
            issue.message = issueText(issue).toStdString();
}

}  // namespace attn
