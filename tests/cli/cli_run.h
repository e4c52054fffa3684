#pragma once
// Running attention-lens-cli from a test: its exit code, stdout and stderr.

#include <gtest/gtest.h>

#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace attn::test {

struct CliRun {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// Runs the CLI (ATTN_CLI_PATH) with `args`; a run that does not finish in two minutes fails.
inline CliRun cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(ATTN_CLI_PATH), args);
    EXPECT_TRUE(p.waitForFinished(120000)) << args.join(' ').toStdString();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

// The CLI refused `args` as it must: exit 2, nothing on stdout, one line on stderr that holds
// `message`.
inline void expectRefused(const QStringList& args, const QString& message) {
    const CliRun r = cli(args);
    EXPECT_EQ(r.exitCode, 2) << args.join(' ').toStdString();
    EXPECT_TRUE(r.out.isEmpty());
    EXPECT_EQ(r.err.count('\n'), 1) << r.err.toStdString();
    EXPECT_TRUE(QString::fromUtf8(r.err).contains(message))
        << r.err.toStdString() << "\nexpected: " << message.toStdString();
}

}  // namespace attn::test
