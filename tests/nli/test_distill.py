"""Distillation: teacher labelling (order, label mapping, resume) and the distilled loss."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import torch

from provgraph.nli.data import LABELS, load_pairs
from provgraph.nli.distill import label, student_pairs
from provgraph.nli.losses import teacher_tensor, training_loss
from provgraph.nli.runtime import load_nli_model
from provgraph.nli.train import train
from tests.nli.test_train import _config


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.open(encoding="utf-8")]


def test_without_a_teacher_the_loss_is_cross_entropy() -> None:
    logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3]])
    target = torch.tensor([0, 2])
    ce = torch.nn.functional.cross_entropy(logits, target)
    assert torch.isclose(training_loss(logits, target), ce)
    teacher = torch.log_softmax(torch.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]), dim=-1)
    assert torch.isclose(training_loss(logits, target, teacher, alpha=0.0), ce)


def test_the_distilled_loss_pulls_towards_the_teacher() -> None:
    target = torch.tensor([0])
    teacher = torch.log(torch.tensor([[0.2, 0.7, 0.1]]))
    agrees = torch.log(torch.tensor([[0.2, 0.7, 0.1]]))
    disagrees = torch.log(torch.tensor([[0.7, 0.2, 0.1]]))
    only_kl = {"alpha": 1.0, "temperature": 2.0}
    assert training_loss(agrees, target, teacher, **only_kl).item() == pytest.approx(0.0, abs=1e-6)
    assert training_loss(disagrees, target, teacher, **only_kl).item() > 0.05
    # half and half: between the pure terms
    mixed = training_loss(disagrees, target, teacher, alpha=0.5, temperature=2.0).item()
    ce = training_loss(disagrees, target).item()
    kl = training_loss(disagrees, target, teacher, **only_kl).item()
    assert mixed == pytest.approx(0.5 * ce + 0.5 * kl, rel=1e-5)
    with pytest.raises(ValueError, match="alpha"):
        training_loss(disagrees, target, teacher, alpha=1.5)


def test_a_batch_uses_the_teacher_only_when_every_pair_has_one() -> None:
    assert teacher_tensor([(0.0, -1.0, -2.0), None]) is None
    t = teacher_tensor([(0.0, -1.0, -2.0), (-2.0, -1.0, 0.0)])
    assert t is not None and t.shape == (2, 3)


def test_labelling_maps_the_teacher_labels_by_name_and_resumes(
    tmp_path: Path, make_tiny_model: Callable[..., Path]
) -> None:
    cfg = _config(tmp_path, tmp_path / "unused", "ckpt")
    standard = load_nli_model(str(make_tiny_model(tmp_path / "std", seed=3)), threads=1)
    perm = [2, 0, 1]
    permuted_labels = tuple(LABELS[i] for i in perm)
    permuted = load_nli_model(
        str(make_tiny_model(tmp_path / "perm", labels=permuted_labels, seed=3, perm=perm)),
        threads=1,
    )
    out_std, out_perm = tmp_path / "std.jsonl", tmp_path / "perm.jsonl"
    assert label(cfg, standard, out_std, limit=0, batch_size=4) == 20
    # stopped after 7 pairs, then resumed: the same file as one run
    assert label(cfg, permuted, out_perm, limit=7, batch_size=4) == 7
    assert label(cfg, permuted, out_perm, limit=0, batch_size=4) == 20
    a, b = _read(out_std), _read(out_perm)
    assert [r["hypothesis"] for r in a] == [r["hypothesis"] for r in b]
    for ra, rb in zip(a, b, strict=True):
        assert ra["teacher"] == pytest.approx(rb["teacher"], abs=2e-4)
        assert sum(math.exp(v) for v in ra["teacher"]) == pytest.approx(1.0, abs=1e-3)
    # a seeded shuffle of the config's pairs, each once, with gold labels kept
    pairs = student_pairs(cfg)
    assert [p.hypothesis for p in pairs] == [r["hypothesis"] for r in a]
    assert [p.premise for p in pairs] == [r["premise"] for r in a]
    assert [LABELS[p.label] for p in pairs] == [r["label"] for r in a]
    assert all(p.teacher is not None for p in load_pairs(out_std))


def test_a_distilled_run_trains_on_the_teacher_file(
    tmp_path: Path, make_tiny_model: Callable[..., Path]
) -> None:
    teacher_dir = make_tiny_model(tmp_path / "teacher", seed=5)
    student_dir = make_tiny_model(tmp_path / "student", seed=1)
    cfg = _config(tmp_path, student_dir, "ckpt")
    labelled = tmp_path / "teacher.jsonl"
    label(cfg, load_nli_model(str(teacher_dir), threads=1), labelled, limit=12, batch_size=4)
    cfg["distill"] = {"teacher_labels": str(labelled), "alpha": 1.0, "temperature": 1.0}
    state = train(cfg, resume=False, max_steps=3)
    assert state.step == 3
    start = next(r for r in _read(tmp_path / "ckpt" / "train_log.jsonl") if r["event"] == "start")
    assert start["train_pairs"] == 12  # the teacher file's pairs, not paths.train's 20

    (tmp_path / "bad.jsonl").write_text(
        json.dumps({"premise": "a", "hypothesis": "b", "label": "neutral"}) + "\n"
    )
    cfg["distill"]["teacher_labels"] = str(tmp_path / "bad.jsonl")
    cfg["paths"]["checkpoint_dir"] = str(tmp_path / "ckpt-bad")
    with pytest.raises(ValueError, match="teacher"):
        train(cfg, resume=False, max_steps=1)


def test_a_teacher_row_of_the_wrong_length_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    row = {"premise": "a", "hypothesis": "b", "label": "neutral", "teacher": [0.0, -1.0]}
    path.write_text(json.dumps(row) + "\n")
    with pytest.raises(ValueError, match=r"t\.jsonl:1"):
        load_pairs(path)
