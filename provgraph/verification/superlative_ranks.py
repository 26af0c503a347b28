"""A superlative's rank changed: "The merger created the world's largest brewer." against
"The merger created the world's second-largest brewer after AB InBev."

"Largest" is rank one; "second-largest" rank two. The NLI model reads the pair as
entailment (0.95): one token differs. The rule reads, in the claim and in a source
clause, a superlative ("largest", "most populous", "best-selling") with its rank
(an ordinal before it, written "second-largest", "second largest", "2nd-largest";
none: first), and flags a clause with the same superlative and noun at another
rank when every other content word of the claim is in that clause — only the rank
differs, so it is the same statement. "One of the largest" states no rank.
(:mod:`.superlatives` reads the other case: the same rank given to another holder.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.ordinal_words import ORDINAL_NUMBERS
from provgraph.verification.sentences import split_sentences
from provgraph.verification.superlatives import NOT_SUPERLATIVE
from provgraph.verification.wordsets import clauses, content_stems

_ORDINAL = (
    r"(?P<ord>"
    + "|".join(sorted(ORDINAL_NUMBERS, key=len, reverse=True))
    + r"|\d{1,2}(?:st|nd|rd|th))"
)
_SUPERLATIVE = re.compile(
    rf"(?<!\bof )\b(?:the|its|their|his|her|[A-Za-z]+'s)\s+(?:{_ORDINAL}[\s-]+)?"
    r"(?P<sup>most\s+[a-z]+|least\s+[a-z]+|best-[a-z]+|[a-z]{2,}est|best|worst)\s+(?P<noun>[a-z]+)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class RankConflict:
    """The superlative and noun, the claim's rank and the source's."""

    superlative: str
    noun: str
    claim_rank: int
    source_rank: int


def _ranked(text: str) -> list[tuple[str, str, int, str]]:
    """``(superlative, noun, rank, words of the phrase)`` of ``text``."""
    out = []
    for m in _SUPERLATIVE.finditer(text):
        sup = " ".join(m.group("sup").lower().split())
        if sup in NOT_SUPERLATIVE or re.search(r"(?i)\bone\s+of\s*$", text[: m.start()]):
            continue
        ordinal = (m.group("ord") or "first").lower()
        rank = ORDINAL_NUMBERS.get(ordinal) or int(ordinal[:-2])
        out.append((sup, m.group("noun").lower(), rank, m.group(0)))
    return out


def rank_conflict(claim: str, window: str) -> RankConflict | None:
    """The claim's superlative at another rank in a window clause stating the rest of it."""
    claimed = _ranked(claim)
    if not claimed:
        return None
    for sentence in split_sentences(window):
        for clause in clauses(sentence.text):
            words = set(content_stems(clause.text))
            for sup, noun, rank, phrase in claimed:
                rest = set(content_stems(claim)) - set(content_stems(phrase))
                if not rest or not rest <= words:
                    continue
                for other_sup, other_noun, other_rank, _ in _ranked(clause.text):
                    if (other_sup, other_noun) == (sup, noun) and other_rank != rank:
                        return RankConflict(sup, noun, rank, other_rank)
    return None
