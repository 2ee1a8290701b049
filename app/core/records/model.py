"""The base of every pydantic model in the core: its schema is built on first use.

A light command (`status`) validates one model; building the schemas of all the others at
import (events, settings, conversation) would cost it more than the rest of its work.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    model_config = ConfigDict(defer_build=True)
