"""Consistency check (numbers, years, negation) and the shipped demo session end to end."""

from __future__ import annotations

from pathlib import Path

import pytest

from provgraph.verification import VerificationConfig, report_to_stored, verify_output
from provgraph.verification.consistency import check_consistency

DEMO = Path(__file__).resolve().parents[2] / "provgraph" / "examples" / "demo_session.jsonl"


def test_year_mismatch_with_synonym_anchor() -> None:
    window = "The firm was established in 1603 by merchants."
    result = check_consistency("The firm was founded in 1457.", window, window)
    assert result.year_mismatches == ("1457",) and result.anchored_mismatches == ("1457",)
    assert result.penalty == pytest.approx(0.8)


def test_numbers_present_anywhere_are_not_mismatches() -> None:
    source = "Revenue grew 15% in 2020, while staff grew 12%."
    result = check_consistency("Revenue grew 12% in 2020.", source, source)
    assert result.number_mismatches == () and result.penalty == 0.0


def test_decimals_and_thousands_normalised() -> None:
    source = "It sold 1,200 units at 3.50 euros."
    assert check_consistency("It sold 1200 units at 3.5 euros.", source, source).penalty == 0.0


def test_negation_mismatch() -> None:
    window = "The drug did not reduce mortality in the trial."
    result = check_consistency("The drug did reduce mortality in the trial.", window, window)
    assert result.negation_mismatch and result.penalty == pytest.approx(0.3)


def test_demo_session_full_report() -> None:
    pytest.importorskip("provgraph.store.memory")
    from provgraph.events import Event
    from provgraph.store.memory import MemoryGraphStore

    store = MemoryGraphStore()
    events = [Event.model_validate_json(line) for line in DEMO.read_text().splitlines() if line]
    store.ingest("demo", events)
    config = VerificationConfig(embeddings=False, nli=False)
    report = verify_output(store, "demo", "coord-output", config)
    verdicts = {(c.tag_index, c.key): c.verdict.value for c in report.checks}
    assert verdicts[(0, "d_1")] == "supported"
    assert verdicts[(4, "d_4")] == "contradicted"  # founded 1995 vs founded 1987
    assert "d_9" in report.unresolvable_keys
    assert report.citations_checked == len(report.checks) > 0
    nli = report.stage("nli")
    assert nli is not None and nli.status == "disabled"
    stored = store.save_report("demo", report_to_stored(report, "coord-output", "demo-session-1"))
    assert stored.report["config_hash"] == config.config_hash()
