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

The reverse (:func:`relative_only`, session 35): "The painter was a sailor." against "The
painter's father was a sailor who drowned off Cornwall." (NLI 0.81 entailment). The claim's
subject has no relation; every time the source names it, it is as the possessor of a
relative ("the painter's father"), so the source speaks of that relative alone. One plain
mention ("… and the painter joined him at sea", "Before he took up painting, the painter
spent ten years as a sailor") and the rule does not hold.
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


#: A capitalised word (a name of the claim the source may name in a role swap).
_NAME = re.compile(r"\b[A-Z][\w'-]+")
#: A possessive and the relation after it: "'s late father".
_POSSESSIVE_AT = re.compile(
    r"['\u2019]s?\s+(?:(?:late|former|elder|older|younger|eldest|youngest|only|twin|step|"
    r"adoptive|biological)\s+)*(?P<relation>[A-Za-z]+)"
)


def _relation_after(source: str, end: int) -> str | None:
    """The relation of a possessive that starts at ``source[end:]`` ("'s late father"),
    else None."""
    found = _POSSESSIVE_AT.match(source, end)
    if found is None:
        return None
    relation = found.group("relation").lower()
    return relation if stem(relation) in _RELATION_STEMS else None


def relative_only(claim: str, source: str) -> str | None:
    """The relation through which the source names a one-sentence claim's subject, when it
    names the subject only so ("the painter's father", every mention); else None."""
    if len(split_sentences(claim)) != 1:
        return None
    split = subject_and_verb(claim.replace("\u2019", "'"))
    if split is None:
        return None
    subject = split[0].strip()
    if "'" in subject or set(content_stems(claim)) & _RELATION_STEMS:
        # a possessive subject is :func:`unnamed_relative`'s; a claim naming a relation
        # may be exchanging two people's ("Tom is Jerry's father" / "Jerry is Tom's father")
        return None
    others = set(_NAME.findall(claim[len(split[0]) :])) - set(_NAME.findall(subject))
    if any(re.search(rf"\b{re.escape(name)}\b", source) for name in others):
        return None  # "Kovacs taught Brandt." / "Brandt was Kovacs's teacher": a swap
    words = WORD_RE.findall(subject)
    if not words or not content_stems(words[-1]):
        return None
    head = re.compile(rf"\b{re.escape(words[-1])}\b", re.IGNORECASE)
    mentions = list(head.finditer(source))
    relations = [_relation_after(source, m.end()) for m in mentions]
    if not relations or None in relations:
        return None
    return relations[0]
