"""A claim about someone's relative against a source about that someone alone: "The poet's
brother was a sailor." against "The poet was a sailor before he began writing."

The NLI model reads such pairs as entailment (0.84): every word of the claim but the
relation is in the source, and the relation is one small word. The source speaks of
another person than the claim's subject, so it neither supports nor refutes the claim.

The rule reads the claim's subject (the words before its first verb) as "<possessor>'s
<relation>" ("The poet's brother", "Marie Curie's daughter", "the company's owner") with
a relation of :data:`RELATIONS`, and holds when the source names the possessor (one of its
content words) and names **no** relation of the list at all: a source that names any
relative ("his wife", "a sister") may be naming the claim's in other words ("spouse" /
"husband") and is left to the other stages. "His brother" (a pronoun for the possessor)
is not read: who "he" is, the claim does not say.
"""

from __future__ import annotations

import re

from provgraph.verification.claimsplit import subject_and_verb
from provgraph.verification.possessive_roles import ONE_WAY
from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import WORD_RE, content_stems, stem

#: Relations between people (and a firm and its owner): the one-way ones of
#: :mod:`.possessive_roles` and those that hold both ways.
RELATIONS = ONE_WAY | frozenset((
    "brother", "sister", "sibling", "twin", "wife", "husband", "spouse", "partner", "cousin",
    "friend", "fiance", "fiancee", "widow", "widower", "mum", "mom", "dad", "grandparent",
    "family", "relative", "colleague", "girlfriend", "boyfriend", "bride", "groom",
))  # fmt: skip
#: Plurals the stemmer does not bring to their singular ("wives" → "wive").
_IRREGULAR_PLURALS = frozenset(("wives", "children", "grandchildren", "stepchildren"))
_RELATION_STEMS = frozenset(stem(w) for w in RELATIONS | _IRREGULAR_PLURALS)
_POSSESSIVE = re.compile(
    r"^(?P<owner>.+?)['\u2019]s?\s+(?:(?:late|former|elder|older|younger|eldest|youngest|"
    r"only|twin|step|adoptive|biological)\s+)*(?P<relation>[a-z]+)$"
)


def unnamed_relative(claim: str, source: str) -> str | None:
    """The relation of a one-sentence claim's possessive subject ("brother") when the
    source names its possessor and no relative at all; else None."""
    if len(split_sentences(claim)) != 1:
        return None
    split = subject_and_verb(claim.replace("\u2019", "'"))
    if split is None:
        return None
    found = _POSSESSIVE.match(split[0].strip())
    if found is None or found.group("relation") not in RELATIONS:
        return None
    owner = set(content_stems(found.group("owner")))
    source_stems = {stem(w.lower()) for w in WORD_RE.findall(source)}
    if not owner or not owner & source_stems or source_stems & _RELATION_STEMS:
        return None
    return found.group("relation")
