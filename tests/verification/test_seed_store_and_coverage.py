"""Seed worked cases through the seed-compatible ProvenanceStore, and coverage cost bounds."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from provgraph.citations import (
    citation_tag_spans,
    parse_citations,
    strip_inline_citation_tags,
    strip_inline_citation_tags_preserve_leading_ref_header,
)
from provgraph.verification import (
    MappingSourceResolver,
    StageModels,
    VerificationConfig,
    strip_unresolvable_citation_keys,
    verify_citations,
    verify_text,
)


def test_citation_grammar_worked_cases() -> None:
    (ref,) = parse_citations("Claim. [REF|d_1|a_2]")
    assert ref.keys == ["d_1", "a_2"]
    for bad in ("[ref|d_1]", "[REF d_1]", "[REF|]", "[REF|1x]", "[REF|d-1]"):
        assert parse_citations(bad) == []
    assert [(s, e) for s, e, _ in citation_tag_spans("[REF|d_1|a_2]")] == [(0, 13)]
    assert strip_inline_citation_tags("Claim. [REF|d_1] Another claim. [REF|a_2|d_3]") == (
        "Claim.  Another claim. "
    )
    header = "[REF|d_1]\nBody text [REF|d_2] with inline tag."
    assert strip_inline_citation_tags_preserve_leading_ref_header(header) == (
        "[REF|d_1]\nBody text  with inline tag."
    )


async def test_provenance_store_as_seed_store() -> None:
    pytest.importorskip("provgraph.provenance_store")
    from provgraph.graph import NodeType, ProvenanceNode
    from provgraph.store import ProvenanceStore

    store = ProvenanceStore()
    keys = []
    for text in ("Revenue grew by 12 percent in 2020.", "Cats sleep sixteen hours a day."):
        node = ProvenanceNode.create(NodeType.DATA_READ, "read", "agent", "run", result=text)
        store.add_node(node)
        keys.append(store.register_data_source(node.id))
    assert keys == ["d_1", "d_2"]
    text, records = strip_unresolvable_citation_keys(
        "Claim. [REF|d_1|fake] More [REF|bad]. End [REF|d_2]", store
    )
    assert text == "Claim. [REF|d_1] More . End [REF|d_2]" and len(records) == 2
    report = await verify_citations("Revenue grew by 12 percent in 2020. [REF|d_1|d_2]", store)
    assert report.text_with_verified_citations == "Revenue grew by 12 percent in 2020. [REF|d_1]"


class _WsTokenizer:
    """Whitespace tokenizer with offsets (enough for the NLI windowing)."""

    def __call__(self, text: str, **_: Any) -> dict[str, Any]:
        import re

        spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
        return {"input_ids": list(range(len(spans))), "offset_mapping": spans}


class _CountingNli:
    labels = ("entailment", "neutral", "contradiction")
    tokenizer = _WsTokenizer()
    max_len = 512

    def __init__(self) -> None:
        self.pairs: list[tuple[str, str]] = []

    def predict(self, pairs: list[tuple[str, str]], batch_size: int = 32) -> np.ndarray:
        self.pairs.extend(pairs)
        return np.tile([0.8, 0.15, 0.05], (len(pairs), 1))


def test_coverage_sends_only_top_k_pairs_to_nli() -> None:
    sources = {
        f"d_{i}": f"Source {i} talks about topic {i} and item {i} in detail." for i in range(8)
    }
    sources["d_1"] = "Revenue grew by 12 percent in 2020, driven by exports."
    uncited = " ".join(f"Sentence number {i} is about topic {i} and item {i}." for i in range(6))
    text = uncited + " Revenue grew by 12 percent in 2020. [REF|d_1]"
    nli = _CountingNli()
    config = VerificationConfig(embeddings=False, coverage_top_k=2, relative=False)
    report = verify_text(
        text, MappingSourceResolver(sources), config, models=StageModels(nli_model=nli)
    )
    assert report.stage("nli").status == "ran"  # type: ignore[union-attr]
    hypotheses = [h for _p, h in nli.pairs if h.startswith("Sentence")]
    assert len(hypotheses) <= 6 * 2  # top-k sources per sentence, never 6 x 8
    assert report.coverage and all(f.stage == "nli" for f in report.coverage)
