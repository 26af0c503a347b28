"""One quantity as the quantulum3 reader returns it, before it becomes a
:class:`~provgraph.verification.slots.Mention`: its own module so that the reader's helpers
(:mod:`.word_ranges`) can build one without importing the reader."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Raw:
    """One quantity as read: value, unit name, entity (dimension), surface and span."""

    value: float
    unit: str
    entity: str
    surface: str
    start: int
    end: int
    uncertainty: float | None = None
