"""Session 34's rules, as pure text: a predicate with a name judged by its other words
(:func:`~provgraph.verification.predicate.named_predicate`), a price's "higher" read as
"more expensive" (:mod:`.directions`), what an exception phrase sets apart not asserted and
an ending read by the verb's synonyms (:mod:`.negation`), and a claim date's own verb
breaking a tie between two dates of one clause (:func:`.event_dates.event_anchor`), a window
date of another event when the window names nothing of the claim's, and a claim about a
relative of someone the source names no relative of (:mod:`.relatives`). The
shipped models on such pairs are in ``data/hard_cases_s34.jsonl``.
"""

from __future__ import annotations

import pytest

from provgraph.verification.consistency import check_consistency
from provgraph.verification.directions import direction_conflict
from provgraph.verification.exceptions_words import excepted
from provgraph.verification.predicate import named_predicate, off_predicate
from provgraph.verification.relatives import unnamed_relative
from provgraph.verification.report import Evidence, StageScore
from provgraph.verification.wordsets import stem


def _nli(source: str) -> StageScore:
    evidence = Evidence(source_key="d_1", start=0, end=len(source), text=source)
    return StageScore(stage="nli", score=0.1, raw={}, evidence=evidence)


@pytest.mark.parametrize(
    ("claim", "reading"),
    [
        ("Marie Curie won two Nobel Prizes.", (["won"], ["nobel", "prizes"])),
        ("Frida Kahlo married Diego Rivera.", (["married"], ["diego", "rivera"])),
        ("The festival takes place in Edinburgh.", None),  # a place: a swap is how it reads
        ("The striker plays for Celtic.", None),  # an affiliation
        ("The film was directed by Greta Lind.", None),  # an agent
        ("The market opens in March.", None),  # a month: a time
        ("The farm keeps cows.", None),  # no name at all
    ],
)
def test_a_named_predicate_is_an_object_or_a_title(
    claim: str, reading: tuple[list[str], list[str]] | None
) -> None:
    found = named_predicate(claim)
    if reading is None:
        assert found is None
    else:
        assert found is not None
        words, names = found
        assert [stem(w) for w in words if stem(w) not in {"two"}] == [stem(reading[0][0])]
        assert names == reading[1]


@pytest.mark.parametrize(
    ("claim", "source", "off"),
    [
        (
            "Marie Curie won two Nobel Prizes.",
            "Marie Curie was born in Warsaw and moved to Paris to study physics.",
            True,
        ),
        # the source names the claim's name: it may say the claim otherwise
        ("Marie Curie won two Nobel Prizes.", "Marie Curie shared the Nobel Prize.", False),
        # the verb is spoken of: NLI's contradiction is about it
        ("Frida Kahlo married Diego Rivera.", "Frida Kahlo married a banker in 1920.", False),
        ("The festival takes place in Edinburgh.", "The festival is held in Glasgow.", False),
    ],
)
def test_a_named_predicate_is_off_when_neither_its_words_nor_its_names_are_spoken(
    claim: str, source: str, off: bool
) -> None:
    assert off_predicate(claim, source, _nli(source)) is off


@pytest.mark.parametrize(
    ("claim", "source", "conflict"),
    [
        (
            "Rents in the north are cheaper than in the south.",
            "Rents in the north are higher than in the south.",
            True,
        ),
        (
            "Rents in the north are cheaper than in the south.",
            "Rents in the north are lower than in the south.",
            False,
        ),
        # no price named: "higher" is no cost
        (
            "The northern peaks are cheaper to climb than the southern ones.",
            "The northern peaks are higher than the southern ones.",
            False,
        ),
    ],
)
def test_a_price_that_is_higher_is_more_expensive(claim: str, source: str, conflict: bool) -> None:
    assert (direction_conflict(claim, source) is not None) is conflict


def test_an_exception_sets_its_words_apart() -> None:
    assert {stem("public"), stem("holidays")} <= excepted(
        "The ferry runs daily except on public holidays."
    )
    assert excepted("The ferry runs daily.") == set()


@pytest.mark.parametrize(
    ("claim", "source", "mismatch"),
    [
        (
            "The ferry does not run on public holidays.",
            "The island ferry runs daily except on public holidays, when it is suspended.",
            False,
        ),
        ("The ferry does not run on public holidays.", "The ferry runs on public holidays.", True),
        (
            "The factory no longer produces glass bottles.",
            "The factory stopped making glass bottles in 2015.",
            False,
        ),
        ("The factory no longer produces glass bottles.", "The factory makes glass bottles.", True),
    ],
)
def test_negated_claims_against_exceptions_and_endings(
    claim: str, source: str, mismatch: bool
) -> None:
    assert check_consistency(claim, source, source).negation_mismatch is mismatch


@pytest.mark.parametrize(
    ("claim", "source", "anchored"),
    [
        # the window's 2019 is the renovation's: nothing dates the renaming
        (
            "The station was renovated in 2019 and renamed in 2020.",
            "The station underwent a full renovation in 2019.",
            (),
        ),
        # the window's 1995 is an opening's: the claim's 1990 opening is contradicted
        ("The mill opened in 1990 and closed in 1995.", "The mill opened in 1995.", ("1990",)),
    ],
)
def test_a_claim_dates_own_verb_breaks_a_tie_between_its_dates(
    claim: str, source: str, anchored: tuple[str, ...]
) -> None:
    assert check_consistency(claim, source, source).anchored_mismatches == anchored


@pytest.mark.parametrize(
    ("claim", "source", "anchored"),
    [
        # nothing of the tour in the window: its 1905 is the founding's
        ("The orchestra toured Japan in 2018.", "The orchestra was founded in 1905.", ()),
        ("In 2018 the orchestra toured Japan.", "The orchestra was founded in 1905.", ()),
        # an event with nothing after its verb: one release in other words
        ("The album was released in 1994.", "The album came out in 1996.", ("1994",)),
        # the window names the claim's store: the same opening, another year
        (
            "The company opened its first store in 1999.",
            "The company's first store opened in 2003.",
            ("1999",),
        ),
    ],
)
def test_a_window_date_of_another_event_the_claims_event_unnamed(
    claim: str, source: str, anchored: tuple[str, ...]
) -> None:
    assert check_consistency(claim, source, source).anchored_mismatches == anchored


@pytest.mark.parametrize(
    ("claim", "source", "relation"),
    [
        ("The poet's brother was a sailor.", "The poet was a sailor before he wrote.", "brother"),
        ("Lena Park's father founded the bakery.", "Lena Park founded the bakery.", "father"),
        # the source names a relative: perhaps the claim's in other words
        ("The actor's wife is a lawyer.", "The actor's spouse is a lawyer.", None),
        ("The poet's brother was a sailor.", "The poet's younger brother went to sea.", None),
        # a pronoun's relative: whose, the claim does not say
        ("His wife runs a bakery.", "He runs a bakery.", None),
        # the possessor unnamed: an unrelated source, for the other rules
        ("The poet's brother was a sailor.", "The ship sailed at dawn.", None),
        ("The company's revenue rose.", "The company grew.", None),  # no relation
    ],
)
def test_a_relative_of_someone_the_source_speaks_of(
    claim: str, source: str, relation: str | None
) -> None:
    assert unnamed_relative(claim, source) == relation
