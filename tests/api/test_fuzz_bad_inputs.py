"""Fuzz the real API (uvicorn + Neo4j) with the campaign's bad inputs.

Strategies build raw JSON text, so they can say what ``json.dumps`` never
writes: nesting far past any parser's limit, integers of thousands of digits,
``NaN``/``Infinity``, lone surrogate escapes, timestamps as numbers or
without offsets, citation keys outside the grammar. For every request:

- never a 5xx;
- every 4xx body is JSON naming the problem (``error.message``);
- nothing half-stored: an accepted event's node is in Neo4j, a rejected
  event's node is not, and a 4xx stores nothing of its batch.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provgraph.config import Settings
from services.api.app import create_app
from tests.api.conftest import BOOTSTRAP, free_port

pytestmark = pytest.mark.neo4j

_deep_arrays = st.integers(30, 3000).map(lambda d: "[" * d + "]" * d)
_deep_objects = st.integers(30, 3000).map(lambda d: '{"k":' * d + "0" + "}" * d)
_huge_ints = st.tuples(st.sampled_from(["", "-"]), st.integers(3990, 4400)).map(
    lambda t: t[0] + "9" * t[1]
)
_non_finite = st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-1e999"])
_surrogates = st.sampled_from(['"\\udc00"', '"R-\\udc00"', '"a\\ud800b"', '"\\udfff\\ud800"'])
_plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
).map(json.dumps)
_values = st.one_of(_deep_arrays, _deep_objects, _huge_ints, _non_finite, _surrogates, _plain)
_timestamps = st.one_of(
    st.just('"2026-01-01T00:00:00Z"'),
    st.integers(-(2**40), 2**40).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    _non_finite,
    st.sampled_from(
        [
            '"2026-01-01T00:00:00"',
            '"2026-01-01"',
            '"0001-01-01T00:00:00+14:00"',
            '"9999-12-31T23:59:59-14:00"',
            '"2026-02-30T00:00:00Z"',
            '"1700000000"',
            "null",
            "true",
        ]
    ),
)
_keys = st.one_of(
    st.sampled_from(['"d_1"', '"a_2"', '"zz"', '"d_"', '"d_01"', "7", '"\\udc00"']),
    st.text(max_size=8).map(json.dumps),
)
_ids = st.one_of(st.just(None), _surrogates, st.sampled_from(['""', "12", "null", '"x" ']))


@st.composite
def _event(draw: st.DrawFn) -> tuple[str, str]:
    """(node id, raw event text); ids are unique so storage can be checked per event."""
    node = f"fz-{uuid.uuid4().hex[:12]}"
    fields = {
        "id": draw(_ids) or json.dumps(f"ev-{node}"),
        "type": '"data_read"',
        "timestamp": draw(st.one_of(st.just('"2026-01-01T00:00:00Z"'), _timestamps)),
        "session_id": '"fuzz"',
        "node_id": json.dumps(node),
    }
    if draw(st.booleans()):
        fields["data"] = '{"v": ' + draw(_values) + "}"
    if draw(st.booleans()):
        fields["citation_key"] = draw(_keys)
    if draw(st.booleans()):
        fields["content"] = draw(st.one_of(_surrogates, _plain))
    if draw(st.booleans()):
        fields["parent_ids"] = "[" + draw(st.one_of(_surrogates, st.just(json.dumps(node)))) + "]"
    return node, "{" + ", ".join(f'"{k}": {v}' for k, v in fields.items()) + "}"


@pytest.fixture(scope="module")
def api(neo4j_uri: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    home: Path = tmp_path_factory.mktemp("fuzz")
    project = f"fuzz-{uuid.uuid4().hex[:8]}"
    app = create_app(
        Settings(
            home=home,
            neo4j_uri=neo4j_uri,
            bootstrap_admin_key=BOOTSTRAP,
            project=project,
            auto_verify=False,
            log_level="CRITICAL",
        )
    )
    port = free_port()
    import uvicorn

    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="critical", lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", project
    server.should_exit = True
    thread.join(timeout=15)


def _check_error_body(response: httpx.Response) -> None:
    assert response.status_code < 500, response.text[:500]
    if response.status_code >= 400:
        body = response.json()  # valid JSON, whatever was sent
        assert body["error"]["message"], body


def _stored(store: Any, project: str, nodes: list[str]) -> set[str]:
    return set(store.get_nodes(project, nodes))


_FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@_FUZZ
@given(batch=st.lists(_event(), min_size=1, max_size=4), lines=st.booleans())
def test_ingest_never_5xx_and_never_half_stores(
    api: tuple[str, str], neo4j_store: Any, batch: list[tuple[str, str]], lines: bool
) -> None:
    url, project = api
    nodes = [node for node, _ in batch]
    body = (
        "\n".join(raw for _, raw in batch) if lines else "[" + ", ".join(r for _, r in batch) + "]"
    )
    kind = "application/x-ndjson" if lines else "application/json"
    response = httpx.post(
        f"{url}/v1/events",
        content=body.encode("utf-8", "surrogatepass"),
        headers={"Authorization": f"Bearer {BOOTSTRAP}", "Content-Type": kind},
        timeout=60,
    )
    _check_error_body(response)
    stored = _stored(neo4j_store, project, nodes)
    if response.status_code >= 400:
        assert stored == set(), "a refused batch left nodes behind"
        return
    assert response.status_code == 207
    results = response.json()["results"]
    assert len(results) == len(batch)
    for result, node in zip(results, nodes, strict=True):
        if result["status"] == "accepted":
            assert node in stored
        elif result["status"] == "duplicate":  # a delivery id drawn again: changes nothing
            assert node not in stored, f"duplicate but stored: {result}"
        else:
            assert result["status"] == "rejected" and result["error"]["reason"]
            assert node not in stored, f"rejected but stored: {result}"


@_FUZZ
@given(value=_values)
def test_graphql_variables_never_5xx(api: tuple[str, str], value: str) -> None:
    url, _ = api
    body = '{"query": "query Q($n: Int) { sessions(first: $n) { edges { cursor } } }", '
    body += '"variables": {"n": ' + value + "}}"
    response = httpx.post(
        f"{url}/graphql",
        content=body.encode("utf-8", "surrogatepass"),
        headers={"Authorization": f"Bearer {BOOTSTRAP}", "Content-Type": "application/json"},
        timeout=60,
    )
    assert response.status_code < 500, response.text[:500]
    if response.status_code >= 400:
        assert response.json()["error"]["message"]
    else:
        json.loads(response.text)  # strict JSON: no NaN in the answer


@_FUZZ
@given(value=_values, nest=st.integers(0, 1500))
def test_otlp_json_never_5xx(api: tuple[str, str], value: str, nest: int) -> None:
    url, _ = api
    attribute = '{"arrayValue": {"values": [' * nest + "{}" + "]}}" * nest
    span = (
        '{"traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": "b7ad6b7169203331", '
        '"name": "llm", "startTimeUnixNano": "1", "endTimeUnixNano": "2", "attributes": ['
        '{"key": "openinference.span.kind", "value": {"stringValue": "LLM"}}, '
        '{"key": "output.value", "value": {"stringValue": ' + value + "}}, "
        '{"key": "x", "value": ' + attribute + "}]}"
    )
    body = '{"resourceSpans": [{"scopeSpans": [{"spans": [' + span + "]}]}]}"
    response = httpx.post(
        f"{url}/v1/traces",
        content=body.encode("utf-8", "surrogatepass"),
        headers={"Authorization": f"Bearer {BOOTSTRAP}", "Content-Type": "application/json"},
        timeout=60,
    )
    assert response.status_code < 500, response.text[:500]
    json.loads(response.text)  # the OTLP answer is JSON too
