"""Redaction masks key-shaped strings and leaves ordinary words and file names alone."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.records import redact as redact_module
from app.core.records.redact import MASK, redact, redact_obj, remember_secret


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
    import app.core.records.redact as redact_module

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


# -- the quick look first (issue 23) ---------------------------------------------------------
def _every_pattern(text: str) -> str:
    """redact as it was before the quick look: every substitution on every text."""
    for secret in sorted(redact_module._KNOWN, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, redact_module.MASK)
    text = redact_module._QUERY.sub(redact_module._mask_query_value, text)
    for pattern in redact_module._PATTERNS:
        if pattern.groups:
            text = pattern.sub(lambda m: m.group(1) + redact_module.MASK, text)
        else:
            text = pattern.sub(redact_module.MASK, text)
    return text


_PIECES = ["sk-", "sk-ant-", "proj-", "Bearer ", "bEaReR\t", "api_key", "X-API-KEY", "Token",
           "secret", "authorization", ": ", "=", "\"", "?", "&", "key=", "https://", "user:",
           "@", "AKIA", "ghp_", "GHO_", "0123456789", "abcdefABCDEF", "_-", ".", " ", "\n",
           "\u212a", "\u017f", "\u0131", "é", "テ", "KEY", "tok\u212aen", "ſecret",
           "0123456789abcdefXYZ", "ghp_abcdefghij0123456789", "AKIA0123456789ABCDEF"]

# One text for each pattern, in each spelling the pattern takes.
_ONE_EACH = ["sk-ant-api03-AbCdEf1234567890", "sk-svcacct-abcdef0123456789XYZ",
             "BEARER abcdefghij0123456789", "x-api-key: abcdefghij0123456789",
             "ApiKey=abcdefghij0123456789", "TOKEN='abcdefghij0123456789'",
             "Secret: abcdefghij0123456789", "AUTHORIZATION=abcdefghij0123456789",
             "HTTPS://me:pw1@host.org",
             "AKIA0123456789ABCDEF", "ghs_abcdefghij0123456789", "a.org/?sid=abc",
             "x&Access_Token=abc."]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES) | st.text(max_size=6), max_size=14))
def test_the_quick_look_never_lets_through_what_a_pattern_masks(pieces):
    text = "".join(pieces)
    assert redact(text) == _every_pattern(text)


@pytest.mark.parametrize("text", _ONE_EACH)
def test_the_quick_look_sees_every_pattern(text):
    for shown in (text, f"before {text} after", f"é {text}"):  # ASCII and not
        assert redact(shown) == _every_pattern(shown) != shown


def test_the_quick_look_passes_plain_text_untouched_and_still_masks_keys():
    plain = "- item 7: the bakery opens at seven and the ovens need an hour to heat\n" * 4
    assert redact(plain) is plain  # nothing made again
    key = "sk-proj-" + "Ab3" * 8
    assert redact(f"{plain} {key}") == f"{plain} [redacted]"
    assert redact("see https://x.org/a?api_key=abc123") == "see https://x.org/a?api_key=[redacted]"
