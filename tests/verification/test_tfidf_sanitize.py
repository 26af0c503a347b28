"""TF-IDF (seed-exact, one fit per source) and key sanitising (properties)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provgraph.citations import citation_tag_spans, parse_citations
from provgraph.verification import (
    MappingSourceResolver,
    claim_source_tfidf_cosine,
    strip_unresolvable_citation_keys,
)
from provgraph.verification.tfidf import TfidfSourceIndex
from provgraph.verification.windows import seed_windows


def seed_reference(claim: str, source: str, cc: int = 1200, st_: int = 600, mx: int = 400) -> float:
    """The seed's per-pair fit, re-implemented from its documented behaviour."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.metrics.pairwise import cosine_similarity

    def norm(s: str) -> str:
        return re.sub(r"\s+", " ", s.strip().lower())

    claim, source = norm(claim), norm(source[:96_000])
    if not claim.strip() or not source.strip():
        return 0.0
    if len(source) <= cc:
        chunks = [source]
    else:
        chunks, i = [], 0
        while i <= len(source) - cc and len(chunks) < mx:
            chunks.append(source[i : i + cc])
            i += st_
        if source[-cc:] != chunks[-1] and len(chunks) < mx:
            chunks.append(source[-cc:])
    vec = TfidfVectorizer(lowercase=True, token_pattern=r"(?u)[a-z0-9]+")
    try:
        m = vec.fit_transform([claim, *chunks])
    except ValueError:
        return 0.0
    best = float(cosine_similarity(m[0:1], m[1:]).max())
    return 0.0 if best != best else min(1.0, max(0.0, best))


def test_seed_worked_cases() -> None:
    assert claim_source_tfidf_cosine("Revenue grew in 2020.", "Revenue grew in 2020.") == 1.0
    assert claim_source_tfidf_cosine("", "text") == 0.0
    assert claim_source_tfidf_cosine("text", "") == 0.0
    assert seed_windows(2500, chunk_chars=1200, chunk_stride=600, max_chunks=400) == [
        (0, 1200),
        (600, 1800),
        (1200, 2400),
        (1300, 2500),
    ]
    source = "".join(chr(97 + (i * 7919) % 26) if i % 5 != 3 else " " for i in range(2500))
    assert len(source.strip()) == 2500
    index = TfidfSourceIndex(source)
    assert [s for s, _e in index.windows] == [0, 600, 1200, 1300]


WORDS = ["revenue", "grew", "2020", "the", "of", "bank", "river", "x1", "Über", "data"]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from([*WORDS, "zzz"]), max_size=12),
    st.lists(st.sampled_from(WORDS), max_size=300),
    st.sampled_from([(40, 17, 9), (1200, 600, 400), (100, 100, 3)]),
)
def test_one_fit_per_source_equals_the_seed_per_pair_fit(
    claim: list[str], source: list[str], params: tuple[int, int, int]
) -> None:
    cc, stride, mx = params
    c, s = " ".join(claim), "  ".join(source)
    ours = claim_source_tfidf_cosine(c, s, chunk_chars=cc, chunk_stride=stride, max_chunks=mx)
    assert ours == pytest.approx(seed_reference(c, s, cc, stride, mx), abs=1e-9)


def test_index_scores_many_claims_with_original_offsets() -> None:
    source = "Intro text.\n\n   The Company WAS founded in 1603.\tIt traded spices. " * 3
    index = TfidfSourceIndex(source, chunk_chars=40, chunk_stride=20)
    for claim in ("company founded 1603", "traded spices"):
        match = index.best(claim)
        assert match.score > 0
        assert 0 <= match.start < match.end <= len(source)
        assert match.score == pytest.approx(
            claim_source_tfidf_cosine(claim, source, chunk_chars=40, chunk_stride=20), abs=1e-12
        )


def test_sanitize_worked_case() -> None:
    store = MappingSourceResolver({"d_1": "one", "d_2": "two"})
    text, records = strip_unresolvable_citation_keys(
        "Claim. [REF|d_1|fake] More [REF|bad]. End [REF|d_2]", store
    )
    assert text == "Claim. [REF|d_1] More . End [REF|d_2]"
    assert [(r.raw_tag, r.removed_keys, r.retained_keys) for r in records] == [
        ("[REF|d_1|fake]", ["fake"], ["d_1"]),
        ("[REF|bad]", ["bad"], []),
    ]
    assert records[0].tag_start == 7 and records[0].tag_end == 21


class _ObjWithResolver:
    def source_resolver(self) -> MappingSourceResolver:
        return MappingSourceResolver({"d_1": "x"})


def test_store_with_source_resolver_method() -> None:
    text, records = strip_unresolvable_citation_keys("A [REF|d_1|d_2]", _ObjWithResolver())
    assert text == "A [REF|d_1]" and len(records) == 1


def outside_tags(text: str) -> str:
    return re.sub(r"\[REF\|[A-Za-z_][A-Za-z0-9_]*(?:\|[A-Za-z_][A-Za-z0-9_]*)*\]", "", text)


key_st = st.sampled_from(["d_1", "d_2", "a_3", "bad", "x"])
tag_st = st.lists(key_st, min_size=1, max_size=4).map(lambda ks: "[REF|" + "|".join(ks) + "]")
text_st = st.lists(st.one_of(st.text(max_size=15), tag_st), max_size=12).map("".join)


@settings(max_examples=150, deadline=None)
@given(text_st, st.sets(key_st))
def test_sanitize_properties(text: str, known: set[str]) -> None:
    store = MappingSourceResolver(dict.fromkeys(known, "text"))
    out, _ = strip_unresolvable_citation_keys(text, store)
    assert outside_tags(out) == outside_tags(text)
    written = {k for ref in parse_citations(text) for k in ref.refs}
    assert {k for ref in parse_citations(out) for k in ref.refs} <= written & known
    assert strip_unresolvable_citation_keys(text, store)[0] == out
    assert len(citation_tag_spans(out)) <= len(citation_tag_spans(text))
