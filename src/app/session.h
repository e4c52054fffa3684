#pragma once
// Saved sessions (.attnlens): a versioned JSON file holding everything needed to get the same
// view back: the text, tokenizer, every model setting and seed, loaded files by path and
// SHA-256, the selected step/head, the colormap and the window layout.

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "app/app_types.h"

namespace attn {

constexpr int kSessionVersion = 1;

struct SessionFile {
    QString path;    // absolute path when saved
    QString sha256;  // hex digest of the contents when saved
};

struct Session {
    AppState state;
    SessionFile embeddings;  // empty path: none
    SessionFile weights;
    QByteArray windowGeometry;  // QMainWindow::saveGeometry()
    QByteArray windowState;     // QMainWindow::saveState()
};

// The file's bytes (pretty-printed JSON, keys in a fixed order).
QByteArray sessionToJson(const Session& session);

// Reads a session. A corrupt file, or one from a newer version, throws
// EngineError("session", "<name>: <what is wrong>") and nothing else happens. Settings an older
// file lacks keep their defaults, and each one is named in `notes` so the user can check them.
Session sessionFromJson(const QByteArray& bytes, const QString& displayName, QStringList* notes);

// Reads `path` (throws EngineError("session", ...) when unreadable) / writes it atomically.
Session readSession(const QString& path, QStringList* notes);
void writeSession(const QString& path, const Session& session);

// SHA-256 of a file in hex, empty if it cannot be read.
QString fileSha256(const QString& path);

}  // namespace attn
