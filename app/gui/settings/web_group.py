"""Settings: looking things up on the web: how many lookups one task may make in a
run, and the sites the AI services may search and read (only some, or never some)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel, QLineEdit, QSpinBox, QWidget

from app.core.settings import clean_domains
from app.gui.look import look

if TYPE_CHECKING:
    from app.core.settings import Limits


class WebGroup(QGroupBox):
    """The web part of the Settings dialog; `limits(base)` gives base with its values."""

    def __init__(self, limits: Limits, parent: QWidget | None = None):
        super().__init__(self.tr("Looking things up on the web"), parent)
        form = QFormLayout(self)
        # "under This folder" named a group that shows only while a folder is open, and
        # read as "this folder": the sentence says where to allow it, and which group
        note = self.note = QLabel(self.tr(
            "Only tasks you allow may look things up: tick “This task may look things up on "
            "the web” in a task's details. Claude and OpenAI run the searches; each costs "
            "about one US cent and counts in the budget."), self)
        note.setWordWrap(True)
        look.set_tone(note, "muted")
        form.addRow(note)
        self.lookups = QSpinBox(self)
        self.lookups.setRange(1, 500)
        self.lookups.setValue(limits.max_lookups)
        self.lookups.setToolTip(self.tr("Searches and pages read together. When a task has "
                                        "made this many in a run, its round stops."))
        look.set_accessible(self.lookups, self.tr("Web lookups per task"))
        form.addRow(self.tr("&Web lookups per task"), self.lookups)
        self.allowed = self._sites(limits.web_allowed_domains, self.tr(
            "Only these sites, e.g. gov.uk, food.gov.uk (empty: any site)"))
        look.set_accessible(self.allowed, self.tr("Only these sites"))
        form.addRow(self.tr("&Only these sites"), self.allowed)
        self.blocked = self._sites(limits.web_blocked_domains, self.tr(
            "Never these sites (Claude only; ignored when only some sites are allowed)"))
        look.set_accessible(self.blocked, self.tr("Never these sites"))
        form.addRow(self.tr("&Never these sites"), self.blocked)

    def folder_shown(self) -> None:
        """The open folder's group is in the dialog, below: a whole folder can be allowed."""
        self.note.setText(self.tr(
            "Only tasks you allow may look things up: tick “This task may look things up on "
            "the web” in a task's details, or allow every task in this folder under “This "
            "folder” below. Claude and OpenAI run the searches; each costs about one US cent "
            "and counts in the budget."))

    def _sites(self, sites: list[str], tip: str) -> QLineEdit:
        line = QLineEdit(", ".join(sites), self)
        line.setPlaceholderText(self.tr("example.com, another.org"))
        line.setToolTip(tip)
        return line

    def limits(self, base: Limits) -> Limits:
        """`base` with this group's values (the core cleans the site names)."""
        return base.with_overrides(max_lookups=self.lookups.value(),
                                   web_allowed_domains=clean_domains(self.allowed.text()),
                                   web_blocked_domains=clean_domains(self.blocked.text()))
