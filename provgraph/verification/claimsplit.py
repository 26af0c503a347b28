"""Splitting a coordinated sentence into the statements it makes.

"The river is 320 km long and flows into the Baltic Sea" makes two claims; a
source that supports one of them supports half of the sentence. Scoring the
whole sentence lets the supported half carry it (or lets a missing half read
as a contradiction). :func:`split_statements` cuts a sentence at a
coordination and re-attaches the shared subject:

* ``and`` / ``, and`` followed by a verb phrase (shared subject): "X opened a
  plant and hired 500 workers" → "X opened a plant." / "X hired 500 workers.";
* ``and`` / ``but`` / ``while`` / ``whereas`` / ``;`` followed by a clause with
  its own subject and verb: "Exports rose, while imports fell";
* ``but`` / ``while`` / ``whereas`` followed by a noun phrase with the verb
  elided ("has a larger screen but a smaller battery") → the first part's
  subject and verb + the noun phrase;
* ``and`` / ``but`` after a copula's complement, followed by another adjective
  ("The vaccine is safe and 95% effective") → subject + copula + adjective: a
  source stating one of two properties supports half of the claim.

A verb-phrase part keeps the first part's auxiliary when the first part is only
its subject and verb group ("The bridge was closed and repaired in 2010" → "The
bridge was repaired in 2010."). A bare form that is also a noun ("cut", "set")
starts a verb phrase when a determiner or a number follows it ("and cut the
ribbon", "and cut 500 jobs"): a noun is rarely followed by one.

Noun coordinations are never cut ("Germany and France signed", "research and
development"): a cut needs a verb in the part before it. Word classes come
from ``lemminflect``'s English lexicon (bundled data, no download): a word
counts as a verb when it can only be a verb, or is an inflected verb form
("attracts", "hired", "rose") — bare forms that are also nouns ("phone",
"cut") are not, so a rare verb phrase is left whole rather than a noun
phrase cut. No dependency parser is installable offline here (spaCy's English
models are not on PyPI); the rules are conservative: when in doubt, no split.
"""

from __future__ import annotations

import re

from provgraph.verification.object_lists import (
    adjectives_of_one_object,
    bare_noun_objects,
    name_list_statements,
    object_list,
    plural_noun,
    shared_preposition,
)
from provgraph.verification.word_classes import (
    AUX as _AUX,
)
from provgraph.verification.word_classes import (
    DETERMINERS as _DETERMINERS,
)
from provgraph.verification.word_classes import (
    NUMBER_WORDS as _NUMBER_WORDS,
)
from provgraph.verification.word_classes import (
    can_be_verb,
    is_verb,
    verb_of_subject,
)
from provgraph.verification.word_classes import (
    word_classes as _classes,
)
from provgraph.verification.word_classes import (
    words as _words,
)
from provgraph.verification.wordsets import irregular_verb_lemma

_BOUNDARY = re.compile(
    r"\s*;\s*|,\s*(?:and|but|while|whereas|although|though)\s+|\s+(?:and|but|while|whereas)\s+",
    re.IGNORECASE,
)
#: Conjunctions after which a verb-less noun phrase is a gapped clause
#: ("a larger screen but a smaller battery"); after "and" it is usually a list.
_GAPPING = frozenset({"but", "while", "whereas"})
_NO_SPLIT_BEFORE = re.compile(r"\b(?:between|both|from)\s+\S+(?:\s+\S+)?\s*$", re.IGNORECASE)
_FRONTED = frozenset((
    "in", "on", "at", "after", "before", "during", "later", "then", "eventually", "finally",
    "also",
))  # fmt: skip
MAX_PARTS = 3


def _first_verb(words: list[str]) -> int | None:
    """Index of the first verb after the subject (not the first word, not after a determiner).

    A word that is also a noun ("cut", "hit", "set") is the verb when an object follows
    it: a determiner or a number ("The company *cut* 500 jobs", "*hit* the target"); else
    "jobs" (also a verb form) was read as the verb and "The company cut 500" as the subject.
    A word right after a determiner is a noun, and so is one right after a number when it
    can be one ("The two *firms* merged"; "All three *were*" is the verb).
    """
    for i in range(1, len(words)):
        before = words[i - 1].lower()
        if before in _DETERMINERS:
            continue
        counted = before in _NUMBER_WORDS or before[:1].isdigit()
        if counted and "NOUN" in _classes(words[i].lower()):
            continue  # "two *firms*", "3 *firms*": a noun ("three *were*", "1988 *became*": verbs)
        if is_verb(words[i]) or _verb_before_object(words, i):
            return i
    return None


def _verb_before_object(words: list[str], i: int) -> bool:
    word = words[i]
    if not word[:1].islower() or not can_be_verb(word) or i + 1 >= len(words):
        return False
    nxt = words[i + 1].lower()
    return (nxt in _DETERMINERS and nxt not in {"that", "her"}) or nxt[:1].isdigit()


def subject_and_verb(first: str) -> tuple[str, str] | None:
    """``first``'s subject (words before its first verb) and subject + verb phrase head."""
    words = _words(first)
    v = _first_verb(words)
    if v is None:
        return None
    relative = next(
        (j for j in range(1, v) if words[j].lower() in _RELATIVE and is_verb(words[j + 1])), None
    )
    if relative is not None:
        # "The company that makes phones opened a plant": the first verb is the relative
        # clause's; the sentence's own verb is a later one, preferably one that cannot be
        # a noun ("phones" after "makes" is its object)
        rest = words[relative + 2 :]
        mains = [
            i
            for i in range(1, len(rest))
            if is_verb(rest[i]) and rest[i - 1].lower() not in _DETERMINERS
        ]
        plain = [i for i in mains if "NOUN" not in _classes(rest[i].lower())]
        if mains:
            v = relative + 2 + (plain or mains)[0]
    # the verb group: auxiliaries and the verb that follows them ("has been", "was closed")
    end = v + 1
    while end < len(words) and words[end - 1].lower() in _AUX and is_verb(words[end]):
        end += 1
    subject = words[:v]
    if "," in subject:  # "The stadium, which opened …": the subject ends at the comma
        subject = subject[: subject.index(",")]
    if not subject:
        return None
    return " ".join(subject), " ".join(subject + words[v:end])


def _kind(rest: str) -> str:
    """``vp`` (starts with a verb), ``clause`` (own subject and verb) or ``np`` (no verb).

    ``adverb-vp``: adverbs, then a verb ("soon reopened", "well tolerated").
    ``ambiguous-vp``: starts with a word that is also a noun, followed by a determiner or
    a number; a verb phrase unless the subject found for the first part contains it.
    """
    words = [w for w in _words(rest) if w[:1].isalnum()]
    if not words:
        return "np"
    first = words[0].lower()
    if first.endswith("ing") and is_verb(first):
        return "subordinate"  # "while serving a sentence": not a statement of its own
    if first in _AUX:
        return "vp"
    if is_verb(first) and not words[0][:1].isupper():
        # "imports fell": a noun that looks like a verb, then the clause's own verb — a
        # word that cannot be a noun is no subject ("reduced strokes" is a verb phrase)
        noun = "NOUN" in _classes(first)
        return "clause" if noun and len(words) > 1 and verb_of_subject(first, words[1]) else "vp"
    if can_be_verb(first) and not words[0][:1].isupper() and _object_follows(rest):
        return "ambiguous-vp"  # "and cut the ribbon": a noun rarely takes a determiner
    if first in _FRONTED and _first_verb(words[:6]) is not None:
        return "vp"  # "but in the end voted for it": the subject is shared
    verb = _first_verb(words[:6])
    if verb is not None and all("ADV" in _classes(w.lower()) for w in words[:verb]):
        return "adverb-vp"  # "well tolerated", "soon reopened": an adverb, not a subject
    if verb is not None and _plural_noun_last(words, verb):
        return "np"  # "2020 titles", "blue panels", "Human Services": a noun, not a verb
    if verb is not None:
        return "clause"
    return "np"


def _plural_noun_last(words: list[str], verb: int) -> bool:
    """Is the "verb" the phrase's last word, an -s form that is also a noun ("the 2019 and
    *2020 titles*")? A clause's verb in the present tense at its very end is rare; a
    plural noun ending a noun phrase is common."""
    word = words[verb].lower()
    return verb == len(words) - 1 and word.endswith("s") and "NOUN" in _classes(word)


_RELATIVE = frozenset({"that", "which", "who"})
_COPULAS = frozenset({"is", "are", "was", "were", "be", "been", "remains", "remained"}) | {
    *("stays", "stayed", "seems", "seemed", "appears", "appeared", "becomes", "became")
}


def _object_follows(rest: str) -> bool:
    """Does a determiner or a number come right after ``rest``'s first word (no punctuation
    between: "use [4]" is a citation). Not "that" (a relative) nor "her" (also an object
    pronoun: "and give her more time")."""
    tokens = _words(rest)
    if len(tokens) < 2:
        return False
    nxt = tokens[1].lower()
    return (nxt in _DETERMINERS and nxt not in {"that", "her"}) or nxt[:1].isdigit()


def _adjective_phrase(rest: str) -> bool:
    """Does ``rest`` start as a predicate adjective ("95% effective", "highly effective")."""
    words = _words(rest)
    i = 0
    while i < len(words) and (
        words[i][:1].isdigit() or words[i] == "%" or _classes(words[i].lower()) == {"ADV"}
    ):
        i += 1
    if i >= len(words) or not words[i][:1].islower():
        return False
    classes = _classes(words[i])
    return "ADJ" in classes or "INFLECTED" in classes


def _copular_part(subject_verb: str, first: str, rest: str) -> str | None:
    """Subject + copula + ``rest`` when ``first`` ends in a predicate adjective, else None."""
    head = _words(subject_verb)
    if not head or head[-1].lower() not in _COPULAS:
        return None
    complement = _words(first)[len(head) :]
    if not complement or len(complement) > 4 or not _adjective_phrase(" ".join(complement)):
        return None
    if "than" in (w.lower() for w in _words(rest)):
        return None  # "lighter and faster than its predecessor": one comparison
    return _sentence(f"{subject_verb} {rest}") if _adjective_phrase(rest) else None


_THAT = re.compile(r"\b([A-Za-z]+)\s+that\s+")


def reporting_frame(first: str) -> tuple[str, str]:
    """``(frame, statement)``: "The study found that " and what it found, or ("", ``first``).

    The frame is everything up to a "that" right after a verb ("found that", "showed
    that", "reported that"); a "that" after a noun is a relative pronoun ("the firm
    that makes phones") and frames nothing. A coordinated verb phrase after the frame
    shares the *reported* subject ("The study found that coffee reduced fatigue and
    improved memory": coffee improved memory, not the study), and each part keeps the
    frame, as the claim states each within it.
    """
    for match in _THAT.finditer(first):
        if match.start() > 0 and is_verb(match.group(1)):
            return first[: match.end()], first[match.end() :]
    return "", first


def _verb_only_start(rest: str) -> bool:
    """Does ``rest`` open with an inflected verb that cannot be a noun ("… from the centre
    and *made* buses free"): a new predicate, whatever the words before the cut."""
    words = _words(rest)
    if not words or not words[0][:1].islower():
        return False
    classes = _classes(words[0])
    return "INFLECTED" in classes and "NOUN" not in classes and "ADJ" not in classes


_BE = frozenset({"is", "are", "was", "were", "be", "been"})


def _passive_participle(subject_verb: str, rest: str) -> bool:
    """A passive's second participle with no object of its own ("was published in 2021 and
    *translated into French*"): it shares the auxiliary, not only the subject. "was founded
    in 1990 and hired 50 people" has an object: an active verb of the subject."""
    head = _words(subject_verb)
    words = _words(rest)
    if len(head) < 2 or head[-2].lower() not in _BE or not words:
        return False
    first = words[0].lower()
    participle = first.endswith(("ed", "en")) or irregular_verb_lemma(first) != first
    return participle and "INFLECTED" in _classes(first) and not _object_follows(rest)


def _sentence(text: str) -> str:
    text = text.strip().rstrip(",;")
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def split_statements(sentence: str) -> list[str]:
    """The statements of ``sentence`` (itself alone when it is not a coordination of them).

    At most :data:`MAX_PARTS` parts; every part is a sentence of its own (shared
    subject re-attached, capitalised, full stop). A sentence no coordination cuts may
    still list names after its verb ("approved in Canada and Japan": one statement per
    name, :func:`~provgraph.verification.object_lists.name_list_statements`, session 25).
    Never raises.
    """
    text = sentence.strip()
    if not text:
        return []
    parts = _coordinated(text)
    if len(parts) > 1:
        return parts
    return name_list_statements(text, MAX_PARTS) or parts


#: "both" right after a verb, before its first object: "wrote *both* novels and plays".
_BOTH_AFTER_VERB = re.compile(r"(?<=\s)(?P<verb>[a-z]+)\s+both\s+(?=\S+(?:\s+\S+)?\s+and\s)")


def _both_objects(body: str) -> str:
    """``body`` without a "both" that opens a verb's list of objects ("The author wrote both
    novels and plays" claims each: two statements, as "wrote novels and plays"); a "both"
    after a preposition ("signed by both France and Germany") or opening the sentence
    stays, and keeps its list whole (:data:`_NO_SPLIT_BEFORE`)."""
    m = _BOTH_AFTER_VERB.search(body)
    if m is None or not is_verb(m.group("verb")):
        return body
    following = body[m.end() :].split(maxsplit=1)[0].lower()
    if following not in _DETERMINERS and not plural_noun(following):
        return body  # "sells both new and used cars": adjectives of one object
    return body[: m.end("verb")] + " " + body[m.end() :]


def _coordinated(text: str) -> list[str]:
    """:func:`split_statements` by coordinations of clauses, verb phrases and objects."""
    body = _both_objects(text.rstrip(".!? "))
    cuts = [
        m
        for m in _BOUNDARY.finditer(body)
        if not _NO_SPLIT_BEFORE.search(body[: m.start()]) or _verb_only_start(body[m.end() :])
    ]
    if not cuts:
        return [text]
    first = body[: cuts[0].start()]
    opening = _words(first)[:1]
    if opening and _classes(opening[0].lower()) == {"VERB"}:
        return [text]  # an imperative ("Remind her to …"): no subject to share
    frame, reported = reporting_frame(first)
    head = subject_and_verb(reported) if frame else None
    if head is None:
        frame, head = "", subject_and_verb(first)
    if head is None:
        return [text]
    subject, subject_verb = (f"{frame}{part}" for part in head)
    parts = [_sentence(first)]
    bounds = [*cuts, None]
    for cut, nxt in zip(cuts, bounds[1:], strict=True):
        rest = body[cut.end() : nxt.start() if nxt is not None else len(body)]
        if not rest.strip():
            return [text]
        conj = cut.group(0).strip(" ,;").lower() or ";"
        if adjectives_of_one_object(subject_verb, first, rest):
            return [text]  # "sells new and used cars"
        kind = _kind(rest)
        shared = shared_preposition(subject_verb, first, rest) if conj == "and" else None
        if shared and kind in {"np", "vp"}:  # "charged with fraud and bribery"
            parts.append(_sentence(f"{subject_verb} {shared} {rest}"))
        elif frame and re.match(r"(?i)\s*that\s", rest):
            # "He said that the plan was good and that it would pass": the same frame
            parts.append(_sentence(frame[: frame.lower().rindex("that")] + rest.strip()))
        elif kind == "adverb-vp":
            # after a copula's complement a participle ("was safe and well tolerated"),
            # else a verb phrase ("closed and soon reopened")
            copular = _copular_part(subject_verb, first, rest)
            parts.append(copular or _sentence(f"{subject} {rest}"))
        elif kind == "vp" and conj == "and" and bare_noun_objects(subject_verb, first, rest):
            # "wrote novels and plays": a second plural object, not "the author plays"
            parts.append(_sentence(f"{subject_verb} {rest}"))
        elif kind == "ambiguous-vp" and rest.split()[0].lower() in subject.lower().split():
            return [text]  # "The firm cut costs and cut jobs": the subject ran into the verb
        elif kind in {"vp", "ambiguous-vp"} and conj != ";":
            # "was closed and repaired": the part is its verb group alone, the auxiliary
            # is shared; otherwise only the subject is ("opened a plant and hired")
            alone = first.strip() == subject_verb or _passive_participle(subject_verb, rest)
            shared = subject_verb.rsplit(" ", 1)[0] if alone else subject
            parts.append(_sentence(f"{shared} {rest}"))
        elif kind == "clause":
            parts.append(_sentence(rest))
        elif kind == "np" and conj in _GAPPING:
            parts.append(_sentence(f"{subject_verb} {rest}"))
        elif (
            kind == "np"
            and conj in {"and", "but"}
            and (copular := _copular_part(subject_verb, first, rest))
        ):
            parts.append(copular)
        elif (
            kind == "np"
            and conj == "and"
            and (
                object_list(subject_verb, first, rest)
                or bare_noun_objects(subject_verb, first, rest)
            )
        ):
            # "won the league and the cup": the verb is shared, each object a statement
            parts.append(_sentence(f"{subject_verb} {rest}"))
        else:
            return [text]
        if len(parts) >= MAX_PARTS:
            break
    return parts if len(parts) > 1 else [text]
