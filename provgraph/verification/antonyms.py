"""Antonyms: "rose" vs "fell", "open" vs "closed", "approved" vs "rejected".

The shipped NLI model (a small cross-encoder) often scores a sentence and its
antonym-swapped twin as entailment: the words are nearly all shared. This
check flags a claim and its best-matching source sentence that share most
content words but differ by a pair of opposites, each absent from the other
side and neither negated (a negated antonym is a paraphrase: "did not rise" ≈
"fell"). The opposites are those of :mod:`.antonym_lexicon`'s two lexicons (a hand
list and WordNet's pairs); :func:`are_opposites` is theirs, re-exported here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from provgraph.verification.antonym_degrees import compared_degree, key_of, lessened
from provgraph.verification.antonym_lexicon import (
    DIRECTION_STEMS,
    LEXICON,
    WORDNET_LEXICON,
    Lexicon,
    already_stemmed,
    american,
    are_opposites,
    lexicon_words,
    raw_stems,
)
from provgraph.verification.claimsplit import split_statements
from provgraph.verification.converse_opposites import (
    THAN,
    converse,
    converse_verbs,
    relative_to_another,
)
from provgraph.verification.covered_times import shared_time_words
from provgraph.verification.dates import extract_dates, in_year

__all__ = ["AntonymFinding", "antonym_conflict", "are_opposites"]
from provgraph.verification.degrees import plain_superlatives
from provgraph.verification.exceptions_words import excepted
from provgraph.verification.modified_heads import modify_other_things
from provgraph.verification.negation import best_sentence, negated_scopes
from provgraph.verification.opposite_subjects import numbers_in, same_subject
from provgraph.verification.phrasal import plain_cultivation, plain_verbs
from provgraph.verification.qualified_words import unasserted
from provgraph.verification.sentences import split_sentences
from provgraph.verification.slots import Mention
from provgraph.verification.word_classes import is_verb
from provgraph.verification.wordsets import (
    YEAR_RE,
    clauses,
    content_stems,
    one_word_phrases,
    stem,
)

_MIN_SHARED = 0.5


@dataclass(frozen=True)
class AntonymFinding:
    """A word of the claim whose opposite the source uses instead."""

    claim_word: str
    source_word: str
    #: share of the claim's other content words the sentence holds (the same
    #: subject: how much of the claim the conflict is about)
    subject_share: float = 0.0


#: A passive defeat is a loss: "The incumbent *was defeated* in the runoff" opposes "won the
#: runoff" (session 28). Read here only: the roles check reads the passive's agent.
_DEFEATED = re.compile(
    r"\b(?:was|were|is|are|has been|have been|had been)\s+(?:\w+ly\s+)?(?:defeated|beaten)\b"
)


def antonym_conflict(claim: str, window: str) -> AntonymFinding | None:
    """The first opposite pair between the claim and its best-matching window sentence,
    else another sentence's that speaks of the claim's subject.

    Phrasal verbs are read as their one-word verb first ("turned down" → "rejected"),
    superlatives as their adjective ("the driest summer" opposes "unusually wet").
    The best-matching sentence may be about something else that did what the claim
    says ("Third-quarter revenue rose 8% … Net income fell to $140 million." for "Net
    income rose in the third quarter"): when it holds no opposite pair at all, a
    sentence holding the opposite and every content word of the claim before its
    word (the subject, "net income") is read too, unless some sentence states the
    claim's own word of that subject.
    """
    claim, window = plain_verbs(claim), plain_verbs(window)
    claim, window = plain_superlatives(claim), plain_superlatives(window)
    claim, window = _DEFEATED.sub("lost", claim), _DEFEATED.sub("lost", window)
    claim, window = (
        plain_cultivation(claim),
        plain_cultivation(window),
    )
    sentence, share = best_sentence(claim, window)
    if share < _MIN_SHARED:
        return _conflict_of_subject(claim, window, read="")
    found = _conflict_in(claim, sentence)
    if found is _NO_PAIR:
        found = _conflict_in_part(claim, sentence)
    if found is not _NO_PAIR:
        return found if isinstance(found, AntonymFinding) else None
    return _conflict_of_subject(claim, window, read=sentence)


def _conflict_in_part(claim: str, sentence: str) -> AntonymFinding | _Outcome:
    """The pair in one statement of a coordinated sentence: "The team won the league but
    lost the cup final." holds the claim's "won" in its other statement, so read whole it
    has no pair for "The team won the cup."; its statement "The team lost the cup final."
    has. A statement whose pair is not a conflict ends the search, as for the sentence."""
    parts = split_statements(sentence)
    for part in parts if len(parts) > 1 else ():
        found = _conflict_in(claim, part)
        if isinstance(found, AntonymFinding) and _stated_closer(claim, found, part, parts):
            return _NOT_A_CONFLICT  # "Imports fell …, while exports climbed"
        if found is not _NO_PAIR:
            return found
    return _NO_PAIR


def _stated_closer(claim: str, found: AntonymFinding, opposing: str, parts: list[str]) -> bool:
    """Does another statement of the sentence use the claim's own word and share more of
    the claim's other content words than the statement with the opposite, or the claim's
    subject that statement lacks? Then that one is the claim's ("exports climbed" for
    "Exports rose in the first quarter"), the other is about something else ("Imports
    fell in the first quarter"). A tie stays a conflict: "won the debate prize but lost
    the chess trophy" against "won the debate prize and the chess trophy" (session 23)."""
    claim_content = set(content_stems(claim)) - {found.claim_word, stem(found.claim_word)}
    held = len(claim_content & set(content_stems(opposing)))
    subject = _subject_of(claim, found.claim_word, keep_verbs=True)
    # the claim's subject only in the other statement: "*Imports* fell in the first quarter,
    # while *exports* climbed" (the quarter is shared, the subject is not)
    subject_elsewhere = bool(subject) and not subject & set(content_stems(opposing))
    return any(
        part != opposing
        and found.claim_word in raw_stems(part) | lexicon_words(part)
        and (
            len(claim_content & set(content_stems(part))) > held
            or (subject_elsewhere and subject <= set(content_stems(part)))
        )
        for part in parts
    )


class _Outcome:
    """A sentence with no opposite pair, or one whose pair is not a conflict."""


_NO_PAIR, _NOT_A_CONFLICT = _Outcome(), _Outcome()


def _adverbs(text: str) -> set[str]:
    """Stems of the "-ly" adverbs of ``text`` ("unusually wet"): a degree, not the subject
    the two sides must share."""
    return {s for w in re.findall(r"\b[a-z]{3,}ly\b", text) for s in content_stems(w)}


def _conflict_in(claim: str, sentence: str) -> AntonymFinding | _Outcome:
    """The opposite pair between ``claim`` and ``sentence`` (the first, in both lexicons),
    :data:`_NOT_A_CONFLICT` when the first pair is negated, exchanged, excepted or about
    something else, :data:`_NO_PAIR` when there is none."""
    claim_content, sentence_content = set(content_stems(claim)), set(content_stems(sentence))
    if not claim_content & sentence_content:
        return _NO_PAIR
    negated = {w for text in (claim, sentence) for _c, sc in negated_scopes(text) for w in sc}
    # (claim's words, sentence's words, lexicon, a word's stem for the negation scopes)
    plain_claim = one_word_phrases(_without_names(claim, sentence))
    plain_sentence = one_word_phrases(_without_names(sentence, claim))
    readings: tuple[tuple[set[str], set[str], Lexicon, Callable[[str], str]], ...] = (
        (raw_stems(plain_claim), raw_stems(plain_sentence), LEXICON, already_stemmed),
        (lexicon_words(plain_claim), lexicon_words(plain_sentence), WORDNET_LEXICON, stem),
    )
    for claim_words, source_words, lexicon, stem_of in readings:
        for word in sorted(claim_words - source_words):
            for opposite in sorted(lexicon.get(word, ())):
                if opposite in source_words and opposite not in claim_words:
                    if {stem_of(word), stem_of(opposite)} & negated or converse(claim, sentence):
                        return _NOT_A_CONFLICT
                    if relative_to_another(claim, word, sentence, opposite):
                        return _NOT_A_CONFLICT  # "behind Crosby" / "ahead of Love"
                    if converse_verbs(claim, word, sentence, opposite):
                        return _NOT_A_CONFLICT  # "A lent it to B" / "B borrowed it from A"
                    if lessened(claim, word, lexicon) or lessened(sentence, opposite, lexicon):
                        return _NOT_A_CONFLICT  # "less expensive" is "cheaper"
                    if unasserted(claim, word) or unasserted(sentence, opposite):
                        return _NOT_A_CONFLICT  # "two metres deep", "barely wide enough"
                    direction = bool({stem_of(word), stem_of(opposite)} & DIRECTION_STEMS)
                    key = key_of(lexicon)
                    if direction and modify_other_things(claim, word, sentence, opposite, key):
                        return _NOT_A_CONFLICT  # "increased efficiency" / "lower heart rate"
                    compared = compared_degree(claim, word, lexicon)
                    if compared != compared_degree(sentence, opposite, lexicon) and not direction:
                        return _NOT_A_CONFLICT  # "higher than in July" is not "not low"
                    if _of_other_years(claim, sentence, opposite):
                        return _NOT_A_CONFLICT  # "lost members in 2019 but … in 2021"
                    rest = _subject_content(claim, word, lexicon) - {stem_of(word)}
                    if rest & excepted(sentence):
                        return _NOT_A_CONFLICT  # "opens every day except Monday"
                    if _said_of_another(sentence, opposite, rest):
                        continue  # "The first attempt failed, but the launch went well"
                    numbers = numbers_in(claim), numbers_in(sentence)
                    time_words = shared_time_words(claim, sentence)
                    also = bool(time_words) or _other_side_held(claim, word, lexicon, sentence)
                    if same_subject(rest, sentence_content, *numbers, also_shared=also):
                        held = rest & (sentence_content | time_words)
                        shared = len(held) / len(rest) if rest else 0.0
                        return AntonymFinding(word, opposite, shared)
    return _NO_PAIR


def _said_of_another(sentence: str, opposite: str, rest: set[str]) -> bool:
    """Is ``opposite`` said, in a coordinated sentence, by a statement whose own subject
    shares no word with the claim's (``rest``)? "The first attempt *failed*, but the launch
    on Friday went perfectly" says nothing against "The launch was a success"; "… and *its
    profit* fell" still speaks of the company's profit."""
    if _in_relative_clause_of_another(sentence, opposite, rest):
        return True
    parts = split_statements(sentence)
    if len(parts) < 2:
        return False
    for part in parts:
        for m in re.finditer(r"[A-Za-z]+", part):
            token = american(m.group(0).lower())
            if opposite in (token, stem(token)):
                own = set(content_stems(part[: m.start()])) - _adverbs(part)
                return bool(own) and not own & rest
    return False


_RELATIVE = re.compile(r"^\s*(?:which|that|whom|who)\s+", re.IGNORECASE)


def _in_relative_clause_of_another(sentence: str, opposite: str, rest: set[str]) -> bool:
    """Is ``opposite`` the verb of a relative clause with its own subject, sharing no word
    with the claim's ``rest``? "The mayor supported the bike lanes, *which shop owners
    opposed*." says nothing against "The mayor backed the bike lanes." (session 28)."""
    for clause in clauses(sentence):
        opener = _RELATIVE.match(clause.text)
        if opener is None:
            continue
        for m in re.finditer(r"[A-Za-z]+", clause.text[opener.end() :]):
            token = american(m.group(0).lower())
            if opposite in (token, stem(token)):
                own = set(content_stems(clause.text[opener.end() :][: m.start()]))
                return bool(own) and not own & rest
    return False


def _subject_content(claim: str, word: str, lexicon: Lexicon) -> set[str]:
    """The claim's content stems a source must share to speak of the same thing: all but
    its adverbs, and of a comparison ("The new road is narrower than the old one.") only
    those before "than" — the other side is named however the source likes ("twice as
    wide as the one it replaced")."""
    content = set(content_stems(claim)) - _adverbs(claim)
    if compared_degree(claim, word, lexicon) and (m := THAN.match(claim)):
        left = set(content_stems(m.group("left"))) - _adverbs(claim)
        return left or content
    return content


def _other_side_held(claim: str, word: str, lexicon: Lexicon, sentence: str) -> bool:
    """Is the claim a comparison whose other side ("… than *the original building*") the
    sentence names too? Its words are left out of :func:`_subject_content` (a source may
    name it otherwise), but where the sentence does name it, that is one more word the two
    share: "The library's new wing is smaller than the original building." / "The new wing
    … is twice the size of the original building." (session 36)."""
    if not compared_degree(claim, word, lexicon) or (m := THAN.match(claim)) is None:
        return False
    right = set(content_stems(m.group("right"))) - _adverbs(claim)
    return bool(right) and right <= set(content_stems(sentence))


def _of_other_years(claim: str, sentence: str, opposite: str) -> bool:
    """Does the clause holding ``opposite`` name years or dates, none of them the claim's?
    "The club lost members in 2019 but recovered strongly in 2021." opposes nothing of "The
    club gained members in 2021."; "Sales rose in the first half of the year but dropped in
    the second half." nothing of "Sales fell in the second half of the year." (session 28:
    a claim's period other than a year)."""
    claim_years = set(YEAR_RE.findall(claim))
    claim_dates = extract_dates(claim)
    if not claim_years and not claim_dates:
        return False
    # a clause's statements each ("collapsed in 2020 and recovered in 2021", session 38)
    for part in (p for c in clauses(sentence) for p in split_statements(c.text)):
        if opposite in raw_stems(part) or opposite in lexicon_words(part):
            years = set(YEAR_RE.findall(part))
            if claim_years and years:
                return not years & claim_years
            return _of_other_dates(claim_dates, extract_dates(part))
    return False


def _of_other_dates(claim_dates: list[Mention], clause_dates: list[Mention]) -> bool:
    """Do the clause's dates all fall outside every date of the claim (a date with a year
    read as its day-of-year view against a claim's date without one)?"""
    if not claim_dates or not clause_dates:
        return False
    for claim_date in claim_dates:
        for stated in clause_dates:
            other: Mention | None = stated
            if claim_date.kind != stated.kind:
                other = in_year(stated) if claim_date.kind == "date-in-year" else None
            if other is None or claim_date.overlaps(other):
                return False
    return True


#: Two or more capitalised words in a row: a name ("Major League Soccer", "Minor League"),
#: whose words oppose nothing.
_NAME_RUN = re.compile(r"\b[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)+")


def _without_names(text: str, other: str) -> str:
    """``text`` with its multi-word names blanked out, but those that share a word with
    another name of ``other``: "Police Office Defense Attorneys" opposes no "criminal
    offense" (session 21), while "North Korea" against "South Korea" is a swap."""
    others = [set(m.group(0).lower().split()) for m in _NAME_RUN.finditer(other)]

    def blank(m: re.Match[str]) -> str:
        words = set(m.group(0).lower().split())
        swapped = any(words & theirs and words != theirs for theirs in others)
        return m.group(0) if swapped else " " * len(m.group(0))

    return _NAME_RUN.sub(blank, text)


def _conflict_of_subject(claim: str, window: str, *, read: str) -> AntonymFinding | None:
    """A conflict in a window sentence other than ``read`` that holds the claim's subject
    (its content words before the opposed word), when no sentence states the claim's
    word of that subject (see :func:`antonym_conflict`)."""
    sentences = [s.text for s in split_sentences(window)]
    for sentence in sentences:
        if sentence == read:
            continue
        found = _conflict_in(claim, sentence)
        if not isinstance(found, AntonymFinding) or found.subject_share < _MIN_SHARED:
            continue
        subject = _subject_of(claim, found.claim_word)
        if not subject or not subject <= set(content_stems(sentence)):
            continue
        if any(_states(s, found.claim_word, subject) for s in sentences):
            continue
        return found
    return None


def _subject_of(claim: str, word: str, *, keep_verbs: bool = False) -> set[str]:
    """Content stems of ``claim`` before its first token read as ``word`` (a stem of the
    hand list or a WordNet word), its verbs left out: the subject of "The airline
    reported a profit" is the airline, whichever verb a source reports it with ("posted
    a loss")."""
    for m in re.finditer(r"[A-Za-z]+", claim):
        token = american(m.group(0).lower())
        if word in (token, stem(token)):
            before = " ".join(w for w in claim[: m.start()].split() if keep_verbs or not is_verb(w))
            return set(content_stems(before)) - _adverbs(claim)
    return set()


def _states(sentence: str, word: str, subject: set[str]) -> bool:
    """Does ``sentence`` hold ``word`` (either reading) and every ``subject`` stem?"""
    return (word in raw_stems(sentence) or word in lexicon_words(sentence)) and subject <= set(
        content_stems(sentence)
    )
