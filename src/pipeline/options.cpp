#include "pipeline/options.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>

#include "engine/embeddings.h"
#include "tokenizer/utf8.h"

namespace attn {

namespace {

class Text {
    Q_DECLARE_TR_FUNCTIONS(attn::Options)
};

[[noreturn]] void bad(const char* field, const QString& message) {
    throw UserError(field, message.toStdString());
}

bool contains(std::initializer_list<SettingGroup> groups, SettingGroup group) {
    for (SettingGroup g : groups)
        if (g == group)
            return true;
    return false;
}

}  // namespace

const std::vector<SizePreset>& sizePresets() {
    static const std::vector<SizePreset> presets = {{"gpt2-small", "GPT-2 small", 768, 12},
                                                    {"gpt2-medium", "GPT-2 medium", 1024, 16},
                                                    {"gpt2-large", "GPT-2 large", 1280, 20},
                                                    {"gpt2-xl", "GPT-2 XL", 1600, 25}};
    return presets;
}

const SizePreset* findSizePreset(const QString& key) {
    for (const SizePreset& p : sizePresets())
        if (key == QLatin1String(p.key))
            return &p;
    return nullptr;
}

void applySizePreset(Config* c, const SizePreset& preset) {
    c->variant = Variant::MultiHead;
    c->dIn = c->dOut = preset.d;
    c->heads = preset.heads;
    c->mask = MaskSpec{MaskKind::Causal, 0};
    c->contextLength = kGpt2ContextLength;
}

void addSettingOptions(QCommandLineParser& parser, std::initializer_list<SettingGroup> groups) {
    if (contains(groups, SettingGroup::Input)) {
        parser.addOption(
            {QStringLiteral("preset"),
             QStringLiteral("book (the chapter's six 3-d vectors), or a GPT-2 size for "
                            "the text: gpt2-small, gpt2-medium, gpt2-large, gpt2-xl."),
             QStringLiteral("name")});
        parser.addOption({QStringLiteral("text-file"),
                          QStringLiteral("UTF-8 file whose text is tokenized and embedded."),
                          QStringLiteral("file")});
    }
    for (const SettingField& f : settingFields()) {
        if (!f.option || !contains(groups, f.group))
            continue;
        QCommandLineOption o(QString::fromLatin1(f.option), QString::fromUtf8(f.help));
        if (f.valueName)
            o.setValueName(QString::fromLatin1(f.valueName));
        parser.addOption(o);
    }
}

QString optionNameOf(const QString& key) {
    if (key == QLatin1String("preset"))
        return QStringLiteral("preset");
    const SettingField* f = findSettingField(key);
    return f && f->option ? QString::fromLatin1(f->option) : key;
}

QVariantMap givenSettings(const QCommandLineParser& p) {
    QVariantMap given;
    // Only options this parser registered can be set; isSet() of an unknown name warns.
    const QStringList known = p.optionNames();
    auto isSet = [&](const char* name) {
        return known.contains(QLatin1String(name)) && p.isSet(QLatin1String(name));
    };
    bool bookPreset = false;
    if (isSet("preset")) {
        const QString name = p.value(QStringLiteral("preset"));
        bookPreset = name == QLatin1String("book");
        if (!bookPreset && !findSizePreset(name))
            bad("input", Text::tr("Unknown preset \"%1\"; the presets are book, gpt2-small, "
                                  "gpt2-medium, gpt2-large and gpt2-xl.")
                             .arg(name));
        given.insert(QStringLiteral("preset"), name);
    }
    const int inputs =
        int(bookPreset) + int(isSet("text")) + int(isSet("text-file")) + int(isSet("embeddings"));
    if (inputs > 1)
        bad("input",
            Text::tr("Give only one input: --preset book, --text, --text-file or --embeddings."));
    if (isSet("ids") && inputs > 0) {
        const char* other = isSet("text")         ? "--text"
                            : isSet("text-file")  ? "--text-file"
                            : isSet("embeddings") ? "--embeddings"
                                                  : "--preset book";
        bad("ids", Text::tr("--ids are the tokens themselves, so %1 would not be read: give "
                            "either the token ids or the text.")
                       .arg(QLatin1String(other)));
    }
    if (isSet("text-file"))
        given.insert(QStringLiteral("text"),
                     readUtf8TextFile(p.value(QStringLiteral("text-file"))));

    Settings probe;  // checks each value as its field reads it
    for (const SettingField& f : settingFields()) {
        if (!f.option || !isSet(f.option))
            continue;
        const QVariant value =
            f.valueName ? QVariant(p.value(QLatin1String(f.option))) : QVariant(!f.negatedFlag);
        const QString problem = f.set(probe, value);
        if (!problem.isEmpty())
            bad(f.key, settingProblem(problem, QStringLiteral("--") + QLatin1String(f.option)));
        given.insert(QLatin1String(f.key), value);
    }
    checkGivenSettingsApply(given);
    return given;
}

void checkGivenSettingsApply(const QVariantMap& given) {
    const auto has = [&](const char* key) { return given.contains(QLatin1String(key)); };
    if (has("model")) {
        // A trained model brings its module, weights, embeddings and tokenizer: the chapter-3
        // module's settings mean nothing to it. (--heads may name a GPT-2 file's head count,
        // which the file itself may not say; whether it applies is known once it is read.)
        static const char* const moduleOnly[] = {
            "tokenizer",    "embedding_seed", "positions", "embeddings_file",
            "weights_file", "variant",        "d_in",      "d_out",
            "kv_groups",    "latent_dim",     "head_dim",  "qk_norm",
            "rope_base",    "rope",           "mask",      "dropout",
            "mode",         "dropout_rng",    "seed",      "qkv_bias",
            "batch",        "context_length"};
        for (const char* key : moduleOnly)
            if (has(key))
                bad(key, Text::tr("--%1 does not apply to a trained model (--model): its file "
                                  "decides its attention, weights and tokenizer. Leave --%1 out.")
                             .arg(optionNameOf(QLatin1String(key))));
        const QString preset = given.value(QStringLiteral("preset")).toString();
        if (!preset.isEmpty() && preset != QLatin1String("book"))
            bad("input", Text::tr("--preset %1 sets the chapter-3 module's sizes, which a trained "
                                  "model (--model) does not use. Leave --preset out.")
                             .arg(preset));
    } else {
        for (const char* key : {"model_config", "layer", "ablate", "ablate_mode"})
            if (has(key))
                bad(key, Text::tr("--%1 is for a trained model: give the model with --model, or "
                                  "leave --%1 out.")
                             .arg(optionNameOf(QLatin1String(key))));
    }
}

Settings applyGivenSettings(const Settings& base, const QVariantMap& given) {
    Settings s = settingsFromMap(given, base);
    Config& c = s.config;
    const auto has = [&](const char* key) { return given.contains(QLatin1String(key)); };

    const QString preset = given.value(QStringLiteral("preset")).toString();
    const SizePreset* size = findSizePreset(preset);
    const bool otherInput = has("text") || has("embeddings_file");
    if (preset == QLatin1String("book")) {
        s.source = InputSource::Book;
        if (!has("d_in"))
            c.dIn = 3;  // the book's vectors are 3-d
    }
    if (size) {
        // The sizes the options give themselves win over the preset's.
        const Config given = c;
        applySizePreset(&c, *size);
        if (has("d_in"))
            c.dIn = given.dIn;
        if (has("d_out"))
            c.dOut = given.dOut;
        if (has("heads"))
            c.heads = given.heads;
        if (has("mask"))
            c.mask = given.mask;
        if (has("variant"))
            c.variant = given.variant;
        if (has("context_length"))
            c.contextLength = given.contextLength;
        if (s.source == InputSource::Book && !otherInput)
            s.source = InputSource::Text;  // the book's sentence, typed
    }
    // Token ids are a text's tokens: the book's vectors would leave them unread.
    if (has("text") || has("ids"))
        s.source = InputSource::Text;
    if (has("embeddings_file"))
        s.source = InputSource::File;
    // A tokenizer is for text: the book example becomes its sentence as typed text.
    if (has("tokenizer") && s.source == InputSource::Book && preset != QLatin1String("book")) {
        s.source = InputSource::Text;
        if (!has("text"))
            s.text = QString::fromStdString(bookSentence());
    }
    if (!has("mask") && has("variant"))
        c.mask = defaultMask(c.variant);
    return s;
}

QString readUtf8TextFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        bad("input", Text::tr("Cannot read %1: %2").arg(path, f.errorString()));
    QByteArray bytes = f.readAll();
    const qsizetype bom = bytes.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    bytes.remove(0, bom);
    const size_t at =
        utf8::firstInvalidByte(std::string_view(bytes.constData(), size_t(bytes.size())));
    if (at != std::string_view::npos)
        bad("input", Text::tr("%1 is not UTF-8 text: the byte 0x%2 at offset %3 (counting from 0) "
                              "does not start or continue a UTF-8 character. Save the file as "
                              "UTF-8.")
                         .arg(path)
                         .arg(uint(uchar(bytes[qsizetype(at)])), 2, 16, QLatin1Char('0'))
                         .arg(qsizetype(at) + bom));
    return QString::fromUtf8(bytes);
}

}  // namespace attn
