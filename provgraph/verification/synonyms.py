"""Plain synonyms: words that name the same thing or act in ordinary use.

Two small hand lists, neither tuned to a data set (WordNet is a separate download the
platform cannot fetch at run time, and its synsets are far looser than "the same
thing"): counted nouns ("holds 2 million books" / "600,000 volumes": a count of one
counts the others, :mod:`.measures`) and verbs ("the fire *started* in" / "the fire
*began* in": the same predicate, :mod:`.predicate`). Words that also name other
things in common use are left out ("posts", "states", "tracks"; "employ" is "hire"
and "use").
"""

from __future__ import annotations

from functools import lru_cache

from provgraph.verification.wordsets import stem

_NOUNS = (
    "books volumes titles",
    "employees staff workers personnel",
    "students pupils",
    "residents inhabitants",
    "children kids",
    "doctors physicians",
    "cars vehicles automobiles",
    "houses homes dwellings",
    "flats apartments",
    "ships vessels",
    "planes aircraft airplanes aeroplanes",
    "films movies",
    "companies firms businesses",
    "shops stores",
    "jobs positions",
    "countries nations",
    "floors storeys",
)
_VERBS = (
    "start begin commence",
    "end finish conclude",
    "buy purchase acquire",
    "build construct erect",
    "make produce manufacture",
    "receive obtain",
    "show demonstrate reveal",
    "die perish",
    "help assist aid",
    "use utilize utilise",
    "leave depart",
    "create establish found",
    "ban prohibit forbid",
    "allow permit",
    "sell vend",
    "reach attain",
    "replicate reproduce",
    "reduce decrease lower lessen",
    "increase boost",
    "hire recruit",
    "dismiss sack",
    "cancel scrap",
    "approve authorize authorise",
    "postpone delay defer",
    "examine investigate analyse analyze",
    "close shut",
    "resign quit",
    "repair mend",
    "improve enhance",
    "cause trigger",
    "require need",
    "predict forecast",
    "announce declare",
    "prevent stop avert",
    "injure hurt",
)

#: Counted nouns, by stem: a set per group.
NOUN_GROUPS: tuple[frozenset[str], ...] = tuple(
    frozenset(stem(w) for w in group.split()) for group in _NOUNS
)
#: Verbs, by lemma.
_VERB_GROUP_OF: dict[str, frozenset[str]] = {
    word: frozenset(group.split()) for group in _VERBS for word in group.split()
}


@lru_cache(maxsize=4096)
def _lemma(word: str) -> str:
    from lemminflect import getAllLemmas

    verb = getAllLemmas(word.lower()).get("VERB", ())
    return verb[0] if verb else word.lower()


def same_verb(a: str, b: str) -> bool:
    """Are two words forms of synonymous verbs ("started" / "began")?"""
    group = _VERB_GROUP_OF.get(_lemma(a))
    return group is not None and _lemma(b) in group


@lru_cache(maxsize=1)
def _verb_keys() -> dict[str, str]:
    from lemminflect import getAllInflections

    out: dict[str, str] = {}
    for group in _VERBS:
        words = group.split()
        key = stem(words[0])
        for word in words:
            forms = {word} | {f for fs in getAllInflections(word, upos="VERB").values() for f in fs}
            for form in forms:
                out.setdefault(stem(form), key)
    return out


def verb_key(word_stem: str) -> str:
    """One stem for every form of a group of synonymous verbs ("reproduced" and "replicate"
    → one key); any other stem as it is. For rules that compare stems as sets."""
    return _verb_keys().get(word_stem, word_stem)
