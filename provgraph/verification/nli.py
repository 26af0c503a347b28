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

import math
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from provgraph.errors import ModelUnavailableError
from provgraph.verification.evidence import (
    TokenOffsets,
    evidence_windows,
    preselect_spans,
    token_windows,
)
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


def agreement(a: float, b: float) -> float:
    """Two entailment readings of one pair combined: their geometric mean.

    High only when both readings are; one low reading holds it down without
    deciding alone. Used for two models' readings (the accurate mode, ADR 0015)
    and for the focused and whole-claim readings of a claim (ADR 0016).
    """
    return math.sqrt(max(a, 0.0) * max(b, 0.0))


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
    #: Every window read, in evidence-rank order: ``(start, end, entailment,
    #: contradiction)`` (contradiction NaN when the model has no such class).
    #: Kept for analysis (``bench/verify_quality.py --dump-scores``); reports do not store it.
    windows: tuple[tuple[int, int, float, float], ...] = ()


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
        first_windows: int = 1,
        decisive: float = 0.8,
        contradiction_windows: int = 2,
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
        self._first_windows = max(1, first_windows)
        self._decisive = decisive
        self._contradiction_windows = max(1, contradiction_windows)
        self._windows_cache: dict[tuple[str, int], list[tuple[int, int]]] = {}
        self._offsets_cache: dict[str, TokenOffsets] = {}
        self._pair_cache: dict[tuple[str, str], np.ndarray] = {}
        self.predict_calls = 0

    def window_budget(self, claim: str) -> int:
        """Premise tokens per window so that premise + claim + the pair's specials fit
        ``max_len``.

        The model's encoder cuts the premise (``only_first``) when a pair is too
        long; sizing windows to the budget means that cut never happens, so no
        premise text is silently dropped. The special tokens are the tokenizer's
        own count for a pair (3 for BERT's ``[CLS] a [SEP] b [SEP]``, 4 for
        MPNet/RoBERTa's ``<s> a </s></s> b </s>``).
        """
        tokenizer = self.model.tokenizer
        try:
            claim_len = len(tokenizer(claim, add_special_tokens=False)["input_ids"])
        except (TypeError, KeyError, ValueError):
            claim_len = len(claim) // 3
        try:
            specials = int(tokenizer.num_special_tokens_to_add(pair=True))
        except (AttributeError, TypeError, ValueError):
            specials = 4
        return max(16, min(self._window_tokens, self._max_len - claim_len - specials))

    def _windows(self, premise: str, budget: int) -> list[tuple[int, int]]:
        key = (premise, budget)
        if key not in self._windows_cache:
            stride = max(1, round(budget * self._stride_tokens / self._window_tokens))
            self._windows_cache[key] = token_windows(
                self.model.tokenizer, premise, window_tokens=budget, stride_tokens=stride
            )
        return self._windows_cache[key]

    def _tokens(self, premise: str) -> TokenOffsets:
        if premise not in self._offsets_cache:
            self._offsets_cache[premise] = TokenOffsets.of(self.model.tokenizer, premise)
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

    def _predict(
        self,
        items: list[tuple[str, str]],
        plans: list[tuple[list[tuple[int, int]], list[int], int] | None],
        windows: list[list[int] | None],
    ) -> None:
        """One batched ``predict`` over the uncached (window, claim) pairs named by ``windows``."""
        pending: dict[tuple[str, str], None] = {}
        for (claim, premise), plan, chosen in zip(items, plans, windows, strict=True):
            if plan is None or not chosen:
                continue
            premise = premise[: self._max_source_chars]
            for i in chosen:
                pair = (premise[plan[0][i][0] : plan[0][i][1]], claim)
                if pair not in self._pair_cache:
                    pending[pair] = None
        if not pending:
            return
        pairs = list(pending)
        probs = np.asarray(self.model.predict(pairs, batch_size=self._batch_size), dtype=float)
        self.predict_calls += 1
        if probs.ndim != 2 or probs.shape[0] != len(pairs):
            raise ValueError(f"NLI predict returned shape {probs.shape} for {len(pairs)} pairs")
        for pair, row in zip(pairs, probs, strict=True):
            self._pair_cache[pair] = row

    def predict_pairs(self, pairs: list[tuple[str, str]]) -> list[tuple[float, float | None]]:
        """``(entailment, contradiction)`` for short ``(premise, hypothesis)`` pairs, batched.

        For premises already cut to evidence size (the focused pass of
        :mod:`~provgraph.verification.focus`); shares this scorer's pair cache.
        """
        pending = list(dict.fromkeys(p for p in pairs if p not in self._pair_cache))
        if pending:
            probs = np.asarray(
                self.model.predict(pending, batch_size=self._batch_size), dtype=float
            )
            self.predict_calls += 1
            if probs.ndim != 2 or probs.shape[0] != len(pending):
                raise ValueError(
                    f"NLI predict returned shape {probs.shape} for {len(pending)} pairs"
                )
            for pair, row in zip(pending, probs, strict=True):
                self._pair_cache[pair] = row
        li = self.labels
        out: list[tuple[float, float | None]] = []
        for pair in pairs:
            row = self._pair_cache[pair]
            con = float(row[li.contradiction]) if li.contradiction is not None else None
            out.append((float(row[li.entailment]), con))
        return out

    def _cascade(
        self,
        items: list[tuple[str, str]],
        plans: list[tuple[list[tuple[int, int]], list[int], int] | None],
        first: list[list[int] | None],
    ) -> list[list[int] | None]:
        """Windows still to read: the rest of each plan whose first windows were not decisive.

        Decisive = entailment or contradiction ≥ ``decisive`` at a window read:
        the best-ranked evidence already settles the pair.

        Plans that stop early are narrowed in place to the windows read.
        """
        ent, con = self.labels.entailment, self.labels.contradiction
        rest: list[list[int] | None] = []
        for n, ((claim, premise), plan, done) in enumerate(zip(items, plans, first, strict=True)):
            if plan is None or done is None or len(done) == len(plan[1]):
                rest.append(None)
                continue
            premise = premise[: self._max_source_chars]
            spans = plan[0]
            rows = [self._pair_cache[(premise[spans[i][0] : spans[i][1]], claim)] for i in done]
            decisive = max(float(r[ent]) for r in rows)
            if con is not None:
                decisive = max(decisive, *(float(r[con]) for r in rows))
            if decisive >= self._decisive:
                plans[n] = (spans, done, plan[2])
                rest.append(None)
            else:
                rest.append(plan[1][len(done) :])
        return rest

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
        neighbouring whole sentences (sentence-level retrieval), read as a
        cascade: the first ``first_windows`` of every item in one batched
        ``predict``, the rest only for items where neither entailment nor
        contradiction reached ``decisive`` (a second ``predict``). The maximum
        contradiction is then taken over the ``contradiction_windows`` best-ranked
        windows only (relevance), entailment over all windows read. Without seeds,
        the premise is cut into token windows and at most ``max_windows`` are
        kept by word overlap. A premise that fits one window is read whole
        either way.
        """
        plans: list[tuple[list[tuple[int, int]], list[int], int] | None] = []
        first: list[list[int] | None] = []
        ranked: set[int] = set()
        for n_item, (claim, premise) in enumerate(items):
            premise = premise[: self._max_source_chars]
            item_seeds = seeds[n_item] if seeds is not None else None
            plan: tuple[list[tuple[int, int]], list[int], int] | None = None
            if claim.strip() and premise.strip():
                budget = self.window_budget(claim)
                if item_seeds:
                    plan = self._evidence_plan(premise, item_seeds, budget)
                else:
                    spans = self._windows(premise, budget)
                    chosen = preselect(claim, [premise[s:e] for s, e in spans], self._max_windows)
                    plan = (spans, chosen, len(spans))
            if plan is None or not plan[0] or not plan[1]:
                plans.append(None)
                first.append(None)
                continue
            plans.append(plan)
            first.append(plan[1][: self._first_windows] if item_seeds else plan[1])
            if item_seeds:
                ranked.add(n_item)
        self._predict(items, plans, first)
        self._predict(items, plans, self._cascade(items, plans, first))
        out: list[NliMatch | None] = []
        li = self.labels
        for n_item, ((claim, premise), plan) in enumerate(zip(items, plans, strict=True)):
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
                # ranked evidence: contradiction only where the evidence is most relevant
                # (a far window of a long source contradicts by accident)
                top = self._contradiction_windows if n_item in ranked else len(chosen)
                worst = int(np.argmax(rows[:top, li.contradiction]))
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
                    tuple(
                        (
                            spans[i][0],
                            spans[i][1],
                            float(r[li.entailment]),
                            float(r[li.contradiction])
                            if li.contradiction is not None
                            else float("nan"),
                        )
                        for i, r in zip(chosen, rows, strict=True)
                    ),
                )
            )
        return out
