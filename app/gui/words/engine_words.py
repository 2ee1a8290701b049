"""The window's sentences about an engine that is not ready or that stopped a run.

The core says why in typed fields (Availability.reason and .facts, RunResult.exit_reason and
.cause; app/core/engine/port.py lists the codes) besides its English sentence for the command
line; the window writes one sentence from them here, through Qt's translation, for the engine
in question and the button on screen. The one action beside it (Engine settings…) is the
caller's button. Module-level tr(), so lupdate files these under the empty context.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from app.core.run.outcomes import ENGINE_STOPS as CORE_ENGINE_STOPS, ExitReason

KEYED = ("anthropic", "openai")
SITES = {"anthropic": "console.anthropic.com", "openai": "platform.openai.com"}
VENDORS = {"anthropic": "Anthropic", "openai": "OpenAI"}  # whose account a key bills
ADDRESS_VARS = {"anthropic": "ANTHROPIC_BASE_URL", "openai": "OPENAI_BASE_URL"}
# The engine stops a run can end with (docs/engines.md, "Errors"), and the window's own "bad_request".
ENGINE_STOPS = (*CORE_ENGINE_STOPS, ExitReason.BAD_REQUEST)


def tr(text: str) -> str:
    return QCoreApplication.translate("", text)


def name(engine_id: str) -> str:
    """The engine's name inside a sentence (Claude and OpenAI are names in every language)."""
    return {"anthropic": "Claude", "openai": "OpenAI", "demo": tr("the Demo engine"),
            "local": tr("the local server")}.get(engine_id, tr("the AI engine"))


def label(engine_id: str, fallback: str = "") -> str:
    """The engine's name as a choice in a list, as the window's engine picker says it."""
    return {"demo": QCoreApplication.translate("EnginePicker", "Demo (offline, no AI)"),
            "anthropic": "Claude", "openai": "OpenAI",
            "local": QCoreApplication.translate("EnginePicker", "Local (Ollama, LM Studio)"),
            }.get(engine_id, fallback or engine_id)


def _fill(text: str, *values: str) -> str:
    for number, value in enumerate(values, 1):
        text = text.replace(f"%{number}", value)
    return opening(text)


def opening(text: str) -> str:
    """`text` with a capital first letter: "the local server …" opens a headline too."""
    return text[:1].upper() + text[1:]


# -- readiness ------------------------------------------------------------------------------
def not_ready(engine_id: str, reason: str, facts: dict | None = None) -> str:
    """One sentence: why `engine_id` cannot run now and where to put it right."""
    facts = facts or {}
    if engine_id == "local":
        return _local_not_ready(reason, facts)
    who = name(engine_id)
    model, seconds = facts.get("model", ""), facts.get("seconds", "")
    words = {
        "no_key": tr("%1 needs your API key before it can run: paste it in Engine settings."),
        "no_keychain": tr("%1 needs your API key, and this computer has no keychain: keep it "
                          "for this session in Engine settings."),
        "key_rejected": tr("%1 did not accept the saved API key: paste a new one in Engine "
                           "settings."),
        "key_forbidden": tr("%1 does not allow the saved API key to do this work: paste "
                            "another key in Engine settings."),
        ExitReason.AUTH_FAILED: tr("%1 did not accept the saved API key: paste a new one in Engine "
                          "settings."),
        ExitReason.QUOTA_EXHAUSTED: tr("Your %1 account is out of credit or at its spending limit: "
                              "add credit at %2."),
        ExitReason.MODEL_NOT_FOUND: tr("%1 has no model called “%2” that your key can use: choose "
                              "another in Engine settings."),
        ExitReason.ENGINE_UNREACHABLE: tr("%1 could not be reached: check your internet connection."),
        "no_answer": tr("%1 did not answer within %2 seconds: check your internet "
                        "connection."),
        "bad_address": tr("The address set for %1 is not a web address: correct %2."),
    }.get(reason, tr("%1 is not ready yet: Engine settings can test the connection."))
    second = {ExitReason.QUOTA_EXHAUSTED: SITES.get(engine_id, ""),
              ExitReason.MODEL_NOT_FOUND: model, "no_answer": seconds or "8",
              "bad_address": ADDRESS_VARS.get(engine_id, "")}
    if reason == ExitReason.QUOTA_EXHAUSTED:
        who = VENDORS.get(engine_id, who)
    return _fill(words, who, second.get(reason, ""))


def _local_not_ready(reason: str, facts: dict) -> str:
    url, model = facts.get("url", ""), facts.get("model", "")
    words = {
        ExitReason.ENGINE_UNREACHABLE: (tr("Nothing is answering at %1: start your local server there "
                                  "(Ollama, LM Studio, llama.cpp's llama-server or another), "
                                  "or correct the address in Engine settings."), url),
        "no_answer": (tr("The local server at %1 did not answer in time: check that it has "
                         "finished loading."), url),
        "no_models": (tr("The local server at %1 has no models yet: download one first, for "
                         "example with “ollama pull qwen3”."), url),
        ExitReason.MODEL_NOT_FOUND: (tr("The local server has no model called “%1”: choose one it has "
                               "in Engine settings."), model),
        "no_tools": (tr("The model “%1” cannot use tools, which Harness Desk needs: choose "
                        "another model in Engine settings."), model),
        "context_too_small": (tr("The model “%1” has too small a context for Harness Desk: "
                                 "give it a larger context size on the server."), model),
        "bad_address": (tr("The address set for the local server cannot be used: correct it "
                           "in Engine settings."), ""),
    }.get(reason, (tr("The local server is not ready yet: Engine settings can test the "
                      "connection."), ""))
    return _fill(words[0], words[1])


# -- a run that an engine stopped -------------------------------------------------------------
def stopped(exit_reason: str, cause: str, engine_id: str, model: str,
            button: str) -> tuple[str, str] | None:
    """(headline, one sentence) for a run the engine stopped, naming the engine and the
    button on screen (`button`, its own words: Run or Continue); None for other endings."""
    if exit_reason not in ENGINE_STOPS:
        return None
    who = name(engine_id)
    local = engine_id == "local"
    if exit_reason == ExitReason.AUTH_FAILED:
        if cause == "no_key":
            head, words = (tr("Stopped: %1 needs an API key"),
                           tr("%1 has no API key yet: paste yours in Engine settings, then "
                              "press %2."))
        elif cause == "key_forbidden":
            head, words = (tr("Stopped: %1 refused the API key"),
                           tr("%1 does not allow this API key to do the work: paste another "
                              "in Engine settings, then press %2."))
        elif local:
            head, words = (tr("Stopped: the local server refused the request"),
                           tr("The local server asks for a sign-in Harness Desk does not "
                              "have: check its settings, then press %2."))
        else:
            head, words = (tr("Stopped: %1 refused the API key"),
                           tr("%1 did not accept the saved API key: paste a new one in Engine "
                              "settings, then press %2."))
    elif exit_reason == ExitReason.QUOTA_EXHAUSTED:
        if local:
            head, words = (tr("Stopped: the local server ran out of resources"),
                           tr("The local server could not take the work: free some memory "
                              "or choose a smaller model, then press %2."))
        else:
            head = _fill(tr("Stopped: the %1 account is out of credit"),
                         VENDORS.get(engine_id, who))
            words = _fill(tr("Add credit or raise the spending limit at %3, then press %2."),
                          "%1", "%2", SITES.get(engine_id, ""))
    elif exit_reason == ExitReason.MODEL_NOT_FOUND:
        if cause == "no_tools":
            head, words = (tr("Stopped: the model cannot use tools"),
                           _fill(tr("The model “%3” cannot use the tools Harness Desk needs: "
                                    "choose another in Engine settings, then press %2."),
                                 "%1", "%2", model))
        else:
            head = tr("Stopped: the model is not available")
            words = _fill(tr("%1 has no model called “%3” to use: choose another in Engine "
                             "settings, then press %2."), "%1", "%2", model)
    elif exit_reason == ExitReason.ENGINE_UNREACHABLE:
        if cause == "bad_address":
            head, words = (tr("Stopped: the engine's address is wrong"),
                           tr("The address set for %1 is not a web address: correct it in "
                              "Engine settings, then press %2.") if local else
                           _fill(tr("The address set for %1 is not a web address: correct "
                                    "%3, then press %2."), "%1", "%2",
                                 ADDRESS_VARS.get(engine_id, "")))
        elif local:
            head, words = (tr("Stopped: the local server is not running"),
                           tr("Nothing answers at the local server's address: start Ollama "
                              "or LM Studio, then press %2."))
        else:
            head, words = (tr("Stopped: %1 could not be reached"),
                           tr("Check your internet connection, then press %2."))
    elif exit_reason == ExitReason.ENGINE_FAILURES:
        head, words = (tr("Stopped: %1 kept failing"),
                       tr("%1 stayed busy or kept limiting requests for longer than the run "
                          "may wait: wait a few minutes, then press %2."))
    else:  # bad_request
        head, words = (tr("Stopped: %1 refused the request"),
                       tr("%1 refused the work as it was sent: change the task or the model, "
                          "then press %2."))
    return _fill(head, who), _fill(words, who, button)


def wants_settings(exit_reason: str, cause: str, engine_id: str) -> bool:
    """Whether Engine settings is where the person puts this stop right (a key, a model, the
    local server's address), so the window offers it as the one action."""
    if exit_reason == ExitReason.AUTH_FAILED:
        return engine_id in KEYED
    if exit_reason == ExitReason.ENGINE_UNREACHABLE:
        return engine_id == "local"
    return exit_reason == ExitReason.MODEL_NOT_FOUND


def round_problem() -> str:
    """What a round card says of a round the engine did not answer in."""
    return tr("The AI engine did not answer in this round; the run's state says why.")
