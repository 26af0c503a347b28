"""Comparisons in opposite directions: "is cheaper than" / "costs more than".

The shipped NLI model does not read the direction of a comparison: "The new
engine is more efficient than the old one." against "… is less efficient than
the old one." scores entailment 0.62, "cheaper than" against "costs more than"
0.52 (hand probe, session 12: six of six such pairs read as support). The
antonym check cannot see them ("more"/"less" are function words there, and
"costs more" is no word of a lexicon); the exchanged-sides check
(:mod:`.comparatives`) needs the same comparative on both sides.

A comparison is read from one clause: its two sides (the content words before
the comparative, and after *than*), a dimension and a direction —

* "<adjective>-er than" ("cheaper", "heavier"): the adjective, up;
* "more / less / fewer <word> than" ("less efficient", "more expensive"): the
  word, up for *more*;
* "<verb> more / less than" ("costs more", "weighs less", "earned less", "weighs
  300 g less"): the verb, with "cost" read as *expensive* and "weigh" as *heavy*;
* a dimension's multiple as its comparative ("twice the depth of" = deeper than), and a
  comparison in apposition to the sentence's subject ("The northern lake reaches 80
  metres, more than twice the depth of the southern lake"; session 36);
* time taken as slowness ("takes longer than" = slower, "takes less time than"
  = faster), and a manner adverb as its adjective ("more slowly" = slower).

Two comparisons of the same two sides conflict when they go opposite ways on one
dimension, or the same way on two opposite dimensions ("cheaper" / "more
expensive", by the antonym lexicons); with the sides exchanged, the other way
round ("Coal is more expensive than solar" agrees with "Solar is cheaper than
coal"). A negated comparison ("not cheaper than": possibly equal), a side that is
a number ("more than 80": the quantity checks' business) and a side the other
comparison does not share at least half of are never read as a conflict.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.antonyms import are_opposites
from provgraph.verification.claimsplit import subject_and_verb
from provgraph.verification.comparatives import positive_form
from provgraph.verification.degrees import multiples_as_comparatives
from provgraph.verification.negation import negated_scopes
from provgraph.verification.roles import verb_lemma
from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import STOPWORDS, YEAR_RE, clauses, content_stems, stem

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*|\d[\d,.]*|\S")
_MORE = {"more": True, "less": False, "fewer": False}
#: Verbs whose "more" is a property's: "costs more" = more expensive.
_VERB_DIMENSIONS = {"cost": "expensive", "weigh": "heavy"}
_REACH = 6
_MIN_SIDE_SHARE = 0.5


@dataclass(frozen=True)
class Comparison:
    """One "A … <comparative> … than B" of a clause."""

    left: frozenset[str]
    #: the compared property's word: an adjective's positive form, the word after
    #: more/less, or a verb's lemma ("cost" read as "expensive")
    dimension: str
    up: bool
    right: frozenset[str]
    #: the words after the comparative ("likely *to develop lung cancer* than"); with
    #: no "than" (``implicit``), the rest of the clause
    rest: frozenset[str] = frozenset()
    #: "Smokers are less likely to develop lung cancer.": compared with what, unsaid
    implicit: bool = False


@dataclass(frozen=True)
class DirectionFinding:
    """A claim comparison a source sentence states the other way."""

    claim: str
    source: str
    #: share of the words of the claim comparison's two sides in that sentence (how
    #: much of the claim the conflict is about)
    share: float


def _adjective(word: str) -> str:
    """The adjective of a manner adverb ("slowly" → "slow", "easily" → "easy"), else ``word``."""
    if len(word) > 4 and word.endswith("ily"):
        return word[:-3] + "y"
    return word[:-2] if len(word) > 4 and word.endswith("ly") else word


def _taking(tokens: list[str], k: int) -> bool:
    """Is ``tokens[k - 1]`` a form of "take" ("takes longer", "took less time")?"""
    return k > 0 and verb_lemma(tokens[k - 1]) == "take"


def _dimension(tokens: list[str], than: int) -> tuple[int, str, bool] | None:
    """``(index, dimension, up)`` of the comparative before ``tokens[than]``.

    Time taken is read as slowness: "takes longer than" = slower, "takes less time
    than" = faster; a manner adverb as its adjective ("more slowly" = slower).
    """
    for k in range(than - 1, max(-1, than - 1 - _REACH), -1):
        word = tokens[k].lower()
        if word in _MORE:
            following = tokens[k + 1].lower() if k + 1 < than else ""
            if following == "time" and _taking(tokens, k):  # "takes less time than"
                return k - 1, "slow", _MORE[word]
            if following and following not in STOPWORDS:  # "more efficient than"
                return k, _adjective(following), _MORE[word]
            at = _before_amount(tokens, k)
            if at > 0 and tokens[at - 1][:1].isalpha():  # "costs more than", "weighs 300 g less"
                verb = verb_lemma(tokens[at - 1])
                return at - 1, _VERB_DIMENSIONS.get(verb, verb), _MORE[word]
            return None
        positive = positive_form(tokens[k])
        if positive == "long" and _taking(tokens, k):  # "takes longer than"
            return k - 1, "slow", True
        if positive is not None:
            return k, positive, True
    return None


#: Words between a verb and its "more" / "less" that measure the difference: "weighs
#: *300 g* less", "costs *far* more", "earned *a little* less".
_AMOUNT = re.compile(
    r"^(?:[$£€%]|\d[\d,.]*|a|an|bit|lot|little|much|far|slightly|significantly|"
    r"considerably|substantially|somewhat|nearly|about|around|roughly|some)$",
    re.IGNORECASE,
)
#: Unit-like words after a number ("300 *g*", "5 *minutes*"): any word right after one.
_MAX_AMOUNT = 4


def _before_amount(tokens: list[str], k: int) -> int:
    """The index just after the verb of "<verb> [amount] more/less" (``tokens[k]`` is
    more/less): an amount of at most :data:`_MAX_AMOUNT` tokens is stepped over."""
    at = k
    while at > 0 and k - at < _MAX_AMOUNT:
        word = tokens[at - 1]
        after_number = at > 1 and re.match(r"\d", tokens[at - 2]) is not None
        if _AMOUNT.match(word) or (after_number and word[:1].isalpha()):
            at -= 1
            continue
        break
    return at


#: Stopwords that tell the two sides of a comparison apart ("the new engine … the old one").
_SIDE_WORDS = frozenset(["new"])
#: Ways of naming the thing that came before (or after) the side compared with it: "its
#: *predecessor*" is "the *previous* version", "the *earlier* model" (session 18).
_EARLIER = frozenset(stem(w) for w in ("predecessor", "previous", "prior", "earlier", "former"))
_LATER = frozenset(stem(w) for w in ("successor", "next", "later", "subsequent"))


#: A capital letter that names one of several things after its noun: "Lake *A*", "Plan
#: *B*", "Group *C*" (not "I", not a text's first word: an article there).
_LETTER_NAME = re.compile(r"(?<=[A-Za-z] )(?!I\b)[A-Z](?![\w'\u2019-])")


def letter_names(text: str) -> frozenset[str]:
    """The letter names of ``text`` as side words ("Lake A" against "Lake B": one letter is
    no content word, and both sides would otherwise be just "lake")."""
    return frozenset(f"letter {m.group(0)}" for m in _LETTER_NAME.finditer(text))


def _side(tokens: list[str]) -> frozenset[str]:
    """A side's words: content stems (an earlier / later one read as one word), the
    few stopwords that distinguish sides, and years ("in 2022 than in 2021": a thing
    compared with itself at another time)."""
    words = {
        "previous" if w in _EARLIER else "next" if w in _LATER else w
        for w in content_stems(" ".join(tokens))
    }
    kept = {t.lower() for t in tokens if t.lower() in _SIDE_WORDS or YEAR_RE.fullmatch(t)}
    return frozenset(words) | kept | letter_names(" ".join(tokens))


def _subject_side(text: str) -> frozenset[str]:
    """The side words of the subject of ``text`` (a sentence's first clause), if found."""
    head = subject_and_verb(text)
    return _side(_TOKEN.findall(head[0])) if head is not None else frozenset()


def comparisons(text: str) -> list[Comparison]:
    """The comparisons of ``text``, one per "than" of a clause (negated ones left out)."""
    out: list[Comparison] = []
    for sentence in split_sentences(multiples_as_comparatives(text)):
        negated = {w for _cue, scope in negated_scopes(sentence.text) for w in scope}
        for clause in clauses(sentence.text):
            tokens = _TOKEN.findall(clause.text)
            lowered = [t.lower() for t in tokens]
            if "than" not in lowered:
                out.extend(_implicit(tokens, negated))
                continue
            than = lowered.index("than")
            found = _dimension(tokens, than)
            if found is None:
                continue
            k, dimension, up = found
            dimension = _price_dimension(dimension, lowered[: k + 2])
            right_text = " ".join(tokens[than + 1 :])
            if re.match(r"[$£€\d]", right_text) or negated & {stem(t) for t in lowered[k:than]}:
                continue  # "more than 80", "not cheaper than"
            left, right = _side(tokens[:k]), _side(tokens[than + 1 :])
            if not left and clause.start > 0:
                # an apposition: "The northern lake reaches 80 metres, more than twice the
                # depth of the southern lake" compares the sentence's subject
                left = _subject_side(sentence.text[: clause.start])
            shared = left & right  # "the new bridge … than the old bridge": "bridge" tells none
            rest = _side(tokens[k + 2 : than])
            if left - shared and right - shared:
                out.append(Comparison(left - shared, dimension, up, right - shared, rest))
    return out


#: What a price is called: "rents are *higher*" says they are more expensive (session 34).
_PRICE_STEMS = frozenset(
    stem(w) for w in ("price", "rent", "cost", "fee", "fare", "tuition", "toll", "premium")
)
_PRICE_LEVELS = {"high": "expensive", "low": "cheap"}


def _price_dimension(dimension: str, words: list[str]) -> str:
    """A price's "high" / "low" as "expensive" / "cheap" when ``words`` (the clause up to
    the comparative and the word after it) name a price: "Rents in the north are higher
    than in the south." conflicts with "… are cheaper than in the south" (read as
    entailment by the NLI model, and "cheap" / "high" are no pair of the lexicons)."""
    level = _PRICE_LEVELS.get(dimension)
    if level is None or not _PRICE_STEMS & {stem(w) for w in words}:
        return dimension
    return level


def _implicit(tokens: list[str], negated: set[str]) -> list[Comparison]:
    """ "more / less / fewer <word>" of a clause with no "than" (session 32): "Smokers are
    *less likely* to develop lung cancer." against "… far *more likely* to develop lung
    cancer than non-smokers" (read as entailment, 0.60). Not "more and more", not a
    negated one, not before a number."""
    for k, token in enumerate(tokens[:-1]):
        word, following = token.lower(), tokens[k + 1]
        if word not in _MORE or following.lower() in STOPWORDS or not following[:1].isalpha():
            continue
        if negated & {stem(word), stem(following)}:
            return []
        left, rest = _side(tokens[:k]), _side(tokens[k + 2 :])
        if left:
            dimension = _adjective(following.lower())
            return [Comparison(left, dimension, _MORE[word], frozenset(), rest, implicit=True)]
    return []


def _same_way(a: Comparison, b: Comparison) -> bool | None:
    """Do ``a`` and ``b`` go the same way (None: not the same dimension)?"""
    if stem(a.dimension) == stem(b.dimension):
        return a.up == b.up
    if are_opposites(a.dimension, b.dimension):
        return a.up != b.up
    return None


def _share(claim_side: frozenset[str], source_side: frozenset[str]) -> float:
    return len(claim_side & source_side) / len(claim_side) if claim_side else 0.0


def _conflict(claimed: Comparison, stated: Comparison) -> bool | None:
    """True: opposite; False: agrees; None: not the same comparison.

    The sides are aligned the way they share more words ("Lake Superior … than Lake
    Michigan" / "Lake Michigan … than Lake Superior" share "lake" both ways: exchanged
    wins), each claim side at least half found; a tie is no reading.
    """
    same_way = _same_way(claimed, stated)
    if same_way is None:
        return None
    if claimed.implicit or stated.implicit:
        return _implicit_conflict(claimed, stated, same_way)
    straight = (_share(claimed.left, stated.left), _share(claimed.right, stated.right))
    # exchanged, the words both left sides share are context ("in the study lived"), not sides
    exchanged = (
        _share(claimed.left - stated.left, stated.right),
        _share(claimed.right - stated.right, stated.left),
    )
    if sum(straight) > sum(exchanged) and min(straight) >= _MIN_SIDE_SHARE:
        return not same_way
    if sum(exchanged) > sum(straight) and min(exchanged) >= _MIN_SIDE_SHARE:
        return same_way  # sides exchanged: the same way is the opposite claim
    return None


def _implicit_conflict(claimed: Comparison, stated: Comparison, same_way: bool) -> bool | None:
    """One side unsaid: the same subject (half of the claim's words before the comparative,
    none of them the source's other side) and the same rest ("to develop lung cancer")."""
    if _share(claimed.left, stated.left) < _MIN_SIDE_SHARE or claimed.left & stated.right:
        return None
    if claimed.rest and _share(claimed.rest, stated.rest) < _MIN_SIDE_SHARE:
        return None
    return not same_way


def direction_conflict(claim: str, window: str) -> DirectionFinding | None:
    """A comparison of the claim a window sentence states the other way, unless another
    window sentence states it the claim's way."""
    claimed = comparisons(claim)
    if not claimed:
        return None
    found: DirectionFinding | None = None
    for sentence in split_sentences(window):
        for stated in comparisons(sentence.text):
            for mine in claimed:
                verdict = _conflict(mine, stated)
                if verdict is False:
                    return None  # stated the claim's way: no conflict
                if verdict and found is None:
                    sides = mine.left | mine.right  # the comparative itself is the conflict
                    share = len(sides & set(content_stems(sentence.text))) / len(sides)
                    found = DirectionFinding(claim, sentence.text, share)
    return found
