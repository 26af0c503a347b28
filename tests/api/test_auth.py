"""Auth matrix: role × operation × project; bootstrap key; revocation; auth off."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from provgraph.config import Settings
from provgraph.store.async_memory import AsyncMemoryGraphStore
from services.api.app import create_app
from tests.api.conftest import BOOTSTRAP, FINAL_ID, SESSION_ID, Env, session_events

READ_QUERY = "query($id: ID!) { node(id: $id) { id } }"
MUTATION = "mutation($id: ID!) { requestVerification(outputId: $id) { id } }"

# operation -> roles allowed
MATRIX = {
    "ingest": {"ingest", "admin"},
    "graphql_read": {"read", "admin"},
    "export": {"read", "admin"},
    "request_verification": {"admin"},
}


async def _attempt(env: Env, operation: str, project: str, role: str) -> tuple[int, object]:
    headers = env.headers(project, role)
    if operation == "ingest":
        event = {**session_events()[0], "id": f"auth-{project}-{role}"}
        r = await env.client.post("/v1/events", json=[event], headers=headers)
        return r.status_code, r.json()
    if operation == "export":
        r = await env.client.get(f"/v1/sessions/{SESSION_ID}/export?format=json", headers=headers)
        return r.status_code, r.text
    query = READ_QUERY if operation == "graphql_read" else MUTATION
    r = await env.client.post(
        "/graphql", json={"query": query, "variables": {"id": FINAL_ID}}, headers=headers
    )
    return r.status_code, r.json()


@pytest.mark.parametrize("operation", sorted(MATRIX))
@pytest.mark.parametrize("role", ["ingest", "read", "admin"])
async def test_role_matrix_on_own_project(seeded: Env, operation: str, role: str) -> None:
    status, body = await _attempt(seeded, operation, "acme", role)
    if role not in MATRIX[operation]:
        if operation == "request_verification" and role == "read":
            assert status == 200 and isinstance(body, dict)
            assert "admin" in body["errors"][0]["message"]
        else:
            assert status == 403, body
        return
    assert status in (200, 207), body
    if operation == "graphql_read":
        assert isinstance(body, dict) and body["data"]["node"]["id"] == FINAL_ID
    if operation == "request_verification":
        assert isinstance(body, dict) and "errors" not in body


@pytest.mark.parametrize("operation", ["graphql_read", "export", "request_verification"])
async def test_other_project_sees_nothing(seeded: Env, operation: str) -> None:
    """globex keys (even admin) cannot see acme's session: it does not exist for them."""
    status, body = await _attempt(seeded, operation, "globex", "admin")
    if operation == "graphql_read":
        assert status == 200 and isinstance(body, dict) and body["data"]["node"] is None
    elif operation == "export":
        assert status == 404
    else:
        assert isinstance(body, dict) and "errors" in body
        assert seeded.verifier.calls == []
    query = "query($id: ID!) { session(id: $id) { id } citationSummary(sessionId: $id) { key } }"
    gql = await seeded.gql(query, {"id": SESSION_ID}, project="globex")
    assert gql["data"] == {"session": None, "citationSummary": []}
    reports = await seeded.gql(
        "{ verificationReports { edges { node { id } } } }", project="globex"
    )
    assert reports["data"]["verificationReports"]["edges"] == []


async def test_ingest_goes_to_the_keys_project(env: Env) -> None:
    await env.post_events(session_events()[:3], project="globex")
    assert await env.store.get_node(env.project("globex"), "coord.run") is not None
    assert await env.store.get_node(env.project("acme"), "coord.run") is None


async def test_unauthenticated_and_revoked(env: Env) -> None:
    assert (await env.client.post("/graphql", json={"query": "{ __typename }"})).status_code == 401
    r = await env.client.post(
        "/graphql", json={"query": "{ __typename }"}, headers={"X-API-Key": "wrong"}
    )
    assert r.status_code == 401 and "Traceback" not in r.text
    keys = env.app.state.provgraph.keys()
    key, token = keys.create(env.project("acme"), "read")
    ok = await env.client.post(
        "/graphql", json={"query": "{ __typename }"}, headers={"X-API-Key": token}
    )
    assert ok.status_code == 200
    keys.revoke(key.id)
    gone = await env.client.post(
        "/graphql", json={"query": "{ __typename }"}, headers={"Authorization": f"Bearer {token}"}
    )
    assert gone.status_code == 401


async def test_bootstrap_admin_key_is_scoped_to_the_configured_project(env: Env) -> None:
    headers = {"Authorization": f"Bearer {BOOTSTRAP}"}
    r = await env.client.post("/v1/events", json=session_events()[:2], headers=headers)
    assert r.status_code == 207 and r.json()["accepted"] == 2
    assert await env.store.get_node(env.project("acme"), "coord.run") is not None
    r = await env.client.post(
        "/graphql", json={"query": '{ node(id: "coord.run") { id } }'}, headers=headers
    )
    assert r.json()["data"]["node"]["id"] == "coord.run"


async def test_auth_off_maps_everything_to_default(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = AsyncMemoryGraphStore(None)
    settings = Settings(home=tmp_path, auth=False, keys_db=tmp_path / "k.sqlite3")
    app = create_app(settings, store=store)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        r = await c.post("/v1/events", json=session_events()[:2])
        assert r.status_code == 207
    assert await store.get_node("default", "coord.run") is not None
