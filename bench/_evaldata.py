"""Reading ``../shared/evaldata`` rows (no provgraph import: scripts that load
provgraph from another checkout, like ``consistency_fires.py --tree``, use it too)."""

from __future__ import annotations

from typing import Any


def row_sources(row: dict[str, Any]) -> list[str]:
    """The texts a row's claim is checked against: WiCE oracle chunks, Factcheck-GPT
    coverage candidates, or the single ``source``."""
    extra = row.get("extra") or {}
    if extra.get("chunks"):
        return [str(c) for c in extra["chunks"]]
    if extra.get("candidates"):
        return [str(c.get("source", "")) for c in extra["candidates"]]
    return [str(row.get("source", ""))]
