#pragma once
// Helpers for driving the main window in tests: wait (without sleeping) until the newest
// request has been applied.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>

#include "app/main_window.h"
#include "app/trace_controller.h"

namespace attn::testing {

// Processes events until every pending change is submitted and the newest generation is
// applied. Returns false on timeout.
inline bool settle(MainWindow& w, int timeoutMs = 60000) {
    QSignalSpy spy(&w, &MainWindow::resultApplied);
    QElapsedTimer timer;
    timer.start();
    QCoreApplication::processEvents();
    while (w.hasPendingChanges() || w.appliedGeneration() != w.controller()->latestGeneration()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        if (w.hasPendingChanges()) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
            continue;
        }
        spy.wait(1000);
    }
    return true;
}

inline MainWindow::Options testOptions() {
    MainWindow::Options o;
    o.useSettings = false;
    o.restoreState = false;
    return o;
}

}  // namespace attn::testing
