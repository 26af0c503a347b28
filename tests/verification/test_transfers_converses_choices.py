"""Session 31's rules: a thing passed the other way between two common-noun parties ("the
museum lent the painting to the gallery"), converse verbs that state one event from its two
sides ("lent to" / "borrowed from"), a choice of one thing "over" or "to" another, "did
little to" as a negation, "took over as <role> from" as "succeeded", an ending verb that
is the predicate's own, and comparisons judged by two source values when the sides are two
versions of one thing ("than the old one") or the dimension is speed."""

from __future__ import annotations

import pytest

from provgraph.verification.alternatives import alternatives_swap, preferences
from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.negation import negation_conflict
from provgraph.verification.noun_roles import transfer_relations
from provgraph.verification.phrasal import plain_verbs
from provgraph.verification.roles import role_swap
from provgraph.verification.value_comparisons import judge_value_comparisons


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "The museum lent the painting to the gallery.",
            "The gallery lent the painting to the museum for the summer.",
        ),
        (
            "The brewery sold the warehouse to the council.",
            "In 2019 the council sold the warehouse to the brewery, which turned it into a bar.",
        ),
        (
            "The airline bought the jets from the leasing firm.",
            "The leasing firm bought the jets from the airline and leased them back.",
        ),
        (
            "The hospital donated the equipment to the clinic.",
            "The clinic donated its old scanning equipment to the hospital last spring.",
        ),
    ],
)
def test_a_transfer_the_other_way_is_a_swap(claim: str, source: str) -> None:
    found = role_swap(claim, source)
    assert found is not None
    (giver, other), (their_giver, their_other) = found.claim, found.source
    assert set(giver.split()) <= set(their_other.split())
    assert set(their_giver.split()) <= set(other.split())


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the claim's way
        (
            "The council sold the warehouse to the brewery.",
            "In 2019 the council sold the warehouse to the brewery, which turned it into a bar.",
        ),
        # both ways: stated the claim's way too
        (
            "The museum lent the painting to the gallery.",
            "The museum lent the painting to the gallery, and the gallery lent it to the museum.",
        ),
        # other things passed: both may hold
        ("The club sold a striker to the rival.", "The rival sold a defender to the club."),
        # another verb: converse verbs are the antonym check's (below)
        (
            "The library lent the manuscript to the university.",
            "The university borrowed the manuscript from the library.",
        ),
    ],
)
def test_no_swap_without_the_same_transfer_reversed(claim: str, source: str) -> None:
    assert role_swap(claim, source) is None


def test_transfer_parties_and_object_are_read() -> None:
    [(giver, verb, thing, link, other)] = transfer_relations(
        "The leasing firm bought the jets from the airline and leased them back."
    )
    assert (verb, link) == ("bought", "from")
    assert {"firm", "jet", "airlin"} <= giver | thing | other
    assert transfer_relations("The team moved to the city.") == []


@pytest.mark.parametrize(
    ("claim", "source", "conflict"),
    [
        (
            "The library lent the manuscript to the university.",
            "The university borrowed the manuscript from the library for a year.",
            False,
        ),
        (
            "The library lent the manuscript to the university.",
            "The library borrowed the manuscript from the university for a year.",
            True,
        ),
        ("Kenya won the final against Ethiopia.", "Ethiopia lost the final to Kenya.", False),
        ("The team won the final.", "The team lost the final.", True),
    ],
)
def test_converse_verbs_with_parties_exchanged_agree(
    claim: str, source: str, conflict: bool
) -> None:
    assert (antonym_conflict(claim, source) is not None) is conflict


def test_a_choice_over_another_is_read_as_a_preference() -> None:
    [choice] = preferences("Residents prefer buses over trams.")
    assert choice.aside_text == "trams"
    [tea] = preferences("Most diners prefer tea to coffee.")
    assert tea.aside_text == "coffee"
    assert preferences("They prefer to walk.") == []
    assert preferences("The coach picked the team over the weekend.") == []
    assert preferences("Sales rose over 50 percent.") == []


def test_a_choice_stated_the_other_way_conflicts() -> None:
    source = "Residents said they prefer trams rather than buses."
    assert alternatives_swap("Residents prefer buses over trams.", source) is not None
    assert alternatives_swap("Residents prefer trams over buses.", source) is None


def test_did_little_to_denies_the_action() -> None:
    claim = "The new bridge reduced traffic in the old town."
    assert negation_conflict(
        claim, "The new bridge has done little to reduce traffic in the old town."
    )
    assert not negation_conflict(
        claim, "The new bridge did a lot to reduce traffic in the old town."
    )


def test_took_over_as_a_role_from_is_succeeded() -> None:
    assert plain_verbs("Jonas Ek took over as head coach from Maria Lind.") == (
        "Jonas Ek succeeded as head coach Maria Lind."
    )
    source = "Jonas Ek took over as head coach from Maria Lind in 2021."
    assert role_swap("Maria Lind succeeded Jonas Ek as head coach.", source) is not None
    assert role_swap("Jonas Ek succeeded Maria Lind as head coach.", source) is None


def test_a_gerund_after_prefer_to_is_the_other_alternative() -> None:
    [choice] = preferences("Most commuters prefer driving to cycling, the survey found.")
    assert choice.aside_text == "cycling"
    assert preferences("They prefer the bus to get to work.") == []


@pytest.mark.parametrize(
    ("claim", "source", "denied"),
    [
        # "stops" is the predicate's own verb here, not an ending of it
        ("The ferry stops at the island.", "The ferry no longer stops at the island.", True),
        (
            "The ferry still stops at the island.",
            "Since May the ferry no longer stops at the island.",
            True,
        ),
        # an ending verb beside the predicate still states "no longer"
        ("The app no longer supports Windows 7.", "Support for Windows 7 was dropped.", False),
    ],
)
def test_an_ending_verb_must_be_beside_the_predicate(claim: str, source: str, denied: bool) -> None:
    assert (negation_conflict(claim, source) is not None) is denied


@pytest.mark.parametrize(
    ("claim", "source", "agrees"),
    [
        (
            "The new stadium is larger than the old one.",
            "The old stadium held 40,000 fans; the new one holds 32,000.",
            False,
        ),
        (
            "The old stadium holds fewer fans than the new one.",
            "The new stadium seats 60,000, compared with 45,000 at the old one.",
            True,
        ),
        (
            "The new model is heavier than its predecessor.",
            "At 1.2 kg, the new model weighs less than the 1.5 kg previous version.",
            False,
        ),
        (
            "The train is faster than the car.",
            "The train takes 3 hours; the car takes 2 hours.",
            False,
        ),
        (
            "The train is slower than the car.",
            "The train takes 3 hours; the car takes 2 hours.",
            True,
        ),
        (
            "The train is faster than the car.",
            "The train reaches 300 km/h; the car 120 km/h.",
            True,
        ),
    ],
)
def test_two_versions_by_generation_and_speed_by_time(
    claim: str, source: str, agrees: bool
) -> None:
    judged = judge_value_comparisons(claim, source)
    assert bool(judged.agreed) is agrees
    assert bool(judged.mismatched) is not agrees


@pytest.mark.parametrize(
    ("claim", "source", "denied"),
    [
        (
            "The ferry stops at the island in summer.",
            "The ferry does not stop at the island in winter, but calls there daily in summer.",
            False,
        ),
        (
            "The ferry does not stop at the island in winter.",
            "The ferry stops there in summer.",
            False,
        ),
        (
            "The ferry stops at the island in summer.",
            "It does not stop at the island in summer.",
            True,
        ),
        ("The museum is open on Mondays.", "The museum is not open on Mondays.", True),
    ],
)
def test_a_denial_at_one_time_says_nothing_of_another(
    claim: str, source: str, denied: bool
) -> None:
    assert (negation_conflict(claim, source) is not None) is denied


def test_parties_that_share_a_word_are_told_apart() -> None:
    claim = "The club borrowed the striker from the rival club."
    assert role_swap(claim, "The rival club borrowed the striker from the club.") is not None
    assert role_swap(claim, "The club borrowed the striker from the rival club in May.") is None


def test_a_head_noun_of_both_alternatives_names_neither() -> None:
    source = "Voters preferred the bus plan over the tram plan in the referendum."
    assert alternatives_swap("Voters preferred the tram plan over the bus plan.", source)
    assert alternatives_swap("Voters preferred the bus plan over the tram plan.", source) is None
