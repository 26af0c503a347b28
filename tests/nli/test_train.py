"""The training loop runs, checkpoints atomically and resumes exactly (tiny model)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from provgraph.nli.checkpoints import best_checkpoint
from provgraph.nli.data import LABELS, epoch_batches, load_pairs, stratified_sample
from provgraph.nli.export import export
from provgraph.nli.runtime import load_nli_model
from provgraph.nli.train import train
from provgraph.nli.train_config import DEFAULT_CONFIG, load_config

SOURCES = ("alpha", "beta")


def _write_pairs(path: Path, n: int) -> Path:
    words = [
        "the",
        "bridge",
        "is",
        "closed",
        "open",
        "river",
        "city",
        "founded",
        "in",
        "1457",
        "1603",
        "cat",
        "dog",
    ]
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(n):
            premise = " ".join(words[(i + k) % len(words)] for k in range(5 + i % 7))
            rec = {
                "premise": premise,
                "hypothesis": " ".join(words[i % 5 : i % 5 + 3]),
                "label": LABELS[i % 3],
                "source": SOURCES[i % 2],
            }
            fh.write(json.dumps(rec) + "\n")
    return path


def _config(tmp_path: Path, base: Path, ckpt: str) -> dict[str, Any]:
    cfg = load_config(DEFAULT_CONFIG)
    cfg["paths"] = {
        "train": str(_write_pairs(tmp_path / "train.jsonl", 20)),
        "heldout": str(_write_pairs(tmp_path / "heldout.jsonl", 12)),
        "base_model": str(base),
        "checkpoint_dir": str(tmp_path / ckpt),
    }
    cfg["data"].update(max_len=32, bucket_batches=2, eval_sample=8, mix={})
    cfg["train"].update(
        batch_size=4,
        epochs=2,
        log_every_steps=1,
        eval_every_steps=2,
        threads=1,
        keep_last=2,
        patience=100,
    )
    return cfg


def _weights(folder: Path) -> dict[str, Any]:
    from safetensors.torch import load_file

    return load_file(str(folder / "model.safetensors"))


def test_three_steps_then_resume_is_exact(tmp_path: Path, tiny_model: Path) -> None:
    cfg = _config(tmp_path, tiny_model, "ckpt")
    state = train(cfg, resume=False, max_steps=3)
    assert state.step == 3
    assert (tmp_path / "ckpt" / "step-0000003" / "optimizer.pt").is_file()
    assert not list((tmp_path / "ckpt").glob(".tmp-*"))

    resumed = train(cfg, resume=True, max_steps=5)
    assert resumed.step == 5 and resumed.pairs_seen == 20
    log = [json.loads(line) for line in (tmp_path / "ckpt" / "train_log.jsonl").open()]
    starts = [r for r in log if r["event"] == "start"]
    assert starts[-1]["step"] == 3 and starts[-1]["resumed_from"].endswith("step-0000003")
    evals = [r for r in log if r["event"] == "eval"]
    assert evals and set(evals[0]["per_source"]) == set(SOURCES)

    straight = train(_config(tmp_path, tiny_model, "ckpt-straight"), resume=False, max_steps=5)
    assert straight.step == 5
    a = _weights(tmp_path / "ckpt" / "step-0000005")
    b = _weights(tmp_path / "ckpt-straight" / "step-0000005")
    assert all(bool((a[k] == b[k]).all()) for k in a)

    # keep_last=2 plus the best checkpoint survive pruning
    kept = sorted(p.name for p in (tmp_path / "ckpt").glob("step-*"))
    assert len(kept) <= 3 and "step-0000005" in kept


def test_export_writes_loadable_fp16_folder(tmp_path: Path, tiny_model: Path) -> None:
    cfg = _config(tmp_path, tiny_model, "ckpt")
    train(cfg, resume=False, max_steps=2)
    best = best_checkpoint(tmp_path / "ckpt")
    assert best is not None
    out = tmp_path / "model"
    out.mkdir()
    (out / "NOTICE").write_text("credits")
    info = export(best, out)
    assert info["step"] == 2 and info["labels"] == list(LABELS)
    assert (out / "NOTICE").read_text() == "credits"
    assert str(next(iter(_weights(out).values())).dtype) == "torch.float16"
    nli = load_nli_model(str(out))
    assert nli.labels == LABELS
    assert nli.predict([("the cat", "a dog")]).shape == (1, 3)


def test_batches_are_deterministic_and_cover_the_epoch() -> None:
    lengths = [i % 17 for i in range(101)]
    a = epoch_batches(lengths, 8, seed=1, epoch=0, bucket_batches=3)
    assert a == epoch_batches(lengths, 8, seed=1, epoch=0, bucket_batches=3)
    assert a != epoch_batches(lengths, 8, seed=1, epoch=1, bucket_batches=3)
    assert sorted(i for b in a for i in b) == list(range(101))


def test_stratified_sample_balances_sources(tmp_path: Path) -> None:
    pairs = load_pairs(_write_pairs(tmp_path / "p.jsonl", 30))
    sample = stratified_sample(pairs, 10, seed=0)
    assert len(sample) == 10
    assert sum(p.source == "alpha" for p in sample) == 5


def test_evaluate_cli_reports_per_source_accuracy(
    tmp_path: Path, tiny_model: Path, capsys: Any
) -> None:
    from provgraph.nli.evaluate import main as evaluate_main

    heldout = _write_pairs(tmp_path / "heldout.jsonl", 12)
    argv = ["--model", str(tiny_model), "--heldout", str(heldout), "--skip-speed", "--json"]
    assert evaluate_main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result["accuracy"]["per_source"]) == set(SOURCES)
    assert result["accuracy"]["n"] == 12


def test_total_steps_ends_the_run_with_the_schedule_at_zero(
    tmp_path: Path, tiny_model: Path
) -> None:
    cfg = _config(tmp_path, tiny_model, "ckpt")
    cfg["train"].update(epochs=3, total_steps=7, warmup_ratio=0.0)  # 5 batches per epoch
    state = train(cfg, resume=False)
    assert state.step == 7 and state.stopped == "completed"
    log = [json.loads(line) for line in (tmp_path / "ckpt" / "train_log.jsonl").open()]
    assert [r["total_steps"] for r in log if r["event"] == "start"] == [7]
    lrs = [r["lr"] for r in log if r["event"] == "train"]
    assert lrs[-1] == 0.0 and lrs[0] > lrs[-2] > 0.0


def test_unknown_precision_is_refused_with_the_setting_named(
    tmp_path: Path, tiny_model: Path
) -> None:
    cfg = _config(tmp_path, tiny_model, "ckpt")
    cfg["train"]["precision"] = "fp8"
    with pytest.raises(ValueError, match=r"train\.precision"):
        train(cfg, resume=False, max_steps=1)


def test_best_checkpoint_is_the_highest_macro_among_kept_ones(tmp_path: Path) -> None:
    history = [
        {"step": 500, "macro": 0.60},
        {"step": 1000, "macro": 0.70},  # tracked best (beat 0.60 by more than min_delta)
        {"step": 1500, "macro": 0.701},  # better by less than min_delta: still the better model
        {"step": 2000, "macro": 0.69},
    ]
    for step in (1000, 1500, 2000):
        folder = tmp_path / f"step-{step:07d}"
        folder.mkdir()
        state = {"best_step": 1000, "history": history}
        (folder / "trainer_state.json").write_text(json.dumps(state))
    assert best_checkpoint(tmp_path) == tmp_path / "step-0001500"
    (tmp_path / "step-0001500" / "trainer_state.json").unlink()
    (tmp_path / "step-0001500").rmdir()  # pruned: the best kept one wins
    assert best_checkpoint(tmp_path) == tmp_path / "step-0001000"
