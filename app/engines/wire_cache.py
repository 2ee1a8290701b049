"""What each message of a conversation becomes on the wire, built once per message.

An engine sends the whole conversation on every step. Building each message's wire form
anew every time made a step's work grow with the round (at step 100, hundreds of dicts
rebuilt, records deep-copied, earlier replies hashed again). A WireCache keeps, per
message object, the wire form built for it with the `key` it was built under: everything
besides the message itself that decides its form (the text and error flag of each tool
result, which pictures are shown, the replay prefix). The key is compared on every use,
so a message changed in place (the retry layer shortens old tool output by rewriting it)
or sent under other conditions is built again. A key is a tuple and is only compared,
never hashed: a tuple compares its items by identity first, so the same strings, records
and argument dicts compare at once and an unchanged message costs a tuple comparison.

Only the messages of the latest request are kept: each request starts a new generation,
and what the previous one held but this one did not use is dropped, so the cache is never
larger than one conversation. Callers must treat the wire forms as read-only (copy before
adding cache_control or merging).
"""

from __future__ import annotations

from typing import Any, Callable


class WireCache:
    def __init__(self) -> None:
        self._kept: dict[int, tuple[Any, tuple, Any]] = {}
        self._fresh: dict[int, tuple[Any, tuple, Any]] = {}
        self.built = 0  # wire forms built (not found): what tests look at

    def begin(self) -> None:
        """Start one request's generation: forms not used by it are dropped at its end."""
        self._fresh = {}

    def end(self) -> None:
        self._kept, self._fresh = self._fresh, {}

    def get(self, message: Any, key: tuple, build: Callable[[], Any]) -> Any:
        """The wire form of `message` under `key`, built by `build` only when not kept."""
        found = self._fresh.get(id(message)) or self._kept.get(id(message))
        if found is not None and found[0] is message and found[1] == key:
            self._fresh[id(message)] = found
            return found[2]
        wire = build()
        self.built += 1
        self._fresh[id(message)] = (message, key, wire)
        return wire
