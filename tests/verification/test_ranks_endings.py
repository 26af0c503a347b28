"""Places in a ranking, endings that state a "no longer", successions, takeovers."""

from __future__ import annotations

import pytest

from provgraph.verification.consistency import check_consistency
from provgraph.verification.ended_states import ended_state
from provgraph.verification.negation import negation_conflict
from provgraph.verification.phrasal import plain_verbs
from provgraph.verification.ranks import extract_ranks
from provgraph.verification.roles import role_swap


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("The team finished first in the league.", 1.0),
        ("The team ended the season in third place, four points behind.", 3.0),
        ("She came second in the race.", 2.0),
        ("He ranked 5th overall.", 5.0),
        ("The runner took third place.", 3.0),
        ("It was a second-place finish.", 2.0),
    ],
)
def test_places_in_a_ranking_are_read(text: str, place: float) -> None:
    (mention,) = extract_ranks(text)
    assert mention.kind == "rank" and mention.low == mention.high == place


@pytest.mark.parametrize(
    "text",
    ["It was the first time.", "It won its third title.", "Sales rose in the first quarter."],
)
def test_ordinals_outside_a_ranking_are_no_place(text: str) -> None:
    assert extract_ranks(text) == []


def test_places_conflict_and_agree_as_values() -> None:
    source = "The team ended the season in third place, four points behind the champions."
    wrong = check_consistency("The team finished first in the league.", source, source)
    assert wrong.anchored_mismatches == ("finished first",)
    right = check_consistency("The team finished third in the league.", source, source)
    assert right.agreements == ("finished third",) and not right.anchored_mismatches


def test_an_ending_states_what_no_longer_denies() -> None:
    source = "Support for Windows 7 was dropped in version 5.0 of the app."
    assert negation_conflict("The app no longer supports Windows 7.", source) is None
    # an un-ended statement still conflicts
    assert negation_conflict(
        "The app no longer supports Windows 7.", "The app supports Windows 7 and Windows 10."
    )


def test_took_over_from_is_a_succession_and_its_roles_are_read() -> None:
    source = "John Hart took over from Maria Lopez as chief executive in 2019."
    assert plain_verbs(source).startswith("John Hart succeeded Maria Lopez")
    assert role_swap("Maria Lopez succeeded John Hart as chief executive.", source) is not None
    assert role_swap("John Hart succeeded Maria Lopez as chief executive.", source) is None
    assert plain_verbs("The firm took over its rival.") == "The firm acquired its rival."


def test_a_takeover_ends_independence() -> None:
    found = ended_state(
        "The startup is still independent.",
        "The startup was acquired by a larger rival in 2022 and now operates as a division.",
    )
    assert found is not None and found.state == "independent"


@pytest.mark.parametrize(
    "source",
    [
        "The museum is open every day except Monday, and closed on public holidays.",
        "The museum is closed at night and during the winter.",
    ],
)
def test_a_timetable_is_no_ending(source: str) -> None:
    assert ended_state("The museum is open on Sundays.", source) is None


def test_a_closure_with_a_date_still_ends_an_open_state() -> None:
    found = ended_state("The museum is still open.", "The museum closed on 3 March 2019.")
    assert found is not None and found.state == "open"
