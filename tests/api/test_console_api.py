"""What the API adds for the web console: viewer, session filters and verdict counts, /ui/."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import SESSION_ID, Env

SESSIONS = """query S($filter: SessionFilter) { sessions(first: 20, filter: $filter) {
  edges { node { id verdictCounts { verdict count } } } } }"""


def _ids(body: dict[str, Any]) -> list[str]:
    return [e["node"]["id"] for e in body["data"]["sessions"]["edges"]]


async def test_viewer_tells_the_key_role_and_what_it_may_do(env: Env) -> None:
    query = "{ viewer { project role canRequestVerification } }"
    read = (await env.gql(query, role="read"))["data"]["viewer"]
    admin = (await env.gql(query, role="admin"))["data"]["viewer"]
    assert read == {"project": env.project("acme"), "role": "read", "canRequestVerification": False}
    assert admin["role"] == "admin" and admin["canRequestVerification"] is True


async def test_session_filters_by_verdict_text_and_time_range(seeded: Env) -> None:
    env = seeded
    assert _ids(await env.gql(SESSIONS, {"filter": {"verdict": "SUPPORTED"}})) == [SESSION_ID]
    assert _ids(await env.gql(SESSIONS, {"filter": {"verdict": "CONTRADICTED"}})) == []
    assert _ids(await env.gql(SESSIONS, {"filter": {"search": "RENEWABLES"}})) == [SESSION_ID]
    assert _ids(await env.gql(SESSIONS, {"filter": {"search": "no such words here"}})) == []
    inside = {"since": "2026-03-14T10:00:05Z", "until": "2026-03-14T10:00:06Z"}
    assert _ids(await env.gql(SESSIONS, {"filter": inside})) == [SESSION_ID]
    before = {"until": "2026-03-14T09:59:59"}  # no zone: read as UTC
    assert _ids(await env.gql(SESSIONS, {"filter": before})) == []
    body = await env.gql(SESSIONS, {"filter": {"verdict": "SUPPORTED"}})
    counts = body["data"]["sessions"]["edges"][0]["node"]["verdictCounts"]
    assert counts == [{"verdict": "supported", "count": 2}, {"verdict": "weak", "count": 1}]
    # another project sees nothing of it
    other = await env.gql(SESSIONS, {"filter": {"search": "renewables"}}, project="globex")
    assert _ids(other) == []


@pytest.mark.parametrize(
    ("filter_", "path"),
    [
        ({"since": "2026-03-15T00:00:00Z", "until": "2026-03-14T00:00:00Z"}, "filter.since"),
        ({"search": "x" * 201}, "filter.search"),
    ],
)
async def test_bad_session_filters_name_the_field(
    env: Env, filter_: dict[str, Any], path: str
) -> None:
    body = await env.gql(SESSIONS, {"filter": filter_})
    assert body["data"] is None
    assert path in body["errors"][0]["message"]


async def test_console_is_served_at_ui_with_a_strict_policy(env: Env) -> None:
    redirect = await env.client.get("/ui", follow_redirects=False)
    assert redirect.status_code == 308 and redirect.headers["location"] == "/ui/"
    index = await env.client.get("/ui/")
    assert index.status_code == 200 and "app.js" in index.text
    policy = index.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "connect-src 'self' ws://test wss://test" in policy
    forged = await env.client.get("/ui/", headers={"host": "evil.example; script-src *"})
    assert "script-src *" not in forged.headers["content-security-policy"]
    script = await env.client.get("/ui/app.js")
    assert script.status_code == 200 and script.headers["x-content-type-options"] == "nosniff"
    assert (await env.client.get("/ui/nope.js")).status_code == 404


async def test_an_ingest_key_cannot_sign_in_to_the_console(env: Env) -> None:
    response = await env.client.post(
        "/graphql", json={"query": "{ viewer { role } }"}, headers=env.headers("acme", "ingest")
    )
    assert response.status_code == 403
    assert "read or admin key" in response.json()["error"]["message"]
