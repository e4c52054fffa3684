// GoogleTest main for the controller tests: the worker thread needs an event loop on the main
// thread to deliver its results, nothing more (no widgets, so no display either).
#include <gtest/gtest.h>

#include <QCoreApplication>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
