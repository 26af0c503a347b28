"""The size-free reading: NLI re-reads a window without the size of a change the claim
does not state.

The small NLI model reads a change whose size only the source gives as a contradiction:
"Crime in the city fell last year." against "Recorded crime in the city declined by 8%
last year." scores contradiction 0.79 (entailment 0.20), and "The population declined."
against "The population shrank by 20,000 people." 0.79; without "by 8%" the first reads
as entailment 0.75. A claim that states a change and no size says nothing a size could
refute — "declined by 8%" implies "declined" — so the windows NLI read are read again with
each "<change verb> … by <value>" left as "<change verb> …" (:mod:`.window_rereads`: the
larger entailment, the smaller contradiction).

Never for a claim that states a size or a degree itself: a number or a value in words
("fell by a third", "five percent"), a multiple ("doubled", "halved"), or a degree word
("fell sharply", "rose slightly", "barely changed"): the source's size may refute those.
The change verb must come at most five words before "by" ("cut the risk of death by
8%"); the value ends at a preposition, an article, a conjunction or punctuation, and at
most two words after it go with it ("by 20,000 *people*", "by two percentage *points*").
"""

from __future__ import annotations

import re
from typing import Any

from provgraph.verification.changes import CHANGE_VERBS, MULTIPLIER_RE
from provgraph.verification.focus import PairScorer
from provgraph.verification.report import StageScore
from provgraph.verification.valuefree import QUANTITY_RE
from provgraph.verification.window_rereads import Item, reread_windows

#: Words by which a claim states how large its change was.
_DEGREE = re.compile(
    r"\b(?:sharply|slightly|steeply|dramatically|significantly|substantially|considerably|"
    r"markedly|marginally|modestly|somewhat|rapidly|quickly|slowly|gradually|massively|"
    r"hugely|greatly|a\s+little|a\s+lot|barely|hardly|half|third|quarter|tenth|fifth|"
    r"tenfold|twofold|threefold|percent|per\s+cent)\b|%",
    re.IGNORECASE,
)
_APPROXIMATE = r"(?:(?:about|around|roughly|approximately|some|nearly|almost|over|just|more\s+than|less\s+than|up\s+to)\s+)?"  # noqa: E501
#: Words after the value that still belong to it ("by 20,000 *people*", "two *points*").
_VALUE_TAIL = (
    r"(?:\s+(?!(?:to|from|in|on|at|of|for|with|last|this|next|over|since|after|before|"
    r"compared|between|during|a|an|the|and|or|but|while|year|years|month|months)\b)"
    r"[a-z]+){0,2}"
)
_SIZE = re.compile(
    rf"(?P<keep>\b{CHANGE_VERBS}\b(?:\s+(?!by\b)[\w'-]+){{0,5}}?)\s+by\s+{_APPROXIMATE}"
    rf"(?:{QUANTITY_RE.pattern}){_VALUE_TAIL}",
    re.IGNORECASE,
)


def states_a_size(claim: str) -> bool:
    """Does the claim say how large a change was (a value, a multiple, a degree word)?"""
    return bool(QUANTITY_RE.search(claim) or MULTIPLIER_RE.search(claim) or _DEGREE.search(claim))


def without_sizes(claim: str, window: str) -> str | None:
    """``window`` with the sizes of its changes left out, or None when the claim states a
    size itself or the window has none."""
    if states_a_size(claim):
        return None
    rewritten, n = _SIZE.subn(lambda m: m.group("keep"), window)
    return re.sub(r"\s+([.,;:])", r"\1", rewritten) if n else None


def reread_without_sizes(
    scorer: PairScorer, items: list[Item]
) -> list[tuple[StageScore, dict[str, Any]] | None]:
    """For each :data:`Item`: the NLI score and signals after the size-free reading, or
    None (no size to leave out, or no contradiction worth discounting)."""
    return reread_windows(scorer, items, without_sizes, "size_free")
