"""Held-out evaluation of an NLI cross-encoder: 3-way accuracy per source and speed.

Usage::

    python -m provgraph.nli.evaluate [--model PATH] [--heldout FILE] [--threads N]
                                     [--precision auto] [--sample 1500] [--json]

Accuracy is computed on ``heldout.jsonl`` of ``../shared/nli-train/`` (split by
group, so no premise is also in training). Speed is pairs/s on synthetic pairs
padded to exactly 128 and 256 tokens, the two lengths the issue asks about.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import torch

from provgraph.nli.data import Pair, encode, load_pairs, stratified_sample
from provgraph.nli.precision import PRECISIONS, autocast

DEFAULT_HELDOUT = "../shared/nli-train/heldout.jsonl"


def model_labels(model: Any) -> tuple[str, ...]:
    """Label names in column order, read from the model's ``id2label``."""
    id2label = model.config.id2label
    return tuple(str(id2label[i]).lower() for i in range(len(id2label)))


@torch.inference_mode()
def accuracy_by_source(
    model: Any,
    tokenizer: Any,
    pairs: Sequence[Pair],
    *,
    labels: Sequence[str],
    max_len: int = 256,
    batch_size: int = 32,
    bf16: bool = False,
) -> dict[str, Any]:
    """3-way accuracy per source, their unweighted mean (``macro``) and overall accuracy.

    ``pairs`` carry label ids in the order of ``labels``; predictions are mapped
    through the model's own ``id2label``, so a model with another label order is
    scored correctly. ``bf16`` runs the forward pass under bf16 autocast (the
    runtime's precision on CPUs with native bf16). Restores the model's train/eval
    mode afterwards.
    """
    was_training = model.training
    model.eval()
    mapping = [list(labels).index(name) for name in model_labels(model)]
    order = sorted(
        range(len(pairs)), key=lambda i: len(pairs[i].premise) + len(pairs[i].hypothesis)
    )
    correct: dict[str, int] = defaultdict(int)
    total: dict[str, int] = defaultdict(int)
    for start in range(0, len(order), batch_size):
        batch = [pairs[i] for i in order[start : start + batch_size]]
        enc = encode(tokenizer, [p.premise for p in batch], [p.hypothesis for p in batch], max_len)
        with autocast("bf16" if bf16 else "fp32"):
            pred = model(**enc).logits.argmax(dim=-1).tolist()
        for p, k in zip(batch, pred, strict=True):
            total[p.source] += 1
            correct[p.source] += int(mapping[k] == p.label)
    if was_training:
        model.train()
    per_source = {s: correct[s] / total[s] for s in sorted(total)}
    n = sum(total.values())
    return {
        "per_source": {s: round(a, 4) for s, a in per_source.items()},
        "macro": round(sum(per_source.values()) / max(1, len(per_source)), 4),
        "overall": round(sum(correct.values()) / max(1, n), 4),
        "n": n,
    }


def pairs_per_second(
    predict: Any, tokenizer: Any, n_tokens: int, *, n_pairs: int = 256, batch_size: int = 32
) -> float:
    """Throughput of ``predict(pairs, batch_size=...)`` on pairs of ~``n_tokens`` tokens.

    The premise is cut so that ``[CLS] premise [SEP] claim [SEP]`` is exactly
    ``n_tokens`` tokens (nothing is truncated by the model's ``max_len``); one
    warm-up batch is not timed. Tokenisation is inside the timed part, as in use.
    """
    claim = "The bridge over the river was closed to traffic in 1998."
    filler = "The city council met on Tuesday to discuss the budget for the next year. "
    claim_len = len(tokenizer(claim, add_special_tokens=False)["input_ids"])
    premise_ids = tokenizer(filler * (n_tokens // 8 + 4), add_special_tokens=False, verbose=False)[
        "input_ids"
    ]
    premise = tokenizer.decode(premise_ids[: n_tokens - claim_len - 3])  # [CLS] p [SEP] h [SEP]
    ids = tokenizer(premise, claim)["input_ids"]
    if len(ids) != n_tokens:
        raise RuntimeError(f"benchmark pair has {len(ids)} tokens, wanted {n_tokens}")
    pairs = [(premise, claim)] * n_pairs
    predict(pairs[:batch_size], batch_size=batch_size)
    t0 = time.perf_counter()
    predict(pairs, batch_size=batch_size)
    return n_pairs / (time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> int:
    """CLI: print held-out accuracy per source and pairs/s at 128 and 256 tokens."""
    from provgraph.nli.runtime import load_nli_model

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--model", default=None, help="model folder or HF id (default: shipped)")
    ap.add_argument("--heldout", default=DEFAULT_HELDOUT)
    ap.add_argument("--threads", type=int, default=None, help="default: usable CPUs")
    ap.add_argument(
        "--precision", default="auto", choices=PRECISIONS, help="auto = bf16 on native-bf16 CPUs"
    )
    ap.add_argument("--max-len", type=int, default=256)
    ap.add_argument(
        "--sample",
        type=int,
        default=0,
        help="evaluate the fixed stratified sample of N pairs that training evaluates "
        "(seed from train_config.toml); 0 = the whole held-out file",
    )
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)

    nli = load_nli_model(args.model, threads=args.threads, precision=args.precision)
    torch.set_num_threads(nli.threads or 1)
    pairs = load_pairs(args.heldout)
    if args.sample:
        from provgraph.nli.train_config import DEFAULT_CONFIG, load_config

        seed = int(load_config(DEFAULT_CONFIG)["train"]["seed"])
        pairs = stratified_sample(pairs, args.sample, seed)
    t0 = time.perf_counter()
    acc = accuracy_by_source(
        nli.model,
        nli.tokenizer,
        pairs,
        labels=("entailment", "neutral", "contradiction"),
        max_len=args.max_len,
        bf16=nli.precision == "bf16",
    )
    result: dict[str, Any] = {
        "model": nli.source,
        "threads": nli.threads,
        "precision": nli.precision,
        "pairs": "sample" if args.sample else "all",
        "accuracy": acc,
        "eval_seconds": round(time.perf_counter() - t0, 1),
    }
    if not args.skip_speed:
        result["pairs_per_s"] = {
            str(n): round(pairs_per_second(nli.predict, nli.tokenizer, n), 1) for n in (128, 256)
        }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"model: {result['model']}  threads: {nli.threads}  precision: {nli.precision}")
        for s, a in acc["per_source"].items():
            print(f"  {s:22s} {a:.3f}")
        print(f"  {'macro':22s} {acc['macro']:.3f}\n  {'overall':22s} {acc['overall']:.3f}")
        for n, v in result.get("pairs_per_s", {}).items():
            print(f"pairs/s @ {n} tokens: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
