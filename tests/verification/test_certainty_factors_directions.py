"""Session 32's rules, as pure text: claims of proof against "not established", factors
("threefold", "twice as likely"), counts of an adverb's period ("twice daily"), implicit
comparisons ("less likely" with no "than"), the transitive direction verbs, the order of
"the following year", bans, capitals, and two counts of people with nothing else in common
no longer read as one fact. The shipped models on such pairs are in ``data/hard_cases_s32.jsonl``.
"""

from __future__ import annotations

import pytest

from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.certainty import certainty_conflict
from provgraph.verification.consistency import check_consistency
from provgraph.verification.directions import direction_conflict
from provgraph.verification.ended_states import ended_state
from provgraph.verification.event_order import order_conflict
from provgraph.verification.frequencies import extract_frequencies
from provgraph.verification.modified_heads import modify_other_things
from provgraph.verification.multipliers import extract_multipliers
from provgraph.verification.role_holders import role_holder_conflict
from provgraph.verification.wordsets import stem

COFFEE = (
    "Observational studies have linked regular coffee consumption with a lower risk of "
    "type 2 diabetes, although a causal effect has not been established."
)


def test_a_claim_of_proof_is_denied_by_a_source_that_says_it_is_not_established() -> None:
    found = certainty_conflict("Coffee has been proven to prevent type 2 diabetes.", COFFEE)
    assert found is not None
    assert found.claim == "has been proven to"
    assert "not been established" in found.source


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the claim asserts no proof: the unknown rule's business (unsupported)
        ("Coffee consumption prevents type 2 diabetes.", COFFEE),
        # the source's doubt is about another matter (sleep, not mood)
        (
            "Exercise has been shown to improve mood.",
            "It is unclear whether exercise improves sleep in older adults.",
        ),
        # the source settles it itself
        (
            "The drug has been proven to lower blood pressure.",
            "Three trials have shown that the drug lowers blood pressure. "
            "Its long-term effect on blood pressure has not been established.",
        ),
        # a hedged claim claims no proof
        ("Coffee may have been proven to prevent type 2 diabetes.", COFFEE),
    ],
)
def test_no_certainty_conflict(claim: str, window: str) -> None:
    assert certainty_conflict(claim, window) is None


def test_factors_read_with_their_rounding() -> None:
    [fold] = extract_multipliers("Smokers had a threefold higher risk.")
    assert (fold.kind, fold.low, fold.high) == ("multiple", 2.5, 3.5)
    [times] = extract_multipliers("Girls were 2.1 times as likely as boys to finish.")
    assert (times.low, times.high) == pytest.approx((2.05, 2.15))
    [double] = extract_multipliers("The new rule may double the cost.")
    assert (double.low, double.high) == (1.5, 2.5)


@pytest.mark.parametrize(
    "text",
    [
        "The ferry sails three times a week.",  # a frequency
        "She won the title three times in a row.",  # a count of events
        "The risk was three times lower.",  # a decrease: left unread
    ],
)
def test_no_factor(text: str) -> None:
    assert extract_multipliers(text) == []


def test_a_factor_mismatch_on_the_same_subject_is_anchored() -> None:
    source = "Smokers had a threefold higher risk."
    same = check_consistency("The risk was three times higher among smokers.", source, source)
    assert same.agreements and not same.anchored_mismatches
    other = check_consistency("The risk was ten times higher among smokers.", source, source)
    assert other.anchored_mismatches


def test_twice_daily_is_two_a_day() -> None:
    [freq] = extract_frequencies("Patients were given 0.5 g twice daily.")
    assert freq.surface == "twice daily"
    assert freq.low < 730 < freq.high
    source = "Patients were given 0.5 g twice daily."
    result = check_consistency("Patients received 500 mg twice a day.", source, source)
    assert not result.anchored_mismatches


def test_an_implicit_comparison_against_its_opposite() -> None:
    source = "Smokers are far more likely to develop lung cancer than non-smokers."
    assert direction_conflict("Smokers are less likely to develop lung cancer.", source)
    # the same way, or the other side of the comparison, or another matter: no conflict
    assert direction_conflict("Smokers are more likely to develop lung cancer.", source) is None
    assert direction_conflict("Non-smokers are less likely to develop lung cancer.", source) is None
    assert direction_conflict("Women were less likely to be hired.", source) is None


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Smoking during pregnancy lowers the risk of low birth weight.",
            "Smoking during pregnancy increases the risk of low birth weight.",
        ),
        ("The new policy boosted exports.", "The new policy reduced exports sharply."),
        (
            "Coffee drinkers had a lower risk of stroke.",
            "Coffee drinkers had an increased risk of stroke in the cohort.",
        ),
    ],
)
def test_transitive_direction_verbs_oppose(claim: str, source: str) -> None:
    assert antonym_conflict(claim, source) is not None


def test_attributive_direction_words_must_modify_the_same_thing() -> None:
    claim = "This increased efficiency allows the heart to pump more blood with each beat."
    source = "Athletes often have a lower resting heart rate than others."
    assert antonym_conflict(claim, source) is None
    assert modify_other_things(claim, "increas", source, "lower", stem)
    assert not modify_other_things(
        "a lower risk of stroke", "lower", "an increased risk of stroke", "increas", stem
    )


def test_the_following_year_dates_the_later_clause() -> None:
    source = "The war ended in 1918, and the treaty was signed the following year."
    assert order_conflict("The treaty was signed before the war ended.", source)
    assert order_conflict("The treaty was signed after the war ended.", source) is None


def test_a_ban_ends_a_sale_and_lifting_it_ends_the_ban() -> None:
    assert ended_state(
        "The pesticide is still sold in the EU.", "The pesticide was banned in the EU in 2018."
    )
    assert ended_state("The drug is still banned.", "The drug was legalised in 2020.")


def test_two_counts_of_people_with_nothing_else_in_common_are_not_one_fact() -> None:
    source = "The museum attracts 2,000 visitors a day in summer."
    result = check_consistency("The factory employs 3,000 workers.", source, source)
    assert not result.anchored_mismatches
    # beside a shared word they are: "the meeting" counted in other words
    source = "About 140 people attended the meeting."
    result = check_consistency("The meeting drew 90 residents.", source, source)
    assert result.anchored_mismatches


def test_a_capital_is_held_by_one_city_and_a_firm_named_capital_holds_nothing() -> None:
    source = "Paris is the capital of France, and Rome is the capital of Italy."
    found = role_holder_conflict("Paris is the capital of Italy.", source)
    assert found is not None and (found.claim, found.source) == ("Paris", "Rome")
    assert role_holder_conflict("Rome is the capital of Italy.", source) is None
    investors = "Glynn Capital, Intuit founder Scott Cook, and Sound Ventures all jumped in."
    claim = "New investors included Glynn Capital, Scott Cook and Sound Ventures."
    assert role_holder_conflict(claim, investors) is None
