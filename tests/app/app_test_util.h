#pragma once
// Helpers for driving the main window in tests: wait (without sleeping) until the newest
// change has been computed and shown.
#include <gtest/gtest.h>

#include <QApplication>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPalette>
#include <QSignalSpy>
#include <functional>

#include "app/main_window.h"
#include "app/workspace.h"
#include "common/dark_palette.h"

namespace attn::testing {

// Processes events until every pending change is submitted and the newest generation is
// applied. Returns false on timeout.
inline bool settle(Workspace& w, int timeoutMs = 60000) {
    QSignalSpy spy(&w, &Workspace::resultApplied);
    QElapsedTimer timer;
    timer.start();
    QCoreApplication::processEvents();
    while (w.hasPendingWork() || w.appliedGeneration() != w.latestGeneration()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        if (w.hasPendingWork()) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
            continue;
        }
        spy.wait(1000);
    }
    QCoreApplication::processEvents();  // what the views do with the result
    return true;
}

inline bool settle(MainWindow& w, int timeoutMs = 60000) {
    return settle(*w.workspace(), timeoutMs);
}

inline MainWindow::Options testOptions() {
    MainWindow::Options o;
    o.useSettings = false;
    o.restoreSettings = false;
    return o;
}

// Changes the settings as a user action would.
inline void change(MainWindow& w, const std::function<void(Settings&)>& edit) {
    Settings s = w.workspace()->settings();
    edit(s);
    w.workspace()->change(s, QStringLiteral("test"));
}

// Sets the application palette (as a system theme change does) and puts the old one back.
class ScopedAppPalette {
  public:
    explicit ScopedAppPalette(const QPalette& p) : old_(QApplication::palette()) {
        QApplication::setPalette(p);
    }
    ~ScopedAppPalette() { QApplication::setPalette(old_); }
    ScopedAppPalette(const ScopedAppPalette&) = delete;
    ScopedAppPalette& operator=(const ScopedAppPalette&) = delete;

  private:
    QPalette old_;
};

}  // namespace attn::testing
