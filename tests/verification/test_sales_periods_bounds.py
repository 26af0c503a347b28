"""Session 28's rules: a sale against ownership, a month inside a quarter, an opposite said of
another period or in a relative clause of another subject, an appointer who is not the
appointee, an event word beside a length, looser bounds, an opposite a short statement of a
two-part claim cannot find alone, "travelled to" as "visited", a value beside an opposite
verb, a subject cut off by a parenthetical, a share of two amounts, a past event the source
says only may happen, a transfer made the other way, ages by decade of life and in
apposition, a passive defeat as a loss, a clause dated "two months later" than the one
before it, a removal against what a product supports, a holding bought back, and "unchanged"
as a null result."""

from __future__ import annotations

import pytest

from provgraph.verification.antonyms import antonym_conflict, are_opposites
from provgraph.verification.consistency import check_consistency
from provgraph.verification.dates import extract_dates
from provgraph.verification.ended_states import ended_state
from provgraph.verification.event_order import order_conflict
from provgraph.verification.meaning_conflicts import meaning_conflict
from provgraph.verification.quantities import extract_quantities
from provgraph.verification.role_holders import role_holder_conflict
from provgraph.verification.routes import transfer_swap
from provgraph.verification.slots import Outcome, compare
from provgraph.verification.speculation import speculated_statement


@pytest.mark.parametrize(
    "source",
    [
        "The family sold the hotel to a property fund in 2018.",
        "In 2018 the family sold its stake in the hotel.",
        "The family has since donated the hotel to the town.",
    ],
)
def test_selling_what_is_owned_ends_owning_it(source: str) -> None:
    found = ended_state("The family owns the hotel.", source)
    assert found is not None and found.state == "owning"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # what was sold is another thing, or a part of it
        ("The family owns the hotel.", "The family sold the farm next to the hotel in 2018."),
        ("The family owns the hotel.", "The family sold part of its stake in the hotel."),
        ("The family owns the hotel.", "The family sold two of its hotels in 2018."),
        # a number of things owned is not ended by one sale
        ("The group owns 5 hotels.", "The group sold the hotel on the pier in 2018."),
        # a purchase starts it
        ("The family owns the hotel.", "The family bought the hotel in 2018."),
    ],
)
def test_a_sale_of_another_thing_or_a_part_ends_nothing(claim: str, source: str) -> None:
    found = ended_state(claim, source)
    assert found is None or found.state != "owning"


def test_in_may_is_the_month_and_may_alone_the_modal_verb() -> None:
    (month,) = extract_dates("Profits peaked in May, then slid.")
    assert (month.surface, month.kind) == ("May", "date-in-year")
    assert extract_dates("Profits May rise next year.") == []


@pytest.mark.parametrize(
    ("claim", "agrees"),
    [("Profits peaked in the second quarter.", True), ("Profits peaked in Q1.", False)],
)
def test_a_month_inside_a_quarter_states_it(claim: str, agrees: bool) -> None:
    source = "Profits peaked in May, then slid for the rest of the year."
    result = check_consistency(claim, source, source)
    assert bool(result.agreements) is agrees
    assert bool(result.anchored_mismatches) is not agrees


def test_of_the_year_belongs_to_the_half_it_follows() -> None:
    (half,) = extract_dates("Sales fell in the second half of the year.")
    assert half.surface == "second half of the year"
    assert "year" not in half.near


def test_an_opposite_said_of_another_period_is_no_conflict() -> None:
    source = "Sales rose in the first half of the year but dropped sharply in the second half."
    assert antonym_conflict("Sales fell in the second half of the year.", source) is None
    found = antonym_conflict("Sales fell in the first half of the year.", source)
    assert found is not None and found.source_word == "rose"


def test_an_appointer_does_not_hold_the_office_they_fill() -> None:
    source = (
        "Maria Lopez, the company's chief executive, hired Sam Park as chief financial officer."
    )
    found = role_holder_conflict("Maria Lopez is the company's chief financial officer.", source)
    assert found is not None and found.source == "Sam Park"
    sam = "Sam Park is the company's chief financial officer."
    assert role_holder_conflict(sam, source) is None


def test_an_appointment_by_another_is_not_compared_with_a_present_holder() -> None:
    # Kim may have followed Park since the board hired him
    source = "The board hired Sam Park as chief financial officer in 2015; Ana Kim praised him."
    assert role_holder_conflict("Ana Kim is the chief financial officer.", source) is None


def test_an_event_word_beside_a_length_is_not_its_measure() -> None:
    (claim,) = extract_quantities("The bridge is 3 kilometres long.")
    source = extract_quantities("The bridge spans 3 miles of open water.")
    assert compare(claim, source)[0] is Outcome.MISMATCH
    (converted,) = extract_quantities("The bridge is 4.8 kilometres long.")
    assert compare(converted, source)[0] is Outcome.AGREE


@pytest.mark.parametrize(
    ("claim", "source", "outcome"),
    [
        ("The lift carries at most 8 people.", "It is rated for up to 12 passengers.", "unv"),
        ("The lift carries at most 12 people.", "It is rated for up to 8 passengers.", "agree"),
        ("More than 80 people came.", "More than 50 people came to the talk.", "unv"),
        ("More than 50 people came.", "More than 80 people came to the talk.", "agree"),
    ],
)
def test_a_looser_bound_does_not_state_a_tighter_one(claim: str, source: str, outcome: str) -> None:
    (value,) = extract_quantities(claim)
    expected = Outcome.UNVERIFIED if outcome == "unv" else Outcome.AGREE
    assert compare(value, extract_quantities(source))[0] is expected


def test_a_two_part_claim_is_read_whole_when_no_statement_finds_its_opposite() -> None:
    claim = "The museum is free on Sundays and closed on Mondays."
    assert meaning_conflict(claim, "The museum is free on Sundays and open every day.").found
    excepted = "The museum is free on Sundays and open every day except Monday."
    assert not meaning_conflict(claim, excepted).found


@pytest.mark.parametrize(
    ("one", "other"),
    [("increase", "reduction"), ("opposed", "backed"), ("opposition", "support")],
)
def test_opposites_added_this_session(one: str, other: str) -> None:
    assert are_opposites(one, other)


def test_travelled_to_is_visited_for_the_negation_check() -> None:
    source = "The author never travelled to Japan, though she wrote about it often."
    assert meaning_conflict("The author visited Japan.", source).found
    assert not meaning_conflict("The author visited Japan.", "She travelled to Japan twice.").found


def test_an_opposite_in_a_relative_clause_of_another_subject_is_no_conflict() -> None:
    claim = "The mayor backed the new bike lanes."
    others = "The mayor supported the new bike lanes, which shop owners opposed."
    assert antonym_conflict(claim, others) is None
    own = "The bike lanes, which the mayor opposed, were built anyway."
    found = antonym_conflict(claim, own)
    assert found is not None and found.source_word.startswith("oppos")


def test_a_value_beside_an_opposite_verb_is_another_statement_s() -> None:
    source = "Exports fell in the third quarter of the year but rebounded in the fourth quarter."
    agreed = check_consistency("Exports increased in the fourth quarter.", source, source)
    assert agreed.agreements == ("fourth quarter",) and not agreed.anchored_mismatches
    # two events of one thing keep their dates apart
    other = "The shop opened in 1990 and closed in 1995."
    assert check_consistency("The shop opened in 1995.", other, other).anchored_mismatches


def test_a_subject_cut_off_by_a_parenthetical_anchors_its_predicate_s_values() -> None:
    source = "The tunnel, closed for repairs until May, runs for 12 miles under the mountains."
    assert check_consistency(
        "The tunnel is 12 kilometres long.", source, source
    ).anchored_mismatches
    agreed = check_consistency("The tunnel is about 19 kilometres long.", source, source)
    assert agreed.agreements == ("19 kilometres",)


@pytest.mark.parametrize(
    ("claim", "agrees"),
    [
        ("About a third of the budget went to schools.", True),
        ("About half of the budget went to schools.", False),
    ],
)
def test_a_share_stated_as_two_amounts(claim: str, agrees: bool) -> None:
    source = "Schools received $3.1 billion of the $9.4 billion budget."
    result = check_consistency(claim, source, source)
    assert bool(result.agreements) is agrees
    assert bool(result.anchored_mismatches) is not agrees


@pytest.mark.parametrize(
    ("claim", "source", "speculated"),
    [
        ("The firm reported results in June.", "The firm may report results in June.", True),
        ("The team won the title.", "The team might win the title if it beats Leeds.", True),
        # the source says it happened after all
        (
            "The firm reported results in June.",
            "The firm may report results in June; in the end it reported them on June 30.",
            False,
        ),
        # a claim in the present tense: an abstract's "may reduce" states its finding
        ("The drug reduces the risk of stroke.", "The drug may reduce the risk of stroke.", False),
        # a hedged claim is a paraphrase
        ("The firm may have reported results.", "The firm may report results in June.", False),
    ],
)
def test_a_past_event_the_source_says_only_may_happen(
    claim: str, source: str, speculated: bool
) -> None:
    assert (speculated_statement(claim, source) is not None) is speculated


@pytest.mark.parametrize(
    ("claim", "swapped"),
    [
        ("Chelsea signed the striker from Ajax.", True),
        ("Ajax signed the striker from Chelsea.", False),
    ],
)
def test_a_transfer_made_the_other_way(claim: str, swapped: bool) -> None:
    source = "Ajax signed the striker from Chelsea for a record fee."
    assert (transfer_swap(claim, source) is not None) is swapped


def test_a_transfer_the_source_also_states_the_claim_s_way_is_no_swap() -> None:
    source = "Ajax signed a striker from Chelsea, and Chelsea signed a winger from Ajax."
    assert transfer_swap("Chelsea signed the winger from Ajax.", source) is None


def test_a_share_of_two_amounts_in_currency_codes() -> None:
    source = "Salaries took EUR 12m of the EUR 30m fund."
    result = check_consistency("Salaries took under a quarter of the fund.", source, source)
    assert result.anchored_mismatches == ("a quarter of",)


@pytest.mark.parametrize(
    ("claim", "speculated"),
    [
        # a past the same as its base, after a singular subject: the past
        ("The central bank cut interest rates in March.", True),
        # after a plural subject it may be the present: a finding's wording
        ("Central banks cut interest rates in March.", False),
    ],
)
def test_a_verb_whose_past_is_its_base(claim: str, speculated: bool) -> None:
    source = "Economists say the central bank might cut interest rates in March."
    assert (speculated_statement(claim, source) is not None) is speculated


def test_a_claim_dated_in_may_is_not_hedged() -> None:
    source = "Union leaders warned they might call a strike in May if talks fail."
    assert speculated_statement("The union called a strike in May.", source) is not None


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [("The mayor is in her fifties.", 50, 59), ("He is in his late forties.", 46, 49)],
)
def test_a_decade_of_life_is_an_age(text: str, low: int, high: int) -> None:
    (age,) = extract_quantities(text)
    assert age.kind == "age" and (age.low, int(age.high)) == (low, high)


@pytest.mark.parametrize(
    ("claim", "agrees"),
    [("The mayor is in her fifties.", False), ("The mayor is in her forties.", True)],
)
def test_an_age_in_apposition_to_the_role_that_opens_the_sentence(claim: str, agrees: bool) -> None:
    source = "The mayor, 47, was elected last year."
    result = check_consistency(claim, source, source)
    assert bool(result.agreements) is agrees
    assert bool(result.anchored_mismatches) is not agrees


def test_a_passive_defeat_is_a_loss() -> None:
    source = "The incumbent was defeated in the runoff by a first-time candidate."
    found = antonym_conflict("The incumbent won the runoff.", source)
    assert found is not None and found.claim_word == "win"
    assert antonym_conflict("The incumbent lost the runoff.", source) is None


@pytest.mark.parametrize(
    ("claim", "conflict"),
    [
        ("The merger was announced before the CEO resigned.", True),
        ("The CEO resigned before the merger was announced.", False),
        ("The merger was announced after the CEO resigned.", False),
    ],
)
def test_a_clause_dated_by_the_one_before_it(claim: str, conflict: bool) -> None:
    source = "The CEO resigned in January; two months later the company announced the merger."
    assert (order_conflict(claim, source) is not None) is conflict


def test_a_clause_dated_earlier_than_the_one_before_it() -> None:
    source = "The merger was announced in March; a year earlier the CEO had resigned."
    assert order_conflict("The CEO resigned after the merger was announced.", source)


@pytest.mark.parametrize(
    ("claim", "source", "ended"),
    [
        (
            "Version 2 of the API supports OAuth tokens.",
            "OAuth tokens were removed from version 2 of the API; use signed keys instead.",
            True,
        ),
        (
            "The library supports Python 3.8.",
            "The library dropped support for Python 3.8 in its 2024 release.",
            True,
        ),
        # another version's removal, and another thing removed
        (
            "Version 3 of the API supports OAuth tokens.",
            "OAuth tokens were removed from version 2 of the API but restored in version 3.",
            False,
        ),
        (
            "The app supports dark mode.",
            "The app removed its old settings page and added dark mode.",
            False,
        ),
    ],
)
def test_a_removal_ends_what_a_product_supports(claim: str, source: str, ended: bool) -> None:
    found = ended_state(claim, source)
    assert (found is not None and found.state == "supporting") is ended


def test_a_holding_bought_back_is_not_ended() -> None:
    source = "The Smith family sold the newspaper in 2010 and bought it back in 2017."
    found = ended_state("The Smith family owns the newspaper.", source)
    assert found is None or found.state != "owning"


def test_an_age_in_apposition_to_the_role_after_a_reporting_verb() -> None:
    (age,) = extract_quantities("Police said the suspect, 34, was arrested on Monday.")
    assert (age.kind, age.low, age.high) == ("age", 33.5, 34.5)


@pytest.mark.parametrize(
    ("claim", "denied"),
    [
        ("The mouthwash reduced plaque.", True),
        # another measure unchanged says nothing of plaque
        ("The mouthwash reduced gum bleeding.", False),
    ],
)
def test_unchanged_is_a_null_result(claim: str, denied: bool) -> None:
    source = "Plaque levels were unchanged after four weeks of using the mouthwash."
    assert meaning_conflict(claim, source).found is denied


def test_a_bracketed_reference_number_takes_no_words_of_its_neighbours() -> None:
    # "[3]" is a citation marker, alone in its clause like an apposition but not one
    claim = "Attention is necessary for learning to occur [3]."
    (value,) = (m for m in extract_quantities(claim) if m.surface == "3")
    assert not value.near
