"""Prices: the bundled table, dated snapshots, estimates for unknown models, and the person's overrides."""

from __future__ import annotations

import json
import re
import sys

import pytest

from app.core import resources
from app.core.engine.conversation import Usage
from app.core.settings import config_dir
from app.engines.prices import cost_usd, override_warning, price_for, price_known

MILLION = Usage(input_tokens=1_000_000, output_tokens=1_000_000, cache_read_tokens=1_000_000,
                cache_write_tokens=1_000_000)


def test_the_bundled_table_is_found_and_dated():
    path = resources.resource_path("prices.json")
    data = json.loads(path.read_text())
    assert data["as_of"] and {"anthropic", "openai", "local", "demo"} <= set(data["engines"])


def test_a_frozen_build_looks_beside_the_bundle(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert resources.resource_path("prices.json") == tmp_path / "app" / "resources" / "prices.json"


def test_claude_cost_counts_every_kind_of_token():
    usage = Usage(input_tokens=1000, output_tokens=500, cache_read_tokens=20_000, cache_write_tokens=4000)
    # Sonnet 5.5: $2 in, $10 out, $0.10 cache read, $2.50 cache write per million tokens
    assert cost_usd("anthropic", "claude-sonnet-5-5", usage) == pytest.approx(
        (1000 * 2 + 500 * 10 + 20_000 * 0.1 + 4000 * 2.5) / 1e6)
    assert price_known("anthropic", "claude-sonnet-5-5")


def test_a_dated_snapshot_is_priced_as_its_family():
    assert price_for("anthropic", "claude-sonnet-4-5-20250929").entry == "claude-sonnet-4-5"
    assert price_for("openai", "gpt-5.4-mini-2026-03-17").entry == "gpt-5.4-mini"
    assert not price_for("openai", "gpt-5.4-mini-2026-03-17").upper_estimate


def test_an_unknown_model_is_counted_at_the_engines_highest_price_field_by_field():
    data = json.loads(resources.resource_path("prices.json").read_text())
    for engine in ("anthropic", "openai"):
        quote = price_for(engine, f"{engine}-model-of-next-year")
        assert quote.upper_estimate and quote.entry == "highest"
        known = list(data["engines"][engine]["models"].values())
        for field in ("input", "output", "cache_read", "cache_write"):
            assert getattr(quote.price, field) == max(m[field] for m in known), (engine, field)
        # never cheaper than any model the table knows, whatever the mix of tokens
        for name in data["engines"][engine]["models"]:
            assert cost_usd(engine, "unknown-x", MILLION) >= cost_usd(engine, name, MILLION)
    # Claude: Mythos Preview's $25/$125 and cache write; Fable 5's $1 cache read
    claude = price_for("anthropic", "claude-fable-9").price
    assert (claude.input, claude.output, claude.cache_read, claude.cache_write) == (
        25.0, 125.0, 2.5, 31.25)


def test_the_models_that_were_priced_below_their_list_price_now_have_their_own():
    # Before: missing from the table and counted at the $5/$25 default, below their list
    # price of $8/$40, so the budget stop under-counted them.
    for model in ("claude-fable-5-2", "claude-mythos-5-2"):
        quote = price_for("anthropic", model)
        assert not quote.upper_estimate and quote.entry == model
        price = quote.price
        assert (price.input, price.output, price.cache_read, price.cache_write) == (
            8.0, 40.0, 0.2, 10.0)


def test_every_claude_model_the_sdk_offers_has_a_price():
    from typing import get_args

    from anthropic.types import Model

    names = [n for arg in get_args(Model) for n in get_args(arg)]
    assert "claude-fable-5-2" in names
    assert [n for n in names if not price_known("anthropic", n)] == []


def test_every_entry_names_a_dated_source():
    data = json.loads(resources.resource_path("prices.json").read_text())
    sources = data["sources"]
    for source in sources.values():
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", source["read"]) and source["note"]
    for engine, section in data["engines"].items():
        for name, entry in [("default", section["default"]), *section["models"].items()]:
            assert entry.get("source") in sources, (engine, name)


def test_local_and_demo_cost_nothing_and_are_not_estimates():
    for engine in ("local", "demo"):
        assert cost_usd(engine, "qwen3:8b", MILLION) == 0.0
        assert price_known(engine, "qwen3:8b")


def test_an_engine_the_table_does_not_know_costs_nothing():
    assert cost_usd("scripted-test-engine", "x", MILLION) == 0.0


def test_the_persons_file_overrides_field_by_field():
    path = config_dir() / "prices.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"engines": {
        "anthropic": {"models": {"claude-sonnet-5-5": {"output": 12.0},
                                 "claude-custom-1": {"input": 1.0, "output": 2.0}}},
        "local": {"default": {"input": 0.5}}}}))
    sonnet = price_for("anthropic", "claude-sonnet-5-5").price
    assert (sonnet.input, sonnet.output) == (2.0, 12.0)
    assert price_known("anthropic", "claude-custom-1")
    assert cost_usd("local", "any", Usage(input_tokens=2_000_000)) == pytest.approx(1.0)
    assert override_warning() is None


def test_a_damaged_override_is_reported_and_the_table_still_works():
    path = config_dir() / "prices.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"engines": {"openai": {"models": {"gpt-6.1-sol": {"input": -1}}}}}')
    assert price_for("openai", "gpt-6.1-sol").price.input == 2.0
    assert "gpt-6.1-sol" in override_warning()
    path.write_text("{not json")
    assert price_for("openai", "gpt-6.1-sol").price.input == 2.0
    assert "not valid JSON" in override_warning()


# Every current model of both vendors as of the table's date (2026-12-04), from the vendors'
# pricing pages and model guides: GPT-6.2 came out on 2026-11-17, the GPT-5.x pro and nano
# models and Claude ids with a "-0" are still sold.
@pytest.mark.parametrize("engine, model, prices", [
    ("openai", "gpt-6.2-astra", (8.0, 40.0, 0.4)),
    ("openai", "gpt-6.2-sol", (2.0, 10.0, 0.1)),
    ("openai", "gpt-6.1-terra", (1.0, 5.0, 0.05)),
    ("openai", "gpt-5.5-pro", (30.0, 180.0, 3.0)),
    ("openai", "gpt-5.4-pro", (30.0, 180.0, 3.0)),
    ("openai", "gpt-5.4-nano", (0.2, 1.25, 0.02)),
    ("openai", "gpt-5.6-sol-pro", (4.0, 20.0, 0.4)),
    ("openai", "gpt-5.3-codex", (1.75, 14.0, 0.175)),
    ("openai", "gpt-5.2-pro", (21.0, 168.0, 21.0)),
    ("openai", "gpt-5-pro-2025-10-06", (15.0, 120.0, 15.0)),
    ("openai", "o3-pro", (20.0, 80.0, 20.0)),
    ("openai", "o1-pro-2025-03-19", (150.0, 600.0, 150.0)),
    ("openai", "gpt-5.1-codex-max", (1.25, 10.0, 0.125)),
    ("anthropic", "claude-fable-5-2", (8.0, 40.0, 0.2)),
    ("anthropic", "claude-mythos-5-2", (8.0, 40.0, 0.2)),
    ("anthropic", "claude-mythos-preview", (25.0, 125.0, 2.5)),
    ("anthropic", "claude-opus-5-5", (4.0, 20.0, 0.2)),
    ("anthropic", "claude-haiku-5-5", (0.1, 0.5, 0.01)),
    ("anthropic", "claude-fable-5-1", (10.0, 50.0, 0.25)),
    ("anthropic", "claude-opus-4-0", (15.0, 75.0, 1.5)),
    ("anthropic", "claude-3-7-sonnet-20250219", (3.0, 15.0, 0.3)),
])
def test_current_models_are_priced_from_the_table(engine, model, prices):
    price = price_for(engine, model).price
    assert (price.input, price.output, price.cache_read) == prices
    assert price_known(engine, model)


def test_a_model_missing_from_the_table_is_flagged_not_silently_guessed():
    assert not price_known("openai", "gpt-9-hypothetical")
    assert not price_known("anthropic", "claude-opus-9")
    assert price_known("local", "qwen3:8b") and price_known("demo", "")
    assert price_known("scripted-test-engine", "x")  # charges nothing, nothing to flag
