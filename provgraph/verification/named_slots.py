"""A name the source replaces in the same place of the sentence: "The festival is held in
Glasgow." against "The festival is held every August in Edinburgh."

The shipped NLI model reads that pair as entailment (0.95): every other word of the
claim is in the source. The rule reads a name (capitalised words, not the sentence's
first word, not a month or weekday) after a preposition of the claim ("in Glasgow",
"by Peter Jackson", "from Lyon") whose words appear nowhere in the source, and a
source sentence that

* holds a word of the three before that preposition ("held") and two content words
  of the claim besides the name (the same statement, not another fact of the page),
  and
* puts a name the claim does not contain after the same preposition, within three
  words of that word ("held every August in Edinburgh").

A place inside another ("based in California" / "based in San Francisco") would
read as a swap; the names' words must then not meet at all, and a claim name the
source contains anywhere (even as a part: "Camden, London") never conflicts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import STOPWORDS, content_stems

_PREPOSITIONS = r"in|at|by|from|near|to|for|with|of"
_WORD = r"(?:[A-Z][\w'-]*|[a-z][A-Z][\w'-]*)"
_NAME = rf"{_WORD}(?:\s+(?:of\s+|de\s+|da\s+|van\s+)?{_WORD}){{0,3}}"
_SLOT = re.compile(rf"\b(?P<prep>{_PREPOSITIONS})\s+(?:the\s+)?(?P<name>{_NAME})")
#: How far before the preposition its word may be ("held *every August* in").
_ANCHOR_REACH = 3
_SAME_STATEMENT = 2
_NOT_NAMES = frozenset(
    [
        *(["January", "February", "March", "April", "May", "June", "July", "August", "September"]),
        *(["October", "November", "December", "Monday", "Tuesday", "Wednesday", "Thursday"]),
        *(["Friday", "Saturday", "Sunday", "I", "The", "A", "An"]),
    ]
)


@dataclass(frozen=True)
class NameSwap:
    """The claim's name, the source's in its place, and the preposition."""

    claim: str
    source: str
    preposition: str


def _slots(text: str) -> list[tuple[frozenset[str], str, str]]:
    """``(anchor words, preposition, name)`` of ``text``: the anchors are the lower-case
    content words among the :data:`_ANCHOR_REACH` words before the preposition."""
    out = []
    for m in _SLOT.finditer(text):
        name = m.group("name").rstrip(".")
        if name.split()[0] in _NOT_NAMES:
            continue
        before = re.findall(r"[\w'-]+", text[: m.start()])[-_ANCHOR_REACH:]
        anchors = frozenset(w for w in before if w.isalpha() and w.islower() and w not in STOPWORDS)
        if anchors:
            out.append((anchors, m.group("prep"), name))
    return out


def _words(name: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[\w'-]+", name)}


def name_swap(claim: str, window: str, source: str) -> NameSwap | None:
    """The claim's name after a preposition, absent from ``source``, replaced in a
    sentence of ``window`` by another name after the same preposition and word."""
    source_words = _words(source)
    claimed = [s for s in _slots(claim) if not _words(s[2]) & source_words]
    if not claimed:
        return None
    claim_lower = claim.lower()
    claim_stems = set(content_stems(claim))
    for sentence in split_sentences(window):
        text = sentence.text
        for anchors, prep, name in claimed:
            # two of the claim's words besides the name: the same statement
            rest = claim_stems - set(content_stems(name))
            if len(rest & set(content_stems(text))) < _SAME_STATEMENT:
                continue
            for other_anchors, other_prep, other in _slots(text):
                if (
                    anchors & other_anchors
                    and other_prep == prep
                    and other.lower() not in claim_lower
                    and not _words(other) & _words(name)
                ):
                    return NameSwap(name, other, prep)
    return None
