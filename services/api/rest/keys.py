"""``/v1/keys``: an admin creates, lists and revokes its own project's API keys.

Parse, call the use case (:mod:`provgraph.usecases.keys`), render. With Neo4j
the keys live in the graph, so a key created through one API replica works on
every other at once, and a revocation is refused everywhere within
``PROVGRAPH_KEY_CACHE_TTL_S`` (at once on the replica that revoked it). A
token is returned once, at creation; only its hash is stored.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from provgraph.usecases.keys import (
    ApiKey,
    create_key_async,
    list_keys_async,
    revoke_key_async,
)
from provgraph.usecases.roles import Permission, Principal, Role
from services.api.auth.dependency import require
from services.api.state import AppState

router = APIRouter(tags=["keys"])
_ADMIN: dict[int | str, dict[str, Any]] = {
    401: {"description": "Missing or unknown API key."},
    403: {"description": "Not admin."},
}


class KeyBody(BaseModel):
    """A new key of the caller's project."""

    model_config = ConfigDict(extra="forbid")

    role: Role
    name: str | None = Field(default=None, max_length=200)


def key_json(key: ApiKey) -> dict[str, Any]:
    return {
        "id": key.id,
        "project": key.project,
        "role": key.role.value,
        "name": key.name,
        "created_at": key.created_at,
        "revoked_at": key.revoked_at,
    }


@router.post("/v1/keys", status_code=201, summary="Create an API key", responses=_ADMIN)
async def create_key(
    request: Request,
    body: KeyBody,
    principal: Principal = Depends(require(Permission.MANAGE_KEYS)),  # noqa: B008
) -> dict[str, Any]:
    state: AppState = request.app.state.provgraph
    key, token = await create_key_async(
        await state.key_repository(), principal.project, body.role, body.name
    )
    return {**key_json(key), "token": token}


@router.get("/v1/keys", summary="The project's API keys (never their tokens)", responses=_ADMIN)
async def list_keys(
    request: Request,
    principal: Principal = Depends(require(Permission.MANAGE_KEYS)),  # noqa: B008
) -> dict[str, Any]:
    state: AppState = request.app.state.provgraph
    keys = await list_keys_async(await state.key_repository(), principal.project)
    return {"keys": [key_json(k) for k in keys]}


@router.post(
    "/v1/keys/{key_id}/revoke",
    summary="Revoke an API key",
    responses={**_ADMIN, 404: {"description": "No such key in this project."}},
)
async def revoke_key(
    request: Request,
    key_id: str,
    principal: Principal = Depends(require(Permission.MANAGE_KEYS)),  # noqa: B008
) -> dict[str, Any]:
    state: AppState = request.app.state.provgraph
    key = await revoke_key_async(await state.key_repository(), principal.project, key_id)
    state.forget_key(key.id)
    return key_json(key)
