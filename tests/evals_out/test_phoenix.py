"""A session's spans and verdicts pushed into a real Phoenix, read back from its REST API."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from provgraph.errors import ProvgraphError
from provgraph.evals_out.phoenix import CITATION_ANNOTATION, REPORT_ANNOTATION, push_to_phoenix
from tests.lineage_out.conftest import VerifiedSession


def _annotations(url: str, phoenix_project: str, span_ids: list[str]) -> list[dict[str, Any]]:
    response = httpx.get(
        f"{url}/v1/projects/{phoenix_project}/span_annotations",
        params={"span_ids": span_ids, "limit": 1000},
        timeout=10,
    )
    response.raise_for_status()
    data: list[dict[str, Any]] = response.json()["data"]
    return data


def _spans(url: str, phoenix_project: str) -> list[dict[str, Any]]:
    response = httpx.get(
        f"{url}/v1/projects/{phoenix_project}/spans", params={"limit": 1000}, timeout=10
    )
    response.raise_for_status()
    data: list[dict[str, Any]] = response.json()["data"]
    return data


def test_verdicts_land_as_span_annotations(
    phoenix_url: str, verified_session: VerifiedSession
) -> None:
    s = verified_session
    target = f"pg-{s.project}"
    pushed = push_to_phoenix(s.store, s.project, s.session_id, phoenix_url, phoenix_project=target)
    stored = s.store.get_report(s.project, s.output_id)
    assert stored is not None
    checks = stored.report["checks"]
    assert pushed.annotations == len(checks) + 1
    output_span = pushed.output_spans[s.output_id]
    got = _annotations(phoenix_url, target, [output_span])
    assert {a["span_id"] for a in got} == {output_span}
    per_citation = {a["identifier"]: a for a in got if a["name"] == CITATION_ANNOTATION}
    assert set(per_citation) == {f"{c['tag_index']}:{c['key']}" for c in checks}
    for check in checks:
        annotation = per_citation[f"{check['tag_index']}:{check['key']}"]
        assert annotation["annotator_kind"] == "CODE"  # lexical stages, no LLM judge
        assert annotation["result"]["label"] == check["verdict"]
        assert annotation["result"]["score"] == pytest.approx(check["support_score"] or 0.0)
        assert check["claim"]["text"][:50] in annotation["result"]["explanation"]
        assert annotation["metadata"]["key"] == check["key"]
        assert annotation["metadata"]["report_version"] == stored.version
    (overall,) = [a for a in got if a["name"] == REPORT_ANNOTATION]
    assert overall["result"]["score"] == pytest.approx(stored.report["support_rate"])
    assert {a["result"]["label"] for a in per_citation.values()} >= {"supported", "contradicted"}
    # the other outputs were never verified: no annotations on their spans
    others = [v for k, v in pushed.output_spans.items() if k != s.output_id]
    assert _annotations(phoenix_url, target, others) == []


def test_spans_keep_the_multi_agent_structure(
    phoenix_url: str, verified_session: VerifiedSession
) -> None:
    s = verified_session
    target = f"pg-{s.project}-spans"
    pushed = push_to_phoenix(s.store, s.project, s.session_id, phoenix_url, phoenix_project=target)
    spans = _spans(phoenix_url, target)
    assert len(spans) == pushed.spans
    by_name = {span["name"]: span for span in spans}
    researcher = by_name["invoke_agent web_researcher"]
    assert researcher["parent_id"] == by_name["execute_tool ask_researcher"]["context"]["span_id"]
    coordinator = by_name["invoke_agent research_coordinator"]
    assert coordinator["parent_id"] is None
    assert len({span["context"]["trace_id"] for span in spans}) == 1
    failed = by_name["invoke_agent fact_checker"]
    assert failed["status_code"] == "ERROR"
    assert "retries exhausted" in failed["status_message"]
    read = by_name["read reports/annual_report_2025.txt"]
    assert read["span_kind"] == "RETRIEVER"
    assert read["attributes"]["retrieval.documents.0.document.id"] == "d_1"
    assert read["parent_id"] == researcher["context"]["span_id"]
    output = by_name["final_output research_coordinator"]
    assert output["context"]["span_id"] == pushed.output_spans[s.output_id]


def test_pushing_again_updates_rather_than_duplicates(
    phoenix_url: str, verified_session: VerifiedSession
) -> None:
    s = verified_session
    target = f"pg-{s.project}-again"
    first = push_to_phoenix(s.store, s.project, s.session_id, phoenix_url, phoenix_project=target)
    push_to_phoenix(s.store, s.project, s.session_id, phoenix_url, phoenix_project=target)
    got = _annotations(phoenix_url, target, [first.output_spans[s.output_id]])
    assert len(got) == first.annotations


def test_an_unreachable_phoenix_is_a_clear_error(verified_session: VerifiedSession) -> None:
    s = verified_session
    with pytest.raises(ProvgraphError, match=r"refused|did not store"):
        push_to_phoenix(
            s.store, s.project, s.session_id, "http://127.0.0.1:9", timeout=2, wait_seconds=2
        )


def test_cli_push_phoenix(phoenix_url: str, cli: CliRunner) -> None:
    from provgraph.cli.main import app

    runner = cli
    assert runner.invoke(app, ["verify", "coord-output", "--fast"]).exit_code == 0
    pushed = runner.invoke(
        app,
        [
            "evals",
            "push-phoenix",
            "demo-session-1",
            "--endpoint",
            phoenix_url,
            "--phoenix-project",
            "pg-cli",
        ],
    )
    assert pushed.exit_code == 0, pushed.output
    assert "annotations to Phoenix project 'pg-cli'" in pushed.stdout
    spans = _spans(phoenix_url, "pg-cli")
    output_span = next(x for x in spans if x["name"] == "final_output research_coordinator")
    got = _annotations(phoenix_url, "pg-cli", [output_span["context"]["span_id"]])
    assert len([a for a in got if a["name"] == CITATION_ANNOTATION]) > 0
    missing = runner.invoke(app, ["evals", "push-phoenix", "nope", "--endpoint", phoenix_url])
    assert missing.exit_code == 2 and "no nodes" in missing.output
