"""Related-window neutrals: a claim against related text that does not state it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provgraph.nli.data import LABELS, Pair
from provgraph.nli.related_windows import (
    SOURCE_NAME,
    RelatedWindowConfig,
    content_words,
    from_config,
    generate,
)

ENT, NEU, CON = 0, 1, 2

#: Several claims about a few subjects, each with its own evidence, as in FEVER/VitaminC.
PAIRS = [
    Pair(
        "The Vltava bridge was opened in 1457 by the city council.",
        "The Vltava bridge opened in 1457.",
        ENT,
        "fever_rte",
    ),
    Pair(
        "The Vltava bridge is 516 metres long and has 16 arches.",
        "The Vltava bridge has 16 arches.",
        ENT,
        "fever_rte",
    ),
    Pair(
        "The Vltava bridge carries tram traffic across the river.",
        "Trams cross the Vltava bridge.",
        ENT,
        "vitaminc_real",
    ),
    Pair(
        "The Vltava bridge was damaged by a flood in 1890.",
        "A flood damaged the Vltava bridge in 1890.",
        ENT,
        "vitaminc_real",
    ),
    Pair(
        "The Vltava bridge was damaged by a flood in 1890 and repaired.",
        "The Vltava bridge was never repaired.",
        CON,
        "vitaminc_real",
    ),
    Pair(
        "Charles Lindqvist was a Swedish architect born in 1801.",
        "Charles Lindqvist was born in 1801.",
        ENT,
        "fever_rte",
    ),
    Pair(
        "Charles Lindqvist designed the Uppsala cathedral tower.",
        "Lindqvist designed a cathedral tower in Uppsala.",
        ENT,
        "vitaminc_synthetic",
    ),
    Pair(
        "Charles Lindqvist died in Uppsala in 1870 after a long illness.",
        "Charles Lindqvist died in 1870.",
        ENT,
        "fever_rte",
    ),
    Pair("A man plays a guitar on a stage.", "A man plays a guitar.", ENT, "snli_dev"),
    Pair("A man plays a guitar in a park.", "Someone is playing music.", ENT, "snli_dev"),
]


def _made(**overrides: float) -> list[Pair]:
    cfg = RelatedWindowConfig(fraction=1.0, min_similarity=0.05, **overrides)  # type: ignore[arg-type]
    return generate(PAIRS, LABELS, cfg)


def test_every_pair_is_a_neutral_related_window_about_a_wikipedia_claim() -> None:
    made = _made()
    assert made, "the fixture's related claims must yield pairs"
    wiki_claims = {p.hypothesis for p in PAIRS if p.source != "snli_dev" and p.label == ENT}
    for pair in made:
        assert pair.label == NEU and pair.source == SOURCE_NAME
        assert pair.hypothesis in wiki_claims
        # Never the claim's own evidence, never a premise holding all its content words.
        own = {p.premise for p in PAIRS if p.hypothesis == pair.hypothesis}
        assert pair.premise not in own
        assert not any(premise in pair.premise for premise in own)


def test_a_premise_holding_all_the_claims_content_words_is_not_used() -> None:
    # "The Vltava bridge opened in 1457." is stated word for word (bar "was") by its own
    # premise only; the flood premise holds "Vltava bridge" but not "opened"/"1457".
    for pair in _made():
        words = content_words(pair.hypothesis, frozenset({"the", "in", "was", "a", "by"}))
        assert not words <= content_words(pair.premise, frozenset())


def test_ordinals_and_plain_numbers_are_one_word() -> None:
    assert content_words("born on January 5th, 1955", frozenset({"on"})) == {
        "born",
        "january",
        "5",
        "1955",
    }


def test_snli_captions_are_not_used_as_claims() -> None:
    assert all(
        p.hypothesis not in {"A man plays a guitar.", "Someone is playing music."} for p in _made()
    )


def test_generation_is_deterministic_for_a_seed() -> None:
    assert _made() == _made()


def test_two_sentence_windows_join_two_related_premises() -> None:
    made = _made(two_sentence_share=1.0)
    pool = {p.premise for p in PAIRS}
    joined = [p for p in made if p.premise not in pool]
    assert joined, "with share 1.0 a claim with two kept candidates gets a joined window"
    for pair in joined:
        assert sum(premise in pair.premise for premise in pool) == 2


def test_config_table_rejects_unknown_keys_and_zero_fraction_means_none() -> None:
    with pytest.raises(ValueError, match="unknown keys"):
        from_config(PAIRS, LABELS, {"fraction": 0.5, "fractoin": 1})
    assert from_config(PAIRS, LABELS, {}) == []
    with pytest.raises(ValueError, match="fraction"):
        RelatedWindowConfig(fraction=1.5)


def test_the_command_line_writes_the_generated_pairs_in_the_training_format(
    tmp_path: Path,
) -> None:
    from provgraph.nli.data import load_pairs
    from provgraph.nli.related_windows import main

    source = tmp_path / "pairs.jsonl"
    source.write_text(
        "".join(
            json.dumps(
                {
                    "premise": p.premise,
                    "hypothesis": p.hypothesis,
                    "label": LABELS[p.label],
                    "source": p.source,
                }
            )
            + "\n"
            for p in PAIRS
        ),
        encoding="utf-8",
    )
    out = tmp_path / "related.jsonl"
    assert main(["--input", str(source), "--out", str(out)]) == 0
    written = load_pairs(out, LABELS)
    assert written and all(p.label == NEU and p.source == SOURCE_NAME for p in written)
