"""A past event the source only says may happen: "The firm *may report* results in June"
against "The firm reported results in June."

The small NLI model reads the pair as entailment (0.97): every content word is shared and
the modal weighs little. A source that says something may or might happen states no
fact about it; a claim that it happened is then *unsupported*, as for a matter the
source says is unknown (:mod:`.unknowns`, whose signal this rule sets).

Deliberately narrow (session 28):

* the claim's verb is in the past tense ("reported", "won"; a past that is its base form,
  "cut", only after a singular subject: "Banks cut rates" may be the present) and the
  claim has no hedge of its own; a claim in the present tense is left alone, because a
  health or science abstract's "may reduce the risk" is its way of stating a finding
  ("reduces the risk");
* the source's "may" / "might" (not "could", also a past ability) governs the same verb
  or a synonym (:func:`.synonyms.same_verb`), in a clause speaking of the claim (two of
  its content words and half of them);
* no other clause of the evidence uses the verb without a modal (the source says it
  happened after all: "… may report in June; it reported in July" is a date question).
"""

from __future__ import annotations

import re
from functools import lru_cache

from provgraph.verification.synonyms import same_verb
from provgraph.verification.unknowns import speaks_of
from provgraph.verification.wordsets import clauses, content_stems

#: Lower-case only (and any case opening the claim): "in May" is the month.
_CLAIM_HEDGES = re.compile(
    r"\b(?:may|might|could|can|possibly|perhaps|likely|expected|planned|plans?|will|would)\b"
    r"|^(?:May|Might|Could|Can|Possibly|Perhaps|Likely|Will|Would)\b"
)
_MODAL = re.compile(r"\b(?:may|might)\s+(?:well\s+|also\s+|soon\s+|still\s+)?(?P<verb>[a-z]+)\b")
_WORD = re.compile(r"[A-Za-z]+")


@lru_cache(maxsize=4096)
def _past_lemma(word: str, before: str = "") -> str | None:
    """The lemma of a past-tense verb form ("reported" → "report"), else None. A verb whose
    past is its base ("cut", "set") is past only after a word that makes it no present
    form: not a modal, "to", a plural pronoun or a word ending in "s" ("Banks cut rates"
    may be the present; "The bank cut rates" is not)."""
    from lemminflect import getAllLemmas, getInflection

    lemmas: tuple[str, ...] = tuple(getAllLemmas(word).get("VERB", ()))
    if not lemmas or word not in getInflection(lemmas[0], tag="VBD"):
        return None
    if lemmas[0] == word and (not before or _NOT_PAST_AFTER.match(before)):
        return None
    return lemmas[0]


_NOT_PAST_AFTER = re.compile(
    r"^(?:to|will|would|can|could|may|might|must|shall|should|do|does|did|i|we|you|they|"
    r"\w+s)$"
)


def speculated_statement(claim: str, window: str) -> str | None:
    """The evidence clause that says the claim's past event only may happen, else None."""
    if _CLAIM_HEDGES.search(claim):
        return None
    words = _WORD.findall(claim.lower())
    verbs = {
        lemma for i, w in enumerate(words) if (lemma := _past_lemma(w, words[i - 1] if i else ""))
    }
    if not verbs:
        return None
    own = set(content_stems(claim))
    parts = [c.text for c in clauses(window)]
    for i, clause in enumerate(parts):
        low = clause.lower()
        modal = [
            m for m in _MODAL.finditer(low) if any(_same_or_synonym(m["verb"], v) for v in verbs)
        ]
        if not modal or not speaks_of(own, clause):
            continue
        if not any(_plainly_states(other, verbs) for j, other in enumerate(parts) if j != i):
            return clause.strip()
    return None


def _same_or_synonym(word: str, lemma: str) -> bool:
    """Is ``word`` a form of ``lemma`` or of a synonym of it?"""
    return word == lemma or same_verb(word, lemma)


def _plainly_states(clause: str, verbs: set[str]) -> bool:
    """Does ``clause`` use one of ``verbs`` in a past form, outside a modal?"""
    words = _WORD.findall(_MODAL.sub(" ", clause.lower()))
    return any(
        (lemma := _past_lemma(w, words[i - 1] if i else "")) is not None
        and any(_same_or_synonym(lemma, v) for v in verbs)
        for i, w in enumerate(words)
    )
