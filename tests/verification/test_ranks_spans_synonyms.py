"""Session 20: a superlative at another rank, durations spanned by two source dates,
comparisons of one thing in two years, synonymous verbs in the predicate test, events in
the wrong order, a set-aside alternative asserted, superlatives as adjectives for
opposites, short participles with a named agent, and an "all" the source limits."""

from __future__ import annotations

import pytest

from provgraph.verification.agents import agent_conflict
from provgraph.verification.alternatives import alternatives_swap
from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.consistency import check_consistency
from provgraph.verification.degrees import plain_superlatives
from provgraph.verification.event_order import order_conflict
from provgraph.verification.predicate import predicate_words
from provgraph.verification.superlative_ranks import rank_conflict
from provgraph.verification.synonyms import same_verb
from provgraph.verification.universals import universal_limit
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


@pytest.mark.parametrize(
    ("claim", "source", "conflict"),
    [
        (
            "The minister resigned after the report was published.",
            "The minister resigned in June; the report was published in September.",
            True,
        ),
        (
            "The minister resigned before the report was published.",
            "The minister resigned in June; the report was published in September.",
            False,
        ),
        (
            "The law was passed before the election.",
            "The law was passed in March 2019, two months after the election in January 2019.",
            True,
        ),
        # a date of its own on the claim's other side: the date checks' business
        ("The band split up after 2010.", "The band split up in 2008.", False),
    ],
)
def test_two_events_in_the_order_the_claim_denies(claim: str, source: str, conflict: bool) -> None:
    assert (order_conflict(claim, source) is not None) is conflict


def test_a_claim_naming_the_alternative_the_source_sets_aside() -> None:
    source = "The conference took place in Barcelona, not in Madrid as originally planned."
    assert alternatives_swap("The conference took place in Madrid.", source) is not None
    assert alternatives_swap("The conference took place in Barcelona.", source) is None


def test_superlatives_read_as_their_adjective_for_opposites() -> None:
    assert (
        plain_superlatives("the driest summer, the highest level")
        == "the dry summer, the high level"
    )
    assert (
        plain_superlatives("an honest interest in the forest") == "an honest interest in the forest"
    )
    found = antonym_conflict(
        "The summer was unusually wet.",
        "Meteorologists said it was the driest summer in the region since records began.",
    )
    assert found is not None and (found.claim_word, found.source_word) == ("wet", "dry")


def test_a_short_participle_with_a_named_agent() -> None:
    found = agent_conflict(
        "The study was led by researchers at Harvard.",
        "The study, led by researchers at Stanford, included data from Harvard's hospitals.",
    )
    assert found is not None and found.verb == "led"


@pytest.mark.parametrize(
    ("claim", "source", "limit"),
    [
        (
            "The update fixed the battery drain on all devices.",
            "The update fixed the battery drain on most devices, but not on older tablets.",
            "most devices",
        ),
        (
            "The law applies to all citizens.",
            "The law applies to all citizens except diplomats.",
            "except",
        ),
        ("The museum is open every day.", "The museum is open every day except Monday.", "except"),
        (
            "All participants completed the survey.",
            "Most participants completed the survey.",
            "Most participants",
        ),
    ],
)
def test_a_universal_the_source_limits(claim: str, source: str, limit: str) -> None:
    found = universal_limit(claim, source)
    assert found is not None and found.limit == limit


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The law applies to all citizens.", "The law applies to all citizens."),
        (
            "All flights were cancelled on Monday.",
            "All flights were cancelled on Monday because of the strike.",
        ),
        ("The team practised all year.", "The team practised most of the year."),
        ("Some devices got the fix.", "The update fixed most devices."),
    ],
)
def test_no_universal_limit(claim: str, source: str) -> None:
    assert universal_limit(claim, source) is None


def test_a_negated_universal_claims_no_whole() -> None:
    source = "Most gay men speak in the same range as other men."
    assert universal_limit("However, not all gay men speak with a higher voice.", source) is None
