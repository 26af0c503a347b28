"""Active claims against a named passive agent, object lists, fronted birthplaces, a part
the source did not measure, ended partnerships, antonyms inside one statement, weights in
pounds, volumes, fractions of a unit, "not all", "into force", the unknown-free reading
one-way relations between names (session 23)."""

from __future__ import annotations

import pytest

from provgraph.verification.agents import agent_conflict
from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.claimsplit import split_statements
from provgraph.verification.consistency import check_consistency
from provgraph.verification.ended_states import ended_state
from provgraph.verification.home_places import place_conflict
from provgraph.verification.possessive_roles import possessive_swap
from provgraph.verification.proportions import extract_proportions
from provgraph.verification.quantities import read_quantities
from provgraph.verification.report import Evidence, StageScore
from provgraph.verification.unknown_free import reread_without_unknowns, without_unknowns
from provgraph.verification.unknowns import unknown_statement
from provgraph.verification.wordsets import near_stems


@pytest.mark.parametrize(
    ("claim", "source", "conflict"),
    [
        # the claim's active read as its passive: another trainer of the same nurses
        ("Maria trained the new nurses.", "The new nurses were trained by Daniel, her boss.", True),
        ("Greta Gerwig wrote the script.", "The script was written by Noah Baumbach.", True),
        # a joint agent may include the claim's; the claim's own agent agrees
        (
            "Maria trained the new nurses.",
            "The new nurses were trained by Maria and Daniel.",
            False,
        ),
        ("Maria trained the new nurses.", "The new nurses were trained by Maria.", False),
        # another thing done by someone else says nothing of the claim's object
        ("Maria trained the new nurses.", "The doctors were trained by Daniel.", False),
        # a title or a month is no one
        ("Obama signed the bill.", "The bill was signed by the President in March.", False),
        # present tense and auxiliaries are not read as an action done
        ("Maria trains the new nurses.", "The new nurses were trained by Daniel.", False),
        ("Maria was the new nurse.", "The new nurse was hired by Daniel.", False),
        # an agent ends where the sentence's next passive begins
        (
            "The film was directed by Sofia Coppola.",
            "The film was directed by Greta Gerwig and produced by Sofia Coppola.",
            True,
        ),
        (
            "The film was produced by Sofia Coppola.",
            "The film was directed by Greta Gerwig and produced by Sofia Coppola.",
            False,
        ),
    ],
)
def test_agent_conflicts(claim: str, source: str, conflict: bool) -> None:
    assert (agent_conflict(claim, source) is not None) is conflict


@pytest.mark.parametrize(
    ("sentence", "parts"),
    [
        (
            "The team won the league and the cup.",
            ["The team won the league.", "The team won the cup."],
        ),
        ("The hotel has a pool and a gym.", ["The hotel has a pool.", "The hotel has a gym."]),
        (
            "The plant makes two engines and a gearbox.",
            ["The plant makes two engines.", "The plant makes a gearbox."],
        ),
        # objects that act together, pre-modifiers, names and attached phrases stay whole
        ("The firm combined a bank and an insurer.", None),
        ("The team won the 2019 and 2020 titles.", None),
        ("She painted the red and blue panels.", None),
        ("He works at the Department of Health and Human Services.", None),
        ("The museum holds a painting and a sculpture by Rodin.", None),
    ],
)
def test_object_lists_split(sentence: str, parts: list[str] | None) -> None:
    assert split_statements(sentence) == (parts or [sentence])


@pytest.mark.parametrize(
    ("claim", "source", "conflict"),
    [
        (
            "The violinist was born in Vienna.",
            "Born in Berlin, the violinist lives in Vienna.",
            True,
        ),
        (
            "The violinist was born in Berlin.",
            "Born in Berlin, the violinist lives in Vienna.",
            False,
        ),
        # the fronted relation is of the main clause's subject only
        (
            "The pianist was born in Vienna.",
            "Born in Berlin, the violinist met a pianist from Vienna.",
            False,
        ),
    ],
)
def test_fronted_birthplace(claim: str, source: str, conflict: bool) -> None:
    assert (place_conflict(claim, source) is not None) is conflict


def test_a_part_the_source_did_not_measure_is_unknown() -> None:
    claim = "The drug lowered blood pressure and reduced headaches."
    assert (
        unknown_statement(
            claim, "In the trial, the drug lowered blood pressure; headaches were not measured."
        )
        == "headaches were not measured"
    )
    # the unmeasured thing is no part of the claim
    assert (
        unknown_statement(
            claim, "The drug lowered blood pressure and reduced headaches; nausea was not measured."
        )
        is None
    )


def test_insufficient_evidence_is_unknown() -> None:
    source = "There is currently insufficient evidence that vitamin D supplements prevent COVID-19."
    assert unknown_statement("Vitamin D prevents COVID-19 infection.", source) is not None
    assert unknown_statement("Vitamin D may prevent COVID-19 infection.", source) is None


@pytest.mark.parametrize(
    ("claim", "source", "ended"),
    [
        (
            "The two companies are still partners.",
            "The companies ended their partnership in May.",
            True,
        ),
        ("The two firms are allies.", "The firms severed ties in 2019.", True),
        # the end of talks is not the end of the tie
        (
            "The two companies are partners.",
            "The companies ended their partnership talks in May.",
            False,
        ),
    ],
)
def test_ended_partnerships(claim: str, source: str, ended: bool) -> None:
    assert (ended_state(claim, source) is not None) is ended


def test_antonym_in_one_statement_of_a_coordinated_sentence() -> None:
    source = "The team won the league but lost the cup final."
    found = antonym_conflict("The team won the cup.", source)
    assert found is not None and (found.claim_word, found.source_word) == ("win", "los")
    # the statement that holds the claim's object agrees
    assert antonym_conflict("The team won the league.", source) is None


@pytest.mark.parametrize(
    ("text", "kind", "low", "high"),
    [
        # a weight in pounds, though quantulum3 reads the scales' pounds as money
        ("The parcel tipped the scales at 11 pounds.", "mass", 4762.0, 5217.0),
        ("He paid 11 pounds for the scales.", "currency:pound sterling", 10.5, 11.5),
        # "half a litre" is 0.5 litre; "ml" (cm³ to the library) is a thousandth of one
        ("The recipe needs half a litre of milk.", "volume", 0.475, 0.525),
        ("Add 500 ml of milk to the batter.", "volume", 0.475, 0.525),
        # a fraction of one unit, which the library reads as two values
        ("She stayed for a quarter of a century.", "time", 749493000.0, 828387000.0),
        ("It took half an hour.", "time", 1710.0, 1890.0),
        ("The walk is three quarters of a mile.", "length", 1146.7, 1267.4),
    ],
)
def test_weights_and_volumes_read_alike(text: str, kind: str, low: float, high: float) -> None:
    (mention,) = read_quantities(text).mentions
    assert mention.kind == kind
    assert mention.low == pytest.approx(low, abs=1.0) and mention.high == pytest.approx(
        high, abs=1.0
    )


def test_not_all_is_a_share_short_of_all() -> None:
    (share,) = extract_proportions("Not all of the samples were contaminated.")
    assert (share.kind, share.low) == ("percent", 0.0) and share.high < 100.0


def test_into_force_anchors_like_took_effect() -> None:
    text = "The law came into force at the start of 2021."
    at = text.index("2021")
    near, _clause = near_stems(text, at, at + 4)
    assert "effect" in near
    claim = "The law took effect on 1 January 2020."
    assert "1 January 2020" in check_consistency(claim, text, text).anchored_mismatches


def test_without_unknowns_drops_only_clauses_of_other_matters() -> None:
    window = "The diet cut cholesterol by 12%; sleep was not measured in the study."
    assert (
        without_unknowns("The diet cut cholesterol.", window) == "The diet cut cholesterol by 12%."
    )
    # a clause about the claim's own statement is the unknowns rule's, and stays
    assert without_unknowns("The diet improved sleep in the study.", window) is None
    assert without_unknowns("The diet cut cholesterol.", "The diet cut cholesterol by 12%.") is None


class _Reader:
    """Reads a window with "not measured" in it as a contradiction, like the small model."""

    def __init__(self) -> None:
        self.read: list[tuple[str, str]] = []

    def predict_pairs(self, pairs: list[tuple[str, str]]) -> list[tuple[float, float | None]]:
        self.read += pairs
        return [(0.1, 0.9) if "not measured" in w else (0.95, 0.02) for w, _c in pairs]


def test_the_unknown_free_reading_keeps_the_larger_entailment_and_smaller_contradiction() -> None:
    claim, window = "The diet cut cholesterol.", "The diet cut cholesterol; sleep was not measured."
    nli = StageScore(
        stage="nli",
        score=0.1,
        raw={"entailment": 0.1, "contradiction": 0.9, "max_contradiction": 0.9},
        evidence=Evidence(source_key="d", start=0, end=len(window), text=window),
    )
    signals = {"nli_entailment": 0.1, "nli_contradiction": 0.9, "nli_max_contradiction": 0.9}
    reader = _Reader()
    ((score, updated),) = [
        r for r in reread_without_unknowns(reader, [(claim, window, nli, signals)]) if r
    ]
    assert reader.read == [("The diet cut cholesterol.", claim)]
    assert updated == {
        "nli_entailment": 0.95,
        "nli_contradiction": 0.02,
        "nli_max_contradiction": 0.02,
    }
    assert score.score == 0.95 and score.raw["unknown_free_window"] == "The diet cut cholesterol."
    # no contradiction worth discounting: nothing is read again
    calm = {**signals, "nli_contradiction": 0.1, "nli_max_contradiction": 0.1}
    assert reread_without_unknowns(reader, [(claim, window, nli, calm)]) == [None]


def test_an_agent_ends_where_its_own_clause_begins() -> None:
    source = "The portrait was painted by Renoir while Monet looked on."
    found = agent_conflict("Monet painted the portrait.", source)
    assert found is not None and found.source == "Renoir"
    assert agent_conflict("Renoir painted the portrait.", source) is None


def test_surplus_and_shortage_are_opposites_live_and_recorded_are_not() -> None:
    found = antonym_conflict(
        "The region has a surplus of teachers.", "The region faces a severe shortage of teachers."
    )
    assert found is not None
    assert (
        antonym_conflict(
            "At least 20 species live in the lake.",
            "Biologists have recorded 34 species in the lake.",
        )
        is None
    )


def test_without_unknowns_keeps_a_cue_that_governs_what_follows() -> None:
    # cut at its comma, the rest would assert what the source leaves open
    window = "It is still unclear if deeper down, Jupiter has a core of solid material."
    assert without_unknowns("Jupiter has a solid surface.", window) is None
    # a clause that shares two words with the claim is about it: kept
    window = "Jupiter is a gas giant; its solid core was not measured."
    assert without_unknowns("Jupiter has a solid core.", window) is None


@pytest.mark.parametrize(
    ("claim", "source", "swapped"),
    [
        ("Anna is Clara's mother.", "Clara is Anna's mother and a retired teacher.", True),
        ("Anna Berg was Clara's teacher.", "Clara was Anna's teacher at the academy.", True),
        # the claim's way round, a relation that may hold both ways, another relation
        ("Anna is Clara's mother.", "Anna is Clara's mother.", False),
        ("Anna is Clara's friend.", "Clara is Anna's friend.", False),
        ("Anna is Clara's mother.", "Clara is Anna's aunt.", False),
    ],
)
def test_one_way_relations_between_names(claim: str, source: str, swapped: bool) -> None:
    assert (possessive_swap(claim, source) is not None) is swapped


def test_accepting_and_refusing_are_opposites_but_declining_is_also_falling() -> None:
    found = antonym_conflict("The actor accepted the award.", "The actor refused the award.")
    assert found is not None and found.claim_word == "accept"
    # "decline" is also a fall: paired with "accept" it opposed "prices decrease"
    assert (
        antonym_conflict(
            "Customers accepted the new prices.", "Customers saw prices decrease after the launch."
        )
        is None
    )


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("The restoration lasted a decade.", (9.5, 10.5)),
        ("The abbey stood for a century.", (99.5, 100.5)),
        (
            "Allow three full days for the hike.",
            (2.5 / 365.25, 3.5 / 365.25),
        ),
    ],
)
def test_durations_in_words(text: str, years: tuple[float, float]) -> None:
    (mention,) = read_quantities(text).mentions
    year = 31557600.0
    assert mention.kind == "time"
    assert (mention.low / year, mention.high / year) == pytest.approx(years, rel=1e-3)


def test_a_decade_before_a_noun_qualifies_it() -> None:
    assert read_quantities("A decade-long war ended.").mentions == []
    assert read_quantities("They restored a century-old church.").mentions == []


def test_a_subject_shared_by_both_parts_answers_neither() -> None:
    claim = "The exercise programme reduced pain and improved mobility."
    source = "The exercise programme reduced pain scores by a third; mobility was not assessed."
    assert unknown_statement(claim, source) == "mobility was not assessed"
