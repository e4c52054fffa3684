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
    // Whether a load is followed by the model's hash (hashed): the workspace's model needs it
    // for sessions, a model read only to compare with does not.
    enum class Hashing { AfterLoad, None };
    explicit ModelLoader(QObject* parent = nullptr, Hashing hashing = Hashing::AfterLoad);
    ~ModelLoader() override;

    // Starts reading `nameOrPath` (a folder, a file, or a bundled model's name), a single file
    // with the config.json `configPath` when given; a file that needs a config and has none
    // given is read with the config.json beside it, if any (a file of a Hugging Face folder).
    // Returns the load's number.
    quint64 load(const QString& nameOrPath, const QString& configPath = {});
    void cancel();
    bool isLoading() const { return loading_; }
    quint64 latest() const { return job_.generation(); }

  signals:
    void progress(int done, int total, const QString& what);
    // `model` read from `nameOrPath` (with `configPath`, as load() was given).
    void loaded(const QString& nameOrPath, const QString& configPath,
                std::shared_ptr<const attn::DecoderModel> model);
    // The SHA-256 of what `nameOrPath` was read from (io::modelContentSha256; sessions compare
    // it), after `loaded`: hashing a gigabyte folder takes seconds, which the first view must
    // not wait for. Not sent when another load or cancel() came first.
    void hashed(const QString& nameOrPath, const QString& sha256);
    // Why it could not be read (one sentence); cancelled loads report nothing.
    void failed(const QString& nameOrPath, const QString& message);
    // The file holds a Llama, Qwen or Gemma model and needs its config.json (`message` says so).
    void configNeeded(const QString& nameOrPath, const QString& message);
    void loadingChanged(bool loading);

  private:
    void setLoading(bool loading);

    LatestJob job_{JobThread::Own};  // its own thread: a big file never waits for a figure
    LatestJob hashJob_{JobThread::Own};
    Hashing hashing_;
    bool loading_ = false;
};

}  // namespace attn

Q_DECLARE_METATYPE(std::shared_ptr<const attn::DecoderModel>)
