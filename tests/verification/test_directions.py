"""Comparisons stated the other way (:mod:`provgraph.verification.directions`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provgraph.verification.consistency import check_consistency
from provgraph.verification.directions import comparisons, direction_conflict
from provgraph.verification.wordsets import stem


def test_a_comparison_is_read_as_sides_a_dimension_and_a_direction() -> None:
    (costs,) = comparisons("The ferry costs more than the bridge toll.")
    assert (costs.dimension, costs.up) == ("expensive", True)
    assert costs.left == {stem("ferry")} and stem("toll") in costs.right
    (cheaper,) = comparisons("Heating oil is cheaper than gas.")
    assert (cheaper.dimension, cheaper.up) == ("cheap", True)
    (fewer,) = comparisons("The island has fewer doctors than the mainland.")
    assert (fewer.dimension, fewer.up) == ("doctors", False)
    (to_run,) = comparisons("Heat pumps cost less to run than boilers.")
    assert (to_run.dimension, to_run.up) == ("expensive", False)  # not "less to"
    # time taken is slowness; a manner adverb is its adjective
    (longer,) = comparisons("The ferry takes longer than the bridge.")
    assert (longer.dimension, longer.up, longer.left) == ("slow", True, {stem("ferry")})
    (less_time,) = comparisons("The ferry took less time than the bridge.")
    assert (less_time.dimension, less_time.up) == ("slow", False)
    (slowly,) = comparisons("Wages rose more slowly than prices.")
    assert (slowly.dimension, slowly.up) == ("slow", True)
    # an amount between the verb and its more / less
    (grams,) = comparisons("The new model weighs 300 g less than the previous version.")
    assert (grams.dimension, grams.up) == ("heavy", False)
    (far,) = comparisons("The ferry costs far more than the bridge.")
    assert (far.dimension, far.up) == ("expensive", True)


def test_a_predecessor_is_the_previous_one() -> None:
    claim = "The new model is heavier than its predecessor."
    source = "At 1.4 kg, the new model weighs 300 g less than the previous version."
    found = direction_conflict(claim, source)
    assert found is not None
    agrees = "The new model is heavier than the earlier version."
    assert direction_conflict(claim, agrees) is None
    assert direction_conflict(claim, "The new model is lighter than its successor.") is None
    (easily,) = comparisons("Pupils read more easily than adults.")
    assert easily.dimension == "easy"


@pytest.mark.parametrize(
    "text",
    [
        "More than 80 people attended the opening.",  # a quantity, not a comparison
        "The rent is higher than $900 a month.",  # the other side is a number
        "The ferry is not cheaper than the bridge.",  # negated: possibly equal
        "The ferry is cheap and the bridge is free.",  # no "than"
    ],
)
def test_no_comparison_is_read(text: str) -> None:
    assert comparisons(text) == []


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The ferry is cheaper than the bridge.", "The ferry costs more than the bridge."),
        ("The ferry is faster than the bus.", "The ferry is slower than the bus."),
        ("The ferry uses less fuel than the bus.", "The ferry uses more fuel than the bus."),
        ("The ferry is faster than the bus.", "The ferry takes longer than the bus."),
        (
            "Pupils in Oslo read more than pupils in Bergen.",
            "Pupils in Bergen read more than pupils in Oslo.",
        ),
    ],
)
def test_the_same_comparison_the_other_way_is_a_conflict(claim: str, source: str) -> None:
    found = direction_conflict(claim, source)
    assert found is not None and found.share == 1.0
    result = check_consistency(claim, source, source)
    assert result.negation_mismatch and "comparison_direction" in result.details


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The ferry is cheaper than the bridge.", "The ferry costs less than the bridge."),
        ("The ferry is cheaper than the bridge.", "The bridge is more expensive than the ferry."),
        ("Lake Ohrid is deeper than Lake Prespa.", "Lake Prespa is shallower than Lake Ohrid."),
        ("The new pier is longer than the old pier.", "The old pier is shorter than the new pier."),
        # another comparison of the same subject
        ("The ferry is cheaper than the bridge.", "The ferry is cheaper than it was in 2010."),
        ("The ferry is cheaper than the bridge.", "The ferry is slower than the bridge."),
        # stated both ways in the source: the model decides
        (
            "The ferry is cheaper than the bridge.",
            "Off-peak, the ferry is cheaper than the bridge. At peak times the ferry costs "
            "more than the bridge.",
        ),
    ],
)
def test_agreeing_or_unrelated_comparisons_are_no_conflict(claim: str, source: str) -> None:
    assert direction_conflict(claim, source) is None


_TEXT = st.text(
    alphabet=st.sampled_from(list("ab ,;.'-than more less fewer not cheaper costs 12 $")),
    max_size=100,
)


@settings(max_examples=80, deadline=None)
@given(_TEXT, _TEXT)
def test_reading_comparisons_never_raises(claim: str, window: str) -> None:
    found = direction_conflict(claim, window)
    assert found is None or 0.0 <= found.share <= 1.0
