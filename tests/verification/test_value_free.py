"""The value-free reading: a contradiction re-read with the claim's unstated values left open.

The rewrite and the consistency spans are pure; the pass is tested with a
scripted scorer (premise, hypothesis -> probabilities): which pairs it reads and
what it records. The fused scores use the shipped combiner (package data, no
model). The shipped model's behaviour on such claims is in the hard-case files
(``same-other-dimension-same-unit``, ``num-unrelated-number``) and
``bench/data/value_probe_s11.jsonl``.
"""

from __future__ import annotations

from typing import Any

import pytest

from provgraph.verification.consistency import check_consistency
from provgraph.verification.report import Evidence, StageScore
from provgraph.verification.signals import Signals
from provgraph.verification.valuefree import reread_without_values, value_free_form
from provgraph.verification.verdicts import FusionWeights, fuse
from tests.verification.scripted_scorer import ScriptedScorer


def _span(claim: str, surface: str) -> tuple[tuple[int, int], ...]:
    start = claim.index(surface)
    return ((start, start + len(surface)),)


@pytest.mark.parametrize(
    ("claim", "surface", "opened"),
    [
        ("The library holds 2 million books.", "2 million", "The library holds books."),
        ("The bridge is 300 metres long.", "300 metres", "The bridge is some metres long."),
        ("Turnout was 64% in May.", "64%", "Turnout was some percent in May."),
        ("The firm raised $1.5 million.", "$1.5 million", "The firm raised some money."),
        (
            "Seven percent of voters stayed home.",
            "Seven percent",
            "Some percent of voters stayed home.",
        ),
        ("The school has 1,200 pupils.", "1,200", "The school has pupils."),
    ],
)
def test_the_value_is_left_open(claim: str, surface: str, opened: str) -> None:
    assert value_free_form(claim, _span(claim, surface)) == opened


@pytest.mark.parametrize(
    ("claim", "date", "opened"),
    [
        ("The bank was founded in 1990.", "1990", "The bank was founded."),
        (
            "The plant opened in March 2024 after delays.",
            "March 2024",
            "The plant opened after delays.",
        ),
        ("In 2019, the firm moved to Leeds.", "2019", "The firm moved to Leeds."),
        ("The band split in the late 1990s.", "1990s", "The band split."),
        ("The law took effect on 1 January 2021.", "1 January 2021", "The law took effect."),
    ],
)
def test_a_date_goes_with_its_preposition(claim: str, date: str, opened: str) -> None:
    assert value_free_form(claim, (), _span(claim, date)) == opened


def test_a_date_and_a_quantity_together() -> None:
    claim = "The firm hired 300 engineers in 2021."
    assert value_free_form(claim, _span(claim, "300"), _span(claim, "2021")) == (
        "The firm hired engineers."
    )
    # a date without a preposition is the clause's subject: not dropped
    subject = "2020 was the warmest year on record."
    assert value_free_form(subject, (), _span(subject, "2020")) is None


def test_nothing_to_open_means_no_reading() -> None:
    claim = "The crash caused 0 deaths."
    assert value_free_form(claim, _span(claim, "0")) is None  # "0" does not imply "some"
    assert value_free_form("The library holds books.", ()) is None
    # stale or overlapping spans are not guessed at
    assert value_free_form("The school has 1,200 pupils.", ((15, 20), (17, 22))) is None
    assert value_free_form("Short.", ((3, 40),)) is None


def test_consistency_names_the_values_the_source_never_states() -> None:
    claim = "The library holds 2 million books."
    unstated = check_consistency(
        claim, "The library is visited by 300,000 readers every year.", "The library …"
    )
    assert unstated.unstated_spans == _span(claim, "2 million")
    # the window has no value of the kind at all: still unstated (no penalty for it)
    turnout = "Turnout was 64% in the last election."
    no_kind = check_consistency(turnout, "The last election was held in May.", "")
    assert no_kind.unstated_spans == _span(turnout, "64%")
    assert no_kind.number_mismatches == ()
    # a value stated otherwise, or confirmed, is not unstated
    stated = check_consistency(claim, "The library holds 300,000 books.", "")
    assert stated.anchored_mismatches and stated.unstated_spans == ()
    confirmed = check_consistency(claim, "The library holds two million books.", "")
    assert confirmed.unstated_spans == ()
    # a date the window does not state, whose year is nowhere in the source
    founded = "The bank was founded in 1990."
    branches = "The bank has 300 branches and 12,000 staff across Europe."
    assert check_consistency(founded, branches, branches).unstated_date_spans == _span(
        founded, "1990"
    )
    dated = "The bank, founded in 1987, has 300 branches."
    assert check_consistency(founded, dated, dated).unstated_date_spans == ()
    # nor one the window has a comparable value for, anchored or not: the anchoring
    # misses some same-fact pairs, and their contradiction is real
    for claim_text, window in (
        # a ton of unknown kind against metric tons: the same dimension
        (
            "The submarine had a displacement of 662 tons when surfaced.",
            "She displaced nearly 265 metric tons when surfaced.",
        ),
        # a speed read as two lengths: a shared unit word
        (
            "The falcon reaches speeds of over 240 miles per hour when diving.",
            "Its diving speed can reach more than 300 km (186 miles) per hour.",
        ),
        # the same counted thing
        ("The submarine sank 42 ships.", "Victories: 18 merchant ships sunk."),
    ):
        assert check_consistency(claim_text, window, window).unstated_spans == ()
    # explicitly another measure of the same unit does not state it
    bridge = "The bridge is 300 metres long."
    high = "The bridge is 45 metres high and carries 20,000 cars a day."
    assert check_consistency(bridge, high, high).unstated_spans == _span(bridge, "300 metres")


def test_only_the_contradiction_side_reads_it() -> None:
    before = Signals(
        tfidf=0.3,
        recall=0.5,
        embedding=0.6,
        nli_entailment=0.13,
        nli_contradiction=0.70,
        nli_max_contradiction=0.70,
        consistency_penalty=0.5,
        consistency_agreement=0.0,
    )
    after = Signals(
        **{
            **before.__dict__,
            "nli_value_free_contradiction": 0.04,
            "nli_value_free_max_contradiction": 0.05,
        }
    )
    read = after.contradiction_reading()
    assert (read.nli_contradiction, read.nli_max_contradiction) == (0.04, 0.05)
    assert before.contradiction_reading() is before
    weights = FusionWeights()
    support_before, contradiction_before = fuse(before, weights)
    support_after, contradiction_after = fuse(after, weights)
    assert support_after == support_before  # a discounted contradiction lifts nothing
    assert contradiction_after < 0.5 <= contradiction_before
    # the reading never raises a contradiction
    higher = Signals(**{**before.__dict__, "nli_value_free_contradiction": 0.99})
    assert higher.contradiction_reading().nli_contradiction == 0.70


WINDOW = "The library opened in 1911 and is visited by 300,000 readers every year."
OTHER = "Its reading room seats 200."
SOURCE = f"{WINDOW} {OTHER}"
CLAIM = "The library holds 2 million books."
OPENED = "The library holds books."


def _nli(worst: tuple[int, int]) -> StageScore:
    evidence = Evidence(source_key="d_1", start=0, end=len(WINDOW), text=WINDOW)
    raw: dict[str, Any] = {
        "entailment": 0.13,
        "max_contradiction_start": worst[0],
        "max_contradiction_end": worst[1],
    }
    return StageScore(stage="nli", score=0.13, raw=raw, evidence=evidence)


def _signals(contradiction: float = 0.70) -> dict[str, Any]:
    return {
        "nli_entailment": 0.13,
        "nli_contradiction": contradiction,
        "nli_max_contradiction": contradiction,
    }


def test_the_pass_reads_the_value_free_form_against_both_windows() -> None:
    other = (len(WINDOW) + 1, len(SOURCE))
    scorer = ScriptedScorer({(WINDOW, OPENED): (0.94, 0.04), (OTHER, OPENED): (0.5, 0.2)})
    item = (CLAIM, SOURCE, _nli(other), _signals(), (_span(CLAIM, "2 million"), ()))
    [done] = reread_without_values(scorer, [item])
    assert done is not None
    score, signals = done
    assert scorer.read == [(WINDOW, OPENED), (OTHER, OPENED)]
    assert signals == {
        "nli_value_free_contradiction": 0.04,
        "nli_value_free_max_contradiction": 0.2,
    }
    assert score.score == 0.13  # entailment untouched
    assert score.raw["value_free_form"] == OPENED


def test_no_contradiction_worth_discounting_reads_nothing() -> None:
    scorer = ScriptedScorer({})
    spans = (_span(CLAIM, "2 million"), ())
    quiet = (CLAIM, SOURCE, _nli((0, len(WINDOW))), _signals(0.1), spans)
    unopened = (CLAIM, SOURCE, _nli((0, len(WINDOW))), _signals(), ((), ()))
    assert reread_without_values(scorer, [quiet, unopened]) == [None, None]
    assert scorer.read == []


def test_a_model_without_a_contradiction_column_leaves_the_scores() -> None:
    scorer = ScriptedScorer({(WINDOW, OPENED): (0.9, None)})
    item = (CLAIM, SOURCE, _nli((0, len(WINDOW))), _signals(), (_span(CLAIM, "2 million"), ()))
    assert reread_without_values(scorer, [item]) == [None]
