"""``GET /v1/sessions/{id}/export``: one session's graph as JSON, Mermaid, DOT, HTML or PROV-JSON.

Rendering is the core's job (:mod:`provgraph.exports`); this route scopes the
read to the caller's project and picks the media type. A session with no node
in the caller's project is a 404, whether it exists elsewhere or not.
"""

from __future__ import annotations

import asyncio
from enum import StrEnum

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import Response

from provgraph.graph import ProvenanceGraph
from provgraph.store.types import MAX_LINEAGE_LIMIT
from provgraph.usecases.roles import Permission, Principal
from services.api.auth.dependency import require
from services.api.errors import ApiError
from services.api.state import AppState

router = APIRouter(tags=["exports"])
MAX_EXPORT_NODES = MAX_LINEAGE_LIMIT * 5


class ExportFormat(StrEnum):
    JSON = "json"
    MERMAID = "mermaid"
    DOT = "dot"
    HTML = "html"
    PROV = "prov"


_EXTENSIONS = {"json": "json", "mermaid": "mmd", "dot": "dot", "html": "html", "prov": "prov.json"}


class ExportUnavailableError(ApiError):
    status_code = 501
    code = "not_implemented"


class SessionNotFoundError(ApiError):
    status_code = 404
    code = "not_found"


@router.get(
    "/v1/sessions/{session_id}/export",
    summary="Export one session's provenance graph",
    responses={
        200: {"description": "The rendered graph."},
        401: {"description": "Missing or unknown API key."},
        403: {"description": "The key's role cannot read."},
        404: {"description": "No such session in the caller's project."},
        422: {"description": "Unknown format."},
    },
    response_class=Response,
)
async def export_session(
    request: Request,
    session_id: str = Path(min_length=1, max_length=256),
    format: ExportFormat = Query(ExportFormat.JSON),  # noqa: B008
    principal: Principal = Depends(require(Permission.READ)),  # noqa: B008
) -> Response:
    state: AppState = request.app.state.provgraph
    store = await state.store()
    graph = await store.session_graph(principal.project, session_id)
    if not any(n.session_id == session_id for n in graph.nodes.values()):
        raise SessionNotFoundError(f"session '{session_id}' has no events in this project")
    if len(graph.nodes) > MAX_EXPORT_NODES:
        raise ApiError(f"session has {len(graph.nodes)} nodes; exports stop at {MAX_EXPORT_NODES}")
    rendered = await asyncio.to_thread(_render, graph, format, session_id)
    disposition = f'inline; filename="{_safe(session_id)}.{_EXTENSIONS[format.value]}"'
    return Response(
        rendered, media_type=_media_type(format), headers={"Content-Disposition": disposition}
    )


def _render(graph: ProvenanceGraph, fmt: ExportFormat, session_id: str) -> str:
    try:
        from provgraph.exports.render import render_graph
    except ImportError as exc:
        raise ExportUnavailableError("this build has no exporters") from exc
    return render_graph(graph, fmt.value, title=f"Session {session_id}")


def _media_type(fmt: ExportFormat) -> str:
    from provgraph.exports.render import MEDIA_TYPES

    return MEDIA_TYPES.get(fmt.value, "application/octet-stream")


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in name)[:100] or "session"
