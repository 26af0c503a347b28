"""Common-noun role swaps, leaving a named body, omissions, comparatives, unknowns (session 22)."""

from __future__ import annotations

import pytest

from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.claimsplit import split_statements
from provgraph.verification.consistency import check_consistency
from provgraph.verification.degrees import plain_superlatives
from provgraph.verification.ended_states import ended_state
from provgraph.verification.meaning_conflicts import meaning_conflict
from provgraph.verification.noun_roles import noun_relations
from provgraph.verification.roles import role_swap
from provgraph.verification.unknowns import unknown_statement
from provgraph.verification.value_comparisons import judge_value_comparisons


def test_noun_relations_read_actives_and_passives() -> None:
    assert noun_relations("The landlord sued the tenant for unpaid rent.") == [
        (frozenset({"landlor"}), "sued", frozenset({"tenant"}))
    ]
    assert noun_relations("The tenant was sued by the landlord.") == [
        (frozenset({"landlor"}), "sued", frozenset({"tenant"}))
    ]
    # an adjective that is a stopword stays in its phrase; a preposition ends it
    (relation,) = noun_relations("The young players praised the new coach after the win.")
    assert relation[2] == frozenset({"new", "coach"})


@pytest.mark.parametrize(
    ("claim", "source", "swapped"),
    [
        ("The tenant sued the landlord.", "The landlord sued the tenant for unpaid rent.", True),
        ("The tenant sued the landlord.", "The tenant was sued by the landlord.", True),
        (
            "The new coach praised the young players.",
            "The young players praised the new coach.",
            True,
        ),
        # the claim's way round, in the passive
        ("The landlord sued the tenant.", "The tenant was sued by the landlord.", False),
        # a verb whose subject may be either party of one event
        ("The bill passed the Senate.", "The Senate passed the bill.", False),
        # three parties: a thing passed the other way (session 31: transfer_relations)
        (
            "The museum lent the painting to the gallery.",
            "The gallery lent the painting to the museum.",
            True,
        ),
        # stated both ways: the claim's way counts
        (
            "The firm sued the bank.",
            "The firm sued the bank, and the bank sued the firm in return.",
            False,
        ),
    ],
)
def test_common_noun_role_swaps(claim: str, source: str, swapped: bool) -> None:
    assert (role_swap(claim, source) is not None) == swapped


@pytest.mark.parametrize(
    ("claim", "source", "state"),
    [
        (
            "The senator is a member of the Democratic Party.",
            "The senator left the Democratic Party in 2021 to sit as an independent.",
            "member",
        ),
        (
            "The ferry still runs between the islands.",
            "The ferry between the islands was discontinued in 2016.",
            "open",
        ),
        # leaving something else is no end of the membership
        (
            "The senator is a member of the Democratic Party.",
            "The senator left the chamber early to vote in the Democratic Party primary.",
            None,
        ),
    ],
)
def test_leaving_the_named_body_and_a_service_discontinued(
    claim: str, source: str, state: str | None
) -> None:
    found = ended_state(claim, source)
    assert (found.state if found else None) == state


@pytest.mark.parametrize(
    ("claim", "source", "conflict"),
    [
        (
            "The company paid a dividend in 2023.",
            "For the first time in a decade, the company skipped its dividend in 2023.",
            True,
        ),
        (
            "The report included the sales figures.",
            "The report omitted the sales figures for March.",
            True,
        ),
        # what was skipped is something else
        (
            "The company paid a dividend in 2023.",
            "The company paid a dividend in 2023 but skipped its share buyback.",
            False,
        ),
    ],
)
def test_omissions_deny_what_was_left_undone(claim: str, source: str, conflict: bool) -> None:
    assert meaning_conflict(claim, source).found == conflict


def test_comparatives_are_read_as_more_and_their_adjective() -> None:
    text = "colder, simpler, the number, better, further, no longer"
    assert (
        plain_superlatives(text) == "more cold, more simple, the number, better, further, no longer"
    )


@pytest.mark.parametrize(
    ("claim", "source", "pair"),
    [
        (
            "The reform made the tax system simpler.",
            "Experts agree the reform made the tax system more complicated.",
            ("simpl", "complic"),
        ),
        (
            "Prices were higher than last year.",
            "Prices were lower than last year.",
            ("high", "low"),
        ),
        # "less expensive" is "cheaper"
        ("Wind power is cheaper than gas.", "Wind power is now less expensive than gas.", None),
        # a comparative says nothing of the plain state
        (
            "The water level was low in August.",
            "In August the water level was higher than in July.",
            None,
        ),
    ],
)
def test_comparative_opposites(claim: str, source: str, pair: tuple[str, str] | None) -> None:
    found = antonym_conflict(claim, source)
    assert ((found.claim_word, found.source_word) if found else None) == pair


@pytest.mark.parametrize(
    ("source", "agreed"),
    [
        ("The new model weighs 1.2 kg, against 1.5 kg for its predecessor.", True),
        ("The new model weighs 1.9 kg, against 1.5 kg for its predecessor.", False),
        ("The latest version weighs 1.2 kg, against 1.5 kg for the previous one.", True),
    ],
)
def test_a_predecessor_is_the_old_one(source: str, agreed: bool) -> None:
    judged = judge_value_comparisons("The new model is lighter than the old one.", source)
    assert (judged.agreed, judged.mismatched) == (
        (["light comparison"], []) if agreed else ([], ["light comparison"])
    )


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        ("The tank holds 2,000 litres.", "The tank has a capacity of 2 cubic metres."),
        ("The park covers 5 square kilometres.", "The park covers about 1.9 square miles."),
        ("The field is 100 yards long.", "The field is 91.44 metres long."),
        ("The bar weighs 16 ounces.", "The bar weighs 454 grams."),
    ],
)
def test_volumes_areas_yards_and_ounces_convert(claim: str, window: str) -> None:
    result = check_consistency(claim, window, window)
    assert result.agreements and not result.anchored_mismatches


@pytest.mark.parametrize(
    ("claim", "window", "unknown"),
    [
        (
            "The drug lowered blood pressure and reduced the risk of stroke.",
            "The drug lowered blood pressure in the trial; "
            "its effect on stroke risk was not studied.",
            "its effect on stroke risk was not studied",
        ),
        (
            "The vaccine reduces transmission.",
            "Whether the vaccine reduces transmission is still unknown.",
            "Whether the vaccine reduces transmission is still unknown",
        ),
        # the claim says the same: a paraphrase
        ("The cause of the fire remains unclear.", "The cause of the fire is still unknown.", None),
        # unknown of something else
        (
            "The vaccine reduces severe illness.",
            "The vaccine reduces severe illness, but its effect on mild cases is unknown.",
            None,
        ),
        # answered in another clause
        (
            "The drug reduced strokes.",
            "Earlier work left its effect on strokes unclear. "
            "This trial found the drug reduced strokes.",
            None,
        ),
    ],
)
def test_a_statement_the_source_says_is_not_known(
    claim: str, window: str, unknown: str | None
) -> None:
    assert unknown_statement(claim, window) == unknown
    assert check_consistency(claim, window, window).unknown_clause == unknown


@pytest.mark.parametrize(
    ("claim", "parts"),
    [
        (
            "The company cut 500 jobs and closed two factories.",
            ["The company cut 500 jobs.", "The company closed two factories."],
        ),
        (
            "The team hit the target and won the cup.",
            ["The team hit the target.", "The team won the cup."],
        ),
    ],
)
def test_a_verb_that_is_also_a_noun_before_its_object(claim: str, parts: list[str]) -> None:
    assert split_statements(claim) == parts


def test_an_omission_in_another_year_denies_nothing() -> None:
    source = "The company, which skipped its dividend in 2020, paid one in 2023."
    assert not meaning_conflict("The company paid a dividend in 2023.", source).found
    assert meaning_conflict("The company paid a dividend in 2020.", source).found


def test_leaving_a_part_of_the_body_is_no_leaving() -> None:
    source = "He left the BBC's radio service in 2012 to join its television news team."
    assert ended_state("He works for the BBC.", source) is None
    assert ended_state("He works for the BBC.", "He left the BBC in 2012.") is not None
    assert (
        ended_state("He is a member of the party.", "He sits on the left wing of the party.")
        is None
    )


@pytest.mark.parametrize(
    ("claim", "source", "ended"),
    [
        (
            "The company still makes typewriters.",
            "The company stopped making typewriters in 1995.",
            True,
        ),
        (
            "The farmer still grows wheat.",
            "The farmer gave up growing wheat after the drought.",
            True,
        ),
        # another thing stopped
        (
            "The company still makes typewriters.",
            "The company stopped making computers in 1995 but still makes typewriters.",
            False,
        ),
        # another activity stopped
        (
            "The company still makes typewriters.",
            "The company stopped selling typewriters in 1995.",
            False,
        ),
    ],
)
def test_an_activity_the_source_says_stopped(claim: str, source: str, ended: bool) -> None:
    found = ended_state(claim, source)
    assert (found is not None and found.state == "activity") == ended
