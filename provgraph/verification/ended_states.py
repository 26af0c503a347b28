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

from provgraph.verification.ended_objects import all_of_it, removes_it
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
    r"lives (?:in|on|with)|resides in|employs|owns|supports|stands (?:on|in))\b",
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
    with_body = [s for s, _e in states if s in ("member", "owning", "supporting", "held")]
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
                if state == "supporting" and not removes_it(sentence.text, m.start(), holder, body):
                    continue  # "… removed from version 2 but restored in version 3"
                if state not in _OWN_SUBJECT_TEST and _another_subject(
                    sentence.text, m.start(), holder
                ):
                    continue  # "Her former teammate retired …, but she remains …"
                if state == "standing" and not _destroyed_whole(sentence.text, m.start(), holder):
                    continue  # "A shop next to the cinema was demolished"
                if state == "held" and not _sold_by_holder(sentence.text, m.start(), holder, body):
                    continue  # "A rival family sold its shop"
                if state == "at large" and not _caught_is_holder(sentence.text, m, holder):
                    continue  # "police arrested his brother"
                # an employer's staff is its state, not what it is of: its holder is
                about = holder if state == "employing" else rest
                held = about & set(content_stems(sentence.text))
                shared = len(held) / len(about) if about else None
                return StateFinding(state, event, shared)
    return None


#: A source sentence that says its state goes on: "The road *remains* closed", "is *still*".
_PERSISTS = re.compile(r"\b(?:remains?|remained|still)\b", re.IGNORECASE)


def persisting_state(claim: str, window: str) -> StateFinding | None:
    """The ending the claim reports of a state a source sentence says goes on: "The road
    has reopened." against "The road remains closed after the landslide." (NLI entailment
    0.95). :func:`ended_state` read the other way round — the source sentence as the one
    asserting the state, the claim as the one ending it — for sentences that say the state
    persists ("remains", "still"; a bare "is" may describe a time before the ending)."""
    if _PERSISTS.search(claim):
        return None  # the claim asserts a state itself: :func:`ended_state`'s direction
    for sentence in split_sentences(window):
        persists = _PERSISTS.search(sentence.text)
        if persists is None or (found := ended_state(sentence.text, claim)) is None:
            continue
        # the state must be what goes on, after the marker ("was closed for a month and
        # *remains open*" does not say it is still closed)
        after = sentence.text.lower()[persists.end() : persists.end() + 40]
        if not any(re.search(rf"\b{re.escape(p)}", after) for p in STATES[found.state][0]):
            continue
        # its share of the claim, not of the sentence: the claim's words but the ending's
        rest = set(content_stems(claim)) - set(content_stems(found.event))
        held = rest & set(content_stems(sentence.text))
        return StateFinding(found.state, found.event, len(held) / len(rest) if rest else None)
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
    if _PASSIVE_STILL.search(low_claim[: m.start()]) and m.group(1).endswith("ed"):
        # "is still printed daily": the subject is what is done, nothing after is its
        # object ("stopped printing in 2015" ends it; session 39)
        return verb_lemma(m.group(1)), frozenset()
    return verb_lemma(m.group(1)), frozenset(content_stems(low_claim[m.end() :])[:3])


#: A passive before "still": "is still printed", "are still made".
_PASSIVE_STILL = re.compile(r"\b(?:is|are|was|were)\s+$")


def _stopping(low_sentence: str, doing: tuple[str, frozenset[str]]) -> list[re.Match[str]]:
    """The sentence's "stopped <verb>ing <object>" of the claim's activity: the same verb and
    a word of its object ("stopped making *computers*" ends no making of typewriters)."""
    verb, objects = doing
    # retiring ends whatever one still does: "still practises medicine" / "retired from
    # practice in 2015" (not "retired its camera line"; session 39)
    retired = [
        m for m in _RETIRED.finditer(low_sentence) if not _AN_OBJECT.match(low_sentence, m.end())
    ]
    return retired + [
        m
        for m in _STOPPED.finditer(low_sentence)
        if verb_lemma(m.group(1)) == verb
        and (
            objects & _object_after(low_sentence, m.end())
            if objects
            # no object of the claim's: the stopping must have none either ("stopped
            # printing in 2015", not "stopped printing its sports section")
            else not _AN_OBJECT.match(low_sentence, m.end())
        )
    ]


_RETIRED = re.compile(r"\bretire[sd]\b")
#: A determiner or a possessive after a stopped verb: it stopped doing something named.
_AN_OBJECT = re.compile(r"\s+(?:the|a|an|its|his|her|their|our|all|some|any|new)\b")


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
            if state == "owning" and not all_of_it(low_sentence, m.end(), body, low_claim):
                continue  # "sold two of its hotels", "sold the car" for "owns the hotel"
            out.append((event, m))
    if state == "member" and body:
        for m in _LEAVING.finditer(low_sentence):
            if low_sentence.startswith("'s", m.end()):
                continue  # "left the BBC's radio service": a part of the body, not the body
            if body & set(content_stems(m.group("body"))) and not _LEAVING.search(low_claim):
                out.append((m.group(0), m))
    return out


#: States whose ending is tested for its own subject or object (a removal of the claim's
#: feature, a destruction of the claim's building), not by :func:`_another_subject`.
_OWN_SUBJECT_TEST = frozenset({"supporting", "standing", "held", "at large"})
#: Where a building's subject ends: "The old cinema *on the square*", "A shop *next to* the
#: cinema", "The roof *of* the cinema" (the holder must be before it).
_SUBJECT_END = re.compile(
    r"\b(?:on|in|at|of|near|beside|behind|opposite|next\s+to|across\s+from|was|were|has|"
    r"had|is)\b",
    re.IGNORECASE,
)
#: A destruction undone or partial: "partly destroyed … and restored in 1953".
_NOT_WHOLE = re.compile(r"\b(?:partly|partially|largely|badly|nearly|almost)\s+$", re.I)
_UNDONE = re.compile(r"\b(?:restored|rebuilt|reconstructed|repaired|reopened)\b", re.I)
#: An undoing denied right before it: "collapsed in 1981 and was *never* rebuilt".
_NEVER = re.compile(r"\b(?:never|not|n't|not\s+yet)\s+(?:been\s+)?$", re.IGNORECASE)


def _destroyed_whole(sentence: str, at: int, holder: set[str]) -> bool:
    """Is the thing destroyed at ``at`` the holder itself, all of it, for good? Its clause's
    subject (up to :data:`_SUBJECT_END`) or the verb's object names the holder, no degree
    word precedes the ending, and nothing after it rebuilt it (session 29; "was never
    rebuilt" is no rebuilding, session 36)."""
    for clause in clauses(sentence):
        if clause.start <= at < clause.end:
            before = sentence[clause.start : at]
            subject = _SUBJECT_END.split(before, maxsplit=1)[0]
            verb = re.match(r"[a-z]+", sentence[at:].lower())
            # passive: the subject is the thing; active ("the council demolished the
            # cinema"): the object is
            after = _object_after(sentence, at + (verb.end() if verb else 0))
            if not holder & (set(content_stems(subject)) | after) or _NOT_WHOLE.search(before):
                return False
    return not any(
        m for m in _UNDONE.finditer(sentence[at:]) if not _NEVER.search(sentence[at:][: m.start()])
    )


def _caught_is_holder(sentence: str, ending: re.Match[str], holder: set[str]) -> bool:
    """Is the one caught at ``ending`` the claim's holder: the passive's subject ("*the
    suspect* was arrested") or the active's object ("police captured *the gunman*")? The
    arrester is always someone else, so the clause's subject test does not apply."""
    before = sentence[: ending.start()]
    if re.search(r"\b(?:was|were|been|being|is|are)\s+$", before, re.IGNORECASE):
        own = clauses(before)  # the passive's subject is in the clause that ends here
        caught = own[-1].text if own else before
    else:
        caught = " ".join(sentence[ending.end() :].split()[:4])
    if any(stem(m.group(1)) in holder for m in _POSSESSED.finditer(caught)):
        return False  # "the suspect's brother": someone of the holder's, not the holder
    return bool(holder & set(content_stems(caught)))


def _sold_by_holder(sentence: str, at: int, thing: set[str], runner: set[str]) -> bool:
    """Does the clause of the sale at ``at`` name, before it, the thing itself or the one
    the claim says runs it, every word of either ("*the bakery* was sold", "*the founding
    family* sold it"; not "a rival family sold its shop")?"""
    for clause in clauses(sentence):
        if clause.start <= at < clause.end:
            before = set(content_stems(sentence[clause.start : at]))
            return any(side and side <= before for side in (thing, runner))
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
