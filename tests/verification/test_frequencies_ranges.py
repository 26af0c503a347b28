"""Frequencies, ranges with a scale word, counts of one, and changes re-read in source values."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provgraph.verification.changes import change_rewrite, extract_changes, judge_change
from provgraph.verification.consistency import check_consistency
from provgraph.verification.frequencies import extract_frequencies
from provgraph.verification.quantities import extract_quantities, read_quantities
from provgraph.verification.slots import Outcome
from provgraph.verification.value_comparisons import judge_value_comparisons


@pytest.mark.parametrize(
    ("text", "per_year"),
    [
        ("The committee meets four times a year.", 4.0),
        ("The committee holds quarterly meetings.", 4.0),
        ("The newsletter is published every month.", 12.0),
        ("The newsletter is published weekly on Fridays.", 52.0),
        ("The festival is held every two years.", 0.5),
        ("She visits once every three months.", 4.0),
        ("We meet every other week.", 26.0),
        ("The report is updated daily.", 365.0),
        ("The magazine is a quarterly publication.", 4.0),
    ],
)
def test_frequencies_are_events_per_year(text: str, per_year: float) -> None:
    (mention,) = extract_frequencies(text)
    assert mention.kind == "frequency"
    assert mention.low <= per_year <= mention.high


@pytest.mark.parametrize(
    "text",
    [
        "The company reported quarterly revenue of $5 billion.",  # the period a value covers
        "Annual growth slowed to 2%.",
        "Every July the town holds a fair.",  # when, not how often: the date reader's
    ],
)
def test_periods_and_calendar_names_are_no_frequency(text: str) -> None:
    assert extract_frequencies(text) == []


def test_frequencies_agree_and_conflict_as_values() -> None:
    agree = check_consistency(
        "The committee meets four times a year.",
        "The committee holds quarterly meetings.",
        "The committee holds quarterly meetings.",
    )
    assert agree.agreements and not agree.anchored_mismatches
    source = "The newsletter is published weekly on Fridays."
    conflict = check_consistency("The newsletter is published every month.", source, source)
    assert conflict.anchored_mismatches == ("every month",)


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("The repairs will cost between $2 million and $3 million.", 2e6, 3e6),
        ("The repairs will cost between $2 and $3 million.", 2e6, 3e6),
        ("The repairs will cost $2-3 million.", 2e6, 3e6),
        ("Between 2 and 3 million people live there.", 2e6, 3e6),
        ("It has 500 to 3 million users.", 500.0, 3e6),
    ],
)
def test_a_range_with_a_scale_word_is_one_range(text: str, low: float, high: float) -> None:
    (mention,) = extract_quantities(text)
    assert (mention.low, mention.high) == (low, high)


def test_a_change_from_a_to_b_is_still_two_values() -> None:
    read = read_quantities("Revenue rose from $2 million to $3 million.")
    assert len(read.mentions) == 2 and len(read.changes) == 1


@pytest.mark.parametrize(
    "text",
    ["Only one candidate applied.", "A single candidate applied.", "Just one bus runs."],
)
def test_only_one_and_a_single_are_counts_of_one(text: str) -> None:
    (mention,) = extract_quantities(text)
    assert mention.low <= 1.0 <= mention.high


@pytest.mark.parametrize(
    "text",
    [
        "Not a single candidate applied.",
        # emphasis or "one merged" inside a clause (a dev row: "two black holes" was
        # contradicted by it)
        "The holes coalesce into a single larger black hole.",
        "She won a single medal.",
    ],
)
def test_a_single_inside_a_clause_or_negated_is_no_count_of_one(text: str) -> None:
    assert extract_quantities(text) == []


def test_a_frequency_word_in_a_name_is_no_frequency() -> None:
    # a dev row: "the Guardian's Football Weekly podcast" read as 52 a year
    assert extract_frequencies("He hosts the Guardian's Football Weekly podcast.") == []


def test_an_agreeing_change_is_rewritten_in_the_source_values() -> None:
    source = read_quantities("Revenue increased from $50 million to $60 million.")
    (change,) = extract_changes("Revenue grew by 20%.")
    outcome, pair = judge_change(change, source.changes)
    assert outcome == Outcome.AGREE and pair is not None
    assert change_rewrite(change, *pair) == (
        "grew by 20%",
        "grew from $50 million to $60 million",
    )
    (wrong,) = extract_changes("Revenue grew by 50%.")
    assert judge_change(wrong, source.changes) == (Outcome.MISMATCH, None)
    result = check_consistency(
        "Revenue grew by 20%.",
        "Revenue increased from $50 million to $60 million.",
        "Revenue increased from $50 million to $60 million.",
    )
    assert ("grew by 20%", "grew from $50 million to $60 million") in result.agreed_values


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=160))
def test_reading_frequencies_and_ranges_never_raises(text: str) -> None:
    extract_frequencies(text)
    extract_quantities(text)


@pytest.mark.parametrize(
    ("claim", "source", "agrees"),
    [
        (
            "The new plant produces twice as much power as the old one.",
            "The new plant generates 800 MW, compared with 400 MW for the old plant.",
            True,
        ),
        (
            "The new plant produces three times as much power as the old one.",
            "The new plant generates 800 MW, compared with 400 MW for the old plant.",
            False,
        ),
        (
            "The tablet costs half as much as the laptop.",
            "The tablet sells for $500 and the laptop for $1,000.",
            True,
        ),
        (
            "The bus is cheaper than the train.",
            "A bus ticket costs $12, while the train fare is $30.",
            True,
        ),
        (
            "The train is cheaper than the bus.",
            "A bus ticket costs $12, while the train fare is $30.",
            False,
        ),
        (
            "Paris has more residents than Lyon.",
            "Paris has 2.1 million residents and Lyon has 0.5 million.",
            True,
        ),
        (
            "The new phone is lighter than the old one.",
            "The new phone weighs 180 g; the old one weighed 210 g.",
            True,
        ),
    ],
)
def test_a_comparison_is_judged_against_two_source_values(
    claim: str, source: str, agrees: bool
) -> None:
    judged = judge_value_comparisons(claim, source)
    assert (bool(judged.agreed), bool(judged.mismatched)) == (agrees, not agrees)
    result = check_consistency(claim, source, source)
    assert bool(result.anchored_mismatches) == (not agrees)
    assert result.agreement == (1.0 if agrees else 0.0)


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # a change, not two sides
        ("The bus is cheaper than the train.", "The bus fare rose from $2 to $3."),
        # the values' words do not tell the sides apart
        ("The bus is cheaper than the train.", "Tickets cost $12 or $30."),
        # a dimension whose direction depends on the unit, and no unit to tell it
        # (session 31: "faster" is judged by a speed or a time taken)
        ("The church is older than the castle.", "The church is 800 and the castle 650."),
        # three values: which two are compared is a guess
        (
            "The bus is cheaper than the train.",
            "The bus costs $12, the train $30 and the ferry $20.",
        ),
    ],
)
def test_no_comparison_judged_without_two_values_of_two_sides(claim: str, source: str) -> None:
    judged = judge_value_comparisons(claim, source)
    assert judged.agreed == [] and judged.mismatched == []
