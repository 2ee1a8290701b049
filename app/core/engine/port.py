"""The engine port: the one interface every engine implements, and its error type.

The core talks to engines only through this module; `app/engines` implements it, and the
core never imports `app.engines` (tests/test_architecture.py checks it).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar

from app.core.run.outcomes import ExitReason

if TYPE_CHECKING:  # annotations only: a readiness check never loads pydantic, to stay fast
    from app.core.engine.conversation import Message, ModelTurn, ToolSpec, Usage
    from app.core.web.types import WebAccess, WebActivity

# Codes an EngineError can carry. The non-retryable ones are also run exit_reasons.
AUTH_FAILED = ExitReason.AUTH_FAILED.value
QUOTA_EXHAUSTED = ExitReason.QUOTA_EXHAUSTED.value
MODEL_NOT_FOUND = ExitReason.MODEL_NOT_FOUND.value
ENGINE_UNREACHABLE = ExitReason.ENGINE_UNREACHABLE.value
PROMPT_TOO_LONG = "prompt_too_long"
TRANSIENT = "transient"          # 429 rate limit, 5xx, 529, timeouts, dropped connections
STREAM_BROKEN = "stream_broken"  # a stream ended early; nothing from it was run; retryable
BAD_REQUEST = ExitReason.BAD_REQUEST.value  # our request was refused (400); not retryable

# Finer causes (EngineError.cause, Availability.reason) for a window that words them itself.
NO_KEY = "no_key"                # no key in the keychain, the session or the variable
NO_KEYCHAIN = "no_keychain"      # ... and no keychain the app can keep one in
KEY_REJECTED = "key_rejected"    # 401
KEY_FORBIDDEN = "key_forbidden"  # 403
BAD_ADDRESS = "bad_address"      # the base URL is not a usable web address
NO_ANSWER = "no_answer"          # nothing answered within the check's seconds
NO_MODELS = "no_models"          # a local server with no model downloaded
NO_TOOLS = "no_tools"            # the model cannot call tools
CONTEXT_TOO_SMALL = "context_too_small"


class EngineError(Exception):
    """An engine failure, already diagnosed: a plain sentence, a code, and whether to retry.

    `usage` is what the failed attempt was billed (a stream that broke off after its 200
    still cost its input), or None; the retry layer adds it to the run's totals. `remedy`,
    when the engine knows it, is the one sentence telling the person what to change (a
    local server's context size, say); the run's last message ends with it.
    """

    def __init__(self, message: str, *, code: str, retryable: bool = False,
                 retry_after: float | None = None, action: str = "", details: str = "",
                 usage: Usage | None = None, remedy: str = "", cause: str = ""):
        super().__init__(message)
        self.message = message
        self.code = code
        self.retryable = retryable
        self.retry_after = retry_after
        self.action = action      # what the person should do, in words
        self.details = details    # technical detail for "Copy details" (already redacted)
        self.usage = usage
        # What the failed attempt's service looked up on the web and bills (a reply that broke
        # off after a search), as counts, or None: the retry layer counts it in the cost and
        # the loop in the task's lookups.
        self.web: WebActivity | None = None
        self.remedy = remedy      # one sentence: what the person changes so it works (or "")
        self.cause = cause or code  # the finer cause (NO_KEY, KEY_REJECTED, ...), else the code


@dataclass
class Availability:
    """Whether an engine can run now, and if not, why: in plain English words (`message`,
    for the command line) and as a typed `reason` (one of the codes and causes above, ""
    when ready or unknown) with `facts` (`url`, `model`, `seconds`, `n_ctx`, `need`), from
    which the window writes its own translated sentence."""

    ready: bool
    message: str
    models: list[str] = field(default_factory=list)
    reason: str = ""
    facts: dict[str, str] = field(default_factory=dict)


@dataclass
class EngineConfig:
    """What a run tells an engine: the model, an optional base URL, the workspace's cache key.

    `options` holds engine-specific settings the person chose (the Demo engine's `delay_s`,
    a fixed `max_tokens`); per-call values such as the budget's output cap are arguments of
    `Engine.turn`, never stored here.
    """

    model: str = ""
    base_url: str = ""
    cache_key: str = ""            # stable per workspace (OpenAI prompt_cache_key)
    timeout_s: float = 120.0
    options: dict[str, Any] = field(default_factory=dict)


class Engine:
    """A provider of model turns. Subclasses set the class attributes and implement turn().

    turn() makes exactly one attempt: it never retries (the loop owns the only retry layer)
    and raises EngineError for every failure. `cancel` is set when the person presses Stop;
    an engine that streams checks it between chunks and calls `on_text` with each piece of
    text as it arrives (from the run's thread; the callback must not block).
    `max_output_tokens`, when given, caps this reply's output (the run's budget sets it);
    the engine keeps it under the model's own limit.

    The returned ModelTurn carries `record`: the engine's own, exact copy of the reply
    (blocks or items, in their original order). The loop stores it on the assistant
    Message and the engine gets it back verbatim on the next step, so it can replay the turn
    exactly as the service sent it. The core never looks inside it.
    """

    id: ClassVar[str] = ""
    label: ClassVar[str] = ""
    is_ai: ClassVar[bool] = True
    needs_key: ClassVar[bool] = False
    default_model: ClassVar[str] = ""
    # True where a model may be unable to use tools at all (a small local one): a round in
    # which it never used a tool then ends the run with that cause, not a task decision.
    may_lack_tools: ClassVar[bool] = False
    # True for an engine whose service can look things up on the web: it offers
    # its web tools on the turns where `web` is set, and fills ModelTurn.web.
    looks_up: ClassVar[bool] = False
    # True when its web tools take a list of sites never to use (Claude's); OpenAI's search
    # keeps only to an allow list.
    web_blocks_sites: ClassVar[bool] = False
    # Set by the loop before each round: the web tools this round's task may use, or None
    # (the task may not look things up; no web tool is offered, not a byte of one sent).
    web: WebAccess | None = None

    def only_samples(self, task_text: str, done_when: list[str]) -> bool:
        """True when this engine can only show how a run on this task looks, never do it
        (the Demo engine on a person's own task): its complete_task then ends the round as a
        sample and the task stays unticked. Engines that do the work keep False."""
        return False

    def __init__(self, config: EngineConfig | None = None):
        self.config = config or EngineConfig()
        if not self.config.model:
            self.config.model = self.default_model

    @property
    def model(self) -> str:
        return self.config.model

    def availability(self) -> Availability:
        raise NotImplementedError

    def start_loading(self) -> None:
        """Begin loading, in the background, what the first turn needs that is slow to load
        (an AI SDK), so a run that is about to start finds it ready. Returns at once; the
        base has nothing to load."""

    def turn(self, system: str, tools: list[ToolSpec], messages: list[Message], *,
             cancel: threading.Event | None = None,
             on_text: Callable[[str], None] | None = None,
             max_output_tokens: int | None = None) -> ModelTurn:
        raise NotImplementedError

    def cost_usd(self, usage: Usage) -> float:
        """What a turn with this usage cost. Engines that charge override this (from the
        price table the person can edit); the base costs nothing."""
        return 0.0

    def web_cost_usd(self, web: WebActivity | None) -> float:
        """What a turn's searches and fetches cost beyond its tokens (the price table's web
        prices); the base, and every engine that cannot look things up, costs nothing."""
        return 0.0

    def cost_is_upper_estimate(self) -> bool:
        """True when the model's price is not known, so cost_usd counts it at the highest
        price known for the engine: the real cost is at most what is counted."""
        return False
