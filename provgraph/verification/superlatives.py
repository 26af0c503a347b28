"""A superlative held by someone else: "Canberra is the largest city in Australia."
against "Sydney is the largest city in Australia, while Canberra is its capital."

A superlative names one holder: if the source gives "the largest city in Australia"
to Sydney, it denies it to Canberra. So do a few roles held by one ("the capital of
Canada", "the only survivor", "the sole supplier"). The NLI model reads the pair as
entailment (the claim's words are all in the window). The rule needs, in one source
sentence:

* the claim's superlative ("largest", "most populous") with the same noun after it
  ("city"), not preceded by "one of" (no longer unique) nor by an ordinal
  ("second-largest" is another rank: :mod:`.ordinal_words` reads those);
* a holder written as a name (capitalised words) in one of the copular forms
  "Y is the …", "the … is Y", "Y, the …", or with a possessive scope
  ("Australia's largest city is Sydney");
* the claim's bound (the rest of its clause after the noun: "in Australia", a year)
  within the source's own bound, or within its sentence when it states none, so "the
  largest city in Europe" is not compared with one in Australia, nor "the capital of
  Ontario" with "the capital of Canada";
* a holder that is not the claim's, and the claim's holder not named as one too.

A ranking denies it too (session 29): a sentence that puts the claim's holder after
another ("…, followed by coal at 27%", "trailed by …, and Osaka", "Vietnam is second only
to Brazil") and holds the claim's bound ("of the country's electricity"; "the world's"
needs none; a word of the bound's family counts: "Europe's" / "European").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import content_stems

_NAME = r"(?:[A-Z][\w'.-]*(?:\s+(?:of|de|the|and)\s+[A-Z][\w'.-]*|\s+[A-Z][\w'.-]*){0,4})"
#: A superlative, or a role that has one holder ("the capital of Canada", "the only
#: survivor", "the sole supplier"): what follows it is read as its noun.
_SUPERLATIVE = (
    r"(?:(?:most|least)\s+[a-z]+|(?:best|worst|most|least)-[a-z]+|[a-z]{2,}est|best|worst|"
    r"capital|only|sole)"
)
_COPULA = r"(?:is|was|are|were|remains|remained|became|becomes|has\s+been)"
_DETERMINER = r"(?:(?:(?i:the)\s+)?(?P<scope>[A-Za-z][\w-]*)'s|(?i:the))"
#: Its noun: "the largest *city*"; a capital has none ("the capital of Australia").
_HEAD = rf"{_DETERMINER}\s+(?P<sup>{_SUPERLATIVE})(?:\s+(?P<noun>(?!(?:of|in)\b)[a-z]+))?"

#: What bounds a superlative: the rest of its clause ("in Australia"), up to a comma or
#: a conjunction ("… of Canada, while Toronto is …" bounds Ottawa's by Canada alone).
_SCOPE = r"(?:(?!\b(?:and|while|but|whereas)\b)[^.;:,])*"
_HOLDER_FIRST = re.compile(
    rf"(?P<holder>{_NAME})\s*(?:,\s*|\s+{_COPULA}\s+){_HEAD}(?P<rest>{_SCOPE})"
)
_PHRASE_FIRST = re.compile(
    rf"\b{_HEAD}(?P<rest>\s+(?:in|of|on|at|among)\s+[^.;:,]{{1,40}}?)?"
    rf"\s+{_COPULA}\s+(?P<holder>{_NAME})"
)
_NOT_UNIQUE = re.compile(
    r"(?i)(?:one\s+of|among|\d(?:st|nd|rd|th)|second|third|fourth|fifth|-)\s*$"
)
#: Words ending in "-est" that are no superlative (also read by :mod:`.superlative_ranks`).
NOT_SUPERLATIVE = frozenset({"interest", "forest", "honest", "modest", "harvest", "request"})


@dataclass(frozen=True)
class Superlative:
    """Who holds which superlative, and the words that bound it ("in Australia")."""

    holder: str
    superlative: str
    noun: str
    scope: frozenset[str]


@dataclass(frozen=True)
class SuperlativeConflict:
    """The claim's superlative and the source's, held by another."""

    claim: Superlative
    source: Superlative


def _read(match: re.Match[str], text: str) -> Superlative | None:
    sup = match.group("sup").lower()
    noun = (match.group("noun") or "").lower()
    if sup in NOT_SUPERLATIVE or _NOT_UNIQUE.search(text[: match.start("sup")]):
        return None
    if not noun and sup != "capital":
        return None  # "the largest of the three": no noun, no holder of one thing
    rest = match.groupdict().get("rest") or ""
    scope = set(content_stems(rest[:60])) | set(re.findall(r"\d+", rest[:60]))
    if match.group("scope"):
        scope |= set(content_stems(match.group("scope")))
    holder = match.group("holder").strip().rstrip(".")
    words = holder.split()
    if words[0] == "The" and len(words) > 1:  # "The Nile"
        holder = " ".join(words[1:])
    elif words[0] in {"The", "A", "An", "It", "This", "That", "Its", "He", "She", "They"}:
        return None  # a pronoun or a common noun phrase names no holder
    return Superlative(holder, sup, noun, frozenset(scope))


def superlatives(text: str) -> list[Superlative]:
    """Every (holder, superlative) the copular forms of ``text`` state."""
    out: list[Superlative] = []
    for pattern in (_HOLDER_FIRST, _PHRASE_FIRST):
        for match in pattern.finditer(text):
            found = _read(match, text)
            if found is not None:
                out.append(found)
    return out


#: A ranking that puts the claim's holder after another: "Natural gas supplies 41% of the
#: power, *followed by coal* at 27%", "… followed by Yokohama and Osaka", "Coal is *second
#: only to* gas". Roles with one holder (capital, only, sole) are no ranking.
_LISTED_AFTER = (
    r"\b(?:followed|trailed)\s+by\s+(?:[^.;:]{{0,60}}?(?:,|\band)\s+)?(?:the\s+)?{holder}\b"
)
_SECOND_TO = r"\b{holder}\b[^.;:]{{0,40}}?\bsecond\s+only\s+to\b"
_NOT_RANKED = frozenset({"capital", "only", "sole"})


def _ranked_below(mine: Superlative, sentence: str) -> str | None:
    """The text before the cue when ``sentence`` ranks ``mine.holder`` below another."""
    if mine.superlative in _NOT_RANKED:
        return None
    holder = re.escape(mine.holder).replace(r"\ ", r"\s+")
    for form in (_LISTED_AFTER, _SECOND_TO):
        found = re.search(form.format(holder=holder), sentence, re.IGNORECASE)
        if found is not None:
            return " ".join(sentence[: found.start()].split()[:4]) or mine.holder
    return None


def superlative_conflict(claim: str, window: str) -> SuperlativeConflict | None:
    """The claim's superlative given to another holder by a sentence of ``window``, or its
    holder ranked below another (:data:`_LISTED_AFTER`) in a sentence with its bound."""
    claimed = superlatives(claim)
    if not claimed:
        return None
    for sentence in split_sentences(window):
        ranked = _ranking_conflict(claimed, sentence.text)
        if ranked is not None:
            return ranked
        held = superlatives(sentence.text)
        for mine in claimed:
            same = [s for s in held if s.superlative == mine.superlative and s.noun == mine.noun]
            if any(_same_holder(mine.holder, s.holder) for s in same):
                continue
            sentence_words = set(content_stems(sentence.text))
            sentence_words |= set(re.findall(r"\d+", sentence.text))
            for other in same:
                # the source's own bound when it states one, else its sentence's words
                if mine.scope <= (other.scope or sentence_words):
                    return SuperlativeConflict(mine, other)
    return None


def _ranking_conflict(claimed: list[Superlative], sentence: str) -> SuperlativeConflict | None:
    """A claimed superlative whose holder ``sentence`` ranks below another, when the claim's
    bound is in the sentence ("of the country's electricity"; its noun when it has none)."""
    words = set(content_stems(sentence)) | set(re.findall(r"\d+", sentence))
    for mine in claimed:
        bound = (mine.scope - _UNBOUNDED) or set(content_stems(mine.noun))
        if not all(_said(w, words) for w in bound):
            continue
        above = _ranked_below(mine, sentence)
        if above is not None:
            ranked_above = Superlative(above, mine.superlative, mine.noun, mine.scope)
            return SuperlativeConflict(mine, ranked_above)
    return None


#: "The world's largest": a sentence naming no place ranks over the world too.
_UNBOUNDED = frozenset({"world", "global", "globe"})


def _said(word: str, words: set[str]) -> bool:
    """``word`` or a word of its family in ``words``: five letters in common at the start
    ("Europe's" / "European", "producer" / "production")."""
    return word in words or any(_common_start(word, w) >= min(len(word), 5) for w in words)


def _common_start(a: str, b: str) -> int:
    """How many letters ``a`` and ``b`` share from their start."""
    shorter = min(len(a), len(b))
    return next((i for i in range(shorter) if a[i] != b[i]), shorter)


def _same_holder(a: str, b: str) -> bool:
    a_words, b_words = set(a.lower().split()), set(b.lower().split())
    return bool(a_words & b_words)
