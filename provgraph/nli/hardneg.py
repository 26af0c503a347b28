"""Hard-negative NLI pairs built from the training data's own entailment pairs.

A small cross-encoder learns lexical-overlap shortcuts: a claim that repeats the
premise's words with one entity, number, negation or antonym changed still
"looks entailed" to it (issue 14: entity swaps, antonyms, changes of state and
partial support are the verifier's measured misses). Each generator below takes
an *entailment* pair ``(premise, hypothesis)`` and minimally edits the
hypothesis so that the premise no longer supports it:

* ``number``   a number of the hypothesis that the premise states is changed
               (years shifted, counts scaled) -> contradiction;
* ``entity``   a capitalised name of the hypothesis that the premise states is
               replaced by another name from the same premise -> contradiction
               (the FactCC convention; the premise assigns the role to the
               original name);
* ``negation`` an auxiliary is negated ("was" -> "was not") or an existing
               negation removed -> contradiction;
* ``antonym``  one word is replaced by its antonym from a fixed list
               ("increased" -> "decreased") -> contradiction;
* ``conjunct`` another pair's hypothesis is appended as a second clause: only
               half the claim is supported -> neutral (like ``wice_partial``).

Constraints: deterministic for a given seed and input order (exact resume of a
training run depends on it); pure Python, no tagger (none is installed), so the
edits are conservative: a pair whose hypothesis offers no safe edit yields no
negative. Labels are heuristic, a known small noise level is accepted for the
gain in hard contrast pairs; every generated pair keeps its origin in
``source`` (``hardneg_<kind>``) so its share and accuracy can be measured.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from provgraph.nli.data import Pair
from provgraph.nli.hardneg_words import ANTONYM_PAIRS, LOWER_FIRST_WORDS, STOP_NAMES

#: Generator kinds in the order they are tried when a pair offers several.
KINDS: tuple[str, ...] = ("number", "entity", "negation", "antonym", "conjunct")

#: Word -> antonym. A word in two pairs maps to its later partner ("increased" ->
#: "reduced"); the list is part of run hardneg-1's data: editing it changes the
#: generated pairs, so a resumed run would no longer be bit-exact.
ANTONYMS: dict[str, str] = {a: b for a, b in ANTONYM_PAIRS} | {b: a for a, b in ANTONYM_PAIRS}

_AUX = "is|are|was|were|has|have|had|can|could|will|would|should|does|did|do|may|might|must"
_AUX_RE = re.compile(rf"\b({_AUX})\b(?!\s+(?:not|n't|never)\b)", re.IGNORECASE)
_NEG_RE = re.compile(r"\b(is|are|was|were|has|have|had|does|did|do|can|could|will|would)\s+not\b")
_NUMBER_RE = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\w,]*\d)")
_NAME_RE = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*\b")
_WORD_RE = re.compile(r"[A-Za-z]+")


@dataclass(frozen=True)
class HardNegativeConfig:
    """How many hard negatives to add and of which kinds.

    ``fraction``: share of the entailment pairs that get one hard negative
    (a pair with no applicable edit gets none). ``kinds``: the generators
    allowed, tried in a seeded random order per pair.
    """

    fraction: float = 0.3
    kinds: tuple[str, ...] = KINDS
    seed: int = 1457

    def __post_init__(self) -> None:
        if not 0.0 <= self.fraction <= 1.0:
            raise ValueError(f"hard_negatives.fraction must be in [0, 1], not {self.fraction}")
        unknown = set(self.kinds) - set(KINDS)
        if unknown:
            raise ValueError(f"unknown hard-negative kinds {sorted(unknown)}; known: {KINDS}")


def _shift_number(text: str, rng: np.random.Generator) -> str:
    """A different, plausible value for the number ``text`` (years stay years)."""
    clean = text.replace(",", "")
    if "." in clean:
        value = float(clean)
        new = value * float(rng.choice([0.5, 0.7, 1.3, 1.6, 2.0])) + 0.1
        decimals = len(clean.split(".")[1])
        return f"{new:.{decimals}f}"
    value = int(clean)
    if 1000 <= value <= 2100 and len(clean) == 4:
        delta = int(rng.choice([-12, -7, -3, -2, -1, 1, 2, 3, 5, 9]))
        return str(value + delta)
    if value < 10:
        choices = [v for v in range(0, 13) if v != value]
        return str(int(rng.choice(choices)))
    factor = float(rng.choice([0.4, 0.6, 0.75, 1.25, 1.5, 2.5]))
    new_int = max(1, round(value * factor))
    if new_int == value:
        new_int = value + 1
    return f"{new_int:,}" if "," in text else str(new_int)


def number_swap(pair: Pair, rng: np.random.Generator) -> str | None:
    """Change one number of the hypothesis that also occurs in the premise."""
    nums = [m for m in _NUMBER_RE.finditer(pair.hypothesis) if m.group(1) in pair.premise]
    if not nums:
        return None
    m = nums[int(rng.integers(len(nums)))]
    new = _shift_number(m.group(1), rng)
    if new == m.group(1):
        return None
    return pair.hypothesis[: m.start(1)] + new + pair.hypothesis[m.end(1) :]


def _names(text: str) -> list[re.Match[str]]:
    return [m for m in _NAME_RE.finditer(text) if m.group(0) not in STOP_NAMES]


def entity_swap(pair: Pair, rng: np.random.Generator) -> str | None:
    """Replace a premise-backed name of the hypothesis by another name of the premise."""
    hyp_names = [m for m in _names(pair.hypothesis) if m.group(0) in pair.premise]
    if not hyp_names:
        return None
    m = hyp_names[int(rng.integers(len(hyp_names)))]
    old = m.group(0)
    old_words = set(old.split())
    candidates = sorted(
        {
            n.group(0)
            for n in _names(pair.premise)
            if n.group(0) not in pair.hypothesis and not (set(n.group(0).split()) & old_words)
        }
    )
    if not candidates:
        return None
    new = candidates[int(rng.integers(len(candidates)))]
    return pair.hypothesis[: m.start()] + new + pair.hypothesis[m.end() :]


def negate(pair: Pair, rng: np.random.Generator) -> str | None:
    """Remove an explicit ``<aux> not`` or insert ``not`` after the first auxiliary."""
    hyp = pair.hypothesis
    neg = _NEG_RE.search(hyp)
    if neg is not None:
        return hyp[: neg.end(1)] + hyp[neg.end() :]
    if re.search(r"\b(?:not|never|no)\b|n't", hyp, re.IGNORECASE):
        return None
    aux = _AUX_RE.search(hyp)
    if aux is None:
        return None
    return hyp[: aux.end()] + " not" + hyp[aux.end() :]


def antonym_swap(pair: Pair, rng: np.random.Generator) -> str | None:
    """Replace one word of the hypothesis by its antonym (case kept)."""
    words = [m for m in _WORD_RE.finditer(pair.hypothesis) if m.group(0).lower() in ANTONYMS]
    if not words:
        return None
    m = words[int(rng.integers(len(words)))]
    new = ANTONYMS[m.group(0).lower()]
    if m.group(0)[0].isupper():
        new = new[0].upper() + new[1:]
    return pair.hypothesis[: m.start()] + new + pair.hypothesis[m.end() :]


def conjunct(pair: Pair, other: Pair) -> str | None:
    """Append ``other``'s hypothesis as a second clause: half-supported -> neutral."""
    extra = other.hypothesis.strip().rstrip(".")
    if not extra or other.premise == pair.premise or extra.lower() in pair.premise.lower():
        return None
    head = pair.hypothesis.strip().rstrip(".")
    first, _, rest = extra.partition(" ")
    if first in LOWER_FIRST_WORDS and rest:
        extra = f"{first.lower()} {rest}"
    return f"{head}, and {extra}."


_CONTRADICTION_EDITS: dict[str, Callable[[Pair, np.random.Generator], str | None]] = {
    "number": number_swap,
    "entity": entity_swap,
    "negation": negate,
    "antonym": antonym_swap,
}


def generate(pairs: Sequence[Pair], labels: Sequence[str], cfg: HardNegativeConfig) -> list[Pair]:
    """Hard negatives for a seeded ``cfg.fraction`` of the entailment pairs.

    Deterministic in ``(pairs, cfg)``. Returns new pairs only (the caller mixes
    them in); their ``source`` is ``hardneg_<kind>``.
    """
    label_id = {name: i for i, name in enumerate(labels)}
    ent, neu, con = label_id["entailment"], label_id["neutral"], label_id["contradiction"]
    rng = np.random.default_rng([cfg.seed, 0x4E4547])
    entail = [p for p in pairs if p.label == ent]
    out: list[Pair] = []
    for p in entail:
        if rng.random() >= cfg.fraction:
            continue
        # Contradiction edits first (seeded order); the always-applicable
        # conjunct only when none applies, so it does not crowd them out.
        edits = [k for k in cfg.kinds if k != "conjunct"]
        order = rng.permutation(edits).tolist() if edits else []
        if "conjunct" in cfg.kinds:
            order.append("conjunct")
        for kind in order:
            if kind == "conjunct":
                new = conjunct(p, entail[int(rng.integers(len(entail)))])
                label = neu
            else:
                new = _CONTRADICTION_EDITS[kind](p, rng)
                label = con
            if new is not None and new.strip() != p.hypothesis.strip():
                out.append(Pair(p.premise, new, label, f"hardneg_{kind}"))
                break
    return out


def from_config(
    pairs: Sequence[Pair], labels: Sequence[str], section: dict[str, Any]
) -> list[Pair]:
    """Hard negatives as configured by a ``[data.hard_negatives]`` TOML table.

    Keys: ``fraction`` (0 or a missing table = none), ``kinds`` (default all),
    ``seed``. Unknown keys fail loudly, so a typo does not silently train without
    the intended mix.
    """
    unknown = set(section) - {"fraction", "kinds", "seed"}
    if unknown:
        raise ValueError(f"unknown keys in [data.hard_negatives]: {sorted(unknown)}")
    fraction = float(section.get("fraction", 0.0))
    if fraction <= 0.0:
        return []
    kinds = tuple(str(k) for k in section.get("kinds", KINDS))
    cfg = HardNegativeConfig(fraction=fraction, kinds=kinds, seed=int(section.get("seed", 1457)))
    return generate(pairs, labels, cfg)


def main(argv: list[str] | None = None) -> int:
    """Write hard negatives of a JSONL pair file (e.g. the held-out set, to measure a model).

    ``python -m provgraph.nli.hardneg --input ../shared/nli-train/heldout.jsonl
    --out heldout_hardneg.jsonl [--fraction 1.0] [--seed 1457]``; then
    ``python -m provgraph.nli.evaluate --heldout heldout_hardneg.jsonl`` gives the
    accuracy per kind (``source`` = ``hardneg_<kind>``).
    """
    from provgraph.nli.data import LABELS
    from provgraph.nli.pair_cli import run

    def make(pairs: Sequence[Pair], fraction: float, seed: int) -> list[Pair]:
        return generate(pairs, LABELS, HardNegativeConfig(fraction=fraction, seed=seed))

    return run(argv, (main.__doc__ or "").split("\n")[0], make)


if __name__ == "__main__":
    raise SystemExit(main())
