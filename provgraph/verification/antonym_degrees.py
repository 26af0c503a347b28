"""Degrees of an opposite word: "less" reverses it, "more" makes it a comparative.

Read by :mod:`.antonyms` before it calls two words a conflict:

* a word after "less" / "least" says its opposite's degree: "less expensive than gas"
  says "cheaper than gas" (:func:`lessened`);
* a comparative opposes only a comparative: "made it simpler" / "made it more
  complicated" conflict, "was low in August" / "was higher than in July" do not
  (:func:`compared_degree`). A comparative that is the result of a change ("made the
  tax code *more complicated*", "became more expensive") reports the change itself, as
  a verb does: it is no comparison with another thing, so "The policy *simplified* the
  tax code." / "… *made* the tax code *more complicated*" conflict (session 40).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from provgraph.verification.antonym_lexicon import LEXICON, Lexicon, american
from provgraph.verification.wordsets import stem

_LESS = re.compile(r"\b(?:less|least)\s+([a-z]+)")
_MORE = re.compile(r"\bmore\s+([a-z]+)")
#: "made / rendered / became / grew / got … more X": a change to a degree, at most four
#: words (the thing changed) between the verb and "more"; not with "than" after it
#: ("became cheaper than coal" compares with another thing).
_CHANGED_TO_MORE = re.compile(
    r"\b(?:make|makes|made|making|render(?:s|ed|ing)?|become|becomes|became|becoming|"
    r"grow|grows|grew|growing|get|gets|got|getting)\b(?:\s+[\w'-]+){0,4}?\s+more\s+([a-z]+)"
    r"(?!\s+than\b)"
)


def key_of(lexicon: Lexicon) -> Callable[[str], str]:
    """How a text's word is keyed in ``lexicon``: the hand list by crude stem, WordNet's by
    its American spelling."""
    return stem if lexicon is LEXICON else american


def _after(pattern: re.Pattern[str], text: str, word: str, lexicon: Lexicon) -> bool:
    key = key_of(lexicon)
    return any(key(m.group(1)) == word for m in pattern.finditer(text.lower()))


def lessened(text: str, word: str, lexicon: Lexicon) -> bool:
    """Is ``word`` (a key of ``lexicon``) read in ``text`` after "less" / "least"? Its
    opposite degree: "less expensive than gas" says "cheaper than gas"."""
    return _after(_LESS, text, word, lexicon)


def compared_degree(text: str, word: str, lexicon: Lexicon) -> bool:
    """Is ``word`` a comparative in ``text`` ("more complicated", "simpler" → "more
    simple") that compares rather than reports a change ("made it more complicated")?"""
    return _after(_MORE, text, word, lexicon) and not _after(_CHANGED_TO_MORE, text, word, lexicon)
