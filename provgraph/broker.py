"""The broker's address: one Redis server, or a master found through Redis Sentinel.

``PROVGRAPH_BROKER_URL`` takes either form kombu understands:

* ``redis://[:password@]host:port/db`` (or ``rediss://``): one server;
* ``sentinel://[:password@]host:port/db;sentinel://host2:port2;…``: the
  sentinels to ask, separated by ``;`` (kombu's ``sentinel`` transport). The
  master's name comes from ``PROVGRAPH_REDIS_SENTINEL_MASTER`` (kombu's
  ``master_name`` transport option; required, there is no default), and the
  password and database of the *first* URL are the master's (kombu's rule).
  ``PROVGRAPH_REDIS_SENTINEL_PASSWORD`` is for sentinels that require AUTH
  themselves (kombu's ``sentinel_kwargs``).

Everything that talks to Redis reads it through here: the worker's Celery app,
the API's publishing client, ``provgraph worker-health`` and the API's
readiness check, so a Sentinel deployment is configured once. Pure parsing: no
Redis client is imported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from provgraph.errors import ConfigurationError

SENTINEL_SCHEME = "sentinel"
DEFAULT_SENTINEL_PORT = 26379
BROKER_VARIABLE = "PROVGRAPH_BROKER_URL"
MASTER_VARIABLE = "PROVGRAPH_REDIS_SENTINEL_MASTER"


@dataclass(frozen=True)
class SentinelAddress:
    """The sentinels to ask and how to reach the master they name."""

    sentinels: tuple[tuple[str, int], ...]
    master: str
    password: str | None = None
    """The master's password (from the first URL), as for a plain Redis URL."""
    username: str | None = None
    db: int = 0
    sentinel_password: str | None = None
    """AUTH for the sentinels themselves, when they require it."""


def is_sentinel_url(url: str | None) -> bool:
    """Whether ``url`` names sentinels (``sentinel://…``) rather than one Redis server."""
    return bool(url) and str(url).split("://", 1)[0].lower() == SENTINEL_SCHEME


def parse_sentinel_url(
    url: str, master: str | None, sentinel_password: str | None = None
) -> SentinelAddress:
    """Parse ``sentinel://h1:p1[/db];sentinel://h2:p2…``; a missing master name is an error.

    Raises :class:`ConfigurationError` naming the variable to set: with no
    master name kombu would fail only when the first message is sent, far from
    the cause.
    """
    if not master:
        raise ConfigurationError(
            f"{BROKER_VARIABLE} names Redis Sentinels ({SENTINEL_SCHEME}://…) but"
            f" {MASTER_VARIABLE} is not set: set it to the master's name in the sentinels'"
            " configuration (`sentinel monitor <name> …`)"
        )
    parts = [part.strip() for part in url.split(";") if part.strip()]
    sentinels: list[tuple[str, int]] = []
    for position, part in enumerate(parts, start=1):
        split = urlsplit(part)
        if split.scheme.lower() != SENTINEL_SCHEME or not split.hostname:
            raise ConfigurationError(
                f"{BROKER_VARIABLE}: part {position} ({_redacted(part)!r}) is not"
                f" {SENTINEL_SCHEME}://host:port; separate sentinels with ';'"
            )
        try:
            port = split.port or DEFAULT_SENTINEL_PORT
        except ValueError:
            raise ConfigurationError(
                f"{BROKER_VARIABLE}: part {position} has an invalid port"
            ) from None
        sentinels.append((split.hostname, port))
    first = urlsplit(parts[0])
    db_text = first.path.strip("/") or "0"
    if not db_text.isdigit():
        raise ConfigurationError(f"{BROKER_VARIABLE}: database {db_text!r} is not a number")
    return SentinelAddress(
        sentinels=tuple(sentinels),
        master=master,
        password=unquote(first.password) if first.password else None,
        username=unquote(first.username) if first.username else None,
        db=int(db_text),
        sentinel_password=sentinel_password,
    )


def sentinel_transport_options(address: SentinelAddress) -> dict[str, Any]:
    """kombu's transport options for a Sentinel broker (``broker_transport_options``)."""
    options: dict[str, Any] = {"master_name": address.master}
    if address.sentinel_password:
        options["sentinel_kwargs"] = {"password": address.sentinel_password}
    return options


def _redacted(part: str) -> str:
    """The URL part with any password replaced, for error messages."""
    split = urlsplit(part)
    if split.password is None:
        return part
    return part.replace(f":{split.password}@", ":***@", 1)
