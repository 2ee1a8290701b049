"""Pictures reach each model in its service's wire format, scaled to the service's limit, or
as one sentence when the engine cannot see them; the loopback servers check every part
against the SDKs' request types and refuse what the real services refuse."""

from __future__ import annotations

import base64
import io
import zlib

import pytest

from app.core.engine.conversation import Message, ToolCall, ToolResult, ToolSpec
from app.core.engine.port import BAD_REQUEST, EngineConfig, EngineError
from app.core.tools.pictures import PICTURES_PER_REQUEST, Picture, read_picture
from app.engines.claude.engine import AnthropicEngine
from app.engines.local.engine import LocalEngine
from app.engines.openai.engine import OpenAIEngine
from tests.engines.conftest import CLAUDE_KEY, OPENAI_KEY
from tests.engines.fake_servers import (Reply, chat_stream, claude_stream, oa_message, oa_stream,
                                        ollama_show, text_block)

TOOLS = [ToolSpec(name="read_file", description="Read a file.",
                  parameters={"type": "object", "properties": {"path": {"type": "string"}},
                              "required": ["path"]})]


def photo(tmp_path, name="shop.jpg", size=(3000, 2000), fmt="JPEG"):
    from PIL import Image, ImageDraw

    img = Image.new("RGB", size, (200, 120, 40))
    ImageDraw.Draw(img).ellipse((size[0] // 4, size[1] // 4, size[0] // 2, size[1] // 2),
                                fill=(20, 90, 200))
    path = tmp_path / name
    img.save(path, fmt)
    return path


def history(picture: Picture, calls: int = 1) -> list[Message]:
    out = [Message(role="user", text="Task: describe the shop front")]
    for n in range(calls):
        out += [Message(role="assistant", tool_calls=[
                    ToolCall(id=f"call_{n}", name="read_file", arguments={"path": picture.path})]),
                Message(role="user", tool_results=[ToolResult(
                    call_id=f"call_{n}", name="read_file", content=picture.seen_sentence(),
                    pictures=[picture])])]
    return out


def sides(item: dict | str) -> tuple[int, int]:
    from PIL import Image

    raw = item if isinstance(item, str) else item["data"]
    raw = raw.split(",", 1)[1] if raw.startswith("data:") else raw
    with Image.open(io.BytesIO(base64.b64decode(raw))) as img:
        return img.size


@pytest.fixture
def shop(tmp_path) -> Picture:
    return read_picture(photo(tmp_path), "photos/shop.jpg")


def test_read_picture_scales_to_2048_and_keeps_what_the_file_is(tmp_path, shop):
    assert (shop.kind, shop.width, shop.height) == ("JPEG", 3000, 2000)
    assert (shop.shown_width, shop.shown_height) == (2048, 1365) == sides(shop.data)
    assert shop.media_type == "image/jpeg"
    assert len(shop.data) < 4_000_000
    assert shop.seen_sentence() == ("'photos/shop.jpg' is a picture (JPEG, 3000×2000 pixels); "
                                    "it is shown to you here as a picture.")


def test_claude_gets_an_image_block_inside_the_tool_result_at_1568(claude, server, shop):
    server.push("/v1/messages", claude_stream([text_block("A blue circle.")]))
    claude.turn("system", TOOLS, history(shop))
    body = server.requests[-1].json
    result = body["messages"][-1]["content"][0]
    assert result["type"] == "tool_result" and result["tool_use_id"] == "call_0"
    text, image = result["content"]
    assert text == {"type": "text", "text": shop.seen_sentence()}
    assert image["type"] == "image" and image["source"]["type"] == "base64"
    assert image["source"]["media_type"] == "image/jpeg"
    assert sides(image["source"]) == (1568, 1045)
    assert server.pictures == [("image/jpeg", 1568, 1045, len(base64.b64decode(
        image["source"]["data"])))]


def test_openai_gets_an_input_image_in_the_function_call_output(gpt, server, shop):
    server.push("/v1/responses", oa_stream([oa_message("A blue circle.")]))
    gpt.turn("system", TOOLS, history(shop))
    body = server.requests[-1].json
    (output,) = [i for i in body["input"] if i.get("type") == "function_call_output"]
    text, image = output["output"]
    assert text == {"type": "input_text", "text": shop.seen_sentence()}
    assert image["type"] == "input_image" and image["detail"] == "high"
    assert image["image_url"].startswith("data:image/jpeg;base64,")
    assert sides(image["image_url"]) == (2048, 1365)
    assert len(server.pictures) == 1


def test_a_local_vision_model_gets_the_picture_in_a_user_message(local, server, shop):
    # Asked twice: once for what the model can do before the first step (tools, context),
    # once for vision when a picture is first to be sent.
    server.push("/api/show", ollama_show(["completion", "tools", "vision"]))
    server.push("/api/show", ollama_show(["completion", "tools", "vision"]))
    server.push("/v1/chat/completions", chat_stream("A blue circle."))
    local.turn("system", TOOLS, history(shop))
    body = server.requests[-1].json
    tool, follow = body["messages"][-2:]
    assert tool == {"role": "tool", "tool_call_id": "call_0", "content": shop.seen_sentence()}
    assert follow["role"] == "user"
    assert follow["content"][0] == {"type": "text", "text": "The picture 'photos/shop.jpg':"}
    assert follow["content"][1]["type"] == "image_url"
    assert sides(follow["content"][1]["image_url"]["url"]) == (1024, 682)
    assert len(server.pictures) == 1


def test_a_local_model_without_vision_gets_one_sentence_and_no_picture(local, server, shop):
    server.push("/api/show", ollama_show(["completion", "tools"]))
    server.push("/v1/chat/completions", chat_stream("ok"))
    local.turn("system", TOOLS, history(shop))
    body = server.requests[-1].json
    assert body["messages"][-1] == {
        "role": "tool", "tool_call_id": "call_0",
        "content": "'photos/shop.jpg' is a picture (JPEG, 3000×2000 pixels), and this engine "
                   "cannot see pictures, so what it shows cannot be read. Work from the text "
                   "files, or ask the person to describe it."}
    assert server.pictures == [] and "base64" not in server.requests[-1].raw.decode()


def test_text_only_models_get_the_sentence(server, monkeypatch, shop):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    mini = OpenAIEngine(EngineConfig(model="o3-mini", base_url=server.url + "/v1", timeout_s=5))
    server.push("/v1/responses", oa_stream([oa_message("ok")]))
    mini.turn("system", TOOLS, history(shop))
    (output,) = [i for i in server.requests[-1].json["input"]
                 if i.get("type") == "function_call_output"]
    assert output["output"].endswith("cannot see pictures, so what it shows cannot be read. "
                                      "Work from the text files, or ask the person to describe it.")
    assert server.pictures == []


def test_only_the_latest_pictures_are_sent_so_requests_stay_bounded(claude, server, tmp_path):
    small = read_picture(photo(tmp_path, "s.png", (300, 200), "PNG"), "s.png")
    server.push("/v1/messages", claude_stream([text_block("ok")]))
    claude.turn("system", TOOLS, history(small, calls=PICTURES_PER_REQUEST + 3))
    body = server.requests[-1].json
    results = [m["content"][0] for m in body["messages"] if m["role"] == "user"][1:]
    assert len(server.pictures) == PICTURES_PER_REQUEST
    assert all(isinstance(r["content"], str) and "no longer sent" in r["content"]
               for r in results[:3])
    assert all(isinstance(r["content"], list) for r in results[3:])


def test_the_fake_service_refuses_a_picture_that_is_not_what_it_claims(claude, server, shop):
    lying = shop.model_copy(update={"media_type": "image/png", "shown_width": 1000,
                                    "shown_height": 600})
    server.push("/v1/messages", claude_stream([text_block("never")]))
    with pytest.raises(EngineError) as caught:
        claude.turn("system", TOOLS, history(lying))
    assert caught.value.code == BAD_REQUEST
    assert "Image does not match the provided media type" in caught.value.message
    assert server.refusals and server.pictures == []


def test_pictures_never_reach_the_events_file(tmp_path):
    from app.core.run.loop import Harness
    from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

    ws = board_workspace(tmp_path, "- [ ] Describe shop.png\n  - Done when: notes.md says it\n")
    photo(ws.root, "shop.png", (1200, 900), "PNG")
    engine = ScriptedEngine([call("read_file", path="shop.png"),
                             call("give_up", reason="just looking", findings="a circle")])
    Harness(ws, engine, fast_limits()).run()
    sent = engine.requests[1]["messages"][-1].tool_results[0]
    assert sent.pictures[0].shown_width == 1200 and len(sent.pictures[0].data) > 5_000
    events = b"".join(p.read_bytes() for p in ws.root.rglob("events.jsonl"))
    assert events and sent.pictures[0].data[:200].encode() not in events
    assert max(len(line) for line in events.splitlines()) < 4_000


def test_damaged_and_bomb_pictures_get_one_sentence(tmp_path):
    from app.core.tools.toolbox import ToolBox
    from app.core.undo.undo import RoundChanges

    (tmp_path / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    bomb = photo(tmp_path, "bomb.png", (100, 100), "PNG")
    raw = bytearray(bomb.read_bytes())  # the header says 30000 x 30000: never decoded
    raw[16:24] = (30000).to_bytes(4, "big") * 2
    raw[29:33] = zlib.crc32(bytes(raw[12:29])).to_bytes(4, "big")
    bomb.write_bytes(bytes(raw))
    (tmp_path / "TASKS.md").write_text("- [ ] x\n")
    box = ToolBox(tmp_path, tmp_path / "TASKS.md", "x", RoundChanges.__new__(RoundChanges))
    broken = box.call("read_file", {"path": "broken.png"})
    assert broken.is_error and broken.content == ("'broken.png' could not be opened as a "
                                                  "picture; it may be damaged or not really a "
                                                  "picture.")
    huge = box.call("read_file", {"path": "bomb.png"})
    assert huge.is_error and huge.content == ("'bomb.png' is too large a picture to open safely "
                                        "(more than 60 million pixels).")


@pytest.fixture
def claude(server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", CLAUDE_KEY)
    return AnthropicEngine(EngineConfig(model="claude-sonnet-5-5", base_url=server.url,
                                        timeout_s=5))


@pytest.fixture
def gpt(server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    return OpenAIEngine(EngineConfig(model="gpt-6.1-sol", base_url=server.url + "/v1",
                                     timeout_s=5))


@pytest.fixture
def local(server):
    return LocalEngine(EngineConfig(model="qwen3:8b", base_url=server.url + "/v1", timeout_s=5))


@pytest.mark.parametrize("path, body, sees", [
    ("/props", {"modalities": {"vision": True, "audio": False}}, True),       # llama.cpp
    ("/props", {"modalities": {"vision": False}}, False),
    ("/api/v1/models", {"models": [{"key": "qwen3:8b", "capabilities": {"vision": True}}]},
     True),                                                                   # LM Studio 0.4
    ("/api/v0/models/qwen3:8b", {"id": "qwen3:8b", "type": "llm"}, False),     # LM Studio 0.3
])
def test_llama_cpp_and_lm_studio_say_whether_the_model_sees(local, server, path, body, sees):
    server.default(path, Reply(body=body))
    assert local.vision_support("qwen3:8b") is sees
    assert local.sees_pictures() is sees and local.sees_pictures() is sees  # asked once
    assert sum(r.path == path for r in server.requests) == 2


def test_a_server_that_says_nothing_gets_no_pictures(local, server):
    assert local.vision_support("qwen3:8b") is None and local.sees_pictures() is False


def test_trimming_old_tool_output_drops_its_pictures_and_pictures_count_in_the_size(shop):
    from app.core.engine.calls import TRIMMED, _prompt_chars, _trim_oldest_tool_output

    messages = history(shop, calls=2)
    with_pictures = _prompt_chars("", [], messages)
    assert with_pictures > 2 * 2048 * 1365 * 4 // 750  # about a picture's tokens, each
    assert _trim_oldest_tool_output(messages)
    first, second = messages[2].tool_results[0], messages[4].tool_results[0]
    assert first.content == TRIMMED and first.pictures == [] and second.pictures
    assert _prompt_chars("", [], messages) < with_pictures


def test_a_tiff_is_shown_and_a_heic_photo_is_named_in_a_sentence(tmp_path):
    from app.core.tools.toolbox import ToolBox
    from app.core.undo.undo import RoundChanges

    photo(tmp_path, "scan.tiff", (3000, 1500), "TIFF")
    photo(tmp_path, "old.TIF", (40, 30), "TIFF")
    (tmp_path / "IMG_0001.HEIC").write_bytes(b"\0\0\0\x18ftypheic" + bytes(64))
    (tmp_path / "TASKS.md").write_text("- [ ] x\n")
    box = ToolBox(tmp_path, tmp_path / "TASKS.md", "x", RoundChanges.__new__(RoundChanges))
    shown = box.call("read_file", {"path": "scan.tiff"})
    assert not shown.is_error and shown.content == ("'scan.tiff' is a picture (TIFF, 3000×1500 "
                                                    "pixels); it is shown to you here as a "
                                                    "picture.")
    assert sides(shown.pictures[0].data) == (2048, 1024)
    assert box.call("read_file", {"path": "old.TIF"}).pictures[0].kind == "TIFF"
    heic = box.call("read_file", {"path": "IMG_0001.HEIC"})
    assert heic.is_error and heic.content == ("'IMG_0001.HEIC' is a photo in the HEIC format, "
                                              "which cannot be shown to the AI; ask the person "
                                              "to save it as a JPEG or PNG picture.")
