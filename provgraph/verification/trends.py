"""A thing compared with its own past, against a source change the other way.

"The festival drew fewer visitors than last year." against "This year's festival
attracted 48,000 visitors, up from 41,000 last year." reads as support to the
shipped NLI model (every content word is shared) and to the other meaning rules:
the claim's comparison has a time for its other side, so no comparison of two
things (:mod:`.directions`) is found, and the source states its change as two
values, not as a word the antonym lexicons know.

The rule: a claim clause "<more | fewer | less | higher | lower | greater | larger |
smaller | bigger> [up to three words] than <an earlier time>" ("last year", "the
previous quarter", "a year earlier", "before", "in 2020") states a direction of
change; a source change between two values of one kind ("from 41,000 to 48,000",
"48,000, up from 41,000": :func:`~provgraph.verification.quantities.read_quantities`)
whose words name what the claim measures (the words between the comparative and
*than*, else the claim's subject) and whose values go the other way is a conflict,
unless another such change goes the claim's way. A negated comparison ("not more
than last year") is never read; values that overlap state no direction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.quantities import read_quantities
from provgraph.verification.slots import Mention
from provgraph.verification.wordsets import content_stems

_UP = frozenset(["more", "higher", "greater", "larger", "bigger"])
_DOWN = frozenset(["fewer", "less", "lower", "smaller"])
_EARLIER = (
    r"(?:last|the\s+previous|the\s+prior|the\s+preceding)\s+(?:year|quarter|month|season|week)"
    r"|the\s+(?:year|quarter|month|season)\s+before|a\s+(?:year|decade)\s+(?:earlier|before|ago)"
    r"|before|previously|(?:in\s+)?(?:1[89]|20)\d\d"
)
_TREND = re.compile(
    rf"\b(?P<cmp>{'|'.join(sorted(_UP | _DOWN))})\b(?P<what>(?:\s+[A-Za-z][\w-]*){{0,3}}?)"
    rf"\s+than\s+(?:it\s+(?:was|did|had)\s+)?(?:{_EARLIER})\b",
    re.IGNORECASE,
)
_NEGATED = re.compile(r"\b(?:not|never|no)\b|n't\b", re.IGNORECASE)


@dataclass(frozen=True)
class Trend:
    """A claim's direction of change and the words of what changed."""

    up: bool
    what: frozenset[str]
    surface: str


@dataclass(frozen=True)
class TrendFinding:
    """A claim trend and the source change that goes the other way."""

    claim: str
    source: str


def claim_trends(claim: str) -> list[Trend]:
    """The comparisons of ``claim`` with an earlier time, with what they measure."""
    out: list[Trend] = []
    for m in _TREND.finditer(claim):
        clause_start = max(claim.rfind(c, 0, m.start()) for c in ",;:") + 1
        before = claim[clause_start : m.start()]
        if _NEGATED.search(before):
            continue
        what = frozenset(content_stems(m.group("what"))) or frozenset(content_stems(before))
        if what:
            out.append(Trend(m.group("cmp").lower() in _UP, what, m.group(0)))
    return out


def _direction(old: Mention, new: Mention) -> bool | None:
    """True: up, False: down, None: the values overlap."""
    if new.low > old.high:
        return True
    if new.high < old.low:
        return False
    return None


def trend_conflict(claim: str, window: str) -> TrendFinding | None:
    """A claim trend a window change anchored to the same words states the other way."""
    trends = claim_trends(claim)
    if not trends:
        return None
    changes = read_quantities(window).changes
    found: TrendFinding | None = None
    for trend in trends:
        for old, new in changes:
            if not trend.what & (new.near | new.clause | new.noun):
                continue
            way = _direction(old, new)
            if way is None:
                continue
            if way == trend.up:
                return None  # a change the claim's way: the model decides
            if found is None:
                found = TrendFinding(trend.surface, f"from {old.surface} to {new.surface}")
    return found
