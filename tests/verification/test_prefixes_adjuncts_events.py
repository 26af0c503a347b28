"""Session 30's rules: negation by a prefix ("non-binding", "unsafe", "inauthentic"), a
negated scope that ends at an adjunct clause of time or reason, a fronted "instead of"
whose choice is named before its infinitive, "struck down" as "overturned", and a date the
source gives only to the claim's other event."""

from __future__ import annotations

import pytest

from provgraph.verification.alternatives import alternatives_swap
from provgraph.verification.bridged_dates import spanned_by_dates
from provgraph.verification.consistency import check_consistency
from provgraph.verification.meaning_conflicts import meaning_conflict
from provgraph.verification.negation import negation_conflict
from provgraph.verification.phrasal import plain_verbs
from provgraph.verification.prefix_negation import prefix_negation_conflict
from provgraph.verification.quantities import read_quantities


@pytest.mark.parametrize(
    ("claim", "source", "side", "word"),
    [
        (
            "The agreement is legally binding.",
            "The parties signed a non-binding agreement.",
            "source",
            "non-binding",
        ),
        (
            "The painting is authentic.",
            "Experts concluded that the painting is inauthentic.",
            "source",
            "inauthentic",
        ),
        (
            "The water is safe to drink.",
            "Officials warned that the water is unsafe to drink.",
            "source",
            "unsafe",
        ),
        (
            "The water is unsafe to drink.",
            "Officials said the water is safe to drink.",
            "claim",
            "unsafe",
        ),
        ("The ruling was valid.", "The court said the ruling was invalid.", "source", "invalid"),
        ("The loan was paid back.", "The loan remains unpaid.", "source", "unpaid"),
        (
            "The commissioner's appointment can be renewed.",
            "The office of commissioner is held for a non-renewable term of five years.",
            "source",
            "non-renewable",
        ),
    ],
)
def test_a_prefix_negates_the_plain_word(claim: str, source: str, side: str, word: str) -> None:
    found = prefix_negation_conflict(claim, source)
    assert found is not None and found.side == side and found.cue == word
    assert meaning_conflict(claim, source).found


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # a double negation asserts the plain word
        ("The water is safe.", "The water is not unsafe."),
        ("The water is not unsafe.", "The water is safe."),
        # both forms named: the plain one is stated too
        (
            "The country uses renewable sources.",
            "The country uses renewable and non-renewable sources.",
        ),
        # "non-" before a group of people: another group, not a denial
        ("Smokers had a higher risk.", "Non-smokers had a higher risk in the study."),
        # a prefix that negates nothing
        ("Migrants crossed the border.", "Immigrants crossed the border at night."),
        ("The record is valuable.", "The record is invaluable to historians."),
        # "in-" before no adjective ending: "income" is not "not come"
        ("The company reported income growth.", "The company reported income growth of 5%."),
        # a sentence about something else
        ("The water is safe to drink.", "The museum's unsafe staircase was repaired in May."),
    ],
)
def test_no_prefix_negation(claim: str, source: str) -> None:
    assert prefix_negation_conflict(claim, source) is None


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "The airline flies to Lisbon.",
            "The airline no longer flies to Lisbon after cutting the route.",
        ),
        ("She attended the meeting.", "She did not attend the meeting because she was ill."),
        (
            "The mayor consulted residents.",
            "The mayor never consulted residents before approving the plan.",
        ),
    ],
)
def test_a_negated_scope_ends_at_an_adjunct_clause(claim: str, source: str) -> None:
    found = negation_conflict(claim, source)
    assert found is not None and found.side == "source"


def test_the_adjunct_clause_itself_is_not_denied() -> None:
    source = "She did not attend the meeting because she was ill."
    assert negation_conflict("She was ill.", source) is None
    source = "The band no longer tours in Europe after losing its drummer."
    assert negation_conflict("The band lost its drummer.", source) is None


def test_a_time_noun_phrase_stays_in_the_scope() -> None:
    """Only a gerund opens an adjunct clause after a time word: "after midnight" is part
    of what is denied, so a claim of eating before midnight is not denied by it."""
    source = "The guests did not eat after midnight."
    assert negation_conflict("The guests ate after midnight.", source) is not None


def test_a_fronted_instead_of_names_its_choice_before_the_infinitive() -> None:
    source = (
        "Instead of renovating the old library, the committee voted to build a new one "
        "on the riverfront."
    )
    found = alternatives_swap("The committee chose to renovate the old library.", source)
    assert found is not None and found.verb == "rather than"
    assert alternatives_swap("The committee voted to build a new library.", source) is None


def test_struck_down_reads_as_overturned() -> None:
    assert plain_verbs("The court struck down the ban.") == "The court overturned the ban."
    assert plain_verbs("The court struck it down.") == "The court overturned it."
    assert meaning_conflict("The court upheld the ban.", "The court struck down the ban.").found


@pytest.mark.parametrize(
    ("claim", "source", "unverified", "agreed"),
    [
        # the window dates only the opening, the claim's other event: 1960 is unverified
        (
            "The library opened in 1905 and was expanded in 1960.",
            "The library opened in 1905 with 4,000 books.",
            ("1960",),
            ("1905",),
        ),
        # the closing's year is the window's opening year: not an agreement either
        (
            "The museum opened in 1990 and closed in 1995.",
            "The museum opened in 1995.",
            ("1990", "1995"),
            (),
        ),
    ],
)
def test_a_date_the_window_gives_only_to_the_claims_other_event(
    claim: str, source: str, unverified: tuple[str, ...], agreed: tuple[str, ...]
) -> None:
    result = check_consistency(claim, source, source)
    assert result.year_mismatches == unverified
    assert result.agreements == agreed
    assert "1960" not in result.anchored_mismatches


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # one event of the claim dated otherwise: still a mismatch
        ("The bridge opened in 1932.", "The bridge opened to traffic in 1937."),
        # its one event under another verb: the same event, a mismatch
        ("The album was released in 1994.", "The album came out in 1996."),
        ("The museum opened in 1990 and closed in 1995.", "The museum opened in 1995."),
    ],
)
def test_a_date_of_the_same_event_still_mismatches(claim: str, source: str) -> None:
    assert check_consistency(claim, source, source).anchored_mismatches


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Chilis were grown in the Americas in 1490.",
            "Chilis were grown in the Americas long before 1492.",
        ),
        # a source's bound never denies: "before 1492" does not say the growing stopped
        (
            "Chilis were grown in the Americas in 1495.",
            "Chilis were grown in the Americas long before 1492.",
        ),
        # nor confirms: "since 1928" holds 2016 without stating it
        ("The president visited Cuba in 2016.", "No president has visited Cuba since 1928."),
    ],
)
def test_a_source_date_bound_is_neither_a_mismatch_nor_an_agreement(
    claim: str, source: str
) -> None:
    result = check_consistency(claim, source, source)
    assert not result.anchored_mismatches
    assert not result.agreements


@pytest.mark.parametrize(
    ("claim", "source", "agrees"),
    [
        ("The treaty was signed before 1990.", "The treaty was signed in 1985.", True),
        ("The treaty was signed before 1990.", "The treaty was signed in 1995.", False),
        ("The composer was born after 1800.", "The composer was born in 1810.", True),
        ("The composer was born after 1800.", "The composer was born in 1790.", False),
    ],
)
def test_a_claim_date_bound_is_what_the_claim_asserts(
    claim: str, source: str, agrees: bool
) -> None:
    result = check_consistency(claim, source, source)
    assert bool(result.agreements) is agrees
    assert bool(result.anchored_mismatches) is not agrees


def test_not_until_names_when_it_happened() -> None:
    """ "did not go on sale until early 2020" dates the sale: "until" is no bound."""
    source = "The phone was announced in 2019 but did not go on sale until early 2020."
    assert check_consistency("The phone went on sale in 2019.", source, source).anchored_mismatches


@pytest.mark.parametrize(
    ("claim", "agrees"),
    [
        ("Ridership rose by 10 percent.", True),
        ("Ridership rose by 20 percent.", False),
        ("Ridership rose by about 10%.", True),
    ],
)
def test_a_change_from_round_numbers_is_their_ratio(claim: str, agrees: bool) -> None:
    """ "from 10,000 to 11,000" is a 10 % rise: the rounding of each round number is not
    compounded into "0 to 21 %"."""
    source = "Ridership rose from 10,000 to 11,000 passengers a day."
    result = check_consistency(claim, source, source)
    assert bool(result.agreed_changes) is agrees
    assert bool(result.anchored_mismatches) is not agrees


def test_lacks_denies_its_noun_phrase_only() -> None:
    source = "The village lacks a doctor and residents travel 40 km for care."
    assert negation_conflict("The village has a doctor.", source) is not None
    assert negation_conflict("Residents of the village travel 40 km for care.", source) is None


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The report covers fraud at the bank.", "Investigators uncovered fraud at the bank."),
        ("The UN mediated the talks.", "The talks led to an immediate ceasefire, the UN said."),
    ],
)
def test_a_prefix_that_reverses_or_means_otherwise_is_no_negation(claim: str, source: str) -> None:
    assert prefix_negation_conflict(claim, source) is None


def test_a_bound_names_its_finite_end_for_a_duration() -> None:
    """ "the first since 2009" and "2019" are a decade apart: a duration spanned by two
    dates reads a bound by its own end, not by the middle of its open interval."""
    source = "In 2019 he became the first driver to win twice since 2009."
    assert spanned_by_dates(read_quantities("after a decade").mentions[0], source) == (
        "2019",
        "2009",
    )
