#pragma once
// A layout that places its items left to right and wraps them like words (the Qt "flow layout"
// example): used for the token chips.

#include <QLayout>
#include <QList>

namespace attn {

class FlowLayout : public QLayout {
  public:
    explicit FlowLayout(QWidget* parent = nullptr, int hSpacing = 4, int vSpacing = 4);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override { return int(items_.size()); }
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

  private:
    int doLayout(const QRect& rect, bool testOnly) const;
    QList<QLayoutItem*> items_;
    int hSpace_;
    int vSpace_;
};

}  // namespace attn
