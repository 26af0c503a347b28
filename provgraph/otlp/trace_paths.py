"""Machine paths out of exported stack traces: keep where it failed, not whose machine it was.

An OTLP ``exception.stacktrace`` names files by their absolute path on the
producer's machine: home directories (a user name), virtual-environment and
interpreter locations. Stored as ``data.error_stacktrace_tail`` they would reach
exports and every reader of the project. Each absolute path (POSIX or Windows)
of three or more parts is cut to what names the module:

- after the last ``site-packages``/``dist-packages`` (an installed package:
  ``httpx/_client.py``);
- after ``lib/pythonX.Y`` or a Windows ``Lib`` folder (the standard library:
  ``asyncio/tasks.py``);
- otherwise its last two parts (``app/agent.py``), or only the file name when
  its folder is a home directory (``/home/<user>``, ``/Users/<user>``,
  ``C:\\Users\\<user>``, ``/root``).

Shorter absolute paths (``/v1/events`` in a message) are left alone; so are
relative ones and the paths of ``http(s)://`` URLs. Line numbers and function
names are kept.
"""

from __future__ import annotations

import re

_POSIX = re.compile(r"(?:(?<=file://)|(?<![\w.~:/]))/(?:[^\s\"'()<>:,;/]+/)+[^\s\"'()<>:,;/]+")
"""An absolute POSIX path, not a URL's path (``https://host/a/b``) but a ``file://`` one."""
_WINDOWS = re.compile(r"\b[A-Za-z]:\\(?:[^\s\"'()<>:,;\\]+\\)+[^\s\"'()<>:,;\\]+")
_PACKAGES = ("site-packages", "dist-packages")
_STDLIB = re.compile(r"^python\d+(?:\.\d+)?$", re.IGNORECASE)
_HOMES = ("home", "users")
MIN_PARTS = 3


def module_path(parts: list[str]) -> str:
    """The module-naming tail of an absolute path split into its parts (see module doc)."""
    lowered = [p.lower() for p in parts]
    for marker in _PACKAGES:
        if marker in lowered:
            at = len(lowered) - 1 - lowered[::-1].index(marker)
            return "/".join(parts[at + 1 :])
    for at in range(len(parts) - 1, 0, -1):
        if _STDLIB.match(parts[at]) and lowered[at - 1] == "lib":
            return "/".join(parts[at + 1 :])
    for at in range(len(parts) - 1):
        if lowered[at] == "lib" and parts[at] == "Lib":  # Windows: C:\Python311\Lib\…
            return "/".join(parts[at + 1 :])
    folder = lowered[-2]
    parent = lowered[-3] if len(lowered) >= 3 else ""
    if parent in _HOMES or folder == "root":
        return parts[-1]
    return "/".join(parts[-2:])


def _posix(match: re.Match[str]) -> str:
    parts = match.group(0).split("/")[1:]
    return match.group(0) if len(parts) < MIN_PARTS else module_path(parts)


def _windows(match: re.Match[str]) -> str:
    parts = match.group(0).split("\\")[1:]
    return match.group(0) if len(parts) < MIN_PARTS else module_path(parts)


def strip_machine_paths(trace: str) -> str:
    """``trace`` with every absolute file path cut to the module it names."""
    return _WINDOWS.sub(_windows, _POSIX.sub(_posix, trace))
