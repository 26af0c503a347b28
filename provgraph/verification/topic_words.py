"""What a claim is about, less its values: the words an unrelated source shares only by chance.

"The airline carried 3 million passengers last year." and "The zoo welcomed 1.2 million
visitors last year." share "million", "last" and "year" — three of the claim's seven
content words, enough for claim recall to call the source related — and nothing the
claim is about. Likewise "Unemployment fell to 4% in March." / "The bakery raised bread
prices by 4% in March." (NLI entails it, 0.93) and "The marathon route is 42 kilometres
long." / "The new motorway is 120 kilometres long." (a value conflict anchored on the
unit and the measure word). :func:`topic_share` is the share of the claim's *topic*
words — its content words less its values as the quantity reader reads them, number,
time and calendar words and the words that name a dimension ("long", "tall") — that
the source uses anywhere. Zero, with one of the claim's values in the source
(:func:`shares_a_value`), means the two share nothing but values: the verdict policy
(:func:`provgraph.verification.verdicts.shares_only_values`) then reads the source as
unrelated unless its meaning is close or it confirms a value written otherwise.

Measured on the dev files (session 33): of the rows sharing no topic word, every
AttributionBench (10), Factcheck-GPT stance (8) and WiCE (4) row is labelled
unsupported; HealthVer's are 88 unsupported, 28 supported and 13 contradicted, written
in other words ("warmer weather" / "temperature", "coronavirus" / "SARS-CoV-2"), which
is why a close meaning (the embedding stage) keeps a source related, and why the gate
also asks for a shared value: only 3 dev rows share only values.

Stems, not words, and exact: a synonym shares no stem, so a source that says the
claim's topic only in other words shares none — that is what the meaning test is for.
"""

from __future__ import annotations

import re
from functools import lru_cache

from provgraph.verification.quantities import extract_quantities
from provgraph.verification.wordsets import (
    CALENDAR_NAMES,
    SMALL_NUMBERS,
    WORD_RE,
    content_stems,
    stem,
)

#: Words that state a value or when, not what: scale, number and ordinal words ("the
#: *second* quarter"), time units and
#: time deixis, and the words naming the dimension a measure is of (a route and a
#: motorway are both "long"). Not the seasons: a season is what "The winter was mild."
#: is about (against "the coldest winter in thirty years").
_VALUE_WORDS = frozenset({
    "million", "billion", "trillion", "thousand", "thousands", "hundred", "hundreds",
    "dozen", "dozens", "percent", "percentage", "per", "cent", "half", "twice", "double",
    "times", "fold", "number", "total", "about", "around", "roughly", "nearly", "almost",
    "approximately", "least", "most", "than",
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
    "tenth", "eleventh", "twelfth",
    "year", "month", "week", "day", "hour", "minute", "decade", "century", "quarter",
    "annual", "annually", "daily", "weekly", "monthly", "yearly", "last", "next",
    "previous", "following", "ago", "earlier", "later", "early", "late", "mid", "today",
    "yesterday", "tomorrow",
    "long", "length", "tall", "height", "high", "wide", "width", "deep", "depth",
    "heavy", "weigh", "weight", "old", "aged", "age",
    *SMALL_NUMBERS, *CALENDAR_NAMES,
})  # fmt: skip
#: Their stems: the words that state a value or a time, not a topic.
VALUE_STEMS = frozenset(stem(w) for w in _VALUE_WORDS)


#: Verbs of a change up or down: "*rose* 8% in 2023" states how a value moved, not what
#: moved — a firm's revenue and the rainfall both "rose" (session 40). Topic words only:
#: elsewhere (:mod:`.opposite_subjects`) a change verb may be what two sentences share.
_CHANGE_STEMS = frozenset(
    stem(w)
    for phrase in (
        "rise rises rising rose risen fall falls falling fell fallen increase increased",
        "increases increasing decrease decreased decreases decreasing grow grows growing",
        "grew grown climb climbs climbed jump jumps jumped drop drops dropped decline",
        "declines declined shrink shrinks shrank shrunk soar soared surge surged plunge",
        "plunged slump slumped dip dipped tumble tumbled",
    )
    for w in phrase.split()
)
_NOT_TOPIC = VALUE_STEMS | _CHANGE_STEMS


#: Stop words that are also nouns a claim may be about ("The *mine* is still operating").
_NOUNS_AMONG_STOPWORDS = frozenset({"mine", "will"})
#: A number, not part of a name ("5G", "COVID-19" are names: their digits are no value).
_DIGITS = re.compile(r"(?<![A-Za-z-])\d+(?:[.,]\d+)*(?![A-Za-z])")


def _stems(text: str) -> frozenset[str]:
    """Content stems, and the nouns among the stop words (:data:`_NOUNS_AMONG_STOPWORDS`)."""
    nouns = {stem(w) for w in WORD_RE.findall(text) if w.lower() in _NOUNS_AMONG_STOPWORDS}
    return frozenset(content_stems(text)) | nouns


#: The word right after a count: its counted noun ("20,000 *people*", "300 *elephants*").
_COUNTED_WORD = re.compile(r"\s+[A-Za-z][\w'-]*")


def topic_stems(claim: str) -> frozenset[str]:
    """The stems of ``claim``'s content words less its values (see the module docstring):
    each value the quantity reader reads is blanked first, so its unit goes with it
    ("120 *kilometres*", "$400 *million*"), and so does the noun of a count in digits
    ("20,000 *people*": a stadium's capacity and a protest's crowd share no topic by it)."""
    text = claim
    for mention in extract_quantities(claim):
        end = mention.end
        in_digits = any(c.isdigit() for c in mention.surface)
        counted = _COUNTED_WORD.match(claim, end) if mention.noun and in_digits else None
        # "20,000 *people*": a count's noun goes with it (session 34); not a number word's,
        # which is the thing spoken of ("The *two parties* are still separate.")
        if counted is not None:
            end = counted.end()
        text = text[: mention.start] + " " * (end - mention.start) + text[end:]
    return frozenset(s for s in _stems(text) if s not in _NOT_TOPIC)


@lru_cache(maxsize=32)
def _source_words(source: str) -> tuple[frozenset[str], frozenset[str]]:
    """A source's content stems and its numbers (cached: one source is read for many
    claims)."""
    return _stems(source), frozenset(_DIGITS.findall(source))


def topic_share(claim: str, source: str) -> float | None:
    """The share of the claim's topic words the source uses anywhere; None when the claim
    has none (it is all values and time: nothing to tell relatedness by)."""
    topic = topic_stems(claim)
    if not topic:
        return None
    return len(topic & _source_words(source)[0]) / len(topic)


def shares_a_value(claim: str, source: str) -> bool:
    """The source uses one of the claim's numbers or value words ("4", "million", "March",
    "kilometres"): the coincidence :func:`topic_share` looks past. Without one, a source
    sharing no topic word is a paraphrase or silent, which the meaning test decides."""
    stems, numbers = _source_words(source)
    claim_values = {s for s in _stems(claim) if s in VALUE_STEMS}
    if claim_values & stems:
        return True
    units = {stem(w) for m in extract_quantities(claim) for w in WORD_RE.findall(m.surface)}
    return bool((units & stems) or (set(_DIGITS.findall(claim)) & numbers))
