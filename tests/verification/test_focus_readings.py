"""The focused pass's entailment: both readings of a claim, the focused one and the whole one.

The scorer here is scripted (pair -> probabilities): what is tested is how the
pass combines the readings it is given, not a model.
"""

from __future__ import annotations

import math

import pytest

from provgraph.verification.focus import plan, refocus, two_readings
from provgraph.verification.report import Evidence, StageScore

WINDOW = "The river is 320 km long. It flows into the North Sea near Hamburg."
CLAIM = "The river is 320 km long and flows into the Baltic"


class ScriptedScorer:
    """Entailment by statement text; contradiction fixed (the pass's other rules are not read)."""

    def __init__(self, entailment_by_statement: dict[str, float]) -> None:
        self.entailment_by_statement = entailment_by_statement

    def predict_pairs(self, pairs: list[tuple[str, str]]) -> list[tuple[float, float | None]]:
        return [(self._entailment(statement), 0.1) for _premise, statement in pairs]

    def _entailment(self, statement: str) -> float:
        for key, value in self.entailment_by_statement.items():
            if key in statement:
                return value
        raise AssertionError(f"unexpected statement {statement!r}")


def _main_pass(entailment: float | None) -> StageScore:
    raw = {} if entailment is None else {"entailment": entailment, "max_contradiction": 0.1}
    evidence = Evidence(source_key="d_1", start=0, end=len(WINDOW), text=WINDOW)
    return StageScore(stage="nli", score=entailment, raw=raw, evidence=evidence)


def test_a_two_part_claim_is_the_geometric_mean_of_its_weakest_part_and_the_whole() -> None:
    todo = plan(CLAIM, WINDOW, (), entailment=0.81, decisive=0.9)
    assert todo is not None and len(todo[0]) == 2
    scorer = ScriptedScorer({"320 km": 0.95, "Baltic": 0.25})
    score, signals = refocus(scorer, _main_pass(0.81), todo)
    assert signals["nli_entailment"] == pytest.approx(math.sqrt(0.25 * 0.81))
    assert score.score == signals["nli_entailment"]
    # both readings stay visible in the report's raw scores
    assert score.raw["focused_entailment"] == pytest.approx(0.25)
    assert score.raw["entailment"] == pytest.approx(0.81)
    assert signals["claim_statements"] == 2


def test_a_low_reading_on_either_side_keeps_the_entailment_low() -> None:
    assert two_readings(0.05, 0.95) < 0.25
    assert two_readings(0.95, 0.05) < 0.25
    assert two_readings(0.9, 0.9) == pytest.approx(0.9)


def test_without_a_whole_claim_reading_the_focused_one_decides() -> None:
    todo = plan(CLAIM, WINDOW, (), entailment=0.5, decisive=0.9)
    assert todo is not None
    scorer = ScriptedScorer({"320 km": 0.7, "Baltic": 0.6})
    _score, signals = refocus(scorer, _main_pass(None), todo)
    assert signals["nli_entailment"] == pytest.approx(0.6)
    assert two_readings(0.6, None) == 0.6


VACCINE_WINDOW = "Trials found the vaccine to be 95% effective at preventing illness."
VACCINE_CLAIM = "The vaccine is safe and 95% effective."


def _vaccine_pass(entailment: float) -> StageScore:
    raw = {"entailment": entailment, "max_contradiction": 0.2}
    evidence = Evidence(source_key="d_1", start=0, end=len(VACCINE_WINDOW), text=VACCINE_WINDOW)
    return StageScore(stage="nli", score=entailment, raw=raw, evidence=evidence)


@pytest.mark.parametrize(("safe", "read_as"), [(0.47, 0.05), (0.3, 0.05), (0.8, 0.8)])
def test_a_statement_with_none_of_its_words_in_the_window_is_missing_unless_entailed(
    safe: float, read_as: float
) -> None:
    todo = plan(VACCINE_CLAIM, VACCINE_WINDOW, (), entailment=0.76, decisive=0.9)
    assert todo is not None and todo[0] == ["The vaccine is safe.", "The vaccine is 95% effective."]
    scorer = ScriptedScorer({"safe": safe, "effective": 0.95})
    _score, signals = refocus(scorer, _vaccine_pass(0.76), todo)
    assert signals["nli_weakest_entailment"] == pytest.approx(read_as)


def test_a_statement_stated_elsewhere_in_the_source_is_not_missing() -> None:
    todo = plan(VACCINE_CLAIM, VACCINE_WINDOW, (), entailment=0.76, decisive=0.9)
    assert todo is not None
    source = f"{VACCINE_WINDOW} No safety concerns were found; the vaccine is safe for adults."
    scorer = ScriptedScorer({"safe": 0.3, "effective": 0.95})
    _score, signals = refocus(scorer, _vaccine_pass(0.76), todo, source)
    assert signals["nli_weakest_entailment"] == pytest.approx(0.3)
