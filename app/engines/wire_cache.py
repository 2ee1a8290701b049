"""What each message of a conversation becomes on the wire, built once per message, and the
request's leading run of unchanged messages taken as it was.

An engine sends the whole conversation on every step. Building each message's wire form
anew every time made a step's work grow with the round (at step 100, hundreds of dicts
rebuilt, records deep-copied, earlier replies hashed again). Two things keep a step's
work to what is new:

- WireCache keeps, per message object, the wire form built for it with the `key` it was
  built under: everything besides the message itself that decides its form (the text and
  error flag of each tool result, which pictures are shown, the replay prefix). The key
  is compared on every use, so a message changed in place (the retry layer shortens old
  tool output by rewriting it) or sent under other conditions is built again. A key is a
  tuple, compared, never hashed: a tuple compares its items by identity first.
- Prefix keeps the previous request's messages in order, with a copy of their fields
  (and of their results' and calls') as they were, and what the engine had made up to
  each. A request begins with the messages of the one before, unchanged, nearly always;
  `held` finds how many (dicts compared in C, values by identity first: in the usual case
  no Python loop runs over the conversation and nothing is allocated per message), and
  the engine takes what it had made up to there and builds only the rest. When no
  message, call or result had a field assigned since (conversation.assignments()), the
  check visits only the messages' identities and their lists, not every field of every
  message (0.3 ms a step at step 100, the one part of building that grew with the round).
  A field rewritten in place (the retry layer's shortened tool output) fails the check, and so
  does a picture no longer among those shown; anything else that decides the messages'
  form (the model, whether pictures are seen, the system prompt and tools) is the
  request's `context`, and a change of it starts from scratch.

The wire forms are shared from request to request: callers treat them as read-only (copy
before adding cache_control or merging). WireCache drops what the conversation no longer
holds once it has grown to twice the conversation's size.
"""

from __future__ import annotations

import operator
from itertools import chain
from typing import Any, Callable

from app.core.tools.pictures import shown_pictures
from app.core.engine.conversation import assignments


_DICT = operator.attrgetter("__dict__")
_RESULTS = operator.attrgetter("tool_results")
_CALLS = operator.attrgetter("tool_calls")
_PICTURES = operator.attrgetter("pictures")


class WireCache:
    def __init__(self) -> None:
        self._kept: dict[int, tuple[Any, tuple[Any, ...], Any]] = {}
        self.built = 0  # wire forms built (not found): what tests look at

    def get(self, message: Any, key: tuple[Any, ...], build: Callable[[], Any]) -> Any:
        """The wire form of `message` under `key`, built by `build` only when not kept."""
        found = self._kept.get(id(message))
        if found is not None and found[0] is message and found[1] == key:
            return found[2]
        wire = build()
        self.built += 1
        self._kept[id(message)] = (message, key, wire)
        return wire

    def prune(self, messages: list[Any]) -> None:
        """Forget the messages a conversation of `messages` no longer holds, once there are
        as many of those as of these."""
        if len(self._kept) > 2 * len(messages) + 8:
            held = {id(m) for m in messages}
            self._kept = {k: v for k, v in self._kept.items() if k in held}


def shown_of(messages: list[Any]) -> set[tuple[int, int]]:
    """core.pictures.shown_pictures of the messages' tool results, found without a Python
    loop over them when none shows a picture (nearly always)."""
    results = list(chain.from_iterable(map(_RESULTS, messages)))
    return shown_pictures(results) if any(map(_PICTURES, results)) else set()


def results_key(results: list[Any], shown: set[tuple[int, int]]) -> tuple[Any, ...]:
    """What a user message's wire form depends on in its tool results (their text, error
    flag, pictures and which of those are shown: core.pictures.shown_pictures)."""
    if not results:
        return ()
    return tuple([(r.call_id, r.content, r.is_error, r.pictures, _flags(r, shown))
                  for r in results])


def _flags(r: Any, shown: set[tuple[int, int]]) -> tuple[Any, ...]:
    return tuple([(id(r), k) in shown for k in range(len(r.pictures))]) if r.pictures else ()


def calls_key(calls: list[Any]) -> tuple[Any, ...]:
    return tuple([(c.id, c.name, c.arguments) for c in calls])




def _fields(m: Any) -> dict[str, Any]:
    # Its lists of results and calls copied, so that one grown in place compares unequal.
    return {**m.__dict__, "tool_results": list(m.tool_results), "tool_calls": list(m.tool_calls)}


def _result_fields(r: Any) -> dict[str, Any]:
    return {**r.__dict__, "pictures": list(r.pictures)}


class Prefix:
    """The previous request's messages, with a copy of their fields (and of their results'
    and calls') as they were, and what the engine had made up to each (`states`)."""

    def __init__(self) -> None:
        self.context: Any = None
        self.messages: list[Any] = []
        self.states: list[Any] = []
        self._fields: list[dict[str, Any]] = []
        self._results: list[dict[str, Any]] = []  # every message's results' fields, in order
        self._calls: list[dict[str, Any]] = []  # and its calls'
        self._ends: list[tuple[int, int]] = []  # results and calls up to each message
        # (message, result, shown flags)
        self._pictured: list[tuple[int, Any, tuple[Any, ...]]] = []
        # Every message's lists (results, calls, each result's pictures), their lengths and
        # items as kept, and how many of the lists are each message's and those before.
        self._lists: list[list[Any]] = []
        self._lengths: list[int] = []
        self._items: list[Any] = []
        self._list_ends: list[tuple[int, int]] = []
        self._assigned = -1  # conversation.assignments() when last known unchanged

    def held(self, messages: list[Any], context: Any, shown: set[tuple[int, int]]) -> int:
        """How many of `messages` from the first are the previous request's, unchanged:
        the same objects, each one's fields and its results' and calls' equal to the copy
        kept (dicts compared in C, their values by identity first), the same of their
        pictures shown. The usual case, all of them held, is decided without a Python
        loop over the messages."""
        if context != self.context:
            self.context = context
            self.keep(0, [], shown)
            return 0
        k = len(self.messages)
        head = messages[:k]
        if len(head) == k and assignments() == self._assigned and self._same_objects(head) \
                and all(_flags(r, shown) == flags for _, r, flags in self._pictured):
            return k  # no Record assigned to since, the same objects: held, at a glance
        if (len(head) == k and all(map(operator.is_, head, self.messages))
                and all(map(operator.eq, map(_DICT, head), self._fields))
                and all(map(operator.eq, map(_DICT, chain.from_iterable(map(_RESULTS, head))),
                            self._results))
                and all(map(operator.eq, map(_DICT, chain.from_iterable(map(_CALLS, head))),
                            self._calls))
                and all(_flags(r, shown) == flags for _, r, flags in self._pictured)):
            self._assigned = assignments()
            return k
        return self._held_slowly(head, shown)

    def _same_objects(self, head: list[Any]) -> bool:
        """The same messages as kept, and each one's lists (results, calls, a result's
        pictures) as kept: the same length, the same items. With no field assigned since
        (assignments()), nothing else of theirs can differ; only the lists are visited,
        not the messages, long out of the processor's cache at step 100."""
        return (all(map(operator.is_, head, self.messages))
                and list(map(len, self._lists)) == self._lengths
                and all(map(operator.is_, chain.from_iterable(self._lists), self._items)))

    def shown_and_held(self, messages: list[Any], context_of: Callable[[set[tuple[int, int]]], Any]
                       ) -> tuple[set[tuple[int, int]], int]:
        """The pictures shown (shown_of) and `held`, under the context `context_of(shown)`.

        When the previous request showed no picture and its messages are all held, only the
        new messages are looked at for pictures: the conversation is not walked twice a step
        (at step 100 that walk, of objects long out of the processor's cache, cost as much
        as building the step's new messages)."""
        if not self._pictured:
            context = context_of(set())
            if context == self.context:
                k = self.held(messages, context, set())
                if k == len(self.messages) and not any(
                        map(_PICTURES, chain.from_iterable(map(_RESULTS, messages[k:])))):
                    return set(), k
        shown = shown_of(messages)
        return shown, self.held(messages, context_of(shown), shown)

    def _held_slowly(self, head: list[Any], shown: set[tuple[int, int]]) -> int:
        bad = {i for i, r, flags in self._pictured if _flags(r, shown) != flags}
        done = (0, 0)
        for i, m in enumerate(head):
            if m is not self.messages[i] or m.__dict__ != self._fields[i] or i in bad:
                return i
            (results, calls), (r0, c0) = self._ends[i], done
            if any(map(operator.ne, map(_DICT, m.tool_results), self._results[r0:results])) \
                    or any(map(operator.ne, map(_DICT, m.tool_calls), self._calls[c0:calls])):
                return i
            done = (results, calls)
        return len(head)

    def keep(self, upto: int, rows: list[tuple[Any, Any]], shown: set[tuple[int, int]]) -> None:
        """This request's messages: the first `upto` of the previous one's, then `rows`
        ((message, state) each)."""
        results, calls = self._ends[upto - 1] if upto else (0, 0)
        self.messages = self.messages[:upto] + [m for m, _ in rows]
        self.states = self.states[:upto] + [state for _, state in rows]
        self._fields = self._fields[:upto] + [_fields(m) for m, _ in rows]
        self._results = self._results[:results]
        self._calls = self._calls[:calls]
        self._ends = self._ends[:upto]
        self._pictured = [p for p in self._pictured if p[0] < upto]
        lists, items = self._list_ends[upto - 1] if upto else (0, 0)
        del self._lists[lists:], self._lengths[lists:], self._items[items:]
        del self._list_ends[upto:]
        self._assigned = assignments()
        for i, (m, _) in enumerate(rows, upto):
            self._results += [_result_fields(r) for r in m.tool_results]
            self._calls += [dict(c.__dict__) for c in m.tool_calls]
            watched = [m.tool_results, m.tool_calls, *map(_PICTURES, m.tool_results)]
            self._lists += watched
            self._lengths += map(len, watched)
            self._items += chain.from_iterable(watched)
            self._list_ends.append((len(self._lists), len(self._items)))
            self._ends.append((len(self._results), len(self._calls)))
            self._pictured += [(i, r, _flags(r, shown)) for r in m.tool_results if r.pictures]
