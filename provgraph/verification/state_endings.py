"""The states a claim may assert as current and the source events that end them: the
lexicon of :mod:`.ended_states` (split from it in session 27). General state / ending
pairs of ordinary use, not of any data set.
"""

from __future__ import annotations

#: state → (claim phrases asserting it as current, source events that end it)
STATES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "open": (
        (
            "open",
            "operat",
            "running",
            "in service",
            "in use",
            "in operation",
            "active",
            "trading",
            "still runs",
            "still run",
            "runs between",
            "run between",
        ),
        (
            "closed",
            "shut",
            "ceased",
            "halted",
            "demolish",
            "dismantl",
            "abandon",
            "decommission",
            "bankrupt",
            "discontinu",
            "torn down",
            "went out of business",
        ),
    ),
    "closed": (("closed", "shut"), ("reopen", "re-open", "opened again")),
    # two people or bodies joined: a split, or the end of the tie by name, ends it
    "together": (
        ("together", "partners", "allies", "in a partnership", "in an alliance"),
        (
            "split",
            "broke up",
            "break up",
            "disband",
            "separated",
            "dissolved",
            "parted ways",
            "ended their partnership",
            "ended the partnership",
            "ended their alliance",
            "ended the alliance",
            "ended their collaboration",
            "terminated their partnership",
            "terminated the partnership",
            "cut ties",
            "severed ties",
        ),
    ),
    "married": (("married",), ("divorc", "separated", "annulled")),
    # a wanted person not caught: an arrest ends it (session 39)
    "at large": (
        ("at large", "on the run", "still free", "evaded capture", "still wanted"),
        (
            "arrested",
            "captured",
            "caught",
            "apprehended",
            "detained",
            "taken into custody",
            "surrendered",
            "turned himself in",
            "turned herself in",
        ),
    ),
    "in force": (
        ("in force", "in effect", "still valid"),
        ("repeal", "revoked", "struck down", "overturned", "abolish", "expired", "annulled"),
    ),
    # a person who "lives in" a place is alive: a death ends it (session 27)
    "alive": (
        ("alive", "living", "still lives", "lives in", "lives on", "lives with", "resides in"),
        ("died", "dead", "killed", "passed away"),
    ),
    # an employer's staff: its own end ends it, not "closed two stores" (session 27)
    "employing": (
        ("employs", "still employ"),
        (
            "shut down",
            "closed down",
            "closed its doors",
            "went bankrupt",
            "went out of business",
            "ceased trading",
            "ceased operations",
            "was liquidated",
            "folded",
        ),
    ),
    # what its owner holds: selling or giving it away ends it, if what was sold is what the
    # claim says is owned, all of it (session 28; :func:`.ended_states._endings_in`)
    "owning": (
        ("owns", "still own"),
        ("sold", "gave away", "donated", "transferred ownership", "handed over"),
    ),
    # a company's shares on an exchange: a delisting ends it (session 38)
    "listed": (
        ("listed on", "listed in", "traded on"),
        ("delisted", "taken private", "went private", "de-listed"),
    ),
    # a thing run or owned by someone: its sale ends it, if the seller is that someone or
    # the thing is sold (session 38; :func:`.ended_states._sold_by_holder`)
    "held": (
        ("run by", "owned by", "managed by", "controlled by"),
        ("sold", "handed over", "taken over", "bought"),
    ),
    # a product's feature: its removal ends it, if the removed thing is the claim's object
    # and the ending's clause names the claim's version (session 28; `ended_states`)
    "supporting": (
        ("supports", "still supports"),
        (
            "removed",
            "dropped support",
            "dropped",
            "deprecated",
            "discontinued",
            "withdrawn",
            "ended support",
            "stopped supporting",
            "no longer supports",
        ),
    ),
    # a building or a monument still there: its destruction ends it (session 29)
    "standing": (
        ("still stands", "still standing", "remains standing", "stands on", "stands in"),
        (
            "demolished",
            "torn down",
            "razed",
            "pulled down",
            "knocked down",
            "burned down",
            "burnt down",
            "destroyed",
            "collapsed",
        ),
    ),
    # a company (or two bodies) on its own: a takeover or a merger ends it
    "independent": (
        (
            "independent",
            "privately held",
            "privately owned",
            "standalone",
            "stand-alone",
            "separate",
        ),
        (
            "acquired",
            "bought by",
            "taken over",
            "merged",
            "purchased by",
            "absorbed",
            "sold to",
            "amalgamated",
            "combined into",
        ),
    ),
    # a product still on the market or allowed: a ban or a recall ends it (session 32);
    # "still" is required, as a place may allow what another bans
    "on sale": (
        (
            "still sold",
            "still on sale",
            "still on the market",
            "still marketed",
            "still legal",
            "still permitted",
            "still allowed",
        ),
        (
            "banned",
            "prohibited",
            "outlawed",
            "made illegal",
            "withdrawn from",
            "pulled from",
            "recalled",
        ),
    ),
    # a ban still in place: lifting it ends it (session 32)
    "banned": (
        ("still banned", "still prohibited", "still illegal", "remains banned", "remains illegal"),
        (
            "lifted its ban",
            "lifted the ban",
            "ban was lifted",
            "ended its ban",
            "ended the ban",
            "overturned the ban",
            "legalised",
            "legalized",
            "unbanned",
        ),
    ),
    # a product, feature or service offered (session 16: software and service documents)
    "available": (
        ("supported", "available", "in service", "offered", "maintained"),
        ("deprecat", "removed", "discontinu", "retired", "withdrawn", "end of life", "sunset"),
    ),
    "office": (
        (
            "remains",
            "current",
            "currently",
            "in office",
            "in charge",
            "still serves",
            "incumbent",
            "still leads",
            "still heads",
            "still runs",
        ),
        (
            "resign",
            "stepped down",
            "steps down",
            "dismissed",
            "fired",
            "sacked",
            "ousted",
            "retired",
            "removed from",
            "replaced",
            "quit",
            "until",
            "former",
            "left the",
            "left office",
            "voted out",
            "lost re-election",
            "lost the election",
        ),
    ),
    # a member of a team or an employer's staff: leaving ends it (session 21)
    "member": (
        (
            "plays for",
            "playing for",
            "works for",
            "working for",
            "works at",
            "employed by",
            "member of",
            "coaches",
            "manages",
        ),
        (
            "retired",
            "quit",
            "resigned",
            "stepped down",
            "left the club",
            "left the team",
            "left the company",
            "left the firm",
            "left the band",
            "was released",
            "released by",
            "departed",
            "was sacked",
            "was fired",
            "was dismissed",
        ),
    ),
}
