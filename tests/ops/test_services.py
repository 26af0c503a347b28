"""The service runners against real servers: no mocks.

One auth-on Neo4j is started for the whole module (a start takes 20–75 s on
a loaded 2-core box) and every Neo4j test shares it; the last test stops it.
Redis starts in well under a second, so its tests start their own.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from provgraph.ops import (
    Neo4jHandle,
    StartError,
    ToolMissingError,
    ensure_neo4j_installed,
    neo4j_status,
    redis_status,
    start_neo4j,
    start_redis,
    stop_neo4j,
    stop_redis,
)
from provgraph.ops._process import free_port
from provgraph.ops.credentials import generate_password, read_credentials
from provgraph.ops.neo4j_config import instance_dirs, render_neo4j_conf
from provgraph.ops.neo4j_server import _set_initial_password
from provgraph.ops.tools import find_java

START_TIMEOUT = float(os.environ.get("PROVGRAPH_TEST_NEO4J_TIMEOUT", "240"))


@pytest.fixture(scope="module")
def neo4j_auth(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Neo4jHandle]:
    """One auth-on Neo4j with a generated password, stopped after the module."""
    data_dir = tmp_path_factory.mktemp("neo4j-auth")
    handle = start_neo4j(data_dir, free_port(), auth=True, timeout=START_TIMEOUT)
    try:
        yield handle
    finally:
        stop_neo4j(data_dir)


@pytest.mark.neo4j
def test_generated_password_is_written_and_works(neo4j_auth: Neo4jHandle) -> None:
    import neo4j

    creds = read_credentials(neo4j_auth.data_dir)
    assert creds == {
        "PROVGRAPH_NEO4J_URI": neo4j_auth.uri,
        "PROVGRAPH_NEO4J_USER": "neo4j",
        "PROVGRAPH_NEO4J_PASSWORD": neo4j_auth.password,
    }
    mode = stat.S_IMODE((neo4j_auth.data_dir / "credentials.env").stat().st_mode)
    assert mode == 0o600
    auth = (creds["PROVGRAPH_NEO4J_USER"], creds["PROVGRAPH_NEO4J_PASSWORD"])
    with neo4j.GraphDatabase.driver(creds["PROVGRAPH_NEO4J_URI"], auth=auth) as driver:
        records, _, _ = driver.execute_query("RETURN 1 AS one", database_="neo4j")
    assert records[0]["one"] == 1


@pytest.mark.neo4j
def test_wrong_password_is_rejected(neo4j_auth: Neo4jHandle) -> None:
    import neo4j

    with (
        neo4j.GraphDatabase.driver(neo4j_auth.uri, auth=("neo4j", "not-the-password")) as drv,
        pytest.raises(neo4j.exceptions.AuthError),
    ):
        drv.verify_connectivity()


@pytest.mark.neo4j
def test_status_says_running(neo4j_auth: Neo4jHandle) -> None:
    status = neo4j_status(neo4j_auth.data_dir)
    assert status.running and status.ready
    assert status.pid == neo4j_auth.pid
    assert status.uri == neo4j_auth.uri


@pytest.mark.neo4j
def test_start_again_returns_the_running_instance(neo4j_auth: Neo4jHandle) -> None:
    began = time.monotonic()
    again = start_neo4j(neo4j_auth.data_dir, neo4j_auth.bolt_port, auth=True)
    assert again.pid == neo4j_auth.pid
    assert again.password == neo4j_auth.password
    assert time.monotonic() - began < 15


@pytest.mark.neo4j
def test_port_taken_fails_fast(neo4j_auth: Neo4jHandle, tmp_path: Path) -> None:
    began = time.monotonic()
    with pytest.raises(StartError, match="already in use"):
        start_neo4j(tmp_path / "other", neo4j_auth.bolt_port, auth=False)
    assert time.monotonic() - began < 15
    assert not neo4j_status(tmp_path / "other").running


@pytest.mark.neo4j
def test_jvm_exit_fails_fast_with_its_own_log(tmp_path: Path) -> None:
    ensure_neo4j_installed()
    began = time.monotonic()
    with pytest.raises(StartError, match="exited with code") as info:
        start_neo4j(tmp_path / "huge", free_port(), auth=False, heap="64g")
    assert time.monotonic() - began < 30
    assert any("memory" in line for line in info.value.details)
    assert not neo4j_status(tmp_path / "huge").running


@pytest.mark.neo4j
def test_zz_stop_makes_status_say_stopped(neo4j_auth: Neo4jHandle) -> None:
    """Runs last in this module (definition order): it stops the shared instance."""
    assert stop_neo4j(neo4j_auth.data_dir) is True
    status = neo4j_status(neo4j_auth.data_dir)
    assert not status.running
    assert not (neo4j_auth.data_dir / "neo4j.pid").exists()
    assert stop_neo4j(neo4j_auth.data_dir) is False


@pytest.mark.neo4j
def test_initial_password_may_start_with_a_dash(tmp_path: Path) -> None:
    """The real admin tool; a leading ``-`` once made picocli exit 64."""
    lib = ensure_neo4j_installed()
    dirs = instance_dirs(tmp_path)
    for folder in dirs.values():
        folder.mkdir(parents=True)
    conf = render_neo4j_conf(data_dir=tmp_path, lib=lib, bolt_port=free_port(), auth=True)
    (dirs["conf"] / "neo4j.conf").write_text(conf)
    _set_initial_password(find_java(), lib, tmp_path, "-starts-with-a-dash")
    assert (dirs["data"] / "dbms" / "auth.ini").read_text().startswith("neo4j:SHA-256,")


def test_generated_passwords_are_option_safe() -> None:
    passwords = [generate_password() for _ in range(2000)]
    assert all(p[0].isalnum() and len(p) == 32 for p in passwords)
    assert len(set(passwords)) == len(passwords)


def test_missing_java_is_reported_clearly(tmp_path: Path) -> None:
    with pytest.raises(ToolMissingError, match=r"java not found at /nonexistent/java.*Java 17"):
        start_neo4j(tmp_path, free_port(), java_bin="/nonexistent/java")


def test_missing_java_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROVGRAPH_JAVA", str(tmp_path / "no-java"))
    with pytest.raises(ToolMissingError, match="java not found"):
        start_neo4j(tmp_path / "data", free_port(), auth=False)


def test_old_java_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "java"
    fake.write_text("#!/bin/sh\necho 'openjdk version \"11.0.2\" 2019-01-15' >&2\n")
    fake.chmod(0o755)
    with pytest.raises(ToolMissingError, match="Java 11"):
        start_neo4j(tmp_path / "data", free_port(), auth=False, java_bin=fake)


def test_missing_maven_is_reported_clearly(tmp_path: Path) -> None:
    with pytest.raises(ToolMissingError, match="mvn"):
        ensure_neo4j_installed(cache_dir=tmp_path, mvn_bin="/nonexistent/mvn")


@pytest.mark.redis
def test_redis_start_ping_stop(tmp_path: Path) -> None:
    import redis

    handle = start_redis(tmp_path, free_port(), persistent=False)
    try:
        assert redis.Redis.from_url(handle.url).ping()
        assert redis_status(tmp_path).running
        assert start_redis(tmp_path, handle.port).pid == handle.pid  # idempotent
    finally:
        assert stop_redis(tmp_path) is True
    assert not redis_status(tmp_path).running
    assert not (tmp_path / "appendonlydir").exists()


@pytest.mark.redis
def test_redis_aof_keeps_queued_jobs_across_a_restart(tmp_path: Path) -> None:
    import redis

    port = free_port()
    handle = start_redis(tmp_path, port)
    try:
        client = redis.Redis.from_url(handle.url)
        client.lpush("celery", "job-1", "job-2")
        client.close()
        stop_redis(tmp_path)
        assert (tmp_path / "appendonlydir").is_dir()
        handle = start_redis(tmp_path, port)
        client = redis.Redis.from_url(handle.url)
        assert client.lrange("celery", 0, -1) == [b"job-2", b"job-1"]
        client.close()
    finally:
        stop_redis(tmp_path)
