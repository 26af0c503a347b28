"""A second object of a verb: "The team won the league and the cup." makes two statements.

:mod:`.claimsplit` cuts a coordination into statements; a noun phrase after "and" is
usually a list, and a list is cut only when it is one of the verb's objects: both objects
simple noun phrases (a determiner or a number, at most three lower-case words, a noun
last, no preposition), and the verb not one whose objects act together ("combined",
"compared", "linked"). Anything else stays whole (session 23).

A list of names after the verb ("approved in Canada and Japan") is cut the same way, one
statement per name (:func:`name_list_statements`, session 25).
"""

from __future__ import annotations

import re

from provgraph.verification.word_classes import (
    DETERMINERS,
    NUMBER_WORDS,
    is_verb,
    word_classes,
    words,
)

#: Verbs whose objects act together ("combined the two firms and a bank"): no split.
_JOINT_VERBS = frozenset((
    "combine", "compare", "connect", "link", "merge", "mix", "join", "unite", "separate",
    "divide", "distinguish", "confuse", "swap", "exchange", "pair", "match", "blend",
    "bridge", "reconcile", "contrast", "equate", "balance", "share", "split",
))  # fmt: skip
_PREPOSITIONS = frozenset((
    "of", "in", "on", "at", "for", "with", "from", "to", "by", "into", "over", "under",
    "about", "between", "against", "than", "as", "per",
))  # fmt: skip


def simple_noun_phrase(tokens: list[str]) -> bool:
    """A determiner or a number, at most three words, a noun last, nothing that can only be
    a verb, no preposition ("the league", "a rooftop bar", "two golds"); lower case but
    for a name that ends the phrase ("an Oscar", "two Golden Globes", session 39)."""
    if not 2 <= len(tokens) <= 4:
        return False
    opener = tokens[0].lower()
    if opener in {"that", "her", "no"} or not (
        opener in DETERMINERS or opener in NUMBER_WORDS or opener[:1].isdigit()
    ):
        return False
    body = tokens[1:]
    if any(not w.isalpha() or w in _PREPOSITIONS for w in body):
        return False
    named = [w[:1].isupper() and w[1:].islower() for w in body]
    if any(not w.islower() and not n for w, n in zip(body, named, strict=True)):
        return False
    if any(named) and not all(named[named.index(True) :]):
        return False  # a name ends the phrase: "an Oscar", "two Golden Globes"
    if any(is_verb(w) and "NOUN" not in word_classes(w) for w in body if w.islower()):
        return False
    if named[-1]:
        return True
    last = word_classes(body[-1])
    # a word the lexicon lacks is a rare noun far more often than anything else ("a
    # helipad", session 39)
    return not last or ("NOUN" in last and "ADJ" not in last)


def object_list(subject_verb: str, first: str, rest: str) -> bool:
    """Is ``rest`` a second object of ``first``'s verb: "The team won *the league* and
    *the cup*", "has a pool and a gym". Both objects simple noun phrases (so "the 2019
    and 2020 titles", "the red and blue panels" and "the Department of Health and Human
    Services" stay whole), the verb not one whose objects act together ("combined",
    "compared", "linked")."""
    from lemminflect import getLemma

    head = words(subject_verb)
    if not head:
        return False
    lemmas = getLemma(head[-1].lower(), "VERB")
    if not lemmas or lemmas[0] in _JOINT_VERBS:
        return False
    objects = words(_TRAILING_YEAR.sub("", first))[len(head) :]
    return simple_noun_phrase(objects) and simple_noun_phrase(words(_TRAILING_YEAR.sub("", rest)))


#: A year after an object ("won the cup *in 2018* and the league *in 2019*"): when, not
#: part of the object (session 38).
_TRAILING_YEAR = re.compile(r"\s+(?:in|during)\s+(?:1[0-9]{3}|20[0-9]{2})\s*$")


#: Prepositions whose objects a list may share: "charged *with* fraud and bribery".
_LIST_PREPOSITIONS = frozenset(("with", "of", "for", "about", "against", "on", "in", "at"))
#: Pairs that name one field or thing ("invests in *research and development*"): never
#: split, since "development" alone means something else.
_ONE_THING = frozenset((
    ("research", "development"), ("rock", "roll"), ("law", "order"), ("trial", "error"),
    ("wear", "tear"), ("supply", "demand"), ("health", "safety"), ("oil", "gas"),
    ("mergers", "acquisitions"), ("arts", "crafts"), ("bed", "breakfast"),
))  # fmt: skip


def shared_preposition(subject_verb: str, first: str, rest: str) -> str | None:
    """The preposition ``first``'s verb takes before a list of bare nouns that ``rest``
    ends ("was charged *with* fraud and bribery", "is made with garlic and fresh ginger"),
    else None: each noun is a statement with the preposition ("… was charged with
    bribery"), so a source naming one of them supports only its part (session 41). The
    nouns as :func:`bare_noun_objects` reads them; never "between" or "from" (the two
    ends of one span)."""
    objects = words(first)[len(words(subject_verb)) :]
    if len(objects) < 2 or objects[0].lower() not in _LIST_PREPOSITIONS:
        return None
    if (objects[-1].lower(), (words(rest) or [""])[0].lower()) in _ONE_THING:
        return None
    if not bare_noun_objects(f"{subject_verb} {objects[0]}", first, rest):
        return None
    return objects[0]


def bare_noun_objects(subject_verb: str, first: str, rest: str) -> bool:
    """Are ``first``'s object and ``rest`` each one plural noun, no determiner ("wrote
    novels and plays", "makes cars and trucks"; up to two modifiers before each), or each
    one singular noun that is no
    adjective ("serves breakfast and dinner", session 38)? Then ``rest`` is a second
    object, though it can be read as a verb ("plays", "trucks"). Not after a verb alone
    ("She writes and paints": two verbs) nor an adjective ("red and blue panels")."""
    objects, second = words(first)[len(words(subject_verb)) :], words(rest)
    if len(objects) == 1 and len(second) == 1:
        pair = (*objects, *second)
        return all(plural_noun(w) for w in pair) or all(_singular_noun(w) for w in pair)
    # up to two modifiers before each plural noun: "makes bicycles and *electric
    # scooters*", "grows wheat varieties and winter vegetables" (session 40), or before
    # each singular noun: "lowers *blood pressure* and cholesterol" (session 41)
    heads = (objects[-1], second[-1]) if objects and second else ()
    return (
        0 < len(objects) <= 3
        and 0 < len(second) <= 3
        and (all(plural_noun(w) for w in heads) or all(_singular_noun(w) for w in heads))
        and second[-1] != "ones"  # "old songs and new ones": one noun, said once
        and all(_modifier(w) for w in (*objects[:-1], *second[:-1]))
    )


def _modifier(word: str) -> bool:
    """A lower-case adjective or noun before a plural noun ("electric", "winter")."""
    return (
        word.isalpha()
        and word.islower()
        and word not in _PREPOSITIONS
        and word not in DETERMINERS
        and bool(word_classes(word) & {"ADJ", "NOUN"})
        and not is_verb(word)
    )


def adjectives_of_one_object(subject_verb: str, first: str, rest: str) -> bool:
    """Is ``first``'s object a lone adjective and ``rest`` led by another ("sells *new* and
    *used cars*")? Then the two are adjectives of one object, not two statements ("The
    shop used cars" was one of the parts, session 38)."""
    objects, second = words(first)[len(words(subject_verb)) :], words(rest)
    return (
        len(objects) == 1
        and len(second) > 1
        and word_classes(objects[0].lower()) == {"ADJ"}
        and "ADJ" in word_classes(second[0].lower())
    )


def _singular_noun(word: str) -> bool:
    """A lower-case noun that is no adjective and no plural ("breakfast", "dinner")."""
    classes = word_classes(word)
    return (
        word.isalpha()
        and word.islower()
        and not word.endswith("s")
        and "NOUN" in classes
        and "ADJ" not in classes
    )


def plural_noun(word: str) -> bool:
    """A lower-case plural noun that is no adjective ("novels", "plays"; not "used")."""
    classes = word_classes(word)
    return (
        word.isalpha()
        and word.islower()
        and word.endswith("s")
        and "NOUN" in classes
        and ("ADJ" not in classes)
    )


#: A name: up to three capitalised words ("Canada", "South Korea", "New York City"); a
#: later one of a list maybe after "the" ("in Europe and the United States", session 39).
_NAME = r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}"
_LATER_NAME = rf"(?:the\s+)?{_NAME}"
#: A list of two or more names after the verb: "in Canada and Japan", "English, French
#: and German". Not the sentence's first word (a subject list is never cut).
_NAME_LIST = re.compile(
    rf"(?<=\s)(?P<items>{_NAME}(?:,\s*{_LATER_NAME})*,?\s+and\s+{_LATER_NAME})(?=[\s.,;:!?]|$)"
)
#: Words before a list whose names act together: "between Spain and Italy", "a merger of
#: Exxon and Mobil", "both Apple and Google", "from Lisbon and Porto", "met with A and B".
_TOGETHER_BEFORE = re.compile(
    r"\b(?:between|among|amongst|both|of|from|with|versus|vs|and|or)\s*$", re.IGNORECASE
)
_ITEM_CUT = re.compile(r",\s*(?:and\s+)?|\s+and\s+")


def name_list_statements(sentence: str, most: int) -> list[str] | None:
    """``sentence`` once per name of a list after its verb ("The vaccine was approved in
    Canada and Japan." → "… in Canada." / "… in Japan."), or None: no such list, names
    that act together (after "between", "of", "with", a joint verb such as "merged"), more
    than ``most`` names, or no verb before the list.

    Each name is a statement a source may state or not: a source naming one of them
    supports half of the claim, and a list it leaves a name out of ("available in English
    and French" for "English, French and German") does not contradict the claim.
    """
    from lemminflect import getLemma

    body = sentence.strip().rstrip(".!? ")
    for m in _NAME_LIST.finditer(body):
        before, after = body[: m.start()], body[m.end() :]
        if _TOGETHER_BEFORE.search(before):
            continue
        verbs = [w for w in words(before) if is_verb(w)]
        if not verbs:
            continue  # a list before any verb is the subject's: "Smith and Jones wrote …"
        lemma = getLemma(verbs[-1].lower(), "VERB")
        if lemma and lemma[0] in _JOINT_VERBS:
            continue
        items = [item for item in _ITEM_CUT.split(m.group("items")) if item]
        if not 2 <= len(items) <= most:
            return None
        if before.lower().endswith("the "):  # "in the UK and the US": one "the" each
            items = [re.sub(r"^the\s+", "", item) for item in items]
        return [f"{before}{item}{after}." for item in items]
    return None
