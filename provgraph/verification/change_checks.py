"""A claim's relative changes judged against the window's changes "from A to B".

Kept apart from :mod:`.changes` (which reads and compares one change) because it
works on both sides' readings (:class:`~provgraph.verification.quantities.Quantities`),
and the quantity reader itself reads this package's fractions of a change
(:mod:`.proportions` → :mod:`.changes`): one module per direction, no import cycle.
"""

from __future__ import annotations

import re

from provgraph.verification.changes import (
    CHANGE_VERBS,
    Change,
    change_rewrite,
    extract_changes,
    judge_change,
)
from provgraph.verification.quantities import Quantities
from provgraph.verification.slots import SAME_SUBJECT_SCORE, Mention, Outcome


def judge_relative(change: Change, window_changes: list[Change]) -> tuple[Outcome, Change | None]:
    """A claim change against the window's own relative changes, ratio against ratio:
    "doubled" / "rose by about 15 percent" is a mismatch, "doubled" / "rose 100%" agrees.

    Judged like :func:`~provgraph.verification.changes.judge_change`: the window changes
    attached to the claim change's words (its neighbours, not its verb) decide, and a
    mismatch needs :data:`~provgraph.verification.slots.SAME_SUBJECT_SCORE`.
    """
    scored = [
        (2 * len(change.near & w.near) + len(change.clause & w.clause), w)
        for w in window_changes
        if w.points == change.points  # a ratio and a difference of percentages differ in kind
    ]
    if not scored:
        return Outcome.NO_SIGNAL, None
    best = max(score for score, _w in scored)
    for score, w in scored:
        if score == best and change.low <= w.high and w.low <= change.high:
            return Outcome.AGREE, w
    return (Outcome.MISMATCH if best >= SAME_SUBJECT_SCORE else Outcome.UNVERIFIED), None


def judge_claim_changes(
    claim: str,
    window: str,
    claim_read: Quantities,
    window_read: Quantities,
    rewrites: list[tuple[str, str]],
) -> tuple[list[str], list[str], list[Mention]]:
    """``(mismatched, agreed, claim quantities left to compare as plain values)``; each
    agreeing change's rewrite in the source's values is appended to ``rewrites``.

    A claim's relative change ("fell by 20%", "doubled") is judged against the
    window's changes "from A to B" (:func:`~provgraph.verification.changes.judge_change`)
    and its relative changes ("rose by about 15 percent", :func:`judge_relative`) when
    the window has any; its percentage is then not also compared as a plain value.
    Without a change in the window nothing is said about it (no signal, not counted).
    """
    window_changes = extract_changes(window)
    if not window_read.changes and not window_changes:
        return [], [], claim_read.mentions
    mismatched: list[str] = []
    agreed: list[str] = []
    judged: list[tuple[int, int]] = []
    for change in extract_changes(claim):
        outcome, source_change = judge_change(change, window_read.changes)
        relative, stated = judge_relative(change, window_changes)
        if outcome == Outcome.AGREE:
            agreed.append(change.surface)
            rewrite = change_rewrite(change, *source_change) if source_change else None
            if rewrite is not None:
                rewrites.append(rewrite)
        elif relative == Outcome.AGREE and stated is not None:
            agreed.append(change.surface)
            if stated.surface != change.surface:
                rewrites.append((change.surface, stated.surface))
        elif outcome == Outcome.MISMATCH or (
            relative == Outcome.MISMATCH and not change.value_span
        ):
            # a written percentage against another one is the plain values' comparison
            # (which reads the whole source for it); "doubled" has no value to compare
            mismatched.append(change.surface)
        else:
            continue
        if change.value_span is not None:
            judged.append(change.value_span)
    rest = [m for m in claim_read.mentions if not any(s < m.end and m.start < e for s, e in judged)]
    return mismatched, agreed, rest


#: Before a value that is a change's size: "reduced mortality *by* 50 percent", "revenue
#: *grew* seven percent".
_BY_BEFORE = re.compile(
    rf"\b(?:by|{CHANGE_VERBS})\s+(?:(?:about|around|roughly|nearly|almost|some|over|"
    r"more than|less than|just over|just under|up to)\s+)?$",
    re.IGNORECASE,
)
#: After a value that is a change's size: "a 50 percent *drop*".
_CHANGE_AFTER = re.compile(
    r"^[\s-]*(?:increase|rise|jump|gain|growth|drop|fall|decline|decrease|cut|reduction|"
    r"loss)\b",
    re.IGNORECASE,
)


def sizes_in(window: str, values: list[Mention]) -> list[Mention]:
    """The window's values written as the size of a change ("*by* 50 percent", "a 20%
    *rise*"): the values a claim's change size is compared with (:func:`change_sizes`)."""
    return [
        m
        for m in values
        if _BY_BEFORE.search(window[max(0, m.start - 30) : m.start])
        or _CHANGE_AFTER.match(window[m.end : m.end + 20])
    ]


def change_sizes(claim: str, values: list[Mention]) -> tuple[list[Mention], list[Mention]]:
    """``values`` split into ``(the sizes of the claim's changes, the rest)``.

    A size left to the plain values' comparison ("reduced migraine frequency *by half*")
    is compared with the sizes the window states (:func:`sizes_in`: "reduced mortality by
    50 percent", "dropped 12%") and says nothing of its other values: a share ("one in
    seven people", "a third of the inmates") or a level ("unemployment was 7%") is not
    the size of a change.
    """
    spans = [c.value_span for c in extract_changes(claim) if c.value_span is not None]
    sizes = [m for m in values if any(s < m.end and m.start < e for s, e in spans)]
    return sizes, [m for m in values if all(m is not v for v in sizes)]
