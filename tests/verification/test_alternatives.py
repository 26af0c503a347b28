"""Two alternatives exchanged ("buses instead of a tram" / "a tram rather than buses")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provgraph.verification.alternatives import alternatives_swap, preferences
from provgraph.verification.consistency import check_consistency
from provgraph.verification.wordsets import stem


def test_a_contrastive_phrase_asserts_the_first_alternative() -> None:
    (found,) = preferences("The city opted for a tram line rather than buses.")
    assert stem("tram") in found.asserted and stem("buses") in found.aside
    assert found.asserted_text == "The city opted for a tram line"
    assert found.aside_text == "buses"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "The city chose buses instead of a tram line.",
            "The city opted for a tram line rather than buses.",
        ),
        ("Most voters backed Smith, not Jones.", "Most voters backed Jones, not Smith."),
        (
            "The firm invested in solar rather than wind.",
            "The firm invested in wind power instead of solar panels.",
        ),
    ],
)
def test_the_choice_stated_the_other_way_round_is_a_conflict(claim: str, source: str) -> None:
    assert alternatives_swap(claim, source) is not None
    result = check_consistency(claim, source, source)
    assert result.negation_mismatch
    assert "rather than" in result.details["roles"]


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the same choice, other words for the contrast
        (
            "Most buyers choose a supplier for delivery speed rather than price.",
            "Buyers mostly choose suppliers for delivery speed (63%), not price (22%).",
        ),
        (
            "The city chose buses instead of a tram line.",
            "The city chose buses rather than a tram line.",
        ),
        # the set-aside alternative merely mentioned: one direction only
        (
            "The city chose buses instead of a tram line.",
            "A tram line was also discussed by the city.",
        ),
        # another subject altogether
        (
            "The city chose buses instead of a tram line.",
            "The orchestra played Brahms rather than Liszt.",
        ),
    ],
)
def test_the_same_choice_or_a_mere_mention_is_no_conflict(claim: str, source: str) -> None:
    assert alternatives_swap(claim, source) is None


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300), st.text(max_size=300))
def test_never_raises(claim: str, source: str) -> None:
    alternatives_swap(claim, source)
