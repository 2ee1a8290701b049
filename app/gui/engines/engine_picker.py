"""The engine dropdown (Demo, Claude, OpenAI, Local) with a ready mark, the reason, and the model.

Readiness is checked off the UI thread, after the window is up, whenever the person picks
an engine, and whenever a key is saved or removed; until the answer comes the mark is hollow
("checking"). A check asked for while another is on its way starts afresh, and only the
newest answer counts (the one before may have read the keychain before the key was saved).
A not-ready engine's tooltip says, in one sentence of the window's, why and where to put it
right. Listing the engines imports no AI SDK.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QWidget

from app.gui import core_calls

from app.gui.settings import language

from app.gui.look import look

from app.gui.words import wording
from app.gui.background import run_for

if TYPE_CHECKING:
    from app.core.engine.port import Availability
    from app.core.settings import Settings


# Around a row's text in the open list (Fusion's menu-style rows): the check column, the gap
# after the dot and the right border.
LIST_ROOM = 56


class EnginePicker(QWidget):
    engine_changed = Signal(str)   # the person chose another engine (its id)
    model_changed = Signal(str)    # the person chose or typed another model
    readiness_checked = Signal(str)  # an engine's readiness is known (its id)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        # The window's current Settings (None: read the file).
        self.settings_now: Callable[[], Settings | None] = lambda: None
        self.choices = core_calls.engine_choices()
        self.readiness: dict[str, Availability] = {}
        self._checking: set[str] = set()
        self._asked: dict[str, int] = {}  # engine id -> number of the newest check asked for
        self._models: dict[str, str] = {}
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        label = QLabel(self.tr("&Engine"), self)
        label.setToolTip(wording.tip(wording.ENGINE_TIP))
        self.combo = QComboBox(self)
        self.combo.setObjectName("engine")
        # Wide enough for the longest engine name: never cut mid-word on a small screen.
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        label.setBuddy(self.combo)
        for choice in self.choices:
            self.combo.addItem(self._label(choice.id), choice.id)
        model_label = QLabel("·", self)
        self.model = QComboBox(self)
        self.model.setObjectName("model")
        self.model.setEditable(True)
        self.model.setMinimumContentsLength(14)
        self.model.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        model_label.setBuddy(self.model)
        model_label.setToolTip(self.tr("Which AI model of the engine does the work."))
        self.model.setToolTip(model_label.toolTip())
        look.set_accessible(self.model, self.tr("Model"))
        # Inside the top bar's engine chip: "Engine  Claude · Sonnet ⚙", the boxes drawn flat
        # so the chip's one edge is the control's edge; the model is named by its "·", its
        # tooltip and its accessible name.
        self.combo.setFrame(False)
        self.model.setFrame(False)
        model_label.setAccessibleName(self.tr("Model"))
        # The "·" carries no mnemonic, so Alt+M (the "&Model" label's key before the chip) is
        # a shortcut of its own: it takes the keyboard to the model box when the box is in use.
        self.model_shortcut = QShortcut(QKeySequence(Qt.Modifier.ALT | Qt.Key.Key_M), self)
        self.model_shortcut.activated.connect(self._focus_model)
        layout.setSpacing(4)
        layout.addWidget(label)
        layout.addWidget(self.combo)
        layout.addWidget(model_label)
        layout.addWidget(self.model)
        for choice in self.choices:
            self._mark(choice.id)
        self._fit_list()
        self.combo.currentIndexChanged.connect(self._on_engine_picked)
        self._model_edit().editingFinished.connect(self._on_model_edited)
        self.model.activated.connect(lambda _i: self._on_model_edited())
        self._update_model_box()

    def _model_edit(self) -> QLineEdit:
        edit = self.model.lineEdit()
        assert edit is not None  # the model box is editable
        return edit

    def _focus_model(self) -> None:
        if self.model.isEnabled() and self.model.isVisible():
            self.model.setFocus(Qt.FocusReason.ShortcutFocusReason)
            self._model_edit().selectAll()

    def label(self, engine_id: str) -> str:
        """The engine's name as the person reads it ("Claude")."""
        return self._label(engine_id)

    def _label(self, engine_id: str) -> str:
        return {"demo": self.tr("Demo (offline, no AI)"), "anthropic": self.tr("Claude"),
                "openai": self.tr("OpenAI"), "local": self.tr("Local (Ollama, LM Studio)")
                }.get(engine_id, engine_id)

    # -- state ---------------------------------------------------------------------------
    @property
    def engine_id(self) -> str:
        return self.combo.currentData() or "demo"

    @property
    def model_name(self) -> str:
        return "" if self.engine_id == "demo" else self.model.currentText().strip()

    def select(self, engine_id: str, models: dict[str, str] | None = None) -> None:
        """Show `engine_id` as chosen (without emitting engine_changed), with saved models."""
        if models is not None:
            self._models = dict(models)
        index = self.combo.findData(engine_id)
        self.combo.blockSignals(True)
        self.combo.setCurrentIndex(max(0, index))
        self.combo.blockSignals(False)
        self._update_model_box()
        self._update_combo_words()

    def check_all(self) -> None:
        """Check every engine's readiness in the background (each answers within seconds)."""
        for choice in self.choices:
            self.check(choice.id)

    def check(self, engine_id: str) -> None:
        """Ask again whether `engine_id` is ready (in the background); an answer to an
        earlier question that comes back later is ignored."""
        number = self._asked.get(engine_id, 0) + 1
        self._asked[engine_id] = number
        self._checking.add(engine_id)
        self.readiness.pop(engine_id, None)
        self._mark(engine_id)
        settings = self.settings_now()
        run_for(self, lambda: core_calls.engine_readiness(engine_id, settings),
                lambda a: self._on_checked(engine_id, a, number),
                lambda exc: self._on_check_failed(engine_id, exc, number))

    def is_ready(self, engine_id: str | None = None) -> bool | None:
        found = self.readiness.get(engine_id or self.engine_id)
        return None if found is None else found.ready

    def not_ready_sentence(self, engine_id: str) -> str:
        """Why the engine cannot run, in one sentence of the window's that ends where to put
        it right ("Claude did not accept the saved API key: paste a new one in Engine
        settings."), for the notice line beside its Engine settings… button."""
        from app.gui.words.engine_words import (  # noqa: PLC0415 - window start-up (bench/startup.py)
            not_ready)

        found = self.readiness.get(engine_id)
        if found is None or found.ready:
            return ""
        return not_ready(engine_id, found.reason, found.facts)

    # -- slots -----------------------------------------------------------------------------
    def _on_checked(self, engine_id: str, availability: Availability, number: int = 0) -> None:
        if number and number != self._asked.get(engine_id):
            return  # a later check is on its way: its answer is the one that counts
        self._checking.discard(engine_id)
        self.readiness[engine_id] = availability
        self._mark(engine_id)
        if engine_id == self.engine_id:
            self._update_model_box()
            self._update_combo_words()
        self.readiness_checked.emit(engine_id)

    def _on_check_failed(self, engine_id: str, exc: BaseException, number: int = 0) -> None:
        from app.core.engine.port import (  # noqa: PLC0415 - window start-up (bench/startup.py)
            Availability)

        self._on_checked(engine_id, Availability(False, " ".join(str(exc).split())[:200]),
                         number)

    def _on_engine_picked(self, _index: int) -> None:
        self._update_model_box()
        self._update_combo_words()
        self.check(self.engine_id)
        self.engine_changed.emit(self.engine_id)

    def _on_model_edited(self) -> None:
        name = self.model.currentText().strip()
        if self.engine_id != "demo" and name != self._models.get(self.engine_id, ""):
            self._models[self.engine_id] = name
            self.model_changed.emit(name)
            self.check(self.engine_id)  # is the new model one it can use?

    # -- drawing ---------------------------------------------------------------------------
    def _mark(self, engine_id: str) -> None:
        index = self.combo.findData(engine_id)
        if index < 0:
            return
        found = self.readiness.get(engine_id)
        if found is None:
            icon = look.dot_icon(look.muted_colour(), hollow=True)
            state, tip = self.tr("checking"), self.tr("Checking whether it is ready…")
        elif found.ready:
            icon = look.dot_icon(look.ok_colour())
            state, tip = self.tr("ready"), self.tr("Ready.")
            if language.current() == "en":  # the engine's own words are English
                tip += "\n" + found.message
        else:
            icon = look.dot_icon(look.attention_colour(), hollow=True)
            state = self.tr("not ready")
            tip = self.not_ready_sentence(engine_id)
        self.combo.setItemIcon(index, icon)
        self.combo.setItemData(index, tip, Qt.ItemDataRole.ToolTipRole)
        self.combo.setItemData(index, f"{self._label(engine_id)}, {state}",
                               Qt.ItemDataRole.AccessibleTextRole)
        if engine_id == self.engine_id:
            self._update_combo_words()

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            for index in range(self.combo.count()):
                self._mark(self.combo.itemData(index))
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit_list()

    def _fit_list(self) -> None:
        """The open list as wide as its longest engine: the list draws its rows with more room
        around the text (a check column, the dot, a right border) than the closed box, so at
        the box's width "Local (Ollama, LM Studio)" was cut to "Local (Olla… LM Studio)"."""
        view = self.combo.view()
        metrics = view.fontMetrics()
        widest = max((metrics.horizontalAdvance(self.combo.itemText(row))
                      for row in range(self.combo.count())), default=0)
        view.setMinimumWidth(widest + self.combo.iconSize().width() + LIST_ROOM
                             + 2 * view.frameWidth())

    def _update_combo_words(self) -> None:
        index = self.combo.currentIndex()
        tip = self.combo.itemData(index, Qt.ItemDataRole.ToolTipRole) or ""
        self.combo.setToolTip(wording.tip(wording.ENGINE_TIP) + ("\n\n" + tip if tip else ""))
        spoken = self.combo.itemData(index, Qt.ItemDataRole.AccessibleTextRole) \
            or self.combo.currentText()
        look.set_accessible(self.combo, self.tr("Engine: %1").replace("%1", spoken))

    def _update_model_box(self) -> None:
        engine_id = self.engine_id
        self.model.blockSignals(True)
        self.model.clear()
        if engine_id == "demo":
            self.model.addItem(self.tr("no model to choose"))
            self.model.setEnabled(False)
        else:
            found = self.readiness.get(engine_id)
            models = list(found.models) if found else []
            chosen = self._models.get(engine_id, "")
            if chosen and chosen not in models:
                models.insert(0, chosen)
            self.model.addItems(models)
            self.model.setEnabled(True)
            # No choice yet means the engine's default: shown as a hint, never as a choice.
            self.model.setCurrentIndex(-1)
            self.model.setEditText(chosen)
            hint = self.tr("the engine's default")
            self._model_edit().setPlaceholderText(hint)
            # The hint shows whole: the box is at least as wide as it, plus the arrow.
            self.model.setMinimumWidth(self.model.fontMetrics().horizontalAdvance(hint) + 44)
        self.model.blockSignals(False)
