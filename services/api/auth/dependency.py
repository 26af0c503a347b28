"""The FastAPI side of auth: read the key from the request, resolve it, check the permission.

Keys arrive as ``Authorization: Bearer <token>`` or ``X-API-Key: <token>``.
With ``settings.auth`` off (embedded development server only) every request is
an admin of project ``default``.

A key is scoped to one project, so an ``X-Provgraph-Project`` header naming
another project is refused (403) on every route, not ignored: a client that
believes it writes to project B must not silently write to A.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import HTTPConnection

from provgraph.sdk.delivery import PROJECT_HEADER
from provgraph.usecases.keys import authenticate_bootstrap
from provgraph.usecases.roles import Permission, Principal, Role
from services.api.errors import ForbiddenError, UnauthenticatedError
from services.api.state import AppState

DEV_PROJECT = "default"
_DEV_PRINCIPAL = Principal(project=DEV_PROJECT, role=Role.ADMIN, key_id=None)

_WHAT = {
    Permission.WRITE_EVENTS: "posting events needs an ingest or admin key",
    Permission.READ: "reading needs a read or admin key",
    Permission.REQUEST_VERIFICATION: "requesting verification needs an admin key",
    Permission.REVIEW: "reviewing a verdict needs a review or admin key",
    Permission.MANAGE_KEYS: "managing API keys needs an admin key",
}


def token_from(connection: HTTPConnection) -> str | None:
    header = connection.headers.get("authorization")
    if header:
        scheme, _, value = header.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    api_key = connection.headers.get("x-api-key")
    return api_key.strip() if api_key else None


async def authenticate(connection: HTTPConnection) -> Principal:
    """The caller's principal, or :class:`UnauthenticatedError` (401)."""
    state: AppState = connection.app.state.provgraph
    if not state.settings.auth:
        principal = _DEV_PRINCIPAL
    else:
        token = token_from(connection)
        if token is None:
            raise UnauthenticatedError(
                "missing API key: send 'Authorization: Bearer <key>' (create one with "
                "`provgraph keys create --project P --role R`)"
            )
        principal = await principal_for_token(state, token)
        _check_project_header(connection, principal)
    connection.scope.setdefault("state", {})["principal"] = principal
    return principal


def _check_project_header(connection: HTTPConnection, principal: Principal) -> None:
    named = connection.headers.get(PROJECT_HEADER)
    if named is not None and named.strip() != principal.project:
        raise ForbiddenError(
            f"this API key is scoped to project '{principal.project}', but {PROJECT_HEADER} "
            f"names '{named.strip()}': drop the header or use a key of that project",
            path=PROJECT_HEADER,
        )


async def principal_for_token(state: AppState, token: str | None) -> Principal:
    """Resolve a token (also for WebSockets, whose key arrives in the connection payload).

    Keys come from the deployment's key repository (the graph with Neo4j, so any
    replica's keys work here), cached for ``PROVGRAPH_KEY_CACHE_TTL_S`` at most.
    """
    if not state.settings.auth:
        return _DEV_PRINCIPAL
    if not token:
        raise UnauthenticatedError("missing API key")
    found = authenticate_bootstrap(
        token, state.settings.bootstrap_admin_key, state.settings.project
    ) or await state.authenticator.authenticate(token)
    if found is None:
        raise UnauthenticatedError("API key not recognised (unknown, malformed or revoked)")
    return found


def authorize(principal: Principal, permission: Permission) -> Principal:
    if not principal.allows(permission):
        raise ForbiddenError(f"forbidden: {_WHAT[permission]} (this key's role: {principal.role})")
    return principal


def require(permission: Permission) -> Callable[[HTTPConnection], Awaitable[Principal]]:
    """A dependency that authenticates and checks one permission (401, then 403)."""

    async def dependency(connection: HTTPConnection) -> Principal:
        return authorize(await authenticate(connection), permission)

    return dependency
