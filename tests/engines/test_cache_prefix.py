"""The requests Claude and OpenAI receive stay cache-friendly: each step repeats the previous
step's request byte for byte, and the system prompt and tools never change (bench/cache_prefix)."""

from __future__ import annotations

import pytest

from bench.cache_prefix import VENDORS, analyse, run_vendor


@pytest.mark.parametrize("vendor", list(VENDORS))
def test_each_step_repeats_the_previous_request_byte_for_byte(vendor, tmp_path, monkeypatch):
    for spec in VENDORS.values():
        monkeypatch.setenv(*spec["key"])
    got = analyse(vendor, run_vendor(vendor, 2, tmp_path, second=1))
    assert len(got["kept"]) == 3 * 7  # runs of two rounds and one round, steps 2 to 8 of each
    assert min(got["kept"]) == 1.0
    assert got["heads"] == 1
    assert max(got["firsts"]) <= 1.2 * min(got["firsts"])
