"""``provgraph neo4j|redis start|stop|status``: the project's local services.

Mounted into ``provgraph`` by ``provgraph.cli.main``; also runnable alone:
``python -m provgraph.cli.ops neo4j start``.  Errors print one ``error:`` line
(plus the server's own log lines when it failed to start) and exit 2; no
tracebacks.  ``status`` exits 0 when running and 3 when stopped (the LSB
convention), so scripts can test it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

import typer

from provgraph.ops.errors import OpsError
from provgraph.ops.status import ServiceStatus

P = ParamSpec("P")
R = TypeVar("R")

app = typer.Typer(
    help="Local Neo4j and Redis servers.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
neo4j_app = typer.Typer(
    help="A real Neo4j 5.26 server (jars from Maven Central, local JDK).", no_args_is_help=True
)
redis_app = typer.Typer(
    help="A local redis-server (Celery broker), AOF on by default.", no_args_is_help=True
)
app.add_typer(neo4j_app, name="neo4j")
app.add_typer(redis_app, name="redis")

NOT_RUNNING_EXIT = 3

Neo4jDir = Annotated[
    Path,
    typer.Option(
        "--data-dir",
        envvar="PROVGRAPH_NEO4J_DATA_DIR",
        help="Instance folder (config, data, logs, pid).",
    ),
]
RedisDir = Annotated[
    Path,
    typer.Option(
        "--data-dir", envvar="PROVGRAPH_REDIS_DATA_DIR", help="Instance folder (AOF, log, pid)."
    ),
]


def _fail(message: str, details: list[str] | None = None) -> typer.Exit:
    typer.secho(f"error: {message}", err=True, fg=typer.colors.RED)
    for line in details or []:
        typer.echo(f"  {line}", err=True)
    return typer.Exit(2)


def _one_line_errors(func: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except OpsError as exc:
            raise _fail(str(exc), exc.details) from None
        except OSError as exc:
            raise _fail(f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": ")) from None
        except KeyboardInterrupt:
            raise _fail("interrupted") from None

    return wrapper


def _report(status: ServiceStatus) -> None:
    typer.echo(status.describe())
    if not status.running:
        raise typer.Exit(NOT_RUNNING_EXIT)


@neo4j_app.command("start")
@_one_line_errors
def neo4j_start(
    data_dir: Neo4jDir = Path(".provgraph/neo4j"),
    port: Annotated[
        int,
        typer.Option("--port", envvar="PROVGRAPH_NEO4J_BOLT_PORT", help="Bolt port on 127.0.0.1."),
    ] = 7687,
    auth: Annotated[
        bool,
        typer.Option(
            "--auth/--no-auth",
            envvar="PROVGRAPH_NEO4J_AUTH",
            help="Auth on (default) writes credentials.env.",
        ),
    ] = True,
    password: Annotated[
        str | None,
        typer.Option(
            "--password",
            envvar="PROVGRAPH_NEO4J_PASSWORD",
            help="Default: the one in credentials.env, else a generated one.",
        ),
    ] = None,
    heap: Annotated[str, typer.Option(envvar="PROVGRAPH_NEO4J_HEAP")] = "1g",
    pagecache: Annotated[str, typer.Option(envvar="PROVGRAPH_NEO4J_PAGECACHE")] = "512m",
    timeout: Annotated[float, typer.Option(help="Seconds to wait for RETURN 1.")] = 120.0,
    java: Annotated[
        str | None, typer.Option("--java", envvar="PROVGRAPH_JAVA", help="Java 17/21 executable.")
    ] = None,
) -> None:
    """Start Neo4j (downloading its jars once) and wait until RETURN 1 answers."""
    from provgraph.ops.neo4j_server import start_neo4j

    handle = start_neo4j(
        data_dir,
        port,
        auth=auth,
        password=password,
        heap=heap,
        pagecache=pagecache,
        java_bin=java,
        timeout=timeout,
    )
    ready = f", ready in {handle.startup_s:.1f} s" if handle.startup_s else " (already running)"
    creds = (
        f"; credentials in {handle.data_dir / 'credentials.env'}" if handle.auth else "; auth off"
    )
    typer.echo(f"neo4j running (pid {handle.pid}) at {handle.uri}{ready}{creds}")


@neo4j_app.command("stop")
@_one_line_errors
def neo4j_stop(data_dir: Neo4jDir = Path(".provgraph/neo4j")) -> None:
    """Stop Neo4j: TERM, up to 30 s for a clean shutdown, then KILL."""
    from provgraph.ops.neo4j_server import stop_neo4j

    stopped = stop_neo4j(data_dir)
    typer.echo("neo4j stopped" if stopped else "neo4j was not running")


@neo4j_app.command("status")
@_one_line_errors
def neo4j_status_cmd(data_dir: Neo4jDir = Path(".provgraph/neo4j")) -> None:
    """Print whether Neo4j runs (exit 0) or not (exit 3)."""
    from provgraph.ops.neo4j_server import neo4j_status

    _report(neo4j_status(data_dir))


@neo4j_app.command("install")
@_one_line_errors
def neo4j_install(
    java: Annotated[str | None, typer.Option("--java", envvar="PROVGRAPH_JAVA")] = None,
    mvn: Annotated[str | None, typer.Option("--mvn", envvar="PROVGRAPH_MVN")] = None,
) -> None:
    """Download Neo4j's jars from Maven Central into the cache (no-op when done)."""
    from provgraph.ops.neo4j_install import ensure_neo4j_installed

    typer.echo(f"neo4j jars in {ensure_neo4j_installed(java_bin=java, mvn_bin=mvn)}")


@redis_app.command("start")
@_one_line_errors
def redis_start(
    data_dir: RedisDir = Path(".provgraph/redis"),
    port: Annotated[int, typer.Option("--port", envvar="PROVGRAPH_REDIS_PORT")] = 6379,
    persist: Annotated[
        bool, typer.Option("--persist/--no-persist", help="AOF persistence (default on).")
    ] = True,
) -> None:
    """Start redis-server (apt-installing it if missing) and wait for PING."""
    from provgraph.ops.redis_server import AUTH_CONF_NAME, start_redis

    handle = start_redis(data_dir, port, persistent=persist)
    typer.echo(
        f"redis running (pid {handle.pid}) at redis://127.0.0.1:{handle.port}/0"
        f"{'' if handle.persistent else ' (no persistence)'}; password in "
        f"{handle.data_dir / AUTH_CONF_NAME} (PROVGRAPH_BROKER_URL=redis://:PASSWORD@…)"
    )


@redis_app.command("stop")
@_one_line_errors
def redis_stop(data_dir: RedisDir = Path(".provgraph/redis")) -> None:
    """Stop redis-server: TERM (flushes the AOF), up to 30 s, then KILL."""
    from provgraph.ops.redis_server import stop_redis

    typer.echo("redis stopped" if stop_redis(data_dir) else "redis was not running")


@redis_app.command("status")
@_one_line_errors
def redis_status_cmd(data_dir: RedisDir = Path(".provgraph/redis")) -> None:
    """Print whether Redis runs (exit 0) or not (exit 3)."""
    from provgraph.ops.redis_server import redis_status

    _report(redis_status(data_dir))


if __name__ == "__main__":
    app()
