"""The antonym check with its two lexicons: the hand list and WordNet's direct antonyms."""

from __future__ import annotations

import pytest

from provgraph.verification.antonym_lexicon import WORDNET_PAIRS, wordnet_pairs
from provgraph.verification.antonyms import antonym_conflict


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # WordNet only (the hand list has neither pair)
        (
            "The patient was conscious when the ambulance arrived.",
            "When the ambulance arrived, the patient was unconscious.",
        ),
        (
            "The new policy was a gradual change for employees.",
            "For employees, the new policy was a sudden change.",
        ),
        ("The river water near the mine is acidic.", "The river water near the mine is alkaline."),
        # an irregular inflection of a WordNet pair (remember / forget), from lemminflect
        (
            "The witness remembered the licence plate of the car.",
            "The witness forgot the licence plate of the car.",
        ),
    ],
)
def test_opposites_from_wordnet_are_found(claim: str, source: str) -> None:
    assert antonym_conflict(claim, source) is not None


def test_a_negated_opposite_is_a_paraphrase_not_a_conflict() -> None:
    claim = "The patient was not conscious when the ambulance arrived."
    assert (
        antonym_conflict(claim, "When the ambulance arrived, the patient was unconscious.") is None
    )


def test_an_opposite_in_another_clause_on_the_same_topic_still_needs_the_claim_word_absent() -> (
    None
):
    claim = "The senator was optimistic about jobs."
    source = "The senator was optimistic about jobs but pessimistic about inflation."
    assert antonym_conflict(claim, source) is None


def test_the_wordnet_list_is_pairs_of_words_under_its_licence() -> None:
    lines = WORDNET_PAIRS.read_text(encoding="utf-8").splitlines()
    header = " ".join(line.lstrip("# ") for line in lines if line.startswith("#"))
    assert "WordNet 3.0 Copyright 2006 by Princeton University" in header
    pairs = wordnet_pairs()
    assert len(pairs) > 3000
    assert all(len(p) == 2 and p[0] != p[1] and all(w.isalpha() for w in p) for p in pairs)
    assert ["conscious", "unconscious"] in pairs and ["decrease", "increase"] in pairs


def test_wordnet_pairs_are_matched_as_words_not_as_crude_stems() -> None:
    # "specializes" stems to "special", whose WordNet opposite is "general"
    claim = "The American Fantasy Press specializes in fantasy literature."
    source = "The American Fantasy Press publishes general fiction and fantasy literature."
    assert antonym_conflict(claim, source) is None


def test_function_word_opposites_from_wordnet_are_not_used() -> None:
    # WordNet lists more / less; here the source states the converse comparison
    claim = "Black holes are much more massive than neutron stars."
    source = (
        "When the most massive stars die they leave black holes; stars a bit less massive "
        "than this leave neutron stars."
    )
    assert antonym_conflict(claim, source) is None


def test_a_claim_with_one_other_content_word_is_checked_when_the_sentence_has_it() -> None:
    # two content words in the claim: only one can be shared besides the opposite
    assert antonym_conflict("The couple are married.", "The couple divorced in 2012.") is not None
    assert antonym_conflict("The volcano is dormant.", "The volcano erupted and remains active.")
    # ... but not when the sentence is about something else
    assert antonym_conflict("The couple are married.", "Their friends divorced in 2012.") is None


def test_opposite_events_at_other_times_are_not_a_conflict_for_a_short_claim() -> None:
    assert antonym_conflict("The factory opened in 1990.", "The factory closed in 2005.") is None
    assert antonym_conflict("The couple divorced in 2015.", "The couple married in 2015.")


def test_british_spellings_reach_wordnet_pairs() -> None:
    claim = "The ruling was favourable to the union."
    source = "The ruling was unfavourable to the union, which plans to appeal."
    assert antonym_conflict(claim, source) is not None


def test_the_finding_says_how_much_of_the_claim_its_sentence_speaks_of() -> None:
    finding = antonym_conflict(
        "Exports rose last year.", "Exports fell sharply last year as demand weakened."
    )
    assert finding is not None and finding.subject_share == 1.0


def test_an_exception_states_the_opposite_for_what_it_sets_apart() -> None:
    source = "The museum opens every day of the week except Monday."
    assert antonym_conflict("The museum is closed on Mondays.", source) is None
    assert antonym_conflict("Exports rose last year.", "Exports fell last year, except in May.")


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "The company expanded its workforce in 2023.",
            "In 2023 the company cut 1,200 jobs, shrinking its workforce by a tenth.",
        ),
        ("The regulator approved the merger.", "The regulator blocked the merger, citing costs."),
        (
            "The founders left the company after the merger.",
            "After the merger the founders stayed at the company.",
        ),
    ],
)
def test_growth_against_cuts_and_approval_against_a_block_are_opposites(
    claim: str, source: str
) -> None:
    assert antonym_conflict(claim, source) is not None
