"""The pupil makes every maths decision: any card can be chosen, the rules judge it with numbers.

A refused choice is explained, nothing is played, and it is stored as an answer for the skill
it shows; "show me what I can play" is a hint and is counted as one.
"""

from __future__ import annotations

import itertools
import random

import pytest
from sqlalchemy import select

from tutor.deck import kids2
from tutor.engine import Move, make_game
from tutor.engine.shedding import extreme_witness
from tutor.lessons import LESSONS
from tutor.lessons.base import move_token
from tutor.lessons.runner import PLAY, PUPIL, LessonRun
from tutor.models import AttemptRecord, SkillRecord
from tutor.skill_model import progress
from tutor.text import say
from tutor.web import db

DECK = kids2()
NUMBERS = [c for c in DECK.cards if not c.is_special]


def english(text) -> str:
    return say(text, "en")


def pupil_turn(game_id: str, seed: int, want) -> tuple[LessonRun, object]:
    """A run at the pupil's turn (questions closed) where ``want(state)`` holds, searching the seeds."""
    lesson = LESSONS[game_id]
    for offset in range(200):
        run = LessonRun.start(lesson, 2, {}, ["beginner"], seed + offset, 0)
        run.skip_intro(lesson, {}, 0)
        for _ in range(30):
            while run.drill.question:
                run.close_question(lesson, {}, 0)
            state = run.game_state()
            if run.stage != PLAY or state.current_player != PUPIL:
                break
            if want(state):
                return run, state
            run.move(move_token(state.legal_moves()[-1]), lesson, {}, 0)  # draw or pass, and look again
    raise AssertionError("no such position in 200 seeds")


def refused_card(state):
    """A number card of the pupil's hand that the rules refuse on the top card."""
    top = state.top
    if top.is_special or state.phase != "play":
        return None
    return next(
        (
            c
            for c in sorted(state.hands[PUPIL])
            if not DECK[c].is_special and not state.is_legal(Move("play", PUPIL, (c,)))
        ),
        None,
    )


@pytest.mark.parametrize(
    "game_id, skill",
    [
        ("crazy-banana-tiervenner", "tens_friends"),
        ("crazy-banana-overslag", "estimate_sum"),
        ("crazy-banana-extreme", "exact_sum"),
    ],
)
def test_a_refused_card_is_explained_with_numbers_and_recorded_and_nothing_is_played(game_id, skill):
    run, state = pupil_turn(game_id, 1, refused_card)
    lesson = LESSONS[game_id]
    card = refused_card(state)
    before = run.to_dict()
    attempt = run.move(f"play:{card}:", lesson, {}, 1000)
    told = run.current_told()
    assert told is not None and not told.correct and told.skill == skill
    message = english(told.told)
    assert (
        str(
            DECK[card].top
            if game_id.endswith("tiervenner")
            else DECK[card].circled_sum
            if game_id.endswith("overslag")
            else max(DECK[card].circled)
        )
        in message
    )
    assert "Choose again" in message
    assert run.moves == before["moves"] and run.state == before["state"]  # nothing was played
    assert attempt.skill == skill and not attempt.correct and attempt.first_try and attempt.readable
    assert attempt.question["answer"] == "choice" and attempt.typed == f"play:{card}:"
    assert {c["card"] for c in attempt.question["choices"] if "card" in c} == set(state.hands[PUPIL])
    assert attempt.choices == len(state.hands[PUPIL])
    legal = next(m for m in state.legal_moves() if m.kind != "call_one_card")
    second = run.move(move_token(legal), lesson, {}, 2000)
    assert len(run.moves) > len(before["moves"])  # the second choice was played
    assert second is None or not second.first_try  # a retry, not a first try


@pytest.mark.parametrize("game_id", ["crazy-banana-tiervenner", "crazy-banana-extreme"])
def test_a_card_choices_right_buttons_are_the_cards_the_rules_accept_and_set_the_chance_of_a_lucky_tap(game_id):
    run, state = pupil_turn(game_id, 1, refused_card)
    lesson = LESSONS[game_id]
    attempt = run.move(f"play:{refused_card(state)}:", lesson, {}, 1000)

    def is_accepted(card: int) -> bool:
        move = Move("play", PUPIL, (card,))
        verdict = lesson.judge(state, PUPIL, move)
        return verdict.correct if verdict is not None else state.is_legal(move)

    accepted = {card for card in state.hands[PUPIL] if is_accepted(card)}
    right = {c["card"] for c in attempt.question["choices"] if c["value"] in attempt.question["check"]["expected"]}
    assert right == accepted and attempt.question["check"]["expected"]
    share = progress.tap_share(attempt.question)
    assert share == pytest.approx(len(accepted) / len(attempt.question["choices"]))
    assert progress.drill_level(attempt.kind, attempt.question) is None  # a card choice: no drill level


def test_tens_friends_are_told_both_ways_with_the_sum():
    lesson = LESSONS["crazy-banana-tiervenner"]
    game = make_game("crazy-banana-tiervenner", 2)
    state = game.new_state()
    state.apply(state.chance_move(random.Random(3)))
    top = state.top
    for card in NUMBERS:
        if card.colour == state.colour or top.is_special:
            continue
        state.hands[PUPIL] = [card.id]
        judged = lesson.judge(state, PUPIL, Move("play", PUPIL, (card.id,)))
        assert judged.correct == (card.top + top.top == 10) == state.is_legal(Move("play", PUPIL, (card.id,)))
        total = card.top + top.top
        assert f"{top.top} + {card.top} = {total if total != 10 else 10}" in english(judged.told)


@pytest.mark.parametrize("game_id", ["crazy-banana-overslag", "crazy-banana-extreme"])
def test_the_lesson_and_the_rules_agree_on_every_pair_of_number_cards(game_id):
    """Exhaustive: every number card on every number card of another colour."""
    lesson = LESSONS[game_id]
    game_class = type(make_game(game_id, 2))
    for mine, top in itertools.product(NUMBERS, NUMBERS):
        if mine.colour == top.colour or mine.id == top.id:
            continue
        allowed = game_class.vri_witness(mine.id, top.id) is not None
        fake = type("State", (), {"colour": top.colour})()
        judged = lesson.judge_maths(fake, Move("play", PUPIL, (mine.id,)), mine, top)
        assert judged.correct == allowed, (mine.id, top.id)
        if (
            game_id.endswith("extreme")
            and allowed
            and extreme_witness(mine.circled, top.circled)[0] == "prime_above_mean"
        ):
            assert judged.skill == "primes"


def test_multimatch_pairs_are_made_by_picking_two_cards_and_a_wrong_product_is_explained():
    lesson = LESSONS["multimatch"]

    def wrong_pair(state):
        if state.top.is_special or state.phase != "play":
            return None
        hand = [c for c in sorted(state.hands[PUPIL]) if not DECK[c].is_special]
        return next(
            ((a, b) for a, b in itertools.permutations(hand, 2) if DECK[a].top * DECK[b].top not in state.top.circled),
            None,
        )

    run, state = pupil_turn("multimatch", 11, wrong_pair)
    first, second = wrong_pair(state)
    run.pick(first, lesson)
    run.pick(second, lesson)
    run.pick(second, lesson)  # put back
    assert run.turn.picked == [first]
    run.pick(second, lesson)
    attempt = run.play_picked(lesson, {}, 500)
    told = english(run.current_told().told)
    product = DECK[first].top * DECK[second].top
    assert f"{DECK[first].top} × {DECK[second].top} = {product}" in told and "Choose again" in told
    assert attempt.skill == "multiply" and not attempt.correct
    assert run.turn.picked == [first, second]  # kept, so the pupil can change one


def test_no_list_of_every_pair_is_offered():
    lesson = LESSONS["multimatch"]
    run, state = pupil_turn("multimatch", 5, lambda s: any(m.kind == "play_pair" for m in s.legal_moves()))
    assert not [c for c in lesson.choices(state, PUPIL) if c.token.startswith("play_pair")]


def test_show_me_what_i_can_play_is_a_hint_counted_on_the_next_choice():
    run, state = pupil_turn("crazy-banana-tiervenner", 21, refused_card)
    lesson = LESSONS["crazy-banana-tiervenner"]
    run.show_what_I_can_play()
    run.show_what_I_can_play()  # asking twice is one hint
    assert run.turn.hints == 1 and lesson.playable(state, PUPIL) == {
        c for m in state.legal_moves() if m.kind == "play" for c in m.cards
    }
    attempt = run.move(f"play:{refused_card(state)}:", lesson, {}, 0)
    assert attempt.hints_used == 1


def test_through_the_routes_every_card_is_a_button_and_a_refusal_is_stored_for_the_skill(
    app, guest, client, fixed_deal
):
    fixed_deal(1)
    guest.sign_in()
    run_id = guest.start("crazy-banana-tiervenner")
    client.post(f"/runs/{run_id}/skip-intro")
    _, state, card = guest.play_until(app, run_id, refused_card)
    page = client.get(f"/runs/{run_id}").get_data(as_text=True)
    for hand_card in state.hands[PUPIL]:
        assert f'value="play:{hand_card}:"' in page  # every card can be chosen
    page = client.post(f"/runs/{run_id}/move", data={"move": f"play:{card}:"}, follow_redirects=True).get_data(
        as_text=True
    )
    assert "told-refused" in page and "Choose again" in page
    with app.app_context():
        row = db.session().scalar(select(AttemptRecord))
        assert (
            row.skill == "tens_friends"
            and not row.correct
            and row.first_try
            and row.question_kind == "choice:tens_friend"
        )
        assert row.feedback and "not 10" in say(row.feedback[0])
        assert db.session().scalar(select(SkillRecord)).attempts == 1
    page = client.post(f"/runs/{run_id}/show-playable", follow_redirects=True).get_data(as_text=True)
    assert "card-button playable" in page or "None of your cards can be played now" in page


def test_a_forged_card_not_in_the_hand_is_not_judged_or_recorded():
    run, state = pupil_turn("crazy-banana-tiervenner", 31, refused_card)
    lesson = LESSONS["crazy-banana-tiervenner"]
    stranger = next(c.id for c in NUMBERS if c.id not in state.hands[PUPIL] and c.id != state.top.id)
    from tutor.lessons.runner import LessonError

    with pytest.raises(LessonError):
        run.move(f"play:{stranger}:", lesson, {}, 0)
    assert run.turn.told is None and run.turn.tries == 0
