"""Seed API (pydantic_ai_provenance.verification) and its six defects."""

from __future__ import annotations

from provgraph.verification import (
    ClaimSourceSimilarity,
    MappingSourceResolver,
    compare_claim_to_sources_tfidf,
    refine_claim_source_similarities,
    verify_citations,
)

STRONG = "Revenue grew by ten percent in 2020 at the company."


def record(keys: list[str], scores: list[float]) -> ClaimSourceSimilarity:
    return ClaimSourceSimilarity(
        method="tfidf",
        claim_key=keys[0],
        source_keys=keys,
        scores=scores,
        claim_excerpt="c",
        source_excerpts=["s"] * len(keys),
        source_file_paths=[None] * len(keys),
        raw_tag="[REF|" + "|".join(keys) + "]",
        verified_tag="",
        tag_start=0,
        tag_end=5,
    )


def test_refine_worked_cases_and_raw_records_untouched() -> None:
    raw = [record(["d_1", "d_2"], [0.8, 0.1]), record(["d_1", "d_2", "d_3"], [0.9, 0.7, 0.8])]
    refined = refine_claim_source_similarities(raw, min_score_for_shared_source=0.3)
    assert refined[0].source_keys == ["d_1"] and refined[0].verified_tag == "[REF|d_1]"
    assert refined[1].source_keys == ["d_1", "d_3"]
    # defect 4: the raw records keep their scores
    assert raw[0].source_keys == ["d_1", "d_2"] and raw[0].scores == [0.8, 0.1]
    assert raw[1].scores == [0.9, 0.7, 0.8]


async def test_defect_1_multi_key_tag_keeps_text_and_top_keys() -> None:
    sources = {"d_1": STRONG, "d_2": STRONG + " Yes.", "d_3": STRONG + " Indeed it did."}
    text = "Intro. " + STRONG + " [REF|d_1|d_2|d_3] Next sentence stays. [REF|zz] End."
    report = await verify_citations(text, sources, max_keys_per_tag=2)
    out = report.text_with_verified_citations
    assert out == "Intro. " + STRONG + " [REF|d_1|d_2] Next sentence stays.  End."
    report3 = await verify_citations(text, sources, max_keys_per_tag=3)
    assert "[REF|d_1|d_2|d_3]" in report3.text_with_verified_citations


async def test_defect_2_agent_key_is_never_widened() -> None:
    sources = {"a_4": "Agent says: " + STRONG + " [REF|d_1]", "d_1": STRONG}
    text = STRONG + " [REF|a_4]"
    outs = {(await verify_citations(text, sources)).text_with_verified_citations for _ in range(3)}
    assert outs == {STRONG + " [REF|a_4]"}


async def test_defect_3_adjacent_tags_are_both_scored_and_kept() -> None:
    sources = {"d_1": STRONG, "d_2": STRONG}
    text = STRONG + " [REF|d_1][REF|d_2]"
    report = await verify_citations(text, sources)
    assert report.text_with_verified_citations == text
    assert [r.claim_excerpt for r in report.claim_source_similarities] == [STRONG, STRONG]
    assert all(r.scores[0] > 0.9 for r in report.claim_source_similarities)


async def test_defect_4_raw_and_refined_kept_apart() -> None:
    sources = {"d_1": STRONG, "d_2": "Completely unrelated words about cats."}
    report = await verify_citations(STRONG + " [REF|d_1|d_2]", sources)
    raw_keys = [r.claim_key for r in report.claim_source_similarities]
    assert raw_keys == ["d_1", "d_2"]
    assert report.claim_source_similarities[1].scores[0] < 0.3
    assert report.refined_claim_source_similarities[1].source_keys == []
    assert report.text_with_verified_citations == STRONG + " [REF|d_1]"
    assert report.report is not None and report.report.checks[1].scores["tfidf"].score is not None


def test_compare_claim_to_sources_tfidf_records() -> None:
    resolver = MappingSourceResolver({"d_1": STRONG})
    (rec,) = compare_claim_to_sources_tfidf("Claim about revenue. [REF|d_1|nope]", resolver)
    assert rec.method == "tfidf" and rec.claim_key == "d_1" and rec.source_keys == ["d_1"]
    assert rec.raw_tag == "[REF|d_1|nope]" and rec.tag_start == 21
    assert 0.0 < rec.scores[0] < 1.0
