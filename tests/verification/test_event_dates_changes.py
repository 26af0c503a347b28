"""Dates of another event, relative years, changes against changes, counts of the same people,
routes (session 22)."""

from __future__ import annotations

import pytest

from provgraph.verification.change_checks import judge_relative
from provgraph.verification.changes import extract_changes
from provgraph.verification.consistency import check_consistency
from provgraph.verification.dates import extract_dates
from provgraph.verification.event_dates import date_of_other_event, event_verb
from provgraph.verification.relative_dates import relative_years
from provgraph.verification.roles import role_swap
from provgraph.verification.routes import route_swap
from provgraph.verification.slots import Outcome


def _verb_of_date(text: str, year: str) -> str | None:
    (date,) = [d for d in extract_dates(text) if d.surface.endswith(year)]
    found = event_verb(text, date.start, date.end)
    return None if found is None else found[0]


@pytest.mark.parametrize(
    ("text", "year", "verb"),
    [
        ("Construction began in 2015 and the bridge opened to traffic in 2018.", "2015", "begin"),
        ("Construction began in 2015 and the bridge opened to traffic in 2018.", "2018", "open"),
        ("She joined the court in 2005 and retired in 2021.", "2021", "retire"),
        ("The phone did not go on sale until early 2020.", "2020", "go"),
        ("Talks began in 1994; it was finally signed in 1997 in Lisbon.", "1997", "sign"),
        ("In 2018 the bridge opened.", "2018", "open"),
        ("The bridge was in 2015 a ruin.", "2015", None),
        ("The bridge opened in 2015 and 2018.", "2018", None),
    ],
)
def test_the_verb_a_date_is_the_date_of(text: str, year: str, verb: str | None) -> None:
    assert _verb_of_date(text, year) == verb


def _other_event(claim: str, window: str) -> str | None:
    (value,) = extract_dates(claim)
    found = date_of_other_event(claim, value, window, extract_dates(window))
    return None if found is None else found.surface


@pytest.mark.parametrize(
    ("claim", "window", "expected"),
    [
        (
            "The bridge opened in 2015.",
            "Construction began in 2015 and the bridge opened to traffic in 2018.",
            "2018",
        ),
        (
            "The treaty was signed in 1994.",
            "Talks on the treaty began in 1994; it was finally signed in 1997 in Lisbon.",
            "1997",
        ),
        (
            "She retired from the court in 2005.",
            "She joined the court in 2005 and retired in 2021.",
            "2021",
        ),
        (
            "The phone went on sale in 2019.",
            "The phone was announced in 2019 but did not go on sale until early 2020.",
            "early 2020",
        ),
        # the claim's own event dated as the claim says
        (
            "The bridge opened in 2018.",
            "Construction began in 2015 and the bridge opened in 2018.",
            None,
        ),
        # another subject's event of the same verb dates nothing of the claim's
        (
            "The bridge opened in 2015.",
            "The bridge's construction began in 2015, and the nearby tunnel opened in 2018.",
            None,
        ),
        # the claim's date given to no verb: nothing to tell
        ("The bridge opened in 2015.", "The bridge opened in 2018, the tunnel in 2015.", None),
        # a synonym of the claim's verb is the same event
        ("Work started in 2015.", "Work began in 2015 and ended in 2019.", None),
    ],
)
def test_a_date_the_source_gives_to_another_event(
    claim: str, window: str, expected: str | None
) -> None:
    assert _other_event(claim, window) == expected


def test_another_events_date_is_an_anchored_mismatch() -> None:
    window = "Construction began in 2015 and the bridge opened to traffic in 2018."
    result = check_consistency("The bridge opened in 2015.", window, window)
    assert result.anchored_mismatches == ("2015",)
    assert result.details["values_in_source"] == "2018"


@pytest.mark.parametrize(
    ("claim", "window", "outcome"),
    [
        (
            "Sales doubled in the second year.",
            "Sales rose by about 15 percent in the second year.",
            Outcome.MISMATCH,
        ),
        (
            "Membership doubled last year.",
            "Membership rose by 100 percent last year.",
            Outcome.AGREE,
        ),
        (
            "Crime halved in the city centre.",
            "Crime in the city centre fell by 12 percent.",
            Outcome.MISMATCH,
        ),
        ("Exports grew by about a fifth.", "Exports increased 21% in the period.", Outcome.AGREE),
        # a change of something else: too few shared words to say anything
        ("Sales doubled.", "Costs at the new plant rose 5%.", Outcome.UNVERIFIED),
    ],
)
def test_a_change_against_the_sources_own_change(claim: str, window: str, outcome: Outcome) -> None:
    (change,) = extract_changes(claim)
    assert judge_relative(change, extract_changes(window))[0] == outcome


def test_a_multipliers_plain_form_is_a_change_only_as_a_verb() -> None:
    assert extract_changes("This is known as the double empathy problem.") == []
    assert extract_changes("a triple jump") == []
    assert [c.surface for c in extract_changes("Sales are expected to double by 2030.")] == [
        "double"
    ]


def test_doubled_against_a_small_rise_is_a_contradiction() -> None:
    window = "Sales rose by about 15 percent in the second year."
    result = check_consistency("Sales doubled in the second year.", window, window)
    assert result.anchored_mismatches == ("doubled",)


def test_doubled_agrees_with_a_rise_of_100_percent() -> None:
    window = "Membership rose by 100 percent last year, to 8,000."
    result = check_consistency("Membership doubled last year.", window, window)
    assert "doubled" in result.agreements and result.values_paraphrased


def test_a_written_percentage_is_left_to_the_plain_values() -> None:
    # the plain comparison reads the whole source: 12% is stated there (for staff)
    source = "Revenue grew 15% in 2020, while staff grew 12%."
    assert check_consistency("Revenue grew 12% in 2020.", source, source).penalty == 0.0


@pytest.mark.parametrize(
    ("claim", "window", "anchored"),
    [
        (
            "Fewer than 100 people attended the meeting.",
            "More than 300 residents packed into the hall for the meeting.",
            ("100",),
        ),
        (
            "About 50 people were evacuated.",
            "Firefighters evacuated more than 400 residents.",
            ("50",),
        ),
    ],
)
def test_people_and_a_group_of_people_are_the_same_count(
    claim: str, window: str, anchored: tuple[str, ...]
) -> None:
    assert check_consistency(claim, window, window).anchored_mismatches == anchored


def test_a_group_of_people_confirms_a_count_of_people() -> None:
    window = "Around 250 students took part in the march through the city."
    result = check_consistency("More than 200 people took part in the march.", window, window)
    assert result.agreements == ("200",) and not result.anchored_mismatches


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("The film came out in 2010, and the sequel followed two years later.", [2012]),
        ("Born in 1950, she moved in 1975 and a year later opened a shop.", [1976]),
        ("The law passed in 1990; the following year it was amended.", [1991]),
        ("The tower was finished in 1900, three decades after work began.", []),
        ("It closed in 2001. Five years earlier it had been sold.", [1996]),
        # no base year: nothing to count from
        ("The sequel followed two years later.", []),
    ],
)
def test_years_given_relative_to_another(text: str, years: list[int]) -> None:
    assert [year for _s, _e, year in relative_years(text)] == years


def test_a_relative_year_is_compared_like_any_date() -> None:
    window = "The original film came out in 2010, and the sequel followed two years later."
    wrong = check_consistency("The sequel was released in 2014.", window, window)
    right = check_consistency("The sequel was released in 2012.", window, window)
    # its own "two years" does not make the mismatch arithmetic (bridged_dates)
    assert wrong.anchored_mismatches == ("2014",)
    assert right.agreements == ("2012",) and not right.anchored_mismatches


@pytest.mark.parametrize(
    ("claim", "source", "swapped"),
    [
        (
            "The flight from Madrid to Lisbon was delayed.",
            "The flight from Lisbon to Madrid was delayed.",
            True,
        ),
        (
            "The flight from Madrid to Lisbon was delayed.",
            "Flights from Lisbon to Madrid and from Madrid to Lisbon were delayed.",
            False,
        ),
        # a period, not a route
        ("Prices rose from January to March.", "Prices fell from March to January.", False),
    ],
)
def test_a_route_run_the_other_way(claim: str, source: str, swapped: bool) -> None:
    assert (route_swap(claim, source) is not None) == swapped
    assert (role_swap(claim, source) is not None) == swapped


def test_a_baseline_a_year_earlier_is_no_date() -> None:
    assert relative_years("In Q3 2023, revenue rose 6% from a year earlier.") == []
    assert relative_years("Sales in 2020 were higher than a year earlier.") == []
