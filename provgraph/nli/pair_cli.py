"""The command line shared by the pair generators: read a JSONL pair file, write the pairs made.

``python -m provgraph.nli.hardneg`` and ``python -m provgraph.nli.related_windows`` both
turn a pair file (the held-out set, to measure a model on the generated kind) into a
file of generated pairs in the training format, so that
``python -m provgraph.nli.evaluate --heldout <out>`` reports the accuracy per ``source``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from pathlib import Path

from provgraph.nli.data import LABELS, Pair, load_pairs

#: ``(pairs, fraction, seed) -> generated pairs``.
Generator = Callable[[Sequence[Pair], float, int], list[Pair]]


def write_pairs(path: str | Path, pairs: Sequence[Pair]) -> None:
    """``pairs`` as JSONL in the training format (label names, not ids)."""
    with open(path, "w", encoding="utf-8") as fh:
        for p in pairs:
            rec = {
                "premise": p.premise,
                "hypothesis": p.hypothesis,
                "label": LABELS[p.label],
                "source": p.source,
            }
            fh.write(json.dumps(rec) + "\n")


def run(argv: list[str] | None, description: str, generate: Generator) -> int:
    """Parse ``--input --out [--fraction 1.0] [--seed 1457]``, generate, write; exit code 0."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--input", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--fraction", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1457)
    args = ap.parse_args(argv)
    made = generate(load_pairs(args.input, LABELS), args.fraction, args.seed)
    write_pairs(args.out, made)
    print(f"{len(made)} pairs -> {args.out}")
    return 0
