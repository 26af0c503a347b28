"""``<data_dir>/credentials.env``: the Neo4j URI, user and password of an instance.

Written with mode 0600 before the first start (so a crash mid-start never
loses the generated password) in ``KEY=value`` form that both ``set -a; .
credentials.env`` and dotenv readers understand.  The names are the ones the
project's settings read: ``PROVGRAPH_NEO4J_URI``, ``PROVGRAPH_NEO4J_USER``,
``PROVGRAPH_NEO4J_PASSWORD``.
"""

from __future__ import annotations

import os
import re
import secrets
import shlex
from pathlib import Path

CREDENTIALS_NAME = "credentials.env"
URI_VAR = "PROVGRAPH_NEO4J_URI"
USER_VAR = "PROVGRAPH_NEO4J_USER"
PASSWORD_VAR = "PROVGRAPH_NEO4J_PASSWORD"
MIN_PASSWORD_LENGTH = 8
"""Neo4j 5's default ``dbms.security.auth_minimum_password_length``."""

_PLAIN = re.compile(r"^[A-Za-z0-9_.:/@+=~-]*$")


def generate_password() -> str:
    """32 URL-safe random characters: no quoting needed anywhere.

    Never starts with ``-`` (or ``_``), so that no command line can mistake it
    for an option.
    """
    while True:
        password = secrets.token_urlsafe(24)
        if password[0].isalnum():
            return password


def _quote(value: str) -> str:
    return value if _PLAIN.match(value) else shlex.quote(value)


def write_credentials(data_dir: Path, *, uri: str, user: str, password: str) -> Path:
    """Write ``credentials.env`` atomically with mode 0600 and return its path."""
    path = data_dir / CREDENTIALS_NAME
    tmp = path.with_name(path.name + ".tmp")
    text = (
        "# Neo4j credentials written by provgraph.ops (load: set -a; . ./credentials.env; set +a)\n"
        f"{URI_VAR}={_quote(uri)}\n{USER_VAR}={_quote(user)}\n{PASSWORD_VAR}={_quote(password)}\n"
    )
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(text)
    tmp.replace(path)
    return path


def read_credentials(data_dir: Path) -> dict[str, str]:
    """The variables in ``credentials.env`` (empty when the file does not exist)."""
    try:
        text = (data_dir / CREDENTIALS_NAME).read_text()
    except OSError:
        return {}
    values: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#") or "=" not in line:
            continue
        key, raw = line.split("=", 1)
        parts = shlex.split(raw) if raw.strip() else [""]
        values[key.strip()] = parts[0] if parts else ""
    return values
