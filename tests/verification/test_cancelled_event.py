"""The cancelled-event rule (:func:`provgraph.verification.roles.cancelled_event`).

The shipped NLI model reads a cancellation of the claim's event as agreement
(the shared event words), so the consistency stage names the conflict; these
pin when it does and, as much, when it must not.
"""

from __future__ import annotations

import pytest

from provgraph.verification.cancelled_events import cancelled_event
from provgraph.verification.consistency import check_consistency


@pytest.mark.parametrize(
    ("claim", "source", "cue"),
    [
        (
            "The regatta was held in June.",
            "The June regatta was called off after storms.",
            "called off",
        ),
        (
            "The festival went ahead.",
            "Organisers scrapped the festival at short notice.",
            "scrapped",
        ),
        (
            "The Lisbon congress took place in 2018.",
            "The 2018 Lisbon congress was cancelled because of a strike.",
            "cancelled",
        ),
        (
            "The premiere happened at the Odeon.",
            "The studio announced the cancellation of the Odeon premiere.",
            "cancellation",
        ),
    ],
)
def test_an_event_the_source_says_was_cancelled_conflicts_with_its_taking_place(
    claim: str, source: str, cue: str
) -> None:
    found = cancelled_event(claim, source)
    assert found is not None and found.event == cue
    assert found.share == 1.0  # every word naming the event is in the cancelling sentence
    result = check_consistency(claim, source, source)
    assert result.negation_mismatch and result.conflict_share == 1.0
    assert "ended_state" in result.details


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the claim itself reports the cancellation, or denies the event
        ("The regatta was cancelled in June.", "The June regatta was called off."),
        ("The regatta did not take place.", "The regatta was called off."),
        # something else was cancelled; the event is named outside the cancelling clause
        ("The regatta was held in June.", "The museum cancelled its June tours."),
        ("The storm happened on Monday.", "Ferries were cancelled after Monday's storm."),
        # the source also says it took place after all, or only moved it
        ("The fair was held in May.", "The fair was cancelled, then held in May after all."),
        ("The fair took place in May.", "The fair was postponed from March and cancelled twice."),
        # another edition: the years differ
        ("The fair took place in 2022.", "The 2021 fair was cancelled."),
        # a cancellation denied
        ("The match was played in Leeds.", "The match in Leeds was not cancelled."),
    ],
)
def test_no_cancelled_event_when_the_claim_source_or_edition_says_otherwise(
    claim: str, source: str
) -> None:
    assert cancelled_event(claim, source) is None


def test_the_share_counts_the_words_that_say_which_event() -> None:
    found = cancelled_event(
        "The conference took place in Paris.", "The conference in Berlin was cancelled."
    )
    assert found is not None and found.share == 0.5  # "conference" found, "Paris" not


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "The band played its farewell concert in Oslo.",
            "The band's farewell concert in Oslo was cancelled at the last minute.",
        ),
        (
            "The university held its graduation ceremony in June.",
            "The university scrapped its June graduation ceremony amid the strike.",
        ),
    ],
)
def test_an_event_named_as_the_object_of_an_active_verb_is_read_too(
    claim: str, source: str
) -> None:
    finding = cancelled_event(claim, source)
    assert finding is not None and finding.share == 1.0


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (  # another event: its words are not the claim's
            "The team played the final at Wembley.",
            "The team's semi-final at Wembley was cancelled.",
        ),
        (  # the claim itself says it did not happen
            "The band never played its farewell concert.",
            "The band's farewell concert was cancelled.",
        ),
        (  # a verb with no event as its object
            "The band played guitar in Oslo.",
            "The band's concert in Oslo was cancelled.",
        ),
    ],
)
def test_no_event_object_conflict_when_the_event_differs_or_is_denied(
    claim: str, source: str
) -> None:
    assert cancelled_event(claim, source) is None
