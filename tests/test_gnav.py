"""Gnav: the deck as data, the rules on hand-made deals, the computer players, the faces, and the lesson."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET

import pytest

from tutor import gnav_deck
from tutor.engine import CHANCE, IllegalMove, InvalidState, Move, make_game
from tutor.engine.gnav import BeginnerBot, GnavState, StrongBot, play_order, unseen_higher
from tutor.engine.play import simulate
from tutor.lessons import LESSONS
from tutor.lessons.base import WINNER_MARK
from tutor.lessons.runner import PUPIL, LessonRun
from tutor.text import LOCALES, Text, say

#: The first copy of each face (a card id is 21 * copy + the face's place from the top); the second is 21 more.
CUCKOO, DRAGOON, CAT, HORSE, HOUSE, TWELVE = 0, 1, 2, 3, 4, 5
NINE, SEVEN, FIVE, THREE, TWO, ONE, FOOL, POT, OWL, ZERO = 8, 10, 12, 14, 15, 16, 17, 18, 19, 20
SECOND = 21
SVG = "{http://www.w3.org/2000/svg}"


def dealt(hands: list[int], dealer: int = 0, deck_top: tuple = (), **options) -> GnavState:
    """A round just dealt through the real shuffle: ``hands`` by seat, ``deck_top`` next on the deck, then the rest."""
    game = make_game("gnav", len(hands), options)
    state = game.new_state()
    order = play_order(dealer, len(hands))
    first = [hands[p] for p in order] + list(deck_top)
    rest = [c for c in game.card_ids() if c not in first]
    state.apply(Move("shuffle", CHANCE, tuple(first + rest), str(dealer)))
    return state


def play(state: GnavState, *kinds: str) -> GnavState:
    """Each named move by whoever moves now."""
    for kind in kinds:
        state.apply(Move(kind, state.current_player))
    return state


def last_round(state: GnavState) -> dict:
    return state.history[-1]["events"][-1]


def changes(state: GnavState) -> dict:
    return {int(p): n for p, n in state.history[-1]["changes"].items() if n}


# --- the deck --------------------------------------------------------------------------------------------
def test_the_deck_has_two_of_each_of_21_cards_in_the_seeds_order():
    cards = [gnav_deck.card(i) for i in gnav_deck.deck()]
    assert len(cards) == 42 and gnav_deck.face_count() == 21
    assert [c.face.id for c in cards[:21]] == list(gnav_deck.order()) == [c.face.id for c in cards[21:]]
    assert sum(c.is_number for c in cards) == 26 and sum(not c.is_number for c in cards) == 16  # the seed's counts
    assert [gnav_deck.rank(c) for c in range(21)] == list(range(20, -1, -1))
    assert (gnav_deck.place(CUCKOO), gnav_deck.place(TWELVE), gnav_deck.place(ZERO)) == (1, 6, 21)


def test_the_low_card_order_option_puts_the_0_above_the_pot_and_the_fool_at_the_bottom():
    low = "fool_lowest"
    assert gnav_deck.order(low)[:17] == gnav_deck.order()[:17]
    assert gnav_deck.order(low)[17:] == ("0", "pot", "owl", "fool")
    assert (
        gnav_deck.rank(FOOL, low) == 0 < gnav_deck.rank(OWL, low) < gnav_deck.rank(POT, low) < gnav_deck.rank(ZERO, low)
    )
    assert gnav_deck.rank(ONE, low) > gnav_deck.rank(ZERO, low)


def test_only_the_five_top_pictures_refuse_a_trade():
    refusals = {gnav_deck.face_of(c): gnav_deck.refusal(c) for c in range(21) if gnav_deck.refusal(c)}
    assert refusals == {
        "cuckoo": "stop",
        "dragoon": "cut_off",
        "cat": "try_next",
        "horse": "try_next",
        "house": "try_next",
    }
    assert gnav_deck.is_fool(FOOL) and gnav_deck.is_fool(FOOL + SECOND) and not gnav_deck.is_fool(POT)


@pytest.mark.parametrize("bad", [-1, 42, True, "3", 3.0, None])
def test_an_id_the_deck_does_not_have_is_refused(bad):
    with pytest.raises(ValueError):
        gnav_deck.card(bad)


# --- the deal, the knock, trading ----------------------------------------------------------------------------
def test_the_dealer_deals_from_the_left_and_the_player_on_the_dealers_left_starts():
    state = dealt([SEVEN, NINE, THREE], dealer=2)
    assert state.hands == [[SEVEN], [NINE], [THREE]] and len(state.deck) == 39
    assert state.phase == "turn" and state.current_player == 0
    assert state.legal_moves() == [Move("trade", 0), Move("stand", 0)]


def test_a_trade_swaps_cards_with_the_player_on_the_left_and_the_turn_passes_left():
    state = play(dealt([THREE, NINE, FIVE], dealer=2), "trade")
    assert state.phase == "answer" and state.current_player == 1
    assert state.legal_moves() == [Move("accept", 1)]  # the 9 cannot refuse
    play(state, "accept")
    assert state.hands[:2] == [[NINE], [THREE]] and state.current_player == 1 and state.phase == "turn"


def test_the_dealer_trades_with_the_top_of_the_deck_and_the_old_card_lies_face_up():
    state = play(dealt([SEVEN, TWO], dealer=1, deck_top=(CAT,)), "stand", "trade")
    record = state.history[-1]
    assert record["events"][1] == {
        "seq": 2,
        "kind": "draw",
        "by": 1,
        "player": 1,
        "gave": TWO,
        "got": CAT,
    }
    assert last_round(state)["cards"] == {"0": SEVEN, "1": CAT} and last_round(state)["winner"] == 1
    assert state.discard[0] == TWO  # the dealer's own card, put down face up before the round was shown
    assert state.points == [3, 4]


def test_a_matador_the_dealer_draws_is_just_a_card_and_an_empty_deck_leaves_only_standing():
    state = play(dealt([SEVEN, TWO], dealer=1, deck_top=(CUCKOO,)), "stand", "trade")
    assert [e["kind"] for e in state.history[-1]["events"]] == ["stand", "draw", "end"]
    state = dealt([SEVEN, TWO], dealer=1)
    play(state, "stand")
    state.deck = []
    state.discard = [c for c in state.game.card_ids() if c not in (SEVEN, TWO)]
    assert state.legal_moves() == [Move("stand", 1)]
    with pytest.raises(IllegalMove):
        state.apply(Move("trade", 1))


def test_a_dealt_fool_may_knock_for_a_point_before_any_trading():
    state = dealt([FOOL, SEVEN, FOOL + SECOND], dealer=2)
    assert state.phase == "knock" and state.waiting == [0, 2] and state.current_player == 0
    assert state.legal_moves() == [Move("knock", 0), Move("quiet", 0)]
    play(state, "knock", "quiet")
    assert state.points == [4, 3, 3] and state.phase == "turn" and state.current_player == 0


def test_a_fool_received_by_trade_never_knocks():
    state = play(dealt([SEVEN, FOOL, THREE], dealer=2), "quiet", "trade", "accept")
    assert state.hands[0] == [FOOL] and state.phase == "turn"
    assert all(move.kind != "knock" for move in state.legal_moves())


# --- the matadors ----------------------------------------------------------------------------------------
def test_asking_the_cuckoo_stops_all_trading_its_holder_wins_and_everyone_else_loses_a_point():
    state = play(dealt([THREE, CUCKOO, NINE, CAT], dealer=3), "trade")
    assert state.legal_moves() == [Move("accept", 1), Move("call", 1)]
    play(state, "call")
    end = last_round(state)
    assert end["ended"] == "cuckoo" and end["winner"] == 1
    assert state.points == [2, 4, 2, 2] and state.rounds == 1 and state.dealer == 0


def test_the_dragoon_cuts_off_the_asker_who_keeps_the_card_and_the_dragoon_does_not_trade():
    state = play(dealt([THREE, DRAGOON, NINE, FIVE], dealer=3), "trade", "call")
    assert state.hands[0] == [THREE] and state.points[0] == 2
    assert state.phase == "turn" and state.current_player == 2  # the player on the Dragoon's left trades on
    assert state.exposed == {"1": DRAGOON}
    call = state.round["events"][-1]
    assert (call["kind"], call["refuses"], call["lost"], call["next"]) == ("call", "cut_off", 1, 2)


def test_a_dragoon_held_by_the_dealer_ends_the_trading():
    state = play(dealt([THREE, NINE, DRAGOON], dealer=2), "stand", "trade", "call")
    assert state.rounds == 1 and last_round(state)["winner"] == 2
    assert changes(state) == {1: -1, 2: 1}


def test_the_cat_horse_and_house_send_the_asker_on_to_the_next_player():
    state = play(dealt([THREE, CAT, HORSE, NINE, FIVE], dealer=4), "trade", "call")
    assert state.phase == "answer" and state.asker == 0 and state.asked == 2 and state.points[0] == 2
    play(state, "call")
    assert state.asked == 3 and state.points[0] == 1
    play(state, "accept")
    assert state.hands[0] == [NINE] and state.hands[3] == [THREE]
    assert state.phase == "turn" and state.current_player == 1  # the turn passes to the asker's left: the Cat
    calls = [e for e in state.round["events"] if e["kind"] == "call"]
    assert [(e["card"], e["next"]) for e in calls] == [(CAT, 2), (HORSE, 3)]


def test_past_the_dealer_nobody_is_left_to_try():
    state = play(dealt([FIVE, THREE, HOUSE], dealer=2), "stand", "trade", "call")
    assert state.hands[1] == [THREE] and state.points[1] == 2
    call = state.round["events"][-1] if state.round else None
    assert state.rounds == 0 and call["next"] is None
    assert state.phase == "turn" and state.current_player == 2  # the asker's left: the dealer


def test_points_never_go_below_zero():
    state = dealt([THREE, CAT, NINE], dealer=2, points=1)
    play(state, "trade", "call")
    assert state.points[0] == 0
    play(state, "accept")  # the dealer gives the 9
    assert state.points[0] == 0 and state.hands[0] == [NINE]
    state = dealt([THREE, CUCKOO, NINE], dealer=2, points=1)
    state.points = [0, 0, 1]
    play(state, "trade", "call")
    assert state.points == [0, 1, 0]
    assert last_round(state)["spared"] == [0]


# --- the end of a round ------------------------------------------------------------------------------------
def test_the_highest_card_wins_a_point_and_the_next_player_deals():
    state = play(dealt([SEVEN, TWELVE, THREE], dealer=2), "stand", "stand", "stand")
    end = last_round(state)
    assert end["ended"] == "showdown" and end["winner"] == 1 and end["highest"] == [1]
    assert state.points == [3, 4, 3] and state.dealer == 0 and state.rounds == 1
    assert sorted(state.discard[-3:]) == sorted([SEVEN, TWELVE, THREE])


def test_equal_highest_cards_draw_from_the_deck_until_one_is_highest():
    state = dealt([NINE, NINE + SECOND, THREE], dealer=2, deck_top=(FIVE, FIVE + SECOND, ONE, TWO))
    play(state, "stand", "stand", "stand")
    end = last_round(state)
    assert end["highest"] == [0, 1] and end["draws"] == [{"0": FIVE, "1": FIVE + SECOND}, {"0": ONE, "1": TWO}]
    assert end["winner"] == 1 and state.points == [3, 4, 3]


def test_a_tie_the_deck_cannot_decide_wins_nobody_the_point():
    state = dealt([NINE, NINE + SECOND], dealer=1)
    play(state, "stand")
    state.discard, state.deck = state.deck[1:], state.deck[:1]
    play(state, "stand")
    assert last_round(state)["winner"] is None and state.points == [3, 3] and state.is_over


def test_a_lone_fool_costs_its_holder_and_the_lowest_other_card_a_point():
    state = play(dealt([FOOL, TWELVE, ZERO, THREE], dealer=3), "quiet", "stand", "stand", "stand", "stand")
    end = last_round(state)
    assert end["lone_fool"] == 0 and end["lowest"] == [2]
    assert state.points == [2, 4, 2, 3]


def test_two_fools_cost_nothing():
    state = dealt([FOOL, TWELVE, FOOL + SECOND], dealer=2)
    play(state, "quiet", "quiet", "stand", "stand", "stand")
    assert last_round(state)["lone_fool"] is None and state.points == [3, 4, 3]


def test_the_game_ends_when_the_deck_cannot_deal_a_round_and_equal_points_share_the_win():
    result = simulate(make_game("gnav", 4), seed=3, bot_names=["strong", "beginner"])
    state = result.state
    assert state.is_over and state.ended_by == "deck" and len(state.deck) < 4 and result.accounted
    assert state.winners() == [p for p, n in enumerate(state.points) if n == max(state.points)]
    limited = simulate(make_game("gnav", 4, {"round_limit": 2}), seed=3).state
    assert limited.ended_by == "round_limit" and limited.rounds == 2


# --- what a player may see, and stored states ---------------------------------------------------------------
def test_others_trades_keep_their_cards_secret_and_a_silence_is_not_told():
    state = play(dealt([FOOL, NINE, FIVE], dealer=2), "quiet", "trade", "accept")
    outsider = state.player_view(2)
    trade = outsider["round"]["events"][-1]
    assert trade["kind"] == "trade" and "gave" not in trade and "got" not in trade
    assert all(e["kind"] != "quiet" for e in outsider["round"]["events"])
    assert state.player_view(0)["round"]["events"][-1]["got"] == NINE
    assert {FOOL, NINE} <= set(state.player_view(1)["seen"]) and FOOL not in outsider["seen"]


def test_who_decides_to_knock_stays_secret():
    state = dealt([SEVEN, FOOL, THREE], dealer=2)
    assert state.player_view(1)["to_move"] == 1 and state.player_view(0)["to_move"] is None


def test_impossible_stored_states_are_refused():
    state = play(dealt([THREE, CAT, NINE, FIVE], dealer=3), "trade", "call")
    good = state.to_dict()
    assert state.game.state_from_dict(copy.deepcopy(good)).to_dict() == good
    for corrupt in (
        lambda d: d["exposed"].update({"2": NINE}),  # a 9 shown as if it refused
        lambda d: d.update(asked=0),  # asked to trade by themselves
        lambda d: d.update(phase="knock", waiting=[1]),  # waiting to knock with the Cat
        lambda d: d["hands"][3].append(d["deck"].pop()),
        lambda d: d.update(seq=-1),
        lambda d: d.update(history=[{}]),
    ):
        data = copy.deepcopy(good)
        corrupt(data)
        with pytest.raises(InvalidState):
            state.game.state_from_dict(data)


def test_a_matador_refusal_without_one_is_illegal_and_changes_nothing():
    state = play(dealt([THREE, NINE, FIVE], dealer=2), "trade")
    before = state.to_dict()
    for bad in (Move("call", 1), Move("accept", 0), Move("trade", 1), Move("knock", 1)):
        with pytest.raises(IllegalMove):
            state.apply(bad)
        assert state.to_dict() == before


# --- the computer players ------------------------------------------------------------------------------------
def test_the_strong_player_trades_by_the_odds():
    low = dealt([SEVEN, ONE, THREE], dealer=2)
    assert unseen_higher(low.player_view(1)) == (32, 41)  # two each of the 16 kinds above the 1
    assert unseen_higher(low.player_view(0)) == (20, 41)
    assert StrongBot().choose(low.player_view(0), low.legal_moves(), None).kind == "stand"  # 20 of 41: not half
    play(low, "stand")
    assert StrongBot().choose(low.player_view(1), low.legal_moves(), None).kind == "trade"
    high = dealt([TWELVE, ONE, THREE], dealer=2)
    assert StrongBot().choose(high.player_view(0), high.legal_moves(), None).kind == "stand"


def test_the_strong_player_does_not_ask_a_matador_it_has_seen():
    state = dealt([TWO, CAT, NINE], dealer=2)
    view = state.player_view(0)
    assert StrongBot().choose(view, state.legal_moves(), None).kind == "trade"  # by the odds
    view["exposed"] = {"1": CAT}  # as if the Cat had refused someone before
    assert StrongBot().choose(view, state.legal_moves(), None).kind == "stand"


def test_every_computer_player_knocks_and_refuses_with_a_matador():
    for bot in (StrongBot(), BeginnerBot()):
        knock = dealt([FOOL, SEVEN], dealer=1)
        assert bot.choose(knock.player_view(0), knock.legal_moves(), None).kind == "knock"
        asked = play(dealt([THREE, CAT], dealer=1), "trade")
        assert bot.choose(asked.player_view(1), asked.legal_moves(), None).kind == "call"


# --- the faces ------------------------------------------------------------------------------------------------
@pytest.fixture
def request_context(app):
    with app.test_request_context(headers={"Accept-Language": "en"}):
        yield


def drawn(app, card_id: int) -> ET.Element:
    text = str(app.jinja_env.get_template("macros/cards.html").module.card_svg(gnav_deck.card(card_id), {}))
    return ET.fromstring(text.replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1))


@pytest.mark.usefixtures("request_context")
def test_every_face_is_a_picture_or_its_number_with_as_many_dots_and_no_words(app):
    drawings = {}
    for card_id in range(21):
        svg = drawn(app, card_id)
        card = gnav_deck.card(card_id)
        assert svg.get("viewBox") == "0 0 120 168" and svg.get("aria-hidden") == "true"
        texts = [t.text for t in svg.iter(f"{SVG}text")]
        dots = [c for c in svg.iter(f"{SVG}circle") if c.get("class") == "dot"]
        if card.is_number:
            assert texts == [str(card.face.number)] and len(dots) == card.face.number
        else:
            assert texts == [] and not dots
        drawings[card.face.id] = ET.tostring(svg, encoding="unicode")
    assert len(set(drawings.values())) == 21
    assert not re.search("[A-Za-z]{2,}</text>", "".join(drawings.values()))


def test_both_copies_share_one_cached_drawing(app):
    from tutor.web.assets import card_drawing

    with app.test_request_context():
        app.jinja_env.auto_reload = False
        first = card_drawing(gnav_deck.card(CAT), {})
        assert card_drawing(gnav_deck.card(CAT + SECOND), {}) is first


@pytest.mark.parametrize("locale", LOCALES)
def test_every_card_has_a_name_of_its_own_in_every_language(locale):
    names = {say(gnav_deck.card_name(c), locale) for c in range(21)}
    assert len(names) == 21


# --- the lesson ---------------------------------------------------------------------------------------------------
LESSON = LESSONS["gnav"]


def lesson_at(state: GnavState) -> LessonRun:
    """A lesson run whose game is ``state`` (the pupil is seat 0)."""
    run = LessonRun.start(LESSON, state.game.players, {}, ["strong"], seed=1, now_ms=0)
    run.state, run.stage = state.to_dict(), "play"
    return run


def said(lines, locale: str = "en") -> list[str]:
    return [say(line, locale) for line in lines]


def test_the_lesson_offers_three_to_six_players_and_stops_after_eight_rounds():
    assert list(LESSON.player_choices(make_game("gnav", 3))) == [3, 4, 5, 6]
    assert LESSON.lesson_options == {"round_limit": 8}


def test_a_refusal_without_a_matador_is_refused_with_the_card_and_the_asker():
    state = play(dealt([THREE, NINE, FIVE], dealer=1), "trade")  # player 2 asks the pupil on its left
    assert state.asked == PUPIL
    judged = LESSON.judge(state, PUPIL, Move("call", PUPIL))
    assert not judged.correct and judged.skill is None
    assert say(judged.told, "en") == (
        "Only the Cuckoo, the Dragoon, the Cat, the Horse and the House may refuse a trade. "
        "You have the 3, so you must give it to Computer 2."
    )
    labels = said(choice.label for choice in LESSON.choices(state, PUPIL))
    assert labels == ["Give your card to Computer 2", "Refuse the trade"]
    with_cat = play(dealt([CAT, NINE, FIVE], dealer=1), "trade")
    assert said(c.label for c in LESSON.choices(with_cat, PUPIL))[1] == "Say “Kiss!”"
    assert LESSON.judge(with_cat, PUPIL, Move("call", PUPIL)) is None


def test_the_dealers_trade_with_an_empty_deck_is_refused():
    state = dealt([SEVEN, TWO], dealer=0)
    play(state, "stand")
    state.discard, state.deck = state.discard + state.deck, []
    judged = LESSON.judge(state, PUPIL, Move("trade", PUPIL))
    assert not judged.correct and "empty" in say(judged.told, "en")
    assert say(LESSON.turn_narration(state, PUPIL), "en") == "You deal, and the deck is empty: you can only stand."


def test_every_call_is_told_with_the_card_and_what_it_cost():
    state = play(dealt([THREE, CAT, NINE, FIVE], dealer=3), "trade", "call")
    story = said(LESSON.round_story(state, PUPIL, []))
    assert story[:3] == [
        "“Kiss!” Computer 1 has the Cat.",
        "You keep your card and lose a point.",
        "You must try the next player, Computer 2.",
    ]
    cut = play(dealt([FIVE, THREE, DRAGOON, NINE], dealer=3), "stand", "trade", "call")
    assert said(LESSON.round_story(cut, PUPIL, [])) == [
        "You stand with the 5.",
        "“Cut off!” Computer 2 has the Dragoon.",
        "Computer 1 keeps their card and loses a point.",
        "The Dragoon does not trade: Computer 3 goes next.",
    ]
    stop = play(dealt([THREE, CUCKOO, NINE], dealer=2), "trade", "call")
    assert said(LESSON.round_story(stop, PUPIL, []))[:2] == [
        "“Stand for the Cuckoo!” Computer 1 has the Cuckoo.",
        "All trading stops: Computer 1 wins the round, and everyone else loses a point.",
    ]


def test_the_round_is_told_with_the_highest_card_the_new_points_and_the_lone_fool():
    state = play(dealt([FOOL, TWELVE, ZERO, THREE], dealer=3), "quiet", "stand", "stand", "stand", "stand")
    assert said(LESSON.round_story(state, PUPIL, [])) == [
        "You stand with the Fool.",
        "Computer 1 stands.",
        "Computer 2 stands.",
        "Computer 3 stands.",
        "The highest card is the 12: Computer 1 wins the round and now has 4 points.",
        "You are left with the only Fool: you lose a point.",
        "Computer 2 has the lowest of the other cards, the 0, and loses a point too.",
        "Round 2: you deal.",
    ]
    zones = LESSON.table(state, PUPIL)
    last = next(zone for zone in zones if zone.key == "last-round")
    assert [row.mark for row in last.rows] == [None, Text.in_context(WINNER_MARK), None, None]


def test_the_drills_ask_about_the_cards_the_pupil_has_not_seen():
    state = dealt([SEVEN, ONE, THREE], dealer=2)
    count = LESSON.before_move(state, PUPIL, None, {})[0]
    assert count.kind == "gnav_unseen_higher" and count.check["expected"] == "20"
    state.rounds = 1
    chance = LESSON.before_move(state, PUPIL, None, {})[0]
    assert chance.kind == "gnav_chance_higher" and chance.check["expected"] == "20/41"
    # a second round: the first round's 12, Cat and 3 lie face up, and the pupil now has the 7
    later = play(dealt([TWELVE, CAT, THREE], dealer=1, deck_top=(SEVEN, ONE, FIVE)), "stand", "stand", "stand")
    assert later.hands[PUPIL] == [SEVEN] and later.current_player == PUPIL
    assert LESSON.before_move(later, PUPIL, None, {})[0].check["expected"] == "9/19"  # 18 of the 38 unseen
    later.rounds = 2
    assert LESSON.before_move(later, PUPIL, None, {})[0].check["expected"] == "18"  # 20 less the 12 and the Cat
    played = play(dealt([SEVEN, TWELVE, THREE], dealer=2), "stand", "stand", "stand")
    compare = LESSON.after_round(played, PUPIL, None, {})[0]
    assert compare.kind == "compare_gnav" and compare.check["expected"] == ["12"] and compare.hides_result


def test_a_tie_is_told_with_every_card_drawn():
    state = dealt([NINE, NINE + SECOND, THREE], dealer=2, deck_top=(FIVE, FIVE + SECOND, ONE, TWO))
    play(state, "stand", "stand", "stand")
    assert said(LESSON.round_story(state, PUPIL, []))[3:] == [
        "Equal highest cards, the 9: you and Computer 1 each draw a card from the deck.",
        "You draw the 5.",
        "Computer 1 draws the 5.",
        "You draw the 1.",
        "Computer 1 draws the 2.",
        "The highest card drawn is the 2: Computer 1 wins the round and now has 4 points.",
        "Round 2: you deal.",
    ]


@pytest.mark.parametrize("locale", LOCALES)
def test_the_card_names_follow_each_countrys_game(locale):
    names = [say(gnav_deck.card_name(c), locale) for c in (CUCKOO, DRAGOON, HOUSE, SEVEN, POT)]
    assert (
        names
        == {
            "en": ["the Cuckoo", "the Dragoon", "the House", "the 7", "the Pot"],
            "nb": ["Gjøken", "Dragonen", "Huset", "sjueren", "Potten"],
            "sv": ["Göken", "Husaren", "Värdshuset", "sjuan", "Blompottan"],
            "it": ["il Cucù", "il Bragon", "l'Osteria", "il 7", "il Vaso"],
        }[locale]
    )


# --- homework ------------------------------------------------------------------------------------------------
def test_a_teacher_sets_gnav_as_homework_and_the_grid_shows_the_answers_evidence(app, staff):
    import csv
    import io

    from tests.conftest import run_id_in, run_record
    from tests.test_teacher import homework_form, take_a_step

    staff.teacher()
    teacher = app.test_client()
    staff.sign_in(teacher)
    school_class = staff.school_class(pupils=("Ada",))
    page = teacher.get(f"/teacher/classes/{school_class.public_id}/homework/new?game=gnav").get_data(as_text=True)
    offered = re.findall(r'name="gnav-players" value="(\d+)"( checked)?', page)
    assert offered == [("3", " checked"), ("4", ""), ("5", ""), ("6", "")]  # the lesson offers 3 to 6 players
    form = homework_form("gnav", **{"gnav-players": "3", "goal": "questions", "goal_count": "3"})
    made = teacher.post(f"/teacher/classes/{school_class.public_id}/homework/new", data=form)
    assert made.status_code == 302, made.get_data(as_text=True)[:500]
    ada = app.test_client()
    staff.sign_in_pupil(ada, school_class.code, "Ada")
    run_id = run_id_in(ada.post(f"/homework/{made.headers['Location'].rsplit('/', 1)[1]}/start").headers["Location"])
    ada.post(f"/runs/{run_id}/skip-intro")
    answered = set()
    for _ in range(300):  # the whole game (the deal is the pupil's own: how many questions of each skill varies)
        run = LessonRun.from_dict(run_record(app, run_id).data)
        if run.stage == "finished":
            break
        if run.drill.question and run.drill.open:
            answered.add(run.drill.question["skill"])
        take_a_step(ada, run_id, run)
    assert run.stage == "finished" and "probability" in answered  # offered at every turn to trade or stand
    grid = teacher.get(f"/teacher/classes/{school_class.public_id}/grid.csv").get_data().decode("utf-8-sig")
    header, row = list(csv.reader(io.StringIO(grid)))
    cells = dict(zip(header, row))
    names = {"probability": "Probability", "compare": "Compare numbers"}
    assert cells["Pupil"] == "Ada" and all(cells[f"{names[skill]}: level"] != "not started" for skill in answered)
