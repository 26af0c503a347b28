"""NLI stage: entailment and contradiction of a claim by its source, window by window.

The model comes from ``provgraph.nli.runtime.load_nli_model`` (provgraph's own
cross-encoder; default folder ``provgraph/nli/model/``). It returns an object
with ``predict(pairs, batch_size) -> ndarray[n, n_labels]`` (probabilities),
``labels`` (from the model's ``id2label``) and ``tokenizer``. When that module
or the weights are missing, :func:`load_nli` raises
:class:`~provgraph.errors.ModelUnavailableError` and the stage is skipped.

Label order is always read from ``labels``, never assumed. Long premises are
split into overlapping token windows (default 224 tokens every 160, shrunk so
that window + claim fit the model's ``max_len``) so nothing beyond the model's
length limit is silently dropped; if a premise has more
windows than ``max_windows`` the ones scored are chosen by lexical overlap
and the count is reported. All windows of all citations of a report go through
one batched ``predict``. Per pair, the window with the highest entailment
gives the support score and evidence; the highest contradiction over windows
is kept too, with its own window.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from provgraph.errors import ModelUnavailableError
from provgraph.verification.windows import preselect


class NliModel(Protocol):
    """What the NLI stage needs from a loaded cross-encoder."""

    labels: tuple[str, ...]
    tokenizer: Any

    def predict(self, pairs: list[tuple[str, str]], batch_size: int = 32) -> np.ndarray: ...


def load_nli(model: str | None = None, *, threads: int | None = None) -> NliModel:
    """Load the NLI model through ``provgraph.nli.runtime`` (imported lazily).

    ``threads``: torch intra-op threads for this model (``None``: every usable
    CPU, right for one process; a prefork worker child passes 1).
    """
    try:
        from provgraph.nli import runtime  # type: ignore[attr-defined,unused-ignore]
    except ImportError as exc:
        raise ModelUnavailableError(
            f"provgraph.nli.runtime is not available ({exc}); the NLI stage needs it"
        ) from exc
    loaded: NliModel = runtime.load_nli_model(model, threads=threads)
    return loaded


@dataclass(frozen=True)
class LabelIndex:
    """Column of each class in the model's output, read from its ``id2label`` names."""

    entailment: int
    contradiction: int | None
    neutral: int | None


def label_index(labels: tuple[str, ...] | list[str]) -> LabelIndex:
    """Find entailment / contradiction / neutral columns by name (case-insensitive prefix)."""
    names = [str(x).lower() for x in labels]

    def find(*prefixes: str) -> int | None:
        for i, name in enumerate(names):
            if any(name.startswith(p) for p in prefixes):
                return i
        return None

    ent = find("entail", "support")
    if ent is None:
        raise ModelUnavailableError(f"NLI model labels {list(labels)} have no entailment class")
    return LabelIndex(ent, find("contradict", "refute"), find("neutral", "not_entail", "nei"))


def token_windows(
    tokenizer: Any, text: str, *, window_tokens: int = 224, stride_tokens: int = 160
) -> list[tuple[int, int]]:
    """Character spans of overlapping token windows covering all of ``text``.

    Uses the tokenizer's offset mapping (fast tokenizers); without one, falls
    back to character windows of about 4 characters per token.
    """
    if not text.strip():
        return []
    try:
        enc = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True, verbose=False)
        offsets = [(int(s), int(e)) for s, e in enc["offset_mapping"] if e > s]
    except (NotImplementedError, TypeError, ValueError, KeyError):
        offsets = []
        step, width = stride_tokens * 4, window_tokens * 4
        starts = list(range(0, max(1, len(text) - width + step), step))
        return [(s, min(len(text), s + width)) for s in starts]
    if len(offsets) <= window_tokens:
        return [(0, len(text))]
    spans: list[tuple[int, int]] = []
    i = 0
    last = len(offsets) - window_tokens
    while True:
        j = min(i, last)
        spans.append((offsets[j][0], offsets[j + window_tokens - 1][1]))
        if j >= last:
            break
        i += stride_tokens
    return spans


@dataclass(frozen=True)
class NliMatch:
    """NLI outcome for one (claim, premise) pair; offsets index the premise."""

    entailment: float
    contradiction: float | None
    neutral: float | None
    start: int
    end: int
    max_contradiction: float | None
    contradiction_start: int
    contradiction_end: int
    windows_total: int
    windows_scored: int


class NliScorer:
    """Windowing and batching on top of an :class:`NliModel`."""

    def __init__(
        self,
        model: NliModel,
        *,
        window_tokens: int = 224,
        stride_tokens: int = 160,
        max_windows: int = 32,
        batch_size: int = 16,
        max_source_chars: int = 96_000,
        evidence_tokens: int = 128,
    ) -> None:
        self.model = model
        self.labels = label_index(tuple(model.labels))
        self._window_tokens = window_tokens
        self._stride_tokens = stride_tokens
        self._max_windows = max_windows
        self._batch_size = batch_size
        self._max_source_chars = max_source_chars
        self._max_len = int(getattr(model, "max_len", 512) or 512)
        self._evidence_tokens = evidence_tokens
        self._windows_cache: dict[tuple[str, int], list[tuple[int, int]]] = {}
        self._offsets_cache: dict[str, _Tokens] = {}
        self._pair_cache: dict[tuple[str, str], np.ndarray] = {}
        self.predict_calls = 0

    def window_budget(self, claim: str) -> int:
        """Premise tokens per window so that premise + claim + 3 specials fit ``max_len``.

        The model's encoder cuts the premise (``only_first``) when a pair is too
        long; sizing windows to the budget means that cut never happens, so no
        premise text is silently dropped.
        """
        try:
            claim_len = len(self.model.tokenizer(claim, add_special_tokens=False)["input_ids"])
        except (TypeError, KeyError, ValueError):
            claim_len = len(claim) // 3
        return max(16, min(self._window_tokens, self._max_len - claim_len - 3))

    def _windows(self, premise: str, budget: int) -> list[tuple[int, int]]:
        key = (premise, budget)
        if key not in self._windows_cache:
            stride = max(1, round(budget * self._stride_tokens / self._window_tokens))
            self._windows_cache[key] = token_windows(
                self.model.tokenizer, premise, window_tokens=budget, stride_tokens=stride
            )
        return self._windows_cache[key]

    def _tokens(self, premise: str) -> _Tokens:
        if premise not in self._offsets_cache:
            self._offsets_cache[premise] = _Tokens.of(self.model.tokenizer, premise)
        return self._offsets_cache[premise]

    def _evidence_plan(
        self, premise: str, seeds: list[tuple[int, int]], budget: int
    ) -> tuple[list[tuple[int, int]], list[int], int]:
        """Windows around the best-ranked ``seeds`` (spans, chosen, classic window count)."""
        tokens = self._tokens(premise)
        n = len(tokens.starts)
        stride = max(1, round(budget * self._stride_tokens / self._window_tokens))
        total = 1 if n <= budget else -(-(n - budget) // stride) + 1
        if n <= budget or tokens.fallback:
            spans = self._windows(premise, budget)
            return spans, preselect_spans(premise, spans, seeds, self._max_windows), total
        spans = evidence_windows(
            tokens, seeds, min(budget, self._evidence_tokens), self._max_windows
        )
        return spans, list(range(len(spans))), total

    def score(
        self,
        items: list[tuple[str, str]],
        seeds: list[list[tuple[int, int]] | None] | None = None,
    ) -> list[NliMatch | None]:
        """Score ``(claim, premise)`` items; ``None`` for an empty claim or premise.

        ``seeds``: per item, spans of the premise ranked best first by a cheap
        stage (embedding cosine, word overlap). When given, a premise longer
        than one window is read only around them: at most ``max_windows``
        windows of ``evidence_tokens`` tokens, each the seed plus its
        neighbouring whole sentences (sentence-level retrieval). Without seeds,
        the premise is cut into token windows and at most ``max_windows`` are
        kept by word overlap. A premise that fits one window is read whole
        either way.
        """
        plans: list[tuple[list[tuple[int, int]], list[int], int] | None] = []
        pending: dict[tuple[str, str], None] = {}
        for n_item, (claim, premise) in enumerate(items):
            premise = premise[: self._max_source_chars]
            item_seeds = seeds[n_item] if seeds is not None else None
            if not claim.strip() or not premise.strip():
                plans.append(None)
                continue
            budget = self.window_budget(claim)
            if item_seeds:
                spans, chosen, total = self._evidence_plan(premise, item_seeds, budget)
            else:
                spans = self._windows(premise, budget)
                chosen = preselect(claim, [premise[s:e] for s, e in spans], self._max_windows)
                total = len(spans)
            if not spans or not chosen:
                plans.append(None)
                continue
            plans.append((spans, chosen, total))
            for i in chosen:
                pair = (premise[spans[i][0] : spans[i][1]], claim)
                if pair not in self._pair_cache:
                    pending[pair] = None
        if pending:
            pairs = list(pending)
            probs = np.asarray(self.model.predict(pairs, batch_size=self._batch_size), dtype=float)
            self.predict_calls += 1
            if probs.ndim != 2 or probs.shape[0] != len(pairs):
                raise ValueError(f"NLI predict returned shape {probs.shape} for {len(pairs)} pairs")
            for pair, row in zip(pairs, probs, strict=True):
                self._pair_cache[pair] = row
        out: list[NliMatch | None] = []
        li = self.labels
        for (claim, premise), plan in zip(items, plans, strict=True):
            if plan is None:
                out.append(None)
                continue
            premise = premise[: self._max_source_chars]
            spans, chosen, total = plan
            rows = np.stack(
                [self._pair_cache[(premise[spans[i][0] : spans[i][1]], claim)] for i in chosen]
            )
            best = int(np.argmax(rows[:, li.entailment]))
            s, e = spans[chosen[best]]
            contra = float(rows[best, li.contradiction]) if li.contradiction is not None else None
            neutral = float(rows[best, li.neutral]) if li.neutral is not None else None
            if li.contradiction is not None:
                worst = int(np.argmax(rows[:, li.contradiction]))
                max_c: float | None = float(rows[worst, li.contradiction])
                cs, ce = spans[chosen[worst]]
            else:
                max_c, cs, ce = None, 0, 0
            out.append(
                NliMatch(
                    float(rows[best, li.entailment]),
                    contra,
                    neutral,
                    s,
                    e,
                    max_c,
                    cs,
                    ce,
                    total,
                    len(chosen),
                )
            )
        return out


@dataclass(frozen=True)
class _Tokens:
    """Character offsets of a premise's tokens and of its sentences (for evidence windows)."""

    text: str
    starts: list[int]
    ends: list[int]
    sentence_starts: list[int]
    sentence_ends: list[int]
    fallback: bool = False

    @classmethod
    def of(cls, tokenizer: Any, text: str) -> _Tokens:
        from provgraph.verification.sentences import split_sentences

        try:
            enc = tokenizer(
                text, add_special_tokens=False, return_offsets_mapping=True, verbose=False
            )
            offsets = [(int(s), int(e)) for s, e in enc["offset_mapping"] if e > s]
            fallback = False
        except (NotImplementedError, TypeError, ValueError, KeyError):
            offsets, fallback = [], True
        sents = split_sentences(text)
        return cls(
            text,
            [s for s, _ in offsets],
            [e for _, e in offsets],
            [x.start for x in sents],
            [x.end for x in sents],
            fallback,
        )


def evidence_windows(
    tokens: _Tokens, seeds: list[tuple[int, int]], budget: int, limit: int
) -> list[tuple[int, int]]:
    """At most ``limit`` character spans of ≤ ``budget`` tokens around the ranked ``seeds``.

    Each window is its seed widened evenly on both sides to the budget, then
    trimmed to whole sentences where that keeps the seed; a seed mostly inside
    an earlier window adds nothing (the next seed is tried).
    """
    n = len(tokens.starts)
    out: list[tuple[int, int]] = []
    for s, e in seeds:
        if len(out) >= limit:
            break
        ti = bisect.bisect_right(tokens.ends, s)
        tj = max(ti + 1, bisect.bisect_left(tokens.starts, e))
        if ti >= n:
            continue
        tj = min(tj, n)
        if tj - ti >= budget:
            a, b = ti, ti + budget
        else:
            a = max(0, ti - (budget - (tj - ti)) // 2)
            b = min(n, a + budget)
            a = max(0, b - budget)
        cs, ce = tokens.starts[a], tokens.ends[b - 1]
        seed_s, seed_e = tokens.starts[ti], tokens.ends[min(tj, b) - 1]
        k = bisect.bisect_left(tokens.sentence_starts, cs)
        if k < len(tokens.sentence_starts) and tokens.sentence_starts[k] <= seed_s:
            cs = tokens.sentence_starts[k]
        k = bisect.bisect_right(tokens.sentence_ends, ce) - 1
        if k >= 0 and tokens.sentence_ends[k] >= seed_e:
            ce = tokens.sentence_ends[k]
        if any(_overlap(cs, ce, x, y) > 0.5 for x, y in out):
            continue
        out.append((cs, ce))
    return out


def _overlap(a: int, b: int, c: int, d: int) -> float:
    """Overlap of two spans as a share of the shorter one."""
    inter = min(b, d) - max(a, c)
    shorter = min(b - a, d - c)
    return inter / shorter if shorter > 0 and inter > 0 else 0.0


def preselect_spans(
    premise: str, spans: list[tuple[int, int]], seeds: list[tuple[int, int]], limit: int
) -> list[int]:
    """Indices of at most ``limit`` windows: those containing the best seeds first, in order."""
    if len(spans) <= limit:
        return list(range(len(spans)))
    chosen: list[int] = []
    for s, e in seeds:
        best = max(range(len(spans)), key=lambda i: _overlap(s, e, *spans[i]))
        if best not in chosen:
            chosen.append(best)
        if len(chosen) >= limit:
            break
    return sorted(chosen) or list(range(min(limit, len(spans))))
