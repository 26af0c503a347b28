"""Comparisons with their sides exchanged (comparatives.py): pure text, no model."""

from __future__ import annotations

import pytest

from provgraph.verification.comparatives import comparative_swap, comparisons
from provgraph.verification.consistency import check_consistency


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Norway has a higher GDP per person than Sweden.", [("norway", "high", "sweden")]),
        (
            "Lake Superior is larger than Lake Michigan.",
            [("lake superior", "large", "lake michigan")],
        ),
        (
            "In 2020, Brazil exported more coffee than Vietnam.",
            [("brazil", "more coffee", "vietnam")],
        ),
        ("Paris is better than the Rome of today.", [("paris", "good", "rome")]),
        # lower-case noun phrases: edges would be guesses without a parser
        ("The church is older than the castle.", []),
        # a comparative in another clause is not this comparison
        ("Chile grew, and exports were higher than in Peru.", []),
    ],
)
def test_comparisons_between_names_are_read(
    sentence: str, expected: list[tuple[str, str, str]]
) -> None:
    assert comparisons(sentence) == expected


def test_the_sides_exchanged_are_a_conflict() -> None:
    finding = comparative_swap(
        "Norway has a higher GDP per person than Sweden.",
        "Sweden has a higher GDP per person than Norway, according to the report.",
    )
    assert finding is not None
    assert finding.claim == ("norway", "sweden") and finding.source == ("sweden", "norway")


@pytest.mark.parametrize(
    "window",
    [
        # the same comparison, the claim's way
        "Norway has a higher GDP per person than Sweden.",
        # the converse wording says the same thing
        "Sweden has a lower GDP per person than Norway.",
        # both ways in one window (two years, say): not a conflict this rule can decide
        "In 2010 Sweden had a higher GDP per person than Norway. "
        "Today Norway has a higher GDP per person than Sweden.",
    ],
)
def test_agreeing_or_converse_comparisons_are_not_a_conflict(window: str) -> None:
    assert comparative_swap("Norway has a higher GDP per person than Sweden.", window) is None


def test_the_consistency_stage_reports_it_as_a_conflict() -> None:
    claim = "Norway has a higher GDP per person than Sweden."
    window = "Sweden has a higher GDP per person than Norway."
    result = check_consistency(claim, window, window)
    assert result.negation_mismatch
    assert result.details["roles"] == "claim norway high sweden / source sweden high norway"


def test_an_adverb_opening_the_sentence_is_not_part_of_the_name() -> None:
    assert comparisons("Today Norway has a higher GDP than Sweden.") == [
        ("norway", "high", "sweden")
    ]
    # a name whose first word is also an ordinary word is kept whole
    assert comparisons("General Motors sold more cars than Ford.") == [
        ("general motors", "more cars", "ford")
    ]
