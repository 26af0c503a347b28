"""Claims that open with a pronoun are checked with the preceding sentence's subject."""

from __future__ import annotations

import pytest

from provgraph.verification import MappingSourceResolver, VerificationConfig, verify_text
from provgraph.verification.claims import ClaimMode, extract_claims
from provgraph.verification.decontext import decontextualise, leading_subject


@pytest.mark.parametrize(
    ("previous", "claim", "checked"),
    [
        (
            "Northwind Traders opened 14 centres in Europe.",
            "It now employs 23,400 people.",
            "Northwind Traders now employs 23,400 people.",
        ),
        (
            "The European Central Bank raised rates in July.",
            "Its president said more hikes may follow.",
            "The European Central Bank's president said more hikes may follow.",
        ),
        (
            "The new policy took effect in 2020.",
            "It increased applications by 10%.",
            "The new policy increased applications by 10%.",
        ),
        (
            "Marie Curie won two Nobel prizes.",
            "She was born in Warsaw.",
            "Marie Curie was born in Warsaw.",
        ),
    ],
)
def test_pronoun_replaced_by_previous_subject(previous: str, claim: str, checked: str) -> None:
    assert decontextualise(claim, previous) == checked


@pytest.mark.parametrize(
    ("previous", "claim"),
    [
        ("Revenue grew.", "This was driven by online sales."),  # "This" = the event
        ("In 2020 sales fell.", "They rose again in 2021."),  # no leading subject
        ("Northwind opened a centre.", "Northwind hired 200 people."),  # no pronoun
        (None, "It rose."),
    ],
)
def test_left_unchanged(previous: str | None, claim: str) -> None:
    assert decontextualise(claim, previous) is None


def test_leading_subject_stops_at_the_verb() -> None:
    assert leading_subject("The Bank of England cut rates.") == "The Bank of England"
    assert leading_subject("Acme and Partners merged.") == "Acme and Partners"


@pytest.mark.parametrize("mode", [ClaimMode.CONTEXT, ClaimMode.SENTENCE])
def test_claims_carry_the_checked_text(mode: ClaimMode) -> None:
    text = "Northwind Traders opened 14 centres. [REF|d_1] It now employs 23,400 people. [REF|d_1]"
    first, second = extract_claims(text, mode=mode)
    assert first.checked_text is None and first.scored_text == first.text
    assert second.text == "It now employs 23,400 people."
    assert second.checked_text == "Northwind Traders now employs 23,400 people."


def test_report_shows_written_and_checked_claim() -> None:
    source = "Northwind Traders, a wholesaler, now employs 23,400 people in nine countries."
    report = verify_text(
        "Northwind Traders is a wholesaler. It now employs 23,400 people. [REF|d_1]",
        MappingSourceResolver({"d_1": source}),
        VerificationConfig(embeddings=False, nli=False, coverage=False),
    )
    claim = report.checks[0].claim
    assert claim.text == "It now employs 23,400 people."
    assert claim.checked_text == "Northwind Traders now employs 23,400 people."
    assert report.checks[0].scores["tfidf"].raw["claim_recall"] == 1.0
