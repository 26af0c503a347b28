"""Session 41's rules, read without models: a change the source says did not happen
("raised rates" / "held rates steady"), an event called off that the source says went
ahead, a fraction of a value lost, lists of singular nouns with modifiers, and two pairs
of opposites."""

from __future__ import annotations

from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.changes import extract_changes
from provgraph.verification.claimsplit import split_statements
from provgraph.verification.held_steady import held_steady
from provgraph.verification.meaning_conflicts import meaning_conflict
from provgraph.verification.went_ahead import went_ahead

HELD = "The central bank held interest rates steady at its March meeting."


def test_a_change_against_a_source_that_says_it_held_still() -> None:
    found = held_steady("The bank raised interest rates in March.", HELD)
    assert found is not None and found.held == "held interest rates steady"
    assert found.share == 1.0
    # an intransitive change, its subject held still
    assert held_steady("Wheat prices fell sharply.", "Wheat prices remained stable.")
    assert held_steady("The council cut bus fares.", "The council kept bus fares unchanged.")
    found_in_consistency = meaning_conflict("The bank raised interest rates in March.", HELD)
    assert found_in_consistency.found and "held_steady" in found_in_consistency.details


def test_no_change_conflict_where_the_source_leaves_room() -> None:
    # denied by the claim: the source agrees
    assert held_steady("The bank did not raise interest rates in March.", HELD) is None
    # another time, a negated still word, a sentence that also states a change
    assert held_steady("Fares rose in 2022.", "Fares remained unchanged in 2021.") is None
    assert (
        held_steady(
            "The bank raised interest rates in March.",
            "The bank did not keep interest rates steady in March.",
        )
        is None
    )
    assert (
        held_steady(
            "The bank raised interest rates in March.",
            "The bank raised interest rates in March and held them steady in April.",
        )
        is None
    )
    # another thing held still
    fees = "The bank kept its fees unchanged."
    assert held_steady("The bank raised interest rates.", fees) is None


def test_lists_of_singular_nouns_and_after_a_preposition() -> None:
    assert split_statements("Exercise lowers blood pressure and cholesterol.") == [
        "Exercise lowers blood pressure.",
        "Exercise lowers cholesterol.",
    ]
    # a preposition the list shares, a second verb after a plural object
    assert split_statements("The senator was charged with fraud and bribery.") == [
        "The senator was charged with fraud.",
        "The senator was charged with bribery.",
    ]
    assert split_statements("The plan cuts taxes and raises pensions.") == [
        "The plan cuts taxes.",
        "The plan raises pensions.",
    ]
    assert split_statements("The firm cut jobs and imports fell.")[1] == "Imports fell."
    # the two ends of one span, adjectives of one object stay whole
    assert len(split_statements("The shop is open between Monday and Friday.")) == 1
    assert len(split_statements("The shop sells new and used cars.")) == 1


def test_exports_and_imports_thriving_and_declining_are_opposites() -> None:
    assert antonym_conflict("The country exports wheat.", "The country imports wheat.")
    assert antonym_conflict("The species is thriving.", "The species is declining.")


def test_an_event_called_off_that_the_source_says_went_ahead() -> None:
    found = went_ahead(
        "The match was cancelled because of the rain.",
        "The match went ahead as planned despite the rain.",
    )
    assert found is not None and found.event == "went ahead"
    ferry = "The ferry service continued to operate normally throughout the storm."
    assert went_ahead("The ferry service was suspended during the storm.", ferry)
    assert went_ahead("The concert was postponed.", "The concert took place on schedule.")


def test_no_went_ahead_conflict_where_both_can_be_true() -> None:
    # a postponed event takes place later; a denied cancellation agrees
    assert went_ahead("The concert was postponed.", "The concert took place in June.") is None
    assert went_ahead("The match was not cancelled.", "The match went ahead as planned.") is None
    # negated, both stories told, another year, another event
    assert went_ahead("The match was cancelled.", "The match did not go ahead.") is None
    paused = "The talks continued after a two-day pause."
    assert went_ahead("The talks were suspended.", paused) is None
    both = "The festival was cancelled in 2020 but took place in 2021."
    assert went_ahead("The festival was cancelled.", both) is None
    earlier = "The festival took place in 2019."
    assert went_ahead("The 2020 festival was cancelled.", earlier) is None
    assert went_ahead("The flights were cancelled.", "The meeting went ahead as planned.") is None


def test_a_fraction_of_its_value_lost_is_the_size_of_a_change() -> None:
    (change,) = extract_changes("Shares lost a quarter of their value.")
    assert (change.low, change.high) == (0.73, 0.77)
    assert [c.surface for c in extract_changes("The firm gained half its value.")] == [
        "gained half its value"
    ]
    # a fraction of something else is no change of its own value
    assert extract_changes("The firm lost a quarter of its customers.") == []
