"""An exclusive claim the source widens: "The update is available for Android only."
against "The update is rolling out to both Android and iOS devices."

"Only X" (or "X only", "exclusively X", "solely X") says nothing else shares what
the claim asserts; a source that lists X with another name ("both X and Y", "X
and Y", "X as well as Y") in a sentence about the claim denies it. The NLI model
reads such pairs as entailment (every claim word is in the source). The rule
needs:

* in the claim, a name (capitalised words) right after "only" / "exclusively" /
  "solely" (a preposition between them allowed: "only on Android") or right
  before "only" ("for Android only"); not "not only" (which means "also"), not
  "the only" (a role with one holder: :mod:`.superlatives`), not "only one";
* in one source sentence, that name coordinated with another name the claim does
  not mention, and that sentence holding a content word of the claim besides the
  name in the coordination's clause (the same thing: "update"; "born in France and
  Belgium, made the film" speaks of another) — while not itself restricting it
  ("only on Android" in the source too).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import clauses, content_stems

#: Capitalised words, or a brand's lower-case first letter ("iOS", "eBay").
_WORD = r"(?:[A-Z]|[a-z][A-Z])[\w'.-]*"
_NAME = rf"{_WORD}(?:\s+{_WORD}){{0,3}}"
_PREPOSITION = r"(?:(?:on|in|for|to|at|by|from|with|via)\s+)?(?:the\s+)?"
_ONLY_FIRST = re.compile(
    rf"(?<![Nn]ot )(?<![Tt]he )\b(?i:only|exclusively|solely)\s+{_PREPOSITION}(?P<name>{_NAME})"
)
#: "for Android only" ends its clause: "Apple only makes phones" limits the verb, not Apple.
_NAME_FIRST = re.compile(rf"(?P<name>{_NAME})\s+only\b(?=\s*(?:[.,;:!?)]|$))")
_COORDINATED = re.compile(
    rf"(?:\bboth\s+)?(?P<a>{_NAME})\s*,?\s+(?:and|as well as|&)\s+(?P<b>{_NAME})"
)
_NOT_NAMES = frozenset({"The", "A", "An", "It", "This", "That", "Its", "Both", "And"})


@dataclass(frozen=True)
class ExclusiveConflict:
    """The claim's exclusive name and the other name the source gives beside it."""

    name: str
    other: str


def _exclusive_names(claim: str) -> list[str]:
    names: list[str] = []
    for pattern in (_ONLY_FIRST, _NAME_FIRST):
        for m in pattern.finditer(claim):
            name = m.group("name").strip().rstrip(".")
            first = name.split()[0]
            if first in _NOT_NAMES or (pattern is _NAME_FIRST and m.start() == 0):
                continue  # a sentence's first word is capitalised whatever it is
            names.append(name)
    return names


def _same(a: str, b: str) -> bool:
    return bool(set(a.lower().split()) & set(b.lower().split()))


def exclusive_conflict(claim: str, window: str) -> ExclusiveConflict | None:
    """The first source sentence listing the claim's exclusive name with another."""
    names = _exclusive_names(claim)
    if not names:
        return None
    for sentence in split_sentences(window):
        text = sentence.text
        if re.search(r"\b(?:only|exclusively|solely)\b", text, re.IGNORECASE):
            continue
        for clause in clauses(text):
            found = _widened(names, claim, clause.text)
            if found is not None:
                return found
    return None


def _widened(names: list[str], claim: str, clause: str) -> ExclusiveConflict | None:
    """A claim name coordinated in ``clause`` with a name the claim does not mention, the
    clause holding another content word of the claim."""
    words = set(content_stems(clause))
    for name in names:
        if not (set(content_stems(claim)) - set(content_stems(name))) & words:
            continue
        for m in _COORDINATED.finditer(clause):
            a, b = m.group("a").strip(), m.group("b").strip()
            if a.split()[0] in _NOT_NAMES or b.split()[0] in _NOT_NAMES:
                continue
            for mine, other in ((a, b), (b, a)):
                if _same(mine, name) and other.lower() not in claim.lower():
                    return ExclusiveConflict(name, other)
    return None
