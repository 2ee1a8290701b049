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
