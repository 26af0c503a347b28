"""The engine and its report: verdicts, totals, skipped stages, rewrite properties."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provgraph.citations import parse_citations
from provgraph.verification import (
    MappingSourceResolver,
    VerificationConfig,
    VerificationReport,
    verify_text,
)
from provgraph.verification.report import export_json_schema

LEX = VerificationConfig(embeddings=False, nli=False)
SOURCES = {
    "d_1": "The Leiden trading company was established in 1603 by merchants. It traded spices.",
    "d_2": "Annual report: revenue grew by 12 percent in 2020, driven by exports to Asia.",
    "d_3": "",
}
SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "schema" / "verification-report-v1.json"


def run(text: str, config: VerificationConfig = LEX) -> VerificationReport:
    return verify_text(text, MappingSourceResolver(SOURCES), config)


def test_nothing_to_check_is_not_all_supported() -> None:
    report = run("No citations here at all.")
    assert report.citations_checked == 0 and report.support_rate is None
    assert set(report.totals.values()) == {0}


def test_verdicts_totals_and_rewrite() -> None:
    text = (
        "Revenue grew by 12 percent in 2020, driven by exports to Asia. [REF|d_2] "
        "The Leiden trading company was founded in 1457 by merchants. [REF|d_1] "
        "Penguins live in Antarctica and eat fish daily. [REF|d_2|d_3|d_9]"
    )
    report = run(text)
    verdicts = [(c.key, c.verdict.value) for c in report.checks]
    assert verdicts == [
        ("d_2", "supported"),
        ("d_1", "contradicted"),
        ("d_2", "unsupported"),
        ("d_3", "unverifiable"),
    ]
    assert report.checks[1].scores["consistency"].raw["year_mismatches"] == ["1457"]
    assert report.unresolvable_keys == ["d_9"]
    assert report.totals["supported"] == 1 and report.citations_checked == 3
    assert report.support_rate == pytest.approx(1 / 3)
    assert report.text_with_verified_citations == text.replace(" [REF|d_1]", " ").replace(
        "[REF|d_2|d_3|d_9]", "[REF|d_3]"
    )
    ev = report.checks[0].evidence
    assert ev is not None and SOURCES["d_2"][ev.start : ev.end] == ev.text
    assert report.tags[2].unresolvable_keys == ["d_9"]
    assert report.tags[2].verified_tag == "[REF|d_3]"


def test_missing_embedding_model_is_skipped_not_crashed(tmp_path: Path) -> None:
    config = VerificationConfig(embedding_model=str(tmp_path / "missing"), nli=False)
    report = run("Revenue grew by 12 percent in 2020. [REF|d_2]", config)
    status = report.stage("embeddings")
    assert status is not None and status.status == "skipped"
    assert "does not exist" in (status.reason or "")
    assert report.checks[0].verdict.value == "supported"  # TF-IDF still decided


def test_no_scoring_stage_means_unverifiable_not_supported() -> None:
    config = VerificationConfig(tfidf=False, embeddings=False, nli=False)
    report = run("Revenue grew by 12 percent in 2020. [REF|d_2]", config)
    assert report.checks[0].verdict.value == "unverifiable"
    assert report.citations_checked == 0 and report.support_rate is None


def test_relative_check_flags_a_better_source() -> None:
    report = run("Revenue grew by 12 percent in 2020, driven by exports to Asia. [REF|d_1]")
    rel = report.checks[0].relative
    assert rel is not None and rel.better_source_key == "d_2"


def test_coverage_finds_an_uncited_supported_sentence() -> None:
    text = (
        "Revenue grew by 12 percent in 2020, driven by exports to Asia. "
        "The company traded spices. [REF|d_1]"
    )
    report = run(text)
    assert [f.candidate_source_key for f in report.coverage] == ["d_2"]
    finding = report.coverage[0]
    assert text[finding.start : finding.end] == finding.sentence


def test_config_hash_is_stable_and_sensitive() -> None:
    assert VerificationConfig().config_hash() == VerificationConfig().config_hash()
    assert VerificationConfig().config_hash() != VerificationConfig(nli=False).config_hash()
    assert re.fullmatch(r"[0-9a-f]{64}", VerificationConfig().config_hash())


def test_json_schema_in_docs_is_current(tmp_path: Path) -> None:
    fresh = export_json_schema(tmp_path / "schema.json")
    assert json.loads(SCHEMA.read_text()) == fresh
    report = run("Revenue grew by 12 percent in 2020. [REF|d_2]")
    assert VerificationReport.model_validate_json(report.model_dump_json()) == report


def outside_tags(text: str) -> str:
    return re.sub(r"\[REF\|[A-Za-z_][A-Za-z0-9_]*(?:\|[A-Za-z_][A-Za-z0-9_]*)*\]", "", text)


tag_st = st.lists(st.sampled_from(["d_1", "d_2", "d_3", "a_9"]), min_size=1, max_size=3).map(
    lambda ks: "[REF|" + "|".join(ks) + "]"
)
piece_st = st.one_of(
    st.sampled_from(["Revenue grew 12 percent. ", "Spices 1603. ", "\n\n", " "]),
    st.text(max_size=10),
    tag_st,
)


@settings(max_examples=40, deadline=None)
@given(st.lists(piece_st, max_size=10).map("".join))
def test_rewrite_properties(text: str) -> None:
    config = VerificationConfig(embeddings=False, nli=False, coverage=False, relative=False)
    out = run(text, config).text_with_verified_citations
    assert outside_tags(out) == outside_tags(text)
    written = [set(r.refs) for r in parse_citations(text)]
    kept = [set(r.refs) for r in parse_citations(out)]
    assert all(any(k <= w for w in written) for k in kept)
    assert run(text, config).text_with_verified_citations == out


def test_report_to_stored() -> None:
    pytest.importorskip("provgraph.store.types")
    from provgraph.verification import report_to_stored

    report = run("Revenue grew by 12 percent in 2020. [REF|d_2]")
    stored = report_to_stored(report, "out-1", "s-1")
    assert stored.config_hash == report.config_hash and stored.verdicts == ("supported",)
    assert stored.report["schema_version"] == "1"
