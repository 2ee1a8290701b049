"""Local servers as they are today: LM Studio's v1 REST API, and base URLs with a wrong path."""

from __future__ import annotations

import pytest

from app.core.engine.port import ENGINE_UNREACHABLE, EngineConfig, EngineError
from app.engines.local.engine import LocalEngine
from tests.engines.fake_servers import Reply, oa_models
from tests.engines.local.test_local_engine import FIRST, SYSTEM, TOOLS


def lm_studio_models(key: str, tool_use: bool) -> Reply:
    """GET /api/v1/models as LM Studio 0.4 answers it."""
    return Reply(body={"models": [{
        "type": "llm", "publisher": "qwen", "key": key, "display_name": "Qwen3.5 9B",
        "architecture": "qwen35", "quantization": {"name": "Q4_K_M", "bits_per_weight": 4},
        "size_bytes": 6548927017, "params_string": "9B", "loaded_instances": [],
        "max_context_length": 131072, "format": "gguf",
        "capabilities": {"vision": False, "trained_for_tool_use": tool_use},
        "description": None, "variants": [f"{key}@q4_k_m"], "selected_variant": f"{key}@q4_k_m"}]})


def test_lm_studio_says_through_its_v1_api_that_the_model_calls_tools(server):
    engine = LocalEngine(EngineConfig(model="qwen/qwen3.5-9b", base_url=server.url + "/v1"))
    server.push("/v1/models", oa_models(["qwen/qwen3.5-9b"]))
    server.push("/api/show", Reply(status=404, body={"error": "Unexpected endpoint or method."}))
    server.push("/api/v1/models", lm_studio_models("qwen/qwen3.5-9b", tool_use=True))
    state = engine.availability()
    assert state.ready and "it can use tools; context 131,072 tokens" in state.message
    assert not any(r.path.startswith("/api/v0") for r in server.requests)


def test_a_model_lm_studio_did_not_train_for_tools_is_probed_once(server):
    engine = LocalEngine(EngineConfig(model="qwen/qwen3.5-9b", base_url=server.url + "/v1"))
    server.push("/v1/models", oa_models(["qwen/qwen3.5-9b"]))
    server.push("/api/show", Reply(status=404, body={"error": "Unexpected endpoint or method."}))
    server.push("/api/v1/models", lm_studio_models("qwen/qwen3.5-9b", tool_use=False))
    server.push("/v1/chat/completions", Reply(body={
        "id": "x", "object": "chat.completion", "created": 1, "model": "qwen/qwen3.5-9b",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": "I cannot do that."}}]}))
    state = engine.availability()
    assert not state.ready and "cannot use tools" in state.message
    assert "marked for tool use in LM Studio" in state.message


OLLAMA_404 = Reply(status=404, body="404 page not found")
LM_STUDIO_404 = Reply(status=404, body={"error": "Unexpected endpoint or method. (POST /x)"})


@pytest.mark.parametrize("suffix, path, reply", [
    ("", "/chat/completions", OLLAMA_404),              # the /v1 left out
    ("/", "/chat/completions", OLLAMA_404),
    ("/v1/v1", "/v1/v1/chat/completions", LM_STUDIO_404),  # /v1 twice
])
def test_a_base_url_with_a_wrong_path_is_a_wrong_address(server, suffix, path, reply):
    engine = LocalEngine(EngineConfig(model="qwen3:8b", base_url=server.url + suffix, timeout_s=5))
    server.push(path, reply)
    with pytest.raises(EngineError) as caught:
        engine.turn(SYSTEM, TOOLS, FIRST)
    err = caught.value
    assert err.code == ENGINE_UNREACHABLE and not err.retryable
    assert f"{server.url}/v1" in err.message and "no model called" not in err.message


def test_availability_names_the_right_address_too(server):
    engine = LocalEngine(EngineConfig(model="qwen3:8b", base_url=server.url))
    server.push("/models", OLLAMA_404)
    state = engine.availability()
    assert not state.ready and f"{server.url}/v1" in state.message
    assert "no model called" not in state.message


def test_a_missing_model_at_the_right_address_is_still_a_missing_model(server):
    engine = LocalEngine(EngineConfig(model="qwen3:8b", base_url=server.url + "/v1", timeout_s=5))
    server.push("/v1/chat/completions", Reply(status=404, body={"error": {
        "message": 'model "qwen3:8b" not found, try pulling it first', "type": "not_found"}}))
    with pytest.raises(EngineError) as caught:
        engine.turn(SYSTEM, TOOLS, FIRST)
    assert "ollama pull qwen3:8b" in caught.value.message
