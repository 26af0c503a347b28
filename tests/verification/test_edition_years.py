"""A year naming an edition of a thing ("the 2020 festival") is not when an event happened."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provgraph.verification.consistency import check_consistency
from provgraph.verification.dates import extract_dates


def _editions(text: str) -> dict[str, bool]:
    return {m.surface: m.edition for m in extract_dates(text)}


def test_a_year_between_a_determiner_and_a_noun_names_an_edition() -> None:
    assert _editions("The 2020 festival was cancelled.") == {"2020": True}
    assert _editions("Europe's 2022 summer was the hottest.") == {"2022": True}
    assert _editions("In its 2019 annual report the firm wrote off $2m.") == {"2019": True}


@pytest.mark.parametrize(
    "text",
    [
        "The festival took place in 2020.",
        "In the 2020 and 2021 seasons the club lost money.",  # two years, no one thing
        "By the 2020 to 2022 period, sales had doubled.",
        "The plant opened in March 2020 after delays.",
    ],
)
def test_a_time_is_not_an_edition(text: str) -> None:
    assert not any(_editions(text).values())


def test_another_editions_year_is_not_a_contradiction() -> None:
    source = "The 2020 festival was cancelled because of the pandemic."
    result = check_consistency("The festival took place in 2021.", source, source)
    assert result.anchored_mismatches == ()
    assert result.year_mismatches == ("2021",)  # dated, but not this event: unconfirmed


def test_an_editions_year_confirms_the_time_it_names() -> None:
    source = "The 2016 championship was held in Lyon."
    result = check_consistency("The championship was held in 2016.", source, source)
    assert result.agreements == ("2016",) and not result.year_mismatches


def test_times_and_editions_still_conflict_with_their_own_kind() -> None:
    times = check_consistency(
        "The bridge opened in 1998.", "The bridge opened in 1996.", "The bridge opened in 1996."
    )
    assert times.anchored_mismatches == ("1998",)
    labels = "The 2020 festival was cancelled."
    editions = check_consistency("The 2021 festival was cancelled.", labels, labels)
    assert editions.anchored_mismatches == ("2021",)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("the 2020 its's festival  1999a.,")), max_size=60))
def test_reading_editions_never_raises(text: str) -> None:
    for mention in extract_dates(text):
        assert not mention.edition or mention.surface.isdigit()
