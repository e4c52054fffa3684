#pragma once
// The engine's validation messages in the interface's language. The engine is Qt-free and
// writes English; each piece of a message (MessagePart) is looked up here as a translation of
// its English format (context "attn::Validation") and filled with the same arguments. Without
// a translation the text is the engine's, word for word.

#include <QByteArray>
#include <QList>
#include <QString>
#include <exception>
#include <string>
#include <vector>

#include "engine/config.h"

namespace attn {

// The issue's message in the current language (its own message when it has no parts).
QString issueText(const ValidationIssue& issue);
// An error's message in the current language: a UserError's parts as issueText reads them,
// any other error's what() as it is.
QString errorText(const std::exception& error);
// A UserError as the issue it is under its field, its message in the current language.
ValidationIssue issueOf(const UserError& error);
// Every issue's message replaced by issueText (the CLI, with no translator, keeps the English).
void translateIssues(std::vector<ValidationIssue>& issues);
// True when `format` is one the engine writes and lupdate has seen (so it can be translated).
bool isTranslatableFormat(const std::string& format);
// Every such format (for checking that a translation has them all).
QList<QByteArray> translatableFormats();

}  // namespace attn
