"""Places in a ranking: "finished first", "came in third place", "ranked 5th".

"The team finished first in the league." against "The team ended the season in
third place" is a contradiction the NLI model reads as weak support (the words are
shared; "first" and "third" are one token each), and the quantity reader sees no
number in either. Read here as one kind, ``rank`` (an exact position), they are
compared like any value (:mod:`.slots`: same subject, interval overlap).

A place is read only where a ranking says it is one: after a verb of finishing or
ranking ("finished", "ended", "came", "placed", "ranked", "took … place") or before
"place" / "position" ("in third place", "a second-place finish"). "The first time",
"its third title" or "the first quarter" are no places. Winning a named contest ("won the
league", "won the election") is first place.
"""

from __future__ import annotations

import re

from provgraph.verification.ordinal_words import ORDINAL_NUMBERS
from provgraph.verification.slots import Mention
from provgraph.verification.wordsets import near_stems

KIND = "rank"

_ORDINAL = (
    r"(?P<ord>"
    + "|".join(sorted(ORDINAL_NUMBERS, key=len, reverse=True))
    + r"|\d{1,3}(?:st|nd|rd|th))"
)
_VERB = r"(?:finish(?:ed|es)?|end(?:ed|s)?|came|comes?|placed?|places|rank(?:ed|s)?)"
_AFTER_VERB = re.compile(
    rf"\b{_VERB}\s+(?:(?:in|at)\s+)?(?:the\s+)?{_ORDINAL}\b(?:[\s-]+(?:place|position)\b)?",
    re.IGNORECASE,
)
_BEFORE_PLACE = re.compile(
    rf"\b(?:in|took|take|takes|taking|a|an|the)\s+{_ORDINAL}[\s-]+(?:place|position)\b",
    re.IGNORECASE,
)


#: Winning a ranked contest is its first place: "won the league" / "finished third in
#: the league" (session 38). Not "won a medal", "won five games": no ranking named.
_WON = re.compile(
    # not a perfect's count of wins: "has won the World Cup once"
    r"(?<!\bhas )(?<!\bhave )(?<!\bhad )\bw(?:on|ins?|inning)\s+the\s+(?:[a-z]+\s+)?"
    r"(?:league|title|championship|race|tournament|competition|contest|cup|election)\b",
    re.IGNORECASE,
)


#: A second contest the same win names: "won the cup in 2018 *and the league* in 2019".
_WON_TOO = re.compile(
    r"(?:\s+in\s+\d{4})?\s*,?\s+and\s+(?P<what>the\s+(?:[a-z]+\s+)?"
    r"(?:league|title|championship|race|tournament|competition|contest|cup|election))\b",
    re.IGNORECASE,
)


def _position(ordinal: str) -> int:
    word = ordinal.lower()
    if word in ORDINAL_NUMBERS:
        return ORDINAL_NUMBERS[word]
    return int(word[:-2])


def extract_ranks(text: str) -> list[Mention]:
    """Every place in a ranking of ``text`` as an exact ``rank`` :class:`Mention`."""
    out: list[Mention] = []
    won = [*_WON.finditer(text)]
    won += [m for w in won if (m := _WON_TOO.match(text, w.end()))]  # "… and the league"
    matches = [*_AFTER_VERB.finditer(text), *_BEFORE_PLACE.finditer(text), *won]
    for m in sorted(matches, key=lambda m: m.start()):
        if any(o.start < m.end() and m.start() < o.end for o in out):
            continue
        position = float(_position(m.group("ord")) if m.re not in (_WON, _WON_TOO) else 1)
        start = m.start("what") if m.re is _WON_TOO else m.start()
        near, clause = near_stems(text, start, m.end())
        out.append(
            Mention(KIND, position, position, text[start : m.end()], start, m.end(), near, clause)
        )
    return out
