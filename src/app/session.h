#pragma once
// Saved sessions (.attnlens): a versioned JSON file with everything needed to get the same view
// back: every setting (through the settings codec, so a new setting needs nothing here), the
// loaded files by path and SHA-256, and the window layout.

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "pipeline/settings.h"

namespace attn {

constexpr int kSessionVersion = 1;

struct SessionFile {
    QString path;    // absolute path when saved
    QString sha256;  // hex digest of the contents when saved
};

struct Session {
    Settings settings;  // embeddingsFile / weightsFile hold the files' paths
    SessionFile embeddings;
    SessionFile weights;
    SessionFile model;  // a model file (a bundled model is named in settings.model alone)
    QByteArray windowGeometry;  // QMainWindow::saveGeometry()
    QByteArray windowState;     // QMainWindow::saveState()
};

// The file's bytes (pretty-printed JSON).
QByteArray sessionToJson(const Session& session);

// Reads a session. A corrupt file, or one from a newer version, throws
// UserError("session", "<name>: <what is wrong>") and nothing else happens. Settings an older
// file lacks keep their defaults; their keys are listed in `missing` so the user can be told.
Session sessionFromJson(const QByteArray& bytes, const QString& displayName, QStringList* missing);

// Reads `path` (throws UserError("session", ...) when unreadable) / writes it atomically.
Session readSession(const QString& path, QStringList* missing);
void writeSession(const QString& path, const Session& session);

// The settings remembered between runs (QSettings, group "settings"), through the same codec.
// A loaded file is not remembered: the next start shows the typed text with drawn weights.
void rememberSettings(const Settings& settings);
// The remembered settings, or `fallback` when none are (or they cannot be read).
Settings rememberedSettings(const Settings& fallback);

}  // namespace attn
