"""Assemble Neo4j 5.26 LTS Community's ``lib/`` from Maven Central, once per machine.

The distribution tarball is not on Maven Central, but its ``lib/`` is the
runtime dependency set of ``org.neo4j.app:neo4j-server`` + ``org.neo4j:neo4j``;
``deploy/neo4j/pom.xml`` copies it with a pinned ``maven-dependency-plugin``.
The result lives outside the repository (``~/.cache/provgraph/neo4j-<version>/lib``,
about 116 MB, 213 jars for 5.26.19) and a stamp file makes the step idempotent.
A file lock serialises concurrent callers (two test runs starting at once), and
the jars are copied into a temporary folder renamed into place at the end, so
an interrupted download never looks complete.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

from provgraph.ops._process import tail
from provgraph.ops.errors import InstallError
from provgraph.ops.tools import find_java, find_mvn

NEO4J_VERSION = "5.26.19"
"""Newest 5.26.x on Maven Central when pinned (5.26.20–22 and 5.26.25 did not resolve)."""

VERSION_ENV = "PROVGRAPH_NEO4J_VERSION"
CACHE_ENV = "PROVGRAPH_CACHE_DIR"
POM_ENV = "PROVGRAPH_NEO4J_POM"
STAMP_NAME = "installed.json"
ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"
_ENTRY_CLASS = ENTRY_POINT.replace(".", "/") + ".class"
_MVN_TIMEOUT_S = 1800


def neo4j_version(version: str | None = None) -> str:
    """The Neo4j version to use: argument, else ``PROVGRAPH_NEO4J_VERSION``, else the pin."""
    return version or os.environ.get(VERSION_ENV) or NEO4J_VERSION


def cache_root(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where downloads live: argument, ``PROVGRAPH_CACHE_DIR``, ``$XDG_CACHE_HOME/provgraph``
    or ``~/.cache/provgraph``.  Outside the repository so that ``git clean`` and fresh
    clones reuse the 116 MB download."""
    if cache_dir is not None:
        return Path(cache_dir).expanduser()
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "provgraph"


def neo4j_home(version: str | None = None, cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """``<cache>/neo4j-<version>``: holds ``lib/``, the stamp file and Maven's log."""
    return cache_root(cache_dir) / f"neo4j-{neo4j_version(version)}"


def default_pom() -> Path:
    """``PROVGRAPH_NEO4J_POM`` or the repository's ``deploy/neo4j/pom.xml``."""
    if os.environ.get(POM_ENV):
        return Path(os.environ[POM_ENV])
    return Path(__file__).resolve().parents[2] / "deploy" / "neo4j" / "pom.xml"


def installed_lib(
    version: str | None = None, cache_dir: str | os.PathLike[str] | None = None
) -> Path | None:
    """The ``lib/`` folder if the stamp says it is complete, else ``None`` (no side effects)."""
    home = neo4j_home(version, cache_dir)
    lib = home / "lib"
    try:
        stamp = json.loads((home / STAMP_NAME).read_text())
    except (OSError, ValueError):
        return None
    if stamp.get("version") != neo4j_version(version) or not lib.is_dir():
        return None
    if len(list(lib.glob("*.jar"))) != stamp.get("jars"):
        return None
    return lib


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _has_entry_point(lib: Path) -> bool:
    for jar in lib.glob("neo4j-*.jar"):
        with contextlib.suppress(OSError, zipfile.BadZipFile), zipfile.ZipFile(jar) as archive:
            if _ENTRY_CLASS in archive.namelist():
                return True
    return False


def ensure_neo4j_installed(
    version: str | None = None,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
    pom: str | os.PathLike[str] | None = None,
    mvn_bin: str | os.PathLike[str] | None = None,
    java_bin: str | os.PathLike[str] | None = None,
) -> Path:
    """Return Neo4j's ``lib/`` folder, downloading it with Maven the first time.

    Idempotent and safe to call concurrently.  Needs ``mvn`` and Java 17/21 only
    when the stamp is missing; raises :class:`ToolMissingError` naming what is
    absent, or :class:`InstallError` with Maven's last output lines.
    """
    version = neo4j_version(version)
    home = neo4j_home(version, cache_dir)
    lib = installed_lib(version, cache_dir)
    if lib is not None:
        return lib
    with _locked(home.parent / f"neo4j-{version}.lock"):
        lib = installed_lib(version, cache_dir)
        if lib is not None:
            return lib
        return _download(version, home, Path(pom) if pom else default_pom(), mvn_bin, java_bin)


def _download(
    version: str,
    home: Path,
    pom: Path,
    mvn_bin: str | os.PathLike[str] | None,
    java_bin: str | os.PathLike[str] | None,
) -> Path:
    if not pom.is_file():
        raise InstallError(
            f"Maven project {pom} not found; run from a provgraph checkout or set {POM_ENV}"
        )
    java = find_java(java_bin)
    mvn = find_mvn(mvn_bin)
    home.mkdir(parents=True, exist_ok=True)
    partial = home / "lib.partial"
    shutil.rmtree(partial, ignore_errors=True)
    log = home / "mvn.log"
    env = dict(os.environ, JAVA_HOME=str(java.resolve().parent.parent))
    argv = [
        str(mvn),
        "-B",
        "--no-transfer-progress",
        "-f",
        str(pom),
        f"-Dneo4j.version={version}",
        f"-Dprovgraph.neo4j.lib={partial}",
        "dependency:copy-dependencies@neo4j-lib",
    ]
    started = time.monotonic()
    with log.open("w") as out:
        try:
            result = subprocess.run(
                argv,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=home,
                timeout=_MVN_TIMEOUT_S,
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise InstallError(
                f"Maven did not finish within {_MVN_TIMEOUT_S} s; see {log}", details=tail(log, 20)
            ) from exc
    if result.returncode != 0:
        raise InstallError(
            f"Maven could not assemble Neo4j {version} (exit {result.returncode}); "
            f"is Maven Central reachable? see {log}",
            details=tail(log, 25),
        )
    if not _has_entry_point(partial):
        raise InstallError(
            f"the jars Maven copied for Neo4j {version} lack {ENTRY_POINT}; see {log}"
        )
    lib = home / "lib"
    shutil.rmtree(lib, ignore_errors=True)
    partial.rename(lib)
    jars = sorted(lib.glob("*.jar"))
    stamp = {
        "version": version,
        "jars": len(jars),
        "bytes": sum(jar.stat().st_size for jar in jars),
        "seconds": round(time.monotonic() - started, 1),
        "installed_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    (home / STAMP_NAME).write_text(json.dumps(stamp, indent=2) + "\n")
    return lib
