#pragma once
// Reads model files off the GUI thread, one at a time (a LatestJob): a GPT-2 checkpoint can be
// gigabytes, so the window shows the progress and Cancel, and keeps the model it has until the
// new one is read. Each load() replaces (cancels) the one before; only the newest load reports.

#include <QObject>
#include <QString>
#include <memory>

#include "engine/decoder_model.h"
#include "pipeline/latest_job.h"

namespace attn {

class ModelLoader : public QObject {
    Q_OBJECT
  public:
    explicit ModelLoader(QObject* parent = nullptr);
    ~ModelLoader() override;

    // Starts reading `nameOrPath` (a file, or a bundled model's name). Returns the load's number.
    quint64 load(const QString& nameOrPath);
    void cancel();
    bool isLoading() const { return loading_; }
    quint64 latest() const { return job_.generation(); }

  signals:
    void progress(int done, int total, const QString& what);
    // `model` read from `nameOrPath`; sha256 of its file (sessions compare it).
    void loaded(const QString& nameOrPath, std::shared_ptr<const attn::DecoderModel> model,
                const QString& sha256);
    // Why it could not be read (one sentence); cancelled loads report nothing.
    void failed(const QString& nameOrPath, const QString& message);
    void loadingChanged(bool loading);

  private:
    void setLoading(bool loading);

    LatestJob job_{JobThread::Own};  // its own thread: a big file never waits for a figure
    bool loading_ = false;
};

}  // namespace attn

Q_DECLARE_METATYPE(std::shared_ptr<const attn::DecoderModel>)
