"""A thing compared with its own past, against a source change (:mod:`.verification.trends`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provgraph.verification.consistency import check_consistency
from provgraph.verification.quantities import read_quantities
from provgraph.verification.trends import claim_trends, trend_conflict
from provgraph.verification.wordsets import content_stems

VISITORS = "This year's festival attracted 48,000 visitors, up from 41,000 last year."
STAFF = "The firm had 5,200 employees in 2023, down from 6,000 in 2020."


def test_a_value_up_or_down_from_another_is_a_change() -> None:
    (change,) = read_quantities(VISITORS).changes
    assert (change[0].surface, change[1].surface) == ("41,000", "48,000")
    (change,) = read_quantities(STAFF).changes  # the year between is not the new value
    assert (change[0].surface, change[1].surface) == ("6,000", "5,200")


def test_a_comparison_with_an_earlier_time_is_a_trend() -> None:
    (fewer,) = claim_trends("The festival drew fewer visitors than last year.")
    assert not fewer.up and fewer.what == frozenset(content_stems("visitors"))
    (higher,) = claim_trends("Revenue was higher than a year earlier.")
    assert higher.up and higher.what == frozenset(content_stems("Revenue"))  # the subject
    assert claim_trends("Revenue was not higher than in 2020.") == []
    assert claim_trends("Oslo has more parks than Bergen.") == []  # two things, not a time


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The festival drew fewer visitors than last year.", VISITORS),
        ("The firm has more employees than in 2020.", STAFF),
        (
            "Revenue was higher than a year earlier.",
            "Revenue fell from $4.1 billion to $3.2 billion.",
        ),
    ],
)
def test_a_change_the_other_way_conflicts(claim: str, source: str) -> None:
    assert trend_conflict(claim, source) is not None
    result = check_consistency(claim, source, source)
    assert result.negation_mismatch and "trend" in result.details


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The festival drew more visitors than last year.", VISITORS),
        ("The firm has fewer employees than in 2020.", STAFF),
        # a change of something else
        (
            "Revenue was higher than a year earlier.",
            "Costs fell from $4.1 billion to $3.2 billion.",
        ),
        # both ways in the source: the model decides
        (
            "Revenue was higher than a year earlier.",
            "Revenue fell from $4.1 billion to $3.2 billion in 2021. In 2022 revenue rose from "
            "$3.2 billion to $4.4 billion.",
        ),
    ],
)
def test_a_change_the_claims_way_or_of_another_thing_is_no_conflict(
    claim: str, source: str
) -> None:
    assert trend_conflict(claim, source) is None


_TEXT = st.text(
    alphabet=st.sampled_from(list("ab ,;.'-than more fewer last year up down from 12 $ in 2020")),
    max_size=100,
)


@settings(max_examples=80, deadline=None)
@given(_TEXT, _TEXT)
def test_reading_trends_never_raises(claim: str, window: str) -> None:
    found = trend_conflict(claim, window)
    assert found is None or found.claim
