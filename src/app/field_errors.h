#pragma once
// Problems shown where they belong: a red outline around the control that causes one and a line
// of text under it, never a dialog while the user types.

#include <QList>
#include <QObject>
#include <QString>
#include <map>
#include <vector>

#include "engine/config.h"

class QLabel;
class QWidget;

namespace attn {

class FieldErrors : public QObject {
    Q_OBJECT
  public:
    explicit FieldErrors(QObject* parent = nullptr);

    // The label that shows the messages of `field` and the controls outlined for it. A label
    // is hidden while its field has no problem.
    void add(const QString& field, QLabel* label, const QList<QWidget*>& controls = {});
    // Where the messages of fields no label is registered for go (nullptr: nowhere).
    void setGeneralLabel(QLabel* label) { general_ = label; }
    // The problems to show now (of every field); the messages of one field share its label.
    // Fields in `ignored` are left to someone else.
    void show(const std::vector<ValidationIssue>& issues, const QStringList& ignored = {});
    // A message of the panel's own (e.g. a number typed beyond a control's limit), shown with
    // the field's problems until cleared with an empty text.
    void setNote(const QString& field, const QString& text);
    // What the label of `field` says now (empty when hidden).
    QString text(const QString& field) const;
    bool handles(const QString& field) const { return fields_.count(field) > 0; }

    // The red outline around one control, drawn just outside it.
    static void setOutline(QWidget* control, bool on);

  private:
    void refresh(const QString& field);
    struct Field {
        QLabel* label = nullptr;
        QList<QWidget*> controls;
        QStringList messages;
        QString note;
    };
    std::map<QString, Field> fields_;
    QLabel* general_ = nullptr;
    QStringList generalMessages_;
};

// A label for an error line: red, wrapped, plain text, hidden until it has something to say.
QLabel* makeErrorLabel(QWidget* parent, const QString& objectName);

}  // namespace attn
