"""A state denied by its opposite: "not deep" read as "shallow".

"The lake is shallow." against "The lake is not deep; its average depth is about two
metres.": the small NLI model reads the denial of the opposite as a contradiction (0.58,
entailment 0.23), so a source that says the claim in other words left it *weak*. For an
ordinary gradable state, denying one pole asserts the other as far as a reader of a
citation is concerned ("not cheap" is expensive, "not large" small), so the windows NLI
read are read again with each "<copula> not <opposite of a claim word>" written as
"<copula> <the claim's word>" (:mod:`.window_rereads`: the larger entailment, the smaller
contradiction of the two readings).

Only states: the denied word follows a copula ("is", "was", "seems", "remained" …) and
neither it nor the claim's word can only be a verb ("did not win" is not "lost": a draw
is neither); the opposites are the antonym lexicons' (:func:`.antonym_lexicon.are_opposites`),
and a degree word between ("not very deep", "not at all deep") goes with the denial.
"""

from __future__ import annotations

import re
from typing import Any

from provgraph.verification.antonym_lexicon import are_opposites
from provgraph.verification.focus import PairScorer
from provgraph.verification.report import StageScore
from provgraph.verification.window_rereads import Item, reread_windows
from provgraph.verification.word_classes import is_verb

_DENIED_STATE = re.compile(
    r"\b(?P<copula>is|are|was|were|be|been|being|seems?|seemed|remains?|remained|"
    r"appears?|appeared|stays?|stayed)(?:\s+not|n't)\s+"
    r"(?:(?:very|particularly|especially|that|too|at\s+all)\s+)?(?P<word>[a-z]+)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z]+")


def _claim_opposite(claim_words: list[str], denied: str) -> str | None:
    """The claim's word that ``denied`` is an opposite of (None: none, or a verb)."""
    if is_verb(denied):
        return None
    for word in claim_words:
        different = word.lower() != denied.lower() and not is_verb(word)
        if different and are_opposites(word.lower(), denied.lower()):
            return word
    return None


def with_opposites_asserted(claim: str, window: str) -> str | None:
    """``window`` with each denied opposite of a claim word written as that word, or None."""
    claim_words = _WORD.findall(claim)
    changed = False

    def assert_opposite(m: re.Match[str]) -> str:
        nonlocal changed
        word = _claim_opposite(claim_words, m.group("word"))
        if word is None:
            return m.group(0)
        changed = True
        return f"{m.group('copula')} {word.lower()}"

    rewritten = _DENIED_STATE.sub(assert_opposite, window)
    return rewritten if changed else None


def reread_negated_opposites(
    scorer: PairScorer, items: list[Item]
) -> list[tuple[StageScore, dict[str, Any]] | None]:
    """For each :data:`Item`: the NLI score and signals after the reading, or None (no
    denied opposite in a window, or no contradiction worth discounting)."""
    return reread_windows(scorer, items, with_opposites_asserted, "opposite_asserted")
