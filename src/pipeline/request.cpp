#include "pipeline/request.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLocale>
#include <algorithm>

#include "engine/embeddings.h"
#include "engine/weight_check.h"
#include "io/file_io.h"
#include "io/loaders.h"
#include "pipeline/issue_text.h"

namespace attn {

namespace {

class Text {
    Q_DECLARE_TR_FUNCTIONS(attn::Request)
};

std::string fileName(const QString& path) {
    return QFileInfo(path).fileName().toStdString();
}

}  // namespace

std::shared_ptr<const Tensor> readEmbeddings(const QString& path) {
    return std::make_shared<const Tensor>(io::readEmbeddingsFile(path.toStdString()));
}

std::shared_ptr<const WeightMap> readWeights(const QString& path) {
    return std::make_shared<const WeightMap>(io::readWeightsFile(path.toStdString()));
}

InputFiles readInputFiles(const Settings& settings) {
    InputFiles files;
    if (settings.source == InputSource::File) {
        if (settings.embeddingsFile.isEmpty())
            throw UserError(
                "embeddings",
                Text::tr("The input is an embeddings file, but none is named.").toStdString());
        files.embeddings = readEmbeddings(settings.embeddingsFile);
    }
    if (!settings.weightsFile.isEmpty())
        files.weights = readWeights(settings.weightsFile);
    return files;
}

QStringList fitSettingsToFiles(Settings* settings, const InputFiles& files, GivenSizes given) {
    QStringList notes;
    Config& c = settings->config;
    if (files.embeddings && settings->source == InputSource::File) {
        const Tensor& x = *files.embeddings;
        if (!given.dIn && x.dim() >= 2)
            c.dIn = x.size(-1);
        if (x.dim() == 3)
            c.batch = x.size(0);
    }
    if (files.weights) {
        if (const auto n = maskBufferSize(*files.weights); n && *n != c.contextLength) {
            const QString name = QFileInfo(settings->weightsFile).fileName();
            if (given.contextLength)
                throw UserError(
                    "context_length",
                    Text::tr("The context length is %1, but the mask buffer in %2 is %3 x %3. "
                             "Leave the context length out to use the file's, or give %3.")
                        .arg(c.contextLength)
                        .arg(name)
                        .arg(*n)
                        .toStdString());
            c.contextLength = *n;
            notes << Text::tr("The context length is %1, the size of the mask buffer in %2.")
                         .arg(*n)
                         .arg(name);
        }
    }
    return notes;
}

GivenSizes givenSizes(const Settings& before, const QVariantMap& given) {
    GivenSizes g;
    g.dIn = given.contains(QStringLiteral("d_in"));
    g.contextLength = given.contains(QStringLiteral("context_length")) ||
                      before.config.contextLength != Config().contextLength;
    return g;
}

void refuseTextBeyondContext(std::string_view text, int64_t contextLength, bool contextIsSetting,
                             const std::function<int64_t(std::string_view)>& countTokens) {
    if (contextLength < 1)
        return;
    const auto space = [](char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; };
    for (size_t length = size_t(std::max<int64_t>(4096, contextLength * 8)); length < text.size();
         length *= 4) {
        // A space with a word on either side starts a pre-token in every pre-tokenizer the
        // tokenizers use (GPT-2's and Llama 3's regexes, Metaspace): the beginning's tokens are
        // the whole text's up to there. Within a few KB of `length`, else the next length.
        size_t cut = length;
        const size_t stop = std::min(text.size() - 1, length + 4096);
        while (cut < stop && !(text[cut] == ' ' && !space(text[cut - 1]) && !space(text[cut + 1])))
            ++cut;
        if (cut >= stop)
            continue;
        const int64_t n = countTokens(text.substr(0, cut));
        // A tokenizer without a pre-tokenizer (BPE over the whole stretch) may merge across the
        // cut: a margin for that, far below the factor of 4 between two beginnings.
        if (n - 2 - n / 64 > contextLength) {
            const QLocale c = QLocale::c();
            throw UserError(
                "input",
                Text::tr("The text is too long for the context length of %1 tokens: "
                         "its first %2 alone make %3 tokens, and the whole text is "
                         "%4. %5")
                    .arg(c.toString(qlonglong(contextLength)))
                    .arg(c.formattedDataSize(qint64(cut), 1, QLocale::DataSizeSIFormat))
                    .arg(c.toString(qlonglong(n)))
                    .arg(c.formattedDataSize(qint64(text.size()), 1, QLocale::DataSizeSIFormat))
                    .arg(contextIsSetting ? Text::tr("Shorten the text or raise the context "
                                                     "length.")
                                          : Text::tr("Shorten the text."))
                    .toStdString());
        }
    }
}

QString textFileBeyondContext(const QString& path, int64_t bytes, int64_t contextLength,
                              bool contextIsSetting, int64_t maxBytesPerToken) {
    if (maxBytesPerToken < 1 || contextLength < 1 || bytes <= contextLength * maxBytesPerToken)
        return {};
    const QLocale c = QLocale::c();
    return Text::tr(
               "%1 is %2, too long for the context length of %3 tokens: a token stands for "
               "at most %4 bytes, so at most %5 of text fit. %6")
        .arg(QFileInfo(path).fileName())
        .arg(c.formattedDataSize(qint64(bytes), 1, QLocale::DataSizeSIFormat))
        .arg(c.toString(qlonglong(contextLength)))
        .arg(maxBytesPerToken)
        .arg(c.formattedDataSize(qint64(contextLength * maxBytesPerToken), 1,
                                 QLocale::DataSizeSIFormat))
        .arg(contextIsSetting ? Text::tr("Open a shorter text or raise the context length.")
                              : Text::tr("Open a shorter text."));
}

InputTokens tokenizeInput(const Settings& settings, const InputFiles& files) {
    InputTokens in;
    switch (settings.source) {
        case InputSource::Book:
            in.labels = bookTokens();
            // The sentence's GPT-2 tokens are its six words, so the chips can show their ids.
            in.tokens = tokenize(TokenizerKind::Gpt2, bookSentence());
            if (in.tokens.size() != in.labels.size())
                in.tokens.clear();
            break;
        case InputSource::Text: {
            if (settings.inputIds.empty()) {
                const QByteArray utf8 = settings.text.toUtf8();
                refuseTextBeyondContext(std::string_view(utf8.constData(), size_t(utf8.size())),
                                        settings.config.contextLength, true,
                                        [kind = settings.tokenizer](std::string_view prefix) {
                                            return int64_t(tokenize(kind, prefix).size());
                                        });
            }
            in.tokens = settings.textTokens();
            for (const Token& t : in.tokens)
                in.labels.push_back(t.display);
            break;
        }
        case InputSource::File: {
            const int64_t T =
                files.embeddings && files.embeddings->dim() >= 2 ? files.embeddings->size(-2) : 0;
            for (int64_t t = 0; t < T; ++t)
                in.labels.push_back(std::to_string(t));
            break;
        }
    }
    return in;
}

std::vector<ValidationIssue> checkSettings(const Settings& settings, const InputFiles& files,
                                           int64_t tokens) {
    const Config& c = settings.config;
    std::vector<ValidationIssue> issues = validate(c, tokens);
    translateIssues(issues);  // the engine writes English; the GUI may speak another language
    if (tokens == 0 && settings.source == InputSource::Text)
        for (ValidationIssue& issue : issues)
            if (issue.field == "input")
                issue = {issue.field,
                         Text::tr("The text has no tokens: type a word or two.").toStdString()};
    auto add = [&](const char* field, const QString& message) {
        issues.push_back({field, message.toStdString()});
    };
    switch (settings.source) {
        case InputSource::Book:
            if (c.dIn != 3)
                add("d_in", Text::tr("The book's input vectors are 3-dimensional, so d_in must be "
                                     "3 (it is %1).")
                                .arg(c.dIn));
            break;
        case InputSource::Text:
            if (c.dIn > kMaxEmbeddingDim)
                add("d_in", Text::tr("The chapter-2 embeddings go up to d_in = %1 (PyTorch draws "
                                     "the whole 50,257 x d_in table); d_in is %2. Load an "
                                     "embeddings file for wider inputs.")
                                .arg(kMaxEmbeddingDim)
                                .arg(c.dIn));
            break;
        case InputSource::File: {
            if (!files.embeddings) {
                add("embeddings", Text::tr("No embeddings file is loaded."));
                break;
            }
            const Tensor& x = *files.embeddings;
            if (x.dim() >= 2 && x.size(-1) != c.dIn)
                add("d_in", Text::tr("The embeddings file has %1 numbers per token, so d_in must "
                                     "be %1 (it is %2).")
                                .arg(x.size(-1))
                                .arg(c.dIn));
            if (x.dim() == 3 && x.size(0) != c.batch)
                add("batch", Text::tr("The embeddings file holds %1 batch entries, so the batch "
                                      "size must be %1 (it is %2).")
                                 .arg(x.size(0))
                                 .arg(c.batch));
            break;
        }
    }
    if (files.weights && variantHasWeights(c.variant)) {
        const auto problems = weightProblemParts(*files.weights, c);
        if (!problems.empty()) {
            ValidationIssue issue{"weights", {}, {{"%1: ", {fileName(settings.weightsFile)}}}};
            for (size_t i = 0; i < problems.size(); ++i) {
                if (i)
                    issue.parts.push_back({"; ", {}});
                issue.parts.insert(issue.parts.end(), problems[i].begin(), problems[i].end());
            }
            issue.parts.push_back({".", {}});
            issue.message = issueText(issue).toStdString();
            issues.push_back(std::move(issue));
        }
    }
    return issues;
}

Tensor embedInput(const Settings& settings, const InputFiles& files, const InputTokens& tokens,
                  const CancelToken* cancel) {
    const auto issues = checkSettings(settings, files, tokens.count());
    if (!issues.empty())
        throw UserError(issues.front().field, issues.front().message);
    switch (settings.source) {
        case InputSource::Book:
            return bookInputs();
        case InputSource::File:
            return *files.embeddings;
        case InputSource::Text: {
            EmbeddingConfig e;
            e.seed = settings.embeddingSeed;
            e.dIn = settings.config.dIn;
            e.contextLength = settings.config.contextLength;
            e.positions = settings.positions;
            return chapterTwoEmbeddings(e, tokenIds(tokens.tokens), cancel);
        }
    }
    return {};
}

QStringList rowLabels(const TraceRun& run) {
    QStringList labels;
    labels.reserve(qsizetype(run.input.labels.size()));
    for (const std::string& l : run.input.labels)
        labels << QString::fromStdString(l);
    return labels;
}

}  // namespace attn
