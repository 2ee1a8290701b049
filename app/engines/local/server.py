"""What a local server says about a model before any request: can it call tools, how big is
its context, and which server is it (llama.cpp, Ollama, LM Studio).

Each server has its own way of saying so, all read here without loading the model:

- llama.cpp's `llama-server`: GET /props has `chat_template_caps.supports_tools` (false when
  the chat template cannot render tools: the server then drops the `tools` parameter
  silently) and `default_generation_settings.n_ctx`, the context of one slot.
- Ollama: POST /api/show {"model"} has `capabilities` (a list; "tools" when it can) and,
  in `parameters` (text lines "num_ctx 8192"), the context the model was set up with;
  GET /api/ps has `context_length` for a loaded model. Through the OpenAI-compatible
  /v1 endpoint Ollama ignores `options`, so num_ctx cannot be set per request there: the
  person sets it (OLLAMA_CONTEXT_LENGTH, or a Modelfile's PARAMETER num_ctx). Without
  either, Ollama uses its default and cuts a longer prompt silently.
- LM Studio: GET /api/v1/models (0.4 and later) lists `models[]` with `key`,
  `capabilities.trained_for_tool_use`, `max_context_length` and `loaded_instances[].config
  .context_length`; GET /api/v0/models/{model} (older) has `capabilities` (a list with
  "tool_use"), `max_context_length` and, loaded, `loaded_context_length`. LM Studio can
  prompt any model for tools, so only "yes" is certain there.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import httpx2

LLAMA_CPP, OLLAMA, LM_STUDIO = "llama.cpp", "Ollama", "LM Studio"
OLLAMA_DEFAULT_CTX = 4096  # Ollama's num_ctx when nothing sets it (2048 before 0.6.4)


@dataclass
class ServerFacts:
    """What the server said. None: it did not say."""

    server: str = ""             # LLAMA_CPP, OLLAMA, LM_STUDIO, or "" (another server)
    tools: bool | None = None    # can the model call tools
    n_ctx: int | None = None     # the context the model runs with, in tokens
    ctx_known: bool = True       # False when n_ctx is Ollama's default, assumed

    def context_remedy(self, need: int) -> str:
        """One sentence: what the person changes so `need` tokens fit."""
        size = _round_up(need)
        if self.server == LLAMA_CPP:
            return f"Start llama-server with a larger context, for example -c {size}."
        if self.server == OLLAMA:
            return (f"Give Ollama a larger context: start it with OLLAMA_CONTEXT_LENGTH={size} "
                    "(or set PARAMETER num_ctx in the model's Modelfile) and try again.")
        if self.server == LM_STUDIO:
            return (f"In LM Studio, load the model again with a context length of {size} "
                    "or more.")
        return f"Give the model a context of {size} tokens or more in the local server's settings."

    def tools_remedy(self) -> str:
        """One sentence: how to get a model that can call tools on this server."""
        if self.server == LLAMA_CPP:
            return ("Start llama-server with --jinja and a model whose chat template supports "
                    "tools (for example Qwen2.5-7B-Instruct or Llama-3.1-8B-Instruct).")
        if self.server == LM_STUDIO:
            return "Pick one marked for tool use in LM Studio (for example qwen3 or llama3.1)."
        return "Pick one that can in Engine settings (for example qwen3 or llama3.1)."


def overflow(said: object, facts: ServerFacts, reply_tokens: int, unknown_need: int
             ) -> tuple[str, str]:
    """(what happened, what to change) from a server's context-overflow answer: llama.cpp's
    exceed_context_size_error has `n_prompt_tokens` and `n_ctx`; the others' texts carry the
    two numbers as "N tokens" (LM Studio: "the first 3012 tokens ... only 2048 tokens")."""
    fields = said.get("error", said) if isinstance(said, dict) else {}
    prompt = fields.get("n_prompt_tokens") if isinstance(fields, dict) else None
    n_ctx = fields.get("n_ctx") if isinstance(fields, dict) else None
    if not (_int(prompt) and _int(n_ctx)):
        text = said if isinstance(said, str) else json.dumps(said, default=str)
        numbers = [int(n) for n in re.findall(r"(\d+) tokens", text)]
        prompt, n_ctx = (numbers[0], numbers[1]) if len(numbers) >= 2 else (None, None)
    prompt_n, ctx_n = _int(prompt), _int(n_ctx)
    if prompt_n and ctx_n:
        return (f"The conversation ({prompt_n:,} tokens) does not fit the model's context of "
                f"{ctx_n:,} tokens on the local server.",
                facts.context_remedy(prompt_n + reply_tokens))
    return ("The conversation does not fit the model's context on the local server.",
            facts.context_remedy(unknown_need))


def _round_up(tokens: int) -> int:
    """The next power of two at or above `tokens`, at least 4096: a size servers accept."""
    size = 4096
    while size < tokens:
        size *= 2
    return size


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def ask_server(root: str, model: str, timeout_s: float = 3.0) -> ServerFacts:
    """Ask the server at `root` (without /v1) about `model`; never raises."""
    import httpx2  # noqa: PLC0415 - listing the engines stays light

    timeout = httpx2.Timeout(timeout_s)
    with httpx2.Client(timeout=timeout) as http:
        for ask in (_llama_cpp, _ollama, _lm_studio):
            try:
                facts = ask(http, root, model)
            except (httpx2.HTTPError, ValueError, AttributeError, TypeError, KeyError):
                facts = None
            if facts is not None:
                return facts
    return ServerFacts()


def _json(response: httpx2.Response) -> object:
    return response.json() if response.status_code == 200 else None


def _llama_cpp(http: httpx2.Client, root: str, model: str) -> ServerFacts | None:
    props = _json(http.get(f"{root}/props"))
    if not isinstance(props, dict) or "default_generation_settings" not in props:
        return None
    caps = props.get("chat_template_caps")
    tools = caps.get("supports_tools") if isinstance(caps, dict) else None
    settings = props.get("default_generation_settings") or {}
    return ServerFacts(LLAMA_CPP, tools if isinstance(tools, bool) else None,
                       _int(settings.get("n_ctx")) if isinstance(settings, dict) else None)


def _ollama(http: httpx2.Client, root: str, model: str) -> ServerFacts | None:
    shown = _json(http.post(f"{root}/api/show", json={"model": model}))
    if not isinstance(shown, dict) or not isinstance(shown.get("capabilities"), list):
        return None
    facts = ServerFacts(OLLAMA, "tools" in shown["capabilities"])
    try:  # the context of the loaded model, which is what a request gets
        running = _json(http.get(f"{root}/api/ps"))
        for entry in running.get("models") or [] if isinstance(running, dict) else []:
            if entry.get("name") in (model, f"{model}:latest") or entry.get("model") == model:
                facts.n_ctx = _int(entry.get("context_length"))
    except Exception:  # an older Ollama without /api/ps: the model file says
        pass
    if facts.n_ctx is None:
        found = re.search(r"^\s*num_ctx\s+(\d+)", str(shown.get("parameters") or ""), re.M)
        facts.n_ctx = int(found.group(1)) if found else OLLAMA_DEFAULT_CTX
        facts.ctx_known = bool(found)
    return facts


def _lm_studio(http: httpx2.Client, root: str, model: str) -> ServerFacts | None:
    listed = _json(http.get(f"{root}/api/v1/models"))
    for entry in (listed.get("models") or []) if isinstance(listed, dict) else []:
        names = {entry.get("key"), entry.get("selected_variant"), *(entry.get("variants") or [])}
        if model in names:
            caps = entry.get("capabilities") or {}
            loaded = [(i.get("config") or {}).get("context_length")
                      for i in entry.get("loaded_instances") or []]
            n_ctx = next((_int(n) for n in loaded if _int(n)), None)
            return ServerFacts(LM_STUDIO, True if caps.get("trained_for_tool_use") is True else None,
                               n_ctx or _int(entry.get("max_context_length")))
    old = _json(http.get(f"{root}/api/v0/models/{model}"))
    if isinstance(old, dict) and ("max_context_length" in old or "capabilities" in old):
        caps = old.get("capabilities")
        return ServerFacts(LM_STUDIO, True if isinstance(caps, list) and "tool_use" in caps else None,
                           _int(old.get("loaded_context_length")) or _int(old.get("max_context_length")))
    return None
