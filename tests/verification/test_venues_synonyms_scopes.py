"""An event's venue, a cause still under investigation, synonymous verbs under a negation
and in the predicate test, a predicate asserted in one clause while its direction word is
denied in another, and strict / lenient (session 25)."""

from __future__ import annotations

import pytest

from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.claimsplit import split_statements
from provgraph.verification.home_places import place_conflict
from provgraph.verification.meaning_conflicts import meaning_conflict
from provgraph.verification.negation import negated_scopes, negation_conflict
from provgraph.verification.phrasal import plain_verbs
from provgraph.verification.possessive_roles import possessive_swap
from provgraph.verification.predicate import off_predicate
from provgraph.verification.report import Evidence, StageScore
from provgraph.verification.size_free import reread_without_sizes, without_sizes
from provgraph.verification.synonyms import same_verb, verb_key
from provgraph.verification.unknowns import unknown_statement
from provgraph.verification.wordsets import stem
from tests.verification.nli_reading import read_over
from tests.verification.scripted_scorer import ScriptedScorer


@pytest.mark.parametrize(
    ("claim", "source", "places"),
    [
        (
            "The summit was held in Oslo.",
            "The summit took place in Helsinki, with a follow-up meeting planned for Oslo.",
            ("Oslo", "Helsinki"),
        ),
        (
            "The concert took place in Vienna.",
            "The orchestra was based in Vienna; the concert was held in Salzburg.",
            ("Vienna", "Salzburg"),
        ),
    ],
)
def test_an_event_held_in_another_place_is_a_conflict(
    claim: str, source: str, places: tuple[str, str]
) -> None:
    found = place_conflict(claim, source)
    assert found is not None
    assert (found.relation, found.claim, found.source) == ("venue", *places)


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # a list of places goes on past its "and"
        ("The final was held in Osaka.", "The final was held in Tokyo and Osaka over two weeks."),
        # the other place is another event's
        (
            "The summit was held in Oslo.",
            "The summit was held in Oslo; a follow-up took place in Helsinki.",
        ),
        # a source that never names the claim's place may name a containing one
        ("The match was held in Wembley.", "The match took place in London."),
        # a month is no place
        ("The fair was held in Leipzig.", "The fair took place in March, and Leipzig hosted it."),
    ],
)
def test_no_venue_conflict_without_another_place_for_the_same_event(
    claim: str, source: str
) -> None:
    assert place_conflict(claim, source) is None


@pytest.mark.parametrize(
    "source",
    [
        "The outage lasted six hours; engineers are still investigating its cause.",
        "The outage lasted six hours; its cause is yet to be determined.",
        "The outage lasted six hours. The cause of the outage remains under investigation.",
    ],
)
def test_a_cause_under_investigation_is_unknown(source: str) -> None:
    claim = "The outage lasted six hours and was caused by a cyberattack."
    assert unknown_statement(claim, source) is not None


def test_an_investigation_that_states_the_claim_is_no_unknown() -> None:
    assert (
        unknown_statement(
            "Police arrested three men.", "Police investigating the fraud arrested three men."
        )
        is None
    )


def test_synonymous_verbs_share_one_key_in_every_form() -> None:
    assert verb_key(stem("reproduced")) == verb_key(stem("replicate"))
    assert verb_key(stem("shut")) == verb_key(stem("closes"))
    assert same_verb("recruited", "hires")
    assert verb_key("novel") == "novel"  # not a listed verb: as it is


def test_a_negated_synonym_of_the_stated_verb_is_denied() -> None:
    found = negation_conflict(
        "Other labs failed to replicate the finding.",
        "Two independent labs reproduced the finding within a year.",
    )
    assert found is not None and found.side == "claim"


def test_other_rules_read_negated_scopes_by_their_plain_stems() -> None:
    # "never finished" keeps "finish" in its scope, so the antonym check sees that
    # "finished" is negated and "unfinished" agrees with it
    scopes = negated_scopes("The author never finished the novel.")
    assert stem("finished") in scopes[0][1]
    claim = "The author never finished the novel."
    source = "The novel remained unfinished at the author's death in 1924."
    assert not meaning_conflict(claim, source).found


@pytest.mark.parametrize(
    ("claim", "conflict"),
    [
        # the procedure cut waiting times: "did not lower costs" denies only the costs
        ("The new procedure did not shorten waiting times.", True),
        ("The new procedure did not lower costs.", False),
    ],
)
def test_a_predicate_asserted_in_one_clause_is_asserted_though_its_direction_is_denied_in_another(
    claim: str, conflict: bool
) -> None:
    source = "The new procedure cut waiting times but did not lower costs."
    assert (negation_conflict(claim, source) is not None) is conflict


def test_a_denial_in_the_predicates_own_clause_still_holds() -> None:
    claim = "The drug did not reduce mortality."
    source = "The drug reduced hospital stays but had no effect on mortality."
    assert negation_conflict(claim, source) is None
    assert (
        negation_conflict(
            "The drug does not reduce mortality.",
            ("There is no evidence that the drug reduces mortality."),
        )
        is None
    )


def test_strict_and_lenient_are_opposites() -> None:
    assert antonym_conflict(
        "The regulator was lenient with the bank.",
        "The regulator took an unusually strict line with the bank.",
    )


def test_laid_off_and_let_go_of_are_one_verb() -> None:
    assert (
        plain_verbs("The company let go of 12 employees.") == "The company dismissed 12 employees."
    )
    assert plain_verbs("It laid off 200 workers.") == "It dismissed 200 workers."
    source = "The factory let go of 200 workers last month."
    assert not off_predicate("The factory laid off 200 workers.", source, read_over(source))


@pytest.mark.parametrize(
    "source",
    [
        "The council considered buying the land but decided against it.",
        "The council planned to buy the land in 2019.",
        "The council tried to purchase the land twice.",
    ],
)
def test_a_verb_only_intended_is_not_asserted(source: str) -> None:
    assert negation_conflict("The council did not purchase the land.", source) is None


def test_a_verb_done_is_asserted() -> None:
    source = "The council bought the land for two million pounds."
    assert negation_conflict("The council did not purchase the land.", source) is not None


def test_a_firms_owner_stated_the_other_way_round_is_a_swap() -> None:
    source = "Google is a subsidiary of Alphabet, which was created in 2015."
    found = possessive_swap("Alphabet is a subsidiary of Google.", source)
    assert found is not None and found.relation == "subsidiary"
    assert possessive_swap("Google is a subsidiary of Alphabet.", source) is None
    # the converse relation states the same fact
    assert possessive_swap("Alphabet is the parent company of Google.", source) is None


def test_fewer_compares_and_denies_nothing() -> None:
    claim = "Masks do not reduce the spread of respiratory viruses."
    source = (
        "In the trial, households that wore masks had significantly fewer respiratory "
        "virus transmissions than those that did not."
    )
    assert negation_conflict(claim, source) is not None
    # "few" still says there is next to none
    assert negation_conflict("Hardly any residents attended.", "Few residents attended.") is None


def test_a_word_ending_in_us_or_ss_stems_as_its_plural() -> None:
    assert stem("virus") == stem("viruses")
    assert stem("class") == stem("classes")
    assert stem("votes") == stem("vote")


def test_affordable_and_expensive_are_opposites() -> None:
    assert antonym_conflict(
        "Housing in the town is affordable.",
        "Housing in the town is among the most expensive in the country.",
    )


@pytest.mark.parametrize(
    ("claim", "window", "rewritten"),
    [
        (
            "Crime in the city fell last year.",
            "Recorded crime in the city declined by 8% last year.",
            "Recorded crime in the city declined last year.",
        ),
        (
            "The population declined.",
            "The population shrank by 20,000 people.",
            "The population shrank.",
        ),
        (
            "Unemployment went down.",
            "Unemployment fell by two percentage points to 5%.",
            "Unemployment fell to 5%.",
        ),
        (
            "The drug cut deaths.",
            "The drug cut the risk of death by about 30 percent in the trial.",
            "The drug cut the risk of death in the trial.",
        ),
    ],
)
def test_the_size_of_a_change_the_claim_does_not_state_is_left_out(
    claim: str, window: str, rewritten: str
) -> None:
    assert without_sizes(claim, window) == rewritten


@pytest.mark.parametrize(
    "claim",
    [
        "Crime fell sharply.",
        "Crime fell by a third.",
        "Crime fell by 5%.",
        "Crime halved.",
        "Crime fell slightly.",
    ],
)
def test_a_claim_that_states_a_size_keeps_the_sources(claim: str) -> None:
    assert without_sizes(claim, "Crime declined by 0.5% last year.") is None


def test_the_size_free_reading_keeps_the_larger_entailment_and_smaller_contradiction() -> None:
    claim = "Crime in the city fell last year."
    window = "Recorded crime in the city declined by 8% last year."
    nli = StageScore(
        stage="nli",
        score=0.2,
        raw={"entailment": 0.2, "contradiction": 0.79, "max_contradiction": 0.79},
        evidence=Evidence(source_key="d", start=0, end=len(window), text=window),
    )
    signals = {"nli_entailment": 0.2, "nli_contradiction": 0.79, "nli_max_contradiction": 0.79}
    rewritten = "Recorded crime in the city declined last year."
    reader = ScriptedScorer({(rewritten, claim): (0.75, 0.23)})
    ((score, updated),) = [
        r for r in reread_without_sizes(reader, [(claim, window, nli, signals)]) if r
    ]
    assert reader.read == [(rewritten, claim)]
    assert updated == {
        "nli_entailment": 0.75,
        "nli_contradiction": 0.23,
        "nli_max_contradiction": 0.23,
    }
    assert score.raw["size_free_window"] == rewritten


@pytest.mark.parametrize(
    ("claim", "parts"),
    [
        (
            "The vaccine was approved in Canada and Japan.",
            ["The vaccine was approved in Canada.", "The vaccine was approved in Japan."],
        ),
        (
            "The app is available in English, French and German.",
            [
                "The app is available in English.",
                "The app is available in French.",
                "The app is available in German.",
            ],
        ),
        # names that act together, a subject list, or too many names stay whole
        ("The match between Spain and Italy ended 1-1.", None),
        ("The merger of Exxon and Mobil was approved in 1999.", None),
        ("Smith and Jones wrote the paper.", None),
        ("The app is available in English, French, German and Spanish.", None),
    ],
)
def test_a_list_of_names_after_the_verb_makes_one_statement_per_name(
    claim: str, parts: list[str] | None
) -> None:
    assert split_statements(claim) == (parts or [claim])
