#pragma once
// The dark desktop palette the figure tests draw in: like KDE Breeze Dark or the dark Fusion
// the screenshots use. Shared by the export and teaching tests.

#include <QColor>
#include <QPalette>

namespace attn::testing {

inline QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xd9));
    return p;
}

}  // namespace attn::testing
