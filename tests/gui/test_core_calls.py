"""The window's own list of engines agrees with the services' (ids, order, keys needed)."""

from __future__ import annotations

from app.engines.setup import engine_choices as service_choices
from app.gui.core_calls import engine_choices


def test_the_dropdown_offers_exactly_the_engines_the_services_know():
    mine = [(c.id, c.is_ai, c.needs_key) for c in engine_choices()]
    theirs = [(c.id, c.is_ai, c.needs_key) for c in service_choices()]
    assert mine == theirs
