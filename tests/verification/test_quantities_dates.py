"""Quantities and dates as intervals, and the same-subject rule that makes a mismatch."""

from __future__ import annotations

import math
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provgraph.verification.consistency import check_consistency
from provgraph.verification.dates import extract_dates
from provgraph.verification.quantities import extract_quantities


def _one(text: str) -> tuple[str, float, float]:
    (m,) = extract_quantities(text)
    return m.kind, m.low, m.high


def test_spelled_out_and_symbol_percentages_are_one_kind() -> None:
    kind_a, low_a, high_a = _one("Exports grew seven percent.")
    kind_b, low_b, high_b = _one("Exports grew 7%.")
    assert kind_a == kind_b == "percent"
    assert low_a <= 7.0 <= high_a and low_b <= 7.0 <= high_b


def test_scaled_currency_values_compare_equal() -> None:
    a = _one("It raised $1.5 million.")
    b = _one("It raised 1,500 thousand dollars.")
    assert a[0] == b[0] == "currency:dollar"
    assert a[1] <= 1_500_000 <= a[2] and b[1] <= 1_500_000 <= b[2]


def test_comparatives_are_open_intervals() -> None:
    assert _one("more than 80 countries")[1:] == (80.0, math.inf)
    assert _one("at least 30 people")[1:] == (30.0, math.inf)
    assert _one("fewer than 12 people")[1:] == (-math.inf, 12.0)


def test_rounding_tolerance_is_half_the_last_digit_capped() -> None:
    _kind, low, high = _one("about 1.5 million residents")
    assert low <= 1_503_000 <= high
    _kind, low, high = _one("2,000 employees")
    assert high - low == pytest.approx(200.0)  # 5% cap, not ±500
    _kind, low, high = _one("2 million people")
    assert (low, high) == (1_900_000, 2_100_000)


def test_units_of_one_dimension_are_converted() -> None:
    km, m = _one("a 2 km bridge"), _one("a 2,000 metres bridge")
    assert km[0] == m[0] == "length" and km[1] <= m[1] <= km[2]


def test_proportion_words_are_percentages() -> None:
    assert _one("Most buyers agreed.")[1:] == (50.0, 100.0)
    kind, low, high = _one("Half of the patients recovered.")
    assert kind == "percent" and low <= 50.0 <= high
    kind, low, high = _one("One in four adults smokes.")
    assert kind == "percent" and low <= 25.0 <= high


def test_years_are_left_to_the_date_check() -> None:
    assert extract_quantities("It was founded in 1987.") == []
    assert [d.surface for d in extract_dates("It was founded in 1987.")] == ["1987"]


@pytest.mark.parametrize(
    ("text", "surface"),
    [
        ("launched in March 2024 in Berlin", "March 2024"),
        ("results for Q3 2022 were strong", "Q3 2022"),
        ("in the third quarter of 2022", "third quarter of 2022"),
        ("starts on the 1st of June", "the 1st of June"),
        ("starts on June 21st", "June 21st"),
        ("signed on 15 February 2021", "15 February 2021"),
        ("during the 1990s", "the 1990s"),
        ("in early 2020", "early 2020"),
    ],
)
def test_date_phrases_are_found(text: str, surface: str) -> None:
    assert [d.surface for d in extract_dates(text)] == [surface]


def test_may_the_modal_verb_is_not_a_date() -> None:
    assert extract_dates("The drug may reduce pain.") == []


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The product launched in March 2024.", "The product launched in May 2024."),
        ("Sales peaked in Q3 2022.", "Sales peaked in the fourth quarter of 2022."),
        ("The meeting is on March 1st.", "The meeting is on March 21st."),
        ("The firm was founded in 1457.", "The firm was established in 1603 by merchants."),
        ("At least 30 people died in the flood.", "The flood killed 12 people."),
        ("More than 80 countries signed the treaty.", "The treaty was signed by 45 countries."),
        ("The bridge is 5 km long.", "The bridge is 3,000 metres long."),
    ],
)
def test_same_fact_other_value_is_an_anchored_mismatch(claim: str, source: str) -> None:
    result = check_consistency(claim, source, source)
    assert result.anchored_mismatches and result.penalty == pytest.approx(0.8)


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Revenue grew 7% last year.", "Revenue grew seven percent last year."),
        ("The startup raised $1.5 million.", "The startup raised 1,500 thousand dollars."),
        ("At least 30 people died in the flood.", "The flood killed 42 people."),
        ("More than 80 countries signed the treaty.", "The treaty was signed by 95 countries."),
        ("The city has about 1.5 million residents.", "The city has 1,503,000 residents."),
        (
            "The merger closed in the first quarter of 2021.",
            "The merger closed on 15 February 2021.",
        ),
        ("The product launched in 2024.", "The product launched in May 2024."),
        (
            "Most buyers choose delivery speed.",
            "63% of buyers named delivery speed, 22% named price.",
        ),
    ],
)
def test_paraphrased_values_agree(claim: str, source: str) -> None:
    result = check_consistency(claim, source, source)
    assert result.penalty == 0.0 and result.agreements


def test_values_about_other_things_are_never_a_contradiction() -> None:
    source = "The museum opened in 1995 and shows 300 paintings."
    result = check_consistency("Revenue reached $4.2 billion in 2025.", source, source)
    assert result.anchored_mismatches == ()
    assert result.year_mismatches == ("2025",)  # unconfirmed: lowers support only
    assert result.penalty == pytest.approx(0.5)


def test_claim_value_stated_elsewhere_in_the_source_is_not_a_mismatch() -> None:
    source = "Revenue grew 15% in 2020, while staff grew 12%."
    window = "Revenue grew 15% in 2020"
    assert check_consistency("Staff grew 12% in 2020.", window, source).penalty == 0.0


def test_a_figure_stated_for_another_year_does_not_rescue_a_mismatch() -> None:
    source = (
        "In 2016 the cooperative shipped 2,110 tonnes of coffee. "
        "In 2021 the cooperative shipped 2,890 tonnes of coffee."
    )
    window = "In 2016 the cooperative shipped 2,110 tonnes of coffee."
    claim = "In 2016 the cooperative shipped 2,890 tonnes of coffee."
    result = check_consistency(claim, window, source)
    assert result.anchored_mismatches == ("2,890 tonnes",)
    # the same figure in a sentence without a year of its own still states it
    yearless = window + " Its record shipment was 2,890 tonnes of coffee."
    assert check_consistency(claim, window, yearless).anchored_mismatches == ()


@settings(max_examples=60, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("0123456789 ,.%$-abcQMayJune1st of not€")), max_size=80),
    st.text(
        alphabet=st.sampled_from(list("0123456789 ,.%$-abcQMarch 2024 no never")), max_size=120
    ),
)
def test_any_text_gives_a_result_never_an_error(claim: str, window: str) -> None:
    result = check_consistency(claim, window, window)
    assert 0.0 <= result.penalty <= 1.0
    assert set(result.anchored_mismatches) <= set(result.year_mismatches + result.number_mismatches)


@pytest.mark.parametrize(
    ("source", "confirmed"),
    [
        # the number is in the source, but counting something else
        ("The company sold 3,000 cars last month through its dealers.", False),
        # the same count in other words (people and a group of people)
        ("The company has 3,000 employees.", True),
        # the number with no counted noun after it: not evidence against the claim
        ("The company's workforce numbered 3,000 at the end of the year.", True),
    ],
)
def test_a_count_the_source_uses_only_for_other_things_is_not_confirmed(
    source: str, confirmed: bool
) -> None:
    result = check_consistency("The company employs 3,000 people.", source, source)
    assert ("3,000" not in result.number_mismatches) is confirmed
    assert not result.anchored_mismatches  # unconfirmed, never a contradiction


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("Of the 400 students who sat the exam, 102 passed.", 25.4, 25.6),
        ("The college accepted 312 of its 3,050 applicants.", 10.2, 10.3),
        ("Only 18 of the 120 patients recovered within a week.", 14.5, 15.5),
        ("The fire burned 6,500 of the forest's 10,000 hectares.", 64.9, 65.1),
    ],
)
def test_a_share_stated_as_two_counts_is_a_percentage(text: str, low: float, high: float) -> None:
    (share,) = [m for m in extract_quantities(text) if m.kind == "percent"]
    assert low - 0.05 <= share.low <= share.high <= high + 0.05
    # the counts stay values: "102 passed" is still checkable ("10,000 hectares" is an area
    # since session 29)
    assert len([m for m in extract_quantities(text) if m.kind in ("count", "area")]) == 2


def test_a_share_from_counts_agrees_only_about_the_same_thing() -> None:
    source = "Of the 400 staff, 102 passed the exam and the rest are based in London."
    agree = check_consistency("About a quarter of the staff passed the exam.", source, source)
    assert agree.agreements and agree.penalty == 0.0
    wrong = check_consistency("About half of the staff passed the exam.", source, source)
    assert wrong.anchored_mismatches
    # the same population, another predicate: not confirmed by overlap alone
    other = "Of the 400 staff, 102 are based in Leeds and the rest in London."
    remote = check_consistency("About a quarter of the staff work remotely.", other, other)
    assert not remote.agreements and not remote.anchored_mismatches


def test_a_denied_lower_bound_is_an_upper_bound() -> None:
    (at_most,) = extract_quantities("No more than 50 people attended.")
    assert (at_most.low, at_most.high) == (-math.inf, 50)
    result = check_consistency(
        "No more than 50 people attended.", "The hall held about 300 attendees.", "x"
    )
    assert result.anchored_mismatches == ("50",)


@pytest.mark.parametrize(
    "text", ["from 2009 to 2015", "between 2009 and 2015", "2009\u20132015", "2009-15"]
)
def test_a_span_of_years_is_one_date(text: str) -> None:
    (span,) = extract_dates(f"She was mayor of the city {text}.")
    assert span.span and date.fromordinal(int(span.low)) == date(2009, 1, 1)
    assert date.fromordinal(int(span.high)) == date(2015, 12, 31)


def test_a_year_inside_a_span_agrees_and_spans_agree_end_for_end() -> None:
    source = "She was mayor of the city from 2009 to 2015."
    inside = check_consistency("She served as mayor in 2012.", source, source)
    assert inside.agreement == 1.0 and not inside.anchored_mismatches
    after = check_consistency("She served as mayor in 2018.", source, source)
    assert after.anchored_mismatches == ("2018",)
    other_end = "The exhibition ran from 2010 to 2018 in the east wing."
    ends = check_consistency("The exhibition ran from 2010 to 2015.", other_end, other_end)
    assert ends.anchored_mismatches


def test_a_claimed_span_is_confirmed_only_by_its_ends() -> None:
    claim = "Donald Trump served one term from 2017 to 2021."
    ends = "Trump took office on January 20, 2017 and left on January 20, 2021."
    assert check_consistency(claim, ends, ends).agreement == 1.0
    inside = "Trump, president in 2019, met the prime minister in London."
    result = check_consistency(claim, inside, inside)
    assert result.agreement == 0.0 and not result.anchored_mismatches
