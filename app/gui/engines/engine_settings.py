"""Engine settings: the key for Claude and OpenAI (kept in the keychain), the local server's
address, the model, and "Test connection" in plain words.

Keys go straight to the keychain with "Save key" (never to a file). On a computer with no
keychain the app can use, the same field offers "Keep for this session": the key stays in
the app's memory until it quits, never on disk. The model and the address are kept per
engine and saved when the person presses Save. Every keychain and network call runs in the
background; the dialog never freezes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout,
                               QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget)

from app.engines.connection import local_presets
from app.gui.background import run_for
from app.gui.engines import key_calls
from app.gui.look import look
from app.gui.settings import language

if TYPE_CHECKING:
    from app.core.settings import Settings
    from app.engines.connection import ConnectionCheck
    from app.gui.engines.key_calls import KeyState

SETUP_ENGINES = ("anthropic", "openai", "local")  # the Demo engine has nothing to set up
KEY_SITES = {"anthropic": "console.anthropic.com", "openai": "platform.openai.com"}


class EngineSettingsDialog(QDialog):
    settings_saved = Signal(object)   # the Settings with this dialog's models and addresses
    key_changed = Signal(str)         # a key was stored or removed (the engine's id)
    connection_checked = Signal(str)  # a test finished (its verdict)
    key_state_shown = Signal(str)     # the key line was updated (the engine's id)

    def __init__(self, settings: Settings, engine_id: str = "anthropic",
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("engineSettings")
        self.setWindowTitle(self.tr("Engine settings"))
        self.settings = settings
        self._drafts = {e: settings.engine_settings(e).model_copy() for e in SETUP_ENGINES}
        self._models: dict[str, list[str]] = {}
        self._states: dict[str, KeyState] = {}
        self._busy = False
        self._check_no = 0
        self._close_after_key = False
        self._build()
        self.engine.setCurrentIndex(max(0, self.engine.findData(engine_id)))
        self._on_engine_picked()
        self.adjustSize()

    # -- building --------------------------------------------------------------------------
    def _build(self) -> None:
        column = QVBoxLayout(self)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.engine = QComboBox(self)
        for engine_id, words in (("anthropic", self.tr("Claude (Anthropic)")),
                                 ("openai", self.tr("OpenAI")),
                                 ("local", self.tr("Local (Ollama, LM Studio)"))):
            self.engine.addItem(words, engine_id)
        column.addLayout(form)
        look.set_accessible(self.engine, self.tr("Engine to set up"))
        self.engine.setToolTip(self.tr("Which engine these settings are for."))
        form.addRow(self.tr("&Engine"), self.engine)
        self.intro = _sentence(self)
        self.intro.setObjectName("engineIntro")
        look.set_tone(self.intro, "muted")
        column.addWidget(self.intro)
        self.fields = QFormLayout()

        self.key_row = QWidget(self)
        key_column = QVBoxLayout(self.key_row)
        key_column.setContentsMargins(0, 0, 0, 0)
        line = QHBoxLayout()
        self.key_field = QLineEdit(self)
        self.key_field.setObjectName("apiKey")
        self.key_field.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_field.setClearButtonEnabled(True)
        look.set_accessible(self.key_field, self.tr("API key"),
                            self.tr("Hidden as you type. Kept in your computer's keychain."))
        self.save_key_button = QPushButton(self.tr("&Save key"), self)
        self.save_key_button.setToolTip(self.tr("Keep the key in your computer's keychain."))
        self.remove_key_button = QPushButton(self.tr("&Remove"), self)
        self.remove_key_button.setToolTip(self.tr("Delete the stored key from the keychain."))
        look.set_accessible(self.remove_key_button, self.tr("Remove the stored key"))
        line.addWidget(self.key_field, 1)
        line.addWidget(self.save_key_button)
        line.addWidget(self.remove_key_button)
        self.key_status = _sentence(self)
        self.key_status.setObjectName("keyStatus")
        key_column.addLayout(line)
        key_column.addWidget(self.key_status)
        self.key_label = QLabel(self.tr("API &key"), self)
        self.key_label.setBuddy(self.key_field)
        self.fields.addRow(self.key_label, self.key_row)

        self.address_row = QWidget(self)
        address_line = QHBoxLayout(self.address_row)
        address_line.setContentsMargins(0, 0, 0, 0)
        self.address = QLineEdit(self)
        self.address.setObjectName("serverAddress")
        look.set_accessible(self.address, self.tr("Server address"))
        self.address.setToolTip(self.tr("Where Ollama or LM Studio answers on this computer or "
                                        "your network."))
        address_line.addWidget(self.address, 1)
        self.presets: dict[str, QPushButton] = {}
        for name, url in _local_presets().items():
            button = QPushButton(name, self)
            button.setToolTip(self.tr("Use %1's usual address: %2").replace("%1", name)
                              .replace("%2", url))
            look.set_accessible(button, self.tr("Use the %1 address").replace("%1", name))
            button.clicked.connect(lambda _=False, u=url: self._on_preset_chosen(u))
            address_line.addWidget(button)
            self.presets[name] = button
        self.address_label = QLabel(self.tr("Server &address"), self)
        self.address_label.setBuddy(self.address)
        self.fields.addRow(self.address_label, self.address_row)

        self.model = QComboBox(self)
        self.model.setObjectName("engineModel")
        self.model.setEditable(True)
        self.model.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.model.setMinimumContentsLength(24)
        model_edit = self.model.lineEdit()
        assert model_edit is not None  # an editable box has its line
        model_edit.setPlaceholderText(self.tr("the engine's default"))
        look.set_accessible(self.model, self.tr("Model"))
        self.model.setToolTip(self.tr("Which AI model does the work. The list comes from the "
                                      "engine when it can be reached."))
        self.fields.addRow(self.tr("&Model"), self.model)
        column.addLayout(self.fields)

        test_line = QHBoxLayout()
        self.test_button = QPushButton(self.tr("&Test connection"), self)
        self.test_button.setToolTip(self.tr("Ask the engine whether it is ready, with this key, "
                                            "address and model. Takes a few seconds at most."))
        test_line.addWidget(self.test_button)
        test_line.addStretch(1)
        column.addLayout(test_line)
        self.verdict = _sentence(self)
        self.verdict.setObjectName("verdict")
        self.verdict_detail = _sentence(self)
        look.set_tone(self.verdict_detail, "muted")
        column.addWidget(self.verdict)
        column.addWidget(self.verdict_detail)
        column.addSpacing(6)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        column.addWidget(buttons)
        self.setMinimumWidth(640)

        self.engine.currentIndexChanged.connect(lambda _i: self._on_engine_picked())
        self.save_key_button.clicked.connect(self._on_save_key_clicked)
        self.key_field.installEventFilter(self)
        self.key_field.textChanged.connect(lambda _t: self._update_buttons())
        self.remove_key_button.clicked.connect(self._on_remove_key_clicked)
        self.address.textEdited.connect(self._on_address_edited)
        self.model.editTextChanged.connect(self._on_model_edited)
        self.test_button.clicked.connect(self.test_connection)

    # -- state -----------------------------------------------------------------------------
    @property
    def engine_id(self) -> str:
        return self.engine.currentData()

    def draft_settings(self) -> Settings:
        """The settings as they would be saved now."""
        engines = dict(self.settings.engines)
        for engine_id, draft in self._drafts.items():
            if draft.model or draft.base_url or engine_id in engines:
                engines[engine_id] = draft
        return self.settings.model_copy(update={"engines": engines})

    def accept(self) -> None:
        """Save: a key typed but not yet saved is stored first (a person may well press Save
        rather than Save key); the dialog closes once it is in the keychain."""
        if self.engine_id in KEY_SITES and self.key_field.text().strip():
            self._close_after_key = True
            self._on_save_key_clicked()
            return
        if key_calls.not_an_address(self._drafts["local"].base_url or ""):
            # kept, it would only ever be "cannot be used" (a key pasted in the wrong box)
            if self.engine_id != "local":
                self.engine.setCurrentIndex(self.engine.findData("local"))
            self._show_bad_address()
            self.address.setFocus(Qt.FocusReason.OtherFocusReason)
            self.address.selectAll()
            return
        self.settings = self.draft_settings()
        self.settings_saved.emit(self.settings)
        super().accept()

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt's name)
        # Enter in the key field saves the key; it must not also press Save and close.
        if (watched is self.key_field and event.type() == QEvent.Type.KeyPress
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)):
            self._on_save_key_clicked()
            return True
        return super().eventFilter(watched, event)

    # -- slots -----------------------------------------------------------------------------
    def _on_engine_picked(self) -> None:
        engine_id = self.engine_id
        keyed = engine_id in KEY_SITES
        self.key_label.setVisible(keyed)
        self.key_row.setVisible(keyed)
        self.address_label.setVisible(not keyed)
        self.address_row.setVisible(not keyed)
        self.intro.setText(self._intro(engine_id))
        if keyed:
            self.key_field.clear()
            self.key_field.setPlaceholderText(
                self.tr("Paste your key here. You get one at %1.").replace(
                    "%1", KEY_SITES[engine_id]))
            self._show_key_state(self._states.get(engine_id))
            run_for(self, lambda: key_calls.key_state(engine_id),
                    lambda state: self._on_key_state(engine_id, state))
        else:
            self.address.setText(self._drafts[engine_id].base_url or _local_presets()["Ollama"])
        self._fill_models(self._models.get(engine_id) or key_calls.known_models(engine_id))
        self._show_verdict("", "")
        self._update_buttons()
        self.test_connection(quietly=True)  # fills the model list from the engine

    def _on_key_state(self, engine_id: str, state: KeyState) -> None:
        self._states[engine_id] = state
        if engine_id == self.engine_id:
            self.intro.setText(self._intro(engine_id))  # with a keychain or without one
            self._show_key_state(state)
            self._update_buttons()
            self._fit()  # the button's words changed too ("Keep for this session")
        self.key_state_shown.emit(engine_id)

    def _on_save_key_clicked(self) -> None:
        secret = self.key_field.text().strip()
        engine_id = self.engine_id
        if not secret or self._busy:
            return
        state = self._states.get(engine_id)
        if state is not None and not state.usable:  # no keychain: this session only
            self._set_busy(True, self.tr("Keeping the key for this session…"))
            run_for(self, lambda: key_calls.keep_for_session(engine_id, secret),
                    lambda kept: self._on_key_stored(engine_id, kept, None),
                    self._on_key_failed)
            return
        self._set_busy(True, self.tr("Saving the key…"))
        run_for(self, lambda: key_calls.store_key(engine_id, secret),
                lambda found: self._on_key_stored(engine_id, *found), self._on_key_failed)

    def _on_key_stored(self, engine_id: str, state: KeyState, warning: str | None) -> None:
        self._set_busy(False)
        self.key_field.clear()
        self._on_key_state(engine_id, state)
        self.key_changed.emit(engine_id)
        if self._close_after_key:
            self._close_after_key = False
            self.accept()
            return
        if warning:  # shown until the person tests: a test's answer would replace it
            self._show_verdict(self.tr("The key was saved, with a warning."), warning,
                               attention=True)
            return
        self.test_connection()

    def _on_key_failed(self, exc: BaseException) -> None:
        self._close_after_key = False
        self._set_busy(False)
        # The keychain's own reason is an English sentence: in English only.
        reason = getattr(exc, "message", None) if language.current() == "en" else None
        self._show_verdict(self.tr("The key was not saved."), reason or self.tr(
            "Your computer's keychain (where it keeps passwords) did not accept it: unlock the "
            "keychain, which may ask for the password you log in with, then press Save key "
            "again."), attention=True)

    def _on_remove_key_clicked(self) -> None:
        engine_id = self.engine_id
        before = self._states.get(engine_id)
        session = bool(before and before.session)
        self._set_busy(True, self.tr("Removing the key…"))
        run_for(self, lambda: key_calls.remove_key(engine_id),
                lambda state: self._on_key_removed(engine_id, state, session),
                self._on_key_failed)

    def _on_key_removed(self, engine_id: str, state: KeyState, session: bool = False) -> None:
        self._set_busy(False)
        self._on_key_state(engine_id, state)
        self.key_changed.emit(engine_id)
        self._show_verdict(self.tr("The key kept for this session is forgotten.") if session
                           else self.tr("The key was removed from the keychain."), "")

    def _on_preset_chosen(self, url: str) -> None:
        self.address.setText(url)
        self._on_address_edited(url)

    def _on_address_edited(self, text: str) -> None:
        engine_id = self.engine_id
        self._drafts[engine_id] = self._drafts[engine_id].model_copy(
            update={"base_url": text.strip()})

    def _on_model_edited(self, text: str) -> None:
        engine_id = self.engine_id
        self._drafts[engine_id] = self._drafts[engine_id].model_copy(
            update={"model": text.strip()})

    def test_connection(self, quietly: bool = False) -> None:
        """Ask the engine, as set up in this dialog, whether it is ready (in the background)."""
        if self._busy:
            return
        engine_id, settings = self.engine_id, self.draft_settings()
        if engine_id == "local" and key_calls.not_an_address(self.address.text()):
            self._check_no += 1  # a test on its way was for another address
            self._show_bad_address()
            return
        if not quietly:
            self._set_busy(True, self.tr("Testing the connection…"))
        self._check_no += 1  # an earlier test's answer, coming back later, is out of date
        number = self._check_no
        run_for(self, lambda: key_calls.check_connection(engine_id, settings),
                lambda found: self._on_connection_checked(number, found, quietly),
                lambda exc: self._on_connection_checked(number, None, quietly))

    def _on_connection_checked(self, number: int, found: ConnectionCheck | None,
                               quietly: bool) -> None:
        if not quietly:
            self._set_busy(False)
        if number != self._check_no:
            return
        engine_id = self.engine_id
        if found is None:
            self._show_verdict(self.tr("The test could not be run. Try again."), "")
            self.connection_checked.emit("not_ready")
            return
        if found.models:
            self._models[engine_id] = list(found.models)
            self._fill_models(found.models)
        # Where the headline already says all there is to do, the engine's own sentence
        # (written for the command line: "open Engine settings…") would only repeat it; it
        # is English, so it shows as a detail in English only (the headline is the window's).
        # "No answer" says what to do too; the engine's sentence only adds where it knocked,
        # which is for a helper: in the tooltip.
        # "Not running" names the address's field and what to start; the engine's sentence
        # said it again, with the address the field already shows.
        said_all = found.verdict in ("no_key", "key_rejected", "no_answer", "not_running")
        detail = "" if said_all or language.current() != "en" else found.detail
        self._show_verdict(self._headline(found.verdict), detail,
                           attention=found.verdict != "ready")
        self.verdict.setToolTip(found.detail if found.verdict == "no_answer"
                                and language.current() == "en" else "")
        self.connection_checked.emit(found.verdict)

    # -- drawing ---------------------------------------------------------------------------
    def _intro(self, engine_id: str) -> str:
        if engine_id == "local":
            return self.tr("Local uses an AI model running on this computer (or on your "
                           "network) in Ollama or LM Studio. It needs no key and no account, "
                           "and nothing leaves your network.")
        name = {"anthropic": "Claude", "openai": "OpenAI"}[engine_id]  # names kept in any language
        state = self._states.get(engine_id)
        if state is not None and not state.usable:
            # no keychain: "kept in your computer's keychain" would be untrue; the line under
            # the key says where it is kept instead
            return self.tr("%1 needs an API key: a long code from your account on %2 that "
                           "lets Harness Desk use the AI, billed to that account.").replace(
                "%1", name).replace("%2", KEY_SITES[engine_id])
        return self.tr("%1 needs an API key: a long code from your account on %2 that lets "
                       "Harness Desk use the AI, billed to that account. The key is kept in "
                       "your computer's keychain, never in a file.").replace(
            "%1", name).replace("%2", KEY_SITES[engine_id])

    def _headline(self, verdict: str) -> str:
        state = self._states.get(self.engine_id)
        if verdict == "no_key" and state is not None and not state.usable:
            return self.tr("There is no key yet: paste your key above and press Keep for this "
                           "session.")
        model = self._model_asked()
        if verdict == "no_model" and model:
            # "There is no such model" said nothing when the field shows the engine's default:
            # the person typed no model, so the sentence names the one that was asked for
            if self.engine_id == "local":
                return self.tr("The local server has no model called “%1”: choose one from the "
                               "Model list.").replace("%1", model)
            return (self.tr("%1 has no model called “%2” that your key can use: choose one "
                            "from the Model list.")
                    .replace("%1", {"anthropic": "Claude", "openai": "OpenAI"}[self.engine_id])
                    .replace("%2", model))
        return {
            "ready": self.tr("Ready. The engine answered and can do the work."),
            # the line under the key already says "No key is stored yet.": this says what to do
            "no_key": self.tr("Paste your key above and press Save key."),
            "key_rejected": self.tr("The key was rejected. Check that you copied all of it, or "
                                    "make a new key and paste it above."),
            "no_model": self.tr("There is no such model. Pick one from the list."),
            # what was seen (nothing answered), not a guess: the address may be wrong
            "not_running": self.tr("Nothing answers at this address: start Ollama, LM Studio "
                                   "or llama.cpp's llama-server, or correct the address, then "
                                   "press Test connection."),
            "no_answer": self.tr("No answer. Check your internet connection and try again."),
        }.get(verdict, self.tr("Not ready yet."))

    def _show_bad_address(self) -> None:
        """Not "nothing answers": what is in the box is not an address at all."""
        # not repeated in the sentence: what was pasted there may well be a key
        self._show_verdict(self.tr("The server address is not a web address; one looks like "
                                   "http://localhost:11434/v1. Correct it, or press Ollama or "
                                   "LM Studio."), "", attention=True)
        self.connection_checked.emit("bad_address")

    def _model_asked(self) -> str:
        """The model the test asked for: the one chosen here, else the engine's default
        (the first it is known by; a local server has none of its own)."""
        chosen = self._drafts[self.engine_id].model
        if chosen or self.engine_id == "local":
            return chosen
        known = key_calls.known_models(self.engine_id)
        return known[0] if known else ""

    def _show_key_state(self, state: KeyState | None) -> None:
        if state is None:
            self.key_status.setText(self.tr("Looking in the keychain…"))
        elif state.session:
            self.key_status.setText(self.tr(
                "Kept for this session only: in memory until you quit Harness Desk, never "
                "written to a file."))
        elif not state.usable:
            # what to press is the verdict's to say, once
            self.key_status.setText(self.tr(
                "This computer has no keychain Harness Desk can use, so the key can be kept "
                "for this session only: in memory until you quit, never written to a file; "
                "next time, paste it again."))
            # the keychain's own reason is a technical English sentence: for a helper, in
            # the tooltip, in English only
            self.key_status.setToolTip(state.problem if language.current() == "en" else "")
        elif state.stored:
            self.key_status.setText(self._stored_in(state.keychain))
        elif state.env_set:
            self.key_status.setText(self.tr("No key is stored; the key in %1 is used.")
                                    .replace("%1", state.env_var))
        else:
            self.key_status.setText(self.tr("No key is stored yet."))
        if state is None or state.usable:
            self.key_status.setToolTip("")
        look.set_accessible(self.key_status, self.key_status.text())
        self._fit()

    def _stored_in(self, keychain: str) -> str:
        """Where the key is, in the window's language, a whole sentence each (so Chinese reads
        as Chinese): the keychains the core names, and for any other (a keyring plug-in's class
        name, such as "PlaintextKeyring") the computer's keychain."""
        return {
            "the macOS Keychain": self.tr("Stored in the macOS Keychain."),
            "the Secret Service (GNOME Keyring or KWallet)": self.tr(
                "Stored in your desktop's keyring (GNOME Keyring or KWallet)."),
            "KWallet": self.tr("Stored in KWallet."),
            "Windows Credential Manager": self.tr("Stored in Windows Credential Manager."),
        }.get(keychain, self.tr("Stored in your computer's keychain."))

    def _show_verdict(self, headline: str, detail: str, attention: bool = False) -> None:
        self.verdict.setText(headline)
        look.set_tone(self.verdict, "attention" if attention else None)
        self.verdict_detail.setText(detail)
        self.verdict_detail.setVisible(bool(detail))
        self._fit()
        if headline:
            look.announce(self, headline)

    def _fit(self) -> None:
        """Grow to show every sentence whole (never shrink while the person reads), and never
        let the dialog be made smaller than its sentences need at its width: a layout's own
        minimum leaves out the lines a wrapped sentence needs, so a window manager or a
        drag could cut them off."""
        layout = self.layout()
        assert layout is not None  # made in __init__
        for row in (self.key_row, self.address_row):  # nested rows cache their old heights
            row_layout = row.layout()
            assert row_layout is not None  # made with the row
            row_layout.invalidate()
        layout.invalidate()
        layout.activate()
        needed = (layout.totalHeightForWidth(self.width()) if layout.hasHeightForWidth()
                  else layout.totalSizeHint().height())
        self.setMinimumHeight(needed)
        if needed > self.height():
            self.resize(self.width(), needed)

    def event(self, event) -> bool:  # noqa: D401 (Qt's name)
        """After the layout settles (a sentence arrived from a background check, a button's
        words changed), keep the minimum height at what the sentences now need."""
        handled = super().event(event)
        layout = self.layout() if event.type() == QEvent.Type.LayoutRequest else None
        if layout is not None:
            needed = (layout.totalHeightForWidth(self.width()) if layout.hasHeightForWidth()
                      else layout.totalSizeHint().height())
            if needed > self.minimumHeight():
                self.setMinimumHeight(needed)
                if needed > self.height():
                    self.resize(self.width(), needed)
        return handled

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit()  # narrower: the sentences take more lines

    def _fill_models(self, models: list[str]) -> None:
        chosen = self._drafts[self.engine_id].model
        self.model.blockSignals(True)
        self.model.clear()
        self.model.addItems(list(models))
        self.model.setCurrentIndex(-1)
        self.model.setEditText(chosen)
        self.model.blockSignals(False)

    def _set_busy(self, busy: bool, words: str = "") -> None:
        self._busy = busy
        if busy:
            self._check_no += 1  # a test still on its way would answer for the old key
            self._show_verdict(words, "")
        self._update_buttons()

    def _update_buttons(self) -> None:
        state = self._states.get(self.engine_id)
        usable = state is None or state.usable
        if usable:
            self.save_key_button.setText(self.tr("&Save key"))
            self.save_key_button.setToolTip(self.tr("Keep the key in your computer's keychain."))
        else:
            self.save_key_button.setText(self.tr("Keep for this &session"))
            self.save_key_button.setToolTip(self.tr(
                "Keep the key in memory until you quit Harness Desk; it is never written to "
                "a file, and you paste it again next time."))
        look.set_accessible(self.save_key_button, self.save_key_button.text().replace("&", ""),
                            self.save_key_button.toolTip())
        self.key_field.setEnabled(not self._busy)
        self.save_key_button.setEnabled(not self._busy and bool(self.key_field.text().strip()))
        self.remove_key_button.setEnabled(bool(state and (state.stored or state.session))
                                          and not self._busy)
        self.test_button.setEnabled(not self._busy)
        self.engine.setEnabled(not self._busy)


def _sentence(parent: QWidget) -> QLabel:
    label = QLabel(parent)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _local_presets() -> dict[str, str]:
    return local_presets()
