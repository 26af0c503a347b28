"""An exclusive "only X" the source widens, a passive's named agent named otherwise, and a
unanimous vote against a divided tally."""

from __future__ import annotations

import pytest

from provgraph.verification.agents import agent_conflict
from provgraph.verification.consistency import check_consistency
from provgraph.verification.exclusives import exclusive_conflict
from provgraph.verification.votes import vote_conflict

_UPDATE = "The update is rolling out to both Android and iOS devices this week."


@pytest.mark.parametrize(
    ("claim", "source", "other"),
    [
        ("The software update is available for Android only.", _UPDATE, "iOS"),
        (
            "The drug is approved only in the United States.",
            "The drug is approved in the United States and Canada.",
            "Canada",
        ),
        ("Only Smith voted against the bill.", "Smith and Jones voted against the bill.", "Jones"),
    ],
)
def test_an_exclusive_name_listed_with_another_conflicts(
    claim: str, source: str, other: str
) -> None:
    found = exclusive_conflict(claim, source)
    assert found is not None and found.other == other
    assert check_consistency(claim, source, source).negation_mismatch


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # not exclusive: "not only" means "also"; no "only" at all
        ("Not only Android but iOS gets the update.", _UPDATE),
        ("The update is available on Android.", _UPDATE),
        # the source restricts it too
        (
            "The drug is approved only in the United States.",
            "The drug is approved only in the United States and Canada.",
        ),
        # the coordination is in a clause about something else
        (
            "The film was shown only in France.",
            "The director, born in France and Belgium, made the film.",
        ),
        # "only" after a name mid-clause limits the verb, not the name
        ("He said that Apple only makes phones.", "Apple and Samsung make phones."),
        # no coordination: another clause names the other
        (
            "Only Smith voted against the bill.",
            "Smith voted against the bill, and Jones abstained.",
        ),
    ],
)
def test_no_exclusive_conflict(claim: str, source: str) -> None:
    assert exclusive_conflict(claim, source) is None


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "The report was written by the World Bank.",
            "The report, commissioned by the World Bank, was written by researchers at the "
            "University of Oxford.",
        ),
        (
            "The novel was written by Charlotte Bronte.",
            "The novel was written by Emily Bronte in 1847.",
        ),
    ],
)
def test_a_named_agent_named_otherwise_conflicts(claim: str, source: str) -> None:
    assert agent_conflict(claim, source) is not None
    assert check_consistency(claim, source, source).negation_mismatch


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The novel was written by Bronte.", "The novel was written by Charlotte Bronte in 1847."),
        (
            "The novel was written by Charlotte Bronte.",
            "The novel was written by Emily and Charlotte.",
        ),
        ("The painting was painted by Monet.", "The painting was painted by the artist in 1872."),
        (
            "The study was funded by the Gates Foundation.",
            "The study was funded by the Bill and Melinda Gates Foundation.",
        ),
        (
            "The report was written by researchers at Oxford.",
            "The report, commissioned by the World Bank, was written by researchers at the "
            "University of Oxford.",
        ),
    ],
)
def test_the_same_or_a_generic_agent_does_not_conflict(claim: str, source: str) -> None:
    assert agent_conflict(claim, source) is None


@pytest.mark.parametrize(
    ("claim", "source", "side"),
    [
        ("The vote was unanimous.", "The measure passed by 7 votes to 2.", "claim"),
        (
            "The court ruled unanimously.",
            "The court overturned the ruling in a 6-3 decision.",
            "claim",
        ),
        (
            "The board voted unanimously to approve the plan.",
            "The board approved the plan on 3 May, with two members voting against.",
            "claim",
        ),
        ("The bill passed 51-49.", "The Senate passed the bill unanimously.", "source"),
    ],
)
def test_a_unanimous_vote_against_a_divided_tally(claim: str, source: str, side: str) -> None:
    found = vote_conflict(claim, source)
    assert found is not None and found.unanimous_side == side


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The vote was unanimous.", "The measure passed by 9 votes to 0."),
        (
            "The council unanimously approved the budget.",
            "The council approved the budget for 2024-2025.",
        ),
        ("The jury reached a unanimous verdict.", "The trial lasted 3 to 4 weeks."),
        # a range, and a source calling it unanimous too: no tally
        (
            "The bill passed unanimously.",
            "The bill, which raises the age from 16 to 18, passed unanimously.",
        ),
        ("The vote was unanimous.", "The motion passed with 9 votes in favour and 1 abstention."),
    ],
)
def test_no_vote_conflict(claim: str, source: str) -> None:
    assert vote_conflict(claim, source) is None
