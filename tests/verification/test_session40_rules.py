"""Session 40's rules, read without models: an event put off ("not … until"), a state
denied by its opposite, a comparative reached by a change, lists of bare plurals, and
change verbs that name no topic."""

from __future__ import annotations

from typing import Any

from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.claimsplit import split_statements
from provgraph.verification.delayed_events import assertive_form
from provgraph.verification.delayed_reread import reread_delayed
from provgraph.verification.negated_opposites import with_opposites_asserted
from provgraph.verification.negation import negated_scopes, negation_conflict
from provgraph.verification.persisting_problems import persisting_problem
from provgraph.verification.polarity import positive_form
from provgraph.verification.report import Evidence, StageScore
from provgraph.verification.signals import Signals
from provgraph.verification.topic_words import topic_share, topic_stems
from provgraph.verification.verdicts import shares_only_values
from tests.verification.scripted_scorer import ScriptedScorer


def test_not_until_is_no_denial() -> None:
    claim = "The bridge was not opened until 1932."
    assert negated_scopes(claim) == []
    assert positive_form(claim) is None  # the polarity reading leaves it alone
    assert negation_conflict(claim, "The bridge finally opened to traffic in 1932.") is None
    # a plain denial still is one
    assert negation_conflict(
        "The bridge was not opened to traffic.", "The bridge opened to traffic in 1932."
    )


def test_the_assertive_form_says_the_event_at_its_time() -> None:
    assert assertive_form("The bridge was not opened until 1932.") == (
        "The bridge was opened in 1932."
    )
    assert assertive_form("She didn't marry until 5 June 1920.") == (
        "She did marry on 5 June 1920."
    )
    assert assertive_form("The law did not take effect until after the election.") == (
        "The law did take effect after the election."
    )
    assert assertive_form("He did not speak until he was asked.") == (
        "He did speak when he was asked."
    )
    assert assertive_form("The shop won't open till May.") == "The shop will open in May."
    # a time it cannot say safely, a plain denial, two sentences: no form
    assert assertive_form("He did not retire until his wife fell ill.") is None
    assert assertive_form("The bridge was not opened to traffic.") is None
    assert assertive_form("It opened. It was not busy until 1950.") is None


def _nli(window: str) -> StageScore:
    evidence = Evidence(source_key="d_1", start=0, end=len(window), text=window)
    raw: dict[str, Any] = {"entailment": 0.16, "contradiction": 0.83}
    return StageScore(stage="nli", score=0.16, raw=raw, evidence=evidence)


def test_the_assertive_reading_replaces_the_claims_own() -> None:
    window = "The bridge finally opened to traffic in 1932 after years of delays."
    claim = "The bridge was not opened until 1932."
    scorer = ScriptedScorer({(window, "The bridge was opened in 1932."): (0.95, 0.02)})
    signals = {
        "nli_entailment": 0.16,
        "nli_contradiction": 0.83,
        "nli_max_contradiction": 0.83,
        "nli_value_free_contradiction": 0.05,
    }
    [done] = reread_delayed(scorer, [(claim, window, _nli(window), signals)])
    assert done is not None
    score, updated = done
    assert scorer.read == [(window, "The bridge was opened in 1932.")]
    assert updated["nli_entailment"] == 0.95 and updated["nli_contradiction"] == 0.02
    assert updated["nli_value_free_contradiction"] is None  # it read "was not opened"
    assert score.score == 0.95
    # a claim without the construction is not read again
    plain = "The bridge was opened in 1932."
    assert reread_delayed(scorer, [(plain, window, _nli(window), signals)]) == [None]


def test_a_denied_opposite_is_read_as_the_claims_state() -> None:
    assert with_opposites_asserted(
        "The lake is shallow.", "The lake is not deep; its depth is two metres."
    ) == ("The lake is shallow; its depth is two metres.")
    assert with_opposites_asserted("The hotel is expensive.", "The hotel isn't cheap.") == (
        "The hotel is expensive."
    )
    assert with_opposites_asserted("The road is narrow.", "The road is not very wide.") == (
        "The road is narrow."
    )
    # a verb's denial is not its opposite ("did not win" may be a draw), nor the same word
    assert with_opposites_asserted("The team lost.", "The team did not win.") is None
    assert with_opposites_asserted("The lake is deep.", "The lake is not deep.") is None


def test_a_comparative_reached_by_a_change_opposes_a_change_verb() -> None:
    claim = "The new policy simplified the tax code."
    found = antonym_conflict(claim, "The new policy made the tax code more complicated.")
    assert found is not None and found.source_word == "complicated"
    # a comparison with another thing is still no change
    assert antonym_conflict(claim, "The tax code is more complicated than the old one.") is None
    assert (
        antonym_conflict(
            "Wind power became cheaper than coal in 2019.",
            "In 2019, the cost of wind power fell below that of coal for the first time.",
        )
        is None
    )


def test_advancing_and_retreating_are_opposites() -> None:
    found = antonym_conflict("The glacier is advancing.", "The glacier is retreating.")
    assert found is not None


def test_a_list_of_bare_plurals_is_two_objects() -> None:
    assert split_statements("The firm makes bicycles and electric scooters.") == [
        "The firm makes bicycles.",
        "The firm makes electric scooters.",
    ]
    # adjectives of one object, and a pronoun noun, stay whole
    assert len(split_statements("The shop sells new and used cars.")) == 1
    assert len(split_statements("The band played old songs and new ones.")) == 1


def test_change_verbs_name_no_topic() -> None:
    claim = "The firm's revenue rose 8% in 2023."
    assert topic_stems(claim) == {"firm", "revenu"}
    assert topic_share(claim, "Rainfall rose 8% in 2023 compared with the previous year.") == 0
    assert topic_share(claim, "The firm's revenue rose 8% in 2023.") == 1


def test_a_value_confirmed_as_written_is_a_coincidence() -> None:
    only_values = Signals(topic_share=0.0, shares_a_value=True, embedding=0.48)
    assert shares_only_values(only_values)
    # "rose 8%" / "rose 8%": agreed, but not in other words
    assert shares_only_values(Signals(**{**only_values.__dict__, "consistency_paraphrased": True}))
    # "40 degrees Celsius" / "104 degrees Fahrenheit": no coincidence
    assert not shares_only_values(
        Signals(**{**only_values.__dict__, "consistency_rewritten": True})
    )


def test_a_remedy_the_source_says_did_not_take() -> None:
    found = persisting_problem(
        "The update fixed the battery problem.", "The battery problem persisted after the update."
    )
    assert found is not None and found.went_on == "persisted"
    assert persisting_problem("The drug cured the infection.", "The infection came back.")
    # denied by the claim, negated or earlier in the source, a state that is no problem
    source = "The battery problem persisted after the update."
    assert persisting_problem("The update did not fix the battery problem.", source) is None
    assert (
        persisting_problem(
            "The update fixed the battery problem.",
            "The update fixed the battery problem, which had persisted for months.",
        )
        is None
    )
    assert (
        persisting_problem("The drug cured the infection.", "The infection did not return.") is None
    )
    assert persisting_problem("The repair fixed the bridge.", "The bridge remained open.") is None
    assert persisting_problem("The bus stopped at the station.", "The station continued.") is None


def test_online_and_offline_are_opposites() -> None:
    assert antonym_conflict("The server was online all day.", "The server was offline all day.")
