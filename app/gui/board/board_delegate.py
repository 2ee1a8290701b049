"""How a task row looks (HUMAN diamond, "now" mark, "Decided: trust") and its in-place editor."""

from __future__ import annotations

from PySide6.QtCore import QObject, QPersistentModelIndex, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPalette
from PySide6.QtWidgets import QApplication, QLineEdit, QStyle, QStyledItemDelegate

from app.gui.board.board_model import BoardItemModel
from app.gui.look import icons, look

_PAD_V = 4      # a little air above and below each row: calmer to read, easier to hit
_TAG_GAP = 12   # between the task's text and the tag on the right


def diamond_icon(color: QColor, filled: bool, size: int = 16) -> QIcon:
    """The HUMAN mark: an outlined diamond for an open decision, a filled one once decided
    (the SVG in resources/icons, drawn at each pixel size so it stays crisp)."""
    return icons.tinted("decision-done" if filled else "decision", color)


class TaskItemDelegate(QStyledItemDelegate):
    """Paints a task row and edits its text in place without ever overwriting what is typed."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._icons: dict[tuple[str, bool], QIcon] = {}
        self._editing = QPersistentModelIndex()

    @property
    def editing(self) -> QPersistentModelIndex | None:
        """The row being edited in place, if any."""
        return self._editing if self._editing.isValid() else None

    # -- looks -----------------------------------------------------------------------------

    def _human_color(self, palette: QPalette) -> QColor:
        # Decisions are in the "needs you" amber, never the link blue (blue is only for links and the accent).
        return look.attention_colour(palette)

    def _diamond(self, color: QColor, filled: bool) -> QIcon:
        key = (color.name(), filled)
        if key not in self._icons:
            self._icons[key] = diamond_icon(color, filled)
        return self._icons[key]

    def tag(self, index) -> str:
        """The words shown at the right end of the row."""
        if index.data(BoardItemModel.CurrentRole):
            return self.tr("◀ now")
        answer = index.data(BoardItemModel.AnswerRole)
        if answer:
            return self.tr("Decided: %1").replace("%1", answer)
        if index.data(BoardItemModel.HumanRole) and \
                index.data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked:
            return self.tr("Your decision")
        return ""

    def initStyleOption(self, option, index) -> None:
        super().initStyleOption(option, index)
        if index.data(BoardItemModel.CurrentRole):
            option.font.setWeight(option.font.Weight.DemiBold)  # the type scale's semibold
        if index.data(BoardItemModel.HumanRole):
            checked = index.data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
            color = self._human_color(option.palette)
            option.icon = self._diamond(color, filled=checked)
            option.features |= option.ViewItemFeature.HasDecoration
            option.decorationSize = QSize(16, 16)
            if not checked:
                option.palette.setColor(QPalette.ColorRole.Text, color)

    def paint(self, painter, option, index) -> None:
        self._paint_row(painter, option, index)
        self._outline_check(painter, option, index)

    def _outline_check(self, painter, option, index) -> None:
        """On a dark palette the style's box outline (the window colour, darker) vanishes
        into the list's ground: draw it again in a grey that shows."""
        if not look.is_dark_palette(option.palette) or \
                index.data(Qt.ItemDataRole.CheckStateRole) is None:
            return
        opt = option.__class__(option)
        self.initStyleOption(opt, index)
        style = opt.widget.style() if opt.widget else QApplication.style()
        box = style.subElementRect(QStyle.SubElement.SE_ItemViewItemCheckIndicator, opt,
                                   opt.widget)
        edge = min(box.width(), box.height()) - 2  # the style's 13-ish px box, centred
        square = QRectF(box.center().x() - edge / 2 + 0.5, box.center().y() - edge / 2 + 0.5,
                        edge, edge)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(look.muted_colour(opt.palette))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(square, 2, 2)
        painter.restore()

    def _paint_row(self, painter, option, index) -> None:
        tag = self.tag(index)
        if not tag:
            super().paint(painter, option, index)
            return
        opt = option.__class__(option)
        self.initStyleOption(opt, index)
        style = opt.widget.style() if opt.widget else QApplication.style()
        # The row's background (selection, hover) across its full width, tag included.
        style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, opt, painter, opt.widget)
        metrics = opt.fontMetrics
        # +2: the advance is rounded, and a tag cut by a pixel would be elided for nothing.
        width = min(metrics.horizontalAdvance(tag) + 2, opt.rect.width() // 2)
        text_opt = option.__class__(option)
        text_opt.rect = QRect(opt.rect.adjusted(0, 0, -(width + _TAG_GAP), 0))
        super().paint(painter, text_opt, index)
        tag_rect = QRect(opt.rect.right() - width - 4, opt.rect.top(), width, opt.rect.height())
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        painter.save()
        painter.setFont(opt.font)
        painter.setPen(opt.palette.color(QPalette.ColorRole.HighlightedText) if selected
                       else look.muted_colour(opt.palette))  # reads: contrast 4.5 or more
        painter.drawText(tag_rect, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                         metrics.elidedText(tag, Qt.TextElideMode.ElideRight, width))
        painter.restore()

    def sizeHint(self, option, index) -> QSize:
        size = super().sizeHint(option, index)
        return QSize(size.width(), size.height() + 2 * _PAD_V)

    # -- editing in place --------------------------------------------------------------------

    def createEditor(self, parent, option, index):
        self._editing = QPersistentModelIndex(index)
        editor = QLineEdit(parent)
        editor.setFrame(False)
        editor.setAccessibleName(self.tr("Task text"))
        editor.setToolTip(self.tr("Press Enter to save, Esc to cancel."))
        return editor

    def destroyEditor(self, editor, index) -> None:
        self._editing = QPersistentModelIndex()
        super().destroyEditor(editor, index)

    def setEditorData(self, editor, index) -> None:
        # Called again whenever the row's data changes; what the person typed comes first.
        if editor.property("harness_loaded"):
            return
        editor.setText(index.data(Qt.ItemDataRole.EditRole) or "")
        editor.setProperty("harness_loaded", True)

    def setModelData(self, editor, model, index) -> None:
        model.setData(index, editor.text(), Qt.ItemDataRole.EditRole)
