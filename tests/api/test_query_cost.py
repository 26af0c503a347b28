"""Query cost budget: estimated before execution, refused with the cost and the budget."""

from __future__ import annotations

import httpx
import pytest
from graphql import parse

from provgraph.config import Settings
from provgraph.store.async_memory import AsyncMemoryGraphStore
from services.api.app import create_app
from services.api.graphql.cost import DEFAULT_FANOUT, NULL_PAGE, estimate_cost
from services.api.graphql.schema import schema
from tests.api.conftest import Env

PATHOLOGICAL = (
    "{ sessions(first:100){ edges{ node{ id nodes(first:1000){ id parents{ id } children{ id } }"
    " } } } }"
)


def _cost(query: str, variables: dict[str, object] | None = None) -> int:
    return estimate_cost(schema._schema, parse(query), None, variables)


def test_cost_multiplies_page_sizes_and_fanout_along_paths() -> None:
    # connection(1) + 100 edges × (1 + node(1 + 1000 nodes × (1 + 10 parents + 10 children)))
    assert _cost(PATHOLOGICAL) == 1 + 100 * (1 + 1 + 1000 * (1 + 2 * DEFAULT_FANOUT))
    assert _cost("{ sessions { edges { node { id } } } }") == 1 + NULL_PAGE * 2
    assert _cost('{ node(id: "x") { id type data } }') == 1  # scalars cost nothing


def test_cost_reads_variables_fragments_and_defaults() -> None:
    query = (
        "query Q($n: Int) { sessions(first: $n) { edges { node { ...S } } } }"
        " fragment S on Session { nodes { id } }"
    )
    # Session.nodes defaults to first: 100
    assert _cost(query, {"n": 3}) == 1 + 3 * (1 + 1 + 100)


def test_nested_fragment_spreads_are_costed_without_blowing_up() -> None:
    fragments = " ".join(
        f"fragment F{i} on Node {{ {' '.join(['...F' + str(i + 1)] * 20)} }}" for i in range(12)
    )
    query = (
        f'{{ node(id: "x") {{ ...F0 }} }} {fragments} fragment F12 on Node {{ parents {{ id }} }}'
    )
    assert _cost(query) == 1 + 20**12 * DEFAULT_FANOUT  # computed, not walked


async def test_pathological_query_is_refused_before_any_store_call(env: Env) -> None:
    body = await env.gql(PATHOLOGICAL)
    assert body["data"] is None
    error = body["errors"][0]
    assert "query cost 2,100,201 exceeds the budget of 50,000" in error["message"]
    assert "PROVGRAPH_GRAPHQL_MAX_COST" in error["message"]
    assert error["extensions"] == {"code": "QUERY_TOO_COSTLY", "cost": 2_100_201, "budget": 50_000}


async def test_query_under_budget_runs(seeded: Env) -> None:
    body = await seeded.gql(
        "{ sessions(first: 5) { edges { node { id nodes(first: 50) { id parents { id } } } } } }"
    )
    assert "errors" not in body
    assert body["data"]["sessions"]["edges"][0]["node"]["nodes"]


@pytest.mark.parametrize("budget", [10, 100])
async def test_budget_is_a_setting(settings: Settings, budget: int) -> None:
    app = create_app(replace_settings(settings, budget), store=AsyncMemoryGraphStore(None))
    _, token = app.state.provgraph.keys().create("acme", "read")
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        response = await client.post(
            "/graphql",
            json={"query": "{ sessions(first: 50) { edges { node { id } } } }"},
            headers={"Authorization": f"Bearer {token}"},
        )
    message = response.json()["errors"][0]["message"]
    assert f"query cost 101 exceeds the budget of {budget}" in message


def replace_settings(settings: Settings, budget: int) -> Settings:
    return settings.model_copy(update={"graphql_max_cost": budget})
