#include "app/model_picker.h"

#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "app/field_errors.h"
#include "app/help_dialogs.h"
#include "app/workspace.h"
#include "pipeline/model_request.h"

namespace attn {

namespace {

const char* const kRecentKey = "model/recent";

// What an item of the combo stands for.
enum class Kind { Chapter, Bundled, File, OpenFolder, Open };

}  // namespace

QStringList ModelPicker::recentModels() {
    QStringList list = QSettings().value(QLatin1String(kRecentKey)).toStringList();
    list.removeAll(QString());
    while (list.size() > kMaxRecent)
        list.removeLast();
    return list;
}

void ModelPicker::addRecentModel(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList list = recentModels();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > kMaxRecent)
        list.removeLast();
    QSettings().setValue(QLatin1String(kRecentKey), list);
}

ModelPicker::ModelPicker(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(3);
    combo_ = new QComboBox(this);
    combo_->setObjectName(QStringLiteral("modelCombo"));
    combo_->setAccessibleName(tr("Model"));
    combo_->setToolTip(
        tr("What computes the attention: the chapter-3 module with random weights, as in the "
           "book; or a trained model (a GPT-2, Llama, Qwen or Gemma folder or file), whose "
           "attention you see layer by layer and head by head"));
    combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo_->setMinimumContentsLength(18);
    v->addWidget(combo_);
    about_ = new QLabel(this);
    about_->setObjectName(QStringLiteral("modelAbout"));
    about_->setWordWrap(true);
    about_->setForegroundRole(QPalette::PlaceholderText);
    about_->hide();
    v->addWidget(about_);
    origin_ = new QLabel(this);
    origin_->setObjectName(QStringLiteral("modelOrigin"));
    origin_->setWordWrap(true);
    origin_->setTextFormat(Qt::RichText);
    origin_->setForegroundRole(QPalette::PlaceholderText);
    origin_->hide();
    connect(origin_, &QLabel::linkActivated, this, &ModelPicker::showMetadata);
    v->addWidget(origin_);
    auto* loading = new QHBoxLayout;
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("modelProgress"));
    progress_->setTextVisible(true);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setObjectName(QStringLiteral("modelCancel"));
    cancel_->setToolTip(tr("Stop reading the model; the one shown now stays"));
    loading->addWidget(progress_, 1);
    loading->addWidget(cancel_);
    v->addLayout(loading);
    progress_->hide();
    cancel_->hide();
    QLabel* error = makeErrorLabel(this, QStringLiteral("error_model"));
    v->addWidget(error);
    errors_ = new FieldErrors(this);
    errors_->add(QStringLiteral("model"), error, {combo_});

    connect(combo_, &QComboBox::activated, this, &ModelPicker::onActivated);
    connect(cancel_, &QPushButton::clicked, workspace_, &Workspace::cancelModelLoading);
    connect(workspace_, &Workspace::modelLoadingChanged, this, [this](bool on) {
        progress_->setVisible(on);
        cancel_->setVisible(on);
        if (on) {
            progress_->setRange(0, 0);  // busy until the reader says how many parts
            progress_->setFormat(tr("Reading the model..."));
            errors_->setNote(QStringLiteral("model"), QString());
        }
    });
    connect(workspace_, &Workspace::modelLoadProgress, this,
            [this](int done, int total, const QString& what) {
                progress_->setRange(0, std::max(1, total));
                progress_->setValue(done);
                progress_->setFormat(tr("Reading %1  %p%").arg(what));
            });
    connect(workspace_, &Workspace::modelFailed, this, [this](const QString&, const QString& why) {
        errors_->setNote(QStringLiteral("model"), why);
        rebuild();
    });
    // Said while the window asks for the config.json, and after, if the user gives none.
    connect(workspace_, &Workspace::modelConfigNeeded, this,
            [this](const QString&, const QString& why) {
                errors_->setNote(QStringLiteral("model"), why);
            });
    // A model that could not be read is said until the next change: another model, the
    // chapter's module, or any setting.
    connect(workspace_, &Workspace::settingsChanged, this,
            [this] { errors_->setNote(QStringLiteral("model"), QString()); });
    connect(workspace_, &Workspace::modelChanged, this, [this] {
        errors_->setNote(QStringLiteral("model"), QString());
        const Settings& s = workspace_->settings();
        if (s.modelMode() && !bundledModelNames().contains(s.modelFile))
            addRecentModel(s.modelFile);
        rebuild();
    });
    connect(workspace_, &Workspace::resultApplied, this, [this] {
        // Problems of the text for this model (vocabulary, context) show under the text; the
        // model's own, here.
        errors_->show(workspace_->issues(), {});
    });
    rebuild();
}

QString ModelPicker::error() const {
    return errors_->text(QStringLiteral("model"));
}

void ModelPicker::rebuild() {
    const QSignalBlocker block(combo_);
    combo_->clear();
    combo_->addItem(tr("Chapter 3 module (random weights)"), int(Kind::Chapter));
    combo_->setItemData(0, QString(), Qt::UserRole + 1);
    combo_->setItemData(0, tr("Chapter 3 module (random weights, as in the book)"),
                        Qt::ToolTipRole);
    for (const QString& name : bundledModelNames()) {
        // Short enough for the picker's width beside a 1366-pixel screen's panels; the
        // tooltip says the rest.
        combo_->addItem(tr("%1 (trained, bundled)").arg(name), int(Kind::Bundled));
        combo_->setItemData(combo_->count() - 1, name, Qt::UserRole + 1);
        combo_->setItemData(combo_->count() - 1,
                            tr("%1: trained by this project, ships with the app").arg(name),
                            Qt::ToolTipRole);
    }
    for (const QString& path : recentModels()) {
        const QFileInfo info(path);
        if (!info.isFile() && !info.isDir())
            continue;
        combo_->addItem(info.isDir() ? tr("%1 (folder)").arg(info.fileName()) : info.fileName(),
                        int(Kind::File));
        combo_->setItemData(combo_->count() - 1, path, Qt::UserRole + 1);
        combo_->setItemData(combo_->count() - 1, QDir::toNativeSeparators(path), Qt::ToolTipRole);
    }
    combo_->addItem(tr("Open model folder..."), int(Kind::OpenFolder));
    combo_->addItem(tr("Open model file..."), int(Kind::Open));

    const Settings& s = workspace_->settings();
    int current = 0;
    for (int i = 0; i < combo_->count(); ++i) {
        const QString id = combo_->itemData(i, Qt::UserRole + 1).toString();
        // A bundled model is its name; a file or folder is the same one by another path. Names
        // are compared as text only: two paths that do not exist compare equal as QFileInfos,
        // which showed tiny-shakespeare as tiny-shakespeare-llama.
        const bool samePath =
            !id.isEmpty() && QFileInfo::exists(id) && QFileInfo(id) == QFileInfo(s.modelFile);
        if (s.modelMode() && (id == s.modelFile || samePath))
            current = i;
    }
    combo_->setCurrentIndex(current);
    const auto& model = workspace_->model();
    about_->setVisible(model != nullptr);
    origin_->setVisible(model != nullptr && !model->metadata.empty());
    if (!model)
        return;
    about_->setText(describeModel(*model));
    // One or two lines under the picker, so the input and the next-token list keep their room
    // on a 720-pixel screen: the loss, and a link to the rest (the description, which names the
    // model's strongest heads, the licence and every metadata entry), also in the tooltip.
    const QString origin = describeModelOrigin(*model);
    const QString loss = describeValidationLoss(*model).toHtmlEscaped();
    const QString link =
        QStringLiteral("<a href=\"metadata\">%1</a>")
            .arg(origin.isEmpty() ? tr("File metadata...") : tr("About this model..."));
    origin_->setText(loss.isEmpty() ? link : loss + QStringLiteral(" ") + link);
    origin_->setToolTip(origin);
}

void ModelPicker::showMetadata() {
    const auto& model = workspace_->model();
    if (!model)
        return;
    auto* dialog = new QDialog(this);
    auto* text = new QTextBrowser(dialog);
    text->setObjectName(QStringLiteral("modelMetadata"));
    text->setHtml(modelMetadataHtml(*model));
    QVBoxLayout* layout = setUpCloseDialog(
        dialog,
        tr("Metadata of %1").arg(QFileInfo(QString::fromStdString(model->source)).fileName()),
        text);
    auto* intro = new QLabel(tr("What the model's file says about itself (its safetensors "
                                "__metadata__), as written:"),
                             dialog);
    intro->setWordWrap(true);
    layout->insertWidget(0, intro);
    const QString origin = describeModelOrigin(*model);
    if (!origin.isEmpty()) {
        auto* about = new QLabel(origin, dialog);
        about->setObjectName(QStringLiteral("modelDescription"));
        about->setTextFormat(Qt::PlainText);
        about->setWordWrap(true);
        about->setTextInteractionFlags(Qt::TextSelectableByMouse);
        layout->insertWidget(0, about);
    }
    fitDialogToScreen(dialog, QSize(dialog->fontMetrics().averageCharWidth() * 80,
                                    dialog->fontMetrics().height() * 28));
    dialog->setWindowModality(Qt::ApplicationModal);  // as exec() would, without blocking
    dialog->show();
}

void ModelPicker::onActivated(int index) {
    const Kind kind = Kind(combo_->itemData(index).toInt());
    const QString id = combo_->itemData(index, Qt::UserRole + 1).toString();
    switch (kind) {
        case Kind::Chapter:
            workspace_->useModuleOfTheChapter();
            break;
        case Kind::Bundled:
        case Kind::File:
            if (id != workspace_->settings().modelFile || !workspace_->model())
                workspace_->openModel(id);
            break;
        case Kind::OpenFolder:
            rebuild();  // the combo shows the model in use until a folder is chosen
            emit openFolderRequested();
            break;
        case Kind::Open:
            rebuild();  // the combo shows the model in use until a file is chosen
            emit openFileRequested();
            break;
    }
}

}  // namespace attn
