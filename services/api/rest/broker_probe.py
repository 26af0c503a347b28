"""The readiness probe of the broker: one Redis server, or the master Sentinel names.

A plain ``redis://`` URL gets a raw RESP ``PING`` (no client library needed).
A ``sentinel://`` URL asks the sentinels for the current master (redis-py's
Sentinel client, the library Celery's transport uses too) and pings it, so
readiness follows a failover: it answers ``ok`` as soon as the sentinels name
a new master that answers. Every step is bounded by ``PING_TIMEOUT_S``.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlsplit

from provgraph.broker import SentinelAddress
from provgraph.config import Settings
from provgraph.errors import ConfigurationError

PING_TIMEOUT_S = 2.0


async def ping_broker(settings: Settings) -> str:
    """``ok``, or what is wrong with the configured broker (never raises)."""
    try:
        address = settings.sentinel_address
    except ConfigurationError as exc:
        return f"misconfigured: {exc}"
    if address is not None:
        return await ping_sentinel(address)
    return await ping_redis(settings.broker_url or "")


async def ping_sentinel(address: SentinelAddress) -> str:
    """Ask the sentinels for the master, then ``PING`` it (with its password and db)."""
    try:
        from redis.asyncio.sentinel import MasterNotFoundError, Sentinel
        from redis.exceptions import AuthenticationError, RedisError
    except ImportError:
        return "redis client missing: install provgraph[worker]"
    timeouts = {"socket_timeout": PING_TIMEOUT_S, "socket_connect_timeout": PING_TIMEOUT_S}
    sentinel_kwargs: dict[str, object] = dict(timeouts)
    if address.sentinel_password:
        sentinel_kwargs["password"] = address.sentinel_password
    # typed loosely on purpose: redis-py < 8.2 leaves Sentinel untyped, 8.2 types it, and
    # the keyword set below is valid for both
    sentinel_type: Any = Sentinel
    sentinel = sentinel_type(
        list(address.sentinels),
        sentinel_kwargs=sentinel_kwargs,
        password=address.password,
        username=address.username,
        db=address.db,
        **timeouts,
    )
    master = sentinel.master_for(address.master)
    try:
        ok = await asyncio.wait_for(master.ping(), timeout=3 * PING_TIMEOUT_S)
        return "ok" if ok else "unexpected reply"
    except MasterNotFoundError:
        names = ", ".join(f"{host}:{port}" for host, port in address.sentinels)
        return f"no master {address.master!r} from the sentinels ({names})"
    except AuthenticationError:
        return "authentication failed"
    except (RedisError, OSError, TimeoutError) as exc:
        return f"unreachable: {type(exc).__name__}"
    finally:
        await master.aclose()
        for client in sentinel.sentinels:
            await client.aclose()


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
