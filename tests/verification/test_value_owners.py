"""A window value that states one of the claim's values says nothing about its others."""

from __future__ import annotations

import pytest

from provgraph.verification.consistency import check_consistency


@pytest.mark.parametrize(
    ("claim", "source", "unverified"),
    [
        (
            "The startup was founded in Berlin in 2015 and acquired by Google in 2020.",
            "The startup was founded in Berlin in 2015.",
            "2020",
        ),
        (
            "The film premiered in May 2010 and won the award in March 2012.",
            "The film premiered in May 2010 at a small festival.",
            "March 2012",
        ),
    ],
)
def test_a_value_taken_by_another_claim_value_leaves_this_one_unverified(
    claim: str, source: str, unverified: str
) -> None:
    result = check_consistency(claim, source, source)
    assert result.anchored_mismatches == (), result
    assert unverified in result.year_mismatches  # unverified: reported, never a contradiction
    assert result.penalty == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("claim", "source", "mismatched"),
    [
        # both claim values equally attached to the window's year: the mismatch stands
        ("The museum opened in 1990 and closed in 1995.", "The museum opened in 1995.", "1990"),
        # the agreeing claim value is less attached to it than the mismatched one
        (
            "The bridge opened in 1932 and was widened in 1960.",
            "The bridge was widened in 1932 and opened to traffic in 1932.",
            "1960",
        ),
    ],
)
def test_a_value_no_other_claim_value_owns_is_still_a_mismatch(
    claim: str, source: str, mismatched: str
) -> None:
    result = check_consistency(claim, source, source)
    assert mismatched in result.anchored_mismatches, result
