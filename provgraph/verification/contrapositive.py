"""A negated claim read against a negated source sentence by contraposition.

"Nobody was injured in the fire." against "The fire destroyed the warehouse, but no one
was hurt.": the small NLI model reads the two denials as a contradiction (0.95), and the
polarity reading (:mod:`.polarity`) does not help, for the model also reads the premise's
denial past: it entails "Somebody was injured in the fire" from that sentence (0.83).
Logic gives a reading that needs no negation at all: *not S* entails *not C* exactly when
*C* entails *S*. So when the claim has one clausal negation and the window sentence that
shares most of its words has one too, the model reads the claim's positive form as the
premise and the positive form of the sentence's denying clause as the hypothesis
("Somebody was injured in the fire" ⊨ "Someone was hurt"); that entailment is evidence
for the claim, and it discounts the contradiction as the polarity reading's does.

Guards, because the model entails across a changed name or number when the rest of the
words are shared: the sentence must hold half of the claim's content words, the claim's subject
(the words before its verb, a denying "nobody" aside) and every capitalised name and
number of the claim; a hedged denial ("may not") in either is
no denial (:func:`.polarity.positive_form` rewrites one clausal cue; it is None for
several, or for none).
"""

from __future__ import annotations

import re
from typing import Any

from provgraph.verification.focus import PairScorer
from provgraph.verification.negation import best_sentence, hedged, negated_scopes
from provgraph.verification.polarity import Item, positive_form
from provgraph.verification.report import StageScore
from provgraph.verification.roles import holder_stems
from provgraph.verification.synonyms import verb_key
from provgraph.verification.wordsets import clauses, content_stems, stem

#: The claim words the closest source sentence must hold (as :mod:`.negation` asks).
_MIN_SHARED = 0.5
#: Below this the contrapositive reading says nothing (the model's own "not entailed").
_MIN_ENTAILMENT = 0.5
_TOKEN = re.compile(r"[\w'-]+")
#: Words that deny rather than name: not counted among the words a sentence must share.
_DENYING = frozenset(stem(w) for w in ("nobody", "nothing", "none", "never", "neither", "nor"))


#: A clause's opening conjunction, dropped from the hypothesis ("but no one was hurt").
_LEADING_LINK = re.compile(r"^\s*(?:but|and|yet|so|while|although|though|however)\b[\s,]*", re.I)


def _named(text: str) -> set[str]:
    """Content stems of ``text`` without its denying words ("Nobody was injured": injured),
    synonymous verbs as one (:func:`.synonyms.verb_key`: "hurt" / "injured")."""
    return {verb_key(w) for w in content_stems(text) if w not in _DENYING}


def _names_and_numbers(text: str) -> set[str]:
    """Capitalised words (not the first: a sentence's) and numbers of a one-sentence text."""
    tokens = _TOKEN.findall(text)
    return {t.lower() for t in tokens[1:] if t[:1].isupper() or t[:1].isdigit()} | {
        t for t in tokens[:1] if t[:1].isdigit()
    }


def _one_plain_denial(text: str) -> bool:
    scopes = negated_scopes(text)
    return len(scopes) == 1 and not hedged(scopes[0][0])


def contrapositive_pair(claim: str, window: str) -> tuple[str, str] | None:
    """(the claim's positive form, the closest window sentence's positive form) when both
    deny one thing each and the sentence is about the claim's subject, else None."""
    mine = positive_form(claim)
    if mine is None or not _one_plain_denial(claim):
        return None
    sentence, share = best_sentence(claim, window, words=_named)
    if share < _MIN_SHARED or not _one_plain_denial(sentence):
        return None
    subject = {verb_key(w) for w in holder_stems(claim) - _DENYING if len(w) > 2}
    if not subject <= _named(sentence):
        return None  # another subject denied the same thing: "The placebo did not …"
    denial = next((c.text for c in clauses(sentence) if negated_scopes(c.text)), sentence)
    theirs = positive_form(_LEADING_LINK.sub("", denial).strip())
    if theirs is None:
        return None
    words = set(_TOKEN.findall(sentence.lower()))
    if not _names_and_numbers(claim) <= words:
        return None
    return mine, theirs


def reread_contrapositive(
    scorer: PairScorer, items: list[Item]
) -> list[tuple[StageScore, dict[str, Any]] | None]:
    """For each ``(claim, source text, nli score, signals)``: the NLI score and signals with
    the contrapositive reading applied, or None (no pair to read, or the model does not
    entail it). One batched ``predict_pairs`` for the whole report."""
    plans: list[tuple[str, str] | None] = []
    for claim, _source, nli, signals in items:
        usable = nli.evidence is not None and isinstance(signals.get("nli_entailment"), float)
        window = nli.evidence.text if nli.evidence is not None else ""
        plans.append(contrapositive_pair(claim, window) if usable else None)
    jobs = [plan for plan in plans if plan is not None]
    scores = dict(zip(jobs, scorer.predict_pairs(jobs), strict=True)) if jobs else {}
    out: list[tuple[StageScore, dict[str, Any]] | None] = []
    for plan, (_claim, _source, nli, signals) in zip(plans, items, strict=True):
        if plan is None or scores[plan][0] < _MIN_ENTAILMENT:
            out.append(None)
            continue
        read = scores[plan][0]
        entailment = max(float(signals["nli_entailment"]), read)
        worst = signals.get("nli_max_contradiction")
        updated = {
            "nli_entailment": entailment,
            "nli_contradiction": (signals.get("nli_contradiction") or 0.0) * (1.0 - read),
            "nli_max_contradiction": None if worst is None else worst * (1.0 - read),
        }
        raw = {
            **nli.raw,
            "contrapositive": f"{plan[0]} => {plan[1]}",
            "contrapositive_entailment": read,
        }
        out.append((nli.model_copy(update={"score": entailment, "raw": raw}), updated))
    return out
