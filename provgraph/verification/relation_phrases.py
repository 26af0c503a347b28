"""Phrases between two names that state a relation in other words than a verb of it.

:func:`.roles.relations` reads "A <verb> B"; here, what it reads as "A beat B"
when no such verb joins the names.
"""

from __future__ import annotations

_WON = frozenset(["won", "wins", "win", "winning"])
_AHEAD = (["ahead", "of"], ["in", "front", "of"])
_BEATING = frozenset(["beating", "defeating", "edging", "outpacing"])


def won_over(between: list[str]) -> bool:
    """Is ``between`` "won (the race), finishing two lengths ahead of" or "won …, beating"?
    The first name then beat the second (session 37: "Cambridge won the boat race,
    finishing two lengths ahead of Oxford" against "Oxford beat Cambridge")."""
    words = [t.lower() for t in between]
    if not words or words[0] not in _WON or len(words) > 12:
        return False
    return any(words[-len(a) :] == a for a in _AHEAD) or words[-1] in _BEATING
