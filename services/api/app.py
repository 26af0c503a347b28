"""The API service's app factory: REST ingestion and operations, GraphQL, exports.

``create_app()`` with no arguments reads ``PROVGRAPH_*`` settings and opens the
store they name (Neo4j, else the embedded store), which is what
``uvicorn --factory services.api.app:create_app`` and ``provgraph serve`` run.
Tests pass ``settings`` and a ``store`` directly.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from provgraph.config import Settings, load_settings
from provgraph.errors import ProvgraphError
from provgraph.events import Event
from provgraph.store.port import AsyncGraphStore
from services.api.collector import set_young_threshold
from services.api.console import mount_console
from services.api.errors import install_error_handlers
from services.api.graphql.context import MAX_GRAPHQL_BODY_BYTES
from services.api.graphql.router import graphql_router
from services.api.logs import configure_logging
from services.api.middleware import RequestContextMiddleware
from services.api.otlp_route import router as otlp_router
from services.api.rest import events, exports, health, keys, reviews
from services.api.state import AppState
from services.api.verification import VerificationDispatcher

log = logging.getLogger("provgraph.api")

AUTH_OFF_WARNING = (
    "AUTHENTICATION IS OFF: every request is an admin of project 'default'. "
    "This is for the embedded development server only; never expose it on a network."
)


def create_app(
    settings: Settings | None = None,
    *,
    store: AsyncGraphStore | None = None,
    verifier: VerificationDispatcher | None = None,
) -> FastAPI:
    """Build the service; ``store`` and ``verifier`` default to what the settings name."""
    settings = settings or load_settings()
    configure_logging(settings.log_level)
    state = AppState(settings, store=store, verifier=verifier)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        set_young_threshold(settings.api_gc_threshold)
        _announce(state)
        try:
            yield
        finally:
            await state.close()

    app = FastAPI(
        title="provgraph API",
        version="1",
        description="Provenance graphs of LLM agent sessions: ingestion, GraphQL, exports.",
        lifespan=lifespan,
    )
    app.state.provgraph = state
    install_error_handlers(app)
    app.include_router(events.router)
    app.include_router(health.router)
    app.include_router(exports.router)
    app.include_router(reviews.router)
    app.include_router(keys.router)
    app.include_router(otlp_router)
    app.include_router(
        graphql_router(),
        prefix="/graphql",
        include_in_schema=False,
        max_body_size=MAX_GRAPHQL_BODY_BYTES,  # also bounds chunked bodies (no Content-Length)
    )
    mount_console(app)
    app.add_middleware(RequestContextMiddleware, metrics=state.metrics)
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    if not settings.auth:
        log.warning(AUTH_OFF_WARNING)
    return app


def _announce(state: AppState) -> None:
    settings = state.settings
    if not settings.auth:
        for _ in range(3):
            log.warning(AUTH_OFF_WARNING)
        return
    if settings.bootstrap_admin_key:
        return
    try:
        active = state.keys().count_active()
    except ProvgraphError as exc:  # the store may be down at start; requests will say so
        log.warning("could not count API keys at start: %s", exc)
        return
    if active == 0:
        log.warning(
            "no API key can authenticate: set PROVGRAPH_BOOTSTRAP_ADMIN_KEY or run "
            "`provgraph keys create --project P --role admin`"
        )


def _openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's schema plus the event schema the ingestion body refers to."""
    if app.openapi_schema:
        return app.openapi_schema
    schema = get_openapi(
        title=app.title, version=app.version, description=app.description, routes=app.routes
    )
    event_schema = Event.model_json_schema(ref_template="#/components/schemas/{model}")
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.update(event_schema.pop("$defs", {}))
    components["Event"] = event_schema
    app.openapi_schema = schema
    return schema
