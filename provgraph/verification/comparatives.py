"""Comparisons with their sides exchanged: "Norway has a higher GDP than Sweden" / "Sweden has
a higher GDP than Norway".

The shipped NLI model scores that pair as entailment 0.95 (every word is shared),
the same failure as an exchanged agent and patient (:mod:`.roles`), and the
antonym check cannot see it (the same comparative on both sides). The rule: a
claim sentence "A … <comparative> … than B", with A and B names (capitalised
word runs) and the comparative the nearest one before *than* in the same clause
("higher", "larger", "older" — an adjective or adverb in its comparative form,
by ``lemminflect`` — or "more/less/fewer X"), conflicts with a window sentence
stating the same comparison of B to A, unless the window also states it the
claim's way. A converse wording ("B is lower than A") is not the same
comparative and is never a conflict here. Lower-case noun phrases ("the church
is older than the castle") are left to NLI: without a parser their edges are
guesses — except groups a preposition delimits on both sides, "more common in women
than in men" (:func:`group_comparisons`).
"""

from __future__ import annotations

import re

from provgraph.verification.roles import RoleFinding, named_tokens
from provgraph.verification.sentences import split_sentences

_QUANTIFIERS = frozenset(["more", "less", "fewer"])
_CLAUSE_BREAK = frozenset([",", ";", ":", "than"])
#: Tokens scanned back from "than" for the comparative.
_REACH = 6


def positive_form(word: str) -> str | None:
    """The positive form of a one-word comparative ("higher" → "high"), else None."""
    from lemminflect import getAllLemmas

    lower = word.lower()
    if not lower.endswith("er") and lower not in ("better", "worse"):
        return None
    lemmas = getAllLemmas(lower)
    for pos in ("ADJ", "ADV"):
        for lemma in lemmas.get(pos, ()):
            if lemma != lower:
                return str(lemma)
    return None


def comparisons(sentence: str) -> list[tuple[str, str, str]]:
    """``(left name, comparative, right name)`` for each "A … -er … than B" of ``sentence``."""
    tokens, names = named_tokens(sentence)
    starts = {start: key for start, _end, key in names}
    out: list[tuple[str, str, str]] = []
    for t, token in enumerate(tokens):
        if token.lower() != "than":
            continue
        right = starts.get(t + 1) or (
            starts.get(t + 2) if t + 2 < len(tokens) and tokens[t + 1].lower() == "the" else None
        )
        if right is None:
            continue
        found: tuple[int, str] | None = None
        for k in range(t - 1, max(-1, t - 1 - _REACH), -1):
            word = tokens[k].lower()
            if word in _CLAUSE_BREAK:
                break
            if word in _QUANTIFIERS and k + 1 < t:
                found = (k, f"{word} {tokens[k + 1].lower()}")
                break
            lemma = positive_form(tokens[k])
            if lemma is not None:
                found = (k, lemma)
                break
        if found is None:
            continue
        k, key = found
        left = [
            n
            for start, end, n in names
            if end <= k and not any(x.lower() in _CLAUSE_BREAK for x in tokens[end:k])
        ]
        if left and left[-1] != right:
            out.append((left[-1], key, right))
    return out


#: "more common in women than in men": the sides are the phrases after one preposition,
#: repeated after "than" (session 39) — lower-case groups, delimited by the two
#: prepositions, so no parser is needed to find their edges.
_GROUP_COMPARISON = re.compile(
    r"\b(?P<cmp>(?:more|less|fewer)\s+[a-z]+|[a-z]+er)\s+(?P<prep>in|among|for|with|at)\s+"
    r"(?:the\s+)?(?P<left>[\w'-]+(?:\s+[\w'-]+)?)\s+than\s+(?P=prep)\s+(?:the\s+)?"
    r"(?P<right>[\w'-]+(?:\s+[\w'-]+)?)\b",
    re.IGNORECASE,
)


def group_comparisons(sentence: str) -> list[tuple[str, str, str]]:
    """``(left group, comparative, right group)`` for each "<comparative> in A than in B"."""
    out: list[tuple[str, str, str]] = []
    for m in _GROUP_COMPARISON.finditer(sentence):
        words = m.group("cmp").lower().split()
        key = " ".join(words) if len(words) == 2 else positive_form(words[0])
        left, right = m.group("left").lower(), m.group("right").lower()
        if key is not None and left != right:
            out.append((left, key, right))
    return out


def _all_comparisons(sentence: str) -> list[tuple[str, str, str]]:
    return comparisons(sentence) + group_comparisons(sentence)


def comparative_swap(claim: str, window: str) -> RoleFinding | None:
    """A comparison of the claim the window states with its two sides exchanged, if any."""
    claimed = [c for s in split_sentences(claim) for c in _all_comparisons(s.text)]
    if not claimed:
        return None
    stated = {c for s in split_sentences(window) for c in _all_comparisons(s.text)}
    if any(c in stated for c in claimed):
        return None  # stated the claim's way somewhere: no conflict
    for left, key, right in claimed:
        if (right, key, left) in stated:
            return RoleFinding(key, (left, right), (right, left))
    return None
