"""What an attributive opposite modifies: "an *increased* risk" / "a *lower* risk" oppose,
"this *increased* efficiency" / "a *lower* resting heart rate" do not.

A direction word used before a noun says the noun changed, so a pair of such words
conflicts only when they modify the same thing. Read for the direction words only
(:data:`.antonym_lexicon.DIRECTION_STEMS`), whose cross pairs with "low" / "high" are
the ones to reach adjectives (session 32: a dev-file supported claim flagged so).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from provgraph.verification.word_classes import word_classes
from provgraph.verification.wordsets import STOPWORDS, stem

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*|\S")
_MAX_HEAD = 3


def _adverb(word: str) -> bool:
    """An adverb that is no noun or adjective ("sharply", not "family" nor "early")."""
    classes = word_classes(word)
    return "ADV" in classes and not classes & {"NOUN", "ADJ"}


def _heads(text: str, word: str, key: Callable[[str], str]) -> list[set[str]]:
    """Per use of ``word`` (by ``key``) in ``text``: the stems of the run of content words
    right after it (empty when it is not followed by one: not attributive)."""
    tokens = _TOKEN.findall(text)
    out = []
    for i, token in enumerate(tokens):
        if key(token.lower()) != word:
            continue
        run: set[str] = set()
        for following in tokens[i + 1 : i + 1 + _MAX_HEAD]:
            if not following[:1].isalpha() or following.lower() in STOPWORDS:
                break
            if following.lower().endswith("ly") and _adverb(following.lower()):
                break  # "fell sharply": an adverb of the verb, no noun it modifies
            run.add(stem(following.lower()))
        out.append(run)
    return out


def modify_other_things(
    claim: str, word: str, sentence: str, opposite: str, key: Callable[[str], str]
) -> bool:
    """Are ``word`` (in ``claim``) and ``opposite`` (in ``sentence``) each used before a
    noun, and never before the same one?"""
    mine, theirs = _heads(claim, word, key), _heads(sentence, opposite, key)
    if not mine or not theirs or not all(mine) or not all(theirs):
        return False
    return not any(a & b for a in mine for b in theirs)
