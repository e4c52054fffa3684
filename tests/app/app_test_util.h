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

// A dark desktop palette (dark Fusion, as a dark system theme gives the app).
inline QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2b, 0x2b, 0x2b), base(0x1e, 0x1e, 0x1e), text(0xe8, 0xe8, 0xe8);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xd9));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Mid, QColor(0x55, 0x55, 0x55));
    p.setColor(QPalette::Dark, QColor(0xa0, 0xa0, 0xa0));
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xff));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    return p;
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
