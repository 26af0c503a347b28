"""Is NLI's contradiction about the claim's predicate at all?

The shipped NLI model contradicts a claim whenever the source says *something
else* about the claim's subject: "The treaty banned chemical weapons." against
"The treaty was signed in Paris by 130 countries." 0.88, "The farm keeps cows."
against "The farm grows barley." 0.85 — the "unrelated source comes out
contradicted" of issue 14. Such a source neither supports nor refutes the
claim: nothing in it speaks of what the claim says its subject did or is.

The test is lexical and deliberately narrow: no window the contradiction was read
in (the best and the most contradicting:
:func:`~provgraph.verification.polarity.reading_windows`) speaks of more than a third
of the claim's predicate (its content words after the subject, the subject's own
words removed) — by the word, an opposite of it from the antonym lexicons
("permanently closed" / "open every day"), or a synonymous verb ("started" /
"began", :mod:`.synonyms`). A predicate with a name after a preposition of place,
affiliation or agency is never judged here: a swapped name is how a true contradiction
often reads ("is in Ohio" / "is in Texas"); one whose name is an object or a title ("won
two Nobel Prizes") is judged by its other words when the source names none of its names
(:func:`named_predicate`, session 34). Numbers
are not words here; a value the source gives otherwise *about the same thing* is the
consistency stage's explicit conflict, which this test never overrides.

Measured on the dev files before it was wired in (rows whose NLI contradiction is ≥
0.5), with "no word spoken": it held for 25 unsupported and 5 supported rows and 1
contradicted row of 68. Session 27 widened it to "at most a third" ("The school banned
phones in classrooms." / "The school added two classrooms"): of the rows with NLI
contradiction ≥ 0.5 it newly holds for (whole source as the window) 25 unsupported, 10
supported and 3 contradicted rows. A claim with a value, an ordinal, a universal or a
negation keeps "no word": its contradiction may be of that, in other words ("stayed above
freezing" / "lows from -6 to -2", "applies to all plastics" / "exempts plastic bags",
"were unable to replicate" / "successfully reproduced the finding").
"""

from __future__ import annotations

import re

from provgraph.verification.antonyms import are_opposites
from provgraph.verification.claimsplit import subject_and_verb
from provgraph.verification.negation import negated_scopes
from provgraph.verification.ordinal_words import ORDINAL_NUMBERS
from provgraph.verification.phrasal import plain_cultivation, plain_verbs
from provgraph.verification.polarity import reading_windows
from provgraph.verification.quantities import read_quantities
from provgraph.verification.report import StageScore
from provgraph.verification.sentences import split_sentences
from provgraph.verification.synonyms import same_verb
from provgraph.verification.wordsets import CALENDAR_NAMES, content_stems, stem

#: A capitalised word after the subject: a name ("is in Ohio"), unless a month or a day.
_CAPITALISED = re.compile(r"(?<=\s)[A-Z][a-z]+")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")
#: A time by its calendar words: "next summer", "last year", "in the spring", "in May".
_TIME_PHRASE = re.compile(
    r"\b(?:(?:next|last|this|coming|past|early|late|mid)\s+)?(?:"
    r"summer|winter|spring|autumn|year|month|week|weekend|decade|season|"
    + "|".join(sorted(CALENDAR_NAMES))
    + r")s?\b",
    re.IGNORECASE,
)


def predicate_words(claim: str, *, times_apart: bool = False) -> list[str] | None:
    """The lower-case content words of a one-sentence claim's predicate, less its subject's;
    None when there is no subject to split off, or the predicate names a name.

    A month or a day is a name here ("takes place every July" / "is held each September"
    is a contradiction about the month), unless ``times_apart``: then times (months, days,
    seasons, "next year") are left out of the words, like the numbers — for the support
    test, a time says when, not what ("froze over in January 1963" is not spoken of by "In
    January 1963 the council approved a library") — and a name is one of the words: a
    source silent on "flights to Lisbon" does not support adding them, whatever it says
    of the subject "next summer"."""
    split = _split_subject(claim)
    if split is None:
        return None
    subject, rest = split
    names = [m.group(0).lower() for m in _CAPITALISED.finditer(" " + rest)]
    if times_apart:
        rest = _TIME_PHRASE.sub(" ", rest)
    elif names:
        return None
    if not rest.strip():
        return None
    return _content_words(rest, subject)


def _split_subject(claim: str) -> tuple[str, str] | None:
    """``(subject, the rest)`` of a one-sentence claim; None for more sentences or no verb."""
    if len(split_sentences(claim)) != 1:
        return None
    split = subject_and_verb(claim)
    if split is None:
        return None
    subject = split[0]
    at = claim.find(subject)
    return subject, claim[at + len(subject) :] if at >= 0 else ""


def _content_words(rest: str, subject: str) -> list[str] | None:
    """The lower-case content words of ``rest`` that are not the subject's, months left out."""
    own = set(content_stems(subject))
    words = [w.lower() for w in _WORD.findall(rest)]
    words = [w for w in words if w not in CALENDAR_NAMES]
    return [w for w in words if content_stems(w) and stem(w) not in own] or None


#: Words before a name that make it a place or an affiliation ("is held in Glasgow", "plays
#: for Celtic", "moved to Lisbon", "was written by Ana Torres"): a name swapped there is how
#: a true contradiction reads, whatever verb the source uses ("takes place in" / "is held in").
_SLOT_WORDS = frozenset((
    "in", "at", "for", "from", "to", "into", "near", "with", "by", "of", "under", "within",
    "inside", "outside", "across", "between", "against", "versus",
))  # fmt: skip
_ARTICLES = frozenset(("the", "a", "an"))


def named_predicate(claim: str) -> tuple[list[str], list[str]] | None:
    """``(other words, names)`` of a one-sentence claim whose predicate names a name that is
    neither a place, nor an affiliation, nor a time: an object or a title ("won two Nobel
    Prizes", "married Diego Rivera", "toured Japan"). None for every other claim, and for a
    predicate with a name after one of :data:`_SLOT_WORDS` or a month or a day.

    Session 34: such a predicate is judged by its other words, provided the source names
    none of its names (:func:`off_predicate`): "Marie Curie won two Nobel Prizes." against
    "Marie Curie was born in Warsaw …" was *contradicted* (NLI 0.94)."""
    split = _split_subject(claim)
    if split is None:
        return None
    subject, rest = split
    names: list[str] = []
    before: str | None = None  # the word before the current run of names, articles skipped
    for word in _WORD.findall(rest):
        if word[0].isupper():
            if before in _SLOT_WORDS or word.lower() in CALENDAR_NAMES:
                return None
            names.append(word.lower())
        elif word.lower() not in _ARTICLES:
            before = word.lower()
    if not names:
        return None
    words = _content_words(" ".join(w for w in _WORD.findall(rest) if not w[0].isupper()), subject)
    return (words, names) if words else None


def _spoken_share(words: list[str], window: str, *, nominals: bool = True) -> float:
    """The share of ``words`` that ``window`` uses, by the word, an opposite of it ("closed"
    / "open"), a synonymous verb ("started" / "began") or, with ``nominals``, the verb's
    noun ("restored" / "restoration"). The window is read once."""
    there = [w.lower() for w in _WORD.findall(window)]
    stems = {stem(w) for w in there} | {stem(w) for w in map(_verb_of_able, there) if w}

    def spoken(word: str) -> bool:
        return (
            stem(word) in stems
            or stem(_verb_of_able(word) or word) in stems
            # "peer-reviewed" is spoken of by "peer reviewed"
            or ("-" in word and all(stem(part) in stems for part in word.split("-") if part))
            or any(are_opposites(word, other) or same_verb(word, other) for other in there)
            or (nominals and any(_nominal_of(word, other) for other in there))
        )

    return sum(1 for word in words if spoken(word)) / len(words)


#: Words that hedge a claim's predicate: its likelihood, not its truth.
_HEDGE = re.compile(
    r"\b(?:unlikely|likely|probably|possibly|may|might|could|expected\s+to)\b", re.IGNORECASE
)
#: Suffixes that make a noun of a verb: "restoration", "closure", "approval", "payment",
#: "injuries", "recovery".
_NOMINAL = re.compile(r"(?:ation|ition|ion|ment|al|ure|ance|ence|y|ies)$")


def _nominal_of(word: str, other: str) -> bool:
    """Is ``other`` the noun of ``word``'s verb ("restored" / "restoration", "closed" /
    "closure", "approved" / "approval")? A source that speaks of the restoration speaks of
    whether the mill was restored (session 36). The verb's stem must be five letters or
    more, so that short stems ("act" / "action") do not match by chance."""
    root = stem(word)
    return (
        len(root) >= 5
        and other.startswith(root)
        and other != word
        and _NOMINAL.search(other) is not None
        and len(other) - len(root) <= 5
    )


def _verb_of_able(word: str) -> str | None:
    """The verb of an "-able" adjective ("reachable" → "reach", "affordable" → "afford"):
    "reachable only by boat" speaks of reaching the island. None for other words."""
    return word[:-4] if word.endswith("able") and len(word) > 7 else None


#: The most of a predicate's words a source may speak of and still be silent on it: "The
#: river flooded the town centre in March." against "The town's football club was promoted
#: in March." speaks of one word of three ("town"), a place both mention (session 27).
MOSTLY_UNSPOKEN_SHARE = 1 / 3


def off_predicate(claim: str, source: str, nli: StageScore, *, times_apart: bool = False) -> bool:
    """True when every window NLI read the claim against speaks of at most a third of its
    predicate's words (:data:`MOSTLY_UNSPOKEN_SHARE`; none of a claim with a value, an
    ordinal, a universal or a negation: :func:`_strict`; ``times_apart``: see
    :func:`predicate_words`). A word shared by chance (the place or thing both sentences
    mention) does not make a source speak of what the claim says of it; NLI's entailment
    and the embedding stage still decide where the words differ but the meaning is there
    (:func:`~provgraph.verification.verdicts.silent_on_predicate`)."""
    plain = plain_verbs(claim)
    words = predicate_words(plain, times_apart=times_apart)
    windows = reading_windows(source, nli) if nli.evidence is not None else []
    if words is None and not times_apart:
        named = named_predicate(plain)
        if named is not None and not any(_names_in(named[1], w) for w in windows):
            words = named[0]
    if words is None or nli.evidence is None:
        return False
    # a claim with a value, an ordinal, a universal or a negation ("stayed above
    # freezing", "the first woman to", "applies to all plastics", "were unable to
    # replicate"): its contradiction may be of that, stated in other words than the claim's
    limit = 0.0 if _strict(claim) else MOSTLY_UNSPOKEN_SHARE
    # a hedged claim ("is unlikely to approve") is read by the word: its NLI contradiction
    # is most often the hedge in other words ("approval … is improbable"), not the predicate
    nominals = _HEDGE.search(claim) is None
    return all(
        _spoken_share(words, plain_cultivation(plain_verbs(w)), nominals=nominals) <= limit + 1e-9
        for w in windows
    )


def _names_in(names: list[str], window: str) -> bool:
    """Does ``window`` use one of the lower-case ``names``, by the word?"""
    there = {w.lower() for w in _WORD.findall(window)}
    return any(name in there for name in names)


#: Universal and exclusive words: "all single-use plastics" is contradicted by "exempts
#: plastic bags", in none of the claim's other words.
_UNIVERSALS = frozenset(("all", "every", "each", "only", "always", "entire", "whole", "sole"))


def _strict(claim: str) -> bool:
    """Does the claim state a quantity, an ordinal ("first", "third"), a universal ("all",
    "only") or a negation? Then a source that speaks of none of its predicate is off it,
    not one that speaks of a third."""
    words = {w.lower() for w in _WORD.findall(claim)}
    if words & (ORDINAL_NUMBERS.keys() | _UNIVERSALS) or negated_scopes(claim):
        return True
    return bool(read_quantities(claim).mentions)
