"""The evaluation history of a training run as a Markdown table (for the model card).

Usage: ``python -m provgraph.nli.history [--log ~/.cache/provgraph/nli-train/train_log.jsonl]``

Reads the ``eval`` records of the JSONL training log; when a step was evaluated
more than once (a resumed run re-evaluates), the last record wins. Tables in
the model card and docs/nli-model.md are printed by this, not typed by hand.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

DEFAULT_LOG = "~/.cache/provgraph/nli-train/train_log.jsonl"


def eval_records(log: Path) -> list[dict[str, Any]]:
    """The last ``eval`` record per step, in step order."""
    by_step: dict[int, dict[str, Any]] = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        if rec.get("event") == "eval":
            by_step[int(rec["step"])] = rec
    return [by_step[s] for s in sorted(by_step)]


def markdown_table(records: list[dict[str, Any]]) -> str:
    """One row per evaluation: step, epoch, accuracy per source, macro, overall."""
    if not records:
        return "(no evaluations logged)"
    sources = sorted({s for r in records for s in r["per_source"]})
    head = ["step", "epochs", *sources, "macro", "overall"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in records:
        cells = [str(r["step"]), f"{r['epoch']:.3f}"]
        cells += [f"{r['per_source'].get(s, float('nan')):.3f}" for s in sources]
        cells += [f"**{r['macro']:.3f}**", f"{r['overall']:.3f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--log", default=DEFAULT_LOG)
    args = ap.parse_args(argv)
    print(markdown_table(eval_records(Path(args.log).expanduser())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
