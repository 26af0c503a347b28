"""The accurate NLI mode: a larger model re-reads the windows the small model ranked best.

Why a cascade: the shipped cross-encoder (MiniLM-L6, 22M parameters) reads
every window of every citation at ~100+ pairs/s on two cores; a base-size one
(all-mpnet-base-v2 backbone, 110M) is about 7.5x slower per pair, too slow to
read them all and keep the pipeline's 20 citations/s, but it is the better
judge of the window that decides the verdict. So the small model still picks
the windows (its ranking is good even where its probabilities are not) and the
large model scores only the ``windows`` with the highest small-model
entailment plus the window whose contradiction the small model found
strongest. Entailment, contradiction and evidence then come from the
re-read windows only: the two models' probabilities are never mixed in one
maximum over windows.

How a re-read window's entailment is scored (``entailment``):

* ``"agreement"`` (default): the geometric mean of the two models' entailment
  at that window. A window counts as entailing only when both read it so. Why:
  the larger model alone lost on WiCE's full web pages, and more training made
  that worse (docs/nli-model.md, "Run mpnet-2"): a sharper model finds an
  entailing-looking window in more unsupported pages, and the small model
  rarely agrees with those. Measured on the session-7 dumps, NLI alone, mean
  support AUROC over the dev files 0.736 (small) / 0.725 (large) → 0.761, with
  no parameter fitted (docs/benchmarks.md, "Session 8").
* ``"refiner"``: the larger model's entailment alone (sessions 6–7).

Contradiction is the larger model's in both: it is the better reader of
negation and antonyms, where the small model is blind (HealthVer contradiction
AUROC 0.60 small, 0.68 large, 0.66 for their geometric mean).

Constraints:
- Only windows the small model read are re-read; nothing is re-windowed, so a
  window sized for the small tokenizer may be a few tokens longer for the
  large one, and the encoder cuts the premise (``only_first``), never the claim.
- The maximum contradiction is taken over the refined windows among the
  ``contradiction_windows`` best-ranked (relevance), as the small scorer does,
  or over all refined windows for an unranked item (one window).
- ``NliMatch.windows`` keeps every window read; re-read ones carry the scored
  entailment (as above) and the large model's contradiction, the others the
  small model's values.
"""

from __future__ import annotations

from dataclasses import replace

from provgraph.verification.config import RefineEntailment
from provgraph.verification.nli import NliMatch, NliScorer, agreement


def _candidates(match: NliMatch, windows: int, contradiction_windows: int) -> list[int]:
    """Indices into ``match.windows``: the best by entailment, then the strongest
    contradiction among the best-ranked ``contradiction_windows``."""
    read = match.windows
    by_entailment = sorted(range(len(read)), key=lambda i: -read[i][2])[:windows]
    ranked = range(min(contradiction_windows, len(read)))
    contradicting = [
        i for i in sorted(ranked, key=lambda i: -read[i][3]) if read[i][3] == read[i][3]
    ][:1]  # NaN (no contradiction class) never compares equal to itself
    return list(dict.fromkeys([*by_entailment, *contradicting]))


def refine_matches(
    items: list[tuple[str, str]],
    matches: list[NliMatch | None],
    refiner: NliScorer,
    *,
    windows: int = 2,
    contradiction_windows: int = 2,
    max_source_chars: int = 96_000,
    entailment: RefineEntailment = "agreement",
) -> list[NliMatch | None]:
    """Re-score each match's best windows with ``refiner`` (one batched predict).

    ``items`` are the ``(claim, premise)`` pairs the matches were scored from, in
    the same order; ``None`` matches stay ``None``.
    """
    plans: list[list[int]] = []
    pairs: list[tuple[str, str]] = []
    for (claim, premise), match in zip(items, matches, strict=True):
        if match is None:
            plans.append([])
            continue
        chosen = _candidates(match, windows, contradiction_windows)
        plans.append(chosen)
        text = premise[:max_source_chars]
        pairs += [(text[match.windows[i][0] : match.windows[i][1]], claim) for i in chosen]
    agree = entailment == "agreement"
    scores = iter(refiner.predict_pairs(pairs))
    out: list[NliMatch | None] = []
    for match, chosen in zip(matches, plans, strict=True):
        if match is None or not chosen:
            out.append(match)
            continue
        read = list(match.windows)
        refined: dict[int, tuple[float, float | None]] = {}
        for i in chosen:
            large, contradiction = next(scores)
            s, e, small = read[i][0], read[i][1], read[i][2]
            agreed = agreement(small, large) if agree else large
            refined[i] = (agreed, contradiction)
            read[i] = (s, e, agreed, float("nan") if contradiction is None else contradiction)
        best = max(refined, key=lambda i: refined[i][0])
        entail, contradiction = refined[best]
        eligible = [i for i in refined if i < contradiction_windows] or list(refined)
        worst = max(eligible, key=lambda i: refined[i][1] or 0.0)
        max_c = refined[worst][1]
        neutral = None if contradiction is None else max(0.0, 1.0 - entail - contradiction)
        out.append(
            replace(
                match,
                entailment=entail,
                contradiction=contradiction,
                neutral=neutral,
                start=read[best][0],
                end=read[best][1],
                max_contradiction=max_c,
                contradiction_start=read[worst][0] if max_c is not None else 0,
                contradiction_end=read[worst][1] if max_c is not None else 0,
                windows=tuple(read),
            )
        )
    return out


class AgreementScorer:
    """Short pairs scored by both models under the ``"agreement"`` rule: entailment the
    geometric mean of the two, contradiction the larger model's.

    For the focused pass (:mod:`~provgraph.verification.focus`), which re-reads the
    best window and its clauses after this module chose it: with the larger model
    alone there, the focused entailment would undo the agreement the window was
    chosen by. Both scorers keep their own pair caches.
    """

    def __init__(self, small: NliScorer, large: NliScorer) -> None:
        self.small = small
        self.large = large

    def predict_pairs(self, pairs: list[tuple[str, str]]) -> list[tuple[float, float | None]]:
        small = self.small.predict_pairs(pairs)
        large = self.large.predict_pairs(pairs)
        return [(agreement(es, el), cl) for (es, _), (el, cl) in zip(small, large, strict=True)]
