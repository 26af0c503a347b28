"""NLI's contradiction of a predicate the source never speaks of (:mod:`.predicate`)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provgraph.verification.predicate import off_predicate, predicate_words
from provgraph.verification.report import Evidence, StageScore
from provgraph.verification.verdicts import Signals, Thresholds, Verdict, decide


def _nli(source: str, best: tuple[int, int], worst: tuple[int, int] | None = None) -> StageScore:
    raw: dict[str, float | int | str | bool | list[str] | None] = {}
    if worst is not None:
        raw = {"max_contradiction_start": worst[0], "max_contradiction_end": worst[1]}
    evidence = Evidence(source_key="d_1", start=best[0], end=best[1], text=source[slice(*best)])
    return StageScore(stage="nli", score=0.1, raw=raw, evidence=evidence)


def test_the_predicate_is_the_claim_after_its_subject_less_the_subjects_words() -> None:
    assert predicate_words("The treaty banned chemical weapons.") == [
        "banned",
        "chemical",
        "weapons",
    ]
    assert predicate_words("The farm keeps 250 cows.") == ["keeps", "cows"]  # numbers are no words
    assert predicate_words("The factory is in Ohio.") is None  # a name: a swap is a contradiction
    assert predicate_words("The mill opened. It closed in 1990.") is None  # one sentence only


@pytest.mark.parametrize(
    ("claim", "source", "off"),
    [
        ("The farm keeps cows.", "The farm grows barley and wheat.", True),
        ("The farm keeps cows.", "The farm keeps sheep and goats.", False),  # "keeps"
        ("The shop is permanently closed.", "The shop is open every day.", False),  # an opposite
        ("The farm is in Ohio.", "The farm grows barley.", False),  # a name: not judged
    ],
)
def test_off_predicate_when_no_window_speaks_of_it(claim: str, source: str, off: bool) -> None:
    assert off_predicate(claim, source, _nli(source, (0, len(source)))) is off


def test_the_most_contradicting_window_counts_too() -> None:
    source = "The farm grows barley. Its cows were sold in 2019."
    split = source.index("Its")
    nli = _nli(source, (0, split), worst=(split, len(source)))
    assert not off_predicate("The farm keeps cows.", source, nli)
    assert off_predicate("The farm keeps cows.", source, _nli(source, (0, split)))


def test_an_off_predicate_contradiction_is_unsupported_unless_a_conflict_is_explicit() -> None:
    off = Signals(
        tfidf=0.4,
        recall=0.6,
        embedding=0.7,
        nli_entailment=0.02,
        nli_contradiction=0.9,
        nli_contradiction_off_predicate=True,
    )
    assert decide(0.15, 0.85, Thresholds(), has_text=True, signals=off)[0] == Verdict.UNSUPPORTED
    explicit = replace(off, consistency_anchored=True)
    verdict, _ = decide(0.15, 0.85, Thresholds(), has_text=True, signals=explicit)
    assert verdict == Verdict.CONTRADICTED


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("Ab ,.'-the farm keeps 12 Ohio was")), max_size=80))
def test_reading_a_predicate_never_raises_and_yields_lower_case_words(claim: str) -> None:
    words = predicate_words(claim)
    assert words is None or (words and all(w == w.lower() for w in words))
