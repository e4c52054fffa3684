#include "app/model_loader.h"

#include "io/file_io.h"
#include "pipeline/model_request.h"

namespace attn {

ModelLoader::ModelLoader(QObject* parent) : QObject(parent) {}

ModelLoader::~ModelLoader() = default;

namespace {

struct Loaded {
    std::shared_ptr<const DecoderModel> model;
    QString sha256;
};

}  // namespace

quint64 ModelLoader::load(const QString& nameOrPath) {
    setLoading(true);
    // Progress is reported only while this load is the newest; the loader owns the job, so it
    // is alive whenever a report runs.
    job_.setErrorHandler([this, nameOrPath](const QString& message) {
        setLoading(false);
        emit failed(nameOrPath, message);
    });
    return job_.run(
        [this, nameOrPath](const JobReports& r) {
            Loaded out;
            try {
                out.model = loadModel(
                    nameOrPath, std::nullopt, &r.cancel(),
                    [&](int done, int total, const QString& what) {
                        r.report([this, done, total, what] { emit progress(done, total, what); });
                    });
            } catch (const std::bad_alloc&) {
                throw UserError("model", tr("Not enough memory to read this model.").toStdString());
            }
            out.sha256 =
                QString::fromStdString(io::fileSha256(modelFilePath(nameOrPath).toStdString()));
            return out;
        },
        [this, nameOrPath](const Loaded& l) {
            setLoading(false);
            emit loaded(nameOrPath, l.model, l.sha256);
        });
}

void ModelLoader::cancel() {
    job_.cancel();  // nothing the cancelled load reports is shown
    setLoading(false);
}

void ModelLoader::setLoading(bool loading) {
    if (loading_ == loading)
        return;
    loading_ = loading;
    emit loadingChanged(loading);
}

}  // namespace attn
