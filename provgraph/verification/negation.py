"""Scope-aware negation: which predicate is negated, and is it asserted on the other side?

A bare "one side has *not*, the other has not" rule fires on ordinary English:
"delivery speed, not price" against "delivery speed rather than price" (both
say the same), "did not prevent infection but reduced severe illness" against
"reduced severe illness" (the negation is about something else). Here:

* **cues** are clausal negations, including paraphrases: *not*, *n't*,
  *never*, *no*, *none*, *nobody*, *nothing*, *neither/nor*, *without*,
  *cannot*, *no longer*, *fails/failed to*, *refused/declined to*, *unable
  to*, *lacks*, *lost / failed in a bid for* ("lost her bid for re-election"),
  *skipped* / *omitted* / *forwent* / *withheld* (what is left
  undone: "skipped its dividend" denies "paid a dividend"), *ruled out*,
  *too small / few / early … to* ("too small to show an effect"),
  *hardly / scarcely / barely any*, *little is known*, *far from* before a state ("far
  from finished"),
  *has yet to*, *did little / nothing to* ("has done little to reduce traffic");
  fixed phrases that are not negations are ignored (*not only*,
  *no doubt*, *without doubt*, *no more than* — a quantity bound, left to the quantity check);
* **contrastive** phrases (*rather than*, *instead of*, *as opposed to*,
  *", not X"*) compare two alternatives and assert the first; they are not a
  negated proposition and never produce a mismatch on their own;
* a cue's **scope** is the next content words of its clause (at most four), up to
  a comparison's baseline ("compared with placebo") and without the measure an
  outcome is quantified by ("the rate of", "the risk of"); an
  association with a direction is read as the effect it reports ("not associated
  with a lower risk" negates "lowers the risk");
* a **mismatch** is a scope negated on one side whose words (at least two
  thirds of them, the first included) appear *un*-negated in the matching
  sentence on the other side, when claim and that sentence share most content
  words (they speak of the same thing); a clause that ends them ("support for
  Windows 7 was *dropped*") does not assert them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from provgraph.verification.any_amounts import any_amount_asserted
from provgraph.verification.covered_times import covered_time_stems, universal_time_words
from provgraph.verification.delayed_events import delayed
from provgraph.verification.denial_times import other_times, times_named
from provgraph.verification.exceptions_words import excepted
from provgraph.verification.phrasal import plain_idioms
from provgraph.verification.scope_ends import scope_text
from provgraph.verification.sentences import split_sentences
from provgraph.verification.synonyms import verb_key
from provgraph.verification.wordsets import ENDING_VERBS, clauses, content_stems, stem

_NOT_NEGATION = re.compile(
    r"\b(?:not only|not just|not least|not merely|no doubt|without (?:a )?doubt|nothing but|"
    r"not to mention|"
    r"whether or not|if not|no (?:more|less|fewer|later|earlier|sooner) than|"
    r"not (?:more|less|fewer) than|none other than|no matter)\b",
    re.IGNORECASE,
)
#: Phrases that assert the alternative before them and set aside the one after
#: (also read by :mod:`.alternatives`).
#: The contrastive phrases that may also open a sentence ("Instead of X, Y").
PREFERENCE_PHRASE = r"\b(?:rather than|instead of|as opposed to|in place of)\b"
PREFERENCE = rf"{PREFERENCE_PHRASE}|,\s*not\b"
_CONTRAST = re.compile(rf"{PREFERENCE}|\bin contrast to\b", re.IGNORECASE)
#: "far from finished", "far from certain": a state denied. Not a distance ("far from
#: the city", "far from home"): the next word is an adjective or participle by its
#: ending, or one of the common state words that have none.
_FAR_FROM_STATE = (
    r"(?:[a-z]+(?:ed|en|ing|ive|ous|ful|able|ible|ent|ant|ic)|over|done|clear|certain|"
    r"sure|ready|complete|perfect|ideal|enough|settled|easy|simple|obvious|safe|secure)\b"
)
_CUE = re.compile(
    r"\b(?:no longer|not|never|no|none|nobody|nothing|neither|nor|without|cannot|"
    r"fail(?:s|ed|ing)? to|refus(?:es|ed|ing)? to|declin(?:es|ed|ing)? to|unable to|"
    r"lack(?:s|ed|ing)?|rul(?:e|es|ed|ing) out|"
    # "lost her bid for re-election", "failed in its bid to host the games"
    r"(?:los(?:e|es|t|ing)|fail(?:s|ed|ing)?\s+in)\s+(?:a|an|the|her|his|its|their)\s+bid\s+(?:for|to)|"
    r"skip(?:s|ped|ping)?|omit(?:s|ted|ting)?|forg(?:o|oes|oing|one|went)|"
    r"withh(?:old|olds|olding|eld)|"
    r"too\s+(?:small|few|short|weak|early|soon|limited|underpowered)\s+to|"
    r"(?:hardly|scarcely|barely)\s+(?:any(?:one|body|thing)?|ever)|little\s+(?:is|was)(?=\s+known)|"
    r"(?:has|have|had|is|are|was|were)\s+yet\s+to|"
    r"(?:do|does|did|done|doing)\s+(?:little|nothing|very\s+little)\s+to|"
    rf"far\s+from(?=\s+{_FAR_FROM_STATE}))\b"
    r"|n['\u2019]t\b",
    re.IGNORECASE,
)
#: "not all", "not every", "not always": the negation of a quantifier.
_QUANTIFIER = re.compile(r"\s+(all|every\w*|always)\b", re.IGNORECASE)
#: "may not", "might not": a hedge before the cue (a possibility, not a denial).
_HEDGE = re.compile(r"\b(may|might)\s+$", re.IGNORECASE)
#: A negation at most one word before a point of a sentence ("did *not* return", "*no
#: longer* steady"): the word that follows is denied.
_NEGATED_JUST_BEFORE = re.compile(r"\b(?:not|never|n't|no\s+longer)\s+(?:\w+\s+)?$", re.IGNORECASE)
#: A conditional clause, up to the comma that ends it.
_CONDITION = re.compile(r"\b(?:if|unless|whether)\b[^,;:]*", re.IGNORECASE)
_MIN_SHARED = 0.5
_SCOPE_WORDS = 4


@dataclass(frozen=True)
class NegationFinding:
    """A predicate negated on one side and asserted on the other."""

    side: str  # "claim" or "source": where the negation is
    cue: str
    predicate: tuple[str, ...]
    #: share of the claim's content words in the sentence of the conflict
    share: float = 0.0


def _masked(text: str) -> str:
    """``text`` with non-negating fixed phrases and contrastive phrases blanked out."""

    def blank(m: re.Match[str]) -> str:
        return " " * len(m.group(0))

    return _CONTRAST.sub(blank, _NOT_NEGATION.sub(blank, text))


#: An association with a direction states the effect: "not associated with a *lower*
#: risk" negates "lowers the risk". The direction words are read as one verb here
#: only: elsewhere (antonyms, relatedness) "higher" and "raised" stay themselves.
_ASSOCIATION = stem("linked")
_INCREASE, _DECREASE = stem("increase"), stem("decrease")
_DECREASE_WORDS = (
    "reduce", "reduction", "lower", "fewer", "prevent", "prevention", "lessen", "shorten",
    "curb", "cut", "stop", "avert",
)  # fmt: skip
_EFFECT = {
    **{stem(w): _DECREASE for w in _DECREASE_WORDS},
    **{stem(w): _INCREASE for w in ("raise", "higher", "greater", "boost", "lengthen")},
}


#: Degree words inside a negated scope: "no *significant* difference", "no *clear*
#: evidence", "does not play a *substantial* role". Research writing states a null result
#: this way, so the scope is the predicate without them (a claim rarely repeats the
#: qualifier: "there is evidence that pets play a role").
DEGREE_WORDS = frozenset(
    stem(w)
    for w in (
        "significant", "substantial", "clear", "strong", "conclusive", "sufficient",
        "convincing", "currently", "meaningful", "statistically", "robust", "definitive",
        "notable", "notably", "major", "measurable", "appreciable",
    )
)  # fmt: skip
#: A claim with one of these asserts a small degree, which a denial of a large one allows:
#: "plays a minor role" is no conflict with "no substantial role".
DIMINISHERS = frozenset(
    stem(w) for w in ("minor", "small", "slight", "modest", "limited", "little", "weak")
)


def _stems(text: str) -> list[str]:
    """Content stems with an effect's direction read as increase / decrease."""
    return [_EFFECT.get(s, s) for s in content_stems(text)]


def _key_of_word(word: str) -> str | None:
    """One word's key as :func:`_keyed` reads it (None: no content word)."""
    return next((verb_key(s) for s in _stems(word)), None)


def _keyed(stems: Iterable[str]) -> set[str]:
    """Stems with synonymous verbs as one ("replicate" / "reproduced",
    :func:`~provgraph.verification.synonyms.verb_key`): for this module's comparisons
    only — other rules read :func:`negated_scopes` by the plain stems of their words."""
    return {verb_key(s) for s in stems}


def _scope_stems(text: str) -> list[str]:
    """:func:`_stems` of a negated scope without its degree words (:data:`DEGREE_WORDS`)."""
    return [s for s in _stems(text) if s not in DEGREE_WORDS]


def negated_scopes(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """``(cue, scope stems)`` for every negation cue of ``text``."""
    return [(cue, scope) for cue, scope, _clause in _negations(text)]


def _negations(text: str) -> list[tuple[str, tuple[str, ...], str]]:
    """``(cue, scope stems, its clause)`` for every negation cue of ``text``."""
    masked = _masked(text)
    out: list[tuple[str, tuple[str, ...], str]] = []
    for clause in clauses(masked):
        for m in _CUE.finditer(clause.text):
            if delayed(m.group(0), clause.text, m.end()):
                continue  # "was not opened until 1932" puts the opening off, denies nothing
            hedge = _HEDGE.search(clause.text[: m.start()])
            scope = _scope_stems(scope_text(clause.text[m.end() :], m.group(0)))
            if len(scope) > 1 and scope[0] == _ASSOCIATION and scope[1] in (_INCREASE, _DECREASE):
                scope = scope[1:]
            scope = scope[:_SCOPE_WORDS]
            if scope:
                cue = m.group(0).lower()
                quantifier = _QUANTIFIER.match(clause.text, m.end()) if cue == "not" else None
                if quantifier:
                    cue = f"not {quantifier.group(1).lower()}"
                cue = f"{hedge.group(1).lower()} {cue}" if hedge else cue
                out.append((cue, tuple(scope), clause.text))
    return out


def hedged(cue: str) -> bool:
    """A negation that denies no predicate: under "may" / "might" ("may not be effective")
    it states a possibility; of a quantifier ("not all samples contained it") it says
    some did not, which a source saying that 14 of 20 did confirms."""
    return cue.startswith(("may ", "might ")) or _QUANTIFIER.match(cue, 3) is not None


def unconditional(text: str) -> str:
    """``text`` without its conditional clauses: "If a marriage is deemed lawful, …"
    asserts nothing of the marriage's lawfulness."""
    return _CONDITION.sub(" ", text)


#: A verb under an intention or a plan is not done: "considered *buying* the land",
#: "planned to *close* the plant", "tried to *sell* it" assert no purchase, closure or sale.
_INTENDED = re.compile(
    r"\b(?:consider(?:s|ed|ing)?|contemplat(?:es|ed|ing)|propos(?:es|ed|ing)(?:\s+to)?|"
    r"(?:plan(?:s|ned|ning)?|hop(?:e|es|ed|ing)|pledg(?:e|es|ed|ing)|promis(?:e|es|ed|ing)|"
    r"tr(?:y|ies|ied|ying)|seek(?:s|ing)?|sought|"
    r"(?:want|threaten|intend|offer|aim|attempt|vow|expect)(?:s|ed|ing)?)\s+to)"
    r"\s+(?P<verb>[a-z]+)",
    re.IGNORECASE,
)


def _stated(text: str) -> str:
    """:func:`unconditional` ``text`` with the verbs it only intends blanked."""

    def blank_verb(m: re.Match[str]) -> str:
        cut = m.start("verb") - m.start()
        return m.group(0)[:cut] + " " * len(m.group("verb"))

    return _INTENDED.sub(blank_verb, unconditional(text))


def _contrasted(text: str) -> set[str]:
    """Stems of the alternatives a contrastive phrase sets aside ("rather than *price*")."""
    masked = _NOT_NEGATION.sub(lambda m: " " * len(m.group(0)), text)
    out: set[str] = set()
    for m in _CONTRAST.finditer(masked):
        rest = clauses(masked[m.end() :])
        if rest:
            out.update(_stems(rest[0].text)[:_SCOPE_WORDS])
    return out


#: Where a sentence turns from one statement to a contrasting one ("rejected the fees *but*
#: approved a bike lane"): a predicate is asserted only by words on one side of it.
_CONTRAST_SEGMENT = re.compile(r"\s(?:but|whereas|while|although|though)\s|;", re.IGNORECASE)


def _asserted(scope: tuple[str, ...], other: str, *, verb_first: bool = False) -> bool:
    """Is the negated predicate stated without negation (or setting aside) in ``other``?

    Two thirds of the scope's words must be there, the first included — or, when the scope
    opens with the verb of an infinitive cue (``verb_first``: "refused to", "failed to"),
    the verb and its object: "refused to *pay compensation* to the affected customers"
    denies "agreed to pay compensation". A noun scope ("their lack of *a full-length
    album* has left fans …") keeps the two-thirds rule.
    """
    # a part that excepts a word of the predicate does not assert it: "runs daily except on
    # public holidays" states what "does not run on public holidays" does (session 34)
    held = [
        words
        for part in _CONTRAST_SEGMENT.split(other)
        if not _keyed(scope) & _keyed(excepted(part))
        and _holds(
            scope,
            words := _keyed(_stems(_stated(part))) | _keyed(covered_time_stems(part)),
            verb_first=verb_first,
        )
    ]
    if not held:
        return False
    present = [w for w in scope if verb_key(w) in held[0]]
    if _ended(present, other):
        return False
    if not _denies_any(present, other):
        return True
    # a word of the predicate is denied elsewhere in the sentence ("cut waiting times but
    # did not lower costs": the direction "decrease" is in both): a clause that states the
    # predicate and denies nothing still asserts it
    return any(
        _holds(scope, _keyed(_stems(_stated(c.text))), verb_first=verb_first)
        and not _denies_any(scope, c.text)
        for c in clauses(other)
    )


def _holds(scope: tuple[str, ...], words: set[str], *, verb_first: bool) -> bool:
    """Two thirds of the scope in ``words`` (:func:`_keyed`), its first word included
    (see :func:`_asserted`)."""
    keys = [verb_key(w) for w in scope]
    present = [w for w in keys if w in words]
    head = verb_first and len(keys) > 2 and keys[1] in words
    return keys[0] in words and (len(present) * 3 >= len(keys) * 2 or head)


def _denies_any(words: Iterable[str], text: str) -> bool:
    """Does ``text`` negate, set aside or say there is little of one of ``words``?"""
    denied = {w for _cue, sc in negated_scopes(text) for w in sc} | _contrasted(text)
    denied |= _few_of(text)
    return bool(_keyed(words) & _keyed(denied))


#: A small amount is no assertion a near-"none" denies (nor is a shortage: "lacks nurses"
#: / "a shortage of nurses" agree): "few residents attended" and
#: "only 6% trusted it" state what "hardly any residents attended" does ("a few" does
#: assert some; "only available in the US" is no amount, "the little girl" no amount either;
#: "fewer" compares, "fewer transmissions than" asserts transmissions).
_FEW = re.compile(
    r"(?<!\ba\s)(?<!\bthe\s)(?<!\bhis\s)(?<!\bher\s)(?<!\bits\s)(?<!\btheir\s)"
    r"\b(?:few|little|rarely|seldom|barely|scarcely|hardly)\b|"
    r"\b(?:shortages?|lack|scarcity|dearth|absence)\s+of\b|"
    r"\bonly\s+(?:\d[\d,.]*\s*(?:%|per\s*cent|percent)?|a\s+(?:few|handful|small|tiny|fraction))",
    re.I,
)


def _few_of(text: str) -> set[str]:
    """Stems of what a clause of ``text`` says there is little of (the words after "few")."""
    out: set[str] = set()
    for clause in clauses(text):
        m = _FEW.search(clause.text)
        if m is not None:
            out.update(_stems(clause.text[m.end() :])[:_SCOPE_WORDS])
    return out


def _ended(words: list[str], other: str) -> bool:
    """Does a clause of ``other`` with an ending verb hold the predicate's words? "Support
    for Windows 7 was dropped" states what "no longer supports Windows 7" says, though
    nothing in it is negated; a synonymous verb holds the predicate too (session 34). The
    ending verb must be a word beside the predicate, not
    the predicate's own verb ("The ferry *stops* at the island" ends nothing: session 31)."""
    predicate = set(words)
    return any(
        any(not _own_verb(m.group(0), predicate) for m in ENDING_VERBS.finditer(clause.text))
        and not negated_scopes(clause.text)
        # by the verb's key: "stopped making glass bottles" ends "produces glass bottles"
        and _keyed(predicate) <= _keyed(_stems(clause.text))
        for clause in clauses(other)
    )


def _own_verb(verb: str, predicate: set[str]) -> bool:
    """Is ``verb`` a word of ``predicate``, by a stem's start ("cancelled" of "cancel")?"""
    return any(s.startswith(p) or p.startswith(s) for s in _stems(verb) for p in predicate)


def _denied_of_its_subject(scope: tuple[str, ...], claim: str) -> bool:
    """A negated claim names the source's negated thing only as its subject: "Public
    endpoints can be called *without authentication*" and "*Authentication* is not
    required" say the same; the claim does not assert authentication."""
    cue = _CUE.search(_masked(claim))
    return cue is not None and set(scope) <= set(_stems(claim[: cue.start()]))


def _content(text: str) -> set[str]:
    return set(content_stems(text))


def best_sentence(
    claim: str, window: str, words: Callable[[str], set[str]] = _content
) -> tuple[str, float]:
    """The window sentence sharing most of the claim's content words, and that share.
    ``words``: how a text's words are read (content stems; :mod:`.prefix_negation` reads
    prefixed words as their plain words). A sentence naming a day or season the claim's
    "every day" / "all year" covers holds those claim words too (:mod:`.covered_times`:
    "runs every day of the year" / "does not run on Sundays in winter")."""
    claim_words = words(claim)
    if not claim_words:
        return "", 0.0
    covered, universal = covered_time_stems(claim), universal_time_words(claim)
    best, share = "", 0.0
    for sentence in split_sentences(window):
        held = words(sentence.text)
        if covered & held:
            held = held | universal
        value = len(claim_words & held) / len(claim_words)
        if value > share:
            best, share = sentence.text, value
    return best, share


def negation_conflict(claim: str, window: str) -> NegationFinding | None:
    """The first predicate negated on one side and asserted on the other, if any (idioms
    read as their one-word verb: "never set foot in Japan" denies "visited Japan")."""
    claim, window = plain_idioms(claim), plain_idioms(window)
    sentence, share = best_sentence(claim, window)
    if share < _MIN_SHARED:
        return None
    claim_times = times_named(claim)
    # "does not stop there in winter" denies nothing of the summer
    claim_denials = [] if other_times(claim_times, times_named(sentence)) else negated_scopes(claim)
    for cue, scope in claim_denials:
        if hedged(cue):
            continue
        if _asserted(scope, sentence) or any_amount_asserted(
            claim, verb_key(scope[0]), sentence, _key_of_word
        ):
            return NegationFinding("claim", cue, scope, share)
    small_degree = bool(DIMINISHERS & set(content_stems(claim)))
    for cue, scope, clause in _negations(sentence):
        if _denied_of_its_subject(scope, claim):
            continue
        if other_times(claim_times, times_named(clause)):
            continue  # "skipped its dividend in 2020" denies nothing of 2023's
        if small_degree and DEGREE_WORDS & set(content_stems(sentence)):
            continue  # "no substantial role" allows the claim's "a minor role"
        if not hedged(cue) and _asserted(scope, claim, verb_first=cue.endswith(" to")):
            return NegationFinding("source", cue, scope, share)
    return None


def negated_just_before(text_before: str) -> bool:
    """Does ``text_before`` (a sentence up to a word) end in a negation of that word, at
    most one word between ("the pain did *not* return", "was *never* held")?"""
    return _NEGATED_JUST_BEFORE.search(text_before) is not None
