"""Degrees of an adjective in their plain form: "the driest summer" → "dry", "simpler" →
"more simple", "twice as wide as" → "more wide than".

The antonym check compares words: the opposite of "wet" is "dry" at any degree, and a
comparative opposes only a comparative ("made it simpler" / "made it more complicated").
Word classes come from ``lemminflect``'s bundled lexicon (no download).
"""

from __future__ import annotations

import re
from functools import lru_cache

_DEGREE = re.compile(r"\b[a-z]{2,}est\b|(?<!\bno )(?<!\bany )\b[a-z]{2,}er\b")


def plain_superlatives(text: str) -> str:
    """``text`` with each superlative adjective as its plain form ("driest" → "dry") and each
    comparative as "more" and its plain form ("simpler" → "more simple"): the opposite of
    "wet" is "dry" at any degree, and "made it simpler" opposes "made it more complicated"
    (``antonyms._compared``). Words ending in "est" or "er" that are no degree of an adjective
    ("interest", "honest", "water", "never") stay, and so do comparatives that are also
    nouns or of another stem ("number", "better", "further") and "no longer". A multiple
    ("twice as wide as", "twice the size of", "half the length of") is read as the
    comparative it implies ("more wide than", "more large than", "more short than")."""

    def plain(m: re.Match[str]) -> str:
        word = m.group(0)
        lemmas = _adjective_lemmas(word)
        if not lemmas or lemmas[0] == word:
            return word
        if not word.endswith("er"):
            return lemmas[0]
        compared = m.string[m.end() : m.end() + 6].lower().startswith(" than")
        if (_has_noun(word) and not compared) or not word.startswith(lemmas[0][:3]):
            # "number" (not "numb"), "better", "further" (not "far"); "narrower than"
            # is the adjective's degree whatever nouns "narrower" also spells
            return word
        return f"more {lemmas[0]}"

    text = _MULTIPLE.sub(r"more \g<adj> than", text)
    text = _FRACTION.sub(r"less \g<adj> than", text)
    text = multiples_as_comparatives(text)
    return _DEGREE.sub(plain, text)


#: "twice as wide as", "three times as long as": a comparative ("wider than"), which
#: opposes "narrower than"; "half as wide as" is "less wide than".
_MULTIPLE = re.compile(
    r"\b(?:twice|thrice|(?:two|three|four|five|six|ten|\d+(?:\.\d+)?)\s+times)\s+as\s+"
    r"(?P<adj>[a-z]+)\s+as\b"
)
_FRACTION = re.compile(r"\b(?:half|a third|a quarter)\s+as\s+(?P<adj>[a-z]+)\s+as\b")

#: A dimension's noun and its two adjectives (more of it, less of it): "twice the size of"
#: is "larger than", "half the length of" is "shorter than" (session 36).
_DIMENSIONS: dict[str, tuple[str, str]] = {
    "size": ("large", "small"),
    "area": ("large", "small"),
    "length": ("long", "short"),
    "height": ("tall", "short"),
    "width": ("wide", "narrow"),
    "weight": ("heavy", "light"),
    "depth": ("deep", "shallow"),
    "age": ("old", "young"),
    "price": ("expensive", "cheap"),
    "cost": ("expensive", "cheap"),
    "speed": ("fast", "slow"),
}
_DIMENSION_NOUN = rf"the\s+(?P<noun>{'|'.join(_DIMENSIONS)})\s+of\b"
_MULTIPLE_OF = re.compile(
    r"\b(?:(?:more\s+than|over|almost|nearly|roughly|about|some)\s+)?(?:twice|thrice|double|triple|(?:two|three|four|five|six|ten|\d+(?:\.\d+)?)\s+times)\s+"
    + _DIMENSION_NOUN,
    re.IGNORECASE,
)
_FRACTION_OF = re.compile(
    r"\b(?:half|a\s+third\s+of|a\s+quarter\s+of|one\s+third\s+of)\s+" + _DIMENSION_NOUN,
    re.IGNORECASE,
)


def multiples_as_comparatives(text: str) -> str:
    """``text`` with each dimension's multiple as the comparative it implies: "(more than)
    twice the depth of" → "more deep than", "half the length of" → "more short than"."""
    text = _MULTIPLE_OF.sub(lambda m: f"more {_DIMENSIONS[m.group('noun').lower()][0]} than", text)
    return _FRACTION_OF.sub(lambda m: f"more {_DIMENSIONS[m.group('noun').lower()][1]} than", text)


@lru_cache(maxsize=4096)
def _has_noun(word: str) -> bool:
    from lemminflect import getAllLemmas

    return "NOUN" in getAllLemmas(word)


@lru_cache(maxsize=4096)
def _adjective_lemmas(word: str) -> tuple[str, ...]:
    from lemminflect import getAllLemmas

    return tuple(getAllLemmas(word).get("ADJ", ()))
