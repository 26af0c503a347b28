"""Operations endpoints: liveness, readiness (store and broker), Prometheus metrics.

None of them needs a key: they carry no tenant data, and probes and scrapers
should not hold credentials. Readiness pings with a short timeout so a hung
store makes the probe fail rather than hang.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from provgraph.store.types import JobState
from services.api.state import AppState

router = APIRouter(tags=["operations"])
PING_TIMEOUT_S = 2.0
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
        checks["broker"] = await ping_redis(state.settings.broker_url)
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


async def ping_redis(url: str) -> str:
    """A raw RESP ``PING`` (with ``AUTH`` when the URL has a password): no client library needed."""
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        return f"unsupported broker scheme {parts.scheme!r}"
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(
                parts.hostname or "localhost", parts.port or 6379, ssl=parts.scheme == "rediss"
            ),
            timeout=PING_TIMEOUT_S,
        )
    except (OSError, TimeoutError) as exc:
        return f"unreachable: {type(exc).__name__}"
    try:
        if parts.password:
            user = parts.username or "default"
            writer.write(_resp("AUTH", user, parts.password))
            await writer.drain()
            if not (await asyncio.wait_for(reader.readline(), PING_TIMEOUT_S)).startswith(b"+OK"):
                return "authentication failed"
        writer.write(_resp("PING"))
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), PING_TIMEOUT_S)
        return "ok" if line.startswith(b"+PONG") else "unexpected reply"
    except (OSError, TimeoutError) as exc:
        return f"unreachable: {type(exc).__name__}"
    finally:
        writer.close()


def _resp(*args: str) -> bytes:
    out = f"*{len(args)}\r\n".encode()
    for arg in args:
        data = arg.encode()
        out += f"${len(data)}\r\n".encode() + data + b"\r\n"
    return out


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
