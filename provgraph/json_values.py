"""What free-form JSON in an event may hold, checked with the path of the first offence.

Each rule exists because something downstream breaks without it:

- ``NaN`` / ``Infinity`` are not JSON (RFC 8259). Python reads and writes them,
  so they would be stored and served back to clients whose ``JSON.parse``
  rejects the whole response.
- Integers longer than :data:`MAX_INT_DIGITS` digits cannot be printed by
  Python (its int/str conversion limit is 4,300 digits): a stored one would
  fail every later read.
- Lone UTF-16 surrogates (``"\\udc00"``) cannot be encoded as UTF-8: neither
  a response nor Neo4j can carry them.
- Nesting deeper than :data:`MAX_DEPTH` exhausts recursive encoders and is
  never what an agent runtime meant to report.

The walk is iterative, so checking a value cannot itself overflow the stack.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MAX_DEPTH = 64
"""Levels of objects/arrays inside ``data`` (``{"a": [1]}`` is 2 levels)."""
MAX_INT_DIGITS = 4000
"""Decimal digits of an integer (below Python's 4,300-digit conversion limit)."""
_INT_BOUND = 10**MAX_INT_DIGITS


@dataclass(frozen=True)
class OversizedInt:
    """A JSON integer literal too long to convert, kept as a marker by the body parser.

    The parser cannot turn it into an ``int`` (Python refuses), and failing the
    whole body would lose the other events and the field path; validation
    rejects the one event that holds it, naming where.
    """

    digits: int


def surrogate_problem(text: str) -> str | None:
    """Why ``text`` cannot be encoded as UTF-8 (a lone surrogate), else None."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(text[exc.start])
        return f"contains a lone UTF-16 surrogate (U+{code:04X}) at character {exc.start}"
    return None


def printable(text: str) -> str:
    """``text`` with lone surrogates written as ``\\udXXX`` escapes, so an error can echo it."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


@dataclass(frozen=True)
class _Step:
    parent: _Step | None
    key: str | int

    def path(self, root: str) -> str:
        parts: list[str | int] = []
        step: _Step | None = self
        while step is not None:
            parts.append(step.key)
            step = step.parent
        out = root
        for part in reversed(parts):
            out += f"[{part}]" if isinstance(part, int) else f".{part}"
        return out


def json_value_problem(value: Any, root: str) -> tuple[str, str] | None:
    """``(path, reason)`` of the first value a JSON consumer could not take, else None.

    ``root`` names the field (``data``); paths read ``data.a[2].b``.
    """
    stack: list[tuple[Any, int, _Step | None]] = [(value, 0, None)]
    while stack:
        item, depth, step = stack.pop()
        reason = _scalar_problem(item)
        if reason is None and isinstance(item, Mapping | list):
            if depth >= MAX_DEPTH:
                reason = f"nests deeper than {MAX_DEPTH} levels of objects and arrays"
            elif isinstance(item, Mapping):
                for key, child in item.items():
                    key_text = key if isinstance(key, str) else str(key)
                    bad_key = surrogate_problem(key_text)
                    if bad_key is not None:
                        return (_where(step, root), f"a key {bad_key}")
                    stack.append((child, depth + 1, _Step(step, printable(key_text))))
            else:
                stack.extend((child, depth + 1, _Step(step, i)) for i, child in enumerate(item))
        if reason is not None:
            return (_where(step, root), reason)
    return None


def _where(step: _Step | None, root: str) -> str:
    return step.path(root) if step is not None else root


def _scalar_problem(item: Any) -> str | None:
    if isinstance(item, str):
        return surrogate_problem(item)
    if isinstance(item, float) and not math.isfinite(item):
        name = "NaN" if math.isnan(item) else ("-Infinity" if item < 0 else "Infinity")
        return f"{name} is not a JSON number (RFC 8259 has none); send null or a string"
    if isinstance(item, OversizedInt):
        return f"integer has {item.digits} digits; at most {MAX_INT_DIGITS} (send it as a string)"
    if isinstance(item, int) and not isinstance(item, bool) and not -_INT_BOUND < item < _INT_BOUND:
        return f"integer has more than {MAX_INT_DIGITS} digits (send it as a string)"
    return None
