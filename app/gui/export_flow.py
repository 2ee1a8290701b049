"""Export summary from the window: ask where, write it off the UI thread, offer to open it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFileDialog, QWidget

from app.gui.background import run_for
from app.gui.notice_bar import NoticeBar


def tr(text: str) -> str:
    return QCoreApplication.translate("ExportFlow", text)


def export_summary(parent: QWidget, root: Path, notice: NoticeBar) -> None:
    from app.export.render import FORMATS, SAVE_FILTERS
    from app.gui import core_calls

    filters = ";;".join(label for _fmt, label in SAVE_FILTERS)
    suggested = str(Path.home() / f"{root.name} summary.pdf")
    output, chosen = QFileDialog.getSaveFileName(parent, tr("Export summary"), suggested, filters)
    if not output:
        return
    fmt = next((f for f, label in SAVE_FILTERS if label == chosen), "pdf")
    suffix = Path(output).suffix.lower().lstrip(".")
    if suffix in FORMATS:  # the name the person typed wins over the filter left selected
        fmt = suffix
    notice.show_notice(tr("Writing the summary…"))

    def done(path: Path) -> None:
        notice.show_notice(tr("Saved the summary as %1").replace("%1", str(path)), tr("Open it"),
                           lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))))

    def failed(exc: BaseException) -> None:
        notice.show_notice(tr("The summary could not be written: %1").replace(
            "%1", getattr(exc, "message", None) or getattr(exc, "strerror", None) or str(exc)),
            tone="attention")

    run_for(parent, lambda: core_calls.export_summary(root, fmt, Path(output)), done, failed)
