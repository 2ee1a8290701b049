"""Telling the person a run needs them or has ended: always a banner in the window; when the
window is not in front, also the taskbar/dock alert and a system notification where the
platform has one (a tray message; nothing where there is no tray).
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication, QStyle, QSystemTrayIcon, QWidget

from app.gui.look.notice_bar import NoticeBar

SHOW_FOR_MS = 15_000  # how long a system notification stays, where the platform lets us say


class Notifier(QObject):
    system_notified = Signal(str, str)   # a system notification was sent (title, text)

    def __init__(self, window: QWidget, banner: NoticeBar):
        super().__init__(window)
        self.window = window
        self.banner = banner
        self._tray: QSystemTrayIcon | None = None
        self._news = ""  # the banner's sentence that offers nothing to do (a run's end)

    def in_front(self) -> bool:
        """Whether the person is looking at the app now (one of its windows is active)."""
        return QApplication.activeWindow() is not None and not self.window.isMinimized()

    def notify(self, title: str, text: str, action: str = "",
               callback: Callable[[], None] | None = None, attention: bool = False) -> None:
        """The banner, the alert and the system notification when not in front. In front,
        what offers nothing to do (a run that finished or stopped) is not said a second
        time: the run's status block says it, with its heading and the button it names;
        whatever offers an action (Answer…) still gets its banner. A banner of news passes:
        it leaves by itself."""
        news = not attention and not action
        if self.in_front():
            if action:
                self.banner.show_notice(text, action, callback, tone="attention")
            return
        self.banner.show_notice(text, action, callback,
                                tone="attention" if attention else "normal", passing=news)
        self._news = "" if action else text
        QApplication.alert(self.window)
        if self.can_notify():
            self._send(title, text)

    def drop_news(self) -> None:
        """The status now says something newer (a round undone): a banner still saying how the
        last run ended would repeat the status beside it, out of date, so it goes. A banner
        put there since by anything else stays."""
        if self._news and self.banner.isVisible() and self.banner.text.text() == self._news:
            self.banner.hide()
        self._news = ""

    @staticmethod
    def can_notify() -> bool:
        return QSystemTrayIcon.isSystemTrayAvailable() and QSystemTrayIcon.supportsMessages()

    def _send(self, title: str, text: str) -> None:
        if self._tray is None:
            # A tray message needs a visible tray icon; it is shown only once there is
            # something to say, and clicking it brings the window back.
            icon = self.window.windowIcon()
            if icon.isNull():  # a tray entry without an icon is invisible on some desktops
                icon = self.window.style().standardIcon(
                    QStyle.StandardPixmap.SP_MessageBoxInformation)
            self._tray = QSystemTrayIcon(icon, self)
            self._tray.setToolTip(self.window.windowTitle())
            self._tray.messageClicked.connect(self._on_message_clicked)
            self._tray.activated.connect(lambda _reason: self._on_message_clicked())
            self._tray.show()
        self._tray.showMessage(title, text, QSystemTrayIcon.MessageIcon.Information, SHOW_FOR_MS)
        self.system_notified.emit(title, text)

    def _on_message_clicked(self) -> None:
        self.window.showNormal() if self.window.isMinimized() else self.window.show()
        self.window.raise_()
        self.window.activateWindow()
