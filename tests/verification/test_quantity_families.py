"""Paraphrased quantities and dates agree; the same quantity given otherwise is a mismatch.

Session 5 families (docs/verification.md "Session 5"): comparatives and bounds,
relative changes, unit and scale changes, proportions, rounding, quarters and
months, and the rule that a mismatch needs the *same* measured thing. Every
pair runs the real quantulum3 and dateutil readings through
:func:`check_consistency` (claim against the source as window and source).
"""

from __future__ import annotations

import math
from datetime import date

import pytest

from provgraph.verification.changes import extract_changes
from provgraph.verification.consistency import check_consistency
from provgraph.verification.dates import extract_dates
from provgraph.verification.measures import different_measures, same_counted_noun
from provgraph.verification.proportions import extract_proportions
from provgraph.verification.quantities import extract_quantities, read_quantities
from provgraph.verification.wordsets import content_stems

AGREE = [
    ("The flight takes about three hours.", "The flight between the two cities lasts 180 minutes."),
    ("The ferry crossing took 90 minutes.", "The ferry crossing lasted 1.5 hours."),
    # speeds in other units; centuries and "the 1900s" as the years they span
    ("The speed limit on the motorway is 70 mph.", "The motorway has a speed limit of 113 km/h."),
    ("The ferry crosses at 20 knots.", "The ferry crosses at about 37 km/h."),
    ("The cathedral was completed in the 14th century.", "The cathedral was finished in 1345."),
    ("The mill was built in the late nineteenth century.", "The mill was built in 1888."),
    ("The house was built in the 1900s.", "The house was built in 1952."),
    # comparatives and bounds
    ("Over a third of the power comes from wind.", "Wind supplies 36 percent of the power."),
    ("Nearly half of the households own a car.", "48% of the households own a car."),
    ("The repair took less than two hours.", "Engineers finished the repair in 95 minutes."),
    ("Almost 2,000 runners finished the race.", "1,946 runners finished the race."),
    # relative changes against "from A to B"
    ("Ticket sales fell by 20% last season.", "Ticket sales dropped from 50,000 to 40,000."),
    ("The charity's income tripled.", "The charity's income grew from $2 million to $6.1 million."),
    ("The waiting list was halved.", "The waiting list shrank from 800 patients to 410."),
    # a change whose size is a fraction in words, against a change and against a percentage
    ("Bus fares went up by a quarter.", "Bus fares rose from 2.00 euros to 2.50 euros."),
    ("The club's debt was cut by half.", "The club cut its debt by 50 percent."),
    ("Exports to Asia fell by a third.", "Exports to Asia dropped 34%."),
    ("Rents rose by about 10%.", "Rents went from 1,000 euros to 1,100 euros."),
    (
        "The number of cyclists doubled between 2015 and 2020.",
        "The number of cyclists rose from 12,000 in 2015 to 24,500 in 2020.",
    ),
    # units and scale words
    ("The flight takes 3 hours.", "The flight time is 180 minutes."),
    ("The baby weighed 3.2 kilograms at birth.", "At birth the baby weighed 3,200 grams."),
    ("The tunnel is 2.5 km long.", "The 2,500-metre tunnel took six years to dig."),
    ("Revenue reached 3.4 billion dollars.", "Revenue rose to $3.4bn."),
    # a no-break space between the figure and its scale word (read apart by the library)
    (
        "A total of €76.25 million was paid out.",
        "In 2018, a total of €76.25\u00a0million was paid out.",
    ),
    ("The loan's interest rate is 7%.", "The interest rate on the loan is 0.07."),
    ("The club paid €4 million for him.", "The club paid a fee of 4,000,000 euros for him."),
    ("The temperature reached 40 degrees Celsius.", "The temperature reached 104 °F."),
    ("Water boils at 100 °C at sea level.", "At sea level water boils at 373 kelvin."),
    # proportions and rounding
    ("One in five children lives in poverty.", "20 percent of children live in poverty."),
    ("Three quarters of members approved.", "75% of members approved."),
    ("The country has about 3 million inhabitants.", "It has 2.96 million inhabitants."),
    ("The company has around 300 employees.", "The company employs 312 people."),
    ("The city has a quarter of a million residents.", "The city has 250,000 residents."),
    ("Half a million tickets were sold.", "490,000 tickets were sold."),
    # quarters, months, ordinals
    ("Profits rose in Q3 2024.", "Profits rose between July and September 2024."),
    ("Orders peaked in the third quarter of 2019.", "Orders peaked in July–September 2019."),
    ("The festival begins on the first of August.", "The festival begins on 1 August."),
    ("The referendum was held in mid-March.", "The referendum was held on 15 March."),
    ("The strike began in early 2023.", "The strike began on 9 January 2023."),
    ("The bridge opened in the summer of 2015.", "The bridge opened on 14 July 2015."),
    ("Work resumed in autumn 2020.", "Work resumed in October 2020."),
    # ages in their several spellings are one kind, in years
    ("The painter died at the age of 84.", "The painter was 84 years old when he died."),
    ("The trial enrolled patients aged 65 and over.", "Its patients were all aged over 70."),
]

MISMATCH = [
    ("At least 30 flights were cancelled.", "The airport cancelled 25 flights."),
    # how long something takes, whichever verb says it
    ("The flight takes about five hours.", "The flight between the two cities lasts 180 minutes."),
    ("Over a third of the power comes from wind.", "Wind supplies 21 percent of the power."),
    ("Ticket sales fell by 20% last season.", "Ticket sales dropped from 50,000 to 25,000."),
    ("Bus fares went up by a quarter.", "Bus fares rose from 2.00 euros to 3.00 euros."),
    ("Exports to Asia fell by a third.", "Exports to Asia dropped 12%."),
    ("The city spent $1.5 million on the park.", "The city spent $15 million on the park."),
    ("The ferry crossing takes 90 minutes.", "The ferry crossing takes about three hours."),
    ("Three quarters of members approved.", "57% of members approved."),
    ("Research receives 12% of the budget.", "Research receives 21% of the budget."),
    ("Half a million tickets were sold.", "200,000 tickets were sold."),
    ("Elections were held in October 2022.", "Elections took place in December 2022."),
    ("Deliveries started in Q3.", "Deliveries started in the fourth quarter."),
    ("The dig took place in Q2 2021.", "The dig ran from August to October 2021."),
    ("The trial opens on the first of June.", "The trial opens on 11 June."),
    (
        "The bridge was completed in the spring of 2015.",
        "The bridge was completed in October 2015.",
    ),
    ("The company employs 5,000 people.", "The company sold 5,000 cars and employs 800 people."),
    # a count without a counted noun counts what its words name: a workforce is employees
    ("The mill employs more than 900 people.", "The mill has a workforce of about 400."),
    ("The cathedral was completed in the 15th century.", "The cathedral was finished in 1345."),
    ("The speed limit on the motorway is 70 mph.", "The motorway has a speed limit of 80 km/h."),
    # a number after an identifier noun names a thing: exact
    ("The server listens on port 8080 by default.", "By default the server listens on port 8000."),
    ("Version 2.1 fixed the memory leak.", "The memory leak was fixed in version 2.2."),
    # "almost" is below its value, whatever the value's rounding would reach
    ("Almost 200 people attended the meeting.", "210 people attended the meeting."),
    # consecutive written values: their rounding intervals touch, never overlap
    ("The company opened four new factories in 2020.", "In 2020 it opened five new factories."),
    (
        "Between 1989 and 2005, Arsenal won four league titles.",
        "Between 1989 and 2005, Arsenal won five league titles.",
    ),
    (
        "The fertility rate fell to 1.5 children per woman.",
        "The fertility rate fell to 1.6 children per woman.",
    ),
    ("The committee has 12 members.", "The committee has 13 members."),
    # the claim's digits in another unit do not state it
    ("The temperature reached 40 degrees Celsius.", "The temperature reached 40 °F."),
    ("The trail is 40 km long.", "The trail is 40 miles long."),
    ("The painter died at the age of 84.", "The 79-year-old painter died in his studio."),
]

OTHER_MEASURE = [
    ("The mill employs 900 people.", "The mill, with 400 looms, is the town's largest."),
    ("The bridge is 300 metres long.", "The bridge is 45 metres high."),
    ("The museum's annual budget is $4 million.", "The museum's new wing cost $12 million."),
    ("The factory opened in 1990.", "The factory closed in 2005."),
]

#: An age is not a count of the people it describes, nor a duration: the claim's
#: value is unstated by the source (no conflict), not contradicted by another kind.
AGE_AGAINST_OTHER_KINDS = [
    (
        "The trial enrolled participants over the age of 65.",
        "Participants received two doses four weeks apart.",
    ),
    ("The 84-year-old actor retired last year.", "The actor's career lasted 60 years."),
]


@pytest.mark.parametrize(("claim", "source"), AGREE)
def test_paraphrased_values_agree(claim: str, source: str) -> None:
    result = check_consistency(claim, source, source)
    assert result.anchored_mismatches == ()
    assert result.agreement == 1.0, result


@pytest.mark.parametrize(("claim", "source"), MISMATCH)
def test_the_same_quantity_given_otherwise_is_a_mismatch(claim: str, source: str) -> None:
    result = check_consistency(claim, source, source)
    assert result.anchored_mismatches, result
    assert result.penalty == pytest.approx(0.8)


@pytest.mark.parametrize(("claim", "source"), OTHER_MEASURE)
def test_values_of_another_measure_are_never_a_mismatch(claim: str, source: str) -> None:
    result = check_consistency(claim, source, source)
    assert result.anchored_mismatches == ()
    assert result.penalty == pytest.approx(0.5)  # unconfirmed: lowers support only


def test_proportion_comparatives_are_bounded_percentages() -> None:
    (over,) = extract_proportions("Over a third of the voters stayed home.")
    assert over.low == pytest.approx(100 / 3) and over.high == 100.0
    (nearly,) = extract_proportions("Nearly half of the voters stayed home.")
    assert nearly.low < 48.0 < nearly.high <= 52.0
    (two_thirds,) = extract_proportions("Two-thirds of the staff agreed.")
    assert two_thirds.low <= 200 / 3 <= two_thirds.high


def test_at_most_is_not_most_and_the_most_is_not_a_proportion() -> None:
    assert [m.kind for m in extract_quantities("It weighs 3 kg at most.")] == ["mass"]
    assert extract_proportions("It was the most popular option.") == []


def test_minutes_are_time_unless_an_angle_is_written() -> None:
    (minutes,) = extract_quantities("The crossing takes 90 minutes.")
    assert minutes.kind == "time" and minutes.low <= 5400.0 <= minutes.high
    kinds = {m.kind for m in extract_quantities("The angle is 30 degrees 15 minutes.")}
    assert all(k.startswith("angle") for k in kinds)


def test_a_trailing_at_is_not_read_as_a_unit() -> None:
    (mass,) = extract_quantities("The baby weighed 3.2 kilograms at birth.")
    assert mass.kind == "mass" and mass.surface == "3.2 kilograms"


def test_currency_scale_abbreviations() -> None:
    (bn,) = extract_quantities("Revenue rose to $3.4bn.")
    assert bn.kind == "currency:dollar" and bn.low <= 3.4e9 <= bn.high
    (m,) = extract_quantities("It won a £3m grant.")
    assert m.kind == "currency:pound sterling" and m.low <= 3e6 <= m.high


def test_descending_from_to_is_two_values_and_a_change() -> None:
    read = read_quantities("Sales dropped from 50 to 40 dollars.")
    assert [m.kind for m in read.mentions] == ["currency:dollar", "currency:dollar"]
    ((old, new),) = read.changes
    assert old.low <= 50.0 <= old.high and new.low <= 40.0 <= new.high


def test_an_ascending_range_without_a_change_verb_stays_a_range() -> None:
    read = read_quantities("Temperatures there range from 10 to 20 degrees.")
    assert read.changes == []


@pytest.mark.parametrize(
    ("text", "ratio"),
    [
        ("Profits doubled.", 2.0),
        ("The list was halved.", 0.5),
        ("Exports fell by 20%.", 0.8),
        ("a 15% rise in exports", 1.15),
        ("Shares were up 3.5 percent.", 1.035),
    ],
)
def test_change_words_are_ratios(text: str, ratio: float) -> None:
    (change,) = extract_changes(text)
    assert change.low <= ratio <= change.high


def test_more_than_doubled_is_open_and_more_than_halved_is_below_half() -> None:
    (up,) = extract_changes("Profits more than doubled.")
    assert (up.low, up.high) == (2.0, math.inf)
    (down,) = extract_changes("The deficit was more than halved.")
    assert down.low == 0.0 and down.high == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [
        ("between July and September 2024", (2024, 7, 1), (2024, 9, 30)),
        ("from August to October 2021", (2021, 8, 1), (2021, 10, 31)),
        ("the first of August 2020", (2020, 8, 1), (2020, 8, 1)),
        ("early March 2024", (2024, 3, 1), (2024, 3, 15)),
    ],
)
def test_month_ranges_ordinal_words_and_parts_of_months(
    text: str, first: tuple[int, int, int], last: tuple[int, int, int]
) -> None:
    from datetime import date

    (d,) = extract_dates(text)
    assert (d.low, d.high) == (date(*first).toordinal(), date(*last).toordinal())


def test_an_ordinal_word_is_a_day_only_where_it_cannot_be_another_ordinal() -> None:
    assert [d.surface for d in extract_dates("the first March on Washington")] == ["March"]


def test_people_count_any_group_of_people_but_groups_differ() -> None:
    def nouns(text: str) -> frozenset[str]:
        return frozenset(content_stems(text))

    assert same_counted_noun(nouns("people"), nouns("employees"))
    assert same_counted_noun(nouns("residents"), nouns("people"))
    assert not same_counted_noun(nouns("voters"), nouns("students"))
    assert not same_counted_noun(nouns("people"), nouns("cars"))


def test_different_measures_needs_a_measure_on_both_sides() -> None:
    def near(text: str) -> frozenset[str]:
        return frozenset(content_stems(text))

    assert different_measures(near("metres long"), near("metres high"))
    assert not different_measures(near("metres long"), near("bridge spans"))
    assert not different_measures(near("cost paid"), near("price"))


def test_a_fraction_after_by_is_a_change_only_after_a_change_verb_and_as_a_phrase_end() -> None:
    (change,) = extract_changes("Exports to Asia fell by two-thirds in 2020.")
    assert (round(change.low, 3), round(change.high, 3)) == (0.313, 0.353)
    assert change.value_span is not None
    assert extract_changes("The deal was brokered by a third party.") == []
    assert extract_changes("They won by half a length.") == []
    assert not [m for m in extract_proportions("Sales rose by a third party's help.")]


def test_a_century_adjective_or_bc_is_not_a_date() -> None:
    assert extract_dates("A 14th-century church stands in the square.") == []
    assert extract_dates("The temple dates from the 5th century BC.") == []
    (late,) = extract_dates("It was built in the late 19th century.")
    assert (date.fromordinal(int(late.low)).year, date.fromordinal(int(late.high)).year) == (
        1865,
        1900,
    )


def test_a_counted_noun_ends_with_its_phrase() -> None:
    (frames,) = extract_quantities("He won the final three frames to take the lead.")
    assert frames.noun == frozenset({"fram"})
    # a phrase that ends at once: the clause's first words, as before
    (score,) = extract_quantities("The baby would score 1 in the reflex response category.")
    assert score.noun == frozenset({"reflex", "respons"})
    claim = "Williams won the final three frames to take a 10-7 lead."
    source = "Williams leads 10-7. First to 18 on Monday takes the trophy."
    assert check_consistency(claim, source, source).anchored_mismatches == ()


def test_a_k_glued_to_a_number_is_thousands_not_kelvin() -> None:
    (subs,) = extract_quantities("The award comes with 100k channel subscribers.")
    assert subs.kind == "count" and subs.low <= 100_000 <= subs.high
    claim = "The Silver award is given at 100,000 subscribers."
    source = "Silver awards are achieved with 100k subscribers; Diamond at 10 million subscribers."
    result = check_consistency(claim, source, source)
    assert result.anchored_mismatches == () and result.agreement == 1.0


def test_a_full_date_is_stated_by_the_same_day_without_a_year() -> None:
    claim = "The title fight took place at the Hard Rock Hotel on April 9, 2011."
    source = (
        "By R. Sargent on February 22, 2011. The title fight takes place on April 9th "
        "at the Hard Rock Hotel."
    )
    result = check_consistency(claim, source, source)
    assert result.anchored_mismatches == ()


def test_a_capital_scale_letter_glued_to_a_number_is_a_scale() -> None:
    sizes = extract_quantities("LLaMA comes in sizes ranging from 7B to 65B parameters.")
    assert [(m.kind, m.low <= v <= m.high) for m, v in zip(sizes, (7e9, 65e9), strict=True)] == [
        ("count", True),
        ("count", True),
    ]
    (tokens,) = extract_quantities("It was trained on 1T tokens.")
    assert tokens.kind == "count" and tokens.low <= 1e12 <= tokens.high
    (sprint,) = extract_quantities("He won the 100m sprint.")
    assert sprint.kind == "length"  # a lower-case m stays metres
    claim = "The smaller LLaMA models ranged from 110 million to 1.5 billion parameters."
    source = "Today we release LLaMA, foundation models ranging from 7B to 65B parameters."
    assert check_consistency(claim, source, source).anchored_mismatches


def test_once_and_twice_at_a_phrase_end_count_times() -> None:
    (once,) = extract_quantities("Argentina has won the World Cup once.")
    assert once.kind == "count" and once.low <= 1 <= once.high
    # "twice as large" is a factor (multipliers.py, session 32), never a count
    (factor,) = extract_quantities("The new hall is twice as large.")
    assert factor.kind == "multiple" and factor.low <= 2 <= factor.high
    assert extract_quantities("Once the tallest tower, it was demolished.") == []
    claim = "Argentina has won the FIFA World Cup once."
    source = "The Argentina team has won three FIFA World Cups, in 1978, 1986 and 2022."
    assert check_consistency(claim, source, source).anchored_mismatches == ("once",)


def test_an_identifier_is_exact_and_only_compared_with_the_same_noun() -> None:
    (port,) = extract_quantities("The server listens on port 8080.")
    assert (port.kind, port.low, port.high) == ("id:port", 8080.0, 8080.0)
    (ships,) = extract_quantities("The port handled 8,000 ships.")
    assert ships.kind == "count"
    same = "The server listens on port 8080 by default."
    assert check_consistency(same, same, same).agreement == 1.0


@pytest.mark.parametrize(("claim", "source"), AGE_AGAINST_OTHER_KINDS)
def test_an_age_is_never_in_conflict_with_a_count_or_a_duration(claim: str, source: str) -> None:
    result = check_consistency(claim, source, source)
    assert result.anchored_mismatches == () and result.number_mismatches == ()
    assert result.penalty < 0.8


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("He died at the age of 84.", 83.5, 84.5),
        ("The 84-year-old actor died.", 83.5, 84.5),
        ("She was 84 years old.", 83.5, 84.5),
        ("Children under the age of five were excluded.", -math.inf, 5.0),
        ("Patients aged 65 and over were enrolled.", 65.0, math.inf),
        ("Volunteers aged between 18 and 30 took part.", 18.0, 30.0),
        # in apposition to a name
        ("The board appointed Maria Lind, 52, as chief executive.", 51.5, 52.5),
        ("Maria Lind (52) was appointed chief executive.", 51.5, 52.5),
    ],
)
def test_ages_are_their_own_kind_in_years(text: str, low: float, high: float) -> None:
    (age,) = extract_quantities(text)
    assert age.kind == "age"
    assert (age.low, age.high) == pytest.approx((low, high))


def test_a_duration_in_years_is_not_an_age() -> None:
    (career,) = extract_quantities("Her career lasted 60 years.")
    assert career.kind == "time"


@pytest.mark.parametrize(
    "text", ["In Paris, 52 people died.", "On Monday, 40 flights were cancelled."]
)
def test_a_number_after_a_place_or_a_day_is_not_an_age(text: str) -> None:
    assert all(m.kind != "age" for m in extract_quantities(text))
