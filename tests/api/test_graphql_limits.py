"""GraphQL guards: depth and alias bombs, page-size cap, bad cursors, masked errors."""

from __future__ import annotations

from typing import Any

import httpx

from provgraph.config import Settings
from provgraph.store.async_memory import AsyncMemoryGraphStore
from services.api.app import create_app
from tests.api.conftest import FINAL_ID, Env


async def test_depth_bomb_rejected_before_any_store_call(seeded: Env) -> None:
    nested = "id"
    for _ in range(30):
        nested = f"children {{ {nested} }}"
    body = await seeded.gql(f'{{ node(id: "{FINAL_ID}") {{ {nested} }} }}')
    assert body.get("data") is None
    assert "exceeds maximum operation depth" in body["errors"][0]["message"]


async def test_alias_bomb_rejected(seeded: Env) -> None:
    aliases = " ".join(f'a{i}: node(id: "{FINAL_ID}") {{ id }}' for i in range(200))
    body = await seeded.gql(f"{{ {aliases} }}")
    assert body.get("data") is None
    assert "aliases" in body["errors"][0]["message"].lower()


async def test_fragment_cycle_and_depth_via_fragments_rejected(seeded: Env) -> None:
    query = """query { node(id: "x") { ...A } }
      fragment A on Node { children { ...B } } fragment B on Node { children { ...A } }"""
    body = await seeded.gql(query)
    assert body.get("data") is None and body["errors"]


async def test_page_size_cap_and_bad_cursor(seeded: Env) -> None:
    too_big = await seeded.gql("{ sessions(first: 101) { edges { cursor } } }")
    assert "first" in too_big["errors"][0]["message"] and "100" in too_big["errors"][0]["message"]
    zero = await seeded.gql("{ sessions(first: 0) { edges { cursor } } }")
    assert "first" in zero["errors"][0]["message"]
    bad = await seeded.gql('{ sessions(after: "garbage!!") { edges { cursor } } }')
    assert "after" in bad["errors"][0]["message"] and "cursor" in bad["errors"][0]["message"]
    lineage = await seeded.gql(
        f'{{ lineage(nodeId: "{FINAL_ID}", direction: UP, depth: 9999) {{ truncated }} }}'
    )
    assert "depth" in lineage["errors"][0]["message"]


async def test_syntax_errors_are_reported_plainly(seeded: Env) -> None:
    body = await seeded.gql("{ node(id: ) }")
    assert "Syntax Error" in body["errors"][0]["message"]
    unknown = await seeded.gql("{ nodez { id } }")
    assert "nodez" in unknown["errors"][0]["message"]


class _BrokenStore(AsyncMemoryGraphStore):
    async def get_nodes(self, project: str, node_ids: Any) -> Any:
        raise RuntimeError("bolt://10.0.0.7:7687 password=hunter2 connection reset")


async def test_unexpected_errors_are_masked(settings: Settings) -> None:
    app = create_app(settings, store=_BrokenStore(None))
    _, token = app.state.provgraph.keys().create("acme", "read")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        r = await c.post(
            "/graphql",
            json={"query": '{ node(id: "x") { id } }'},
            headers={"Authorization": f"Bearer {token}", "X-Request-ID": "req-42"},
        )
    assert r.status_code == 200
    message = r.json()["errors"][0]["message"]
    assert message == "internal error (request id req-42)"
    assert "hunter2" not in r.text and "bolt" not in r.text
    assert r.headers["X-Request-ID"] == "req-42"


async def test_oversized_graphql_body_is_413(seeded: Env) -> None:
    padding = " " * (300 * 1024)
    headers = seeded.headers("acme", "read")
    r = await seeded.client.post(
        "/graphql", json={"query": "{ __typename }" + padding}, headers=headers
    )
    assert r.status_code == 413

    async def chunks():  # type: ignore[no-untyped-def]
        for _ in range(300):
            yield b" " * 1024

    chunked = await seeded.client.post(
        "/graphql", content=chunks(), headers={**headers, "Content-Type": "application/json"}
    )
    assert chunked.status_code == 413 and "Traceback" not in chunked.text
