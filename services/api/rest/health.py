"""Operations endpoints: liveness, readiness (store and broker), Prometheus metrics.

None of them needs a key: they carry no tenant data, and probes and scrapers
should not hold credentials. Readiness pings with a short timeout so a hung
store makes the probe fail rather than hang.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from provgraph.store.types import JobState
from services.api.rest.broker_probe import PING_TIMEOUT_S, ping_broker, ping_redis
from services.api.state import AppState

__all__ = ["ping_redis", "router"]

router = APIRouter(tags=["operations"])
JOB_SAMPLE_CAP = 10_000


@router.get("/healthz", summary="Liveness: the process answers")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get(
    "/readyz",
    summary="Readiness: the store (and broker, when configured) answer",
    responses={503: {"description": "A dependency is not reachable."}},
)
async def readyz(request: Request) -> JSONResponse:
    state: AppState = request.app.state.provgraph
    checks: dict[str, Any] = {"store": await _check_store(state)}
    if state.settings.broker_url:
        checks["broker"] = await ping_broker(state.settings)
    ready = all(c == "ok" for c in checks.values())
    return JSONResponse(
        {"status": "ready" if ready else "not ready", "checks": checks},
        status_code=200 if ready else 503,
        headers=None if ready else {"Retry-After": "5"},
    )


async def _check_store(state: AppState) -> str:
    try:
        store = await asyncio.wait_for(state.store(), timeout=30)
        ok = await asyncio.wait_for(store.ping(), timeout=PING_TIMEOUT_S)
    except Exception as exc:
        return f"unreachable: {type(exc).__name__}"
    return "ok" if ok else "unreachable"


@router.get("/metrics", summary="Prometheus metrics", response_class=Response)
async def metrics(request: Request) -> Response:
    state: AppState = request.app.state.provgraph
    try:
        store = await state.store()
        for job_state in JobState:
            jobs = await asyncio.wait_for(
                store.list_jobs(None, state=job_state.value, limit=JOB_SAMPLE_CAP), PING_TIMEOUT_S
            )
            state.metrics.jobs.labels(job_state.value).set(len(jobs))
    except Exception:  # metrics must render even when the store is down
        pass
    return Response(generate_latest(state.metrics.registry), media_type=CONTENT_TYPE_LATEST)
