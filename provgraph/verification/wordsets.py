"""Words, crude stems and clauses: the shared vocabulary of the consistency checks.

The checks compare *what* a value or a negation is about on both sides ("founded
in 1987" vs "established in 1995"), so they need content words that match
across inflections ("reduced" / "reduces") and a few synonyms of the facts
values are usually attached to. A full lemmatiser (spaCy, NLTK data) would add a
model download for little gain here: the stems only decide whether two short
contexts share a word, never what a word means.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from functools import lru_cache

WORD_RE = re.compile(r"[A-Za-z][A-Za-z'-]*")
#: Clause boundaries: sentence punctuation, brackets, commas and semicolons, and the
#: contrastive conjunctions that start a new predicate — "yet" only as a conjunction, not
#: the adverb of "has not yet been approved", "as yet", "has yet to" (session 21).
CLAUSE_BOUNDARY_RE = re.compile(
    r"[.;:!?()\[\]]\s|[;:!?()\[\]]|,(?!\d)\s*|\s(?:but|whereas|while|although|though)\s|"
    r"(?<!\bnot)(?<!n't)(?<!\bas)(?<!\bhas)(?<!\bhave)(?<!\bhad)(?<!\bis)(?<!\bare)\syet\s(?!to\b)|"
    r"[.]$"
)

#: Number words "zero" … "twelve" and their values (shares "one in four", frequencies
#: "four times a year", ratios "three times as much").
SMALL_NUMBERS: dict[str, int] = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve".split()  # noqa: SIM905
    )
}
#: Verbs that end what a statement asserts: "ended its Lisbon service", "support for
#: Windows 7 was dropped", "phased out", "shut down" (:mod:`.endings`, :mod:`.negation`).
ENDING_VERBS = re.compile(
    r"\b(?:end(?:ed|s)|stop(?:ped|s)|ceas(?:ed|es)|discontinu(?:ed|es)|dropp(?:ed)|drops|"
    r"abandon(?:ed|s)|scrapp(?:ed)|scraps|axed|phas(?:ed|es) out|shut(?:s)? down|"
    r"closed|withdr(?:ew|awn)|gave up|gives up|quit|retired|cancell?ed|called off|suspended)\b",
    re.IGNORECASE,
)
#: Words after which a verb's plain form is a verb: modals, "do" and "not" ("did not *go*",
#: "will *double*"). Not "to", which is also a preposition ("opened to *traffic*").
BEFORE_PLAIN_VERB = frozenset((
    "did", "do", "does", "not", "n't", "will", "would", "could", "can", "may", "might",
    "shall", "should", "must",
))  # fmt: skip
NUMBER = r"\d{1,3}(?:,\d{3})+|\d+"
"""A plain number's digits: grouped in thousands ("3,050") or not; no sign, no decimals."""

YEAR_RE = re.compile(r"(?<![\w.])(?<!\d,)((?:1[0-9]{3}|20[0-9]{2}))(?![\w])(?!,\d)(?!\.\d)")
"""A year: four digits 1000–2099, not part of a number ("1,990", "1990.5") or a word."""

#: Day and month names, lower case: capitalised like names, but a time ("born in March",
#: "named head coach May 2019"), never a person or a place.
CALENDAR_NAMES: frozenset[str] = frozenset(
    n.lower() for n in (*calendar.day_name, *calendar.month_name) if n
)

_STOPWORDS_TEXT = """
    a an the and or of in on at to for with by from as into onto than then that this these
    those there here is are was were be been being am has have had having do does did doing
    it its it's he she they them their his her hers our ours we you your i me my us who
    whom whose which what when where why how not no nor never none also but if so such very
    can could would should will shall may might must about over under up down out off per
    both each either neither all any some more most less least much many few several various
    numerous multiple other another
    same own only just even still yet again now new one ones after before during since until
    while because through between among against within without via
    """
STOPWORDS: frozenset[str] = frozenset(_STOPWORDS_TEXT.split())

#: Verbs and nouns that name the same fact a value is attached to.
CANONICAL: dict[str, str] = {
    "established": "founded",
    "establish": "founded",
    "formed": "founded",
    "created": "founded",
    "incorporated": "founded",
    "launched": "founded",
    "started": "founded",
    "founding": "founded",
    # the bare form is "find"'s past far more often than "to found" ("the study found a
    # link", "was found in the attic"); "founded" stays the founding
    "found": "find",
    "constructed": "built",
    "erected": "built",
    "completed": "built",
    "death": "died",
    "birth": "born",
    "sales": "revenue",
    "turnover": "revenue",
    "revenues": "revenue",
    "staff": "employees",
    "workforce": "employees",
    "headcount": "employees",
    "personnel": "employees",
    "workers": "employees",
    "people": "persons",
    "individuals": "persons",
    "fans": "persons",
    "spectators": "persons",
    "visitors": "persons",
    "attendees": "persons",
    "participants": "persons",
    "guests": "persons",
    # the indefinite person of a negated claim's positive form: "Nobody survived the
    # crash." reads "Somebody survived the crash." against "All 112 people … were killed"
    "somebody": "persons",
    "someone": "persons",
    "everyone": "persons",
    "everybody": "persons",
    # a price: "the deal is worth $1.5bn" / "the acquisition was valued at $1.5 billion"
    "valued": "worth",
    "valuation": "worth",
    # how many a place holds: "the stadium seats 50,000" / "a capacity of 35,000"
    "seats": "capacity",
    "seat": "capacity",
    "seating": "capacity",
    "accommodates": "capacity",
    "accommodate": "capacity",
    # a place's people counted: "1.2 million residents" / "a population of 1,187,000"
    "residents": "population",
    "inhabitants": "population",
    # how long something lasts: "the flight takes three hours" / "lasts 180 minutes"
    # (not "last": "last year")
    "lasts": "takes",
    "lasted": "takes",
    "took": "takes",
    # a maximum reached: "profits peaked in May" / "reached their highest level in May"
    "peaked": "highest",
    "peak": "highest",
    "peaks": "highest",
    "killed": "died",
    "deaths": "died",
    "fatalities": "died",
    "profits": "profit",
    "earnings": "profit",
    "rose": "increase",
    "grew": "increase",
    "climbed": "increase",
    "increased": "increase",
    "fell": "decrease",
    "dropped": "decrease",
    "declined": "decrease",
    "decreased": "decrease",
    # A statistical association, however a study words it: "no association between
    # coffee and heart disease" denies "coffee is linked to heart disease".
    "associated": "linked",
    "association": "linked",
    "associations": "linked",
    "correlated": "linked",
    "correlation": "linked",
    "correlations": "linked",
    "link": "linked",
    "links": "linked",
    "tied": "linked",
}


#: Typographic apostrophes and quotes as their ASCII forms, one character for one, so
#: offsets into the original text stay valid ("can’t" is "can't" to every rule).
_TYPOGRAPHIC = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})


def plain_apostrophes(text: str) -> str:
    """``text`` with typographic apostrophes written as ``'`` (same length, same offsets)."""
    return text.translate(_TYPOGRAPHIC)


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude, deterministic stem: canonical synonym, irregular verb form as its verb,
    then common suffixes stripped. Cached: the rules stem the same words many times over
    (about 1,400 calls per citation on the speed benchmark's workload)."""
    w = word.lower().strip("'-")
    w = CANONICAL.get(w, w)
    w = irregular_verb_lemma(w)
    if w.endswith("'s"):
        w = w[:-2]
    for suffix in ("ingly", "edly", "ing", "ies", "ied", "es", "ed", "ly", "s"):
        if suffix == "s" and w.endswith(("us", "ss")):
            break  # "virus", "class": no plural (their plurals lose "es": "viruses" → "virus")
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)] + ("i" if suffix in ("ies", "ied") else "")
            break
    if w.endswith("y") and len(w) > 3:
        w = w[:-1] + "i"
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w[:7]


_REGULAR_ENDINGS = ("ed", "ing", "s")


@lru_cache(maxsize=32768)
def irregular_verb_lemma(word: str) -> str:
    """The verb of an irregular form that is only a verb ("met" → "meet", "shrank" →
    "shrink", "won" → "win", "sold" → "sell"), else ``word``.

    Suffix stripping cannot reach these forms, so "failed to meet" never matched "met"
    and "shrank" never met its opposite "grew". A form that is also a noun or an
    adjective ("left", "found", "saw", "felt", "rose") or the form of two verbs is
    left alone: which word it is depends on the sentence (session 21). Regular forms
    ("-ed", "-ing", "-s") are the stemmer's own work.
    """
    if len(word) < 3 or word.endswith(_REGULAR_ENDINGS):
        return word
    from lemminflect import getAllLemmas

    lemmas = getAllLemmas(word)
    verbs = lemmas.get("VERB", ())
    if len(lemmas) != 1 or len(verbs) != 1 or verbs[0] == word:
        return word
    return str(verbs[0])


#: Phrases that name one canonical word: "passed away" is "died", while "passed"
#: alone is not ("the law was passed in 2010" is not a death).
_PHRASES = re.compile(r"(?i)\bpass(?:ed|es)?\s+away\b")


def one_word_phrases(text: str) -> str:
    """``text`` with each phrase that names one word written as that word ("passed away"
    → "died": its "away" is no place, and no opposite of "home")."""
    return _PHRASES.sub("died", text)


def content_stems(text: str) -> list[str]:
    """Stems of the content words of ``text``, in order (stopwords and 1–2 letter words dropped)."""
    words = WORD_RE.findall(one_word_phrases(text))
    return [stem(w) for w in words if len(w) > 2 and w.lower() not in STOPWORDS]


@dataclass(frozen=True)
class Clause:
    """A clause of a text: its span and the stems of its content words."""

    start: int
    end: int
    text: str


def clauses(text: str) -> list[Clause]:
    """``text`` cut at :data:`CLAUSE_BOUNDARY_RE`; spans index ``text``."""
    return list(_clauses(text))


@lru_cache(maxsize=16384)
def _clauses(text: str) -> tuple[Clause, ...]:
    """:func:`clauses`, cached (the rules cut the same sentences many times over)."""
    out: list[Clause] = []
    pos = 0
    for m in CLAUSE_BOUNDARY_RE.finditer(text):
        if m.start() > pos:
            out.append(Clause(pos, m.start(), text[pos : m.start()]))
        pos = m.end()
    if pos < len(text):
        out.append(Clause(pos, len(text), text[pos:]))
    return tuple(c for c in out if c.text.strip())


#: "came into force" is "took effect": a law's start, one anchor word on both sides.
_IN_FORCE = re.compile(r"\b(?:in|into)\s+force\b", re.IGNORECASE)


def _anchor_stems(piece: str) -> list[str]:
    """Content stems of ``piece``, "force" of "into force" read as "effect"."""
    stems = content_stems(piece)
    if _IN_FORCE.search(piece):
        return ["effect" if s == "forc" else s for s in stems]
    return stems


#: A sentence's bare subject: a short noun phrase with no finite verb ("The tunnel").
_BARE_SUBJECT = re.compile(r"^\s*(?:the|a|an|its|their|this|[A-Z][\w-]*)\b(?:\s+[\w'-]+){0,4}\s*$")
_FINITE = re.compile(r"\b(?:is|are|was|were|has|have|had|\w+ed)\b", re.IGNORECASE)


def _interrupted_subject(text: str, subject: Clause, aside: Clause, clause: Clause) -> bool:
    """Is ``clause`` the predicate of ``subject``, cut from it by the parenthetical ``aside``:
    "*The tunnel*, closed for repairs until May, *runs for 12 miles*"? Then the subject's
    words anchor the predicate's values too (session 28: "12 miles" had none of
    "tunnel")."""
    head = text[: subject.start].rstrip()
    return (
        (not head or head[-1] in ".!?")
        and "," in text[subject.end : aside.start]
        and "," in text[aside.end : clause.start]
        and bool(_BARE_SUBJECT.match(subject.text))
        and not _FINITE.search(subject.text)
    )


def _between_commas(text: str, cut: list[Clause], i: int, start: int, end: int) -> bool:
    """Is the value ``text[start:end]`` all of clause ``i``, with a comma on either side
    ("The mayor, 47, was elected")? Not a bracketed reference number ("… to occur [3].")."""
    c = cut[i]
    after = text[c.end : cut[i + 1].start] if i + 1 < len(cut) else text[c.end :]
    return (
        c.text.strip() == text[start:end].strip()
        and text[cut[i - 1].end : c.start].strip() == ","
        and after.strip() == ","
    )


#: A conjunction opening a subordinate clause: the words after it tell of another event
#: ("completed in November 2021 *after regulators approved it*": an approval's words
#: are no measure of the completion's date).
_SUBORDINATE = re.compile(r"\b(?:after|before|until|when|once|because)\b\s+(\S+)", re.IGNORECASE)

#: Words that make "after …" a preposition before a noun phrase, not a clause: "reopened
#: in 2023 *after a three-year renovation*" — the renovation is the value's own event.
_NOUN_PHRASE_OPENERS_TEXT = """
    a an the its his her their our this that these those some several many each every
    nearly almost about over under more less of
    """
_NOUN_PHRASE_OPENERS = frozenset(_NOUN_PHRASE_OPENERS_TEXT.split())


def _own_part(piece: str) -> str:
    """``piece`` (the text after a value) up to a subordinate clause's conjunction.

    Only a conjunction that opens a clause cuts; one followed by an article, a
    possessive, a quantifier or a number heads a noun phrase, whose words stay the
    value's own.
    """
    for m in _SUBORDINATE.finditer(piece):
        opener = m.group(1).lower().strip(",;:()")
        if opener in _NOUN_PHRASE_OPENERS or opener[:1].isdigit():
            continue
        return piece[: m.start()]
    return piece


def near_stems(
    text: str, start: int, end: int, *, width: int = 3
) -> tuple[frozenset[str], frozenset[str]]:
    """Content stems around ``text[start:end]``: ``(near, clause)``.

    ``near`` = up to ``width`` content words on each side inside the same clause, on the
    right not past a subordinate clause's conjunction (:data:`_SUBORDINATE`);
    ``clause`` = every content word of that clause (the value's own words excluded). A
    sentence's bare subject cut off by a parenthetical counts as words before the
    predicate's values (:func:`_interrupted_subject`); a value alone between commas takes
    the clauses on either side as its own ("The mayor, 47, was elected").
    """
    cut = clauses(text)
    for i, c in enumerate(cut):
        if c.start <= start < c.end or (start >= c.start and end <= c.end):
            before = _anchor_stems(text[c.start : start])
            after = _anchor_stems(text[end : c.end])
            own_after = _anchor_stems(_own_part(text[end : c.end]))
            if i >= 2 and _interrupted_subject(text, cut[i - 2], cut[i - 1], c):
                before = _anchor_stems(cut[i - 2].text) + before
            if i >= 1 and _between_commas(text, cut, i, start, end):
                # a value alone between commas is in apposition: "The mayor, 47, was
                # elected" — the clauses either side are its words
                before = _anchor_stems(cut[i - 1].text)
                after = _anchor_stems(cut[i + 1].text) if i + 1 < len(cut) else []
                own_after = after
            near = frozenset(before[-width:] + own_after[:width])
            return near, frozenset(before + after)
    before = _anchor_stems(text[max(0, start - 60) : start])
    after = _anchor_stems(text[end : end + 60])
    near = frozenset(before[-width:] + after[:width])
    return near, near


def sentence_around(
    text: str, start: int, end: int, stops: tuple[str, ...] = (". ", "! ", "? ")
) -> str:
    """The sentence of ``text`` holding ``[start, end)`` (split at ``stops``)."""
    left = max(text.rfind(p, 0, start) for p in stops)
    rights = [i for i in (text.find(p, end) for p in stops) if i >= 0]
    return text[left + 1 if left >= 0 else 0 : min(rights) + 1 if rights else len(text)]
