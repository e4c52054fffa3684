#include "app/session.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>

#include "io/file_io.h"

namespace attn {

namespace {

const char* const kEmbeddingsKey = "embeddings_file";
const char* const kWeightsKey = "weights_file";
const char* const kModelKey = "model_file";

[[noreturn]] void corrupt(const QString& name, const QString& why) {
    throw UserError(
        "session",
        QObject::tr("%1: not a valid Attention Lens session (%2).").arg(name, why).toStdString());
}

QJsonValue fileValue(const SessionFile& f) {
    if (f.path.isEmpty())
        return QJsonValue();
    QJsonObject o;
    o["path"] = f.path;
    o["sha256"] = f.sha256;
    return o;
}

SessionFile fileFrom(const QJsonObject& o, const char* key, const QString& name) {
    SessionFile f;
    const QJsonValue v = o[QLatin1String(key)];
    if (v.isUndefined() || v.isNull())
        return f;
    if (!v.isObject())
        corrupt(name, QObject::tr("\"%1\" should be an object").arg(QLatin1String(key)));
    f.path = v.toObject()["path"].toString();
    f.sha256 = v.toObject()["sha256"].toString();
    return f;
}

}  // namespace

QByteArray sessionToJson(const Session& s) {
    // Every setting through the codec; the files as objects with their hash instead of paths.
    QJsonObject o = QJsonObject::fromVariantMap(settingsToMap(s.settings));
    o["format"] = QStringLiteral("attention-lens-session");
    o["version"] = kSessionVersion;
    o[QLatin1String(kEmbeddingsKey)] = fileValue(s.embeddings);
    o[QLatin1String(kWeightsKey)] = fileValue(s.weights);
    o[QLatin1String(kModelKey)] = fileValue(s.model);
    o["window_geometry"] = QString::fromLatin1(s.windowGeometry.toBase64());
    o["window_state"] = QString::fromLatin1(s.windowState.toBase64());
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

Session sessionFromJson(const QByteArray& bytes, const QString& name, QStringList* missingKeys) {
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
        throw UserError("session",
                        QObject::tr("%1 was saved by a newer Attention Lens (session version "
                                    "%2; this one reads up to %3). Update the app to open it.")
                            .arg(name)
                            .arg(version)
                            .arg(kSessionVersion)
                            .toStdString());

    Session s;
    s.embeddings = fileFrom(o, kEmbeddingsKey, name);
    s.weights = fileFrom(o, kWeightsKey, name);
    s.model = fileFrom(o, kModelKey, name);
    QVariantMap map = o.toVariantMap();
    map.insert(QLatin1String(kEmbeddingsKey), s.embeddings.path);
    map.insert(QLatin1String(kWeightsKey), s.weights.path);
    if (!s.model.path.isEmpty())
        map.insert(QStringLiteral("model"), s.model.path);
    QStringList missing;
    try {
        s.settings = settingsFromMap(map, Settings(), &missing);
    } catch (const UserError& e) {
        corrupt(name, QString::fromUtf8(e.what()).chopped(1));
    }
    // The options of the variants after chapter 3 came later: a session of another variant
    // lacks nothing by not having them, and is not told it does.
    if (!variantIsAfterChapter3(s.settings.config.variant))
        missing.removeIf([](const QString& key) {
            static const QStringList afterOnly = {
                QStringLiteral("kv_groups"), QStringLiteral("latent_dim"),
                QStringLiteral("head_dim"),  QStringLiteral("qk_norm"),
                QStringLiteral("rope_base"), QStringLiteral("rope")};
            return afterOnly.contains(key);
        });
    // Token ids instead of text and a single weights file's config.json came with the model
    // families after GPT-2; they are empty unless given, so a session without them lacks
    // nothing.
    missing.removeIf([](const QString& key) {
        return key == QLatin1String("ids") || key == QLatin1String("model_config");
    });
    if (s.settings.source == InputSource::File && s.embeddings.path.isEmpty())
        corrupt(name, QObject::tr("the input is a file but no embeddings file is named"));
    s.windowGeometry = QByteArray::fromBase64(o["window_geometry"].toString().toLatin1());
    s.windowState = QByteArray::fromBase64(o["window_state"].toString().toLatin1());
    if (missingKeys)
        *missingKeys = missing;
    return s;
}

Session readSession(const QString& path, QStringList* missing) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        throw UserError("session",
                        QObject::tr("Cannot open %1: %2").arg(path, f.errorString()).toStdString());
    if (f.size() > 64 * 1024 * 1024)
        corrupt(QFileInfo(path).fileName(), QObject::tr("the file is larger than any session"));
    return sessionFromJson(f.readAll(), QFileInfo(path).fileName(), missing);
}

void writeSession(const QString& path, const Session& session) {
    const QByteArray bytes = sessionToJson(session);
    io::writeFileAtomically(path.toStdString(),
                            std::string_view(bytes.constData(), size_t(bytes.size())));
}

void rememberSettings(const Settings& settings) {
    Settings s = settings;
    if (s.source == InputSource::File)
        s.source = InputSource::Text;
    s.embeddingsFile.clear();
    s.weightsFile.clear();
    QSettings store;
    store.beginGroup(QStringLiteral("settings"));
    const QVariantMap map = settingsToMap(s);
    for (auto it = map.begin(); it != map.end(); ++it)
        store.setValue(it.key(), it.value());
    store.endGroup();
}

Settings rememberedSettings(const Settings& fallback) {
    QSettings store;
    store.beginGroup(QStringLiteral("settings"));
    QVariantMap map;
    for (const QString& key : store.childKeys())
        map.insert(key, store.value(key));
    store.endGroup();
    if (map.isEmpty())
        return fallback;
    try {
        return settingsFromMap(map, fallback);
    } catch (const UserError&) {
        // Settings written by hand or by another version: start from the defaults instead.
        return fallback;
    }
}

}  // namespace attn
