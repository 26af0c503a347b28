"""Every GraphQL query on the multi-agent session, through HTTP."""

from __future__ import annotations

from typing import Any

from provgraph.store.types import JobState
from tests.api.conftest import FINAL_ID, SESSION_ID, Env, sample_report

SESSION_QUERY = """
query($id: ID!) {
  session(id: $id) {
    id nodeCount runCount agentNames firstEventAt lastEventAt
    finalOutputs { id type label }
    runs { id agentName nodeCount startedAt nodes { id type } }
    agents { name runIds nodeCount delegatedBy }
    nodes(type: DATA_READ) { id citationKey content data }
    edges { sourceId targetId label }
  }
}
"""


def _data(body: dict[str, Any]) -> dict[str, Any]:
    assert "errors" not in body, body
    data: dict[str, Any] = body["data"]
    return data


async def test_session_runs_agents_nodes(seeded: Env) -> None:
    session = _data(await seeded.gql(SESSION_QUERY, {"id": SESSION_ID}))["session"]
    assert session["id"] == SESSION_ID and session["runCount"] == 3
    assert session["agentNames"] == ["germany_analyst", "research_coordinator", "spain_analyst"]
    assert [n["id"] for n in session["finalOutputs"]] == [FINAL_ID]
    assert {r["agentName"] for r in session["runs"]} == set(session["agentNames"])
    assert sum(r["nodeCount"] for r in session["runs"]) == session["nodeCount"]
    agents = {a["name"]: a for a in session["agents"]}
    assert agents["germany_analyst"]["delegatedBy"] == ["research_coordinator"]
    assert agents["research_coordinator"]["delegatedBy"] == []
    assert sorted(n["citationKey"] for n in session["nodes"]) == ["d_1", "d_2", "d_3", "d_4"]
    edge = {"sourceId": "de.call.read1", "targetId": "de.data1", "label": "calls"}
    assert edge in session["edges"]
    missing = _data(await seeded.gql(SESSION_QUERY, {"id": "no-such-session"}))
    assert missing["session"] is None


async def test_sessions_connection_paginates(seeded: Env) -> None:
    events = [
        {
            "id": f"x-{i}",
            "type": "input",
            "timestamp": f"2026-02-0{i + 1}T00:00:00Z",
            "session_id": f"extra-{i}",
            "node_id": f"extra-{i}.input",
            "agent_name": "solo",
        }
        for i in range(4)
    ]
    assert (await seeded.post_events(events)).json()["accepted"] == 4
    query = """query($first: Int, $after: String, $filter: SessionFilter) {
      sessions(first: $first, after: $after, filter: $filter) {
        edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }"""
    seen: list[str] = []
    after = None
    while True:
        page = _data(await seeded.gql(query, {"first": 2, "after": after}))["sessions"]
        seen += [e["node"]["id"] for e in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert seen == [SESSION_ID, "extra-3", "extra-2", "extra-1", "extra-0"]
    # resuming from a middle edge's cursor continues right after it
    first_page = _data(await seeded.gql(query, {"first": 3}))["sessions"]["edges"]
    resumed = _data(await seeded.gql(query, {"first": 2, "after": first_page[0]["cursor"]}))
    assert [e["node"]["id"] for e in resumed["sessions"]["edges"]] == seen[1:3]
    only_solo = _data(await seeded.gql(query, {"first": 10, "filter": {"agentName": "solo"}}))
    assert len(only_solo["sessions"]["edges"]) == 4


async def test_node_with_parents_and_children(seeded: Env) -> None:
    query = """query($id: ID!) { node(id: $id) {
      id type label agentName runId sessionId citationKey isPlaceholder
      parents { id type } children { id type } } }"""
    node = _data(await seeded.gql(query, {"id": "de.data1"}))["node"]
    assert node["type"] == "DATA_READ" and node["citationKey"] == "d_1"
    assert [p["id"] for p in node["parents"]] == ["de.call.read1"]
    children = {c["id"] for c in node["children"]}
    assert {"de.result1", "de.resp2", "coord.resp2", FINAL_ID} <= children
    assert _data(await seeded.gql(query, {"id": "nope"}))["node"] is None


async def test_attribution_sources_and_truncation(seeded: Env) -> None:
    query = """query($id: ID!, $depth: Int!, $paths: Int!) {
      attribution(outputId: $id, maxDepth: $depth, maxPaths: $paths) {
        output { id } sources { id type } truncated
        paths { nodeIds hopCount source { id } nodes { id } } } }"""
    full = _data(await seeded.gql(query, {"id": FINAL_ID, "depth": 32, "paths": 1000}))
    attribution = full["attribution"]
    assert attribution["output"]["id"] == FINAL_ID and not attribution["truncated"]
    assert {"de.data1", "de.data2", "es.data1", "es.data2", "coord.input"} <= {
        s["id"] for s in attribution["sources"]
    }
    for path in attribution["paths"]:
        assert path["nodeIds"][-1] == FINAL_ID and path["source"]["id"] == path["nodeIds"][0]
        assert path["hopCount"] == len(path["nodeIds"]) - 1
    cut = _data(await seeded.gql(query, {"id": FINAL_ID, "depth": 2, "paths": 1000}))
    assert cut["attribution"]["truncated"]
    few = _data(await seeded.gql(query, {"id": FINAL_ID, "depth": 32, "paths": 2}))
    assert few["attribution"]["truncated"] and len(few["attribution"]["paths"]) == 2
    missing = await seeded.gql(query, {"id": "nope", "depth": 3, "paths": 3})
    assert "nope" in missing["errors"][0]["message"]
    too_deep = await seeded.gql(query, {"id": FINAL_ID, "depth": 65, "paths": 3})
    assert "maxDepth" in too_deep["errors"][0]["message"]


async def test_lineage_up_and_down(seeded: Env) -> None:
    query = """query($id: ID!, $dir: LineageDirection!, $depth: Int!) {
      lineage(nodeId: $id, direction: $dir, depth: $depth) {
        root { id } direction truncated nodes { distance node { id } } edges { sourceId } } }"""
    down = _data(await seeded.gql(query, {"id": "es.data1", "dir": "DOWN", "depth": 10}))["lineage"]
    reached = {n["node"]["id"]: n["distance"] for n in down["nodes"]}
    assert reached[FINAL_ID] >= 1 and "de.data1" not in reached
    up = _data(await seeded.gql(query, {"id": "de.resp2", "dir": "UP", "depth": 1}))["lineage"]
    assert {n["node"]["id"] for n in up["nodes"]} >= {"de.req2"}
    assert all(n["distance"] <= 1 for n in up["nodes"])


async def test_citation_summary_with_latest_verdicts(seeded: Env) -> None:
    query = """query($id: ID!) { citationSummary(sessionId: $id) {
      key node { id type } citedInIds citedIn { id }
      latestVerdicts { outputId reportVersion verdict confidence claim } } }"""
    entries = _data(await seeded.gql(query, {"id": SESSION_ID}))["citationSummary"]
    by_key = {e["key"]: e for e in entries}
    assert set(by_key) == {"a_1", "a_2", "d_1", "d_2", "d_3", "d_4"}
    assert by_key["a_1"]["node"]["id"] == "de.resp2"
    assert FINAL_ID in by_key["d_1"]["citedInIds"]
    assert {c["id"] for c in by_key["d_1"]["citedIn"]} == set(by_key["d_1"]["citedInIds"])
    verdicts = by_key["d_1"]["latestVerdicts"]
    assert {v["verdict"] for v in verdicts} == {"supported", "weak"}
    assert all(v["outputId"] == FINAL_ID and v["reportVersion"] == 1 for v in verdicts)
    assert by_key["d_4"]["latestVerdicts"] == []


REPORT_FIELDS = """id outputId sessionId version configHash createdAt schemaVersion engineVersion
  citationsChecked supportRate verdicts verdictCounts { verdict count } unresolvableKeys
  stages { name status reason seconds usage { maxCalls calls failedCalls cappedPairs requests
    inputTokens outputTokens estimatedCost } }
  models { stage name version sha256 }
  citations { tagIndex keys claim verdict confidence supportScore sourceNodeId keptInText
    evidence { sourceKey start end text } scores }
  document output { id }"""


async def test_verification_report_and_versions(seeded: Env) -> None:
    await seeded.store.save_report(seeded.project("acme"), sample_report(config_hash="cfg-b"))
    query = f"""query($id: ID!, $v: Int) {{ verificationReport(outputId: $id, version: $v) {{
      {REPORT_FIELDS} }} }}"""
    latest = _data(await seeded.gql(query, {"id": FINAL_ID}))["verificationReport"]
    assert latest["version"] == 2 and latest["configHash"] == "cfg-b"
    first = _data(await seeded.gql(query, {"id": FINAL_ID, "v": 1}))["verificationReport"]
    assert first["version"] == 1 and first["citationsChecked"] == 3
    assert first["verdictCounts"] == [
        {"verdict": "supported", "count": 2},
        {"verdict": "weak", "count": 1},
    ]
    assert abs(first["supportRate"] - 2 / 3) < 1e-9 and first["schemaVersion"] == "1"
    check = first["citations"][0]
    assert check["keys"] == ["a_1"] and check["sourceNodeId"] == "de.resp2"
    assert check["evidence"][0]["start"] == 0 and check["evidence"][0]["text"].startswith("Renew")
    assert first["document"]["checks"][0]["key"] == "a_1"
    assert first["output"]["id"] == FINAL_ID and first["stages"][0]["name"] == "tfidf"
    assert first["stages"][0]["usage"] is None and first["stages"][0]["seconds"] == 0.01
    assert first["stages"][1]["usage"] == {
        "maxCalls": 8,
        "calls": 3,
        "failedCalls": 0,
        "cappedPairs": 0,
        "requests": 4,
        "inputTokens": 360,
        "outputTokens": 45,
        "estimatedCost": 0.00135,
    }
    assert [(m["stage"], m["sha256"]) for m in first["models"]] == [
        ("nli", "ab" * 32),
        ("fusion", "cd" * 32),
    ]
    assert _data(await seeded.gql(query, {"id": FINAL_ID, "v": 9}))["verificationReport"] is None


async def test_verification_reports_filtered(seeded: Env) -> None:
    await seeded.store.save_report(seeded.project("acme"), sample_report("coord.resp2", "cfg-c"))
    query = """query($filter: ReportFilter, $first: Int) {
      verificationReports(filter: $filter, first: $first) {
        edges { cursor node { outputId version verdicts } } pageInfo { hasNextPage } } }"""
    everything = _data(await seeded.gql(query, {"first": 10}))["verificationReports"]
    assert {e["node"]["outputId"] for e in everything["edges"]} == {FINAL_ID, "coord.resp2"}
    weak = _data(await seeded.gql(query, {"filter": {"verdict": "WEAK", "sessionId": SESSION_ID}}))
    assert len(weak["verificationReports"]["edges"]) == 2
    none = _data(await seeded.gql(query, {"filter": {"verdict": "CONTRADICTED"}}))
    assert none["verificationReports"]["edges"] == []
    later = _data(await seeded.gql(query, {"filter": {"since": "2100-01-01T00:00:00Z"}}))
    assert later["verificationReports"]["edges"] == []
    one = _data(await seeded.gql(query, {"first": 1}))["verificationReports"]
    assert len(one["edges"]) == 1 and one["pageInfo"]["hasNextPage"]


async def test_request_verification_and_job_status(seeded: Env) -> None:
    mutation = """mutation($id: ID!) { requestVerification(outputId: $id) {
      id outputId state attempts report { version } } }"""
    job = _data(await seeded.gql(mutation, {"id": FINAL_ID}, role="admin"))["requestVerification"]
    assert job["state"] == "QUEUED" and job["outputId"] == FINAL_ID and job["report"] is None
    assert seeded.verifier.calls == [(seeded.project("acme"), FINAL_ID)]
    query = "query($id: ID!) { job(id: $id) { id state reportVersion report { version } } }"
    assert _data(await seeded.gql(query, {"id": job["id"]}))["job"]["state"] == "QUEUED"
    stored = await seeded.store.get_job(seeded.project("acme"), job["id"])
    assert stored is not None
    from dataclasses import replace

    await seeded.store.save_job(
        seeded.project("acme"), replace(stored, state=JobState.DONE, report_version=1)
    )
    done = _data(await seeded.gql(query, {"id": job["id"]}))["job"]
    assert done["state"] == "DONE" and done["report"]["version"] == 1
    missing = await seeded.gql(mutation, {"id": "nope"}, role="admin")
    assert "nope" in missing["errors"][0]["message"]
    assert _data(await seeded.gql(query, {"id": "no-job"}))["job"] is None
