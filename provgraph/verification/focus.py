"""The focused NLI pass: each statement of a claim against the clauses of its evidence.

The main NLI pass scores the whole claim against evidence windows. Three
general failures of a small cross-encoder come from what it is given, not from
what it knows, and this pass, run on the best evidence window only, removes
them:

* **two-part claims** ("X is 320 km long and flows into the Baltic"): the claim
  is split into its statements (:mod:`~provgraph.verification.claimsplit`) and
  each is scored; the weakest statement decides the entailment (every part must
  be supported), and a statement's contradiction counts only when the evidence
  speaks of it (half of its own content words present) — a missing half is
  *unsupported*, not *contradicted*; a statement with none of its own words in
  the cited source (while another has some) is missing unless the model is sure of it;
* **scoped clauses in the evidence** ("attended the ceremony but did not give
  a speech"): each evidence sentence's own statements are extra premises, so a
  clause that states the claim is read without the clause next to it;
* **values written differently** ("$2.3 billion" / "2,300 million dollars",
  "the 1990s" / "1994"): when the consistency stage found a claim value and a
  same-subject source value that agree, the claim is read with the source's
  wording, so the model compares meaning, not number formats.

Output replaces the pair's NLI signals: the entailment is the geometric mean of
the focused reading (the weakest statement at its best premise) and the
whole-claim reading of the same window (:func:`two_readings`), the contradiction
is the focused one, with the maximum related contradiction; the raw scores keep
both readings and list the parts. Runs only when
there is something to focus on: a claim with several statements, or a
rewritten value, or an undecided single statement and an evidence sentence
with several statements.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

from provgraph.verification.claimsplit import split_statements
from provgraph.verification.nli import agreement
from provgraph.verification.report import StageScore
from provgraph.verification.sentences import split_sentences
from provgraph.verification.word_classes import is_verb, words
from provgraph.verification.wordsets import SMALL_NUMBERS, content_stems, stem

#: A statement is "spoken of" by a premise holding this share of its own content words.
RELATED_SHARE = 0.5
#: Related contradiction below this while the maximum is at or above it: the
#: contradiction is the model reading a missing statement as false (signals.py).
UNRELATED_CONTRADICTION_BELOW = 0.5
#: A statement of a split claim none of whose own words is in the cited source, while
#: another statement's are, is read as missing (this entailment) unless the model reads it as
#: entailed at :data:`UNCOVERED_TRUSTED` or above: "The vaccine is safe and 95% effective"
#: against "… found the vaccine to be 95% effective" gave "The vaccine is safe." 0.47.
UNCOVERED_ENTAILMENT = 0.05
UNCOVERED_TRUSTED = 0.5
#: Clause premises read per statement, besides the whole evidence window.
MAX_CLAUSES = 3


class PairScorer(Protocol):
    """What this pass needs of a scorer: batched ``(entailment, contradiction)`` per pair
    (:meth:`~provgraph.verification.nli.NliScorer.predict_pairs`, or the accurate
    mode's agreement of two models, :class:`~provgraph.verification.nli_refine.AgreementScorer`)."""

    def predict_pairs(self, pairs: list[tuple[str, str]]) -> list[tuple[float, float | None]]: ...


@dataclass(frozen=True)
class FocusResult:
    """NLI signals after focusing, and the per-statement detail for the report."""

    entailment: float
    contradiction: float | None
    max_contradiction: float | None
    #: the largest contradiction of a statement the premise speaks of (None: no
    #: contradiction column); below ``max_contradiction`` when the strongest
    #: "contradiction" is the model reading a missing statement as false
    related_contradiction: float | None
    parts: list[dict[str, Any]]


def two_readings(focused: float, whole: float | None) -> float:
    """The entailment of a focused pair: ``sqrt(focused × whole)`` (``focused`` alone without one).

    Why both (session 9, docs/verification.md "Two readings of a focused claim"):
    the focused reading alone (every statement must hold) ranked supported claims
    below the whole-claim reading on the dev files — a split that loses a
    statement's context, or a clause premise read too literally, sinks a supported
    claim — while the whole claim alone misses a missing part. Their geometric
    mean ranked better than either on every dev file with three different NLI
    setups (offline, on score dumps), as two models' agreement did (ADR 0015):
    it stays low when either reading is low, without letting one reading's
    failure decide alone.
    """
    return focused if whole is None else agreement(focused, whole)


def rewrite_values(claim: str, pairs: list[tuple[str, str]] | tuple[tuple[str, str], ...]) -> str:
    """``claim`` with each agreeing value written as the source writes it (first occurrence)."""
    out = claim
    for claim_surface, source_surface in pairs:
        if claim_surface and claim_surface in out:
            out = out.replace(claim_surface, source_surface, 1)
    return out


#: Number words: a statement's values, which the consistency stage compares, not what it
#: is about ("closed *two* factories" is not spoken of by "over *two* years").
_NUMBER_STEMS = frozenset(
    content_stems(
        " ".join(SMALL_NUMBERS)
        + " thirteen fifteen twenty thirty forty fifty sixty seventy eighty ninety hundred"
        " hundreds thousand thousands million millions billion billions dozen dozens"
    )
)


def _own_words(part: str, subject_words: set[str]) -> set[str]:
    words = set(content_stems(part)) - _NUMBER_STEMS
    own = words - subject_words
    return own or words


def _siblings_named_alone(
    first: str, shared: set[str], owns: list[set[str]], source: str
) -> list[int]:
    """The statements of a verb's list of objects ("serves breakfast and dinner") whose own
    words are not in the source while a sibling's are, the words they share — a verb among
    them — all there: the source names one item of the list and not the other ("serves
    breakfast from 7 am"). Such a statement is missing however surely the model entails it
    (0.95 for "serves dinner", session 38); elsewhere a confident reading may be a
    paraphrase in other words. ``first``: the first statement (for the shared verb)."""
    held = set(content_stems(source))
    verbs = {stem(w) for w in words(first) if is_verb(w)}
    if len(owns) < 2 or not shared & verbs or not shared <= held:
        return []
    named = [bool(own) and own <= held for own in owns]
    return [i for i, own in enumerate(owns) if own and not own & held and any(named)]


#: A number standing alone: not a citation mark ("[1]"), not part of a name ("COVID-19").
_DIGITS = re.compile(r"(?<![\w\[-])\d+(?:[.,]\d+)*(?![\w\]-])")
_YEAR = re.compile(r"^(?:1[0-9]{3}|20[0-9]{2})$")


def _numbers_held(part: str, source: str) -> bool:
    """Does the source hold every number of ``part``, and the part one at least, years
    aside? A value statement is spoken of by its values ("The bridge is 2 km long." by
    "The 2 km bridge"), whose other words may be none of the source's (session 38). A
    year says when, not what (on the dev files, parts holding only a year of the source
    were mostly unsupported)."""
    numbers = {n for n in _DIGITS.findall(part) if not _YEAR.match(n)}
    return bool(numbers) and numbers <= set(_DIGITS.findall(source))


def _share(words: set[str], premise: str) -> float:
    if not words:
        return 0.0
    return len(words & set(content_stems(premise))) / len(words)


def premise_clauses(window: str) -> list[str]:
    """The statements of the window's sentences that have more than one."""
    out: list[str] = []
    for sentence in split_sentences(window):
        parts = split_statements(sentence.text)
        if len(parts) > 1:
            out.extend(parts)
    return list(dict.fromkeys(out))


def plan(
    claim: str,
    window: str,
    rewrites: tuple[tuple[str, str], ...],
    entailment: float,
    decisive: float,
) -> tuple[list[str], list[str]] | None:
    """``(statements, premises)`` to score, or None when focusing cannot change anything."""
    hypothesis = rewrite_values(claim, rewrites)
    statements = split_statements(hypothesis) or [hypothesis]
    clauses = premise_clauses(window)
    if len(statements) == 1 and hypothesis == claim and (not clauses or entailment >= decisive):
        return None
    return statements, [window, *clauses]


def _selection(statements: list[str], premises: list[str]) -> tuple[set[str], list[list[str]]]:
    """The statements' shared subject words, and the premises each statement is read against."""
    window, clauses = premises[0], premises[1:]
    subject: set[str] = set(content_stems(statements[0]))
    for statement in statements[1:]:
        subject &= set(content_stems(statement))
    if len(statements) == 1:
        subject = set()
    per_part: list[list[str]] = []
    for part in statements:
        own = _own_words(part, subject)
        ranked = sorted(clauses, key=lambda c: -_share(own, c))[:MAX_CLAUSES]
        per_part.append([window, *ranked])
    return subject, per_part


def focus_jobs(statements: list[str], premises: list[str]) -> list[tuple[str, str]]:
    """The ``(premise, statement)`` pairs :func:`focus` reads (to batch a report's in one call)."""
    _subject, per_part = _selection(statements, premises)
    return [(p, part) for part, chosen in zip(statements, per_part, strict=True) for p in chosen]


def focus(
    scorer: PairScorer, statements: list[str], premises: list[str], source: str | None = None
) -> FocusResult:
    """Score each statement against the window and its best clauses; combine (weakest decides).

    ``source``: the whole cited text; a statement whose words are elsewhere in it is not
    read as missing (another part of the page may state it). Default: the window.
    """
    window = premises[0]
    subject, per_part = _selection(statements, premises)
    multi = len(statements) > 1
    jobs = focus_jobs(statements, premises)
    scores = dict(zip(jobs, scorer.predict_pairs(jobs), strict=True))
    details: list[dict[str, Any]] = []
    weakest: tuple[float, float | None] | None = None
    max_c: float | None = None
    related_c: float | None = None
    owns = [_own_words(part, subject if multi else set()) for part in statements]
    covered = [
        _share(own, source or window) > 0 or _numbers_held(part, source or window)
        for part, own in zip(statements, owns, strict=True)
    ]
    sibling_only = _siblings_named_alone(statements[0], subject, owns, source or window)
    for i, (part, chosen, own, has_words) in enumerate(
        zip(statements, per_part, owns, covered, strict=True)
    ):
        rows = [(p, *scores[(p, part)]) for p in chosen]
        best_p, best_e, best_c = max(rows, key=lambda r: r[1])
        uncovered = not has_words and any(covered) and best_e < UNCOVERED_TRUSTED
        if multi and (uncovered or i in sibling_only):
            best_e = min(best_e, UNCOVERED_ENTAILMENT)  # no word of it in the cited source
        # the window read whole, and any clause that speaks of the statement
        read = [
            c
            for p, _e, c in rows
            if c is not None and (p == window or _share(own, p) >= RELATED_SHARE)
        ]
        related = [c for p, _e, c in rows if c is not None and _share(own, p) >= RELATED_SHARE]
        if read:
            max_c = max(read) if max_c is None else max(max_c, *read)
            part_related = max(related) if related else 0.0
            related_c = part_related if related_c is None else max(related_c, part_related)
        if weakest is None or best_e < weakest[0]:
            weakest = (best_e, best_c)
        details.append({"statement": part, "entailment": best_e, "clause": best_p != window})
    assert weakest is not None
    return FocusResult(weakest[0], weakest[1], max_c, related_c, details)


#: (claim, NLI score, agreed-value rewrites, the cited source's whole text)
Item = tuple[str, StageScore, tuple[tuple[str, str], ...], str]


def _plan_of(item: Item, decisive: float) -> tuple[list[str], list[str]] | None:
    claim, nli, rewrites, _source = item
    entailment = nli.raw.get("entailment")
    if nli.evidence is None or not isinstance(entailment, float):
        return None
    return plan(claim, nli.evidence.text, rewrites, entailment, decisive)


def refocus_all(
    scorer: PairScorer, items: list[Item], decisive: float
) -> list[tuple[StageScore, dict[str, Any]] | None]:
    """:func:`refocus` for each ``(claim, nli score, rewrites)`` of a report: one ``predict``."""
    plans = [_plan_of(item, decisive) for item in items]
    jobs = [job for todo in plans if todo is not None for job in focus_jobs(*todo)]
    if jobs:
        scorer.predict_pairs(jobs)  # one batched call; refocus then reads the cache
    return [
        None if todo is None else refocus(scorer, item[1], todo, item[3])
        for item, todo in zip(items, plans, strict=True)
    ]


def refocus(
    scorer: PairScorer,
    nli: StageScore,
    todo: tuple[list[str], list[str]],
    source: str | None = None,
) -> tuple[StageScore, dict[str, Any]]:
    """The NLI stage score and signals after focusing on ``todo`` (statements, premises).

    ``nli`` is the main pass's score for the pair (its evidence = the best window);
    ``source`` the cited text (:func:`focus`).
    """
    assert nli.evidence is not None
    res = focus(scorer, *todo, source)
    max_c = res.max_contradiction
    same_window = (
        nli.raw.get("max_contradiction_start"),
        nli.raw.get("max_contradiction_end"),
    ) == (
        nli.evidence.start,
        nli.evidence.end,
    )
    whole_c = nli.raw.get("max_contradiction")
    if len(todo[0]) == 1 and not same_window and isinstance(whole_c, float) and max_c is not None:
        max_c = max(max_c, whole_c)  # another window's contradiction still stands
    raw = {
        **nli.raw,
        "focused_statements": [p["statement"] for p in res.parts],
        "focused_entailment": res.entailment,
        "focused_max_contradiction": max_c,
    }
    unrelated = (
        len(todo[0]) > 1  # one statement: the whole-claim relatedness gate decides
        and max_c is not None
        and res.related_contradiction is not None
        and res.related_contradiction < UNRELATED_CONTRADICTION_BELOW <= max_c
    )
    if unrelated and res.related_contradiction is not None and isinstance(whole_c, float):
        # a statement the evidence omits says nothing about contradiction: the support
        # features keep the whole claim's value instead of the omitted statement's
        max_c = max(res.related_contradiction, whole_c)
    whole_e = nli.raw.get("entailment")
    entailment = two_readings(res.entailment, whole_e if isinstance(whole_e, float) else None)
    signals: dict[str, Any] = {
        "nli_entailment": entailment,
        "nli_contradiction": res.contradiction,
        "nli_max_contradiction": max_c,
        "claim_statements": len(todo[0]),
        "nli_contradiction_unrelated": unrelated,
        "nli_weakest_entailment": res.entailment if len(todo[0]) > 1 else None,
    }
    return nli.model_copy(update={"score": entailment, "raw": raw}), signals
