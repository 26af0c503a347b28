"""A death or an employer's end against a present state, "stop" as "prevent", "knocked
out" as "eliminated", an active source sentence naming another author, a source that
speaks of a third of the claim's predicate, an opposite said of another subject, and
amounts the quantity reader misread (session 27)."""

from __future__ import annotations

import pytest

from provgraph.verification.agents import agent_conflict
from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.ended_states import ended_state
from provgraph.verification.negation import negation_conflict
from provgraph.verification.phrasal import plain_verbs
from provgraph.verification.predicate import off_predicate
from provgraph.verification.proportions import derived_shares
from provgraph.verification.quantities import read_quantities
from provgraph.verification.roles import role_swap
from provgraph.verification.synonyms import same_verb
from tests.verification.nli_reading import read_over


@pytest.mark.parametrize(
    ("claim", "source", "state"),
    [
        (
            "The author lives in Lisbon.",
            "The author, who died in 2010, spent her last years in Lisbon.",
            "alive",
        ),
        ("The composer resides in Vienna.", "The composer passed away in Vienna in 1998.", "alive"),
        (
            "The factory still employs 300 people.",
            "The factory shut down in 2019, and its 300 workers were let go.",
            "employing",
        ),
        (
            "The shipyard employs about 1,200 workers.",
            "The shipyard went bankrupt in 2016, leaving 1,200 workers without jobs.",
            "employing",
        ),
    ],
)
def test_a_death_or_an_employers_end_ends_a_present_state(
    claim: str, source: str, state: str
) -> None:
    found = ended_state(claim, source)
    assert found is not None and found.state == state


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the past tense asserts no current state
        ("The author lived in Lisbon.", "The author, who died in 2010, lived in Lisbon."),
        # the holder's someone died, not the holder
        ("Smith lives in Lisbon.", "Smith's wife died in Lisbon in 2015; he still lives there."),
        # another subject's death
        ("Maria Lopez lives in Madrid.", "Maria Lopez lives in Madrid, where her father died."),
        # a part of the business closed, not the business
        ("The company employs 3,000 people.", "The company closed two of its stores in 2020."),
    ],
)
def test_no_end_of_the_claims_own_state(claim: str, source: str) -> None:
    assert ended_state(claim, source) is None


_LEVEE = "In adults over 70, the vaccine failed to stop infections, though it cut hospital stays."


def test_stopping_is_preventing_for_the_negation_check() -> None:
    found = negation_conflict("The vaccine prevented infection in older adults.", _LEVEE)
    assert found is not None and found.side == "source"
    denied = "The vaccine did not prevent infection in older adults."
    assert negation_conflict(denied, _LEVEE) is None


def test_knocked_out_is_eliminated_and_eliminated_is_beat() -> None:
    assert plain_verbs("Italy knocked out Spain.") == "Italy eliminated Spain."
    source = "Italy knocked out Spain on penalties in the semi-final."
    found = role_swap("Spain beat Italy in the semi-final.", source)
    assert found is not None and found.verb == "beat"
    assert role_swap("Italy beat Spain in the semi-final.", source) is None


@pytest.mark.parametrize(
    ("claim", "source", "conflict"),
    [
        ("Ana Ruiz wrote the novel.", "Tom Bell wrote the novel, and Ana Ruiz drew it.", True),
        (
            "The novel was written by Ana Ruiz and illustrated by Tom Bell.",
            "Tom Bell wrote the novel, and Ana Ruiz drew its illustrations.",
            True,
        ),
        # a co-author in the same clause
        ("Ana Ruiz wrote the novel.", "Tom Bell wrote the novel with Ana Ruiz.", False),
        # another thing written, and the claim's agent writes too
        (
            "Ana Ruiz wrote the novel.",
            "Tom Bell wrote the novel's foreword, and Ana Ruiz wrote the rest.",
            False,
        ),
        ("Tom Bell wrote the novel.", "Tom Bell wrote the novel, and Ana Ruiz drew it.", False),
    ],
)
def test_an_active_source_clause_names_the_agent(claim: str, source: str, conflict: bool) -> None:
    assert (agent_conflict(claim, source) is not None) is conflict


@pytest.mark.parametrize(
    ("claim", "source", "silent"),
    [
        # one word of three ("town"): the source speaks of something else there
        (
            "The river flooded the town centre in March.",
            "The town's football club was promoted to the second division in March.",
            True,
        ),
        # two of three: spoken of
        ("The river flooded the town centre.", "The town centre flooded after the storm.", False),
        # an opposite is spoken of
        ("The shop is permanently closed.", "The shop is open every day.", False),
        # an "-able" adjective speaks of its verb
        ("The island is reachable only by boat.", "Visitors reach the island by ferry.", False),
    ],
)
def test_a_source_speaking_of_a_third_of_the_predicate_is_silent_on_it(
    claim: str, source: str, silent: bool
) -> None:
    assert off_predicate(claim, source, read_over(source), times_apart=True) is silent


def test_nli_contradiction_of_a_predicate_spoken_of_a_third_is_off_predicate() -> None:
    claim = "The school banned mobile phones in classrooms."
    source = "The school added two new classrooms for science lessons."
    assert off_predicate(claim, source, read_over(source))
    # a month is a name on the contradiction side: "held every July" / "every June"
    fair = "The fair moved to June."
    assert not off_predicate("The fair is held in July.", fair, read_over(fair))


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # a universal's exception, in other words
        ("The ban applies to all single-use plastics.", "The ban exempts plastic bags."),
        # a negated claim, contradicted by a synonym ("reproduced") and no other word
        (
            "Researchers were unable to replicate the result.",
            "The team successfully reproduced the original finding.",
        ),
    ],
)
def test_a_universal_or_negated_claim_needs_a_silent_source(claim: str, source: str) -> None:
    assert not off_predicate(claim, source, read_over(source))


def test_a_hyphenated_word_is_spoken_of_by_its_parts() -> None:
    claim = "The results were published in a peer-reviewed journal."
    source = "The results were never peer reviewed by a journal."
    assert not off_predicate(claim, source, read_over(source))  # two words of three
    half = "The results were never reviewed."  # one part of "peer-reviewed" is not it
    assert off_predicate(claim, half, read_over(half))


def test_an_opposite_said_of_another_subject_is_no_conflict() -> None:
    claim = "The launch was a success."
    assert antonym_conflict(claim, "The launch failed when the second stage did not ignite.")
    other = "The first attempt failed, but the launch on Friday went perfectly."
    assert antonym_conflict(claim, other) is None
    # a pronoun's statement still speaks of the claim's subject
    pronoun = "The company cut prices and its profit fell."
    found = antonym_conflict("The company's profit rose.", pronoun)
    assert found is not None


def test_hurt_is_injured() -> None:
    assert same_verb("injured", "hurt")


@pytest.mark.parametrize(
    ("text", "kind", "low", "high"),
    [
        # quantulum3 alone reads "a $500" as "1 dollar to the 500"
        ("The foundation awarded a $500,000 grant.", "currency:dollar", 475_000, 525_000),
        ("The grant was worth half a million dollars.", "currency:dollar", 475_000, 525_000),
        ("Half a million people signed it.", "count", 475_000, 525_000),
        ("Temperatures fell below freezing overnight.", "temperature", float("-inf"), 273.15),
        # the library alone reads coulomb
        ("It stayed above 30C all week.", "temperature", 303.15, float("inf")),
    ],
)
def test_amounts_the_library_misreads(text: str, kind: str, low: float, high: float) -> None:
    [mention] = read_quantities(text).mentions
    assert mention.kind == kind
    assert mention.low == pytest.approx(low) and mention.high == pytest.approx(high)


def test_freezing_without_a_bound_is_no_temperature() -> None:
    assert read_quantities("Freezing rain closed the roads.").mentions == []


def test_a_share_of_its_whole_after_a_possessive() -> None:
    [share] = derived_shares("Of its 400 employees, 310 work from home.")
    assert share.kind == "percent" and 77 < share.low < share.high < 78


def test_the_statement_that_uses_the_claims_word_is_the_claims() -> None:
    claim = "The airline cut fares on domestic routes."
    more = "The airline raised fares abroad but cut fares on its busy domestic routes."
    assert antonym_conflict(claim, more) is None
    found = antonym_conflict(claim, "The airline raised fares on its domestic routes.")
    assert found is not None and (found.claim_word, found.source_word) == ("cut", "rais")
    # a tie: both statements hold as much of the claim (session 23's list claim)
    assert antonym_conflict(
        "The school won the debate prize and the chess trophy.",
        "The school won the debate prize but lost the chess trophy to a rival.",
    )


def test_the_claims_subject_only_in_the_statement_with_its_word() -> None:
    claim = "Exports rose in the first quarter."
    other = "Imports fell in the first quarter, while exports climbed 4%."
    assert antonym_conflict(claim, other) is None
    assert antonym_conflict(claim, "Imports rose in the first quarter, but exports fell 4%.")


def test_a_name_between_verb_and_particle() -> None:
    found = role_swap("Leeds knocked Chelsea out of the cup.", "Chelsea knocked out Leeds.")
    assert found is not None and found.verb == "beat"


def test_an_employers_end_speaks_of_the_employer_not_of_its_staff() -> None:
    found = ended_state("The mill employs 80 people.", "The mill closed down in 2008.")
    assert found is not None and found.share == 1.0
    dead = ended_state("The poet lives on a farm in Vermont.", "The poet died on his farm.")
    assert dead is not None and dead.state == "alive"
