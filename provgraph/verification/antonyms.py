"""Antonyms: "rose" vs "fell", "open" vs "closed", "approved" vs "rejected".

The shipped NLI model (a small cross-encoder) often scores a sentence and its
antonym-swapped twin as entailment: the words are nearly all shared. This
check flags a claim and its best-matching source sentence that share most
content words but differ by a pair of opposites, each absent from the other
side and neither negated (a negated antonym is a paraphrase: "did not rise" ≈
"fell"). A general lexicon of common opposites, not tuned to any data set;
WordNet would be the library for it, but its data is a separate download the
platform cannot fetch at run time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.negation import best_sentence, negated_scopes
from provgraph.verification.wordsets import content_stems, stem

_PAIRS = """
increase decrease; increase reduce; increase cut; increase shrink; rise fall; rise drop;
grow shrink; gain lose; gain loss; profit loss; win lose; won lost; win lost; won lose;
open close; opened closed; approve reject; approved rejected; accept reject; accepted rejected;
allow ban; allowed banned; permit prohibit; legal illegal; higher lower; highest lowest;
largest smallest; biggest smallest; maximum minimum; strong weak; stronger weaker;
positive negative; safe unsafe; safe dangerous; effective ineffective; improve worsen;
improved worsened; success failure; succeed fail; succeeded failed; survive die; survived died;
alive dead; public private; majority minority; first last; earliest latest; north south;
east west; upward downward; inside outside; arrive depart; buy sell; bought sold; hire fire;
hired fired; begin end; guilty innocent; convicted acquitted; true false; correct incorrect;
possible impossible; include exclude; included excluded; expand contract; entered left;
rising falling; increasing decreasing; cheaper dearer; cheap expensive; young old; early late;
earlier later; before after; above below; support oppose; supported opposed; agree disagree;
present absent; common rare; frequent rare; full empty; wet dry; hot cold; warm cold;
bigger smaller; larger smaller; longer shorter; faster slower; older younger; wider narrower;
heavier lighter; better worse; more fewer; expand shrunk; expanded shrank; grow shrank;
weaken strengthen; weakened strengthened; married divorced; marry divorce; legal illegal;
gain shed; add cut; raise lower; raised lowered; boost cut
"""


def _lexicon() -> dict[str, frozenset[str]]:
    table: dict[str, set[str]] = {}
    for pair in _PAIRS.replace("\n", " ").split(";"):
        words = pair.split()
        if len(words) != 2:
            continue
        a, b = stem(words[0]), stem(words[1])
        if a == b:
            continue
        table.setdefault(a, set()).add(b)
        table.setdefault(b, set()).add(a)
    return {k: frozenset(v) for k, v in table.items()}


LEXICON = _lexicon()
_MIN_SHARED = 0.5


@dataclass(frozen=True)
class AntonymFinding:
    """A word of the claim whose opposite the source uses instead."""

    claim_word: str
    source_word: str


def _raw_stems(text: str) -> set[str]:
    """Stems including the stopword-like opposites (before/after, above/below)."""
    return {stem(w) for w in re.findall(r"[A-Za-z]+", text) if len(w) > 2}


def antonym_conflict(claim: str, window: str) -> AntonymFinding | None:
    """The first opposite pair between the claim and its best-matching window sentence."""
    sentence, share = best_sentence(claim, window)
    if share < _MIN_SHARED:
        return None
    claim_words, source_words = _raw_stems(claim), _raw_stems(sentence)
    negated = {w for text in (claim, sentence) for _c, sc in negated_scopes(text) for w in sc}
    shared_content = set(content_stems(claim)) & set(content_stems(sentence))
    if len(shared_content) < 2:
        return None
    for word in sorted(claim_words - source_words):
        for opposite in LEXICON.get(word, ()):
            if opposite in source_words and opposite not in claim_words:
                if word in negated or opposite in negated or _converse(claim, sentence):
                    return None
                return AntonymFinding(word, opposite)
    return None


_THAN = re.compile(r"^(?P<left>.*?)\bthan\b(?P<right>.*)$", re.IGNORECASE | re.DOTALL)


def _converse(claim: str, sentence: str) -> bool:
    """ "A is larger than B" / "B is smaller than A": opposite comparatives, sides exchanged."""
    a, b = _THAN.match(claim), _THAN.match(sentence)
    if a is None or b is None:
        return False
    left_a, right_a = set(content_stems(a["left"])), set(content_stems(a["right"]))
    left_b, right_b = set(content_stems(b["left"])), set(content_stems(b["right"]))
    return bool(right_a & left_b) and bool(left_a & right_b) and not (left_a & left_b - right_a)
