"""The contrapositive reading: a negated claim against a negated source sentence.

Which pairs are read is pure text; the pass's combination is tested with a scripted
scorer (premise, hypothesis -> probabilities), not a model. The shipped model on such
pairs is in the hard-case files (hard_cases_s31.jsonl).
"""

from __future__ import annotations

from typing import Any

import pytest

from provgraph.verification.contrapositive import contrapositive_pair, reread_contrapositive
from provgraph.verification.report import Evidence, StageScore
from tests.verification.scripted_scorer import ScriptedScorer

WINDOW = "The fire destroyed the warehouse, but no one was hurt."
CLAIM = "Nobody was injured in the fire."


def test_the_claims_positive_form_is_the_premise_of_the_sources() -> None:
    assert contrapositive_pair(CLAIM, WINDOW) == (
        "Somebody was injured in the fire.",
        "Someone was hurt",
    )


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # another subject denies the same thing
        ("The drug did not reduce mortality.", "The placebo did not reduce mortality."),
        # a name of the claim is not in the sentence
        ("The band has never played in Japan.", "The band has not performed in Tokyo."),
        # a hedged denial is no denial
        ("The museum does not charge for entry.", "The museum may not charge for entry."),
        # the source denies nothing
        ("Nobody was injured in the fire.", "Two firefighters were injured in the fire."),
        # the claim denies nothing
        ("Somebody was injured in the fire.", WINDOW),
        # two denials in the claim
        ("Nobody was injured and nothing was lost in the fire.", WINDOW),
    ],
)
def test_no_pair_without_one_denial_each_of_the_same_subject(claim: str, window: str) -> None:
    assert contrapositive_pair(claim, window) is None


def _nli() -> StageScore:
    evidence = Evidence(source_key="d_1", start=0, end=len(WINDOW), text=WINDOW)
    return StageScore(stage="nli", score=0.03, raw={"entailment": 0.03}, evidence=evidence)


def _signals() -> dict[str, Any]:
    return {"nli_entailment": 0.03, "nli_contradiction": 0.95, "nli_max_contradiction": 0.95}


def test_an_entailed_contrapositive_supports_and_discounts_the_contradiction() -> None:
    pair = ("Somebody was injured in the fire.", "Someone was hurt")
    scorer = ScriptedScorer({pair: (0.9, 0.02)})
    [done] = reread_contrapositive(scorer, [(CLAIM, WINDOW, _nli(), _signals())])
    assert done is not None
    score, signals = done
    assert scorer.read == [pair]
    assert signals["nli_entailment"] == pytest.approx(0.9)
    assert signals["nli_contradiction"] == pytest.approx(0.95 * 0.1)
    assert signals["nli_max_contradiction"] == pytest.approx(0.95 * 0.1)
    assert score.score == pytest.approx(0.9)
    assert score.raw["contrapositive_entailment"] == pytest.approx(0.9)


def test_a_contrapositive_the_model_does_not_entail_changes_nothing() -> None:
    pair = ("Somebody was injured in the fire.", "Someone was hurt")
    scorer = ScriptedScorer({pair: (0.3, 0.1)})
    assert reread_contrapositive(scorer, [(CLAIM, WINDOW, _nli(), _signals())]) == [None]


def test_synonymous_verbs_count_as_shared_words() -> None:
    # "hurt" / "injured" are one verb (synonyms.verb_key): the sentence shares half the words
    assert contrapositive_pair(
        "Nobody was hurt in the collision.",
        "The two cars were badly damaged, but no one was injured.",
    ) == ("Somebody was hurt in the collision.", "Someone was injured")
