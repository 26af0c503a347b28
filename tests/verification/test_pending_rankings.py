"""Session 29's rules: a decision the source says is still pending, a holder a ranking puts
after another, a second relation in a relative clause ("which it bought"), "a subsidiary
of" as ownership, a price that became cheaper as one that fell, and a concession that ends
a negated scope ("refused to resign despite the pressure"), a fraction that ends its clause
as a share ("Turnout was roughly two thirds."), a target met as achieved, a former holder
of an office, and the ends of a negated scope at a "when" clause and after "without"'s noun
phrase; an amount after a currency code, a count near a money word, and an action set
aside against the infinitive before it; a building destroyed against one that still stands,
ahead / behind and large / little as opposites, hectares as an area, "not guilty" as
innocent, "an hour and a half", and "X was Y's teacher" as "X taught Y"."""

from __future__ import annotations

import pytest

from provgraph.verification.alternatives import alternatives_swap
from provgraph.verification.consistency import check_consistency
from provgraph.verification.ended_states import ended_state
from provgraph.verification.meaning_conflicts import meaning_conflict
from provgraph.verification.negation import negated_scopes
from provgraph.verification.pending import pending_decision
from provgraph.verification.phrasal import plain_verbs
from provgraph.verification.proportions import extract_proportions
from provgraph.verification.quantities import extract_quantities
from provgraph.verification.role_holders import role_holder_conflict
from provgraph.verification.roles import relations, role_swap
from provgraph.verification.superlatives import superlative_conflict

_TWO_PLACES = (
    "Health Canada approved the vaccine in June; regulators in Brazil are still reviewing it."
)


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The vaccine was approved in Brazil.", _TWO_PLACES),
        ("The merger was approved.", "The merger is still under review by the regulator."),
        ("The court rejected the appeal.", "The appeal is pending before the court."),
        (
            "The drug was approved in Korea.",
            "The drug was approved in Japan last year and is pending approval in Korea.",
        ),
        ("The president signed the bill.", "The bill now awaits a decision from the president."),
    ],
)
def test_a_decision_the_source_says_is_pending_conflicts(claim: str, source: str) -> None:
    assert pending_decision(claim, source) is not None


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # decided where the claim says; pending elsewhere
        ("The vaccine was approved in Canada.", _TWO_PLACES),
        (
            "The drug was approved in Japan.",
            "The drug was approved in Japan last year and is pending approval in Korea.",
        ),
        # something else is pending
        ("The merger was approved.", "The merger was approved in May; the appeal is pending."),
        # the source states the decision too
        ("The merger was approved.", "The merger was approved in May after months under review."),
        # the claim states no decision made
        ("The vaccine will be approved in Brazil.", _TWO_PLACES),
        ("The vaccine was not approved in Brazil.", _TWO_PLACES),
        ("The mine applied for a licence.", "The mine's licence is still under review."),
    ],
)
def test_a_decision_not_said_to_be_pending_is_no_conflict(claim: str, source: str) -> None:
    assert pending_decision(claim, source) is None


def test_a_two_part_claim_is_read_statement_by_statement() -> None:
    found = meaning_conflict("The vaccine was approved in Canada and Brazil.", _TWO_PLACES)
    assert "pending" in found.details


_POWER = "Natural gas supplies 41% of the country's electricity, followed by coal at 27%."


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Coal is the country's largest source of electricity.", _POWER),
        (
            "Spain is Europe's largest car exporter.",
            "Among European car exporters, Germany leads by value, followed by Spain.",
        ),
        (
            "Vietnam is the world's biggest coffee producer.",
            "In coffee production, Vietnam is second only to Brazil.",
        ),
    ],
)
def test_a_holder_ranked_after_another_does_not_hold_the_superlative(
    claim: str, source: str
) -> None:
    assert superlative_conflict(claim, source) is not None


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Natural gas is the country's largest source of electricity.", _POWER),
        ("Coal is the largest source of heat.", _POWER),  # another bound
        ("Coal is the capital of the power industry.", _POWER),  # a role, not a rank
        (
            "Norway is the largest producer of salmon.",
            "Chile is second only to Norway in salmon production.",
        ),
    ],
)
def test_a_ranking_that_does_not_put_the_holder_below_is_no_conflict(
    claim: str, source: str
) -> None:
    assert superlative_conflict(claim, source) is None


def test_a_relative_clause_with_the_agent_as_pronoun_states_a_second_relation() -> None:
    found = relations("Orion Labs owns Vantage Group, which it bought in 2019.")
    assert ("orion labs", "buy", "vantage group") in found
    assert ("orion labs", "own", "vantage group") in found


def test_a_relative_clause_of_a_passive_states_no_relation_of_its_agent() -> None:
    found = relations("Vantage Group was bought by Orion Labs, which it later sold.")
    assert all(verb != "sell" for _agent, verb, _patient in found)


_OWNS_WHAT_IT_BOUGHT = "Orion Labs owns Vantage Group, which it bought."


@pytest.mark.parametrize(
    ("claim", "source", "swapped"),
    [
        ("Vantage Group bought Orion Labs.", _OWNS_WHAT_IT_BOUGHT, True),
        ("Orion Labs bought Vantage Group.", _OWNS_WHAT_IT_BOUGHT, False),
        ("Orion Labs is a subsidiary of Vantage Group.", "Orion Labs owns Vantage Group.", True),
        ("Vantage Group is a subsidiary of Orion Labs.", "Orion Labs owns Vantage Group.", False),
        ("Telvia is a unit of Nordwind.", "Telvia controls Nordwind.", True),
    ],
)
def test_ownership_read_from_a_subsidiary_and_a_relative_clause(
    claim: str, source: str, swapped: bool
) -> None:
    assert (role_swap(claim, source) is not None) is swapped


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("Rail tickets became cheaper last year.", "Rail tickets fell last year."),
        ("Rents are getting more expensive.", "Rents are rising."),
        ("Housing became less expensive.", "Housing fell."),
        ("Phones get pricier every year.", "Phones rise every year."),
    ],
)
def test_a_price_that_became_cheaper_is_read_as_fallen(text: str, plain: str) -> None:
    assert plain_verbs(text) == plain


def test_a_comparison_between_two_things_is_left_as_it_is() -> None:
    text = "Wind became cheaper than coal in 2019."
    assert plain_verbs(text) == text


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Rail fares became cheaper last year.", "Rail fares rose by 4.9% last year."),
        ("Electricity got cheaper in 2023.", "Electricity prices increased by 12% in 2023."),
    ],
)
def test_a_price_that_became_cheaper_conflicts_with_one_that_rose(claim: str, source: str) -> None:
    assert "antonyms" in meaning_conflict(claim, source).details


@pytest.mark.parametrize(
    ("source", "denied"),
    [
        ("The minister refused to resign despite pressure from her party.", ("resign",)),
        ("The rocket failed to reach orbit in spite of a flawless launch.", ("reach", "orbit")),
        ("She declined to comment amid the investigation.", ("comment",)),
    ],
)
def test_a_concession_ends_the_negated_scope(source: str, denied: tuple[str, ...]) -> None:
    assert [scope for _cue, scope in negated_scopes(source)] == [denied]


def test_a_refusal_followed_by_a_concession_denies_the_claim() -> None:
    found = meaning_conflict(
        "The minister agreed to resign.",
        "The minister refused to resign despite mounting pressure from her party.",
    )
    assert "negated_predicate" in found.details


def test_a_holder_later_in_the_list_after_the_leader_is_ranked_below() -> None:
    source = "Tokyo has the most residents of any Japanese city, followed by Yokohama and Osaka."
    claim = "Osaka is the most populous city in Japan."
    assert superlative_conflict(claim, source) is not None


@pytest.mark.parametrize(
    ("text", "share"),
    [
        ("Turnout was roughly two thirds.", 100 / 3 * 2),
        ("About half, the survey found.", 50.0),
    ],
)
def test_a_fraction_ending_its_clause_is_a_share(text: str, share: float) -> None:
    found = extract_proportions(text)
    assert len(found) == 1 and found[0].low <= share <= found[0].high


@pytest.mark.parametrize("text", ["Sales were cut in half.", "The trip took two and a half."])
def test_a_cut_or_a_mixed_number_is_no_share(text: str) -> None:
    assert extract_proportions(text) == []


def test_a_fraction_share_conflicts_with_another_percentage() -> None:
    source = "Turnout reached 48.2%."
    result = check_consistency("Turnout was roughly two thirds.", source, source)
    assert result.anchored_mismatches


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("The factory met its emissions target.", "The factory achieved its emissions target."),
        ("The firm meets all deadlines.", "The firm achieves all deadlines."),
        ("The player met the coach.", "The player met the coach."),  # no target: unchanged
    ],
)
def test_a_target_met_is_read_as_achieved(text: str, plain: str) -> None:
    assert plain_verbs(text) == plain


@pytest.mark.parametrize(
    ("source", "conflict"),
    [
        ("The factory missed its emissions target despite a new filter.", True),
        ("The factory fell short of its emissions target.", True),
        ("The factory fell well short of its emissions target.", True),
        ("The factory met its emissions target but missed its sales goal.", False),
    ],
)
def test_a_missed_target_conflicts_with_one_met(source: str, conflict: bool) -> None:
    found = meaning_conflict("The factory met its emissions target.", source)
    assert found.found is conflict


def test_meeting_a_person_is_no_opposite_of_missing_a_call() -> None:
    assert not meaning_conflict(
        "The player met the coach.", "The player missed the coach's call."
    ).found


@pytest.mark.parametrize(
    ("source", "conflict"),
    [
        ("Ms Owens, the charity's former chief executive, now runs a consultancy.", True),
        ("Former chief executive Ms Owens now runs a consultancy.", True),
        # she is named in the office again: a return, not an ending
        ("Former chief executive Ms Owens returned as its chief executive in 2021.", False),
        # a former holder of another office
        ("Ms Owens, the charity's former chair, is its chief executive.", False),
    ],
)
def test_a_former_holder_no_longer_holds_the_office(source: str, conflict: bool) -> None:
    found = role_holder_conflict("Ms Owens is the chief executive of the charity.", source)
    assert (found is not None) is conflict


def test_a_past_claim_is_not_judged_against_a_former_holder() -> None:
    source = "Ms Owens, the charity's former chief executive, now runs a consultancy."
    assert role_holder_conflict("Ms Owens was the chief executive of the charity.", source) is None


@pytest.mark.parametrize(
    ("source", "denied"),
    [
        ("Nobody was injured when the bus left the road.", ("injur",)),
        ("The plane landed without its landing gear after a hydraulic failure.", ("land", "gear")),
    ],
)
def test_a_when_clause_or_an_adjunct_after_without_ends_the_scope(
    source: str, denied: tuple[str, ...]
) -> None:
    assert [scope for _cue, scope in negated_scopes(source)] == [denied]


def test_a_shortage_is_no_assertion_a_lack_denies() -> None:
    found = meaning_conflict("The region lacks nurses.", "The region has a shortage of nurses.")
    assert not found.found


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("The bill came to EUR 3.96bn.", "currency:euro", 3.96e9),
        ("They paid USD 12 million.", "currency:dollar", 12e6),
        ("A fine of GBP 40,000 was imposed.", "currency:pound sterling", 40_000.0),
    ],
)
def test_an_amount_after_a_currency_code_is_money(text: str, kind: str, value: float) -> None:
    [found] = extract_quantities(text)
    assert found.kind == kind and found.low <= value <= found.high


def test_a_count_of_jobs_a_closure_cost_is_the_jobs_lost() -> None:
    source = "The closure cost 488 jobs."
    result = check_consistency("Nearly 500 jobs were lost.", source, source)
    assert result.agreements == ("500",) and not result.number_mismatches


def test_a_share_keeps_its_money_measure() -> None:
    source = "Revenue rose 5% in the year."
    result = check_consistency("Profit rose 9% in the year.", source, source)
    assert not result.anchored_mismatches


@pytest.mark.parametrize(
    ("claim", "conflict"),
    [
        ("The council chose to repair the bridge.", True),
        ("The council chose to replace the bridge.", False),
    ],
)
def test_an_action_set_aside_is_the_alternative_of_the_infinitive(
    claim: str, conflict: bool
) -> None:
    source = "The council chose to replace the bridge instead of repairing it."
    assert (alternatives_swap(claim, source) is not None) is conflict


@pytest.mark.parametrize(
    ("source", "ended"),
    [
        ("The old cinema on the square was demolished in 2016 to make way for flats.", True),
        ("The council demolished the old cinema in 2016.", True),
        ("A shop next to the old cinema was demolished in 2016.", False),
        ("The roof of the old cinema collapsed in 2016.", False),
        ("The old cinema was partly destroyed by fire in 1950 and restored in 1953.", False),
    ],
)
def test_a_building_destroyed_no_longer_stands(source: str, ended: bool) -> None:
    found = ended_state("The old cinema still stands on the square.", source)
    assert (found is not None and found.state == "standing") is ended


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The project finished ahead of schedule.", "The project finished behind schedule."),
        ("The drug had a large effect on symptoms.", "The drug had little effect on symptoms."),
    ],
)
def test_ahead_and_behind_large_and_little_are_opposites(claim: str, source: str) -> None:
    assert "antonyms" in meaning_conflict(claim, source).details


def test_an_area_in_hectares_is_compared_with_square_kilometres() -> None:
    [hectares] = extract_quantities("The fire burned about 5,000 hectares.")
    [square_km] = extract_quantities("The fire burned some 50 square kilometres.")
    assert hectares.kind == square_km.kind == "area" and hectares.overlaps(square_km)


def test_not_guilty_is_read_as_innocent() -> None:
    source = "The jury found the defendant not guilty on all counts."
    assert "antonyms" in meaning_conflict("The jury found the defendant guilty.", source).details
    assert not meaning_conflict("The jury found the defendant not guilty.", source).found


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("The flight lasts an hour and a half.", "time", 5400.0),  # seconds
        ("He walked a mile and a half.", "length", 2414.0),  # metres
    ],
)
def test_one_unit_and_a_half(text: str, kind: str, value: float) -> None:
    [found] = extract_quantities(text)
    assert found.kind == kind and found.low <= value <= found.high


@pytest.mark.parametrize(
    ("claim", "swapped"), [("Kovacs taught Brandt.", True), ("Brandt taught Kovacs.", False)]
)
def test_a_teacher_named_by_a_possessive_taught_the_possessor(claim: str, swapped: bool) -> None:
    source = "Brandt was Kovacs's teacher at the conservatory."
    assert (role_swap(claim, source) is not None) is swapped


def test_behind_one_and_ahead_of_another_may_say_the_same() -> None:
    claim = "Love was announced as the runner-up, behind Charlotte Crosby."
    source = "The host announced that Crosby had finished ahead of 5ive singer Abz Love."
    assert "antonyms" not in meaning_conflict(claim, source).details
