"""Session 20: a superlative at another rank, durations spanned by two source dates,
comparisons of one thing in two years, and synonymous verbs in the predicate test."""

from __future__ import annotations

import pytest

from provgraph.verification.consistency import check_consistency
from provgraph.verification.predicate import predicate_words
from provgraph.verification.superlative_ranks import rank_conflict
from provgraph.verification.synonyms import same_verb
from provgraph.verification.value_comparisons import judge_value_comparisons


@pytest.mark.parametrize(
    ("claim", "source", "ranks"),
    [
        (
            "The merger created the world's largest brewer.",
            "The merger created the world's second-largest brewer after AB InBev.",
            (1, 2),
        ),
        (
            "The river is the second-longest river in the country.",
            "It is the longest river in the country, ahead of the Severn.",
            (2, 1),
        ),
    ],
)
def test_a_superlative_at_another_rank(claim: str, source: str, ranks: tuple[int, int]) -> None:
    found = rank_conflict(claim, source)
    assert found is not None and (found.claim_rank, found.source_rank) == ranks
    assert check_consistency(claim, source, source).negation_mismatch


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # another holder's rank: the claim's other words are not in that clause
        (
            "The largest city in Australia is Sydney.",
            "Melbourne is the second-largest city in Australia.",
        ),
        # "one of the largest" states no rank
        ("Brazil is one of the largest economies.", "Brazil is the ninth-largest economy."),
        # the same rank
        ("Sydney is the largest city in Australia.", "Sydney is the largest city in Australia."),
    ],
)
def test_no_rank_conflict(claim: str, source: str) -> None:
    assert rank_conflict(claim, source) is None


@pytest.mark.parametrize(
    ("claim", "source", "agrees"),
    [
        (
            "Construction of the dam took eight years.",
            "Work on the dam began in 1961 and was completed in 1969.",
            True,
        ),
        ("The festival lasted three weeks.", "The festival ran from 2 May to 23 May 2019.", True),
        (
            "Construction of the dam took five years.",
            "Work on the dam began in 1961 and was completed in 1969.",
            False,
        ),
    ],
)
def test_a_duration_spanned_by_two_source_dates(claim: str, source: str, agrees: bool) -> None:
    result = check_consistency(claim, source, source)
    assert bool(result.agreed_derived) is agrees
    if agrees:
        assert result.values_paraphrased
        # the focused pass reads the claim with the source's dates
        assert any(new.startswith("from ") for _old, new in result.agreed_values)


@pytest.mark.parametrize(("claim", "mismatched"), [("fewer", True), ("more", False)])
def test_one_thing_compared_in_two_years(claim: str, mismatched: bool) -> None:
    judged = judge_value_comparisons(
        f"The hospital treated {claim} patients in 2022 than in 2021.",
        "The hospital treated 41,000 patients in 2022, compared with 38,500 in 2021.",
    )
    assert bool(judged.mismatched) is mismatched
    assert bool(judged.agreed) is not mismatched


def test_synonymous_verbs() -> None:
    assert same_verb("started", "began")
    assert same_verb("purchased", "bought")
    assert not same_verb("started", "ended")
    assert predicate_words("The fire started in the kitchen.") == ["started", "kitchen"]
