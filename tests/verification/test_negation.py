"""Scope-aware negation: paraphrased cues, contrastive phrases, the predicate negated."""

from __future__ import annotations

import pytest

from provgraph.verification.consistency import check_consistency
from provgraph.verification.negation import negated_scopes, negation_conflict
from provgraph.verification.wordsets import stem


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Most buyers choose a supplier for delivery speed rather than price.",
            "Buyers mostly choose suppliers for delivery speed (63%), not price (22%).",
        ),
        (
            "The council repaired the old bridge instead of building a new one.",
            "The council did not build a new bridge; it repaired the old one.",
        ),
        (
            "The vaccine reduced hospital admissions.",
            "The vaccine did not prevent mild infections, but it reduced hospital admissions.",
        ),
        (
            "The study did not find a link between coffee and heart disease.",
            "The study found no link between coffee and heart disease.",
        ),
        ("Not only sales but also profits rose.", "Sales and profits rose."),
    ],
)
def test_no_mismatch(claim: str, source: str) -> None:
    assert negation_conflict(claim, source) is None
    assert not check_consistency(claim, source, source).negation_mismatch


@pytest.mark.parametrize(
    ("claim", "source", "side"),
    [
        (
            "The drug reduced mortality in the trial.",
            "The drug did not reduce mortality in the trial.",
            "source",
        ),
        (
            "The airline no longer flies to Lisbon.",
            "The airline flies to Lisbon and Porto.",
            "claim",
        ),
        (
            "The novelist never won the Booker Prize.",
            "The novelist won the Booker Prize in 1998.",
            "claim",
        ),
        (
            "The trial showed the drug lowers blood pressure.",
            "The trial failed to show the drug lowers blood pressure.",
            "source",
        ),
        (
            "The policy increased applications.",
            "The policy didn't increase applications.",
            "source",
        ),
    ],
)
def test_negated_predicate_asserted_on_the_other_side(claim: str, source: str, side: str) -> None:
    finding = negation_conflict(claim, source)
    assert finding is not None and finding.side == side
    result = check_consistency(claim, source, source)
    assert result.negation_mismatch and result.penalty == pytest.approx(0.3)
    assert result.details["negated_predicate"].startswith(side)


def test_scope_stops_at_the_clause() -> None:
    scopes = negated_scopes("It did not rain, but the river flooded the town.")
    assert [scope for _cue, scope in scopes] == [("rain",)]


def test_unrelated_sentence_gives_no_signal() -> None:
    assert negation_conflict("The bank did not raise rates.", "Penguins cannot fly.") is None


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Drinking coffee is linked to a higher risk of heart disease.",
            "There was no association between coffee consumption and heart disease risk.",
        ),
        (
            "Screen time is correlated with poor sleep in teenagers.",
            "Screen time was not associated with poor sleep in the teenagers surveyed.",
        ),
    ],
)
def test_a_study_finding_no_association_denies_a_link(claim: str, source: str) -> None:
    """'associated', 'correlated', 'linked', 'tied' and their nouns are one predicate."""
    finding = negation_conflict(claim, source)
    assert finding is not None and finding.side == "source"


def test_a_null_finding_agrees_with_a_claim_of_no_link() -> None:
    claim = "Studies found no link between the sweetener and cancer."
    source = "Large studies found no association between the sweetener and cancer."
    assert negation_conflict(claim, source) is None


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Statins reduce the risk of dementia in older adults.",
            "Statin use was not associated with a lower risk of dementia in older adults.",
        ),
        (
            "Night shifts raise the risk of diabetes.",
            "Night shifts were not linked to a higher risk of diabetes.",
        ),
    ],
)
def test_an_association_with_a_direction_is_the_effect_it_reports(claim: str, source: str) -> None:
    (scope,) = [s for _cue, s in negated_scopes(source)]
    assert scope[0] in {stem("increase"), stem("decrease")}  # the effect, not "associated"
    finding = negation_conflict(claim, source)
    assert finding is not None and finding.side == "source"


def test_an_association_in_both_directions_agrees() -> None:
    claim = "The diet reduces blood pressure."
    assert negation_conflict(claim, "The diet was associated with lower blood pressure.") is None


def test_a_typographic_apostrophe_negates_like_a_plain_one() -> None:
    claim = (
        "A spouse married under the Marriage Act could not also have a lawful customary marriage."
    )
    source = (
        "If he is married under the Marriage Act, he can’t marry under the Customary Act"
        " as this won’t be lawfully recognised."
    )
    ((_cue, scope),) = negated_scopes("He can’t marry again.")
    assert scope == (stem("marry"),)
    assert not check_consistency(claim, source, source).negation_mismatch


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # a hedged negation states a possibility, not a denial
        (
            "Ibuprofen may not be effective against the virus.",
            "Ibuprofen is effective against the virus in some trials.",
        ),
        ("The vaccine might not reduce transmission.", "The vaccine does reduce transmission."),
        # a conditional clause asserts nothing of its predicate
        (
            "The contract is not legally binding.",
            "If the contract is legally binding, both parties must sign it.",
        ),
    ],
)
def test_a_hedged_negation_or_a_conditional_is_no_conflict(claim: str, source: str) -> None:
    assert negation_conflict(claim, source) is None


def test_the_unhedged_negation_still_conflicts() -> None:
    finding = negation_conflict(
        "Ibuprofen is not effective against the virus.",
        "Ibuprofen is effective against the virus in some trials.",
    )
    assert finding is not None and finding.side == "claim"


def test_a_negated_quantifier_denies_no_predicate() -> None:
    claim = "Not all of the tested samples contained the bacteria."
    assert (
        negation_conflict(claim, "The bacteria were found in 14 of the 20 samples tested.") is None
    )
    none_of = "None of the tested samples contained the bacteria."
    assert negation_conflict(none_of, "The bacteria were found in 14 of the 20 samples tested.")


def test_a_negated_claim_names_the_sources_negated_thing_only_as_its_subject() -> None:
    source = "Public endpoints can be called without authentication."
    assert negation_conflict("Authentication is not required for public endpoints.", source) is None
    assert negation_conflict("Authentication is required for public endpoints.", source)


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "There is evidence that pets play a role in spreading the virus.",
            "There is currently no evidence that pets play a substantial role in spreading"
            " the virus.",
        ),
        (
            "The drug reduced blood pressure.",
            "The drug did not significantly reduce blood pressure compared with placebo.",
        ),
        (
            "There is evidence that the diet prevents migraines.",
            "The trial found no clear evidence that the diet prevents migraines.",
        ),
    ],
)
def test_a_null_result_with_a_degree_word_denies_the_plain_claim(claim: str, source: str) -> None:
    finding = negation_conflict(claim, source)
    assert finding is not None and finding.side == "source"
    assert not {stem("significant"), stem("substantial"), stem("clear")} & set(finding.predicate)


def test_a_small_degree_is_allowed_by_the_denial_of_a_large_one() -> None:
    source = "There is no evidence that pets play a substantial role in spreading the virus."
    assert negation_conflict("Pets play a minor role in spreading the virus.", source) is None


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Vitamin D supplements reduced the risk of infection.",
            "In the trial, vitamin D supplementation did not reduce the rate of respiratory"
            " infection compared with placebo.",
        ),
        (
            "The vaccine lowered the number of hospital admissions.",
            "The vaccine did not lower hospital admissions relative to the unvaccinated group.",
        ),
    ],
)
def test_a_measure_or_a_baseline_in_the_negated_scope_still_denies_the_claim(
    claim: str, source: str
) -> None:
    finding = negation_conflict(claim, source)
    assert finding is not None and finding.side == "source"
    assert not {stem("rate"), stem("placebo"), stem("group")} & set(finding.predicate)


def test_a_scope_without_its_measure_still_needs_the_claims_words() -> None:
    source = "The drug did not reduce the risk of stroke compared with aspirin."
    assert negation_conflict("The drug reduced the rate of heart attacks.", source) is None
