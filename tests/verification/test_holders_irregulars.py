"""A one-holder office given to someone else, irregular verb forms read as their verb,
near-"none" and "far from" as negations, leaving a team or employer as an ended state,
and names whose words oppose nothing (session 21)."""

from __future__ import annotations

import pytest

from provgraph.verification.antonyms import antonym_conflict, are_opposites
from provgraph.verification.consistency import check_consistency
from provgraph.verification.ended_states import ended_state
from provgraph.verification.home_places import place_conflict
from provgraph.verification.negation import negated_scopes, negation_conflict
from provgraph.verification.quantulum_reader import read_piece
from provgraph.verification.role_holders import holdings, role_holder_conflict
from provgraph.verification.wordsets import clauses, irregular_verb_lemma, stem

_LOPEZ = "Maria Lopez is the company's chief executive."


@pytest.mark.parametrize(
    ("claim", "source", "holder"),
    [
        (
            _LOPEZ,
            "Maria Lopez is the company's chief financial officer; its chief executive is "
            "Daniel Kim.",
            "Daniel Kim",
        ),
        (
            _LOPEZ,
            "Chief executive Daniel Kim and finance chief Maria Lopez presented the results.",
            "Daniel Kim",
        ),
        (
            "John Smith is the mayor of Leeds.",
            "The mayor of Leeds, Jane Doe, met John Smith.",
            "Jane Doe",
        ),
    ],
)
def test_an_office_the_source_gives_another_person_conflicts(
    claim: str, source: str, holder: str
) -> None:
    found = role_holder_conflict(claim, source)
    assert found is not None and found.source == holder
    assert check_consistency(claim, source, source).negation_mismatch


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the claim's own holder, by full name or by surname
        (_LOPEZ, "Maria Lopez, the company's chief executive, said sales rose."),
        ("Smith is the club's head coach.", "The club's head coach, Tom Smith, said so."),
        # a past holder, a former one, a qualified office: another time or another office
        (_LOPEZ, "Maria Lopez succeeded Daniel Kim, who was chief executive until 2020."),
        (_LOPEZ, "Former chief executive Daniel Kim praised Maria Lopez."),
        ("Kamala Harris is the vice president.", "President Joe Biden and Kamala Harris spoke."),
        # another body's office
        ("John Smith is the mayor of Leeds.", "The mayor of York, Jane Doe, met John Smith."),
        ("Tim Cook is Apple's CEO.", "Microsoft's CEO Satya Nadella met Tim Cook."),
        # the source does not speak of the claim's person at all
        (_LOPEZ, "The company's chief executive is Daniel Kim."),
        # a date is not a name ("named head coach in May")
        ("Todd Watson is the head coach.", "Todd Watson was named head coach May 2019."),
    ],
)
def test_an_office_the_source_does_not_give_another_holder_is_no_conflict(
    claim: str, source: str
) -> None:
    assert role_holder_conflict(claim, source) is None


def test_an_office_held_as_a_verb() -> None:
    claim = "Lena Fischer chairs the supervisory board."
    other = "Lena Fischer sits on the supervisory board, whose chair is Thomas Weber."
    found = role_holder_conflict(claim, other)
    assert found is not None and found.source == "Thomas Weber"
    same = "The supervisory board, chaired by Lena Fischer, met on Monday."
    assert role_holder_conflict(claim, same) is None


def test_holdings_read_copula_apposition_and_title() -> None:
    text = "Its chief executive is Daniel Kim; the chair, Ann Lee, and captain Tom Ross agreed."
    found = {(h.office, h.holder) for h in holdings(text)}
    assert {("ceo", "Daniel Kim"), ("chair", "Ann Lee"), ("captain", "Tom Ross")} <= found


@pytest.mark.parametrize(
    ("form", "verb"),
    [("met", "meet"), ("shrank", "shrink"), ("won", "win"), ("sold", "sell"), ("begun", "begin")],
)
def test_an_irregular_form_that_is_only_a_verb_is_read_as_its_verb(form: str, verb: str) -> None:
    assert irregular_verb_lemma(form) == verb
    assert stem(form) == stem(verb)


@pytest.mark.parametrize("form", ["left", "found", "saw", "felt", "rose", "planned", "runs"])
def test_a_form_that_is_also_a_noun_or_regular_is_left_alone(form: str) -> None:
    assert irregular_verb_lemma(form) == form


def test_irregular_forms_reach_negation_and_opposites() -> None:
    claim = "The trial met its primary endpoint."
    source = "The phase 3 trial failed to meet its primary endpoint at 12 months."
    assert negation_conflict(claim, source) is not None
    assert are_opposites("grew", "shrank")
    assert antonym_conflict(
        "The company's workforce grew last year.",
        "Last year the company's workforce shrank from 4,200 to 3,900 employees.",
    )


@pytest.mark.parametrize(
    ("text", "cue"),
    [
        ("The bridge project is far from finished.", "far from"),
        ("Hardly any residents attended the consultation.", "hardly any"),
        ("Scarcely anyone used the new entrance.", "scarcely anyone"),
    ],
)
def test_near_none_and_far_from_a_state_are_negations(text: str, cue: str) -> None:
    assert [c for c, _scope in negated_scopes(text)] == [cue]


@pytest.mark.parametrize(
    "text", ["The village is far from the city.", "He is far from home.", "She barely passed."]
)
def test_a_distance_or_a_bare_barely_is_no_negation(text: str) -> None:
    assert negated_scopes(text) == []


def test_few_is_no_assertion_that_hardly_any_denies() -> None:
    source = "Hardly any residents attended the consultation."
    assert negation_conflict("Many residents attended the consultation.", source) is not None
    assert negation_conflict("Few residents attended the consultation.", source) is None
    # a small share stated as a number says what "hardly any" says
    assert (
        negation_conflict(
            "Hardly any of the survey respondents trusted the new app.",
            "Only 6% of those surveyed said they trusted the new app.",
        )
        is None
    )


def test_leaving_a_team_ends_playing_for_it() -> None:
    found = ended_state(
        "She currently plays for Lyon.",
        "She retired from professional football in 2021 after nine seasons at Lyon.",
    )
    assert found is not None and found.state == "member"
    # moving within an employer, or joining the claim's club, ends nothing
    assert (
        ended_state(
            "She still works for the bank.",
            "She joined the bank in 2010 and moved to its London office in 2015.",
        )
        is None
    )
    assert ended_state("He currently plays for Ajax.", "He moved to Ajax in 2022.") is None


def test_an_ending_in_a_clause_of_another_subject_ends_nothing() -> None:
    source = "Her former teammate retired last year, but she remains Chelsea's goalkeeper."
    assert ended_state("She still plays for Chelsea.", source) is None
    assert ended_state("The museum is still open.", "After years of losses, the museum closed.")


def test_a_merger_ends_being_separate() -> None:
    found = ended_state(
        "The two parishes are still separate.",
        "The two parishes merged in 2015 to form a single parish.",
    )
    assert found is not None and found.event == "merged"


@pytest.mark.parametrize(
    ("text", "value"),
    [("Some 45 thousand people visited the festival.", 45_000.0), ("Some 2 million books.", 2e6)],
)
def test_a_scale_word_the_library_drops_is_read(text: str, value: float) -> None:
    raws, _pairs = read_piece(text)
    assert [r.value for r in raws] == [value]


def test_words_of_a_name_oppose_nothing() -> None:
    claim = "After 11 years in Major League Soccer, Mathis won the MLS Cup in 2009."
    source = "Minor League scoreboard. Mathis won the MLS Cup in 2009 with Real Salt Lake."
    assert antonym_conflict(claim, source) is None
    assert antonym_conflict("Sales rose in 2020.", "Sales fell in 2020.") is not None
    # a name that shares a word with the other side's is a swap of names, not a name
    swap = antonym_conflict(
        "The summit was held in North Korea.", "The summit was held in South Korea."
    )
    assert swap is not None


def test_the_little_of_a_name_is_no_small_amount() -> None:
    assert negation_conflict(
        "The little girl attended the ceremony.", "The little girl did not attend the ceremony."
    )


@pytest.mark.parametrize(
    ("claim", "source", "place"),
    [
        (
            "The company is headquartered in Denver.",
            "The company is headquartered in Austin and has an office in Denver.",
            "Austin",
        ),
        ("He died in Paris.", "He died in Nice in 1954 after years in Paris.", "Nice"),
    ],
)
def test_a_one_place_relation_given_another_place_conflicts(
    claim: str, source: str, place: str
) -> None:
    found = place_conflict(claim, source)
    assert found is not None and found.source == place
    assert check_consistency(claim, source, source).negation_mismatch


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the claim's place within the source's phrase for the relation
        (
            "The company is headquartered in Denver.",
            "The company is headquartered in Denver, Colorado, and has an office in Austin.",
        ),
        ("She was born in England.", "She was born in London, England, in 1950."),
        ("The firm is based in New York.", "The firm is based in New York City."),
        # the claim's place never named: the source's may contain it
        ("She was born in England.", "She was born in London and grew up in Kent."),
        # a time or an event after "in" is no place
        ("He was born in Leeds.", "He was born in March 1950 and grew up in Leeds."),
        ("He died in Paris.", "He died in World War II, far from Paris."),
        # another subject's place
        (
            "Smith died in Blackville in 1957.",
            "Smith lived in Blackville. Victor Walls died in Newcastle in 1984.",
        ),
    ],
)
def test_a_one_place_relation_not_given_another_place_is_no_conflict(
    claim: str, source: str
) -> None:
    assert place_conflict(claim, source) is None


def test_a_moved_headquarters_is_where_it_moved_to() -> None:
    source = "The company moved its headquarters from Seattle to Dallas in 2021."
    found = place_conflict("The company is headquartered in Seattle.", source)
    assert found is not None and found.source == "Dallas"
    assert place_conflict("The company is headquartered in Dallas.", source) is None


@pytest.mark.parametrize(
    ("text", "cue"),
    [
        ("The vaccine has not yet been approved for children; a decision is due.", "not"),
        ("The vaccine has yet to be approved for children.", "has yet to"),
    ],
)
def test_not_yet_and_yet_to_deny_what_follows(text: str, cue: str) -> None:
    scopes = negated_scopes(text)
    assert scopes and scopes[0][0] == cue and "approv" in scopes[0][1]
    assert negation_conflict("The vaccine has been approved for children.", text) is not None


def test_yet_as_a_conjunction_still_ends_a_clause() -> None:
    assert [c.text for c in clauses("The plan was cheap yet it failed.")] == [
        "The plan was cheap",
        "it failed",
    ]


def test_an_infinitive_cue_denies_its_verb_and_object() -> None:
    claim = "The company agreed to pay compensation."
    source = "The company refused to pay compensation to the affected customers."
    assert negation_conflict(claim, source) is not None
    # a noun scope keeps the two-thirds rule: the rest of this sentence is another matter
    noun = "Their lack of a full-length album has left some fans wondering."
    assert negation_conflict("The Album is their first full-length album.", noun) is None


def test_an_ended_state_measures_how_much_of_the_claim_its_sentence_holds() -> None:
    found = ended_state(
        "He currently works for the newspaper.",
        "He left the company in 2018 after twelve years at the newspaper.",
    )
    assert found is not None and found.share == 1.0
