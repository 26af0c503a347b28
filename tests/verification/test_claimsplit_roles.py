"""Statement splitting, the focused-pass planning, argument order and ended states."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provgraph.verification.cancelled_events import cancelled_event
from provgraph.verification.claimsplit import split_statements
from provgraph.verification.consistency import check_consistency
from provgraph.verification.ended_states import ended_state
from provgraph.verification.focus import plan, premise_clauses, rewrite_values
from provgraph.verification.quantities import extract_quantities
from provgraph.verification.roles import relations, role_swap


@pytest.mark.parametrize(
    ("sentence", "parts"),
    [
        (
            "The company opened a plant in Ohio and hired 500 workers.",
            ["The company opened a plant in Ohio.", "The company hired 500 workers."],
        ),
        ("Sales rose, while costs fell by 2%.", ["Sales rose.", "Costs fell by 2%."]),
        (
            "The tablet has a brighter display but a shorter battery life.",
            ["The tablet has a brighter display.", "The tablet has a shorter battery life."],
        ),
        (
            "The lake, which froze in 1963, covers 40 km2 and feeds two rivers.",
            ["The lake, which froze in 1963, covers 40 km2.", "The lake feeds two rivers."],
        ),
        # a reported statement: the shared subject is the reported one, the frame stays
        (
            "The study found that coffee reduced fatigue and improved memory.",
            [
                "The study found that coffee reduced fatigue.",
                "The study found that coffee improved memory.",
            ],
        ),
        (
            "He said that the plan was good and that it would pass.",
            ["He said that the plan was good.", "He said that it would pass."],
        ),
        # a relative clause's verb is not the sentence's ("phones" is what it makes)
        (
            "The company that makes phones opened a plant and hired 500 workers.",
            [
                "The company that makes phones opened a plant.",
                "The company that makes phones hired 500 workers.",
            ],
        ),
        (
            "The man who founded the firm retired in 2001 and died in 2010.",
            [
                "The man who founded the firm retired in 2001.",
                "The man who founded the firm died in 2010.",
            ],
        ),
        # session 21: a verb that cannot be a noun is no subject of its own ("reduced
        # strokes"), nor does "from the centre" make the next predicate a list of places;
        # a passive's second participle shares the auxiliary, an active verb does not
        (
            "The drug lowered blood pressure and reduced strokes.",
            ["The drug lowered blood pressure.", "The drug reduced strokes."],
        ),
        (
            "The city banned cars from the centre and made buses free.",
            ["The city banned cars from the centre.", "The city made buses free."],
        ),
        (
            "The report was published in 2021 and translated into French.",
            ["The report was published in 2021.", "The report was translated into French."],
        ),
        (
            "The company was founded in 1990 and hired 50 people.",
            ["The company was founded in 1990.", "The company hired 50 people."],
        ),
    ],
)
def test_coordinated_statements_are_split_with_the_shared_subject(
    sentence: str, parts: list[str]
) -> None:
    assert split_statements(sentence) == parts


@pytest.mark.parametrize(
    "sentence",
    [
        "Norway and Sweden signed the treaty.",  # noun coordination: one statement
        "The firm invests in research and development.",
        "Prices were between 10 and 20 dollars.",
        "She painted the portrait while living in Rome.",  # subordinate gerund
        "The band played rock and roll for ten years.",
        "The goods came from France and Germany.",
    ],
)
def test_non_statement_coordinations_are_left_whole(sentence: str) -> None:
    assert split_statements(sentence) == [sentence]


def test_agreeing_values_are_read_in_the_source_wording() -> None:
    claim = "The dam cost $2.3 billion."
    window = "Completed in 2001, the dam cost 2,300 million dollars."
    result = check_consistency(claim, window, window)
    assert result.agreed_values == (("$2.3 billion", "2,300 million dollars"),)
    assert rewrite_values(claim, result.agreed_values) == "The dam cost 2,300 million dollars."


def test_plan_focuses_only_when_something_can_change() -> None:
    window = "The pier was rebuilt in 1990."
    assert plan("The pier was rebuilt in 1990.", window, (), 0.3, 0.8) is None
    statements, premises = plan("The pier was rebuilt and reopened.", window, (), 0.9, 0.8) or (
        [],
        [],
    )
    assert statements == ["The pier was rebuilt.", "The pier was reopened."]
    assert premises == [window]
    clause_window = "The mayor opened the fair but did not speak."
    assert premise_clauses(clause_window) == [
        "The mayor opened the fair.",
        "The mayor did not speak.",
    ]
    # an undecided single statement is read against the evidence's own clauses
    assert plan("The mayor opened the fair.", clause_window, (), 0.3, 0.8) is not None
    assert plan("The mayor opened the fair.", clause_window, (), 0.9, 0.8) is None


def test_argument_order_swaps_are_found_and_passives_agree() -> None:
    assert relations("Orion Labs was bought by Vega Corp last year.") == [
        ("vega corp", "buy", "orion labs")
    ]
    swap = role_swap("Vega Corp bought Orion Labs.", "Orion Labs bought Vega Corp in 2019.")
    assert swap is not None and swap.verb == "buy"
    assert role_swap("Vega Corp bought Orion Labs.", "Orion Labs was bought by Vega Corp.") is None
    # verbs of one relation: "beat" / "defeated", "bought" / "acquired"
    swap = role_swap("Norway beat Sweden in the final.", "Sweden defeated Norway 3-1 in the final.")
    assert swap is not None and swap.verb == "beat"
    assert role_swap("Norway beat Sweden.", "Norway defeated Sweden 3-1.") is None
    assert role_swap("Vega Corp bought Orion Labs.", "Orion Labs acquired Vega Corp.") is not None
    # a relation named by a noun, and day names that are no party to it
    assert relations("Vega Corp's acquisition of Orion Labs closed in May.") == [
        ("vega corp", "buy", "orion labs")
    ]
    source = "Vega Corp said on Monday it had completed its purchase of Orion Labs."
    assert relations(source) == [("vega corp", "buy", "orion labs")]
    assert role_swap("Orion Labs acquired Vega Corp.", source) is not None
    assert role_swap("Orion Labs was acquired by Vega Corp.", source) is None
    assert relations("Vega Corp said its purchase of shares would continue.") == []
    # symmetric verbs never count; common nouns are read too (session 22, noun_roles.py)
    assert role_swap("Ghana met Peru in Lima.", "Peru met Ghana in Lima.") is None
    assert role_swap("The firm bought the startup.", "The startup bought the firm.") is not None


@pytest.mark.parametrize(
    ("claim", "source", "state"),
    [
        ("The library is closed to readers.", "The library reopened to readers in May.", "closed"),
        ("The smelter is still operating.", "The smelter was shut down in 2011.", "open"),
        (
            "Ines Roy remains party leader.",
            "Ines Roy resigned as party leader on Friday.",
            "office",
        ),
        (
            "The mayor is still in office.",
            "The mayor lost the 2022 election and left office in January.",
            "office",
        ),
        ("The painter is still alive.", "The painter died in 2004.", "alive"),
        (
            "The v1 endpoint is still supported.",
            "The v1 endpoint was deprecated in January and removed in June.",
            "available",
        ),
        ("The trio is still together.", "The trio broke up after their 1998 tour.", "together"),
        ("The couple is still married.", "The couple divorced in 2012.", "married"),
        ("The ban is still in force.", "The ban was struck down by the court in 2019.", "in force"),
    ],
)
def test_a_state_asserted_as_current_conflicts_with_its_ending(
    claim: str, source: str, state: str
) -> None:
    found = ended_state(claim, source)
    assert found is not None and found.state == state
    assert check_consistency(claim, source, source).negation_mismatch


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The library was closed in 2010.", "The library reopened in 2012."),  # not "current"
        ("The library is closed to readers.", "The library shut its doors in May."),
        ("The smelter is still operating.", "The smelter has not shut down."),
        ("The painter is still alive.", "The sculptor died in 2004."),  # another subject
        ("The band is still together.", "The band toured together in 2003."),  # no ending
        ("The v2 endpoint is still supported.", "The v1 endpoint was removed in June."),
        ("The theory is supported by new data.", "The old theory was removed from textbooks."),
    ],
)
def test_no_ended_state_without_a_current_claim_an_ending_or_the_same_subject(
    claim: str, source: str
) -> None:
    assert ended_state(claim, source) is None


def test_money_pounds_symbols_dozens_and_fractions_of_a_unit() -> None:
    (pounds,) = extract_quantities("The club raised forty thousand pounds.")
    (symbol,) = extract_quantities("The club raised £40,000 at its gala.")
    assert pounds.kind == symbol.kind == "currency:pound sterling" and pounds.overlaps(symbol)
    assert extract_quantities("The parcel weighs 40 pounds.")[0].kind == "mass"
    (dozen,) = extract_quantities("A dozen boats sank.")
    assert dozen.kind == "count" and dozen.low <= 12 <= dozen.high
    kinds = {m.kind for m in extract_quantities("Rates rose by a quarter of a percentage point.")}
    assert "percent" not in kinds  # a fraction of a point is not a share of a population


def test_a_scaled_number_is_not_the_bare_number() -> None:
    claim = "The town has 12 public libraries."
    source = "The town's public libraries lent 12 million books last year."
    assert check_consistency(claim, source, source).number_mismatches == ("12",)


_TEXT = st.text(
    alphabet=st.sampled_from(
        list("ABab ,;.'-and but while was by Vega Orion is still closed 0123")
    ),
    max_size=120,
)


@settings(max_examples=80, deadline=None)
@given(_TEXT, _TEXT)
def test_splitting_focus_planning_and_role_rules_never_raise(claim: str, window: str) -> None:
    parts = split_statements(claim)
    assert len(parts) <= 3 and all(isinstance(p, str) for p in parts)
    premise_clauses(window)
    plan(claim, window, (), 0.5, 0.8)
    role_swap(claim, window)
    ended_state(claim, window)
    cancelled_event(claim, window)


def test_number_words_joined_by_and_are_one_value_only_after_a_hundred_or_a_scale() -> None:
    crew, passengers = extract_quantities("The ship carried a crew of forty and twelve passengers.")
    assert (crew.low, crew.high) == (39.5, 40.5) and passengers.low <= 12 <= passengers.high
    (rooms,) = extract_quantities("The hotel has one hundred and twelve rooms.")
    assert rooms.low <= 112 <= rooms.high
    (people,) = extract_quantities("Two thousand and five people came.")
    assert people.low <= 2005 <= people.high


def test_a_state_belongs_to_the_subject_of_its_own_clause() -> None:
    claim = "The man has never been identified, and the investigation remains open."
    # "remains" names no office; the open investigation is not the closed road
    assert ended_state(claim, "The man was seen near the road, which closed until May.") is None
    found = ended_state(claim, "The investigation was closed in 2019 without charges.")
    assert found is not None and found.state == "open"
