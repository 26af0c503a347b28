"""A claim's relative changes judged against the window's changes "from A to B".

Kept apart from :mod:`.changes` (which reads and compares one change) because it
works on both sides' readings (:class:`~provgraph.verification.quantities.Quantities`),
and the quantity reader itself reads this package's fractions of a change
(:mod:`.proportions` → :mod:`.changes`): one module per direction, no import cycle.
"""

from __future__ import annotations

from provgraph.verification.changes import change_rewrite, extract_changes, judge_change
from provgraph.verification.quantities import Quantities
from provgraph.verification.slots import Mention, Outcome


def judge_claim_changes(
    claim: str, claim_read: Quantities, window_read: Quantities, rewrites: list[tuple[str, str]]
) -> tuple[list[str], list[str], list[Mention]]:
    """``(mismatched, agreed, claim quantities left to compare as plain values)``; each
    agreeing change's rewrite in the source's values is appended to ``rewrites``.

    A claim's relative change ("fell by 20%", "doubled") is judged against the
    window's changes "from A to B" (:func:`~provgraph.verification.changes.judge_change`)
    when the window has any; its percentage is then not also compared as a plain value.
    Without a change in the window nothing is said about it (no signal, not counted).
    """
    if not window_read.changes:
        return [], [], claim_read.mentions
    mismatched: list[str] = []
    agreed: list[str] = []
    judged: list[tuple[int, int]] = []
    for change in extract_changes(claim):
        outcome, source_change = judge_change(change, window_read.changes)
        if outcome == Outcome.AGREE:
            agreed.append(change.surface)
            rewrite = change_rewrite(change, *source_change) if source_change else None
            if rewrite is not None:
                rewrites.append(rewrite)
        elif outcome == Outcome.MISMATCH:
            mismatched.append(change.surface)
        else:
            continue
        if change.value_span is not None:
            judged.append(change.value_span)
    rest = [m for m in claim_read.mentions if not any(s < m.end and m.start < e for s, e in judged)]
    return mismatched, agreed, rest
