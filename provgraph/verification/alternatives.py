"""Two alternatives exchanged: "buses instead of a tram" against "a tram rather than buses".

A contrastive phrase (*rather than*, *instead of*, *as opposed to*, *in place of*,
*", not"*) asserts the alternative before it and sets aside the one after it.
When claim and source speak of the same thing and each side sets aside what the
other asserts, they say opposite things with the same words — which a small NLI
model reads as agreement (its word overlap is total). Both directions are
required: a source that merely mentions the claim's set-aside alternative
("a tram line was also discussed") is not a conflict; the same choice stated
twice ("speed, not price" / "speed rather than price") never is. A claim making
no choice that names the alternative the source sets aside, and not the one it
asserts, says what the source denies ("took place in Madrid" / "in Barcelona, not
in Madrid").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.negation import PREFERENCE, PREFERENCE_PHRASE, best_sentence
from provgraph.verification.roles import RoleFinding
from provgraph.verification.sentences import split_sentences
from provgraph.verification.word_classes import is_verb
from provgraph.verification.wordsets import clauses, content_stems

_PREFERENCE = re.compile(PREFERENCE, re.IGNORECASE)
#: How many content words before the phrase name the asserted alternative and after
#: it the alternative set aside ("opted for a *tram line* rather than *buses*").
_SIDE_WORDS = 3
#: The phrases that may open a sentence ("Instead of X, Y"); ", not" cannot.
_FRONTED = re.compile(PREFERENCE_PHRASE, re.IGNORECASE)
#: A choice of one thing over another: "prefer trams *over* buses", "chose rail *over*
#: road", "prefer tea *to* coffee" (session 31). "over" then sets aside what follows it,
#: unless that is a time or a number ("picked the team over the weekend", "over 50").
_TIME_OR_NUMBER = (
    r"(?:the\s+|a\s+)?(?:past|last|next|coming|following|weekend|summer|winter|spring|"
    r"autumn|fall|years?|decades?|months?|weeks?|days?|period|course|time|holidays?|\d)"
)
_CHOICE_OVER = re.compile(
    r"\b(?:prefer(?:s|red|ring)?|cho(?:ose|oses|se|sen|osing)|favou?r(?:s|ed|ing)?|"
    r"pick(?:s|ed|ing)?|select(?:s|ed|ing)?|opt(?:s|ed|ing)?\s+for)"
    rf"\s+(?:[\w'-]+\s+){{1,4}}?(?P<phrase>over)\s+(?!{_TIME_OR_NUMBER})",
    re.IGNORECASE,
)
_PREFER_TO = re.compile(
    r"\bprefer(?:s|red|ring)?\s+(?:[\w'-]+\s+){1,4}?(?P<phrase>to)\s+(?P<next>[\w'-]+)",
    re.IGNORECASE,
)
#: Claim and source sentence must share this share of the claim's content words.
_MIN_SHARED = 0.5


@dataclass(frozen=True)
class Preference:
    """One contrastive phrase: the alternative asserted and the one set aside."""

    asserted: frozenset[str]
    aside: frozenset[str]
    #: The words as written (for the report), the clause before and after the phrase.
    asserted_text: str
    aside_text: str


def preferences(sentence: str) -> list[Preference]:
    """Every contrastive phrase of ``sentence`` with the content stems of its two sides."""
    out: list[Preference] = []
    for start, end in _phrases(sentence):
        before = clauses(sentence[:start])
        after = clauses(sentence[end:])
        if not after:
            continue
        if before:
            asserted_text, aside_text = before[-1].text, after[0].text
        elif len(after) > 1 and _FRONTED.match(sentence[start:]):
            # "Rather than fix the bridge, the city built a new one": the phrase opens
            # the sentence, the alternative set aside is its own clause, the one
            # asserted ends the clause after it.
            aside_text, asserted_text = after[0].text, after[1].text
        else:
            continue
        asserted = frozenset(content_stems(asserted_text)[-_SIDE_WORDS:])
        aside = frozenset(content_stems(aside_text)[:_SIDE_WORDS])
        # a head noun of both alternatives names neither ("the tram *plan* over the bus
        # *plan*"): the alternatives are the words that tell them apart (session 31)
        asserted, aside = asserted - aside, aside - asserted
        if asserted and aside:
            out.append(Preference(asserted, aside, asserted_text.strip(), aside_text.strip(" .")))
    return out


def _phrases(sentence: str) -> list[tuple[int, int]]:
    """Spans of the contrastive phrases of ``sentence``, in order: the fixed phrases, and
    the "over" / "to" of a choice (:data:`_CHOICE_OVER`; "prefer X to" a verb is an
    infinitive, not a choice: "prefer to walk", "prefer the bus to get there"; a gerund
    after it is the other alternative: "prefer cycling to driving")."""
    spans = [(m.start(), m.end()) for m in _PREFERENCE.finditer(sentence)]
    spans += [m.span("phrase") for m in _CHOICE_OVER.finditer(sentence)]
    spans += [
        m.span("phrase")
        for m in _PREFER_TO.finditer(sentence)
        if not is_verb(word := m.group("next")) or word.lower().endswith("ing")
    ]
    return sorted(spans)


def alternatives_swap(claim: str, window: str) -> RoleFinding | None:
    """The claim's choice stated the other way round by the window's closest sentence;
    for a claim making no choice, the alternative that sentence sets aside asserted by
    the claim (:func:`_aside_asserted`)."""
    claimed = [p for s in split_sentences(claim) for p in preferences(s.text)]
    sentence, share = best_sentence(claim, window)
    if share < _MIN_SHARED:
        return None
    if not claimed:
        return _aside_asserted(claim, sentence)
    for stated in preferences(sentence):
        for mine in claimed:
            if mine.aside & stated.asserted and mine.asserted & stated.aside:
                return RoleFinding(
                    "rather than",
                    (mine.asserted_text, mine.aside_text),
                    (stated.asserted_text, stated.aside_text),
                )
    return None


#: An action set aside ("instead of *repairing* it") is the alternative of the action the
#: clause before asserts by its infinitive ("chose to *replace* the bridge"), not of the
#: clause's last word.
_GERUND = re.compile(r"\s*[a-z]+ing\b")
_INFINITIVE = re.compile(r"\bto\s+([a-z]+)\b")


#: The last article or preposition before the asserted alternative: "works as *a* primary
#: school teacher", "took place *in* Barcelona".
_OPENS_ALTERNATIVE = re.compile(r"\b(?:a|an|the|as|in|at|for|of|to|by|with|on|from|into)\s", re.I)


def _before_alternative(asserted_text: str) -> str:
    """The words of the choice's subject and verb: ``asserted_text`` up to the last article
    or preposition (session 34: "The senator's wife works as a primary school teacher, not a
    surgeon." — the asserted alternative is "primary school teacher", all three words,
    so a claim of "is a surgeon" need not name "primary" or "school")."""
    opens = list(_OPENS_ALTERNATIVE.finditer(asserted_text))
    return asserted_text[: opens[-1].start()] if opens else asserted_text


def _aside_asserted(claim: str, sentence: str) -> RoleFinding | None:
    """ "The conference took place in Madrid." against "… took place in Barcelona, not in
    Madrid as originally planned": the claim names the alternative the sentence sets
    aside (the first content word after the phrase) and not the one it asserts (the
    last before it), and half of the words before that (the choice's subject and verb:
    "Vikki Carr sang 'America the Beautiful' rather than the anthem" says nothing of
    Pink). A claim naming both, or neither, is not read."""
    words = set(content_stems(claim))
    for stated in preferences(sentence):
        asserted = content_stems(stated.asserted_text)
        asserted_head, aside_head = asserted[-1:], content_stems(stated.aside_text)[:1]
        infinitives = list(_INFINITIVE.finditer(stated.asserted_text))
        context = set(content_stems(_before_alternative(stated.asserted_text)))
        if _GERUND.match(stated.aside_text) and infinitives:
            # "chose to *replace* the bridge instead of *repairing* it": two actions; the
            # choice's subject and verb are the words before the infinitive ("the
            # committee voted"), not the asserted action's object ("a new one on the
            # riverfront", which the claim of the other action need not name)
            asserted_head = content_stems(infinitives[-1].group(1))[:1]
            context = set(content_stems(stated.asserted_text[: infinitives[-1].start()]))
        context -= set(asserted_head)  # the choice's subject and verb
        if (
            aside_head
            and asserted_head
            and aside_head[0] in words
            and asserted_head[0] not in words
            and len(context & words) * 2 >= len(context)
        ):
            return RoleFinding(
                "rather than",
                (claim.strip(" ."), ""),
                (stated.asserted_text, stated.aside_text),
            )
    return None
