#pragma once
// Runs one of the built programs to its end and keeps what it printed. Shared by the CLI and app
// tests of the programs' own options (--version, --help).

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace attn::testing {

struct ProgramRun {
    bool finished = false;  // within the time limit, without a crash
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

inline ProgramRun runProgram(const QString& program, const QStringList& arguments,
                             int msecs = 30000) {
    QProcess p;
    p.start(program, arguments);
    ProgramRun run;
    run.finished = p.waitForFinished(msecs) && p.exitStatus() == QProcess::NormalExit;
    run.exitCode = run.finished ? p.exitCode() : -1;
    run.out = p.readAllStandardOutput();
    run.err = p.readAllStandardError();
    return run;
}

}  // namespace attn::testing
