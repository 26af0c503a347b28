"""What ``*_status`` functions return: a plain, printable record."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ServiceStatus:
    """State of one local server as seen from its data directory.

    ``running`` means the process named by the pid file is alive and belongs
    to ``data_dir``; ``ready`` additionally means its port accepts connections.
    """

    name: str
    running: bool
    data_dir: Path
    pid: int | None = None
    uri: str | None = None
    ready: bool = False
    detail: str = ""

    def describe(self) -> str:
        """One human line, e.g. ``neo4j running (pid 42) at bolt://127.0.0.1:7687``."""
        if not self.running:
            suffix = f": {self.detail}" if self.detail else ""
            return f"{self.name} stopped ({self.data_dir}){suffix}"
        state = "running" if self.ready else "starting"
        where = f" at {self.uri}" if self.uri else ""
        extra = f"; {self.detail}" if self.detail else ""
        return f"{self.name} {state} (pid {self.pid}){where}{extra}"
