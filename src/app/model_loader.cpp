#include "app/model_loader.h"

#include "io/file_io.h"
#include "pipeline/model_request.h"

namespace attn {

ModelLoader::ModelLoader(QObject* parent)
    : QObject(parent),
      latest_(std::make_shared<std::atomic<quint64>>(0)),
      current_(std::make_shared<CancelToken>()) {
    workerInbox_ = new ThreadInbox;
    workerInbox_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, workerInbox_, &QObject::deleteLater);
    connect(
        &thread_, &QThread::finished, this, [this] { handOff(&thread_); }, Qt::DirectConnection);
    thread_.setObjectName(QStringLiteral("attn-model-loader"));
    thread_.start();
}

ModelLoader::~ModelLoader() {
    current_->cancel();
    latest_->store(latest_->load() + 1);
    thread_.quit();
    thread_.wait();
    takeOver(&thread_);
}

quint64 ModelLoader::load(const QString& nameOrPath) {
    current_->cancel();
    current_ = std::make_shared<CancelToken>();
    const quint64 gen = latest_->load() + 1;
    latest_->store(gen);
    if (!loading_) {
        loading_ = true;
        emit loadingChanged(true);
    }
    auto token = current_;
    auto latest = latest_;
    workerInbox_->post([this, gen, nameOrPath, token, latest] {
        if (gen != latest->load())
            return;  // a newer load replaced it while it waited
        auto report = [this, gen](std::function<void()> f) {
            inbox_.post([this, gen, f = std::move(f)] {
                if (gen == latest_->load())
                    f();
            });
        };
        auto finish = [this, gen] {
            inbox_.post([this, gen] {
                if (gen != latest_->load() || !loading_)
                    return;
                loading_ = false;
                emit loadingChanged(false);
            });
        };
        try {
            auto model = loadModel(
                nameOrPath, std::nullopt, token.get(),
                [&](int done, int total, const QString& what) {
                    report([this, done, total, what] { emit progress(done, total, what); });
                });
            const QString sha =
                QString::fromStdString(io::fileSha256(modelFilePath(nameOrPath).toStdString()));
            report([this, nameOrPath, model, sha] { emit loaded(nameOrPath, model, sha); });
        } catch (const Cancelled&) {
        } catch (const std::bad_alloc&) {
            report([this, nameOrPath] {
                emit failed(nameOrPath, tr("Not enough memory to read this model."));
            });
        } catch (const std::exception& e) {
            const QString message = QString::fromUtf8(e.what());
            report([this, nameOrPath, message] { emit failed(nameOrPath, message); });
        }
        finish();
    });
    return gen;
}

void ModelLoader::cancel() {
    current_->cancel();
    latest_->store(latest_->load() + 1);  // nothing the cancelled load reports is shown
    if (loading_) {
        loading_ = false;
        emit loadingChanged(false);
    }
}

}  // namespace attn
