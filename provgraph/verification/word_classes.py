"""Word classes for the rule readers: can a word only be a verb here, is it a noun, a
determiner, a number word; and the tokens those readers walk.

Word classes come from ``lemminflect``'s English lexicon (bundled data, no download): a
word counts as a verb when it can only be a verb, or is an inflected verb form
("attracts", "hired", "rose") — bare forms that are also nouns ("phone", "cut") are not.
Split from :mod:`.claimsplit` (session 23), which the object-list reader
(:mod:`.object_lists`) and the role readers share it with.
"""

from __future__ import annotations

import re
from functools import lru_cache

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*|\d[\d,.]*%?|[^\sA-Za-z\d]")
DETERMINERS = frozenset((
    "the", "a", "an", "this", "that", "these", "those", "its", "his", "her", "their", "our",
    "my", "your", "some", "any", "no", "each", "every",
))  # fmt: skip
AUX = frozenset((
    "is", "are", "was", "were", "be", "been", "has", "have", "had", "will", "would", "can",
    "could", "may", "might", "must", "shall", "should", "does", "did", "do", "remains",
    "remained",
))  # fmt: skip
NUMBER_WORDS = frozenset((
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "dozens", "hundreds",
))  # fmt: skip


@lru_cache(maxsize=8192)
def word_classes(word: str) -> frozenset[str]:
    """The word's lemminflect classes (VERB, NOUN, ADJ …), and INFLECTED for a verb form
    other than its lemma ("hired", "attracts")."""
    from lemminflect import getAllLemmas

    lemmas = getAllLemmas(word.lower())
    out = set(lemmas)
    verb = lemmas.get("VERB", ())
    if any(lemma != word.lower() for lemma in verb):
        out.add("INFLECTED")
    return frozenset(out)


def is_verb(word: str) -> bool:
    """Can ``word`` only be a verb here: an auxiliary, a verb-only word or an inflected verb."""
    w = word.lower()
    if w in AUX:
        return True
    if not word[:1].isalpha() or w in DETERMINERS:
        return False
    classes = word_classes(w)
    if "VERB" not in classes:
        return False
    return "INFLECTED" in classes or not (classes & {"NOUN", "ADJ", "ADP", "ADV", "PRON"})


def can_be_verb(word: str) -> bool:
    """Has ``word`` a verb reading at all ("beat", "cut", "phone")."""
    return word[:1].isalpha() and "VERB" in word_classes(word.lower())


def words(text: str) -> list[str]:
    """The tokens of ``text``: words, numbers (with a "%"), and each punctuation mark."""
    return _TOKEN.findall(text)


def verb_of_subject(noun: str, word: str) -> bool:
    """Can ``word`` be the verb of ``noun`` read as a subject? A plural's verb takes no -s:
    in "and raises pensions", "pensions" is an object, not the verb of a subject "raises"
    (read so, the part lost the claim's subject; session 41)."""
    later = word.lower()
    if noun.endswith("s") and later.endswith("s") and not later.endswith("ss"):
        return later in {"is", "was", "has", "does"}
    return is_verb(later)
