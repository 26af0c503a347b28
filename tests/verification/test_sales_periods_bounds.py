"""A sale against ownership, a month inside a quarter, an opposite said of another period,
an appointer who is not the appointee, an event word beside a length, looser bounds, and
an opposite a short statement of a two-part claim cannot find alone (session 28)."""

from __future__ import annotations

import pytest

from provgraph.verification.antonyms import antonym_conflict, are_opposites
from provgraph.verification.consistency import check_consistency
from provgraph.verification.dates import extract_dates
from provgraph.verification.ended_states import ended_state
from provgraph.verification.meaning_conflicts import meaning_conflict
from provgraph.verification.quantities import extract_quantities
from provgraph.verification.role_holders import role_holder_conflict
from provgraph.verification.slots import Outcome, compare


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
