"""The polarity reading: a negated claim read again in its positive form.

The rewrite is pure text; the combination is arithmetic on the readings given.
The scorer in the pass tests is scripted (premise, hypothesis -> probabilities):
what is tested is which pairs the pass reads and how it combines them, not a model
(the shipped model's behaviour on such claims is in the hard-case files).
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from provgraph.verification.polarity import polarity_readings, positive_form, reread_negated
from provgraph.verification.report import Evidence, StageScore
from tests.verification.scripted_scorer import ScriptedScorer


@pytest.mark.parametrize(
    ("claim", "positive"),
    [
        ("The drug did not reduce blood pressure.", "The drug did reduce blood pressure."),
        ("The park has never charged an entry fee.", "The park has charged an entry fee."),
        ("The airline no longer flies to Lisbon.", "The airline flies to Lisbon."),
        ("The rocket failed to reach orbit.", "The rocket did reach orbit."),
        ("The minister declined to comment.", "The minister did comment."),
        ("The study found no link to cancer.", "The study found some link to cancer."),
        ("The bill passed without any opposition.", "The bill passed with some opposition."),
        ("The device isn't waterproof.", "The device is waterproof."),
        ("Patients cannot use the drug at home.", "Patients can use the drug at home."),
        ("No one was hurt in the fire.", "Someone was hurt in the fire."),
        ("Not all of the samples contained it.", "All of the samples contained it."),
        ("The device isn’t waterproof.", "The device is waterproof."),
    ],
)
def test_one_negation_is_removed(claim: str, positive: str) -> None:
    assert positive_form(claim) == positive


@pytest.mark.parametrize(
    "claim",
    [
        "The drug reduced blood pressure.",  # nothing to flip
        "The drug did not reduce pain and did not lower blood pressure.",  # two negations
        "Most buyers choose on speed rather than price.",  # contrastive, not a negation
        "The fund returned not only 5% but also a dividend.",  # a fixed phrase
        "It rose by no more than 3%.",  # a quantity bound
        "Without doubt the drug works.",  # a fixed phrase, not a negation
    ],
)
def test_no_single_negation_means_no_rewrite(claim: str) -> None:
    assert positive_form(claim) is None


def test_a_contradiction_of_both_forms_is_discounted() -> None:
    # the negation bias: the claim and its positive form both read as contradicted
    _e, biased = polarity_readings(0.06, 0.94, 0.66)
    # a real contradiction: the positive form is not contradicted
    _e, real = polarity_readings(0.02, 0.97, 0.03)
    assert biased == pytest.approx(0.94 * (1 - 0.66))
    assert biased < 0.5 < real
    assert real == pytest.approx(0.97 * 0.97)


def test_a_contradicted_positive_form_raises_the_entailment_only_with_the_claims_own() -> None:
    entailment, _c = polarity_readings(0.06, 0.94, 0.66)
    assert entailment == pytest.approx(math.sqrt(0.06 * 0.66))
    # a positive form that is not contradicted never lowers the claim's own reading
    assert polarity_readings(0.7, 0.1, 0.05)[0] == pytest.approx(0.7)
    # nor does a contradicted one decide alone
    assert polarity_readings(0.0, 0.9, 1.0)[0] == pytest.approx(0.0)


WINDOW = "Admission to the museum has been free since it opened in 1921."
OTHER = "The museum shop charges for its guided tours."
SOURCE = f"{WINDOW} {OTHER}"


def _nli(max_window: tuple[int, int]) -> StageScore:
    evidence = Evidence(source_key="d_1", start=0, end=len(WINDOW), text=WINDOW)
    raw = {
        "entailment": 0.06,
        "max_contradiction_start": max_window[0],
        "max_contradiction_end": max_window[1],
    }
    return StageScore(stage="nli", score=0.06, raw=raw, evidence=evidence)


def _signals() -> dict[str, Any]:
    return {"nli_entailment": 0.06, "nli_contradiction": 0.94, "nli_max_contradiction": 0.95}


def test_the_pass_reads_the_positive_form_against_both_windows() -> None:
    claim = "The museum has never charged an entrance fee."
    positive = "The museum has charged an entrance fee."
    other = (len(WINDOW) + 1, len(SOURCE))
    scorer = ScriptedScorer({(WINDOW, positive): (0.17, 0.66), (OTHER, positive): (0.30, 0.40)})
    [done] = reread_negated(scorer, [(claim, SOURCE, _nli(other), _signals())])
    assert done is not None
    score, signals = done
    assert scorer.read == [(WINDOW, positive), (OTHER, positive)]
    assert signals["nli_entailment"] == pytest.approx(math.sqrt(0.06 * 0.66))
    assert signals["nli_contradiction"] == pytest.approx(0.94 * (1 - 0.66))
    # the worst window's contradiction, discounted by that window's reading of the positive form
    assert signals["nli_max_contradiction"] == pytest.approx(0.95 * (1 - 0.40))
    assert score.score == signals["nli_entailment"]
    assert score.raw["positive_form"] == positive


def test_claims_without_one_negation_are_left_alone() -> None:
    scorer = ScriptedScorer({})
    item = ("The museum charges an entrance fee.", SOURCE, _nli((0, len(WINDOW))), _signals())
    assert reread_negated(scorer, [item]) == [None]
    assert scorer.read == []


def test_a_model_without_a_contradiction_column_leaves_the_scores() -> None:
    claim = "The museum has never charged an entrance fee."
    positive = "The museum has charged an entrance fee."

    class NoContradiction(ScriptedScorer):
        def predict_pairs(self, pairs: list[tuple[str, str]]) -> list[tuple[float, float | None]]:
            return [(0.5, None) for _ in pairs]

    item = (claim, SOURCE, _nli((0, len(WINDOW))), _signals())
    assert reread_negated(NoContradiction({}), [item]) == [None]
    assert positive_form(claim) == positive


def test_an_opposite_in_the_window_is_read_as_a_contradicted_positive_form() -> None:
    """The model reads "illegal" as entailing "legal" (0.53 / 0.11 on the shipped model):
    the antonym rule gives the positive form the contradiction it misses."""
    claim = "The contract was not legal."
    positive = "The contract was legal."
    window = "The committee found the contract illegal under the 2019 statute."
    nli = StageScore(
        stage="nli",
        score=0.1,
        raw={},
        evidence=Evidence(source_key="d_1", start=0, end=len(window), text=window),
    )
    scorer = ScriptedScorer({(window, positive): (0.53, 0.11)})
    [done] = reread_negated(scorer, [(claim, window, nli, _signals())])
    assert done is not None
    _score, signals = done
    assert done[0].raw["positive_contradiction"] == pytest.approx(0.9)
    assert signals["nli_contradiction"] == pytest.approx(0.94 * (1 - 0.9))
