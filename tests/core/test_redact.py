"""Redaction masks key-shaped strings and leaves ordinary words and file names alone."""

from __future__ import annotations

import pytest

from app.core.redact import MASK, redact, redact_obj, remember_secret


@pytest.mark.parametrize("text", [
    "sk-ant-api03-AbCdEf1234567890XYZ_abcdef",
    "sk-proj-abcDEF1234567890abcdefGHIJ",
    "sk-1234567890abcdefghijklmnop",
    "Authorization: Bearer abcdefghijklmnop1234567890",
    "api_key=abcdefghijklmnop1234567890",
])
def test_key_shaped_strings_are_masked(text):
    assert MASK in redact(f"before {text} after")


@pytest.mark.parametrize("text", [
    "Write risk-assessment-report.md",
    "task-management-dashboard",
    "disk-usage-summary-2024.csv",
    "desk-research-notes-for-2025.md",
    "A plain sentence with no secrets at all.",
])
def test_ordinary_words_and_file_names_are_left_alone(text):
    assert redact(text) == text


def test_a_remembered_secret_of_any_shape_is_masked_everywhere():
    remember_secret("plain-looking-secret-value")
    assert redact_obj({"a": ["x plain-looking-secret-value y"]}) == {"a": [f"x {MASK} y"]}


def test_a_password_inside_a_url_is_masked_and_the_address_kept():
    text = "Nothing answers at http://rosie:Hunter2HorseBattery@127.0.0.1:9/v1 now."
    assert redact(text) == f"Nothing answers at http://rosie:{MASK}@127.0.0.1:9/v1 now."
    assert redact("http://localhost:11434/v1") == "http://localhost:11434/v1"


# -- issue 8, item 5: short keys and keys in addresses -------------------------------------

@pytest.fixture
def forget_afterwards(monkeypatch):
    """Secrets remembered by a test stay in that test."""
    import app.core.redact as redact_module

    monkeypatch.setattr(redact_module, "_KNOWN", set(redact_module._KNOWN))


@pytest.mark.parametrize("secret", ["sk-1234", "k9", "ollama-x", "abcdefg"])
def test_a_remembered_secret_is_masked_whatever_its_length(secret, forget_afterwards):
    remember_secret(secret)
    assert redact(f"Incorrect API key provided: {secret}.") == \
        f"Incorrect API key provided: {MASK}."
    assert secret not in str(redact_obj({"status": {"message": f"key {secret} refused"}}))


def test_an_empty_or_blank_secret_masks_nothing(forget_afterwards):
    remember_secret("")
    remember_secret("   ")
    assert redact("A plain sentence.") == "A plain sentence."


@pytest.mark.parametrize("url,expected", [
    ("http://proxy.local:8080/v1?key=abc123", f"http://proxy.local:8080/v1?key={MASK}"),
    ("https://gw.example/v1?api_key=s3cr&model=m1", f"https://gw.example/v1?api_key={MASK}&model=m1"),
    ("https://gw.example/v1?model=m1&access_token=t0k", f"https://gw.example/v1?model=m1&access_token={MASK}"),
    ("https://gw.example/v1?apiKey=Z&x-api-key=Y", f"https://gw.example/v1?apiKey={MASK}&x-api-key={MASK}"),
    ("https://blob.example/f?sig=AbC%2Fd&se=2025", f"https://blob.example/f?sig={MASK}&se=2025"),
    ("https://gw.example/v1?password=pw#frag", f"https://gw.example/v1?password={MASK}#frag"),
    ("https://gw.example/v1?client_secret=cs", f"https://gw.example/v1?client_secret={MASK}"),
])
def test_credential_looking_query_values_are_masked_and_the_rest_kept(url, expected):
    assert redact(f"Nothing answers at {url}. Check it.") == f"Nothing answers at {expected}. Check it."


@pytest.mark.parametrize("url", [
    "https://example.com/search?q=monkey&page=2",
    "https://shop.example/cakes?keyword=lemon",  # a search word, not a key
    "http://localhost:11434/v1",
])
def test_ordinary_query_values_are_left_alone(url):
    assert redact(url) == url


def test_query_redaction_is_linear_on_hostile_text():
    import time

    started = time.perf_counter()
    redact("?key=" + "." * 200_000 + " and &token=" + "a." * 100_000)
    assert time.perf_counter() - started < 1.0
