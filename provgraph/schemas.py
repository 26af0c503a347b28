"""Exported JSON Schemas kept in ``docs/schema/`` (the contract, reviewed as a diff).

``python -m provgraph.schemas --write`` regenerates them; a test fails when the
code and the files drift apart.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from provgraph.events import event_json_schema

DOCS_SCHEMA_DIR = Path(__file__).resolve().parents[1] / "docs" / "schema"


def _report_schema() -> dict[str, Any]:
    from provgraph.verification.report import VerificationReport

    schema = VerificationReport.model_json_schema()
    schema["$id"] = "https://provgraph.dev/schema/verification-report-v1.json"
    return schema


EXPORTED: dict[str, Callable[[], dict[str, Any]]] = {
    "event-v1.json": event_json_schema,
    "verification-report-v1.json": _report_schema,
}


def render(name: str) -> str:
    """The exact file text for one exported schema."""
    return json.dumps(EXPORTED[name](), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="rewrite docs/schema/*.json")
    args = parser.parse_args(argv)
    stale = []
    for name in EXPORTED:
        target = DOCS_SCHEMA_DIR / name
        text = render(name)
        if args.write:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        elif not target.exists() or target.read_text(encoding="utf-8") != text:
            stale.append(name)
    for name in stale:
        print(f"docs/schema/{name} is out of date: run `python -m provgraph.schemas --write`")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
