"""Hard-negative generation: each edit changes what the premise supports, deterministically."""

from __future__ import annotations

import numpy as np
import pytest

from provgraph.nli.data import LABELS, Pair
from provgraph.nli.hardneg import (
    KINDS,
    HardNegativeConfig,
    antonym_swap,
    conjunct,
    entity_swap,
    from_config,
    generate,
    negate,
    number_swap,
)

ENT, NEU, CON = 0, 1, 2
PREMISE = (
    "The bridge over the Vltava was opened in 1457 by Charles Lindqvist and Maria Berg. "
    "Traffic increased to 12,000 cars a day."
)


def _pair(hyp: str, premise: str = PREMISE, label: int = ENT) -> Pair:
    return Pair(premise, hyp, label, "test")


def _rng() -> np.random.Generator:
    return np.random.default_rng(0)


def test_number_swap_changes_a_number_the_premise_states() -> None:
    out = number_swap(_pair("The bridge was opened in 1457."), _rng())
    assert out is not None and "1457" not in out
    year = int(out.split()[-1].rstrip("."))
    assert 1440 <= year <= 1470  # a year stays a plausible year
    grouped = number_swap(_pair("Traffic increased to 12,000 cars a day."), _rng())
    assert grouped is not None and "12,000" not in grouped and "," in grouped


def test_number_swap_skips_numbers_the_premise_does_not_state() -> None:
    assert number_swap(_pair("The bridge is 300 metres long."), _rng()) is None


def test_entity_swap_uses_another_name_of_the_premise() -> None:
    out = entity_swap(_pair("Charles Lindqvist opened the bridge."), _rng())
    assert out is not None
    assert "Charles Lindqvist" not in out
    assert out.replace(" opened the bridge.", "") in {"Maria Berg", "Vltava", "Traffic"}


def test_entity_swap_needs_a_name_backed_by_the_premise() -> None:
    assert entity_swap(_pair("Someone opened the bridge."), _rng()) is None


def test_negation_inserted_or_removed() -> None:
    assert negate(_pair("The bridge was opened in 1457."), _rng()) == (
        "The bridge was not opened in 1457."
    )
    assert negate(_pair("The bridge was not closed."), _rng()) == "The bridge was closed."
    assert negate(_pair("Nobody never opened it."), _rng()) is None
    assert negate(_pair("Traffic grew fast."), _rng()) is None


def test_antonym_keeps_case() -> None:
    assert antonym_swap(_pair("Traffic increased."), _rng()) in {
        "Traffic decreased.",
        "Traffic reduced.",
    }
    assert antonym_swap(_pair("Opened in 1457."), _rng()) == "Closed in 1457."
    assert antonym_swap(_pair("Traffic grew."), _rng()) is None


def test_conjunct_appends_an_unsupported_clause() -> None:
    other = Pair("Cats sleep a lot.", "The cat sleeps all day.", ENT, "x")
    assert conjunct(_pair("The bridge was opened in 1457."), other) == (
        "The bridge was opened in 1457, and the cat sleeps all day."
    )
    same_premise = Pair(PREMISE, "Traffic increased.", ENT, "x")
    assert conjunct(_pair("The bridge was opened."), same_premise) is None


def test_generate_is_deterministic_labelled_and_from_entailments_only() -> None:
    pairs = [
        _pair("The bridge was opened in 1457."),
        _pair("Charles Lindqvist opened the bridge."),
        _pair("Traffic increased to 12,000 cars a day."),
        _pair("The bridge is red.", label=NEU),
        _pair("The bridge was closed in 1457.", label=CON),
    ] * 4
    cfg = HardNegativeConfig(fraction=1.0, seed=3)
    first = generate(pairs, LABELS, cfg)
    assert first == generate(pairs, LABELS, cfg)
    assert len(first) == 12  # every entailment pair offers an edit
    for p in first:
        kind = p.source.removeprefix("hardneg_")
        assert kind in KINDS
        assert p.label == (NEU if kind == "conjunct" else CON)
        assert p.hypothesis not in {q.hypothesis for q in pairs if q.label == ENT}
    assert generate(pairs, LABELS, HardNegativeConfig(fraction=0.0)) == []
    only_neg = generate(pairs, LABELS, HardNegativeConfig(fraction=1.0, kinds=("negation",)))
    assert {p.source for p in only_neg} == {"hardneg_negation"}


def test_config_validation() -> None:
    with pytest.raises(ValueError, match="fraction"):
        HardNegativeConfig(fraction=1.5)
    with pytest.raises(ValueError, match="unknown hard-negative kinds"):
        HardNegativeConfig(kinds=("negation", "typo"))
    with pytest.raises(ValueError, match="unknown keys"):
        from_config([], LABELS, {"fractoin": 0.3})
    assert from_config([_pair("The bridge was opened.")], LABELS, {}) == []
    made = from_config([_pair("The bridge was opened.")], LABELS, {"fraction": 1.0})
    assert [p.hypothesis for p in made] == ["The bridge was not opened."]
