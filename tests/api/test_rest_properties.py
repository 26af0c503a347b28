"""Property-based test of the REST API from its own OpenAPI schema: no input yields a 5xx.

Bounded (``max_examples`` per operation) so the whole run stays well under a
minute on two shared cores; the embedded store keeps it self-contained.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from provgraph.config import Settings
from provgraph.store.async_memory import AsyncMemoryGraphStore
from services.api.app import create_app

_HOME = Path(tempfile.mkdtemp(prefix="provgraph-schemathesis-"))
_KEY = "schemathesis-admin-key-0123456789abcdef"
APP = create_app(
    Settings(
        home=_HOME,
        bootstrap_admin_key=_KEY,
        project="props",
        max_body_bytes=64 * 1024,
        max_batch_events=50,
    ),
    store=AsyncMemoryGraphStore(None),
)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
def test_no_server_errors(case: schemathesis.Case) -> None:
    case.call_and_validate(headers={"Authorization": f"Bearer {_KEY}"}, checks=[not_a_server_error])
