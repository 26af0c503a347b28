"""The unknown-free reading: NLI re-reads a window without its clauses that say something
else was not measured.

The small NLI model reads a clause like "sleep was not measured in the study" as a
contradiction of whatever the claim says: "The diet cut cholesterol." against "The diet
cut cholesterol by 12%; sleep was not measured in the study." scores contradiction 0.87,
entailment 0.13, though the first clause states the claim. A clause that says a matter
is not known (:data:`~provgraph.verification.unknowns.UNKNOWN_CUE`) and speaks of no
statement of the claim can neither support nor refute it. So the windows NLI read are
read again without such clauses (:mod:`.window_rereads`: the larger entailment, the
smaller contradiction).

A clause about the claim's own statement is the unknowns rule's (:mod:`.unknowns`: the
claim is then *unsupported*) and is never removed here, nor is a clause whose cue governs
what follows it ("It is still unclear if, deeper down, Jupiter has a solid core": cut at
its comma, the rest would assert what the source leaves open), nor one that shares two
content words with a statement of the claim. The cost is one NLI pair per
window read for the few pairs whose window holds such a clause.
"""

from __future__ import annotations

import re
from typing import Any

from provgraph.verification.claimsplit import split_statements
from provgraph.verification.focus import PairScorer
from provgraph.verification.report import StageScore
from provgraph.verification.unknowns import UNKNOWN_CUE, speaks_of
from provgraph.verification.window_rereads import Item, reread_windows
from provgraph.verification.wordsets import clauses, content_stems

#: Content words a cue clause may share with a statement and still be about something else.
_TOUCHING = 2


def without_unknowns(claim: str, window: str) -> str | None:
    """``window`` without its clauses that say something not of the claim is unknown, or
    None when it has none (or nothing would be left)."""
    statements = [set(content_stems(s)) for s in split_statements(claim) or [claim]]
    kept: list[str] = []
    removed = False
    for clause in clauses(window):
        text = clause.text
        cue = UNKNOWN_CUE.search(text)
        if (
            cue
            and not _governs(text[cue.end() :])
            and not any(_touches(own, text) for own in statements)
        ):
            removed = True
            continue
        kept.append(text.strip())
    rest = "; ".join(part for part in kept if part)
    return rest + "." if removed and rest else None


#: A cue followed by these governs what comes after it ("unclear *if* Jupiter has a core"):
#: without the cue the rest would assert what the source leaves open.
_GOVERNED = re.compile(r"\b(?:if|whether|that|how|why|what|when|which|who)\b", re.IGNORECASE)


def _governs(after_cue: str) -> bool:
    return _GOVERNED.search(after_cue) is not None


def _touches(own: set[str], clause: str) -> bool:
    """Does the cue clause share two content words with a statement, or speak of it by the
    unknowns rule? Only a clause that shares less is about something else: "It is still
    unclear if Jupiter has a core of solid material" stays for "Jupiter is a planet with a
    solid surface"."""
    shared = own & set(content_stems(UNKNOWN_CUE.sub(" ", clause)))
    return len(shared) >= _TOUCHING or speaks_of(own, clause)


def reread_without_unknowns(
    scorer: PairScorer, items: list[Item]
) -> list[tuple[StageScore, dict[str, Any]] | None]:
    """For each :data:`Item`: the NLI score and signals after the unknown-free reading, or
    None (no such clause in a window read, or no contradiction worth discounting)."""
    return reread_windows(scorer, items, without_unknowns, "unknown_free")
