"""Data handling for the NLI cross-encoder: loading, mixing, bucketing, encoding.

Everything here is deterministic given a seed, because exact resume depends on it:
the batch order of an epoch is a pure function of ``(seed, epoch)`` and the data,
so a checkpoint only has to store the position ``(epoch, batch_in_epoch)``.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

#: The label order used for training; written into ``config.json`` as ``id2label``.
#: Consumers must read the order from ``id2label``, never rely on this tuple.
LABELS: tuple[str, ...] = ("entailment", "neutral", "contradiction")


@dataclass(frozen=True)
class Pair:
    """One premise/hypothesis pair with its label id and originating source."""

    premise: str
    hypothesis: str
    label: int
    source: str
    #: A teacher model's log-probabilities in label order (distillation data only).
    teacher: tuple[float, ...] | None = None


def load_pairs(path: str | Path, labels: Sequence[str] = LABELS) -> list[Pair]:
    """Read a JSONL file of ``{premise, hypothesis, label, source}`` objects.

    Raises ``ValueError`` naming the line when a label is not one of ``labels``,
    so a changed data set fails loudly instead of training on wrong targets.
    """
    label2id = {name: i for i, name in enumerate(labels)}
    pairs: list[Pair] = []
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            obj = json.loads(line)
            if obj["label"] not in label2id:
                raise ValueError(f"{path}:{lineno}: unknown label {obj['label']!r}")
            pairs.append(
                Pair(
                    premise=str(obj["premise"]),
                    hypothesis=str(obj["hypothesis"]),
                    label=label2id[obj["label"]],
                    source=str(obj.get("source", "unknown")),
                    teacher=_teacher_row(obj.get("teacher"), len(labels), path, lineno),
                )
            )
    return pairs


def _teacher_row(
    raw: Any, n_labels: int, path: str | Path, lineno: int
) -> tuple[float, ...] | None:
    """A line's optional ``teacher`` log-probabilities, checked for length."""
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != n_labels:
        raise ValueError(f"{path}:{lineno}: 'teacher' must be a list of {n_labels} numbers")
    return tuple(float(v) for v in raw)


def apply_mix(pairs: Sequence[Pair], weights: dict[str, float], seed: int) -> list[Pair]:
    """Re-weight sources: weight 1 keeps every pair once, 2 repeats them, 0.5 keeps half.

    The fractional part is a deterministic sample (seeded), so the mix is
    reproducible. Sources missing from ``weights`` keep weight 1.
    """
    by_source: dict[str, list[Pair]] = defaultdict(list)
    for p in pairs:
        by_source[p.source].append(p)
    rng = np.random.default_rng(seed)
    out: list[Pair] = []
    for source in sorted(by_source):
        items = by_source[source]
        w = float(weights.get(source, 1.0))
        whole, frac = math.floor(w), w - math.floor(w)
        out.extend(items * whole)
        if frac > 0:
            k = round(frac * len(items))
            idx = rng.choice(len(items), size=k, replace=False)
            out.extend(items[i] for i in sorted(idx.tolist()))
    return out


def stratified_sample(pairs: Sequence[Pair], n: int, seed: int) -> list[Pair]:
    """A fixed sample of ``n`` pairs with an (as far as possible) equal share per source.

    Equal shares rather than proportional ones keep every source's accuracy
    estimate usable (the smallest held-out source has ~100 pairs); what a source
    cannot fill is redistributed to the others.
    """
    by_source: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(pairs):
        by_source[p.source].append(i)
    sources = sorted(by_source)
    quota = dict.fromkeys(sources, 0)
    remaining = min(n, len(pairs))
    open_sources = list(sources)
    while remaining > 0 and open_sources:
        share = max(1, remaining // len(open_sources))
        for s in list(open_sources):
            take = min(share, len(by_source[s]) - quota[s], remaining)
            quota[s] += take
            remaining -= take
            if quota[s] >= len(by_source[s]):
                open_sources.remove(s)
            if remaining == 0:
                break
    rng = np.random.default_rng(seed)
    chosen: list[int] = []
    for s in sources:
        idx = rng.choice(len(by_source[s]), size=quota[s], replace=False)
        chosen.extend(by_source[s][i] for i in sorted(idx.tolist()))
    return [pairs[i] for i in sorted(chosen)]


def epoch_batches(
    lengths: Sequence[int], batch_size: int, seed: int, epoch: int, bucket_batches: int
) -> list[list[int]]:
    """Length-bucketed batch order for one epoch, a pure function of its arguments.

    Shuffle all indices, cut them into chunks of ``batch_size * bucket_batches``,
    sort each chunk by length (so a batch pads little), cut into batches and
    shuffle the batches. The number of batches is the same for every epoch.
    """
    rng = np.random.default_rng([seed, epoch])
    order = rng.permutation(len(lengths))
    chunk = batch_size * max(1, bucket_batches)
    batches: list[list[int]] = []
    for start in range(0, len(order), chunk):
        part = sorted(order[start : start + chunk].tolist(), key=lambda i: lengths[i])
        batches.extend(part[j : j + batch_size] for j in range(0, len(part), batch_size))
    perm = rng.permutation(len(batches))
    return [batches[i] for i in perm.tolist()]


def encode(tokenizer: Any, premises: Sequence[str], hypotheses: Sequence[str], max_len: int) -> Any:
    """Tokenise pairs with ``truncation="only_first"``: the premise is cut, never the claim.

    A hypothesis that alone nearly fills ``max_len`` cannot be kept whole; only for
    such a pair the hypothesis is cut to half the budget (the premise keeps the
    rest) instead of failing the whole batch.
    """
    hyps = list(hypotheses)
    limit = max_len // 2
    hyp_ids = tokenizer(hyps, add_special_tokens=False)["input_ids"]
    for i, ids in enumerate(hyp_ids):
        if len(ids) > max_len - 8:
            hyps[i] = tokenizer.decode(ids[:limit])
    return tokenizer(
        list(premises),
        hyps,
        truncation="only_first",
        max_length=max_len,
        padding=True,
        return_tensors="pt",
    )
