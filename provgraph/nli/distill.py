"""Label training pairs with a teacher NLI model, for distilling it into the shipped one.

``python -m provgraph.nli.distill --config <student config> --teacher <model folder>
--out teacher.jsonl [--limit N]`` runs the teacher (e.g. the mpnet-1 export, too
large to ship: docs/nli-model.md) over the student's training pairs and writes
one JSONL line per pair: the pair as in ``train.jsonl`` plus ``teacher``, the
teacher's log-probabilities in the student's label order. A student run names
that file as its ``[distill] teacher_labels`` and learns from both the gold label
and the teacher's distribution (:func:`provgraph.nli.losses.training_loss`).
Constraints and reasons:

* The pairs are the ones the student config would train on (its mix and hard
  negatives), in a seeded random order: a labelling stopped after N pairs is a
  uniform sample of them, so the teacher's time (~25 pairs/s for mpnet on two
  cores) can be spent in whatever slice a session has.
* Resumable: lines already in ``--out`` are counted and skipped, and each chunk
  is appended whole and flushed, so an interrupted run loses at most one chunk.
* The teacher's labels are mapped by name through its ``id2label``: a teacher
  with another column order still yields the student's order.
* Log-probabilities rather than probabilities, so a student can re-temper them
  (``softmax(logp / T)``) without the zeros that rounded probabilities carry.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from provgraph.nli.data import Pair
from provgraph.nli.runtime import NLIModel, load_nli_model
from provgraph.nli.train import mixed_pairs
from provgraph.nli.train_config import DEFAULT_CONFIG, load_config

#: Pairs per teacher call: sorted by length inside it, so batches pad little.
CHUNK = 512


def student_pairs(cfg: dict[str, object]) -> list[Pair]:
    """The student config's training pairs (mix + hard negatives), in a seeded random order."""
    paths, data_cfg, tc = cfg["paths"], cfg["data"], cfg["train"]
    assert isinstance(paths, dict) and isinstance(data_cfg, dict) and isinstance(tc, dict)
    seed = int(tc["seed"])
    pairs = mixed_pairs(paths["train"], tuple(data_cfg["labels"]), data_cfg, seed)
    order = np.random.default_rng([seed, 7]).permutation(len(pairs))
    return [pairs[i] for i in order.tolist()]


def teacher_log_probs(
    teacher: NLIModel, pairs: Sequence[Pair], labels: Sequence[str], batch_size: int
) -> np.ndarray:
    """Teacher log-probabilities ``[len(pairs), len(labels)]`` in the student's label order."""
    missing = [name for name in labels if name not in teacher.labels]
    if missing:
        raise ValueError(f"teacher {teacher.source} has no label(s) {missing}: {teacher.labels}")
    probs = teacher.predict([(p.premise, p.hypothesis) for p in pairs], batch_size=batch_size)
    cols = [teacher.labels.index(name) for name in labels]
    log_probs: np.ndarray = np.log(np.clip(probs[:, cols], 1e-7, 1.0))
    return log_probs


def _already_written(out: Path) -> int:
    if not out.exists():
        return 0
    with open(out, encoding="utf-8") as fh:
        return sum(1 for line in fh if line.strip())


def label(
    cfg: dict[str, object],
    teacher: NLIModel,
    out: Path,
    *,
    limit: int,
    batch_size: int = 32,
) -> int:
    """Append teacher labels for the next pairs up to ``limit`` in all; returns the total."""
    data_cfg = cfg["data"]
    assert isinstance(data_cfg, dict)
    labels = list(data_cfg["labels"])
    pairs = student_pairs(cfg)
    end = min(limit or len(pairs), len(pairs))
    done = _already_written(out)
    t0, start_done = time.perf_counter(), done
    while done < end:
        chunk = pairs[done : min(done + CHUNK, end)]
        logp = teacher_log_probs(teacher, chunk, labels, batch_size)
        with open(out, "a", encoding="utf-8") as fh:
            for pair, row in zip(chunk, logp, strict=True):
                rec = {
                    "premise": pair.premise,
                    "hypothesis": pair.hypothesis,
                    "label": labels[pair.label],
                    "source": pair.source,
                    "teacher": [round(float(v), 4) for v in row],
                }
                fh.write(json.dumps(rec) + "\n")
            fh.flush()
        done += len(chunk)
        rate = (done - start_done) / max(1e-9, time.perf_counter() - t0)
        print(json.dumps({"labelled": done, "of": end, "pairs_per_s": round(rate, 1)}), flush=True)
    return done


def main(argv: list[str] | None = None) -> int:
    """CLI entry point."""
    ap = argparse.ArgumentParser(description="Label NLI training pairs with a teacher model.")
    ap.add_argument("--config", default=str(DEFAULT_CONFIG), help="the student's training config")
    ap.add_argument("--teacher", required=True, help="teacher model folder")
    ap.add_argument("--out", required=True, help="JSONL to append to (resumable)")
    ap.add_argument("--limit", type=int, default=0, help="label this many pairs in all (0: all)")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--batch-size", type=int, default=32)
    args = ap.parse_args(argv)
    cfg = load_config(args.config)
    teacher = load_nli_model(args.teacher, threads=args.threads or None, precision="auto")
    label(cfg, teacher, Path(args.out), limit=args.limit, batch_size=args.batch_size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
