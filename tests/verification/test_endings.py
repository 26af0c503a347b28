"""A source sentence that ends what a positive statement asserts (the polarity reading's aid)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provgraph.verification.endings import ends_statement
from provgraph.verification.polarity import ENDED_CONTRADICTION, _read


@pytest.mark.parametrize(
    ("statement", "source"),
    [
        ("The airline flies to Lisbon.", "The airline ended its Lisbon service in 2022."),
        (
            "The newspaper publishes a print edition.",
            "In 2018 the newspaper stopped its print edition.",
        ),
        ("The bank offers paper statements.", "The bank phased out paper statements last year."),
    ],
)
def test_an_ending_verb_over_the_statements_object_ends_it(statement: str, source: str) -> None:
    assert ends_statement(statement, source)


@pytest.mark.parametrize(
    ("statement", "source"),
    [
        # the ending is denied
        ("The airline flies to Lisbon.", "The airline never stopped its Lisbon service."),
        # something else ended
        ("The airline flies to Lisbon.", "The airline ended its Porto service in 2022."),
        # another subject
        ("The airline flies to Lisbon.", "The railway ended its Lisbon service in 2022."),
        # nothing after the statement's verb: the verb alone names too little
        ("The shop opens.", "The shop ended its Sunday opening."),
    ],
)
def test_no_ending_of_what_the_statement_asserts(statement: str, source: str) -> None:
    assert not ends_statement(statement, source)


def test_the_polarity_reading_takes_an_ending_as_a_contradiction_of_the_positive_form() -> None:
    positive, window = "The airline flies to Lisbon.", "The airline ended its Lisbon service."
    scores = {(window, positive): (0.72, 0.2)}
    # raised by the ending; not an ended *state*, so no ruled entailment (session 26)
    assert _read(scores, window, positive) == (0.72, ENDED_CONTRADICTION, False)
    other = "The airline opened a Lisbon lounge."
    assert _read({(other, positive): (0.72, 0.2)}, other, positive) == (0.72, 0.2, False)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300), st.text(max_size=300))
def test_never_raises(statement: str, source: str) -> None:
    ends_statement(statement, source)
