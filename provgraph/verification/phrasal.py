"""Phrasal verbs read as the one-word verb they mean: "turned down" → "rejected".

The antonym check compares words: "The board accepted the offer." against "The
board turned down the offer." shares no opposite pair until "turned down" is read
as "rejected". Each entry is (verb, particle, one-word verb), all lemmas; every
inflection of the verb (``lemminflect``'s bundled lexicon, no download) maps to
the same inflection of the one-word verb, with the particle right after the verb
or after a pronoun object ("turned it down"). Listed are phrases whose usual
reading in a factual claim is the one-word verb; ambiguous ones ("put out", "make
up", "turn up") are left out.
"""

from __future__ import annotations

import re
from functools import lru_cache

from provgraph.verification.wordsets import SMALL_NUMBERS

#: (verb lemma, particle, one-word verb lemma).
PHRASAL_VERBS: tuple[tuple[str, str, str], ...] = (
    ("turn", "down", "reject"),
    ("vote", "down", "reject"),
    ("throw", "out", "reject"),
    ("rule", "out", "reject"),
    ("call", "off", "cancel"),
    ("shut", "down", "close"),
    ("close", "down", "close"),
    ("step", "down", "resign"),
    ("give", "up", "abandon"),
    ("put", "off", "postpone"),
    ("take", "over from", "succeed"),  # before "take over": "took over from X" succeeded X
    ("take", "over", "acquire"),
    ("pull", "out", "withdraw"),
    ("set", "up", "establish"),
    ("cut", "back", "reduce"),
    ("scale", "back", "reduce"),
    ("go", "up", "rise"),
    ("go", "down", "fall"),
    ("speed", "up", "accelerate"),
    ("slow", "down", "slow"),
    ("sign", "off", "approve"),
    ("back", "out", "withdraw"),
    ("drop", "out", "withdraw"),
    ("lay", "off", "dismiss"),
    ("let", "go of", "dismiss"),
    ("strike", "down", "overturn"),  # "the court struck down the ban" (session 30)
    ("knock", "out", "eliminate"),  # "Italy knocked out Spain": Italy eliminated (beat) Spain
    ("vote", "against", "oppose"),  # "voted against the bill" (session 38)
    ("vote", "for", "support"),
    ("speak", "out against", "oppose"),
    ("break", "down", "fail"),  # "the talks broke down"
    ("fall", "through", "fail"),  # "the deal fell through" (session 39)
    ("fall", "apart", "fail"),
)
#: Idioms read the same way, and also by the negation check, which must not lose the
#: negating phrasal verbs above ("ruled out" is its cue): "never set foot in Japan".
IDIOMS: tuple[tuple[str, str, str], ...] = (
    ("set", "foot in", "visit"),
    ("set", "foot on", "visit"),
    ("go", "back to", "return"),  # "never went back to the town where she was born"
    ("come", "back to", "return"),
    ("travel", "to", "visit"),  # "never travelled to Japan" (session 28)
    ("fall", "short of", "miss"),  # "fell short of its target" (session 29)
    ("fall", "well short of", "miss"),
    ("fall", "far short of", "miss"),
)

#: Penn tags whose forms are mapped, in the order tried.
_TAGS = ("VBD", "VBN", "VBZ", "VBG", "VB")


@lru_cache(maxsize=2)
def _table(
    entries: tuple[tuple[str, str, str], ...],
) -> tuple[re.Pattern[str], dict[tuple[str, str], str]]:
    from lemminflect import getInflection

    forms: dict[tuple[str, str], str] = {}
    for verb, particle, target in entries:
        for tag in _TAGS:
            for form in getInflection(verb, tag=tag):
                replacement = getInflection(target, tag=tag)
                if replacement:
                    forms.setdefault((form.lower(), particle), replacement[-1])
    heads = "|".join(sorted({re.escape(f) for f, _p in forms}, key=len, reverse=True))
    particles = "|".join(
        re.escape(p).replace(r"\ ", r"\s+")
        for p in sorted({p for _f, p in forms}, key=len, reverse=True)
    )
    pattern = re.compile(
        rf"\b(?P<head>{heads})(?P<object>\s+(?:it|them|this|that))?\s+(?P<particle>{particles})\b",
        re.IGNORECASE,
    )
    return pattern, forms


#: Jobs cut are workers dismissed: "cut 2,000 jobs" / "laid off 2,000 workers", and the
#: opposite of "hired 2,000 workers". The verb's tense is kept ("cuts" → "dismisses").
_JOB_CUTS = re.compile(
    r"\b(?P<verb>cut|cuts|cutting|shed|sheds|shedding|slash(?:es|ed|ing)?|"
    r"eliminat(?:e|es|ed|ing)|ax(?:e|es|ed|ing))\s+"
    r"(?P<count>(?:(?:about|around|some|nearly|almost|more than|over|up to|roughly)\s+)?"
    r"(?:[\d,.]+(?:\s+(?:million|thousand))?|" + "|".join(SMALL_NUMBERS) + r"|"
    r"(?:several\s+|a\s+few\s+)?(?:hundreds?|thousands?|dozens?)(?:\s+of)?)\s+)?"
    r"(?P<kind>(?:(?!(?:in|of|on|to|for|at|the|back|its|their|from)\b)[a-z-]+\s+)?)jobs\b",
    re.IGNORECASE,
)
_DISMISSED = {"s": "dismisses", "ing": "dismissing"}


def _workers_dismissed(match: re.Match[str]) -> str:
    verb = match.group("verb").lower()
    ending = "ing" if verb.endswith("ing") else "s" if verb.endswith("s") else ""
    form = _DISMISSED.get(ending, "dismissed")
    return f"{form} {match.group('count') or ''}{match.group('kind')}workers"


#: A target met is one achieved ("met its emissions target" / "missed"): "meet" alone is
#: no opposite of "miss" ("met the coach" / "missed the coach's call").
_MET_TARGET = re.compile(
    r"\b(?P<verb>meet|meets|met|meeting)(?=\s+(?:(?:its|their|the|his|her|our|a|an|this|"
    r"that|all|every)\s+)?(?:[a-z-]+\s+){0,2}(?:targets?|goals?|deadlines?|quotas?|"
    r"expectations|forecasts?|thresholds?|benchmarks?|objectives?)\b)",
    re.IGNORECASE,
)
_ACHIEVED = {"meet": "achieve", "meets": "achieves", "met": "achieved", "meeting": "achieving"}


#: A verdict of "not guilty" is one of innocence: "found the defendant not guilty on all
#: counts" is the opposite of "found the defendant guilty" (the negation check needs the
#: claim to repeat "on all counts"; the antonym check reads guilty / innocent).
_NOT_GUILTY = re.compile(r"\bnot\s+guilty\b", re.IGNORECASE)


def _target_achieved(match: re.Match[str]) -> str:
    return _ACHIEVED[match.group("verb").lower()]


#: A price that became cheaper fell: "Rail tickets became cheaper" / "fares rose". Not
#: before "than", where the comparison is between two things (:mod:`.directions`).
_PRICE_CHANGE = re.compile(
    r"\b(?P<verb>become|becomes|became|becoming|get|gets|got|getting|grow|grows|grew|growing)"
    r"\s+(?P<degree>cheaper|pricier|costlier|(?:more|less)\s+(?:expensive|costly|affordable))\b"
    r"(?!\s+than\b)",
    re.IGNORECASE,
)
_CHEAPER = ("cheaper", "less expensive", "less costly", "more affordable")
_PRICE_FORMS = {
    "fall": {"past": "fell", "s": "falls", "ing": "falling", "": "fall"},
    "rise": {"past": "rose", "s": "rises", "ing": "rising", "": "rise"},
}


def _price_change(match: re.Match[str]) -> str:
    verb = match.group("verb").lower()
    degree = " ".join(match.group("degree").lower().split())
    forms = _PRICE_FORMS["fall" if degree in _CHEAPER else "rise"]
    if verb in ("became", "got", "grew"):
        return forms["past"]
    return forms["ing" if verb.endswith("ing") else "s" if verb.endswith("s") else ""]


#: "took over as head coach from Maria Lind": succeeded her, the role named between
#: (session 31; "took over from" alone is :data:`PHRASAL_VERBS`'). The role stays, after
#: the verb: "succeeded as head coach Maria Lind" keeps both names' order.
_TAKE_OVER_AS = re.compile(
    r"\b(?P<verb>took|takes|taken|taking|take)\s+over\s+(?P<role>as\s+(?:[\w'-]+\s+){1,4}?)from\b",
    re.IGNORECASE,
)
_SUCCEED_FORMS = {
    "took": "succeeded", "taken": "succeeded", "takes": "succeeds",
    "taking": "succeeding", "take": "succeed",
}  # fmt: skip


def _took_over_as(match: re.Match[str]) -> str:
    return f"{_SUCCEED_FORMS[match.group('verb').lower()]} {match.group('role').rstrip()}"


def plain_verbs(text: str) -> str:
    """``text`` with each listed phrasal verb replaced by its one-word verb (same tense),
    jobs cut read as workers dismissed, a price that became cheaper read as fallen, a
    target met as achieved and "not guilty" as innocent.

    "The board turned it down" → "The board rejected it"; text without one is returned
    unchanged. Offsets are not kept: for word comparisons, never for evidence spans.
    """
    text = _MET_TARGET.sub(_target_achieved, _PRICE_CHANGE.sub(_price_change, text))
    text = _TAKE_OVER_AS.sub(_took_over_as, _NOT_GUILTY.sub("innocent", text))
    return _JOB_CUTS.sub(_workers_dismissed, _plain(text, PHRASAL_VERBS + IDIOMS))


def plain_idioms(text: str) -> str:
    """``text`` with each listed idiom ("set foot in") replaced by its one-word verb."""
    return _plain(text, IDIOMS)


def _plain(text: str, entries: tuple[tuple[str, str, str], ...]) -> str:
    pattern, forms = _table(entries)

    def _replace(match: re.Match[str]) -> str:
        particle = " ".join(match.group("particle").lower().split())
        word = forms.get((match.group("head").lower(), particle))
        if word is None:
            return match.group(0)
        return word + (match.group("object") or "")

    return pattern.sub(_replace, text)


#: A passive "grown" is cultivated, no growth: "Green tea *is grown* mainly in China" does
#: not oppose "lowers cholesterol" (session 39).
_CULTIVATED = re.compile(
    r"\b((?:is|are|was|were|been|being)(?:\s+\w+ly)?)\s+grown\b(?!\s+(?:by|to)\s+\d)"
)


def plain_cultivation(text: str) -> str:
    """``text`` with a passive "grown" written "cultivated" (:data:`_CULTIVATED`)."""
    return _CULTIVATED.sub(r"\1 cultivated", text)
