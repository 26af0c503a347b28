"""A route the source runs the other way: "from Madrid to Lisbon" / "from Lisbon to Madrid",
and a transfer it makes the other way: "Chelsea signed the striker from Ajax" / "Ajax
signed the striker from Chelsea".

The small NLI model reads both pairs as entailment (0.95, 0.97): the words are the same. A
"from A to B" between names (capitalised word runs) is a route, origin first; the
source's "from B to A" with no "from A to B" anywhere is the route reversed, read by
:func:`~provgraph.verification.roles.role_swap` as agent and patient exchanged. Day and
month names are no places ("from January to March" is a period). A name, its verb, a
few lower-case words and "from" another name is a transfer (session 28): the same verb
between the two names the other way round, and never the claim's way, is its reversal.
"""

from __future__ import annotations

import re
from functools import lru_cache

from provgraph.verification.wordsets import CALENDAR_NAMES, STOPWORDS

_NAME_RUN = r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*"
_ROUTE = re.compile(rf"\bfrom\s+(?:the\s+)?({_NAME_RUN})\s+(?:to|into)\s+(?:the\s+)?({_NAME_RUN})")


#: "from bats to humans", "from the city to the coast": a route between two one-word
#: common nouns (session 38). Not idioms whose ends are no places or parties.
_NOUN_ROUTE = re.compile(
    r"\bfrom\s+(?:the\s+)?([a-z]{3,})\s+(?:to|into)\s+(?:the\s+)?([a-z]{3,})\b"
)
_NO_ENDS = frozenset((
    "time", "door", "start", "finish", "top", "bottom", "one", "another", "day", "week",
    "year", "month", "head", "toe", "beginning", "end", "side", "place", "person", "case",
))  # fmt: skip


def _routes(text: str) -> set[tuple[str, str]]:
    """``(origin, destination)`` of each "from A to B" between names or one-word common
    nouns (not months: "from January to March" is a period, whose order is the date
    checks'; not "from time to time")."""
    named = {
        (a.lower(), b.lower())
        for a, b in _ROUTE.findall(text)
        if a.lower() not in CALENDAR_NAMES and b.lower() not in CALENDAR_NAMES
    }
    common = {
        (a, b)
        for a, b in _NOUN_ROUTE.findall(text)
        if a != b and not {a, b} & (_NO_ENDS | STOPWORDS | CALENDAR_NAMES)
    }
    return named | common


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


_TRANSFER = re.compile(
    rf"\b({_NAME_RUN})\s+([a-z]+)\s+(?:[a-z'-]+\s+){{0,4}}?from\s+(?:the\s+)?({_NAME_RUN})"
)


@lru_cache(maxsize=1024)
def _verb(word: str) -> str | None:
    """The verb lemma of a past-tense or present form ("signed" → "sign"), else None."""
    from lemminflect import getAllLemmas

    lemmas = getAllLemmas(word).get("VERB", ())
    return lemmas[0] if lemmas and lemmas[0] != word else None


def _transfers(text: str) -> set[tuple[str, str, str]]:
    """``(taker, verb, giver)`` of each "A <verb> … from B" between names."""
    out = set()
    for taker, word, giver in _TRANSFER.findall(text):
        verb = _verb(word)
        names = (taker.lower(), giver.lower())
        if verb is not None and not set(names) & CALENDAR_NAMES and names[0] != names[1]:
            out.add((names[0], verb, names[1]))
    return out


def transfer_swap(claim: str, window: str) -> tuple[str, tuple[str, str], tuple[str, str]] | None:
    """ "Chelsea signed the striker from Ajax" / "Ajax signed the striker from Chelsea":
    ``(verb, claim's (taker, giver), window's)``, when the window never says the claim's."""
    claimed = _transfers(claim)
    if not claimed:
        return None
    theirs = _transfers(window)
    for taker, verb, giver in sorted(claimed):
        if (giver, verb, taker) in theirs and (taker, verb, giver) not in theirs:
            return verb, (taker, giver), (giver, taker)
    return None
