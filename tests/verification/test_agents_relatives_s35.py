"""Session 35's rules, read without models: opposites, a value's own words, agents, relatives."""

from __future__ import annotations

from provgraph.verification.agents import agent_conflict
from provgraph.verification.consistency import check_consistency
from provgraph.verification.relatives import relative_only


def _consistency(claim: str, source: str) -> dict[str, str]:
    return dict(check_consistency(claim, source, source).details)


def test_new_opposites_are_conflicts() -> None:
    ratified = _consistency(
        "The treaty was ratified by the parliament.",
        "The parliament rejected the treaty by a wide margin.",
    )
    assert ratified.get("antonyms") == "claim ratifi / source reject"
    extinct = _consistency(
        "The species is extinct.",
        "Small populations of the species still survive in the northern forests.",
    )
    assert "antonyms" in extinct


def test_a_subordinate_clause_is_no_measure_of_the_date() -> None:
    result = check_consistency(
        "The merger closed in the first quarter of 2021.",
        "The merger was completed in November 2021 after regulators approved it.",
        "The merger was completed in November 2021 after regulators approved it.",
    )
    assert result.year_mismatches == ("first quarter of 2021",)


def test_agent_after_a_short_phrase_against_an_active_source() -> None:
    claim = "The novel was translated into Japanese by Yuki Tanaka."
    found = agent_conflict(claim, "Hiroshi Sato translated the novel into Japanese in 1998.")
    assert found is not None
    assert (found.claim, found.source) == ("Yuki Tanaka", "Hiroshi Sato")
    # another translation (French) is not the claim's; a co-translator is no other agent
    assert agent_conflict(claim, "The novel was translated into French by Hiroshi Sato.") is None
    assert (
        agent_conflict(claim, "Hiroshi Sato translated the novel into Japanese with Yuki Tanaka.")
        is None
    )


def test_subject_named_only_as_a_relatives_possessor() -> None:
    claim = "The painter was a sailor."
    assert relative_only(claim, "The painter's father was a sailor who drowned.") == "father"
    assert (
        relative_only(claim, "Before he took up painting, the painter spent ten years at sea.")
        is None
    )
    assert (
        relative_only("The painter's father was a sailor.", "The painter's father was a sailor.")
        is None
    )
