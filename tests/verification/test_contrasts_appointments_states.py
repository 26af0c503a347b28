"""A predicate asserted only across a contrast, appointments to a one-holder office, a
negated current state, and hot / cool (session 26)."""

from __future__ import annotations

from datetime import date

import pytest

from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.changes import extract_changes
from provgraph.verification.consistency import check_consistency
from provgraph.verification.dates import extract_dates
from provgraph.verification.ended_states import ended_state
from provgraph.verification.negation import negation_conflict
from provgraph.verification.phrasal import plain_verbs
from provgraph.verification.polarity import reread_negated, ruled_entailment
from provgraph.verification.predicate import predicate_words
from provgraph.verification.quantities import read_quantities
from provgraph.verification.role_holders import holdings, role_holder_conflict
from provgraph.verification.roles import relations, role_swap
from provgraph.verification.wordsets import stem
from tests.verification.nli_reading import read_over
from tests.verification.scripted_scorer import ScriptedScorer

_COUNCIL = "The council rejected the proposed parking fees but approved a new bike lane."


def test_a_predicate_is_asserted_only_on_one_side_of_a_contrast() -> None:
    # "approved" and "parking fees" are in the sentence, on either side of its "but"
    assert negation_conflict("The council did not approve the new parking fees.", _COUNCIL) is None
    found = negation_conflict("The council did not approve the new bike lane.", _COUNCIL)
    assert found is not None and found.side == "claim"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The plant did not cut its emissions.", "The plant cut its emissions; it also hired."),
        (
            "The firm did not pay a dividend.",
            "Although profits fell, the firm paid a dividend to its shareholders.",
        ),
    ],
)
def test_a_predicate_within_one_side_of_a_contrast_is_still_asserted(
    claim: str, source: str
) -> None:
    found = negation_conflict(claim, source)
    assert found is not None and found.side == "claim"


_BOARD = "The board named David Ortiz chief financial officer and Maria Chen head of legal."


def test_an_appointment_names_the_office_holder() -> None:
    appointed = holdings(_BOARD)
    assert [(h.office, h.holder, h.appointed) for h in appointed] == [("cfo", "David Ortiz", True)]
    passive = holdings("Maria Chen was appointed the company's chief financial officer.")
    assert [(h.office, h.holder, h.appointed) for h in passive] == [("cfo", "Maria Chen", True)]


def test_an_appointment_of_another_person_is_a_conflict() -> None:
    found = role_holder_conflict("Maria Chen was appointed chief financial officer.", _BOARD)
    assert found is not None and (found.claim, found.source) == ("Maria Chen", "David Ortiz")
    own = "David Ortiz was appointed chief financial officer."
    assert role_holder_conflict(own, _BOARD) is None


def test_an_appointment_is_not_compared_with_a_present_holder() -> None:
    # the one who is chair now may have been appointed after the claim's appointment
    claim = "Lena Fischer was elected chair of the board."
    assert role_holder_conflict(claim, "Lena Fischer left; Tom Hall is the chair.") is None


@pytest.mark.parametrize(
    "claim",
    ["The mine is no longer in operation.", "The mine is not operating any more."],
)
def test_a_state_the_claim_denies_is_no_current_state(claim: str) -> None:
    assert ended_state(claim, "The mine closed in 2015 and the site is now a park.") is None
    assert ended_state("The mine is still in operation.", "The mine closed in 2015.") is not None


def test_a_negated_state_that_the_source_ended_reads_as_its_positive_form_contradicted() -> None:
    claim, source = "The mine is no longer in operation.", "The mine closed in 2015."
    nli = read_over(source, score=0.09)
    signals = {"nli_entailment": 0.09, "nli_contradiction": 0.88, "nli_max_contradiction": 0.88}
    scorer = ScriptedScorer({(source, "The mine is in operation."): (0.1, 0.2)})
    done = reread_negated(scorer, [(claim, source, nli, signals)])[0]
    assert done is not None
    _score, updated = done
    # the model's 0.2 on the positive form is raised: the source ends the state it asserts
    assert updated["nli_contradiction"] == pytest.approx(0.88 * (1 - 0.9))
    # and the claim, one statement, is entailed with the rule's confidence
    assert updated["nli_entailment"] == pytest.approx(0.9)


def test_a_ruled_positive_form_does_not_support_a_second_statement() -> None:

    assert ruled_entailment("The mine is no longer in operation.") == pytest.approx(0.9)
    assert ruled_entailment("The mine is no longer in operation and employs 300 people.") == 0


def test_cool_is_the_opposite_of_hot_at_any_degree() -> None:
    found = antonym_conflict(
        "The summer was unusually cool.", "The summer was one of the hottest on record."
    )
    assert found is not None and (found.claim_word, found.source_word) == ("cool", "hot")


def test_found_is_the_past_of_find_and_founded_the_founding() -> None:

    assert stem("found") == stem("find")
    assert stem("founded") != stem("find")
    source = "The study found no link with heart disease, whereas it found a link with stroke."
    found = negation_conflict("The study did not find a link with stroke.", source)
    assert found is not None and found.side == "claim"


@pytest.mark.parametrize(
    ("claim", "agrees"),
    [
        ("Turnout rose by five percentage points.", True),
        ("Turnout rose 5 percentage points.", True),
        ("Turnout rose by two percentage points.", False),
        ("Turnout fell by five percentage points.", False),
    ],
)
def test_a_change_in_percentage_points_is_a_difference_of_percentages(
    claim: str, agrees: bool
) -> None:

    source = "Turnout climbed from 61% to 66%."
    result = check_consistency(claim, source, source)
    assert bool(result.agreements) is agrees
    assert bool(result.anchored_mismatches) is not agrees


def test_a_points_change_is_not_compared_with_a_ratio() -> None:

    (points,) = extract_changes("Support fell 2.5 percentage points to 41%.")
    assert points.points and (points.low, points.high) == pytest.approx((-2.55, -2.45))
    (ratio,) = extract_changes("Support fell 2.5 percent to 41%.")
    assert not ratio.points


def test_a_name_and_not_a_time_is_what_a_silent_source_does_not_speak_of() -> None:

    claim = "The airline will add flights to Lisbon next summer."
    assert predicate_words(claim, times_apart=True) == ["add", "flights", "lisbon"]
    # for the contradiction test a name is never judged
    assert predicate_words(claim) is None
    assert predicate_words("The festival takes place every July.") is None


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("The carmaker cut 2,000 jobs at its plant.", "The carmaker dismissed 2,000 workers at"),
        ("The bank is cutting jobs.", "The bank is dismissing workers."),
        ("They shed about 300 factory jobs.", "They dismissed about 300 factory workers."),
        ("The cut in jobs was small.", "The cut in jobs was small."),
    ],
)
def test_jobs_cut_are_workers_dismissed(text: str, read: str) -> None:

    assert plain_verbs(text).startswith(read)


def test_hiring_against_jobs_cut_is_a_conflict() -> None:
    found = antonym_conflict(
        "The carmaker hired 2,000 workers.", "The carmaker cut 2,000 jobs at its main plant."
    )
    assert found is not None


def test_a_count_stated_of_the_noun_before_it_counts_that_noun() -> None:

    (count,) = read_quantities("The population stood at 870,000 in the last census.").mentions
    assert count.noun == frozenset({"populat"})
    (plain,) = read_quantities("The team scored 18 on Monday.").mentions
    assert "populat" not in plain.noun


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("finished in the late 1990s", (1996, 1999)),
        ("in the mid-1970s", (1973, 1977)),
        ("at the end of the 1960s", (1968, 1969)),
        ("in the 1980s", (1980, 1989)),
    ],
)
def test_a_decades_part_is_a_loose_band_of_its_years(text: str, years: tuple[int, int]) -> None:

    (found,) = extract_dates(text)
    assert (date.fromordinal(int(found.low)).year, date.fromordinal(int(found.high)).year) == years


def test_the_size_of_a_change_agrees_with_a_value_but_never_disagrees() -> None:

    claim = "The drug reduced migraine frequency by half."
    other = "Migraine affects about one in seven people worldwide."
    assert not check_consistency(claim, other, other).number_mismatches
    same = "The drug reduced mortality by 50 percent."
    assert check_consistency("The drug cut the risk of death by half.", same, same).agreements


def test_a_value_and_a_worth_are_one_fact() -> None:

    claim = "The deal is worth $1.5bn."
    other = "The acquisition was valued at 150 million dollars."
    assert check_consistency(claim, other, other).anchored_mismatches == ("$1.5bn",)


def test_going_back_is_returning_also_under_a_negation() -> None:
    source = "In 1962 she went back to the town where she was born and stayed for a year."
    found = negation_conflict("The author never returned to her home town.", source)
    assert found is not None and found.side == "claim"


@pytest.mark.parametrize(
    ("sentence", "relation"),
    [
        ("Vaughan Williams studied under Ravel in Paris.", ("ravel", "teach", "vaughan williams")),
        ("Germany lost to Brazil in the final.", ("brazil", "beat", "germany")),
        ("Anna Berg works for Siemens.", ("siemens", "hire", "anna berg")),
    ],
)
def test_a_converse_verb_states_the_relation_from_the_other_side(
    sentence: str, relation: tuple[str, str, str]
) -> None:

    assert relations(sentence) == [relation]


def test_a_relation_with_its_converse_exchanged_is_a_swap() -> None:

    source = "Vaughan Williams studied under Ravel in Paris in 1908."
    assert role_swap("Vaughan Williams taught Ravel.", source) is not None
    assert role_swap("Ravel taught Vaughan Williams.", source) is None
    assert role_swap("Germany beat Brazil.", "Germany lost to Brazil in the final.") is not None
    # "worked with" may be a colleague's relation: no converse

    assert relations("Anna Berg worked with Siemens.") == [("anna berg", "work", "siemens")]


def test_points_after_a_change_are_percentage_points_and_only_meet_percentages() -> None:

    source = "Backing for the party slid from 31% to 28% in the latest poll."
    result = check_consistency("The party's support dropped three points to 28%.", source, source)
    assert "dropped three points" in result.agreements and not result.number_mismatches
    index = "The index fell from 4,100 to 3,800."
    assert not check_consistency("The index fell 300 points.", index, index).anchored_mismatches


def test_recruiting_against_jobs_shed_is_a_conflict() -> None:
    found = antonym_conflict(
        "The bank recruited 500 staff.", "The bank shed 500 jobs in its retail division."
    )
    assert found is not None


def test_the_size_of_a_change_does_not_agree_with_a_share() -> None:

    share = "About a third of the prison's inmates take part in the programme."
    result = check_consistency("The programme cut reoffending by a third.", share, share)
    assert not result.agreements and not result.number_mismatches


def test_an_appointing_verb_in_any_form_names_the_holder() -> None:
    source = "The board's decision to name Paul Novak chief executive surprised investors."
    assert [(h.holder, h.appointed) for h in holdings(source)] == [("Paul Novak", True)]
