"""What the services enforce on the pictures a request carries, for the loopback servers.

Each block is checked against the SDK's own request types (anthropic.types.ToolResultBlockParam,
openai's FunctionCallOutput with ResponseInputImageContentParam items, ChatCompletion's
content parts), then as the services check a picture: base64 that decodes, bytes that are the
media type they claim, at most 8000 px a side and 5 MB for Claude, a data URL of a PNG, JPEG,
WebP or still GIF for OpenAI, and the whole request within 32 MB (Claude) or 50 MB (OpenAI).
A breach gets the service's 400; `pictures` lists what was seen, for the tests.
"""

from __future__ import annotations

import base64
import binascii
import functools
import io
import re
from typing import Any

CLAUDE_MAX_SIDE = 8000
CLAUDE_MAX_PICTURE_BYTES = 5 * 1024 * 1024
CLAUDE_MAX_REQUEST_BYTES = 32 * 1024 * 1024
OPENAI_MAX_REQUEST_BYTES = 50 * 1024 * 1024
_MAGIC = {"image/png": b"\x89PNG\r\n\x1a\n", "image/jpeg": b"\xff\xd8\xff", "image/gif": b"GIF8",
          "image/webp": b"RIFF"}
_DATA_URL = re.compile(r"^data:(image/(?:png|jpeg|gif|webp));base64,(.+)$", re.DOTALL)


class Refused(Exception):
    def __init__(self, message: str, code: str = "invalid_image"):
        super().__init__(message)
        self.code = code


@functools.lru_cache(maxsize=None)
def _adapter(kind: Any):
    from pydantic import TypeAdapter

    return TypeAdapter(kind)


def _picture(media_type: str, data: str, where: str) -> tuple[str, int, int, int]:
    """(media type, width, height, bytes) of a base64 picture, or Refused as the service says."""
    from PIL import Image

    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise Refused(f"{where}: invalid base64 data") from None
    if not raw.startswith(_MAGIC.get(media_type, b"\x00\x00")):
        raise Refused(f"{where}: Image does not match the provided media type {media_type}")
    try:
        with Image.open(io.BytesIO(raw)) as img:
            width, height = img.size
            animated = getattr(img, "is_animated", False)
    except Exception:
        raise Refused(f"{where}: Could not process image") from None
    if animated:
        raise Refused(f"{where}: animated images are not supported")
    return media_type, width, height, len(raw)


def check_claude(body: dict, raw_size: int) -> list[tuple[str, int, int, int]]:
    """The pictures in a Messages API request; Refused when the service would refuse it."""
    from anthropic.types import ToolResultBlockParam

    if raw_size > CLAUDE_MAX_REQUEST_BYTES:
        raise Refused("Request exceeds the maximum allowed number of bytes.", "request_too_large")
    seen = []
    adapter = _adapter(ToolResultBlockParam)
    for i, message in enumerate(body.get("messages") or []):
        content = message.get("content")
        for j, block in enumerate(content if isinstance(content, list) else []):
            if block.get("type") != "tool_result":
                continue
            where = f"messages.{i}.content.{j}"
            try:
                adapter.validate_python(block, strict=False)
            except Exception as exc:
                raise Refused(f"{where}: not a tool_result block: {str(exc)[:200]}",
                              "invalid_request_error") from None
            inner = block.get("content")
            for k, part in enumerate(inner if isinstance(inner, list) else []):
                if part.get("type") != "image":
                    continue
                source = part["source"]
                if source.get("type") != "base64":
                    raise Refused(f"{where}.content.{k}: only base64 pictures are expected")
                found = _picture(source["media_type"], source["data"], f"{where}.content.{k}")
                if max(found[1], found[2]) > CLAUDE_MAX_SIDE:
                    raise Refused(f"{where}.content.{k}: image dimensions exceed max allowed "
                                  f"size: {CLAUDE_MAX_SIDE} pixels")
                if len(source["data"]) > CLAUDE_MAX_PICTURE_BYTES:
                    raise Refused(f"{where}.content.{k}: image exceeds 5 MB maximum")
                seen.append(found)
    return seen


def check_responses(body: dict, raw_size: int) -> list[tuple[str, int, int, int]]:
    """The pictures in a Responses API request's function_call_output items."""
    from openai.types.responses.response_input_item_param import FunctionCallOutput

    if raw_size > OPENAI_MAX_REQUEST_BYTES:
        raise Refused("Request too large: the total payload may be at most 50 MB.",
                      "request_too_large")
    seen = []
    adapter = _adapter(FunctionCallOutput)
    for i, item in enumerate(body.get("input") or []):
        if not isinstance(item, dict) or item.get("type") != "function_call_output":
            continue
        try:
            adapter.validate_python(item, strict=False)
        except Exception as exc:
            raise Refused(f"input[{i}]: not a function_call_output: {str(exc)[:200]}",
                          "invalid_request_error") from None
        output = item["output"]
        for k, part in enumerate(output if isinstance(output, list) else []):
            if part.get("type") == "input_text" and not isinstance(part.get("text"), str):
                raise Refused(f"input[{i}].output[{k}].text must be a string",
                              "invalid_request_error")
            if part.get("type") != "input_image":
                continue
            match = _DATA_URL.match(part.get("image_url") or "")
            if match is None:
                raise Refused(f"input[{i}].output[{k}]: Invalid image_url: expected a base64 "
                              "data URL of a PNG, JPEG, WEBP or non-animated GIF",
                              "invalid_image_url")
            if part.get("detail") not in (None, "low", "high", "auto", "original"):
                raise Refused(f"input[{i}].output[{k}].detail is invalid", "invalid_request_error")
            seen.append(_picture(match.group(1), match.group(2), f"input[{i}].output[{k}]"))
    return seen


def check_chat(body: dict, raw_size: int) -> list[tuple[str, int, int, int]]:
    """The pictures of a Chat Completions request, as Ollama, LM Studio and llama.cpp take
    them: image_url parts (data URLs) in user messages; a tool message's content is text."""
    from openai.types.chat import ChatCompletionMessageParam

    seen = []
    adapter = _adapter(ChatCompletionMessageParam)
    for i, message in enumerate(body.get("messages") or []):
        try:
            adapter.validate_python(message, strict=False)
        except Exception as exc:
            raise Refused(f"messages[{i}]: invalid message: {str(exc)[:200]}",
                          "invalid_request_error") from None
        content = message.get("content")
        if message.get("role") == "tool" and not isinstance(content, str):
            raise Refused(f"messages[{i}]: a tool message's content must be text",
                          "invalid_request_error")
        for k, part in enumerate(content if isinstance(content, list) else []):
            if part.get("type") != "image_url":
                continue
            if message.get("role") != "user":
                raise Refused(f"messages[{i}]: pictures go in user messages")
            match = _DATA_URL.match(part["image_url"].get("url") or "")
            if match is None:
                raise Refused(f"messages[{i}].content[{k}]: expected a base64 data URL")
            seen.append(_picture(match.group(1), match.group(2), f"messages[{i}].content[{k}]"))
    return seen
