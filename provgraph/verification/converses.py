"""Relation verbs: the verbs that name one relation ("beat" / "defeated"), and converse
relations: "Vaughan Williams studied under Ravel" is "Ravel taught Vaughan Williams",
"Germany lost to Brazil" is "Brazil beat Germany".

The argument-order rule (:func:`~provgraph.verification.roles.role_swap`) compares a
claim's relation with a source's when both use one relation's verbs; a source that
states the relation from the other side, by its converse verb and preposition, then
reads as the relation itself with its two names exchanged. Listed are pairs whose
converse is unambiguous with the preposition given ("studied *with*" may be a fellow
student, "worked *with*" a colleague: not listed).
"""

from __future__ import annotations

from collections.abc import Sequence

#: Verbs that name one relation ("Norway beat Sweden" / "Sweden defeated Norway"): each is
#: read as the first of its group, so an exchanged agent and patient is seen across them.
#: Only groups whose members take agent and patient the same way (session 18; moved here
#: from :mod:`.roles` in session 27).
#: "knock" is of "Leeds knocked Chelsea out" (phrasal.py reads a particle only right after
#: the verb or a pronoun); "knocked out" itself is read as "eliminated".
_BEATING: tuple[str, ...] = ("beat", "defeat", "overcome", "trounce", "thrash", "outplay")
_BEATING += ("edge", "rout", "eliminate", "knock")
SAME_RELATION: dict[str, str] = {
    member: group[0]
    for group in (
        _BEATING,
        ("buy", "acquire", "purchase"),
        ("own", "control"),  # "A controls B" / "B is a subsidiary of A" (session 29)
        ("replace", "succeed", "supersede"),
        ("hire", "employ", "recruit"),
        ("sue", "prosecute"),
    )
    for member in group
}


#: (verb lemma, the preposition right after it) → the relation's verb, read from the
#: other side (the verbs of :data:`SAME_RELATION`'s groups by their first member: "hire"
#: for employ, "replace" for succeed).
_CONVERSES: dict[tuple[str, str], str] = {
    ("study", "under"): "teach",
    ("train", "under"): "teach",
    ("lose", "to"): "beat",
    ("work", "for"): "hire",
    ("precede", ""): "replace",
}


def converse_of(lemma: str, after: Sequence[str]) -> str | None:
    """The relation's verb when ``lemma`` with the word after it (``after``: the tokens
    after the verb) states it from the other side ("lost *to*" → "beat"), else None."""
    following = after[0].lower() if after else ""
    return _CONVERSES.get((lemma, following)) or _CONVERSES.get((lemma, ""))
