"""Negation by a prefix: "a *non-binding* agreement" denies "the agreement is binding".

The scoped negation rule (:mod:`.negation`) reads negating words ("not", "no longer",
"failed to"); a prefix negates inside the word, and the crude stems the other rules
compare keep the prefix ("inauthe", "non-bin") or split the hyphen off ("non",
"renewab"), so neither rule nor the opposites lexicons see that "The painting is
inauthentic." denies "The painting is authentic." — and the small NLI model reads the
pair as entailment (0.47 against 0.40 contradiction, session 30). Here a word of one
side is a negating prefix plus a word of the other side:

* *non-* (with or without a hyphen) before any adjective or participle ("non-binding",
  "nonrenewable"); not before a noun of people or things ("non-smokers",
  "non-members": a different group, not a denial of the claim's predicate);
* *un-* before a word of four letters or more ("unsafe" / "safe", "unpaid" / "paid");
* *in-*, *im-*, *il-*, *ir-* only before an adjective ending ("-able", "-ible", "-ent",
  "-ant", "-ate", "-ive", "-ect", "-id", "-al", "-ar", "-ete", "-ic"): "incorrect",
  "invalid", "illegal", "inauthentic" — never "income" / "come", "inform" / "form";
* never *dis-*: "discover", "dismiss", "display", "disease" say no "not".

An "-able" / "-ible" word also denies its verb ("non-renewable" / "can be renewed").
Words where the prefix is no negation are listed ("invaluable", "inflammable",
"immigrant", "impartial", "unearth" …). The finding goes through the negation rule's
own condition: the sentence must share most of the claim's words (the same thing is
spoken of), and neither side may hold both forms ("renewable and non-renewable
sources") or negate the plain word again ("not unsafe").
"""

from __future__ import annotations

import re

from provgraph.verification.negation import NegationFinding, best_sentence, negated_scopes
from provgraph.verification.wordsets import content_stems, stem

#: The share of the claim's content words the sentence must hold (as :mod:`.negation`).
_MIN_SHARED = 0.5
_NON = re.compile(r"\bnon-?([a-z]{4,})\b", re.IGNORECASE)
_UN = re.compile(r"\bun([a-z]{4,})\b", re.IGNORECASE)
_IN = re.compile(
    r"\b(?:in|im|il|ir)([a-z]{2,}(?:able|ible|ent|ant|ate|ive|ect|id|al|ar|ete|ic))\b",
    re.IGNORECASE,
)
#: Prefixed words whose prefix negates nothing (or not the plain word's sense).
_NOT_NEGATED = frozenset(
    [
        "invaluable",
        "inflammable",
        "infamous",
        "inhabitable",
        "impartial",
        "immaterial",
        "impatient",
        "immigrant",
        "immigrants",
        "immigrate",
        "immigrated",
        "immortal",
        "impassioned",
        "intent",
        "unearth",
        "unearthed",
        "unless",
        "until",
        "unravel",
        "unravelled",
        "unloosen",
    ]
)
#: Starts of words (every inflection) whose "un-" / "im-" reverses or means something
#: else rather than negating the plain word: "uncovered fraud" does not deny "covers
#: fraud", "an immediate ceasefire" says nothing of "mediated".
_NOT_NEGATING_STARTS = (
    "uncover", "unfold", "unveil", "unleash", "unwind", "unearth", "unravel", "immediat",
)  # fmt: skip
#: A noun of people or things after "non-": another group, not a denial.
_GROUP_NOUN = re.compile(r"(?:ers|ors|ists|ians|ans|ents|ies|s)$")
_ADJECTIVE_VERB = re.compile(r"(?:able|ible)$")


def _prefixed(text: str) -> list[tuple[str, str]]:
    """``(prefixed word, the word it negates)`` for each prefix negation in ``text``."""
    out: list[tuple[str, str]] = []
    for pattern in (_NON, _UN, _IN):
        for m in pattern.finditer(text):
            word, base = m.group(0).lower(), m.group(1).lower()
            if word in _NOT_NEGATED or word.replace("-", "") in _NOT_NEGATED:
                continue
            if word.startswith(_NOT_NEGATING_STARTS):
                continue
            if pattern is _NON and _GROUP_NOUN.search(base):
                continue
            out.append((word, base))
    return out


def _bases(base: str) -> set[str]:
    """The stems a negated word speaks of: itself, and an "-able" word's verb."""
    out = {stem(base)}
    if _ADJECTIVE_VERB.search(base) and len(base) > 7:
        out.add(stem(base[:-4]))
    return out


def _spoken(text: str) -> set[str]:
    """The content stems of ``text`` and of its "-able" words' verbs."""
    stems = content_stems(text)
    words = re.findall(r"[a-z]+(?:able|ible)\b", text.lower())
    return set(stems) | {b for w in words if len(w) > 7 for b in _bases(w)}


def _denies(prefixed_side: str, plain_side: str) -> tuple[str, str] | None:
    """A prefixed word of ``prefixed_side`` whose plain word ``plain_side`` asserts."""
    plain_stems = _spoken(plain_side)
    negated = {w for _cue, scope in negated_scopes(plain_side) for w in scope}
    negated_here = {w for _cue, scope in negated_scopes(prefixed_side) for w in scope}
    plain_lower = plain_side.lower()
    for word, base in _prefixed(prefixed_side):
        if word in plain_lower or stem(word) in negated_here:
            continue  # both sides use the prefixed word, or it is negated ("not unsafe")
        hits = _bases(base) & plain_stems
        if not hits or hits & negated:
            continue
        if any(h in set(content_stems(_without(prefixed_side, word))) for h in hits):
            continue  # "renewable and non-renewable": the plain word is stated too
        return word, sorted(hits)[0]
    return None


def _without(text: str, word: str) -> str:
    return re.sub(re.escape(word), " ", text, flags=re.IGNORECASE)


def _plain(text: str) -> str:
    """``text`` with each prefixed word read as the word it negates ("non-binding" →
    "binding"): what the sentence speaks of, for the share of the claim it holds."""
    for word, base in _prefixed(text):
        text = re.sub(rf"\b{re.escape(word)}\b", base, text, flags=re.IGNORECASE)
    return text


def prefix_negation_conflict(claim: str, window: str) -> NegationFinding | None:
    """A prefix negation on one side of the plain word the other side asserts, in the
    window sentence closest to the claim (see the module docstring)."""
    # the sentence closest to the claim, each side's prefixed words read as their plain
    # words ("non-binding" speaks of "binding")
    sentence, share = best_sentence(claim, window, lambda text: _spoken(_plain(text)))
    if share < _MIN_SHARED:
        return None
    found = _denies(sentence, claim)
    if found is not None:
        return NegationFinding("source", found[0], (found[1],), share)
    found = _denies(claim, sentence)
    if found is not None:
        return NegationFinding("claim", found[0], (found[1],), share)
    return None
