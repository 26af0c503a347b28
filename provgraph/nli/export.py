"""Export a training checkpoint into the shipped model folder ``provgraph/nli/model/``.

Usage::

    python -m provgraph.nli.export [--checkpoint DIR] [--checkpoint-dir DIR] [--out DIR]

Without ``--checkpoint`` the best checkpoint (held-out macro accuracy) of the
training directory is exported. Constraints and reasons:

* Weights are stored as fp16 safetensors (~45 MB for MiniLM-L6, under the 50 MB
  package-data cap) while ``config.json`` says ``dtype: float32``, so both
  ``AutoModelForSequenceClassification`` and ``sentence_transformers.CrossEncoder``
  upcast on load and run in fp32 on CPU (fp16 matmuls are slow there).
* ``id2label``/``label2id`` are written into ``config.json``; consumers read the
  label order from it.
* Only model files are replaced; ``README.md`` (model card) and ``NOTICE`` in the
  output folder are kept. ``export_info.json`` records the step, epochs done and
  held-out metrics of the exported checkpoint, for the model card.
* The folder is written next to the target and swapped in with renames, so a
  failed export never leaves a half-written model behind.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from provgraph.nli.checkpoints import best_checkpoint
from provgraph.nli.train_config import DEFAULT_CONFIG, load_config

DEFAULT_OUT = Path(__file__).with_name("model")
KEEP_FILES = ("README.md", "NOTICE")


def export(checkpoint: Path, out: Path) -> dict[str, Any]:
    """Write ``checkpoint`` as an fp16 model folder at ``out``; returns the export info."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    model = AutoModelForSequenceClassification.from_pretrained(
        checkpoint, local_files_only=True, dtype=torch.float32
    )
    tokenizer = AutoTokenizer.from_pretrained(checkpoint, local_files_only=True)
    state_file = checkpoint / "trainer_state.json"
    state = json.loads(state_file.read_text()) if state_file.exists() else {}
    history = state.get("history", [])
    metrics = next((h for h in reversed(history) if h["step"] == state.get("step")), None)

    tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    if tmp.exists():
        shutil.rmtree(tmp)
    model.half().save_pretrained(tmp, safe_serialization=True)
    tokenizer.save_pretrained(tmp)
    cfg_path = tmp / "config.json"
    cfg = json.loads(cfg_path.read_text())
    cfg["dtype"] = "float32"  # upcast on load: fp16 storage, fp32 CPU inference
    cfg.pop("torch_dtype", None)
    cfg_path.write_text(json.dumps(cfg, indent=2, sort_keys=True) + "\n")
    info = {
        "checkpoint": checkpoint.name,
        "step": state.get("step"),
        "pairs_seen": state.get("pairs_seen"),
        "train_hours": round(float(state.get("train_seconds", 0.0)) / 3600, 2),
        "heldout_sample_metrics": metrics,
        "labels": [cfg["id2label"][str(i)] for i in range(len(cfg["id2label"]))],
    }
    (tmp / "export_info.json").write_text(json.dumps(info, indent=2) + "\n")
    for f in tmp.iterdir():
        f.chmod(0o644)  # safetensors writes 0600; package data must be world-readable
    for name in KEEP_FILES:
        if (out / name).exists():
            shutil.copy2(out / name, tmp / name)
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    if out.exists():
        os.replace(out, old)
    os.replace(tmp, out)
    shutil.rmtree(old, ignore_errors=True)
    return info


def main(argv: list[str] | None = None) -> int:
    """CLI: export the best (or a given) checkpoint into the shipped folder."""
    ap = argparse.ArgumentParser(description="Export an NLI checkpoint as the shipped model.")
    ap.add_argument("--checkpoint", default=None, help="a step-NNNNNNN folder (default: best)")
    ap.add_argument("--checkpoint-dir", default=None, help="training dir (default: config)")
    ap.add_argument("--config", default=str(DEFAULT_CONFIG))
    ap.add_argument("--out", default=str(DEFAULT_OUT))
    args = ap.parse_args(argv)
    if args.checkpoint:
        ckpt: Path | None = Path(args.checkpoint).expanduser()
    else:
        ckpt_dir = args.checkpoint_dir or load_config(args.config)["paths"]["checkpoint_dir"]
        ckpt = best_checkpoint(Path(ckpt_dir).expanduser())
    if ckpt is None or not ckpt.is_dir():
        print(f"no checkpoint found ({ckpt}); train first: provgraph-train-nli", file=sys.stderr)
        return 2
    info = export(ckpt, Path(args.out))
    print(json.dumps(info, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
