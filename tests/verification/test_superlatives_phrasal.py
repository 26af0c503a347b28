"""Superlatives held by another, phrasal verbs, small-share quantifiers, copular splits."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.claimsplit import split_statements
from provgraph.verification.meaning_conflicts import meaning_conflict
from provgraph.verification.phrasal import plain_verbs
from provgraph.verification.proportions import extract_proportions
from provgraph.verification.superlatives import superlative_conflict


@pytest.mark.parametrize(
    ("claim", "source", "holder"),
    [
        (
            "Canberra is the largest city in Australia.",
            "Sydney is the largest city in Australia, while Canberra is its capital.",
            "Sydney",
        ),
        (
            "Canberra is the largest city in Australia.",
            "The largest city in Australia is Sydney.",
            "Sydney",
        ),
        (
            "Canberra is the largest city in Australia.",
            "Australia's largest city is Sydney.",
            "Sydney",
        ),
        (
            "Lyon is the region's largest city.",
            "Marseille is the largest city in the region.",
            "Marseille",
        ),
        (
            "The Nile is the longest river in the world.",
            "The Amazon is the longest river in the world, some researchers argue.",
            "Amazon",
        ),
        (
            "Tesla was the best-selling brand in Norway in 2023.",
            "Volkswagen was the best-selling brand in Norway in 2023.",
            "Volkswagen",
        ),
        # a role with one holder
        (
            "Toronto is the capital of Canada and its most populous city.",
            "Ottawa is the capital of Canada, while Toronto is its most populous city.",
            "Ottawa",
        ),
        (
            "Smith was the only survivor of the crash.",
            "Jones was the only survivor of the crash.",
            "Jones",
        ),
    ],
)
def test_a_superlative_given_to_another_holder_conflicts(
    claim: str, source: str, holder: str
) -> None:
    found = superlative_conflict(claim, source)
    assert found is not None and found.source.holder == holder
    assert meaning_conflict(claim, source).found


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the same holder, with or without its article
        (
            "The Nile is the longest river in Africa.",
            "The Nile, the longest river in Africa, flows north.",
        ),
        (
            "Mount Everest is the highest mountain in the world.",
            "Everest is the highest mountain on Earth.",
        ),
        # another scope: a year, a place
        (
            "Tesla was the best-selling brand in Norway in 2023.",
            "Volkswagen was the best-selling brand in Norway in 2022.",
        ),
        (
            "Canberra is the largest city in Australia.",
            "Sydney is the largest city in New South Wales.",
        ),
        # no longer unique, or another rank
        (
            "Canberra is the largest city in Australia.",
            "Sydney is one of the largest cities in Australia.",
        ),
        (
            "Lyon is the largest city in the region.",
            "Lyon is the region's second-largest city, after Marseille.",
        ),
        # another superlative of the same noun
        (
            "The Nile is the longest river in the world.",
            "The Amazon is the largest river in the world by volume.",
        ),
        # each holds it within its own bound
        (
            "Toronto is the capital of Ontario.",
            "Ottawa is the capital of Canada, while Toronto is the capital of Ontario.",
        ),
        ("Toronto is the capital of Ontario.", "Ottawa is the capital of Canada."),
        # no named holder in the claim
        (
            "It is the tallest building in the city.",
            "The Shard is the tallest building in the city.",
        ),
    ],
)
def test_no_superlative_conflict_without_one_holder_of_the_same_superlative(
    claim: str, source: str
) -> None:
    assert superlative_conflict(claim, source) is None


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("The board turned down the buyout offer.", "The board rejected the buyout offer."),
        ("They turned it down.", "They rejected it."),
        ("The plant was shut down in 2019.", "The plant was closed in 2019."),
        ("She stepped down as CEO.", "She resigned as CEO."),
        ("The event was called off.", "The event was cancelled."),
        ("Prices went up sharply.", "Prices rose sharply."),
        ("The firm took over its rival.", "The firm acquired its rival."),
        ("Nothing to change here.", "Nothing to change here."),
    ],
)
def test_phrasal_verbs_are_read_as_one_word_in_the_same_tense(text: str, plain: str) -> None:
    assert plain_verbs(text) == plain


def test_a_phrasal_opposite_is_an_antonym_conflict() -> None:
    found = antonym_conflict(
        "The board accepted the buyout offer.", "The board turned down the buyout offer on Tuesday."
    )
    assert found is not None and (found.claim_word, found.source_word) == ("accept", "reject")
    assert (
        antonym_conflict(
            "The board rejected the buyout offer.", "The board turned down the buyout offer."
        )
        is None
    )


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("Hardly any of the respondents trusted the app.", 0.0, 15.0),
        ("Almost no patients reported side effects.", 0.0, 10.0),
        ("Virtually all members voted in favour.", 90.0, 100.0),
    ],
)
def test_small_and_large_share_quantifiers_are_proportions(
    text: str, low: float, high: float
) -> None:
    (mention,) = extract_proportions(text)
    assert (mention.low, mention.high) == (low, high)


@pytest.mark.parametrize(
    ("sentence", "parts"),
    [
        (
            "The vaccine is safe and 95% effective.",
            ["The vaccine is safe.", "The vaccine is 95% effective."],
        ),
        (
            "The treatment was safe and well tolerated.",
            ["The treatment was safe.", "The treatment was well tolerated."],
        ),
        (
            "The mayor opened the library and cut the ribbon on the new park.",
            ["The mayor opened the library.", "The mayor cut the ribbon on the new park."],
        ),
        (
            "The bridge was closed and repaired in 2010.",
            ["The bridge was closed.", "The bridge was repaired in 2010."],
        ),
        ("The plant closed and soon reopened.", ["The plant closed.", "The plant soon reopened."]),
    ],
)
def test_copular_adjectives_ambiguous_verbs_and_shared_auxiliaries_split(
    sentence: str, parts: list[str]
) -> None:
    assert split_statements(sentence) == parts


@pytest.mark.parametrize(
    "sentence",
    [
        "The device is lighter and faster than its predecessor.",  # one comparison
        "The firm cut costs and cut 500 jobs.",  # the subject ran into the verb: no guess
        "The city is home to a port and a university.",  # a noun coordination
        "Ask a friend to help and give her time to rest.",  # an imperative: no subject
        "Wear gloves when mixing the liquid and use [4].",  # a citation is no number
    ],
)
def test_uncertain_coordinations_stay_whole(sentence: str) -> None:
    assert split_statements(sentence) == [sentence]


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=120), st.text(max_size=200))
def test_the_new_readings_never_raise(claim: str, window: str) -> None:
    superlative_conflict(claim, window)
    plain_verbs(window)
    split_statements(claim)
