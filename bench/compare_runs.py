"""Compare two runs of the quality benchmarks: what a change fixed, lost or moved.

Usage::

    python bench/hard_cases.py tests/verification/data/*.jsonl bench/data/*.jsonl --json > a.json
    # ... change the code ...
    python bench/hard_cases.py tests/verification/data/*.jsonl bench/data/*.jsonl --json > b.json
    python bench/compare_runs.py hard a.json b.json

    python bench/verify_quality.py --data ../shared/evaldata --json --dump-scores a.jsonl
    python bench/compare_runs.py dev a.jsonl b.jsonl

``hard``: the cases fixed and lost between two ``bench/hard_cases.py --json`` outputs (a
case of a file only one run scored is neither: a new probe is not a loss), and the failures
whose verdict changed. ``dev``: the rows of two ``--dump-scores`` files whose fused support
or contradiction moved, or whose verdict-deciding signals changed — a signal new in the
second run counts only when it is set (a new flag that is false everywhere moved nothing),
and the embedding cosine's last-digit noise between runs is left out unless the scores
moved. Sessions 33–34 compared runs this way by hand (the before/after figures in
docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

#: Signals whose float noise between two runs of the same code is not a change by itself.
_NOISY = frozenset(("embedding",))
_EPSILON = 1e-9


def _failures(run: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (name, case["id"]): case
        for name, result in run["files"].items()
        for case in result["failures"]
    }


def compare_hard(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """Fixed, lost and changed cases between two hard-case runs (files in both only)."""
    shared = set(before["files"]) & set(after["files"])
    was = {k: v for k, v in _failures(before).items() if k[0] in shared}
    now = {k: v for k, v in _failures(after).items() if k[0] in shared}
    changed = [
        {"case": list(k), "before": was[k]["got"], "after": now[k]["got"]}
        for k in sorted(set(was) & set(now))
        if was[k]["got"] != now[k]["got"]
    ]
    return {
        "passed": {
            name: [before["files"][name]["passed"], after["files"][name]["passed"]]
            for name in sorted(shared)
        },
        "fixed": [list(k) for k in sorted(set(was) - set(now))],
        "lost": [{"case": list(k), **now[k]} for k in sorted(set(now) - set(was))],
        "changed": changed,
    }


def _rows(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return {(r["file"], r["id"]): r for r in map(json.loads, filter(str.strip, lines))}


def compare_dev(before: Path, after: Path) -> list[dict[str, Any]]:
    """The rows whose scores or signals moved between two dumps of the same dev files."""
    was, now = _rows(before), _rows(after)
    moved: list[dict[str, Any]] = []
    for key in sorted(set(was) & set(now)):
        a, b = was[key], now[key]
        scores_moved = any(abs(a[s] - b[s]) > _EPSILON for s in ("support", "contradiction"))
        signals = sorted(
            name
            for name, value in b["signals"].items()
            if a["signals"].get(name, False) != value and (scores_moved or name not in _NOISY)
        )
        if scores_moved or signals:
            moved.append(
                {
                    "file": key[0],
                    "id": key[1],
                    "label": a["label"],
                    "support": [a["support"], b["support"]],
                    "contradiction": [a["contradiction"], b["contradiction"]],
                    "signals": signals,
                }
            )
    return moved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("hard", "dev"))
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.kind == "hard":
        result: Any = compare_hard(
            json.loads(args.before.read_text(encoding="utf-8")),
            json.loads(args.after.read_text(encoding="utf-8")),
        )
    else:
        result = compare_dev(args.before, args.after)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
