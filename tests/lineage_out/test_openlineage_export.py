"""A stored session as OpenLineage run events: spec-valid, with delegations, datasets, verdicts."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest

from provgraph.lineage_out.openlineage import events_to_json_lines
from provgraph.lineage_out.push import stored_session_events
from provgraph.lineage_out.runs import RUN_ID_NAMESPACE
from tests.lineage_out.conftest import VerifiedSession
from tests.lineage_out.spec import (
    PROVGRAPH_FACETS,
    facets_of,
    validate_against,
    validate_event,
)

FACETS_ID = json.loads(PROVGRAPH_FACETS.read_text())["$id"]


def _export(session: VerifiedSession) -> list[dict[str, Any]]:
    events = stored_session_events(session.store, session.project, session.session_id)
    return [json.loads(line) for line in events_to_json_lines(events).splitlines()]


def _by_job(events: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for event in events:
        out.setdefault(event["job"]["name"], {})[event["eventType"]] = event
    return out


def test_every_event_and_facet_validates_against_the_spec(
    verified_session: VerifiedSession,
) -> None:
    events = _export(verified_session)
    assert len(events) == 8  # 4 runs: START + COMPLETE/FAIL each
    for event in events:
        validate_event(event)
    keys = {where.rsplit(".", 1)[1] for event in events for where, _ in facets_of(event)}
    assert {"parent", "errorMessage", "processing_engine", "jobType"} <= keys
    assert {"provgraph_run", "provgraph_node", "provgraph_verification"} <= keys


def test_runs_delegations_and_states(verified_session: VerifiedSession) -> None:
    s = verified_session
    jobs = _by_job(_export(s))
    assert set(jobs) == {"research_coordinator", "web_researcher", "data_analyst", "fact_checker"}
    coordinator = jobs["research_coordinator"]
    assert set(coordinator) == {"START", "COMPLETE"}
    expected_id = str(uuid.uuid5(RUN_ID_NAMESPACE, f"{s.project}\x1f{s.session_id}\x1frun-coord"))
    assert coordinator["START"]["run"]["runId"] == expected_id
    assert "parent" not in coordinator["START"]["run"]["facets"]
    for child in ("web_researcher", "data_analyst", "fact_checker"):
        for event in jobs[child].values():
            parent = event["run"]["facets"]["parent"]
            assert parent["run"]["runId"] == expected_id
            assert (parent["job"]["namespace"], parent["job"]["name"]) == (
                f"provgraph://{s.project}",
                "research_coordinator",
            )
            assert parent["root"]["run"]["runId"] == expected_id
    failed = jobs["fact_checker"]
    assert set(failed) == {"START", "FAIL"}
    assert failed["FAIL"]["run"]["facets"]["errorMessage"]["message"] == (
        "UnexpectedModelBehavior: retries exhausted"
    )


def test_data_reads_and_outputs_are_datasets(verified_session: VerifiedSession) -> None:
    s = verified_session
    jobs = _by_job(_export(s))
    researcher = jobs["web_researcher"]["COMPLETE"]
    sources = {(d["namespace"], d["name"]): d for d in researcher["inputs"]}
    assert set(sources) == {
        (f"provgraph://{s.project}/sources", "reports/annual_report_2025.txt"),
        (f"provgraph://{s.project}/sources", "surveys/buyer_survey_2025.md"),
    }
    node = sources[(f"provgraph://{s.project}/sources", "reports/annual_report_2025.txt")]
    assert node["facets"]["provgraph_node"]["citationKey"] == "d_1"
    assert [o["name"] for o in researcher["outputs"]] == [f"{s.session_id}/a_3"]
    # the sub-agents' answers are inputs of the coordinator's run (lineage across agents)
    coordinator = jobs["research_coordinator"]["COMPLETE"]
    assert {d["name"] for d in coordinator["inputs"]} == {
        f"{s.session_id}/a_3",
        f"{s.session_id}/a_5",
    }
    assert coordinator["outputs"][0]["name"] == f"{s.session_id}/coord-output"
    assert jobs["research_coordinator"]["START"]["outputs"] == []


def test_verification_facet_matches_the_stored_report(verified_session: VerifiedSession) -> None:
    s = verified_session
    stored = s.store.get_report(s.project, s.output_id)
    assert stored is not None
    coordinator = _by_job(_export(s))["research_coordinator"]["COMPLETE"]
    facet = coordinator["outputs"][0]["facets"]["provgraph_verification"]
    assert facet["_schemaURL"] == f"{FACETS_ID}#/$defs/ProvgraphVerificationDatasetFacet"
    assert facet["outputId"] == s.output_id
    assert facet["reportVersion"] == stored.version
    assert facet["citationsChecked"] == stored.report["citations_checked"] > 0
    assert facet["totals"] == {k: v for k, v in stored.report["totals"].items()}
    assert [(c["key"], c["verdict"]) for c in facet["checks"]] == [
        (c["key"], c["verdict"]) for c in stored.report["checks"]
    ]


def test_export_is_deterministic(verified_session: VerifiedSession) -> None:
    first, second = _export(verified_session), _export(verified_session)
    assert first == second


def test_custom_facet_schema_rejects_a_bad_verdict() -> None:
    facet = {
        "_producer": "https://provgraph.dev/provgraph/0.1.0",
        "_schemaURL": f"{FACETS_ID}#/$defs/ProvgraphVerificationDatasetFacet",
        "outputId": "o",
        "reportVersion": 1,
        "configHash": "h",
        "citationsChecked": 1,
        "totals": {"supported": 1},
        "checks": [
            {
                "tagIndex": 0,
                "key": "d_1",
                "verdict": "maybe",
                "supportScore": 0.5,
                "contradictionScore": 0.0,
                "claim": "x",
            }
        ],
    }
    errors = validate_against(facet, f"{FACETS_ID}#/$defs/ProvgraphVerificationDatasetFacet")
    assert any("'maybe' is not one of" in e for e in errors)
    facet["checks"][0]["verdict"] = "supported"
    assert validate_against(facet, f"{FACETS_ID}#/$defs/ProvgraphVerificationDatasetFacet") == []


@pytest.mark.parametrize("missing", ["_producer", "outputId"])
def test_custom_facet_schema_requires_its_fields(missing: str) -> None:
    facet: dict[str, Any] = {
        "_producer": "https://provgraph.dev/provgraph/0.1.0",
        "_schemaURL": f"{FACETS_ID}#/$defs/ProvgraphVerificationDatasetFacet",
        "outputId": "o",
        "reportVersion": 1,
        "configHash": "h",
        "citationsChecked": 0,
        "totals": {},
        "checks": [],
    }
    del facet[missing]
    errors = validate_against(facet, f"{FACETS_ID}#/$defs/ProvgraphVerificationDatasetFacet")
    assert any(repr(missing) in e for e in errors)
