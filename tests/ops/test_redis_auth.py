"""The local Redis (the broker) requires a password, kept across restarts, never on argv."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from provgraph.ops.redis_server import AUTH_CONF_NAME, redis_status, start_redis, stop_redis
from tests.conftest import free_port

pytestmark = pytest.mark.redis


def test_redis_refuses_clients_without_the_password(tmp_path: Path) -> None:
    import redis

    handle = start_redis(tmp_path, free_port(), persistent=False)
    try:
        assert ":" in handle.url.split("@")[0].removeprefix("redis://")
        assert redis.Redis.from_url(handle.url).ping()
        anonymous = redis.Redis(host="127.0.0.1", port=handle.port)
        with pytest.raises(redis.exceptions.AuthenticationError):
            anonymous.ping()
        conf = tmp_path / AUTH_CONF_NAME
        assert stat.S_IMODE(conf.stat().st_mode) == 0o600
        password = handle.url.split("@")[0].rsplit(":", 1)[1]
        cmdline = Path(f"/proc/{handle.pid}/cmdline").read_bytes().decode(errors="replace")
        assert password not in cmdline
        status = redis_status(tmp_path)
        assert status.ready and status.uri is not None and password not in status.uri
    finally:
        stop_redis(tmp_path)
    again = start_redis(tmp_path, free_port(), persistent=False)  # same data dir: same password
    try:
        assert again.url.split("@")[0] == handle.url.split("@")[0]
        assert redis.Redis.from_url(again.url).ping()
    finally:
        stop_redis(tmp_path)
