"""One conformance check that runs against every registered game."""

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.deck import kids2
from tutor.engine import CHANCE, GAMES, IllegalMove, InvalidState, Move, make_game
from tutor.engine.calculation_war import CalculationWarState
from tutor.engine.casino_war import CasinoWarState
from tutor.engine.classic_war import ClassicWarState
from tutor.engine.fraction_master import FractionMasterState
from tutor.engine.gnav import GnavState
from tutor.engine.multiwar import MultiWarState
from tutor.engine.play import chance_rng, replay, simulate
from tutor.engine.shedding import SheddingState
from tutor.engine.steal_war import StealWarState
from tutor.engine.strategy_war import StrategyWarState
from tutor.engine.three_traits import ThreeTraitsState
from tutor.engine.triplesmart import TripleSmartState
from tutor.engine.twenty_nine import TwentyNineState

GAME_SETUPS = [
    (game_id, players) for game_id, game in GAMES.items() for players in range(game.min_players, game.max_players + 1)
]


def for_kind(table: dict, game) -> object:
    """``table``'s entry for the game's kind of state: the nearest of its state classes that the table names.

    The tables below are keyed by state class, so a game on a state class they know (a new War
    variant) needs no entry, and a game with a state class of its own fails until it has one.
    """
    return next(table[kind] for kind in game.state_class.__mro__ if kind in table)


def every_game_has_an_entry_in(table: dict) -> list[str]:
    """The games that ``table`` knows nothing of (none, when the table is complete)."""
    return [game_id for game_id, game in GAMES.items() if not set(game.state_class.__mro__) & set(table)]


def random_playout(game, seed, max_moves=20_000):
    """Random legal moves for every player: the harshest test of the rules."""
    rng, state, moves = random.Random(seed), game.new_state(), []
    while not state.is_over and len(moves) < max_moves:
        move = (
            state.chance_move(chance_rng(seed, len(moves)))
            if state.current_player == CHANCE
            else rng.choice(state.legal_moves())
        )
        state.apply(move)
        moves.append(move)
    return state, moves


@pytest.mark.parametrize("game_id,players", GAME_SETUPS)
def test_random_games_end_with_every_card_accounted_for(game_id, players):
    for seed in range(5):
        state, moves = random_playout(make_game(game_id, players), seed)
        assert state.is_over, f"{game_id} seed {seed} did not end in {len(moves)} moves"
        assert sorted(state.card_ids()) == sorted(state.game.card_ids())
        assert state.winners()


@pytest.mark.parametrize("game_id,players", GAME_SETUPS)
def test_every_state_round_trips_through_a_plain_dict(game_id, players):
    game = make_game(game_id, players)
    state, moves = random_playout(game, seed=7, max_moves=300)
    replayed = game.new_state()
    for move in moves:
        rebuilt = game.state_from_dict(replayed.to_dict())
        assert rebuilt.to_dict() == replayed.to_dict()
        assert rebuilt.legal_moves() == replayed.legal_moves()
        replayed.apply(move)


@pytest.mark.parametrize("game_id,players", GAME_SETUPS)
def test_illegal_moves_raise_and_leave_the_state_unchanged(game_id, players):
    game = make_game(game_id, players)
    state, _ = random_playout(game, seed=3, max_moves=40)
    before = state.to_dict()
    for bad in (
        Move("play", 99, (0,)),
        Move("play", state.current_player, (10_000,)),
        Move("no-such-move", 0),
        Move("shuffle", CHANCE, (1, 2)),
    ):
        with pytest.raises(IllegalMove):
            state.apply(bad)
        assert state.to_dict() == before


# --- corrupt stored states ----------------------------------------------------------------------


def refuses_each(game, good: dict, corruptions: dict) -> None:
    """Every corruption (name -> a change made in place to a copy of the stored state ``good``) is refused."""
    for name, corrupt in corruptions.items():
        data = copy.deepcopy(good)
        corrupt(data)
        with pytest.raises(InvalidState):
            game.state_from_dict(data)
            pytest.fail(f"accepted {name}")


def card_lists(value):
    """Every list of card ids in a stored state, in order (the lists themselves, to change in place)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from card_lists(item)
    elif isinstance(value, list):
        if value and all(isinstance(item, int) and not isinstance(item, bool) for item in value):
            yield value
        else:
            for item in value:
                yield from card_lists(item)


def first_card_list(data):
    """The first non-empty card list of a stored state: every state opens with its piles or hands."""
    found = next(card_lists(data), None)
    assert found, "the stored state holds no list of card ids"
    return found


def corrupted(change):
    """A corruption: ``change`` edits a deep copy of the stored state in place."""

    def corrupt(data, game):
        data = copy.deepcopy(data)
        change(data, game)
        return data

    return corrupt


def grown(key: str, size: int):
    """``data[key][0]`` filled to ``size`` with number cards from the piles, so no card is lost or doubled."""

    def change(data, game):
        target = data[key][0]
        piles = [*data.get("draw_piles", []), *data.get("collection_piles", []), data.get("draw_pile", [])]
        for pile in piles:
            for card_id in [c for c in pile if not kids2()[c].is_special]:
                if len(target) < size:
                    pile.remove(card_id)
                    target.append(card_id)
        assert len(target) == size, "not enough number cards in the piles to grow the hand"

    return corrupted(change)


@corrupted
def fullest_hand_emptied(data, game):
    """A player still in the game with no cards (the cards go to the draw pile)."""
    fullest = max(data["hands"], key=len)
    data["draw_pile"].extend(fullest)
    fullest.clear()


@corrupted
def aside_grown(data, game):
    """War and its variants: a card of the fullest pile put aside (the deal sets aside only what does not split)."""
    data["aside"].append(max(data["piles"], key=len).pop(0))


@corrupted
def fullest_hand_discarded(data, game):
    """Strategy War: the fullest hand moved onto its discard (an empty hand beside a discard)."""
    fullest = max(range(len(data["hands"])), key=lambda p: len(data["hands"][p]))
    data["discards"][fullest].extend(data["hands"][fullest])
    data["hands"][fullest].clear()


@corrupted
def card_from_the_draw_pile_in_hand(data, game):
    """29: player 0 holds a card more than the turns drew (the hands grow only by drawing)."""
    data["hands"][0] = sorted([*data["hands"][0], data["draw_pile"].pop()])


@corrupted
def second_card_from_the_shoe(data, game):
    """Casino War: player 0 holds one more card from the shoe than the hand deals."""
    data["player_cards"][0].append(data["shoe"].pop())


@corrupted
def second_card_in_a_hand(data, game):
    """Gnav: player 0 holds one more card, from the deck or else the discard pile (a hand holds one card or none)."""
    data["hands"][0].append((data["deck"] or data["discard"]).pop())


#: A hand (or a battle's turned row, in games without hands) of a size the rules never deal, by state class.
WRONG_SIZE = {
    CalculationWarState: grown("hands", 6),
    MultiWarState: grown("turned", 4),
    SheddingState: fullest_hand_emptied,
    TripleSmartState: grown("turned", 5),
    FractionMasterState: grown("hands", 7),
    ClassicWarState: aside_grown,  # and Steal War's state, a ClassicWarState
    StrategyWarState: fullest_hand_discarded,
    CasinoWarState: second_card_from_the_shoe,
    TwentyNineState: card_from_the_draw_pile_in_hand,
    ThreeTraitsState: fullest_hand_emptied,
    GnavState: second_card_in_a_hand,
}

#: Whose turn it is, by the key each game stores it under (the first one present is corrupted).
TURN_KEYS = ("turn", "layer", "waiting")
#: The count every game keeps, by the key it stores it under.
COUNT_KEYS = ("rounds", "turns")


def first_key(data, keys):
    return next(key for key in keys if key in data)


def set_first(keys, value):
    return corrupted(lambda data, game: data.update({first_key(data, keys): value(data, game)}))


def no_seat(data, game):
    return [game.players] if isinstance(data[first_key(data, TURN_KEYS)], list) else game.players


CORRUPTIONS = {
    "nothing stored": lambda data, game: {},
    "a card twice": corrupted(lambda data, game: first_card_list(data).append(first_card_list(data)[0])),
    "a card not in the deck": corrupted(lambda data, game: first_card_list(data).__setitem__(0, 9999)),
    "a negative card id": corrupted(lambda data, game: first_card_list(data).__setitem__(0, -1)),
    "a card missing": corrupted(lambda data, game: first_card_list(data).pop()),
    "a hand of the wrong size": lambda data, game: for_kind(WRONG_SIZE, game)(data, game),
    "the turn with no seat": set_first(TURN_KEYS, no_seat),
    "a negative count": set_first(COUNT_KEYS, lambda data, game: -1),
    "a count as text": set_first(COUNT_KEYS, lambda data, game: str(data[first_key(data, COUNT_KEYS)])),
    "a count as true": set_first(COUNT_KEYS, lambda data, game: True),
    "a card id as text": corrupted(
        lambda data, game: first_card_list(data).__setitem__(0, str(first_card_list(data)[0]))
    ),
    "a card list as text": corrupted(lambda data, game: data.update({next(iter(data)): "0,1,2"})),
    "an unknown phase": corrupted(lambda data, game: data.update(phase="paused")),
}


def test_every_game_has_a_hand_of_the_wrong_size():
    assert every_game_has_an_entry_in(WRONG_SIZE) == []


@pytest.mark.parametrize(
    "game_id,players", [(game_id, players) for game_id, game in GAMES.items() for players in (2, game.max_players)]
)
def test_corrupt_states_are_refused(game_id, players):
    game = make_game(game_id, players)
    state, _ = random_playout(game, seed=5, max_moves=30)
    data = state.to_dict()
    assert game.state_from_dict(copy.deepcopy(data)).to_dict() == data  # the state itself is fine
    accepted = []
    for name, corrupt in CORRUPTIONS.items():
        try:
            game.state_from_dict(corrupt(data, game))
            accepted.append(name)
        except InvalidState:
            pass
    assert not accepted, f"{game_id} accepted {accepted}"


# --- what a player may see -----------------------------------------------------------------------

#: Card lists no player may see, by state class: the other players' hands and every face-down pile (a
#: player does not know their own face-down piles and pot either).
HIDDEN_ZONES = {
    CalculationWarState: ("hands", "draw_piles", "collection_piles"),
    MultiWarState: ("draw_piles", "collection_piles", "pot"),
    SheddingState: ("hands", "draw_pile"),
    TripleSmartState: ("draw_piles", "collection_piles", "pot", "target_pile"),
    FractionMasterState: ("hands", "draw_piles"),
    ClassicWarState: ("piles", "won", "down", "aside"),
    StealWarState: ("piles", "won", "down", "aside", "hands"),
    StrategyWarState: ("hands", "discards", "pot", "set_aside"),
    CasinoWarState: ("shoe", "burned", "discard"),
    TwentyNineState: ("hands", "draw_pile", "won", "discard"),
    ThreeTraitsState: ("hands", "draw_pile", "penalties"),
    GnavState: ("deck", "hands"),
}
#: A hidden card id c is replaced by MARK + c, a number no view can show by chance.
MARK = 100_000
SECRET = "secret"


def marked(state, viewer: int):
    """A copy of ``state`` with every card ``viewer`` may not know marked; how many were marked.

    Besides the hidden zones: a card laid face down this step in Calculation War, and in
    TripleSmart what another player submitted before the battle is decided.
    """
    copied, count = state.clone(), 0

    def mark(cards: list, keep=lambda card_id: False) -> None:
        nonlocal count
        for index, card_id in enumerate(cards):
            if not keep(card_id):
                cards[index], count = MARK + card_id, count + 1

    for name in for_kind(HIDDEN_ZONES, state.game):
        zone = getattr(copied, name)
        for owner, cards in enumerate(zone if zone and isinstance(zone[0], list) else [zone]):
            if name != "hands" or owner != viewer:
                mark(cards)
    if isinstance(state, CalculationWarState) and state.waiting:
        face_down = {
            cards[-1]
            for p, cards in enumerate(state.played)
            if p != viewer and p in state.contenders and p not in state.waiting and cards
        }
        for cards in copied.played:
            mark(cards, keep=lambda card_id: card_id not in face_down)
    for player, submitted in getattr(copied, "submissions", {}).items():
        if int(player) != viewer:
            mark(submitted["cards"])
            submitted.update(expression=SECRET, value=SECRET)
    return copied, count


def secrets_in(value, path="view"):
    """Where a marked card or a secret appears in a view (keys, values, nested anywhere)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from secrets_in(key, f"{path} key")
            yield from secrets_in(item, f"{path}[{key!r}]")
    elif isinstance(value, (list, tuple, set, frozenset)):
        for index, item in enumerate(value):
            yield from secrets_in(item, f"{path}[{index}]")
    elif isinstance(value, str) and SECRET in value or isinstance(value, int) and value >= MARK:
        yield f"{path} = {value!r}"


def test_every_game_says_what_is_hidden():
    assert every_game_has_an_entry_in(HIDDEN_ZONES) == []


@pytest.mark.parametrize("game_id,players", GAME_SETUPS)
def test_player_view_hides_other_hands(game_id, players):
    """No view shows a card its player may not know, anywhere: hands, piles, pots, records.

    Every card a player may not know is marked; the view of the marked state must show
    no marked card and be the same view as before: it cannot depend on the hidden cards.
    """
    game = make_game(game_id, players)
    rng, state, hidden = random.Random(11), game.new_state(), 0
    for ply in range(150):
        if state.is_over:
            break
        for viewer in range(players):
            secret, count = marked(state, viewer)
            view = secret.player_view(viewer)
            leaks = list(secrets_in(view))
            assert not leaks, f"{game_id}, player {viewer} at move {ply} sees hidden cards: {leaks[:5]}"
            assert view == state.player_view(viewer), f"{game_id}: the view depends on hidden cards"
            hidden += count
        state.apply(state.chance_move(chance_rng(11, ply)) if state.is_chance else rng.choice(state.legal_moves()))
    assert hidden, f"{game_id}: nothing was ever hidden, so nothing was tested"


@settings(max_examples=40, deadline=None)
@given(game_id=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10**9), data=st.data())
def test_a_seed_and_its_moves_replay_the_same_game(game_id, seed, data):
    game_class = GAMES[game_id]
    players = data.draw(st.integers(game_class.min_players, game_class.max_players))
    bots = data.draw(st.lists(st.sampled_from(sorted(game_class.bots)), min_size=1, max_size=players))
    game = make_game(game_id, players)
    first = simulate(game, seed, bots)
    assert first.state.is_over and first.accounted
    assert replay(game, first.moves).to_dict() == first.state.to_dict()
    assert simulate(game, seed, bots).moves == first.moves


@pytest.mark.parametrize("game_id", GAMES)
def test_options_are_described_and_checked(game_id):
    game = make_game(game_id)
    description = game.describe()
    assert description["id"] == game_id and description["bots"]
    for option in description["options"]:
        assert option["default"] == game.options[option["key"]]
