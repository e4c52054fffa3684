// attention-lens-cli --version: the version of project() in CMakeLists.txt, in the form help2man
// reads ("program version"); --help names it and shows examples (the man page's sections).
#include <gtest/gtest.h>

#include "common/run_program.h"

using attn::testing::runProgram;

TEST(Version, CliReportsTheCMakeProjectVersion) {
    const auto run = runProgram(QStringLiteral(ATTN_CLI_PATH), {QStringLiteral("--version")});
    ASSERT_TRUE(run.finished);
    EXPECT_EQ(run.exitCode, 0);
    EXPECT_EQ(run.out, QByteArray("attention-lens-cli " ATTN_EXPECTED_VERSION "\n"));
    EXPECT_TRUE(run.err.isEmpty()) << run.err.toStdString();
}

TEST(Version, HelpNamesVersionAndExamples) {
    const auto run = runProgram(QStringLiteral(ATTN_CLI_PATH), {QStringLiteral("--help")});
    ASSERT_TRUE(run.finished);
    EXPECT_EQ(run.exitCode, 0);
    EXPECT_TRUE(run.out.startsWith("Usage: attention-lens-cli <command> [options]\n"));
    EXPECT_TRUE(run.out.contains("\n  --version "));
    EXPECT_TRUE(run.out.contains("\nExamples:\n"));
}

// Each command's --help names the program and the command as they are typed, not the path the
// program was run by (the man page shows this text).
TEST(Version, CommandHelpShowsTheCommandAsTyped) {
    const auto run = runProgram(QStringLiteral(ATTN_CLI_PATH),
                                {QStringLiteral("render"), QStringLiteral("--help")});
    ASSERT_TRUE(run.finished);
    EXPECT_EQ(run.exitCode, 0);
    EXPECT_TRUE(run.out.startsWith("Usage: attention-lens-cli render [options]\n"))
        << run.out.left(120).toStdString();
    EXPECT_TRUE(run.out.contains("\n  --all-steps <dir> "));
}
