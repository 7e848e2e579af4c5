"""The War-like games tell every outcome with its numbers and let the pupil make the war's maths decision.

Calculation War, MultiWar, TripleSmart and TripleSmart: Extreme on hand-made positions with two
and four players: each round result names what was compared and who takes how many cards; the
card that won is the one marked; in a Calculation War war the best card left is the rule,
and the lesson judges it like the engine; a TripleSmart round is never skipped when two special
cards decide the next one; a typed expression the rules refuse is told with its numbers.
"""

from __future__ import annotations

import itertools
import re

import pytest

from tests.test_calculation_war import dealt as calculation_war_deal
from tests.test_calculation_war import set_hands
from tests.test_multiwar import deal as multiwar_deal
from tests.test_multiwar import n, turn_all
from tests.test_triplesmart import KOCHA, submit
from tests.test_triplesmart import deal as triplesmart_deal
from tutor.deck import kids2
from tutor.engine import Move
from tutor.engine.calculation_war import war_sum
from tutor.lessons import LESSONS
from tutor.lessons.runner import PLAY, PUPIL, LessonRun
from tutor.lessons.war_family import last_round_zone
from tutor.text import say

DECK = kids2()
NUMBER_CARDS = list(DECK.number_card_ids)


def english(text) -> str:
    """A Text as the English page shows it (fields that are Texts filled, the plural chosen by ``num``)."""
    return say(text, "en")


def story(game_id, state) -> list[str]:
    return [english(line) for line in LESSONS[game_id].round_story(state, PUPIL, [])]


def total(card_id) -> int:
    return DECK[card_id].circled_sum


def by_sum() -> list[int]:
    """Number cards with distinct sums, lowest first."""
    seen, cards = set(), []
    for card_id in sorted(NUMBER_CARDS, key=total):
        if total(card_id) not in seen:
            seen.add(total(card_id))
            cards.append(card_id)
    return cards


def tied_groups() -> list[list[int]]:
    groups: dict[int, list[int]] = {}
    for card_id in NUMBER_CARDS:
        groups.setdefault(total(card_id), []).append(card_id)
    return [cards for cards in groups.values() if len(cards) > 1]


def play_round(state, cards):
    for player, card_id in enumerate(cards):
        state.apply(Move("play", player, (card_id,)))


# --- Calculation War: round results -----------------------------------------------------------------------
def test_two_players_the_pupils_winning_sum_and_the_cards_taken_are_told():
    state = calculation_war_deal(2)
    ordered = by_sum()
    mine, theirs = ordered[-1], ordered[0]
    set_hands(state, [[mine] + ordered[1:5], [theirs] + ordered[5:9]])
    play_round(state, [mine, theirs])
    assert story("calculation-war", state) == [
        f"Your {total(mine)} beats {total(theirs)}.",
        "You win round 1 and take the 2 cards!",
    ]


def test_two_players_the_computers_winning_sum_beats_yours():
    state = calculation_war_deal(2)
    ordered = by_sum()
    mine, theirs = ordered[0], ordered[-1]
    set_hands(state, [[mine] + ordered[1:5], [theirs] + ordered[5:9]])
    play_round(state, [mine, theirs])
    assert story("calculation-war", state) == [
        f"Computer 1's {total(theirs)} beats your {total(mine)}.",
        "Computer 1 wins round 1 and takes the 2 cards.",
    ]


def test_four_players_the_card_that_won_is_named_and_marked_not_its_teammate():
    """The bug: Computer 3's 269 won, but the result named Computer 1 and marked both 'won'."""
    state = calculation_war_deal(4)
    ordered = by_sum()
    laid = [ordered[10], ordered[20], ordered[5], ordered[-1]]  # you, computer 1, your partner, computer 3 (the best)
    hands = [[laid[p]] + ordered[30 + 4 * p : 34 + 4 * p] for p in range(4)]
    set_hands(state, hands)
    play_round(state, laid)
    lines = story("calculation-war", state)
    assert (
        lines[0] == f"Computer 3's {total(laid[3])} beats your {total(laid[0])}. It also beats {total(laid[2])}."
    )  # not its teammate Computer 1's card: a team's cards are the team's
    assert lines[1] == "Computer 3 and Computer 1 win round 1 and take the 4 cards."
    zone = last_round_zone(LESSONS["calculation-war"], state, PUPIL)[0]
    assert [row.highlight for row in zone.rows] == [False, False, False, True]
    assert state.last_round["leaders"] == [3] and state.last_round["winners"] == [1, 3]


def test_four_players_your_partners_card_wins_for_your_team():
    state = calculation_war_deal(4)
    ordered = by_sum()
    laid = [ordered[10], ordered[20], ordered[-1], ordered[5]]
    set_hands(state, [[laid[p]] + ordered[30 + 4 * p : 34 + 4 * p] for p in range(4)])
    play_round(state, laid)
    lines = story("calculation-war", state)
    assert lines == [  # the partner does not beat you: its card is your team's
        f"Your partner Computer 2 beats {total(laid[1])} and {total(laid[3])} with {total(laid[2])}.",
        "Your team wins round 1 and takes the 4 cards!",
    ]
    zone = last_round_zone(LESSONS["calculation-war"], state, PUPIL)[0]
    assert [row.highlight for row in zone.rows] == [False, False, True, False]


def war_position(players=2):
    """A Calculation War state in a war: you and computer 1 laid equal sums; your hand holds distinct sums."""
    state = calculation_war_deal(players)
    a, b = tied_groups()[0][:2]
    ordered = [c for c in by_sum() if total(c) != total(a)]
    hands = [[a] + ordered[40:44], [b] + ordered[:4]] + [
        [ordered[10 + 5 * p]] + ordered[50 + 4 * p : 54 + 4 * p] for p in range(players - 2)
    ]
    set_hands(state, hands)
    laid = [a, b] + [ordered[10 + 5 * p] for p in range(players - 2)]
    play_round(state, laid)
    assert state.wars == 1 and state.current_player == PUPIL
    return state, a


def test_a_war_is_told_with_the_tied_sum_while_it_is_fought_and_after():
    state, a = war_position()
    assert story("calculation-war", state) == [f"War! You and Computer 1 laid the same sum, {total(a)}."]
    mine = next(m.cards[0] for m in state.legal_moves())
    theirs = max(state.hands[1], key=total)
    play_round(state, [mine, theirs])
    lines = story("calculation-war", state)
    assert lines[0] == f"War! You and Computer 1 laid the same sum, {total(a)}."
    assert lines[1] == f"Your {total(mine)} beats {total(theirs)}."
    assert lines[2] == "You win round 1 and take the 4 cards!"
    assert lines[3] == "Computer 1 also loses the 3 cards left in their hand."


# --- Calculation War: the best card left in a war ------------------------------------------------------------------
def test_the_war_card_is_the_best_card_left_the_next_best_of_the_five():
    """The source (000, Calculation War): "Spillerne skal da legge ut sine nest beste kort."

    The players lay their next-best cards: with the best of the five laid in the tie, the next best is the best card
    left in the hand, the highest sum of the four (games.md), not the second-highest of the four.
    """
    five = list(reversed(by_sum()[-5:]))  # the five sums, best first
    state = calculation_war_deal(2)
    twin = tied_groups()[0]
    others = [c for c in by_sum() if total(c) != total(twin[0])]
    set_hands(state, [[twin[0], *others[-4:]], [twin[1], *others[:4]]])
    play_round(state, [twin[0], twin[1]])
    assert state.wars == 1
    best_left = max(state.hands[PUPIL], key=total)
    assert [m.cards[0] for m in state.legal_moves()] == [best_left]
    assert war_sum([five[1], five[2], five[3], five[4]]) == total(five[1])  # the second-best of the five
    assert war_sum([five[3], five[1]]) == total(five[1])
    assert war_sum([five[4]]) == total(five[4])
    high_twin = max(tied_groups(), key=lambda group: total(group[0]))
    assert war_sum([high_twin[0], high_twin[1], by_sum()[0]]) == total(high_twin[0])  # two share the best: either


def test_the_lesson_refuses_another_war_card_with_the_sums_and_records_it():
    state, _ = war_position()
    lesson = LESSONS["calculation-war"]
    hand = sorted(state.hands[PUPIL], key=total, reverse=True)
    right, wrong = hand[0], hand[1]
    judged = lesson.judge(state, PUPIL, Move("play", PUPIL, (wrong,)))
    sums = [total(c) for c in hand]
    listing = f"{sums[0]}, {sums[1]}, {sums[2]} and {sums[3]}"
    assert not judged.correct and judged.skill == "estimate_sum" and judged.kind == "war_card"
    assert (
        english(judged.told)
        == f"In a war you lay the best card you have left: your cards add up to {listing}, so lay the {sums[0]}."
    )
    judged = lesson.judge(state, PUPIL, Move("play", PUPIL, (right,)))
    assert (
        judged.correct
        and english(judged.told)
        == f"Your cards add up to {listing}: in a war you lay the best card you have left, the {sums[0]}."
    )


def test_outside_a_war_any_card_is_laid_without_a_judgement():
    state = calculation_war_deal(2)
    lesson = LESSONS["calculation-war"]
    assert all(
        lesson.judge(state, PUPIL, Move("play", PUPIL, (c,))) is None and state.is_legal(Move("play", PUPIL, (c,)))
        for c in state.hands[PUPIL]
    )


def test_engine_and_lesson_agree_on_every_war_card_of_every_small_hand():
    """Exhaustive over every hand of one to four cards from a pool with tied sums."""
    state, a = war_position()
    lesson = LESSONS["calculation-war"]
    groups = [g for g in tied_groups() if total(g[0]) != total(a)]
    pool = (
        groups[0][:2]
        + groups[1][:2]
        + [c for c in by_sum() if total(c) not in {total(a), total(groups[0][0]), total(groups[1][0])}][20:24]
    )
    checked = 0
    for size in range(1, 5):
        for hand in itertools.combinations(pool, size):
            set_hands(state, [list(hand), list(state.hands[1])])
            legal = {c for c in hand if state.is_legal(Move("play", PUPIL, (c,)))}
            best = max(total(c) for c in hand)  # the rule, written out again
            assert legal == {c for c in hand if total(c) == best}
            for card_id in hand:
                judged = lesson.judge(state, PUPIL, Move("play", PUPIL, (card_id,)))
                if size == 1:
                    assert judged is None and legal == {card_id}
                else:
                    assert judged.correct == (card_id in legal), (hand, card_id)
                    assert all(str(total(c)) in english(judged.told) for c in hand)
                checked += 1
    assert checked == sum(size * len(list(itertools.combinations(pool, size))) for size in range(1, 5))


def test_the_computer_players_lay_their_best_card_left_in_a_war():
    from tutor.engine.calculation_war import BeginnerBot, StrongBot
    from tutor.engine.play import bot_rng

    state, _ = war_position()
    state.apply(next(iter(state.legal_moves())))
    hand = state.hands[1]
    for bot in (StrongBot(), BeginnerBot()):
        for seed in range(20):
            move = bot.choose(state.player_view(1), state.legal_moves(), bot_rng(seed, 1))
            assert total(move.cards[0]) == war_sum(hand)


def test_through_the_runner_a_refused_war_card_is_told_and_stored_for_estimate_sum():
    state, _ = war_position()
    lesson = LESSONS["calculation-war"]
    run = LessonRun.start(lesson, 2, {}, ["strong"], 1, 0)
    run.stage, run.state = PLAY, state.to_dict()
    wrong = sorted(state.hands[PUPIL], key=total)[-2]
    attempt = run.move(f"play:{wrong}:", lesson, {}, 100)
    assert attempt.skill == "estimate_sum" and not attempt.correct and attempt.first_try
    assert run.state == state.to_dict() and "so lay the" in english(run.current_told().told)
    right = max(state.hands[PUPIL], key=total)
    attempt = run.move(f"play:{right}:", lesson, {}, 200)
    assert attempt.correct and not attempt.first_try and run.current_told().correct
    assert run.game_state().rounds == 1  # the war was fought to its end


# --- MultiWar --------------------------------------------------------------------------------------------------------
def test_multiwar_two_players_products_are_told():
    state = multiwar_deal(2, [[n(7), n(8)], [n(6), n(9)]])
    turn_all(state)
    assert story("multiwar", state) == ["Your 7 × 8 = 56 beats 6 × 9 = 54.", "You win round 1 and take the 4 cards!"]


def test_multiwar_four_players_name_the_winning_product_and_its_team():
    state = multiwar_deal(
        4, [[n(2), n(3), n(4), n(5)], [n(6), n(7), n(9), n(8)]]
    )  # you 2 × 3, partner 4 × 5; computer 1 6 × 7, computer 3 9 × 8
    turn_all(state)
    lines = story("multiwar", state)
    assert lines == [
        "Computer 3's 9 × 8 = 72 beats your 2 × 3 = 6. It also beats 4 × 5 = 20.",
        "Computer 3 and Computer 1 win round 1 and take the 8 cards.",
    ]
    zone = last_round_zone(LESSONS["multiwar"], state, PUPIL)[0]
    assert [row.highlight for row in zone.rows] == [False, False, False, True]


def test_multiwar_four_players_your_partner_does_not_beat_you():
    state = multiwar_deal(
        4, [[n(2), n(3), n(9), n(8)], [n(6), n(7), n(4), n(5)]]
    )  # you 2 × 3, partner 9 × 8; computer 1 6 × 7, computer 3 4 × 5
    turn_all(state)
    assert story("multiwar", state) == [
        "Your partner Computer 2 beats 6 × 7 = 42 and 4 × 5 = 20 with 9 × 8 = 72.",
        "Your team wins round 1 and takes the 8 cards!",
    ]


def test_multiwar_a_war_and_two_special_cards_are_told():
    state = multiwar_deal(
        2, [[n(3), n(8), n(5), n(5, 1), KOCHA[0], KOCHA[1]], [n(4), n(6), n(7), n(7, 1), n(1), n(2)]]
    )  # war: two face down, two turned
    turn_all(state)
    assert story("multiwar", state) == ["War! You and Computer 1 have the same product, 24."]
    turn_all(state)
    lines = story("multiwar", state)
    assert lines[0] == "War! You and Computer 1 have the same product, 24."
    assert lines[1:] == [
        "Your two special cards beat 1 × 2 = 2.",
        "You win round 1 and take the 12 cards!",
    ]  # 4 + 4 face down + 4 turned


# --- TripleSmart -----------------------------------------------------------------------------------------------------
def test_triplesmart_each_players_expression_value_and_distance_are_told():
    state = triplesmart_deal(2, [[n(1), n(2), n(3)], [n(9), n(9, 1), n(9, 2)]], [n(7)])
    submit(state, 0, [n(1), n(2), n(3)], "1+2+3")
    submit(state, 1, [n(9)], "9")
    lines = story("triplesmart", state)
    assert lines[:4] == [
        "You wrote 1 + 2 + 3 = 6: 1 away from the target 7.",
        "Computer 1 used just a 9: 2 away from the target 7.",
        "You are the closest to 7.",
        "You win round 1 and take the 7 cards!",
    ]
    assert lines[4].startswith("The best you could reach was 6")


def test_triplesmart_four_players_every_expression_and_the_winning_team():
    state = triplesmart_deal(
        4,
        [[n(1), n(2), n(3), n(4), n(5), n(6)], [n(7), n(8), n(9), n(1, 1), n(2, 1), n(3, 1)]],
        [n(9, 1)],
        game_id="triplesmart-extreme",
    )
    for player, cards, text in (
        (0, [n(1), n(2)], "1+2"),
        (1, [n(7), n(8)], "8-7"),
        (2, [n(4), n(5)], "4+5"),
        (3, [n(1, 1), n(2, 1)], "1*2"),
    ):
        submit(state, player, cards, text)
    lines = story("triplesmart-extreme", state)
    assert lines[:6] == [
        "You wrote 1 + 2 = 3: 6 away from the target 9.",
        "Computer 1 wrote 8 − 7 = 1: 8 away from the target 9.",
        "Computer 2 wrote 4 + 5 = 9: exactly the target 9.",
        "Computer 3 wrote 1 × 2 = 2: 7 away from the target 9.",
        "Computer 2 is the closest to 9.",
        "Your team wins round 1 and takes the 13 cards!",
    ]
    zone = last_round_zone(LESSONS["triplesmart-extreme"], state, PUPIL)[0]
    assert [row.highlight for row in zone.rows] == [False, False, True, False]


def test_triplesmart_a_war_is_told_with_both_distances_while_it_is_fought():
    state = triplesmart_deal(2, [[n(1), n(2), n(3)], [n(9), n(9, 1), n(9, 2)]], [n(6)])
    submit(state, 0, [n(1), n(2)], "1+2")
    submit(state, 1, [n(9)], "9")
    assert state.wars == 1 and state.current_player == PUPIL
    assert story("triplesmart", state) == [
        "You wrote 1 + 2 = 3: 3 away from the target 6.",
        "Computer 1 used just a 9: 3 away from the target 6.",
        "War! You and Computer 1 are equally close to the target: 3 away.",
    ]


def kocha_round_after_yours():
    """Round 1 is yours to write; in round 2 computer 1 turns two special cards, so it is decided at once."""
    return triplesmart_deal(
        2,
        [
            [n(1), n(2), n(3), n(4), n(5), n(6), n(7), n(8), n(9)],
            [n(9, 1), n(9, 2), n(9, 3), KOCHA[0], KOCHA[1], n(8, 1), n(2, 1), n(3, 1), n(4, 1)],
        ],
        [n(7, 1), n(5, 1), n(6, 1)],
    )


def test_triplesmart_never_skips_your_round_when_two_special_cards_decide_the_next():
    lesson = LESSONS["triplesmart"]
    state = kocha_round_after_yours()
    run = LessonRun.start(lesson, 2, {}, ["strong"], 1, 0)
    run.stage, run.state = PLAY, state.to_dict()
    run.typed_move("1 + 2", "en", lesson, {}, 100)
    state = run.game_state()
    assert state.rounds == 2 and [r["round"] for r in state.recent_rounds] == [1, 2]
    lines = story("triplesmart", state)
    assert "You wrote 1 + 2 = 3: 4 away from the target 7." in lines  # your round, with its numbers
    assert (
        "Computer 1 turned two special cards." in lines
        and "Computer 1's two special cards win the battle at once." in lines
    )
    assert lines.index("You wrote 1 + 2 = 3: 4 away from the target 7.") < lines.index(
        "Computer 1 turned two special cards."
    )
    assert sum(line.startswith("Computer 1 wins round") for line in lines) == 2
    questions = lesson.after_round(state, PUPIL, __import__("random").Random(1), {})
    assert questions and set(questions[0].cards) >= {n(1), n(2)} and n(7, 1) in questions[0].cards  # about your round 1
    if run.drill.question:  # the pace allowed a question now: it is about your round
        assert n(7, 1) in run.current_question().cards


def test_the_triplesmart_intro_tells_a_round_two_special_cards_decided_before_you_could_play():
    lesson = LESSONS["triplesmart"]
    for seed in range(400):
        run = LessonRun.start(lesson, 2, {}, ["strong"], seed, 0)
        if run.game_state().rounds and run.game_state().last_round["winner_side"] is not None:
            break
    else:
        pytest.skip("no deal decided its first round at once")
    state = run.game_state()
    last = state.last_round
    first = english(lesson.intro_text(0, state, PUPIL))
    assert f"Round {last['round']} was over at once" in first and f"Now it is round {state.rounds + 1}" in first
    run.skip_intro(lesson, {}, 0)
    lines = story("triplesmart", run.game_state())
    assert any("turned two special cards" in line for line in lines)
    assert any(line.startswith(("Computer 1 wins round 1", "You win round 1")) for line in lines)


# --- TripleSmart: typed expressions the rules refuse ------------------------------------------------------------------
def typed(game_id, text, turns=None, targets=None):
    lesson = LESSONS[game_id]
    state = triplesmart_deal(2, turns or [[n(3), n(4), n(8)], [n(6), n(7), n(9)]], targets or [n(5)], game_id=game_id)
    run = LessonRun.start(lesson, 2, {}, ["strong"], 1, 0)
    run.stage, run.state = PLAY, state.to_dict()
    before = run.to_dict()
    attempt = run.typed_move(text, "en", lesson, {}, 100)
    return run, before, attempt


@pytest.mark.parametrize(
    "text,told",
    [
        (
            "8/2",
            "8/2 is a fraction, and in TripleSmart you only add and subtract: write the numbers on your cards as they "
            "are, 3, 4 and 8.",
        ),
        (
            "8/2 + 3",
            "8/2 is a fraction, and in TripleSmart you only add and subtract: write the numbers on your cards as they "
            "are, 3, 4 and 8.",
        ),
        ("4.0", "4.0 is not a number on your cards: use the numbers as they are, 3, 4 and 8."),
        ("6 + 3", "There is no 6 on your cards: your numbers are 3, 4 and 8."),
        (
            "4 + 4",
            "You used 4 2 times, but only 1 of your cards shows 4: each card counts once. Your numbers are 3, 4 and 8.",
        ),
    ],
)
def test_a_refused_expression_is_told_with_its_numbers_and_not_counted(text, told):
    run, before, attempt = typed("triplesmart", text)
    assert english(run.current_told().told) == told and not run.current_told().correct
    assert attempt is None  # a rule slip, not a maths answer
    assert run.state == before["state"] and run.moves == before["moves"]


def test_8_over_2_is_legal_in_extreme_where_dividing_is_allowed():
    run, before, attempt = typed("triplesmart-extreme", "8/2", turns=[[n(8), n(2), n(3)], [n(6), n(7), n(9)]])
    assert run.moves != before["moves"] and attempt is None and run.current_told() is None


def test_dividing_by_zero_in_extreme_is_a_maths_mistake_counted_for_four_ops():
    run, before, attempt = typed(
        "triplesmart-extreme", "8 / (3 - 3)", turns=[[n(8), n(3), n(3, 1)], [n(6), n(7), n(9)]]
    )
    assert (
        english(run.current_told().told)
        == "8 ÷ (3 − 3) divides by zero, and dividing by zero gives no number at all. Write another calculation."
    )
    assert attempt.skill == "four_ops" and not attempt.correct and attempt.kind == "choice:expression"
    assert run.state == before["state"]


# --- intros -----------------------------------------------------------------------------------------------------------
def test_the_multiwar_intro_shows_your_first_two_cards_and_multiplies_them(client, guest):
    guest.sign_in()
    run_id = guest.start("multiwar")
    page = client.get(f"/runs/{run_id}").get_data(as_text=True)
    assert "zone-intro" in page
    cards = re.findall(r"top number (\d)", page[page.index("zone-intro") :])
    assert (
        len(cards) == 2 or "Kocha" in page[page.index("zone-intro") :] or "banana" in page[page.index("zone-intro") :]
    )
    page = client.post(f"/runs/{run_id}/next-step", follow_redirects=True).get_data(as_text=True)
    assert "focus-top-number" in page
    if len(cards) == 2:
        a, b = map(int, cards)
        assert f"Your first two cards show {a} and {b}: {a} × {b} = {a * b}." in page
    page = client.post(f"/runs/{run_id}/skip-intro", follow_redirects=True).get_data(as_text=True)
    assert "zone-intro" not in page


def test_the_multiwar_intro_cards_are_the_ones_you_turn_first():
    lesson = LESSONS["multiwar"]
    run = LessonRun.start(lesson, 2, {}, ["strong"], 3, 0)
    shown = next(zone for zone in lesson.table(run.game_state(), PUPIL) if zone.key == "intro").rows[0].cards
    run.skip_intro(lesson, {}, 0)
    run.move("turn::", lesson, {}, 1)
    assert run.game_state().last_round["battles"][0]["turned"]["0"][:2] == shown


@pytest.mark.browser
def test_the_top_number_step_emphasises_the_top_number_where_it_counts_and_dims_it_where_it_does_not(
    browser, live_server
):
    """MultiWar multiplies the top numbers: its intro must not fade them as Calculation War's does."""
    from playwright.sync_api import expect

    from tests.browser_support import Visit

    visit = Visit(browser, live_server)
    page = visit.page
    page.goto(live_server + "/")
    page.get_by_role("button", name="English").click()
    page.locator("input#name").fill("Pupil top numbers")
    page.locator("input#name").press("Enter")
    page.wait_for_load_state("networkidle")

    def step_style(game_id: str, focus: str) -> tuple[str, str]:
        page.goto(f"{live_server}/lessons/{game_id}")
        page.locator("form.panel button.primary").click()
        page.wait_for_load_state("networkidle")
        steps = LESSONS[game_id].intro_steps()
        for number, step in enumerate(steps, 1):
            expect(page.locator("section#lesson p.step")).to_have_text(
                f"Step {number} of {len(steps)}"
            )  # retried until it shows
            if step.get("focus") == focus:
                break
            page.locator("form[action$='/next-step'] button").click()
        expect(page.locator(f"section#lesson.focus-{focus}")).to_have_count(1)
        return tuple(
            page.evaluate(
                "() => { const card = document.querySelector('section#lesson.focus-%s svg.card "
                ".top-band').closest('svg');"
                " return [getComputedStyle(card.querySelector('.top-band')).opacity, "
                "getComputedStyle(card.querySelector('.top-number')).fontSize]; }" % focus
            )
        )

    opacity, size = step_style("multiwar", "top-number")
    assert opacity == "1" and size == "46px"
    assert page.locator("section.zone-intro svg.card").count() == 2  # the real cards the step talks about
    opacity, _ = step_style("calculation-war", "top")
    assert opacity == "0.45"
    visit.close()


def test_a_round_result_with_its_numbers_reaches_the_page(client, guest, app, fixed_deal):
    fixed_deal(1)
    guest.sign_in()
    run_id = guest.start("multiwar")
    client.post(f"/runs/{run_id}/skip-intro")
    _, state, _ = guest.play_until(app, run_id, lambda state: state.rounds > 0)
    page = client.get(f"/runs/{run_id}").get_data(as_text=True)
    lines = story("multiwar", state)
    assert lines and all(line.replace("'", "&#39;") in page for line in lines)
    assert re.search(r"\d × \d = \d+", page)


def test_questions_after_a_round_hide_the_story_that_tells_their_answer():
    """The story says "Your 266 beats 176" and "4 away from the target": a question about them must hide it."""
    import random

    state = triplesmart_deal(2, [[n(1), n(2), n(3)], [n(9), n(9, 1), n(9, 2)]], [n(7)])
    submit(state, 0, [n(1), n(2)], "1+2")
    submit(state, 1, [n(9)], "9")
    for seed in range(4):
        assert all(q.hides_result for q in LESSONS["triplesmart"].after_round(state, PUPIL, random.Random(seed), {}))
    state = calculation_war_deal(2)
    a, b = sorted(by_sum(), key=total)[40:42]  # close sums: the exact sum is asked
    set_hands(state, [[a] + by_sum()[:4], [b] + by_sum()[4:8]])
    play_round(state, [a, b])
    questions = LESSONS["calculation-war"].after_round(state, PUPIL, random.Random(1), {})
    assert [q.kind for q in questions][:1] == ["exact_card_sum"] and all(q.hides_result for q in questions)


def test_a_tie_without_cards_for_a_war_is_told_with_its_sum():
    a, b = tied_groups()[0][:2]
    state = calculation_war_deal(2)
    set_hands(state, [[a], [b]])
    play_round(state, [a, b])
    assert story("calculation-war", state) == [
        f"You and Computer 1 laid the same sum, {total(a)}, and nobody has a card left for a war.",
        "Nobody wins round 1: everyone takes back their own cards.",
    ]
    state = calculation_war_deal(2)
    set_hands(state, [[a, by_sum()[0]], [b]])
    play_round(state, [a, b])
    assert story("calculation-war", state) == [
        f"You and Computer 1 laid the same sum, {total(a)}, but only you have a card left for a war.",
        "You win round 1 and take the 2 cards!",
    ]
