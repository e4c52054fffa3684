#include "app/model_loader.h"

#include <QDir>
#include <QFileInfo>

#include "io/model_file.h"
#include "pipeline/issue_text.h"
#include "pipeline/model_request.h"

namespace attn {

ModelLoader::ModelLoader(QObject* parent, Hashing hashing) : QObject(parent), hashing_(hashing) {}

ModelLoader::~ModelLoader() = default;

namespace {

// A load's outcome: the model and the config.json it was read with, or why the file needs one.
struct Loaded {
    std::shared_ptr<const DecoderModel> model;
    QString configPath;
    QString configNeeded;
};

}  // namespace

quint64 ModelLoader::load(const QString& nameOrPath, const QString& configPath) {
    setLoading(true);
    hashJob_.cancel();
    // Progress is reported only while this load is the newest; the loader owns the job, so it
    // is alive whenever a report runs.
    job_.setErrorHandler([this, nameOrPath](const QString& message) {
        setLoading(false);
        emit failed(nameOrPath, message);
    });
    return job_.run(
        [this, nameOrPath, configPath](const JobReports& r) {
            const auto read = [&](const QString& config) {
                return loadModel(
                    nameOrPath, std::nullopt, &r.cancel(),
                    [&](int done, int total, const QString& what) {
                        r.report([this, done, total, what] { emit progress(done, total, what); });
                    },
                    config);
            };
            try {
                return Loaded{read(configPath), configPath, {}};
            } catch (const std::bad_alloc&) {
                throw UserError("model", tr("Not enough memory to read this model.").toStdString());
            } catch (const UserError& e) {
                if (e.field() != "config")
                    throw;
                // A file of a Hugging Face folder that needs its config: the folder's
                // config.json (and tokenizer) when there is one, else the user is asked.
                const QString beside =
                    QFileInfo(nameOrPath).dir().filePath(QStringLiteral("config.json"));
                if (configPath.isEmpty() && QFileInfo(nameOrPath).isFile() &&
                    QFileInfo(beside).isFile())
                    return Loaded{read(beside), beside, {}};
                return Loaded{nullptr, {}, errorText(e)};
            }
        },
        [this, nameOrPath](const Loaded& l) {
            setLoading(false);
            if (!l.model) {
                emit configNeeded(nameOrPath, l.configNeeded);
                return;
            }
            emit loaded(nameOrPath, l.configPath, l.model);
            if (hashing_ == Hashing::None)
                return;
            hashJob_.run(
                [path = modelFilePath(nameOrPath).toStdString()](const CancelToken& cancel) {
                    return QString::fromStdString(io::modelContentSha256(path, &cancel));
                },
                [this, nameOrPath](const QString& sha) { emit hashed(nameOrPath, sha); });
        });
}

void ModelLoader::cancel() {
    job_.cancel();  // nothing the cancelled load reports is shown
    hashJob_.cancel();
    setLoading(false);
}

void ModelLoader::setLoading(bool loading) {
    if (loading_ == loading)
        return;
    loading_ = loading;
    emit loadingChanged(loading);
}

}  // namespace attn
