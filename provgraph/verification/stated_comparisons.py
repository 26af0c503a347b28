"""A claim's comparison against one the source states in words, either way round.

"The east coast gets more rain than the west coast." against "The west coast receives
twice as much rain as the east coast."; "The older bridge is taller than the new one."
against "The new bridge is twice as tall as the older one." The NLI model read both as
support (0.43–0.52 entailment: every word is shared), the value comparisons
(:mod:`.value_comparisons`) need two values and find none, and the exchanged-sides rule
(:mod:`.comparatives`) reads names only. Here a source sentence's own comparisons and
ratios (:func:`~provgraph.verification.value_comparisons.claim_comparisons`, read the
same way as the claim's) judge a claim comparison of the same dimension ("rain",
"tall") whose sides they name: the same way round, their bands of the left/right
ratio must meet; exchanged, the source's band is inverted first ("twice as much as" the
other is at most half of it). Session 38.
"""

from __future__ import annotations

from provgraph.verification.sentences import split_sentences
from provgraph.verification.value_comparisons import ClaimComparison, claim_comparisons
from provgraph.verification.wordsets import stem


def judge_stated_comparisons(
    claim: str, window: str, judged: set[str]
) -> tuple[list[str], list[str]]:
    """``(mismatched, agreed)`` surfaces of the claim's comparisons that a comparison
    stated in a window sentence decides; those in ``judged`` (decided by values) are
    skipped. One verdict per comparison: the first sentence that decides it."""
    mismatched: list[str] = []
    agreed: list[str] = []
    claimed = [c for c in claim_comparisons(claim) if c.surface not in judged]
    if not claimed:
        return mismatched, agreed
    stated = [c for s in split_sentences(window) for c in claim_comparisons(s.text)]
    for comparison in claimed:
        for other in stated:
            band = _band_of(comparison, other)
            if band is None:
                continue
            low, high = band
            meets = low < comparison.high and comparison.low < high
            (agreed if meets else mismatched).append(comparison.surface)
            break
    return mismatched, agreed


def _band_of(claimed: ClaimComparison, stated: ClaimComparison) -> tuple[float, float] | None:
    """The stated comparison's band of the claim's left/right ratio, or None when it is of
    another dimension or kind of value, or does not name the claim's two sides apart."""
    if not claimed.dimension or stem(claimed.dimension) != stem(stated.dimension):
        return None
    if None not in (claimed.kind, stated.kind) and claimed.kind != stated.kind:
        return None  # "slower" as a speed against "slower" as a time taken
    same = _names(claimed.left, stated.left, stated.right) and _names(
        claimed.right, stated.right, stated.left
    )
    if same:
        return stated.low, stated.high
    exchanged = _names(claimed.left, stated.right, stated.left) and _names(
        claimed.right, stated.left, stated.right
    )
    if not exchanged:
        return None
    low = 1.0 / stated.high if stated.high > 0 else 0.0
    high = 1.0 / stated.low if stated.low > 0 else float("inf")
    return low, high


def _names(side: frozenset[str], this: frozenset[str], other: frozenset[str]) -> bool:
    """Does ``this`` side of the stated comparison name the claim's ``side`` (a word in
    common that the other side does not have)?"""
    return bool((side & this) - other)
