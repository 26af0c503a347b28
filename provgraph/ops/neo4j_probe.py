"""Talking to a starting Neo4j through the Python driver (imported lazily).

Readiness is "``RETURN 1`` succeeds on database ``neo4j``": Bolt accepts
connections several seconds before the default database is online.  The probe
uses ``session.run`` rather than ``driver.execute_query`` because the latter
retries with exponential backoff for up to 30 s, which hides the moment the
server becomes ready (it inflated a measured 19 s start to 38 s).
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from provgraph.ops.errors import AuthSetupError, StartError, ToolMissingError

INITIAL_PASSWORD = "neo4j"
"""Neo4j's built-in password for user ``neo4j``, which must be changed on first login."""

_NOT_READY_CODES = (
    "Neo.ClientError.Database.DatabaseNotFound",
    "Neo.ClientError.Security.AuthenticationRateLimit",
)


class Probe(Enum):
    """Outcome of one readiness attempt."""

    READY = "ready"
    NOT_READY = "not ready"
    AUTH_REJECTED = "auth rejected"


def _neo4j() -> Any:
    try:
        import neo4j
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ToolMissingError(
            "the neo4j Python driver is not installed: pip install 'provgraph[neo4j]'"
        ) from exc
    return neo4j


def probe(uri: str, auth: tuple[str, str] | None, timeout: float = 3.0) -> Probe:
    """Try ``RETURN 1`` on database ``neo4j`` once, classifying the failure."""
    neo4j = _neo4j()
    exc_mod = neo4j.exceptions
    try:
        with (
            neo4j.GraphDatabase.driver(
                uri, auth=auth, connection_timeout=timeout, connection_acquisition_timeout=timeout
            ) as driver,
            driver.session(database="neo4j") as session,
        ):
            session.run("RETURN 1").consume()
        return Probe.READY
    except exc_mod.AuthError:
        return Probe.AUTH_REJECTED
    except exc_mod.ClientError as exc:
        code = getattr(exc, "code", None)
        if code in _NOT_READY_CODES:
            return Probe.NOT_READY
        raise StartError(
            f"Neo4j refused RETURN 1 on database neo4j: {code}: {getattr(exc, 'message', exc)}"
        ) from exc
    except (
        exc_mod.ServiceUnavailable,
        exc_mod.SessionExpired,
        exc_mod.TransientError,
        exc_mod.DatabaseUnavailable,
        OSError,
    ):
        return Probe.NOT_READY
    except exc_mod.DriverError:
        return Probe.NOT_READY


def change_initial_password(uri: str, user: str, password: str) -> None:
    """Set ``password`` for ``user`` whose password is still the built-in ``neo4j``.

    Neo4j lets a user that must change its password run exactly this on the
    ``system`` database.  Used when ``set-initial-password`` could not apply
    (the data directory was first started with auth off).  Raises
    :class:`AuthSetupError` when the server rejects the initial password too.
    """
    neo4j = _neo4j()
    try:
        with (
            neo4j.GraphDatabase.driver(uri, auth=(user, INITIAL_PASSWORD)) as driver,
            driver.session(database="system") as session,
        ):
            session.run(
                "ALTER CURRENT USER SET PASSWORD FROM $old TO $new",
                old=INITIAL_PASSWORD,
                new=password,
            ).consume()
    except neo4j.exceptions.AuthError as exc:
        raise AuthSetupError(
            f"Neo4j rejects the password for user {user!r} and its password is no longer the "
            "initial one; pass the right one (--password / PROVGRAPH_NEO4J_PASSWORD) or use a "
            "fresh data directory"
        ) from exc
