"""Finding the external programs the runners need: java, mvn.

Lookup order for each: explicit argument, then an environment variable
(``PROVGRAPH_JAVA`` / ``PROVGRAPH_MVN``), then ``$JAVA_HOME/bin/java`` (java
only), then ``PATH``.  Neo4j 5.26 supports Java 17 and 21 only; 2025.x needs
21+.  We refuse other majors up front because a wrong JVM otherwise fails deep
inside the server with an unhelpful stack trace.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from provgraph.ops.errors import ToolMissingError

JAVA_ENV = "PROVGRAPH_JAVA"
MVN_ENV = "PROVGRAPH_MVN"
SUPPORTED_JAVA = (17, 21)
"""Inclusive range of Java majors Neo4j 5.26 runs on (17 and 21 are the supported LTSs)."""

_INSTALL_JAVA = "install it with `apt-get install -y openjdk-17-jre-headless`"
_VERSION_RE = re.compile(r'version "(\d+)(?:\.(\d+))?')


def _resolve(explicit: str | os.PathLike[str] | None, env_name: str, name: str) -> Path | None:
    candidate = explicit if explicit is not None else os.environ.get(env_name)
    if candidate:
        path = Path(candidate)
        if path.is_file() and os.access(path, os.X_OK):
            return path.resolve()
        found = shutil.which(str(candidate))
        return Path(found) if found else None
    if name == "java" and os.environ.get("JAVA_HOME"):
        home_java = Path(os.environ["JAVA_HOME"]) / "bin" / "java"
        if home_java.is_file() and os.access(home_java, os.X_OK):
            return home_java
    found = shutil.which(name)
    return Path(found) if found else None


def java_major(java: Path) -> int:
    """The major version reported by ``java -version`` (``1.8`` counts as 8)."""
    try:
        out = subprocess.run(
            [str(java), "-version"], capture_output=True, text=True, timeout=30, check=False
        )
    except OSError as exc:
        raise ToolMissingError(f"cannot run java at {java}: {exc.strerror}") from exc
    match = _VERSION_RE.search(out.stderr + out.stdout)
    if match is None:
        raise ToolMissingError(
            f"cannot tell the version of java at {java} (`java -version` said "
            f"{(out.stderr or out.stdout).strip()[:120]!r})"
        )
    major = int(match.group(1))
    if major == 1 and match.group(2):
        major = int(match.group(2))
    return major


def find_java(java_bin: str | os.PathLike[str] | None = None) -> Path:
    """Locate a Java 17–21 runtime or raise :class:`ToolMissingError` saying how to get one."""
    explicit = java_bin if java_bin is not None else os.environ.get(JAVA_ENV)
    java = _resolve(java_bin, JAVA_ENV, "java")
    if java is None:
        where = f"at {explicit}" if explicit else "on PATH or in $JAVA_HOME"
        raise ToolMissingError(
            f"java not found {where}; Neo4j 5.26 needs Java 17 or 21: "
            f"{_INSTALL_JAVA} (or set {JAVA_ENV})"
        )
    major = java_major(java)
    low, high = SUPPORTED_JAVA
    if not low <= major <= high:
        raise ToolMissingError(
            f"java at {java} is Java {major}; Neo4j 5.26 needs Java 17 or 21 "
            f"(set {JAVA_ENV} to one, or {_INSTALL_JAVA})"
        )
    return java


def find_mvn(mvn_bin: str | os.PathLike[str] | None = None) -> Path:
    """Locate Maven or raise :class:`ToolMissingError` (only needed for the first download)."""
    mvn = _resolve(mvn_bin, MVN_ENV, "mvn")
    if mvn is None:
        raise ToolMissingError(
            "mvn (Maven) not found; it is needed once to download Neo4j's jars "
            f"from Maven Central: `apt-get install -y maven`, or set {MVN_ENV}"
        )
    return mvn
