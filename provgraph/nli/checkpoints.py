"""Training checkpoints of the NLI cross-encoder: the resumable state, atomic saves, the best one.

Split from the trainer so the exporter can find the best checkpoint without
loading the training loop. A checkpoint is a folder ``step-NNNNNNN/`` holding the
model, tokenizer, optimizer, scheduler, RNG states and :class:`TrainState`.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch


@dataclass
class TrainState:
    """Everything besides tensors that a resume needs (stored as JSON)."""

    step: int = 0
    epoch: int = 0
    batch_in_epoch: int = 0
    pairs_seen: int = 0
    train_seconds: float = 0.0
    best_macro: float = -1.0
    best_step: int = -1
    evals_since_best: int = 0
    stopped: str = ""
    history: list[dict[str, Any]] = field(default_factory=list)


def step_dirs(ckpt_dir: Path) -> list[Path]:
    """The checkpoint folders in ``ckpt_dir``, oldest first."""
    return sorted(p for p in ckpt_dir.glob("step-*") if p.is_dir())


def save_checkpoint(
    ckpt_dir: Path,
    model: Any,
    tokenizer: Any,
    optimizer: Any,
    scheduler: Any,
    state: TrainState,
    keep_last: int,
) -> Path:
    """Write ``step-NNNNNNN/`` atomically, then prune to the last ``keep_last`` + best."""
    final = ckpt_dir / f"step-{state.step:07d}"
    if final.exists():
        return final
    tmp = ckpt_dir / f".tmp-step-{state.step:07d}-{os.getpid()}"
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    model.save_pretrained(tmp, safe_serialization=True)
    tokenizer.save_pretrained(tmp)
    torch.save(optimizer.state_dict(), tmp / "optimizer.pt")
    torch.save(scheduler.state_dict(), tmp / "scheduler.pt")
    torch.save({"torch": torch.get_rng_state()}, tmp / "rng.pt")
    rng_py = random.getstate()
    (tmp / "trainer_state.json").write_text(
        json.dumps({**asdict(state), "python_rng": [rng_py[0], list(rng_py[1]), rng_py[2]]})
    )
    os.replace(tmp, final)
    keep = {p.name for p in step_dirs(ckpt_dir)[-keep_last:]}
    keep.add(f"step-{state.best_step:07d}")
    for p in step_dirs(ckpt_dir):
        if p.name not in keep:
            shutil.rmtree(p, ignore_errors=True)
    return final


def best_checkpoint(ckpt_dir: str | Path) -> Path | None:
    """The kept checkpoint with the highest held-out macro accuracy (ties: the later one).

    Read from the newest checkpoint's evaluation history. ``min_delta`` only
    governs early stopping: a later evaluation that beats the tracked best by
    less than it is still the better model (and, at the end of the schedule,
    the annealed one). Without any evaluated checkpoint, the newest one.
    """
    dirs = step_dirs(Path(ckpt_dir))
    if not dirs:
        return None
    state = json.loads((dirs[-1] / "trainer_state.json").read_text())
    kept = {int(d.name.split("-")[1]): d for d in dirs}
    scored = [(h["macro"], h["step"]) for h in state.get("history", []) if h["step"] in kept]
    return kept[max(scored)[1]] if scored else dirs[-1]
