"""A unanimous vote against a tally with votes against it: "The vote was unanimous."
against "The measure passed by 7 votes to 2."

The NLI model does not read a tally ("7 votes to 2", "a 6-3 decision", "51-49") as
a count of dissent, and the value checks compare no number with "unanimous". The
rule: one side says the vote was unanimous ("unanimous(ly)", "without dissent /
opposition", "no one voted against"), the other gives a tally in a sentence that
speaks of a vote (vote, voted, ballot, passed, approved, rejected, decision,
ruling, motion, bill, measure) and shares a content word with the first; a tally
whose smaller side is not zero conflicts ("9-0" agrees; nothing is said then).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import SMALL_NUMBERS, content_stems

_UNANIMOUS = re.compile(
    r"\bunanimous(?:ly)?\b|\bwithout\s+(?:a\s+single\s+)?(?:dissent|opposition|objection)\b|"
    r"\b(?:no\s+one|nobody|none)\s+(?:of\s+\w+\s+)?voted\s+against\b",
    re.IGNORECASE,
)
_COUNT = r"\d{1,3}|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_TALLY = re.compile(
    rf"\b(?P<yes>{_COUNT})\s*(?:votes?\s+)?(?:to|-|–|—)\s*(?P<no>{_COUNT})\b"
    rf"|\b(?P<against>{_COUNT})\s+(?:votes?\s+against|(?:\w+\s+)?vot(?:ed|ing)\s+against|abstentions?)",
    re.IGNORECASE,
)
_VOTE_WORDS = re.compile(
    r"\b(?:vot(?:e|es|ed|ing)|ballot|passed|approved|rejected|decision|ruling|motion|bill|"
    r"measure|verdict)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class VoteConflict:
    """The side calling the vote unanimous, and the other side's tally."""

    unanimous_side: str
    tally: str
    #: share of the claim's other content words (the unanimity or tally words set
    #: aside) the conflicting sentence holds: "The vote was unanimous." is all about
    #: the vote a "7 votes to 2" sentence speaks of
    share: float = 0.0


#: Words before two numbers joined by "to" or a dash that make them a range.
_RANGE_BEFORE = ("from", "between", "aged", "ages", "age")


def _count(word: str) -> int:
    return int(word) if word.isdigit() else SMALL_NUMBERS.get(word.lower(), 0)


def _dissent(text: str) -> str | None:
    """The first tally of ``text`` with a vote against it, if any."""
    if not _VOTE_WORDS.search(text):
        return None
    for m in _TALLY.finditer(text):
        if text[: m.start()].rstrip().lower().endswith(_RANGE_BEFORE):
            continue  # "raises the age from 16 to 18": a range, no tally
        if m.group("against") is not None:
            if "abstention" in m.group(0).lower() or _count(m.group("against")) == 0:
                continue
            return m.group(0)
        yes, no = _count(m.group("yes")), _count(m.group("no"))
        if min(yes, no) > 0:
            return m.group(0)
    return None


def vote_conflict(claim: str, window: str) -> VoteConflict | None:
    """A unanimous vote on one side and a divided tally on the other."""
    claim_words = set(content_stems(claim))
    unanimous = _UNANIMOUS.search(claim)
    if unanimous:
        rest = claim_words - set(content_stems(unanimous.group(0)))
        for sentence in split_sentences(window):
            if _UNANIMOUS.search(sentence.text):
                continue  # the source calls it unanimous too: its numbers are no tally
            tally = _dissent(sentence.text)
            if tally and claim_words & set(content_stems(sentence.text)):
                return VoteConflict("claim", tally, _share(rest, sentence.text))
        return None
    tally = _dissent(claim)
    if tally is None:
        return None
    rest = claim_words - set(content_stems(tally))
    for sentence in split_sentences(window):
        if _UNANIMOUS.search(sentence.text) and claim_words & set(content_stems(sentence.text)):
            return VoteConflict("source", tally, _share(rest, sentence.text))
    return None


def _share(rest: set[str], sentence: str) -> float:
    return len(rest & set(content_stems(sentence))) / len(rest) if rest else 1.0
