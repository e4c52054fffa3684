#include "app/open_actions.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

#include "app/workspace.h"
#include "pipeline/issue_text.h"
#include "pipeline/model_request.h"
#include "pipeline/options.h"

namespace attn {

OpenActions::OpenActions(Workspace* workspace, QWidget* dialogParent)
    : QObject(dialogParent), workspace_(workspace), dialogParent_(dialogParent) {
    openModel_ = new QAction(tr("Open &model file..."), this);
    openModel_->setObjectName(QStringLiteral("actionOpenModel"));
    openModel_->setToolTip(
        tr("Use one trained model file (.safetensors or .pth): a GPT-2 model, or a Llama, Qwen "
           "or Gemma model with its config.json"));
    connect(openModel_, &QAction::triggered, this, &OpenActions::openModel);
    openModelFolder_ = new QAction(tr("Open model fo&lder..."), this);
    openModelFolder_->setObjectName(QStringLiteral("actionOpenModelFolder"));
    openModelFolder_->setToolTip(
        tr("Use a Hugging Face model folder (config.json, model.safetensors or its shards, "
           "tokenizer.json): GPT-2, Llama, Qwen 2 and 3, Gemma 3"));
    connect(openModelFolder_, &QAction::triggered, this, &OpenActions::openModelFolder);
    connect(workspace_, &Workspace::modelConfigNeeded, this,
            [this](const QString& file) { askForConfig(file); });
    openText_ = new QAction(tr("Open &text..."), this);
    openText_->setObjectName(QStringLiteral("actionOpenText"));
    openText_->setToolTip(tr("Use a UTF-8 text file as the sentence"));
    connect(openText_, &QAction::triggered, this, &OpenActions::openText);
    embeddings_ = new QAction(tr("Load &embeddings..."), this);
    embeddings_->setObjectName(QStringLiteral("actionLoadEmbeddings"));
    embeddings_->setToolTip(
        tr("Use a (T, d_in) or (b, T, d_in) matrix from .npy, .json or .csv "
           "as the input x"));
    connect(embeddings_, &QAction::triggered, this, [this] { loadFile(false); });
    weights_ = new QAction(tr("Load &weights..."), this);
    weights_->setObjectName(QStringLiteral("actionLoadWeights"));
    weights_->setToolTip(tr("Use the module's parameters from a .safetensors or .json state_dict"));
    connect(weights_, &QAction::triggered, this, [this] { loadFile(true); });
    forget_ = new QAction(tr("&Forget loaded files"), this);
    forget_->setObjectName(QStringLiteral("actionForgetFiles"));
    connect(forget_, &QAction::triggered, workspace_, &Workspace::forgetFiles);
    auto refreshForget = [this] {
        forget_->setEnabled(workspace_->files().embeddings || workspace_->files().weights);
    };
    connect(workspace_, &Workspace::filesChanged, this, refreshForget);
    refreshForget();
}

void OpenActions::openModel() {
    QSettings settings;
    const QString path =
        QFileDialog::getOpenFileName(dialogParent_, tr("Open model file"),
                                     settings.value(QStringLiteral("model/dir")).toString(),
                                     tr("Models (*.safetensors *.pth *.pt *.bin);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("model/dir"), QFileInfo(path).absolutePath());
    workspace_->openModel(path);
}

void OpenActions::openModelFolder() {
    QSettings settings;
    const QString path =
        QFileDialog::getExistingDirectory(dialogParent_, tr("Open model folder"),
                                          settings.value(QStringLiteral("model/dir")).toString());
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("model/dir"), QFileInfo(path).absolutePath());
    workspace_->openModel(path);
}

void OpenActions::askForConfig(const QString& file) {
    const QString caption = tr("Choose the config.json of %1").arg(QFileInfo(file).fileName());
    const QString filter = tr("Model configs (*.json);;All files (*)");
    const QString config =
        fileHook_ ? fileHook_(caption, QFileInfo(file).absolutePath(), filter)
                  : QFileDialog::getOpenFileName(dialogParent_, caption,
                                                 QFileInfo(file).absolutePath(), filter);
    if (!config.isEmpty())
        workspace_->openModel(file, config);
}

void OpenActions::openText() {
    const QString caption = tr("Open text");
    const QString filter = tr("Text files (*.txt);;All files (*)");
    const QString path =
        fileHook_ ? fileHook_(caption, QString(), filter)
                  : QFileDialog::getOpenFileName(dialogParent_, caption, QString(), filter);
    if (path.isEmpty())
        return;
    // A file with more bytes than the context's tokens can stand for is refused by its size:
    // reading it into the text box alone would keep the window busy for as long as it is big.
    const QString tooLong = textFileBeyondContext(
        path, QFileInfo(path).size(),
        contextLengthOf(workspace_->settings(), workspace_->model().get()),
        !workspace_->settings().modelMode(),
        maxTextBytesPerToken(workspace_->settings(), workspace_->model().get()));
    if (!tooLong.isEmpty()) {
        emit fileError(QStringLiteral("input"), tooLong);
        return;
    }
    try {
        Settings s = workspace_->settings();
        s.text = readUtf8TextFile(path);
        if (s.source != InputSource::Text) {
            s.source = InputSource::Text;
            s.embeddingsFile.clear();
        }
        workspace_->change(s, tr("Open %1").arg(QFileInfo(path).fileName()));
        emit fileError(QStringLiteral("input"), QString());
    } catch (const UserError& e) {
        emit fileError(QStringLiteral("input"), errorText(e));
    }
}

void OpenActions::loadFile(bool weights) {
    const QString path = QFileDialog::getOpenFileName(
        dialogParent_, weights ? tr("Load weights") : tr("Load embeddings"), QString(),
        weights ? tr("Weights (*.json *.safetensors);;All files (*)")
                : tr("Embeddings (*.npy *.json *.csv);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok =
        weights ? workspace_->openWeights(path, &error) : workspace_->openEmbeddings(path, &error);
    emit fileError(weights ? QStringLiteral("weights") : QStringLiteral("embeddings"),
                   ok ? QString() : error);
}

}  // namespace attn
