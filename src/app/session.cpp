#include "app/session.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "engine/config.h"
#include "io/file_io.h"

namespace attn {

namespace {

QString sourceName(InputSource s) {
    switch (s) {
        case InputSource::Book:
            return QStringLiteral("book");
        case InputSource::Text:
            return QStringLiteral("text");
        case InputSource::File:
            return QStringLiteral("file");
    }
    return QStringLiteral("book");
}

[[noreturn]] void corrupt(const QString& name, const QString& why) {
    throw EngineError(
        "session",
        QObject::tr("%1: not a valid Attention Lens session (%2).").arg(name, why).toStdString());
}

QJsonObject fileObject(const SessionFile& f) {
    QJsonObject o;
    o["path"] = f.path;
    o["sha256"] = f.sha256;
    return o;
}

// Reads settings one by one: a wrong type is corruption, a missing key keeps the default and is
// noted (older files lack settings that came later).
class Reader {
  public:
    Reader(const QJsonObject& o, QString name, QStringList* notes)
        : o_(o), name_(std::move(name)), notes_(notes) {}

    bool has(const char* key) const {
        if (o_.contains(key))
            return true;
        if (notes_)
            *notes_ << QObject::tr("The session has no \"%1\"; the default is used.").arg(key);
        return false;
    }
    QString string(const char* key, const QString& fallback) const {
        if (!has(key))
            return fallback;
        if (!o_[key].isString())
            corrupt(name_, QObject::tr("\"%1\" should be text").arg(key));
        return o_[key].toString();
    }
    int64_t integer(const char* key, int64_t fallback) const {
        if (!has(key))
            return fallback;
        const QJsonValue v = o_[key];
        if (!v.isDouble() ||
            v.toDouble() != static_cast<double>(static_cast<int64_t>(v.toDouble())))
            corrupt(name_, QObject::tr("\"%1\" should be a whole number").arg(key));
        return static_cast<int64_t>(v.toDouble());
    }
    // Seeds go up to 2^64 - 1, beyond what JSON numbers hold exactly: stored as text.
    uint64_t seed(const char* key, uint64_t fallback) const {
        if (!has(key))
            return fallback;
        bool ok = false;
        const qulonglong v = o_[key].toString().toULongLong(&ok);
        if (!o_[key].isString() || !ok)
            corrupt(name_, QObject::tr("\"%1\" should be a seed").arg(key));
        return v;
    }
    double number(const char* key, double fallback) const {
        if (!has(key))
            return fallback;
        if (!o_[key].isDouble())
            corrupt(name_, QObject::tr("\"%1\" should be a number").arg(key));
        return o_[key].toDouble();
    }
    bool boolean(const char* key, bool fallback) const {
        if (!has(key))
            return fallback;
        if (!o_[key].isBool())
            corrupt(name_, QObject::tr("\"%1\" should be true or false").arg(key));
        return o_[key].toBool();
    }
    SessionFile file(const char* key) const {
        SessionFile f;
        if (!o_.contains(key) || o_[key].isNull())
            return f;
        if (!o_[key].isObject())
            corrupt(name_, QObject::tr("\"%1\" should be an object").arg(key));
        const QJsonObject fo = o_[key].toObject();
        f.path = fo["path"].toString();
        f.sha256 = fo["sha256"].toString();
        return f;
    }

  private:
    QJsonObject o_;
    QString name_;
    QStringList* notes_;
};

}  // namespace

QByteArray sessionToJson(const Session& s) {
    const AppState& st = s.state;
    const Config& c = st.config;
    QJsonObject o;
    o["format"] = QStringLiteral("attention-lens-session");
    o["version"] = kSessionVersion;
    o["source"] = sourceName(st.source);
    o["text"] = st.text;
    o["tokenizer"] = QString::fromStdString(tokenizerName(st.tokenizer));
    o["variant"] = QString::fromStdString(variantName(c.variant));
    o["d_in"] = static_cast<double>(c.dIn);
    o["d_out"] = static_cast<double>(c.dOut);
    o["heads"] = static_cast<double>(c.heads);
    o["mask"] = QString::fromStdString(maskName(c.effectiveMask()));
    o["dropout"] = c.dropout;
    o["mode"] = QString::fromStdString(modeName(c.mode));
    o["dropout_rng"] = QString::fromStdString(dropoutRngName(c.dropoutRng));
    o["seed"] = QString::number(c.seed);
    o["qkv_bias"] = c.qkvBias;
    o["batch"] = static_cast<double>(c.batch);
    o["context_length"] = static_cast<double>(c.contextLength);
    o["embedding_seed"] = QString::number(st.embeddingSeed);
    o["positions"] = st.positions;
    o["step"] = st.step;
    o["head"] = st.head;
    o["batch_index"] = st.batchIndex;
    o["colormap"] = st.colormap;
    o["show_values"] = st.showValues;
    o["embeddings_file"] =
        s.embeddings.path.isEmpty() ? QJsonValue() : QJsonValue(fileObject(s.embeddings));
    o["weights_file"] = s.weights.path.isEmpty() ? QJsonValue() : QJsonValue(fileObject(s.weights));
    o["window_geometry"] = QString::fromLatin1(s.windowGeometry.toBase64());
    o["window_state"] = QString::fromLatin1(s.windowState.toBase64());
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

Session sessionFromJson(const QByteArray& bytes, const QString& name, QStringList* notes) {
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &err);
    if (err.error != QJsonParseError::NoError)
        corrupt(name, QObject::tr("%1 at byte %2").arg(err.errorString()).arg(err.offset));
    if (!doc.isObject())
        corrupt(name, QObject::tr("the file is not a JSON object"));
    const QJsonObject o = doc.object();
    if (o["format"].toString() != QLatin1String("attention-lens-session"))
        corrupt(name, QObject::tr("it does not say \"format\": \"attention-lens-session\""));
    if (!o["version"].isDouble())
        corrupt(name, QObject::tr("it has no version number"));
    const int version = o["version"].toInt();
    if (version > kSessionVersion)
        throw EngineError("session",
                          QObject::tr("%1 was saved by a newer Attention Lens (session version "
                                      "%2; this one reads up to %3). Update the app to open it.")
                              .arg(name)
                              .arg(version)
                              .arg(kSessionVersion)
                              .toStdString());

    QStringList missing;
    const Reader r(o, name, &missing);
    Session s;
    AppState& st = s.state;
    Config& c = st.config;
    const QString source = r.string("source", sourceName(st.source));
    if (source == "book")
        st.source = InputSource::Book;
    else if (source == "text")
        st.source = InputSource::Text;
    else if (source == "file")
        st.source = InputSource::File;
    else
        corrupt(name, QObject::tr("unknown source \"%1\"").arg(source));
    st.text = r.string("text", st.text);
    const auto tok = parseTokenizer(r.string("tokenizer", "gpt2").toStdString());
    if (!tok)
        corrupt(name, QObject::tr("unknown tokenizer"));
    st.tokenizer = *tok;
    const auto variant = parseVariant(
        r.string("variant", QString::fromStdString(variantName(c.variant))).toStdString());
    if (!variant)
        corrupt(name, QObject::tr("unknown variant"));
    c.variant = *variant;
    c.dIn = r.integer("d_in", c.dIn);
    c.dOut = r.integer("d_out", c.dOut);
    c.heads = r.integer("heads", c.heads);
    const auto mask = parseMask(
        r.string("mask", QString::fromStdString(maskName(c.effectiveMask()))).toStdString());
    if (!mask)
        corrupt(name, QObject::tr("unknown mask"));
    c.mask = *mask;
    c.dropout = r.number("dropout", c.dropout);
    const auto mode = parseMode(r.string("mode", "train").toStdString());
    if (!mode)
        corrupt(name, QObject::tr("unknown mode"));
    c.mode = *mode;
    const auto rng = parseDropoutRng(r.string("dropout_rng", "default").toStdString());
    if (!rng)
        corrupt(name, QObject::tr("unknown dropout generator"));
    c.dropoutRng = *rng;
    c.seed = r.seed("seed", c.seed);
    c.qkvBias = r.boolean("qkv_bias", c.qkvBias);
    c.batch = r.integer("batch", c.batch);
    c.contextLength = r.integer("context_length", c.contextLength);
    st.embeddingSeed = r.seed("embedding_seed", st.embeddingSeed);
    st.positions = r.boolean("positions", st.positions);
    st.step = r.string("step", st.step);
    st.head = static_cast<int>(r.integer("head", st.head));
    st.batchIndex = static_cast<int>(r.integer("batch_index", st.batchIndex));
    st.colormap = r.string("colormap", st.colormap);
    st.showValues = r.boolean("show_values", st.showValues);
    s.embeddings = r.file("embeddings_file");
    s.weights = r.file("weights_file");
    s.windowGeometry = QByteArray::fromBase64(r.string("window_geometry", {}).toLatin1());
    s.windowState = QByteArray::fromBase64(r.string("window_state", {}).toLatin1());
    if (st.source == InputSource::File && s.embeddings.path.isEmpty())
        corrupt(name, QObject::tr("the input is a file but no embeddings file is named"));
    if (notes)
        *notes << missing;
    return s;
}

Session readSession(const QString& path, QStringList* notes) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        throw EngineError(
            "session", QObject::tr("Cannot open %1: %2").arg(path, f.errorString()).toStdString());
    if (f.size() > 64 * 1024 * 1024)
        corrupt(QFileInfo(path).fileName(), QObject::tr("the file is larger than any session"));
    return sessionFromJson(f.readAll(), QFileInfo(path).fileName(), notes);
}

void writeSession(const QString& path, const Session& session) {
    const QByteArray bytes = sessionToJson(session);
    io::writeFileAtomically(path.toStdString(),
                            std::string_view(bytes.constData(), size_t(bytes.size())));
}

QString fileSha256(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    if (!h.addData(&f))
        return {};
    return QString::fromLatin1(h.result().toHex());
}

}  // namespace attn
