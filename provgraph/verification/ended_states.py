"""Ended states: the claim asserts a state as current and the source ends it.

The claim asserts a state as current ("is closed", "is still operating", "remains
minister", "is still supported") and a source sentence about the claim's subject
reports an event that ends it ("reopened", "shut down", "resigned", "deprecated"),
not negated. The small NLI model reads "the museum is closed" against "the museum
reopened" as entailment: it has no model of events that end a state. The lexicon
(:mod:`.state_endings`) is of general state/ending pairs, not of any data set. Split
from :mod:`.roles` (session 16), which keeps the finding type and the subject reader
both rules share.
"""

from __future__ import annotations

import re

from provgraph.verification.negation import negated_scopes
from provgraph.verification.roles import TOKEN_RE, StateFinding, holder_stems, verb_lemma
from provgraph.verification.sentences import split_sentences
from provgraph.verification.state_endings import STATES
from provgraph.verification.word_classes import is_verb
from provgraph.verification.wordsets import clauses, content_stems, stem

#: A clause with its own subject after a coordinating conjunction.
_COORDINATED = re.compile(r"\s*(?:and|but|while|whereas|yet)\s+(\S.*)", re.IGNORECASE | re.DOTALL)
#: The "office" state needs an office named: "remains" alone is any state.
_OFFICE = re.compile(
    r"\b(?:office|post|position|president|chair\w*|leader|minister|mayor|governor|ceo|"
    r"chief|director|head|seat|coach|manager|secretary|captain|speaker|senator|incumbent)\b",
    re.IGNORECASE,
)
#: What after "closed" makes it a timetable ("closed on Mondays", "closed at night",
#: "closed during the winter"), not the end of a state.
_SCHEDULE = re.compile(
    r"\s+(?:on\s+(?:(?:public|bank|national)\s+holidays|holidays|weekends|sundays|mondays|"
    r"tuesdays|wednesdays|thursdays|fridays|saturdays)|at\s+(?:night|weekends)|overnight|"
    r"during\s+(?:the\s+)?(?:winter|summer|holidays|off-season|night)|for\s+lunch|"
    r"every|each|daily|in\s+(?:the\s+)?(?:winter|evenings?|mornings?))\b"
)
_CURRENT = re.compile(
    r"\b(?:is|are|remains?|still|current(?:ly)?|continues? to|now|incumbent|"
    # a membership in the present tense is current: "He *works for* the newspaper"
    r"works? (?:for|at)|plays? for|coaches|manages|"
    # a singular subject's home and staff in the present tense: "lives in", "employs"
    r"lives (?:in|on|with)|resides in|employs|owns|supports)\b",
    re.IGNORECASE,
)


def ended_state(claim: str, window: str) -> StateFinding | None:
    """The state the claim asserts as current that a source sentence about its subject ended."""
    current = _CURRENT.search(claim)
    if current is None:
        return None
    # the subject of the clause that asserts the state ("The man was never identified,
    # and *the investigation* remains open"), not of the claim's first clause
    asserting = [c for c in clauses(claim) if c.start <= current.start() < c.end]
    # (a first clause's "While …" is subordinate: the claim's subject stands)
    coordinated = (
        _COORDINATED.match(asserting[0].text) if asserting and asserting[0].start > 0 else None
    )
    holder = holder_stems(coordinated.group(1)) if coordinated else set()
    holder = holder or holder_stems(claim)
    if not holder:
        return None
    low_claim = claim.lower()
    states = [
        (state, endings)
        for state, (asserted, endings) in STATES.items()
        if any(re.search(rf"\b{re.escape(p)}(?!\w*\s+by\b)", low_claim) for p in asserted)
        and (state != "office" or _OFFICE.search(claim))
        and not _denied(asserted, low_claim, claim)
    ]
    doing = _still_doing(low_claim)
    if doing is not None:
        states.append(("activity", ()))  # "still makes typewriters" / "stopped making them"
    rest = _rest_of(claim, [p for state, _e in states for p in STATES.get(state, ((), ()))[0]])
    # what the claim's subject is a member of, or owns: the ending must name it
    with_body = [s for s, _e in states if s in ("member", "owning", "supporting")]
    body = _body_of(low_claim, STATES[with_body[0]][0]) if with_body else set()
    for sentence in split_sentences(window):
        words = {stem(w) for w in TOKEN_RE.findall(sentence.text)}
        if len(holder & words) * 2 < len(holder) or not holder & words:
            continue
        if any(any(c.isdigit() for c in h) and h not in words for h in holder):
            continue  # "the v2 endpoint" is not "the v1 endpoint"
        low_sentence = sentence.text.lower()
        negated = {w for _cue, scope in negated_scopes(sentence.text) for w in scope}
        for state, endings in states:
            for event, m in _endings_in(state, endings, low_sentence, low_claim, body, doing):
                word = re.match(r"[a-z-]+", low_sentence[m.start() :])
                if word is not None and stem(word.group(0)) in negated:
                    continue
                if _SCHEDULE.match(low_sentence, m.start() + len(word.group(0) if word else event)):
                    continue  # "closed on public holidays": a timetable, not an ending
                if state == "supporting" and not _removes_it(
                    sentence.text, m.start(), holder, body
                ):
                    continue  # "… removed from version 2 but restored in version 3"
                if state != "supporting" and _another_subject(sentence.text, m.start(), holder):
                    continue  # "Her former teammate retired …, but she remains …"
                # an employer's staff is its state, not what it is of: its holder is
                about = holder if state == "employing" else rest
                held = about & set(content_stems(sentence.text))
                shared = len(held) / len(about) if about else None
                return StateFinding(state, event, shared)
    return None


def _denied(phrases: tuple[str, ...], low_claim: str, claim: str) -> bool:
    """Does the claim negate the state it names ("is *no longer* in operation", "is not
    open")? Then it asserts no current state for an ending to contradict."""
    denied = [w for _cue, scope in negated_scopes(claim) for w in scope]
    named = [
        w for p in phrases if re.search(rf"\b{re.escape(p)}", low_claim) for w in content_stems(p)
    ]
    return any(a.startswith(b) or b.startswith(a) for a in named for b in denied)


#: Leaving a body by name: "left the Democratic Party", "quit the union" (not the side: "on
#: the left wing of the party").
_LEAVING = re.compile(
    r"(?<!\bthe )(?<!\bon )\b(?:left|quit|exited|resigned from|withdrew from|defected from)\s+"
    r"(?:the\s+)?"
    r"(?P<body>(?:[a-z-]+\s+){0,3}[a-z-]+)"
)


def _body_of(low_claim: str, phrases: tuple[str, ...]) -> set[str]:
    """Content stems of what the claim says its subject is a member of: the words after
    "member of" / "works for" … to the end of their clause."""
    for phrase in phrases:
        m = re.search(rf"\b{re.escape(phrase)}\b", low_claim)
        if m is not None:
            after = next((c.text for c in clauses(low_claim[m.end() :])), "")
            return set(content_stems(after))
    return set()


#: A claim's ongoing activity: "still *makes* typewriters".
_STILL = re.compile(r"\bstill\s+([a-z]+)")
#: Its end in the source: "stopped *making* typewriters", "gave up *farming*".
_STOPPED = re.compile(
    r"\b(?:stopped|stops|ceased|ceases|quit|quits|gave up|given up|discontinued)\s+([a-z]+ing)\b"
)


def _still_doing(low_claim: str) -> tuple[str, frozenset[str]] | None:
    """The verb and object stems of the activity the claim says goes on ("still makes
    typewriters" → "make", {"typewri"}), else None."""
    m = _STILL.search(low_claim)
    if m is None or not is_verb(m.group(1)) or m.group(1) in ("is", "are", "has", "have"):
        return None
    return verb_lemma(m.group(1)), frozenset(content_stems(low_claim[m.end() :])[:3])


def _stopping(low_sentence: str, doing: tuple[str, frozenset[str]]) -> list[re.Match[str]]:
    """The sentence's "stopped <verb>ing <object>" of the claim's activity: the same verb and
    a word of its object ("stopped making *computers*" ends no making of typewriters)."""
    verb, objects = doing
    return [
        m
        for m in _STOPPED.finditer(low_sentence)
        if verb_lemma(m.group(1)) == verb
        and (not objects or objects & _object_after(low_sentence, m.end()))
    ]


def _object_after(text: str, at: int) -> set[str]:
    """The first three content stems of the clause after ``at``: what was stopped."""
    first = next((c.text for c in clauses(text[at : at + 80])), "")
    return set(content_stems(first)[:3])


#: Words after an ending that make it the end of talks, not of the state.
_TALKS = r"(?:talks|negotiations|discussions|plans?)\b"


def _endings_in(
    state: str,
    endings: tuple[str, ...],
    low_sentence: str,
    low_claim: str,
    body: set[str],
    doing: tuple[str, frozenset[str]] | None = None,
) -> list[tuple[str, re.Match[str]]]:
    """``(event, its match)`` of each ending of ``state`` the sentence uses and the claim
    does not; for a membership also leaving the body the claim names ("member of the
    Democratic Party" / "left the Democratic Party in 2021"); for an ongoing activity
    (``doing``) stopping it ("still makes" / "stopped making")."""
    out: list[tuple[str, re.Match[str]]] = []
    if state == "activity":
        return [(m.group(0), m) for m in _stopping(low_sentence, doing)] if doing else []
    for event in endings:
        # not the end of talks about it: "ended their partnership *talks*"
        m = re.search(rf"\b{re.escape(event)}(?!\w*\s+{_TALKS})", low_sentence)
        if m is not None and not re.search(rf"\b{re.escape(event)}", low_claim):
            if state == "owning" and not _all_of_it(low_sentence, m.end(), body, low_claim):
                continue  # "sold two of its hotels", "sold the car" for "owns the hotel"
            out.append((event, m))
    if state == "member" and body:
        for m in _LEAVING.finditer(low_sentence):
            if low_sentence.startswith("'s", m.end()):
                continue  # "left the BBC's radio service": a part of the body, not the body
            if body & set(content_stems(m.group("body"))) and not _LEAVING.search(low_claim):
                out.append((m.group(0), m))
    return out


#: Words of a sale of part of a holding: "sold *part of* its stake", "sold *two* hotels".
_PART_OF = re.compile(r"\b(?:part|some|half|portion|minority|share|several|few|one|two|three)\b|\d")


#: A holding in a thing: "sold its *stake in* the hotel" sold the hotel (for its owner);
#: "dropped *support for* Python 3.8" dropped Python 3.8.
_HOLDING = re.compile(
    r"^(?:(?:stake|interest|holding|share|shares|ownership)\s+(?:in|of)|support\s+for)\s+"
)
_SOLD_THING = re.compile(
    r"^\s*(?:(?:the|a|an|its|their|his|her|our|all|entire|whole)\s+)*"
    r"(?P<thing>[a-z'-]+(?:\s+(?!(?:to|in|of|for|at|on|with|from|by|next|near|and|but)\b)"
    r"[a-z'-]+){0,2})"
)


def _sold_thing(low_text: str) -> set[str]:
    """Content stems of the noun phrase sold at the start of ``low_text`` (up to its first
    preposition: "the farm *next to the hotel*" sold a farm), through a holding ("its stake
    in the hotel" → the hotel)."""
    m = _SOLD_THING.match(low_text)
    if m is None:
        return set()
    rest = low_text[m.start("thing") :]
    held = _HOLDING.match(rest)
    if held is not None:
        return _sold_thing(rest[held.end() :])
    return set(content_stems(m.group("thing")))


#: A number of things owned: "owns *5* hotels", "owns *several* farms".
_OWNS_MANY = re.compile(
    r"\bowns?\s+(?:[a-z]+\s+)?(?:\d|several|many|dozens|hundreds|two|three|four|five|six|"
    r"seven|eight|nine|ten)"
)


def _all_of_it(low_sentence: str, at: int, owned: set[str], low_claim: str) -> bool:
    """Does the sale at ``at`` name what the claim says is owned and no part of it in its
    first three words ("sold *part of* its stake", "sold *two* of its hotels")? A claim
    owning a number of things ("owns 5 hotels") is not ended by any one sale."""
    first_words = " ".join(low_sentence[at:].split()[:3])
    return (
        bool(owned & _sold_thing(low_sentence[at:]))
        and not _PART_OF.search(first_words)
        and not _OWNS_MANY.search(low_claim)
    )


_PASSIVE_BEFORE = re.compile(r"\b(?:was|were|is|are|has been|have been|had been)\s+$")


def _removes_it(sentence: str, at: int, holder: set[str], supported: set[str]) -> bool:
    """Is the removal at ``at`` of what the claim says is supported — its object, or a
    passive's subject — in a clause naming the holder's version numbers ("OAuth tokens were
    removed from version 2" for "Version 2 supports OAuth tokens"; not "… but restored in
    version 3" for version 3, nor "removed its settings page and added dark mode")?"""
    for clause in clauses(sentence):
        if clause.start <= at < clause.end:
            words = {stem(w) for w in TOKEN_RE.findall(clause.text)}
            numbers = {h for h in holder if any(c.isdigit() for c in h)}
            low = sentence.lower()
            event = re.match(r"[a-z ]+?(?=\s|$)", low[at:])
            after = low[at + len(event.group(0)) if event else at :]
            before = low[clause.start : at]
            removed = _sold_thing(after)
            if _PASSIVE_BEFORE.search(before):
                removed |= set(content_stems(before))
            return bool(supported & removed) and numbers <= words
    return False


#: A possessive before a lower-case noun: "Smith's *wife*", "the firm's *founder*".
_POSSESSED = re.compile(r"\b([A-Za-z][\w-]*)'s\s+(?=[a-z])")


def _another_subject(sentence: str, at: int, holder: set[str]) -> bool:
    """Does the clause of the ending at ``at`` open with words of its own, none of the
    holder's ("*Her former teammate* retired last year, but she remains …"), or one of the
    holder's own ("*Smith's wife* died")? A clause with no content words before the ending
    ("who stepped down in March") keeps the sentence's subject."""
    for clause in clauses(sentence):
        if clause.start <= at < clause.end:
            owners = _POSSESSED.finditer(sentence, clause.start, at)
            if any(stem(m.group(1)) in holder for m in owners):
                return True  # "*Smith's wife* died": the holder's someone, not the holder
            before = {stem(w) for w in TOKEN_RE.findall(sentence[clause.start : at])}
            own = set(content_stems(sentence[clause.start : at]))
            return bool(own) and not holder & before
    return False


def _rest_of(claim: str, phrases: list[str]) -> set[str]:
    """The claim's content words but its state's and its "currently": what it says the
    state is of ("He currently works for *the newspaper*"), to measure how much of the
    claim the ending sentence speaks of (session 21: its share, else the pair's lexical
    relevance decides, which a short claim keeps low)."""
    state_words = {w for p in phrases for w in content_stems(p)}
    current = set(content_stems(" ".join(_CURRENT.findall(claim))))
    return set(content_stems(claim)) - state_words - current
