"""Near bounds ("just over"), fronted alternatives, antonyms of a reported result, multiples
and comparisons of a paraphrased other side, years of another clause, "did not measure",
"set foot in", and the support of a source silent on the claim's predicate (session 24)."""

from __future__ import annotations

import math

import pytest

from provgraph.verification.alternatives import alternatives_swap, preferences
from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.bounds import bounded
from provgraph.verification.consistency import check_consistency
from provgraph.verification.degrees import plain_superlatives
from provgraph.verification.negation import negation_conflict
from provgraph.verification.predicate import predicate_words
from provgraph.verification.unknowns import unknown_statement
from provgraph.verification.verdicts import (
    SILENT_PREDICATE_SUPPORT,
    FusionWeights,
    Signals,
    fuse,
    silent_on_predicate,
)


@pytest.mark.parametrize(
    ("text", "interval"),
    [
        ("just over 3", (3.0, 3.3)),
        ("slightly more than 50", (50.0, 55.0)),
        ("just under 3", (2.7, 3.0)),
        ("a little below 200", (180.0, 200.0)),
        # the open bounds stay open
        ("well over 3", (3.0, math.inf)),
        ("more than 3", (3.0, math.inf)),
    ],
)
def test_near_bounds_are_close_to_the_value(text: str, interval: tuple[float, float]) -> None:
    start = text.rindex(" ") + 1
    low, high = bounded(text, start, len(text), float(text[start:]), 0.01)
    assert (round(low, 6), round(high, 6)) == pytest.approx(interval)


@pytest.mark.parametrize(
    ("claim", "source", "conflict"),
    [
        ("The trail is about 8 kilometres long.", "The trail runs for just over three miles.", 1),
        ("The trail is about 5 kilometres long.", "The trail runs for just over three miles.", 0),
    ],
)
def test_a_near_bound_is_checked_against_another_unit(
    claim: str, source: str, conflict: int
) -> None:
    result = check_consistency(claim, source, source)
    assert len(result.anchored_mismatches) == conflict
    assert bool(result.agreements) is not bool(conflict)


def test_a_fronted_alternative_is_read() -> None:
    [fronted] = preferences("Rather than fix the ageing bridge, the city built a new crossing.")
    assert "fix" in fronted.aside_text and "crossing" in fronted.asserted_text
    source = "Rather than fix the ageing bridge, the city decided to build a new crossing."
    assert alternatives_swap(
        "The city repaired the old bridge instead of building a new one.", source
    )
    # the same choice, stated in the other order, is no conflict
    assert not alternatives_swap(
        "The city built a new bridge instead of repairing the old one.", source
    )
    # ", not" never opens a sentence
    assert preferences("Not the bridge, the city said.") == []


@pytest.mark.parametrize(
    ("claim", "source", "conflict"),
    [
        # a result reported with another verb, the year shared
        (
            "The airline reported a profit for 2022.",
            "The airline posted a loss of $300 million for 2022.",
            True,
        ),
        ("The club gained members in 2021.", "The club lost about 200 members during 2021.", True),
        # the opposite is of another year's clause
        (
            "The club gained members in 2021.",
            "The club lost members in 2019 but recovered strongly in 2021.",
            False,
        ),
        # a multiple is a comparative; the comparison's other side is named otherwise
        (
            "The new road is narrower than the old one.",
            "The new road is twice as wide as the one it replaced.",
            True,
        ),
        (
            "The new road is wider than the old one.",
            "The new road is twice as wide as the one it replaced.",
            False,
        ),
        (
            "The new tunnel is shorter than the old one.",
            "The new tunnel is three times as long as the one it replaces.",
            True,
        ),
        # the converse is the same comparison
        ("Trains are cheaper than planes.", "Planes are more expensive than trains.", False),
    ],
)
def test_antonyms_of_results_and_comparisons(claim: str, source: str, conflict: bool) -> None:
    assert (antonym_conflict(claim, source) is not None) is conflict


def test_degrees_read_in_their_plain_form() -> None:
    assert plain_superlatives("twice as wide as the old one") == "more wide than the old one"
    assert plain_superlatives("half as heavy as before") == "less heavy than before"
    # "narrower" also spells a noun, but before "than" it is the adjective's degree
    assert plain_superlatives("narrower than the road") == "more narrow than the road"
    assert plain_superlatives("a narrower") == "a narrower"


def test_did_not_measure_leaves_a_part_unknown() -> None:
    source = "The trial found the vaccine to be safe, but it did not measure infection rates."
    assert unknown_statement("The vaccine is safe and prevents infection.", source)
    assert unknown_statement("The vaccine is safe.", source) is None


def test_never_set_foot_in_denies_a_visit() -> None:
    source = "Despite writing about Kyoto at length, the author never set foot in Japan."
    assert negation_conflict("The author visited Japan several times.", source) is not None
    assert negation_conflict("The author never visited Japan.", source) is None
    # "ruled out" stays the negation cue it is
    minister = "The minister said there would be no tax increase this year."
    assert negation_conflict("The minister ruled out a tax increase.", minister) is None


def test_months_are_times_only_for_the_support_test() -> None:
    claim = "The river froze over in January 1963."
    assert predicate_words(claim) is None  # the contradiction test: a month may be what differs
    assert predicate_words(claim, times_apart=True) == ["froze"]
    # a name is what a silent source does not speak of (session 26); the contradiction
    # test still never judges one
    assert predicate_words("The store opened in Ohio.", times_apart=True) == ["opened", "ohio"]
    assert predicate_words("The store opened in Ohio.") is None


def _silent(**changes: object) -> Signals:
    base: dict[str, object] = {
        "tfidf": 0.41,
        "recall": 0.6,
        "embedding": 0.47,
        "nli_entailment": 0.25,
        "nli_contradiction": 0.49,
        "nli_max_contradiction": 0.49,
        "consistency_agreement": 1.0,
        "predicate_unspoken": True,
    }
    return Signals(**{**base, **changes})  # type: ignore[arg-type]


def test_support_of_a_source_silent_on_the_predicate_is_capped() -> None:
    support, _contradiction = fuse(_silent(), FusionWeights())
    assert support is not None and support <= SILENT_PREDICATE_SUPPORT
    assert silent_on_predicate(_silent())
    # the source speaks of it, NLI entails it, it means it, or a quantity is confirmed
    assert not silent_on_predicate(_silent(predicate_unspoken=False))
    assert not silent_on_predicate(_silent(nli_entailment=0.7))
    assert not silent_on_predicate(_silent(embedding=0.72))
    assert not silent_on_predicate(_silent(consistency_quantity_agreed=True))
    assert not silent_on_predicate(_silent(consistency_paraphrased=True))
    uncapped, _ = fuse(_silent(predicate_unspoken=False), FusionWeights())
    assert uncapped is not None and uncapped > SILENT_PREDICATE_SUPPORT
