"""How often the consistency checks fire on dev rows, per label: before/after a rule change.

Usage::

    python bench/consistency_fires.py --data DIR [--rows 200] [--tree PATH] --out FILE
    python bench/consistency_fires.py --compare BEFORE.jsonl AFTER.jsonl

The first form runs :func:`~provgraph.verification.consistency.check_consistency`
(no model: claim against the first 6,000 characters of each candidate source,
as window and source) on ``--rows`` evenly spaced rows of every ``*.jsonl`` in
DIR, and writes one line per row and candidate: file, row, label, anchored
mismatches, unconfirmed values, agreements, negation conflict. ``--tree``
imports provgraph from another checkout (e.g. the base commit unpacked with
``git archive``), so both sides run the same script. ``--compare`` prints, per
file and label, how many rows each signal fires on in each run and how many
rows changed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from _evaldata import row_sources

WINDOW = 6000


def _rows(path: Path, n: int) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    if len(rows) > n:
        rows = [rows[(i * len(rows)) // n] for i in range(n)]
    return rows


def run(data: Path, rows: int, out: Path) -> None:
    from provgraph.verification.consistency import check_consistency

    with out.open("w", encoding="utf-8") as f:
        for path in sorted(data.glob("*.jsonl")):
            for i, row in enumerate(_rows(path, rows)):
                for j, source in enumerate(row_sources(row)):
                    text = source[:WINDOW]
                    r = check_consistency(str(row["claim"]), text, text)
                    line = {
                        "file": path.stem,
                        "row": i,
                        "candidate": j,
                        "label": row.get("label"),
                        "anchored": list(r.anchored_mismatches),
                        "unconfirmed": sorted(
                            set(r.year_mismatches + r.number_mismatches)
                            - set(r.anchored_mismatches)
                        ),
                        "agreed": list(r.agreements),
                        "negation": r.negation_mismatch,
                    }
                    f.write(json.dumps(line) + "\n")


def _load(path: Path) -> dict[tuple[str, int, int], dict[str, Any]]:
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x]
    return {(x["file"], x["row"], x["candidate"]): x for x in lines}


def compare(before: Path, after: Path) -> None:
    a, b = _load(before), _load(after)
    table: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for key, old in a.items():
        new = b.get(key)
        if new is None:
            continue
        c = table[(old["file"], str(old["label"]))]
        c["rows"] += 1
        for name in ("anchored", "unconfirmed", "agreed", "negation"):
            c[f"{name}_before"] += bool(old[name])
            c[f"{name}_after"] += bool(new[name])
        c["changed"] += any(old[n] != new[n] for n in ("anchored", "unconfirmed", "agreed"))
    print("file | label | rows | anchored mismatch b→a | unconfirmed b→a | agreed b→a | changed")
    for (file, label), c in sorted(table.items()):
        print(
            f"{file} | {label} | {c['rows']} | {c['anchored_before']}→{c['anchored_after']} | "
            f"{c['unconfirmed_before']}→{c['unconfirmed_after']} | "
            f"{c['agreed_before']}→{c['agreed_after']} | {c['changed']}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path)
    parser.add_argument("--rows", type=int, default=200)
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--compare", nargs=2, type=Path)
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
        return
    if args.data is None or args.out is None:
        parser.error("--data and --out are required (or --compare BEFORE AFTER)")
    sys.path.insert(0, str(args.tree.resolve()))
    run(args.data, args.rows, args.out)


if __name__ == "__main__":
    main()
