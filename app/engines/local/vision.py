"""Whether a local server's model reads pictures, as the server says it, asked only when a
picture is to be sent; and what a picture costs there."""

from __future__ import annotations

# Local vision models cut a picture into tiles of a few hundred pixels (Gemma 3 896, Qwen-VL
# 28 px patches up to its pixel budget); 1024 px keeps the detail and the request small.
LOCAL_PICTURE_SIDE = 1024
PICTURE_TOKENS = 1024  # what one picture of that size costs a vision model's context, about


def ask_vision(root: str, model: str) -> bool | None:
    """True/False when the server says whether the model reads pictures, None if it cannot
    tell: Ollama's /api/show capabilities ("vision"), LM Studio's /api/v1/models
    (capabilities.vision) or /api/v0/models ("type": "vlm"), llama.cpp's /props
    (modalities.vision). `root` is the server without /v1; never raises."""
    import httpx2  # noqa: PLC0415 - listing the engines stays light

    timeout = httpx2.Timeout(3.0)
    asks = [("POST", f"{root}/api/show", {"model": model}), ("GET", f"{root}/props", None),
            ("GET", f"{root}/api/v1/models", None), ("GET", f"{root}/api/v0/models/{model}", None)]
    for method, url, body in asks:
        try:
            got = httpx2.request(method, url, json=body, timeout=timeout)
            found = _says_vision(got.json(), model) if got.status_code == 200 else None
        except (httpx2.HTTPError, ValueError, AttributeError, TypeError):
            continue
        if found is not None:
            return found
    return None


def _says_vision(answer: object, model: str) -> bool | None:
    """What one server's answer says of the model's vision, None when it does not say."""
    if not isinstance(answer, dict):
        return None
    if isinstance(answer.get("capabilities"), list):  # Ollama /api/show
        return "vision" in answer["capabilities"]
    if isinstance(answer.get("modalities"), dict):  # llama.cpp /props
        return bool(answer["modalities"].get("vision"))
    if isinstance(answer.get("models"), list):  # LM Studio /api/v1/models
        for entry in answer["models"]:
            if isinstance(entry, dict) and model in {entry.get("key"), *(entry.get("variants") or [])}:
                caps = entry.get("capabilities") or {}
                return bool(caps.get("vision")) if isinstance(caps, dict) else None
        return None
    if answer.get("type") in ("vlm", "llm"):  # LM Studio /api/v0/models/{model}
        return bool(answer["type"] == "vlm")
    return None
