"""A route the source runs the other way: "from Madrid to Lisbon" / "from Lisbon to Madrid".

The small NLI model reads the pair as entailment (0.95): the words are the same. A
"from A to B" between names (capitalised word runs) is a route, origin first; the
source's "from B to A" with no "from A to B" anywhere is the route reversed, read by
:func:`~provgraph.verification.roles.role_swap` as agent and patient exchanged. Day and
month names are no places ("from January to March" is a period).
"""

from __future__ import annotations

import re

from provgraph.verification.wordsets import CALENDAR_NAMES

_NAME_RUN = r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*"
_ROUTE = re.compile(rf"\bfrom\s+(?:the\s+)?({_NAME_RUN})\s+to\s+(?:the\s+)?({_NAME_RUN})")


def _routes(text: str) -> set[tuple[str, str]]:
    """``(origin, destination)`` of each "from A to B" between names (not months: "from
    January to March" is a period, whose order is the date checks')."""
    return {
        (a.lower(), b.lower())
        for a, b in _ROUTE.findall(text)
        if a.lower() not in CALENDAR_NAMES and b.lower() not in CALENDAR_NAMES
    }


def route_swap(claim: str, window: str) -> tuple[tuple[str, str], tuple[str, str]] | None:
    """ "from Madrid to Lisbon" / "from Lisbon to Madrid": a route the window runs the other
    way, and never the claim's way."""
    claimed = _routes(claim)
    if not claimed:
        return None
    theirs = _routes(window)
    if claimed & theirs:
        return None
    for origin, destination in sorted(claimed):
        if (destination, origin) in theirs:
            return (origin, destination), (destination, origin)
    return None
