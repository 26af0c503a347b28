"""The FastAPI side of auth: read the key from the request, resolve it, check the permission.

Keys arrive as ``Authorization: Bearer <token>`` or ``X-API-Key: <token>``.
With ``settings.auth`` off (embedded development server only) every request is
an admin of project ``default``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import HTTPConnection

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
}


def token_from(connection: HTTPConnection) -> str | None:
    header = connection.headers.get("authorization")
    if header:
        scheme, _, value = header.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    api_key = connection.headers.get("x-api-key")
    return api_key.strip() if api_key else None


def authenticate(connection: HTTPConnection) -> Principal:
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
        principal = principal_for_token(state, token)
    connection.scope.setdefault("state", {})["principal"] = principal
    return principal


def principal_for_token(state: AppState, token: str | None) -> Principal:
    """Resolve a token (also for WebSockets, whose key arrives in the connection payload)."""
    if not state.settings.auth:
        return _DEV_PRINCIPAL
    if not token:
        raise UnauthenticatedError("missing API key")
    found = authenticate_bootstrap(
        token, state.settings.bootstrap_admin_key, state.settings.project
    ) or state.keys().authenticate(token)
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
        return authorize(authenticate(connection), permission)

    return dependency
