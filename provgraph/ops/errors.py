"""Errors raised by the service runners (:mod:`provgraph.ops`).

Every message is one clear line that says what failed and what to do; a
server's own log lines, when there are any, travel separately in
:attr:`OpsError.details` so that a CLI can print the line first and the
evidence after it, never a traceback.
"""

from __future__ import annotations

from collections.abc import Sequence

from provgraph.errors import ProvgraphError


class OpsError(ProvgraphError):
    """A local service could not be installed, started, reached or stopped."""

    def __init__(self, message: str, *, details: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.details: list[str] = list(details)


class ToolMissingError(OpsError):
    """A required program (java, mvn, redis-server, apt-get) is absent or unusable."""


class InstallError(OpsError):
    """Assembling Neo4j's jars with Maven or installing Redis with apt-get failed."""


class StartError(OpsError):
    """The server process exited, never became ready, or its port is taken."""


class AuthSetupError(StartError):
    """The server is up but rejects the credentials the runner knows about."""
