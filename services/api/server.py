"""Run the API under uvicorn (what ``provgraph serve`` calls; the CLI never imports uvicorn)."""

from __future__ import annotations

import os

import uvicorn

from provgraph.config import load_settings


def run(host: str = "127.0.0.1", port: int = 8000, *, auth: bool = True) -> None:
    """Serve ``services.api.app:create_app`` on ``host:port``; ``auth=False`` for local dev only."""
    if not auth:
        os.environ["PROVGRAPH_AUTH"] = "false"
    load_settings()  # fail fast, naming the variable, before uvicorn starts
    uvicorn.run(
        "services.api.app:create_app",
        factory=True,
        host=host,
        port=port,
        access_log=False,  # the app writes its own JSON access log with request ids
        log_level="info",
    )
