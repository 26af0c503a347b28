"""Null results about what a claim asserts (:mod:`provgraph.verification.null_results`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provgraph.verification.consistency import check_consistency
from provgraph.verification.null_results import null_result_conflict


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Vitamin D appears to increase COVID-19 mortality rates.",
            "In Europe, there were no correlations for both recovery and mortality rate.",
        ),
        (
            "Routine use of ibuprofen raises the mortality of patients.",
            "No differences were observed in mortality rates among patients using ibuprofen.",
        ),
        (
            "The supplement protects older adults against fractures.",
            "In older adults the supplement showed no protective effect against fractures.",
        ),
        # the claim's way for another group, the null result for the claim's
        (
            "Blood pressure also fell in the control group.",
            "After twelve weeks, blood pressure fell by 6 mmHg in the walking group, compared"
            " with no change in the control group.",
        ),
    ],
)
def test_a_null_result_in_other_words_contradicts_the_claim(claim: str, source: str) -> None:
    finding = null_result_conflict(claim, source)
    assert finding is not None and finding.side == "source" and finding.share >= 0.25
    result = check_consistency(claim, source, source)
    assert result.negation_mismatch and "negated_predicate" in result.details


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # about another outcome of the same exposure
        (
            "Green tea lowers cholesterol.",
            "The study found no association between green tea and the risk of stomach cancer.",
        ),
        # the claim's way in the same sentence, the null result for another group
        (
            "The therapy improved outcomes in children.",
            "The therapy improved outcomes in children, although no benefit was seen in adults.",
        ),
        (
            "The therapy improved outcomes in children.",
            "The therapy improved outcomes in children, although it showed no benefit on"
            " outcomes in children under two.",
        ),
        # sameness and safety are what a null result confirms
        (
            "Both groups had similar infection rates.",
            "The trial found no difference in infection rates between the two groups.",
        ),
        (
            "Ibuprofen is safe for patients with the infection.",
            "Ibuprofen use was not associated with worse outcomes in patients with the infection.",
        ),
        # a negated or hedged claim
        (
            "Vitamin D does not lower mortality.",
            "There was no association between vitamin D and mortality.",
        ),
        # a small degree, allowed by the denial of a large one
        (
            "Pets play a minor role in spreading the virus.",
            "There is no evidence that pets play a substantial role in spreading the virus.",
        ),
        # a denial that names no result
        ("The museum opened a new wing.", "The museum did not open on Mondays in winter."),
    ],
)
def test_no_conflict_where_the_null_result_is_not_about_the_claim(claim: str, source: str) -> None:
    assert null_result_conflict(claim, source) is None


_TEXT = st.text(
    alphabet=st.sampled_from(list("ab ,;.'-no not association effect evidence safe may 12")),
    max_size=100,
)


@settings(max_examples=80, deadline=None)
@given(_TEXT, _TEXT)
def test_reading_null_results_never_raises(claim: str, window: str) -> None:
    found = null_result_conflict(claim, window)
    assert found is None or 0.0 < found.share <= 1.0
