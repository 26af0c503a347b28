"""The opposites lexicons the antonym rules read: a hand list and WordNet's pairs.

Two general lexicons, neither tuned to any data set: a hand list of common opposites
(``antonyms_hand.txt``, with the irregular forms crude stems miss: "won"/"lost",
"shrank"), and WordNet 3.0's direct antonyms with their inflections
(``antonyms_wordnet.txt``, built by ``bench/build_antonyms.py``; WordNet is a separate
download the platform cannot fetch at run time, so the derived list ships in the
package with WordNet's licence notice). Split from :mod:`.antonyms` (session 27), which
keeps the rule that reads them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from provgraph.verification.wordsets import STOPWORDS, stem

#: Verbs of a direction, each opposite every verb of the other direction ("rising" /
#: "declining", "grows" / "falls", "surged" / "tumbled"): listed once per direction rather
#: than as every pair (session 21). Evaluative verbs ("improve", "worsen") are not here:
#: "unemployment improved" and "unemployment fell" say the same.
_UP = "rise increase grow climb jump surge soar skyrocket expand"
_DOWN = "fall decrease decline drop shrink slump plunge plummet sink tumble collapse wane"
#: The same for verbs that move something else (session 32): "smoking *increases* the risk"
#: opposes "smoking *lowers* the risk", which the model read as entailment (0.92).
_RAISE = "raise increase boost elevate heighten"
_LOWER = "lower reduce decrease cut lessen diminish"


#: The direction verbs by crude stem: a change, which compares with the state before it, so
#: it opposes a comparative ("an *increased* risk" / "a *lower* risk", session 32).
DIRECTION_STEMS = frozenset(stem(w) for w in f"{_UP} {_DOWN} {_RAISE} {_LOWER}".split())


WORDNET_PAIRS = Path(__file__).with_name("antonyms_wordnet.txt")
#: The hand list (rose/fell, open/closed, approved/rejected, surplus/shortage …), one pair a line.
HAND_PAIRS = Path(__file__).with_name("antonyms_hand.txt")


def _hand_pairs() -> list[list[str]]:
    listed = read_pairs(HAND_PAIRS)
    return listed + [
        [up, down]
        # a thing moved one way against its own move the other way: "boosted exports" /
        # "exports slumped", "cut emissions" / "emissions rose" (session 37)
        for ups, downs in ((_UP, _DOWN), (_RAISE, _LOWER), (_RAISE, _DOWN), (_UP, _LOWER))
        for up in ups.split()
        for down in downs.split()
    ]


def read_pairs(path: Path) -> list[list[str]]:
    """The pairs of a list file, one ``word opposite`` per line (``#`` lines are the header)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.split() for line in lines if line and not line.startswith("#")]


def wordnet_pairs() -> list[list[str]]:
    """WordNet's pairs (``antonyms_wordnet.txt``, built by ``bench/build_antonyms.py``)."""
    return read_pairs(WORDNET_PAIRS)


Lexicon = dict[str, frozenset[str]]


def _lexicon(pairs: Iterable[list[str]], normalise: Callable[[str], str]) -> Lexicon:
    table: dict[str, set[str]] = {}
    for words in pairs:
        if len(words) != 2:
            continue
        a, b = normalise(words[0]), normalise(words[1])
        if a == b:
            continue
        table.setdefault(a, set()).add(b)
        table.setdefault(b, set()).add(a)
    return {k: frozenset(v) for k, v in table.items()}


#: WordNet pairs of a sense other than the words' everyday one: "live" / "recorded" is live
#: music against a recording, but "20 species *live* in the lake" against "biologists have
#: *recorded* 34 species" opposes nothing (session 23).
_OTHER_SENSES = frozenset({frozenset({"live", "recorded"})})
#: The hand list, by crude stem: it names lemmas and irregular forms, stems reach the rest.
LEXICON: Lexicon = _lexicon(_hand_pairs(), stem)
#: WordNet's pairs, by exact lower-case word: every inflection is listed, and crude
#: stems would conflate words WordNet keeps apart ("specializes" and "special", whose
#: opposite is "general"). Pairs with a function word are left out ("more"/"less",
#: "have"/"miss", "still"/"moving", "out"/"safe"): what such a word opposes depends on
#: what it modifies, and "a bit less massive than this" states the converse of "more
#: massive than" (a dev-file supported claim flagged so, session 9).
WORDNET_LEXICON: Lexicon = _lexicon(
    [
        pair
        for pair in wordnet_pairs()
        if not STOPWORDS.intersection(pair) and frozenset(pair) not in _OTHER_SENSES
    ],
    str.lower,
)


def tokens(text: str) -> list[str]:
    """Lower-case words of three letters or more, stopwords included (before/after)."""
    return [w.lower() for w in re.findall(r"[A-Za-z]+", text) if len(w) > 2]


def raw_stems(text: str) -> set[str]:
    """Stems including the stopword-like opposites (before/after, above/below)."""
    return {stem(american(w)) for w in tokens(text)}


def already_stemmed(word: str) -> str:
    return word  # the crude stemmer is not idempotent: never stem a stem twice


def lexicon_words(text: str) -> set[str]:
    """Lower-case words, in WordNet's (American) spelling where that is a lexicon word."""
    return {american(w) for w in tokens(text)}


_BRITISH = ((re.compile(r"our"), "or"), (re.compile(r"is(e|ed|es|ing|ation|ations)$"), r"iz\1"))


def american(word: str) -> str:
    """ "favourable" → "favorable", "organised" → "organized", when WordNet has that form."""
    if word in WORDNET_LEXICON:
        return word
    for pattern, replacement in _BRITISH:
        candidate = pattern.sub(replacement, word)
        if candidate != word and candidate in WORDNET_LEXICON:
            return candidate
    return word


def are_opposites(word: str, other: str) -> bool:
    """Are two lower-case words (lemmas) opposites in either lexicon ("cheap", "expensive")?"""
    if stem(other) in LEXICON.get(stem(word), ()):
        return True
    return american(other) in WORDNET_LEXICON.get(american(word), ())
