"""A date the source gives to another event: "opened in 2015" / "began in 2015 … opened in 2018".

The value comparison (:mod:`.slots`) attaches a date to the content words around it,
and a sentence of two events shares most of them: "Construction began in 2015 and
the bridge opened to traffic in 2018" puts "bridge" and "opened" near both years, so
"The bridge opened in 2015." found its 2015 and agreed (NLI entailment 0.97).
What tells the two dates apart is the verb each is the date *of*. This module reads
that verb — the nearest verb before the date in its clause, or after a date that
opens its clause ("In 2018 the bridge opened") — and finds a conflict when:

* the source dates an event of the claim's verb (the same verb or a plain synonym,
  :func:`~provgraph.verification.synonyms.same_verb`), and none of those dates is
  the claim's;
* the source gives the claim's date to an event of another verb ("began in
  2015"), so the claim has paired its date with the wrong event; a date the
  source attaches to no verb ("in 2015 and 2018") decides nothing;
* the event of the claim's verb is the claim's subject's: the words before that
  verb in its clause name one of the claim's words, or nothing ("it", "and
  retired in 2021"). "The nearby tunnel opened in 2018" dates another opening.

Only verb forms that can only be verbs here count
(:func:`~provgraph.verification.claimsplit.is_verb`: "opened", "signed", "went"),
or a verb's plain form after an auxiliary ("did not go on sale until 2020");
"traffic", "sale" or "court" are read past.
"""

from __future__ import annotations

import re

from provgraph.verification.dates import in_year
from provgraph.verification.roles import verb_lemma
from provgraph.verification.slots import Mention, anchor_score
from provgraph.verification.synonyms import same_verb
from provgraph.verification.topic_words import topic_stems
from provgraph.verification.word_classes import can_be_verb, is_verb
from provgraph.verification.wordsets import (
    BEFORE_PLAIN_VERB,
    CLAUSE_BOUNDARY_RE,
    WORD_RE,
    content_stems,
)

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*|[,;:()]")
#: Words that open another clause: the verb before them belongs to it, not to the date.
_CLAUSE_OPENERS = frozenset((
    "and", "but", "or", "nor", "while", "whereas", "which", "who", "whom", "whose", "that",
    "although", "though", "because", "where", "when",
))  # fmt: skip
_AUXILIARIES = frozenset((
    "is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "am", "do",
    "does", "did", "will", "would", "shall", "should", "can", "could", "may", "might", "must",
))  # fmt: skip
#: Words read back from (or, for a date opening its clause, forward from) the date.
_REACH = 8


def _verb_of(word: str, before: str | None) -> str | None:
    """The lemma of ``word`` as an event verb here, else None (an auxiliary is none)."""
    lower = word.lower()
    if lower in _AUXILIARIES:
        return None
    if is_verb(word) or (before in BEFORE_PLAIN_VERB and can_be_verb(word)):
        return verb_lemma(lower)
    return None


def _clause_span(text: str, start: int) -> tuple[int, int]:
    """``(start, end)`` of the clause of ``text`` holding position ``start``."""
    left, right = 0, len(text)
    for m in CLAUSE_BOUNDARY_RE.finditer(text):
        if m.end() <= start:
            left = m.end()
        elif m.start() >= start:
            right = m.start()
            break
    return left, right


def event_verb(text: str, start: int, end: int) -> tuple[str, int] | None:
    """``(verb lemma, its start)`` of the event the date ``text[start:end]`` is the date of.

    The nearest verb before it within :data:`_REACH` words of its clause, stopping at a
    word that opens another clause; for a date opening its clause ("In 2018 the bridge
    opened") the first verb after it. None when there is none (an elided "and 2018").
    """
    left, right = _clause_span(text, start)
    before = list(_TOKEN.finditer(text, left, start))[::-1][:_REACH]
    for i, m in enumerate(before):
        word = m.group(0)
        if not word[0].isalpha() or word.lower() in _CLAUSE_OPENERS:
            break
        prev = before[i + 1].group(0).lower() if i + 1 < len(before) else None
        verb = _verb_of(word, prev)
        if verb is not None:
            return verb, m.start()
        if word.lower() in _AUXILIARIES:
            return None  # "was in 2015": no event verb
    if len(content_stems(text[left:start])) > 0:
        return None
    after = list(_TOKEN.finditer(text, end, right))[:_REACH]
    for i, m in enumerate(after):
        word = m.group(0)
        if not word[0].isalpha() or word.lower() in _CLAUSE_OPENERS:
            break
        prev = after[i - 1].group(0).lower() if i > 0 else None
        verb = _verb_of(word, prev)
        if verb is not None:
            return verb, m.start()
    return None


def _same_event(a: str, b: str) -> bool:
    return a == b or same_verb(a, b)


def _subject_is_claims(window: str, verb_start: int, claim_words: set[str]) -> bool:
    """The words before the event's verb in its clause name one of the claim's words, or
    nothing of their own ("it was signed", "and retired")."""
    left, _right = _clause_span(window, verb_start)
    plain = " ".join(w for w in WORD_RE.findall(window[left:verb_start]) if not _adverb(w))
    words = set(content_stems(plain))
    return not words or bool(words & claim_words)


def _adverb(word: str) -> bool:
    """ "finally", "quickly": a manner or time adverb, no subject."""
    return word.lower().endswith("ly")


def date_of_other_event(
    claim: str, value: Mention, window: str, window_dates: list[Mention]
) -> Mention | None:
    """The window date of the claim's event, when the window gives ``value`` to another.

    None unless all of the module's conditions hold (no signal: the value comparison
    decides as before). ``window_dates`` are :func:`~provgraph.verification.dates.extract_dates`
    of ``window``.
    """
    if value.edition:
        return None
    claimed = event_verb(claim, value.start, value.end)
    if claimed is None:
        return None
    verb = claimed[0]
    claim_words = set(content_stems(claim))
    same: list[Mention] = []
    giving: list[str | None] = []
    for date in window_dates:
        view = _view(value, date)
        if date.edition or view is None:
            continue
        found = event_verb(window, date.start, date.end)
        if found is not None and _same_event(found[0], verb):
            if _subject_is_claims(window, found[1], claim_words):
                same.append(date)  # else another subject's event ("the nearby tunnel opened")
        elif view.overlaps(date):
            giving.append(found[0] if found else None)
    if not same or not giving or any(g is None for g in giving):
        return None
    if any(view.overlaps(date) for date in same if (view := _view(value, date)) is not None):
        return None
    return same[0]


def _view(value: Mention, date: Mention) -> Mention | None:
    """``value`` as comparable with the window's ``date``: itself for a date of its kind,
    its day of the year for a date written without one ("March 4th"), else None."""
    if date.kind == value.kind:
        return value
    return in_year(value) if date.kind == "date-in-year" else None


def event_undated_by_window(
    claim: str, value: Mention, claim_dates: list[Mention], window: str, window_dates: list[Mention]
) -> bool:
    """The window dates another event of the claim's, not the event ``value`` dates.

    "The library opened in 1905 and was expanded in 1960." against "The library opened in
    1905 with 4,000 books.": both claim dates sit among the same words ("library",
    "opened", "expanded"), so the value comparison judged 1960 against 1905 and called it
    a mismatch (a contradiction). But 1905 is the date of an opening — the claim's
    *other* date's event — and nothing in the window dates the expansion: 1960 is
    unverified, the claim partly unsupported. True when ``value`` has an event verb,
    every window date of its kind has one, none of them is ``value``'s event, and another
    claim date's event is one of them (else a window dating its one event with another
    verb — "released in 1994" / "came out in 1996" — is still read as the same event), or
    the window names nothing of what the claim's event did (:func:`_objects_unspoken`).
    """
    if value.edition:
        return False
    claimed = event_verb(claim, value.start, value.end)
    comparable = [d for d in window_dates if not d.edition and _view(value, d) is not None]
    if claimed is None or not comparable:
        return False
    dated: list[str] = []
    for date in comparable:
        found = event_verb(window, date.start, date.end)
        if found is None or _same_event(found[0], claimed[0]):
            return False
        dated.append(found[0])
    others = (event_verb(claim, d.start, d.end) for d in claim_dates if d is not value)
    if any(o is not None and any(_same_event(o[0], v) for v in dated) for o in others):
        return True
    return (
        claimed[0] not in _LIGHT_VERBS
        and value.high - value.low <= _ONE_YEAR_DAYS  # a span's ends are dated by other verbs
        and _objects_unspoken(claim, claimed[1], value.start, window)
    )


#: The longest claim date read by :func:`_objects_unspoken`: a year. "served one term from
#: 2017 to 2021" is dated by "took office on January 20, 2017 and left on January 20, 2021".
_ONE_YEAR_DAYS = 366


#: Verbs whose words after them are the predicate itself, not what the event was done to:
#: "came into *force*", "took *effect*", "took *place*", "went *bankrupt*", "became
#: *cheaper*" — "took effect in 2018" dates what "came into force in 2016" does.
_LIGHT_VERBS = frozenset((
    "come", "take", "go", "enter", "get", "make", "have", "set", "put", "become", "give",
    "keep", "run", "turn", "fall", "hold", "be", "do", "reach", "see", "bring",
))  # fmt: skip


def _objects_unspoken(claim: str, verb_start: int, date_start: int, window: str) -> bool:
    """The claim's event has words after its verb ("toured *Japan*", "launched its *first
    phone*": up to the date, or to the clause's end after a date that comes first), values
    and times left out, and the window uses none of them: the window's dates, all of events
    of other verbs, are of other events.

    Session 34: "The orchestra toured Japan in 2018." against "The orchestra was founded in
    1905 …" was *contradicted* (2018 / 1905, the orchestra near both). An event with nothing
    after its verb stays judged by value: "The album was released in 1994." against "The
    album came out in 1996." dates one release in other words, and so does a light verb's
    (:data:`_LIGHT_VERBS`)."""
    verb = WORD_RE.match(claim, verb_start)
    if verb is None:
        return False
    end = date_start if date_start > verb.end() else _clause_span(claim, verb_start)[1]
    objects = topic_stems(claim[verb.end() : end])
    return bool(objects) and not objects & set(content_stems(window))


def dates_by_event(
    claim: str, claim_dates: list[Mention], window: str, window_dates: list[Mention]
) -> tuple[list[Mention], list[tuple[Mention, Mention]], list[Mention]]:
    """The claim's dates sorted by what the window says of their events: ``(to judge by
    value, (date, the window's date of its event) where the window gives the date to
    another event (:func:`date_of_other_event`: a mismatch), dates the window gives only
    to the claim's other event (:func:`event_undated_by_window`: unverified))``."""
    rebound: list[tuple[Mention, Mention]] = []
    undated: list[Mention] = []
    judged: list[Mention] = []
    for value in claim_dates:
        other = date_of_other_event(claim, value, window, window_dates)
        if other is not None:
            rebound.append((value, other))
        elif event_undated_by_window(claim, value, claim_dates, window, window_dates):
            undated.append(value)
        else:
            judged.append(value)
    return judged, rebound, undated


def event_anchor(claim: str, value: Mention, against: Mention) -> int:
    """:func:`~provgraph.verification.slots.anchor_score` of a claim date and a window date,
    plus one shared neighbour's worth (2) when the verb the claim dates ``value`` with
    (:func:`event_verb`) is among the window date's clause words.

    Two dates of one claim clause share their neighbours: in "The station was renovated in
    2019 and renamed in 2020." both sit beside "renovated" and "renamed", so against "The
    station underwent a full renovation in 2019." neither the 2019 nor the 2020 was the more
    attached, and the tie made 2020 a mismatch (*contradicted*; session 34). The window's
    "renovation" names the event of the claim's 2019, not of its 2020 (a noun of the verb's
    root counts: "extension" for "extended", :func:`_one_root`). In "opened in 1990
    and closed in 1995" against "opened in 1995" the same bonus goes to 1990: the
    mismatch stands."""
    score = anchor_score(value, against)
    found = event_verb(claim, value.start, value.end) if claim else None
    if found is None:
        return score
    word = WORD_RE.match(claim, found[1])
    if word is None:
        return score
    if any(_one_root(v, w) for v in content_stems(word.group(0)) for w in against.clause):
        score += 2
    return score


def _one_root(verb: str, word: str) -> bool:
    """A verb's stem and a clause stem of one root: the same, the verb's stem opening the
    noun's ("restor" / "restora(tion)"), or a Latin verb and its noun ("extend" /
    "extensi(on)", "expand" / "expansi(on)", "decid(e)" / "decisi(on)")."""
    if verb == word or (len(verb) >= 5 and word.startswith(verb)):  # "restor(ation)"
        return True
    root = verb[:-1]
    return (
        len(root) >= 4
        and verb[-1] in "dst"
        and word.startswith(root)
        and word[len(root) : len(root) + 1] in ("d", "s", "t")
    )
