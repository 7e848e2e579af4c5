"""Lessons for War and its variants on the standard deck: what to ask, and how a round is told.

In the pure-chance games (War, Joker War, Two-deck War, Războiul, P'yanitsa, Tod und Leben)
the pupil's only move is to turn the next card, so the maths decisions are the drills:
after a round, which card is higher (``compare``, asked before the round's result shows)
and, every third round, how many cards the pupil takes or has left (``count``); in
Războiul, before the pupil lays a war's cards, how many cards go into it (``add_sub``).
Every kind a decided round supports is offered, and the one pitched nearest the pupil's target
is asked (:func:`tutor.drills.choose_question`), the round's own kind first among kinds pitched alike.
Every round is told with its cards: what beat what, every war and on which cards, who
ran out, who takes how many cards, which cards the time-limit rule took out of play.

Decisions:

- A compare question is asked only about cards the usual order decides: a six against an
  ace in P'yanitsa, a 2 against a joker in Joker War or a 2 against an ace in Strategy War
  follow the game's own rule, which the story tells ("In this game the 6 beats the ace.").
- A card is named in a sentence by its rank with whose it is ("your queen", "Computer 2's 7",
  :mod:`tutor.lessons.rank_phrases`); its suit never matters in these games, so it is not said.
  The cards themselves are drawn and named in full on the table.
- Războiul's war question is not asked over aces: the drill catalogue leaves the ace's
  worth open (tutor/drills/add_sub.py); the engine counts it 11 (tutor/engine/classic_war.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from tutor import content
from tutor.drills import Offer, Question, choose_question, level_of
from tutor.drills.add_sub import razboiul_war_cards, war_worth
from tutor.drills.compare import SPECIAL_RULES as RANK_RULES
from tutor.drills.compare import compare_ranks, rank_difference, special_rank_rule
from tutor.drills.count import cards_ahead, cards_on_table, war_cards, winner_takes
from tutor.engine import Move
from tutor.lessons.base import (
    ROUND,
    ROUND_OF,
    WINNER_MARK,
    Choice,
    Lesson,
    RoundShown,
    Row,
    Zone,
    and_list,
    computer_name,
    move_token,
    progress_line,
)
from tutor.lessons.rank_phrases import players_card, your_card
from tutor.lessons.war_family import LAST_ROUND, NOBODY_WINS, TAKES
from tutor.standard_deck import ACE, JOKER_RANK, STANDARD_CARDS, card
from tutor.text import N_, NC_, NP_, Text

# Translators: a scoreboard line. %(side)s is "You" or a computer player's name; the count is every card the player
# owns.
PLAYER_CARDS = NP_("%(side)s: %(num)s card", "%(side)s: %(num)s cards")
# Translators: a note beside a player's cards on the table: how many of them lie face down.
FACE_DOWN_NOTE = NP_("%(num)s face down", "%(num)s face down")
# Translators: %(best)s is the winning card with whose it is ("your jack", "Computer 2's queen"); %(others)s lists the
# beaten cards the same way ("Computer 1's 8 and Computer 3's 6").
BEATS = N_("%(best)s beats %(others)s.")
# Translators: %(cards)s lists two or more cards of the same rank with whose they are ("your 7 and Computer 2's 7").
WAR_LINE = N_("%(cards)s are equal: war!")
RAN_OUT = (
    N_("You ran out of cards in the war, so you lose it."),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    N_("%(name)s ran out of cards in the war, so they lose it."),
)
LAST_CARD = (
    N_("You have no more cards: your last card stays face up for the rest of this war."),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    N_("%(name)s has no more cards: their last card stays face up for the rest of this war."),
)
DROPPED = (
    N_("You had no card left for the tie, so you are out of it."),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    N_("%(name)s had no card left for the tie, so they are out of it."),
)
# Translators: the time-limit rule of War: %(num)s won cards of one rank leave the game; %(cards)s lists them as their
# corners show them ("3♠ and 3♥").
REMOVED = NP_(
    "The time is up, so the won card %(cards)s leaves the game: %(num)s card fewer to play with.",
    "The time is up, so the won cards %(cards)s leave the game: %(num)s cards fewer to play with.",
)
SPECIAL_RULES = {
    # (the rule set: the game, or the game with an option; the card that wins, the card it beats): the game's own
    # rule, told when it decides a battle
    ("pyanitsa", 6, ACE): N_("In this game the 6 beats the ace, and only the ace."),
    ("joker-war", 2, JOKER_RANK): N_("In this game a 2 beats a joker, and only a joker."),
    ("joker-war", JOKER_RANK, ACE): N_("In this game a joker beats even an ace."),
    ("strategy-war", 2, ACE): N_("In this game the 2 beats the ace."),
    ("strategy-war-jokers", 2, JOKER_RANK): N_("With the jokers in the game, the 2 beats the joker."),
    ("strategy-war-jokers", 2, ACE): N_("A joker was turned too, so the 2 counts above every card."),
    ("strategy-war-jokers", ACE, 2): N_(
        "With the jokers in the game, the ace beats the 2: the 2 beats only the joker."
    ),
}
TRICK_TAKES = {
    # Translators: Tod und Leben: the pupil wins a trick (not a round: a round is 16 cards each).
    "you": NP_("You win the trick and take the %(num)s card!", "You win the trick and take the %(num)s cards!"),
    # Translators: Tod und Leben: %(name)s is the computer player's name; it wins a trick.
    "other": NP_(
        "%(name)s wins the trick and takes the %(num)s card.", "%(name)s wins the trick and takes the %(num)s cards."
    ),
}
# Translators: Tod und Leben: the heading over the cards of the trick just played.
LAST_TRICK = NC_("heading: the trick just played", "Last trick")
# Translators: Tod und Leben: a round of 16 tricks each is over; %(mine)s and %(theirs)s count the cards each player won
# in it.
DEAL_DONE = N_("Round %(round)s is over. Cards won: you %(mine)s, %(name)s %(theirs)s.")
TURN_CARD = N_("Turn your card")
# Translators: the button in a war: %(num)s cards go face down, then one is turned face up.
LAY_WAR = NP_("Lay %(num)s card face down and turn one", "Lay %(num)s cards face down and turn one")


@dataclass(frozen=True)
class Decided:
    """A decided round as its questions see it: the deciding battle's face-up cards (the pupil's first), the
    winning card, the cards each player laid over the whole round, and the winner (None: nobody)."""

    round: int
    shown: list[int]
    winning_card: int | None
    laid: dict[int, int]
    winner: int | None


def laid_per_player(last: dict) -> dict[int, int]:
    """How many cards each player laid in a round, over all its battles."""
    laid: dict[int, int] = {}
    for battle in last["battles"]:
        for player, entry in battle["laid"].items():
            laid[int(player)] = laid.get(int(player), 0) + len(entry["down"]) + (entry["up"] is not None)
    return laid


class StandardWarLesson(Lesson):
    """What every lesson of the War family shares: the standard cards, names and the scoreboard."""

    common_content = "war-common"
    lesson_options = {"round_limit": 10}

    def cards(self):
        return STANDARD_CARDS

    def content(self) -> dict:
        """The game's own file over the family's narration (standard-war-common) over how games end (war-common)."""
        merged = super().content()
        family = content.load("games/standard-war-common")
        own = content.load(f"games/{self.game_id}")
        return {
            **merged,
            "narration": {**merged.get("narration", {}), **family["narration"], **own.get("narration", {})},
            "option_values": {**family["option_values"], **own.get("option_values", {})},
        }

    def name(self, player: int, pupil: int) -> Text:
        """A player's name inside a sentence (never "You": the pupil has sentences of their own)."""
        return computer_name(player)

    def intro_params(self, game_state, pupil: int) -> dict:
        return {"rounds": game_state.game.options.get("round_limit", 0)}

    def round_line(self, game_state, done: int) -> Text:
        """The scoreboard's round line after ``done`` rounds: "Round 4 of 10"."""
        return progress_line(game_state.game.options.get("round_limit", 0), done, ROUND_OF, ROUND)

    def scoreboard(self, game_state, pupil: int) -> list[Text]:
        """The round, and every card each player owns."""
        view = game_state.player_view(pupil)
        lines = [self.round_line(game_state, view["rounds"])]
        for player in range(game_state.game.players):
            lines.append(
                Text.count(
                    PLAYER_CARDS,
                    view["card_counts"][player],
                    side=self.seat_name(player, pupil, game_state.game.players),
                )
            )
        return lines

    def whose_card(self, card_id: int, player: int, pupil: int) -> Text:
        """A player's card in a sentence: "your jack", "Computer 2's 8"."""
        return your_card(card_id) if player == pupil else players_card(card_id, self.name(player, pupil))

    def you_or_other(self, messages: tuple, player: int, pupil: int, **params) -> Text:
        return (
            Text(messages[0], params)
            if player == pupil
            else Text(messages[1], {"name": self.name(player, pupil), **params})
        )

    def compare_lines(self, game_state, cards: dict[int, int], leaders: list[int], war: bool, pupil: int) -> list[Text]:
        """What the face-up cards of a battle decided: a war on equal cards, or which card beat which."""
        leaders = [p for p in leaders if p in cards]
        if war and leaders:
            tied = sorted(leaders, key=lambda p: p != pupil)  # the pupil's card first
            return [
                Text(WAR_LINE, {"cards": and_list([self.whose_card(cards[p], p, pupil) for p in tied])}, sentence=True)
            ]
        if war or len(leaders) != 1:
            return []
        leader, best = leaders[0], cards[leaders[0]]
        beaten = {p: c for p, c in sorted(cards.items(), key=lambda item: item[0] != pupil) if p != leader}
        if not beaten:
            return []
        others = and_list([self.whose_card(c, p, pupil) for p, c in beaten.items()])
        return [
            Text(BEATS, {"best": self.whose_card(best, leader, pupil), "others": others}, sentence=True),
            *self.special_rule_lines(game_state, best, list(beaten.values())),
        ]

    def rule_set(self, game_state) -> str:
        """Which special rules of :data:`SPECIAL_RULES` the game plays by: its own."""
        return game_state.game.id

    def special_rule_lines(self, game_state, best: int, beaten: list[int]) -> list[Text]:
        """The game's own rule, when it decided the battle ("In this game the 6 beats the ace.")."""
        winner, rules = card(best).rank, self.rule_set(game_state)
        return [
            Text(SPECIAL_RULES[key])
            for key in sorted({(rules, winner, card(c).rank) for c in beaten})
            if key in SPECIAL_RULES
        ]

    def plain_order(self, game_state, card_ids: list[int]) -> bool:
        """Whether the usual order (ace high, a joker above it) decides these cards in this game."""
        ranks, rules = {card(c).rank for c in card_ids}, self.rule_set(game_state)
        return not any(key[0] == rules and key[1] in ranks and key[2] in ranks for key in SPECIAL_RULES)

    # --- drills ---------------------------------------------------------------------------------------
    def standing(self, game_state, player: int) -> int:
        """The cards that count for a player after a round: every card they own (Tod und Leben: the cards won)."""
        return game_state.card_count(player)

    def round_drills(self, game_state, pupil: int, decided: Decided, levels: dict) -> list[Question]:
        """A question about a decided round: which card and by how much, how many cards the winner takes, how many
        cards ahead, whichever is pitched nearest the pupil's target (:func:`tutor.drills.choose_question`), the
        round's own kind first; the game's own rule whenever it decided the round."""
        rule = self.rule_that_decided(game_state, decided)
        if rule:
            question = special_rank_rule(decided.shown, rule, level_of(levels, "compare"))
            return [question]
        slots = [self.compare_offers, self.takes_offers, self.ahead_offers]
        first = decided.round % len(slots)
        offers = [offer for slot in slots[first:] + slots[:first] for offer in slot(game_state, pupil, decided, levels)]
        return [question for question in [choose_question(levels, offers)] if question is not None]

    def rule_that_decided(self, game_state, decided: Decided) -> str | None:
        """The game's own rule (a key of the drills' SPECIAL_RULES) when it made the winning card win."""
        if decided.winning_card is None:
            return None
        ranks = {card(c).rank for c in decided.shown}
        winner = card(decided.winning_card).rank
        rules, asked = self.rule_set(game_state), {pair: name for name, pair in RANK_RULES.items()}
        for rule_set, wins, beaten in SPECIAL_RULES:
            if rule_set == rules and wins == winner and beaten in ranks and (wins, beaten) in asked:
                return asked[(wins, beaten)]
        return None

    def compare_offers(self, game_state, pupil: int, decided: Decided, levels: dict) -> list[Offer]:
        """How much higher the winning card is than the pupil's (or the next best), and, in every other round, which
        is higher (asked first of the youngest, at compare's first level)."""
        if len(decided.shown) < 2 or decided.winning_card is None or not self.plain_order(game_state, decided.shown):
            return []
        winner_rank = card(decided.winning_card).rank
        others = [c for c in decided.shown if card(c).rank not in (winner_rank, JOKER_RANK)]
        if winner_rank == JOKER_RANK or not others:
            return []  # a joker has no number to take away
        mine = decided.shown[0]
        other = mine if mine in others else max(others, key=lambda c: card(c).rank)
        difference = Offer(
            "compare", "rank_difference", lambda level: rank_difference([decided.winning_card, other], level)
        )
        if not decided.round % 2:
            return [difference]

        def which_is_higher(level: int) -> Question:
            question = compare_ranks(decided.shown, level)
            question.cards = list(decided.shown)
            return question

        higher = Offer("compare", "compare_ranks", which_is_higher)
        return [higher, difference] if level_of(levels, "compare") == 1 else [difference, higher]

    def takes_offers(self, game_state, pupil: int, decided: Decided, levels: dict) -> list[Offer]:
        """How many cards the winner takes: every card each player laid in the round."""
        laid = {player: count for player, count in decided.laid.items() if count}
        if decided.winner is None or len(laid) < 2 or not laid.get(pupil):
            return []
        won = decided.winner == pupil
        counts = (
            [laid[pupil], *(laid[p] for p in sorted(laid) if p != pupil)] if won else [laid[p] for p in sorted(laid)]
        )

        def takes(level: int) -> Question:
            question = (cards_on_table if won else winner_takes)(counts, level)
            question.hides_result = True
            return question

        return [Offer("count", "cards_on_table" if won else "winner_takes", takes)]

    def ahead_offers(self, game_state, pupil: int, decided: Decided, levels: dict) -> list[Offer]:
        """How many cards the pupil is ahead of (or behind) the strongest other player after the round."""
        players = game_state.game.players
        mine = self.standing(game_state, pupil)
        rival = max((p for p in range(players) if p != pupil), key=lambda p: self.standing(game_state, p))
        theirs = self.standing(game_state, rival)
        if mine == theirs:
            return []
        name = self.name(rival, pupil).to_dict()
        return [
            Offer(
                "count",
                "cards_ahead",
                lambda level: cards_ahead(mine, theirs, name, level, won=self.counts_won_cards),
            )
        ]

    #: The scoreboard counts the cards won this round, not every card held (Tod und Leben).
    counts_won_cards: ClassVar[bool] = False

    def war_drill(self, game_state, pupil: int, levels: dict) -> list[Question]:
        """Before the pupil lays a war's cards: how many cards the war puts on the table (every player the same)."""
        if not game_state.in_war or game_state.current_player != pupil:
            return []
        layers = list(game_state.waiting)
        size = game_state.battle_size
        if size < 2 or len(layers) < 2 or any(game_state.lay_count(p) != size for p in layers):
            return []
        on_table = sum(len(game_state.up[p]) + len(game_state.down[p]) for p in range(game_state.game.players))
        return [war_cards(len(layers), size - 1, level_of(levels, "count"), on_table)]


class ChanceWarLesson(StandardWarLesson):
    """The games without a choice: the pupil turns cards; the drills are the decisions."""

    #: Who took the cards of a decided round, and the heading over its cards (Tod und Leben: a trick).
    takes: ClassVar[dict] = TAKES
    last_heading: ClassVar[tuple[str, str]] = LAST_ROUND

    def table(self, game_state, pupil: int) -> list[Zone]:
        view = game_state.player_view(pupil)
        players = game_state.game.players
        zones = []
        last = view["last_round"]
        if last and last.get("battles"):
            zones.append(
                Zone(Text.in_context(self.last_heading), self.round_rows(last, pupil, players), key="last-round")
            )
        rows = []
        for player in range(players):
            down = view["table_down_counts"][player]
            note = Text.count(FACE_DOWN_NOTE, down) if down else None
            rows.append(
                Row(self.seat_name(player, pupil, players), [None] * down + list(view["table_up"][player]), note=note)
            )
        zones.append(Zone(Text(N_("On the table")), rows, key="this-round"))
        return zones

    def round_rows(self, last: dict, pupil: int, players: int) -> list[Row]:
        """What each player laid in a decided round (``last``, as a view shows it), the winner marked."""
        rows = []
        for player in range(players):
            laid = [slot for battle in last["battles"] for slot in self.laid_cards(battle, player)]
            if laid:
                mark = Text.in_context(WINNER_MARK) if player == last.get("winner") else None
                rows.append(Row(self.seat_name(player, pupil, players), laid, mark=mark))
        return rows

    def decided_round(self, game_state, pupil: int, round_number: int) -> RoundShown | None:
        """The round's cards on the table as they lay when it was decided, before anyone turns the next card."""
        last = game_state.player_view(pupil)["last_round"]
        if not last or last["round"] != round_number or not last.get("battles"):
            return None
        rows = self.round_rows(last, pupil, game_state.game.players)
        return RoundShown(
            [self.round_line(game_state, round_number - 1)], [Zone(Text(N_("On the table")), rows, key="this-round")]
        )

    @staticmethod
    def laid_cards(battle: dict, player: int) -> list:
        """What a player laid in a battle, face-down cards as None, then the face-up card."""
        laid = battle["laid"].get(str(player))
        if not laid:
            return []
        return [None] * len(laid["down"]) + ([laid["up"]] if laid["up"] is not None else [])

    # --- the pupil's move -----------------------------------------------------------------------
    def face_down_due(self, game_state, pupil: int) -> int:
        """How many cards the pupil's next turn lays face down (0 outside a war)."""
        return max(game_state.lay_count(pupil) - 1, 0)

    def choices(self, game_state, pupil: int) -> list[Choice]:
        down = self.face_down_due(game_state, pupil)
        label = Text.count(LAY_WAR, down) if down else Text(TURN_CARD)
        return [Choice(move_token(move), label) for move in game_state.legal_moves()]

    def turn_narration(self, game_state, pupil: int) -> Text:
        down = self.face_down_due(game_state, pupil)
        if game_state.in_war:
            return self.narration("your_war", num=down) if down else self.narration("your_war_turn")
        return self.narration("your_turn")

    def decision_prompt(self, game_state, pupil: int) -> Text:
        return Text(N_("Turn the next card."))

    # --- telling a round ---------------------------------------------------------------------------
    def round_story(self, game_state, pupil: int, recent: list[Move]) -> list[Text]:
        view = game_state.player_view(pupil)
        story = []
        if view["last_round"] and not view["battles"]:  # the round just decided (the pupil turns first in every round)
            story += self.tell_round(game_state, view["last_round"], pupil)
        for battle in view["battles"]:  # a war is on: how it began
            story += self.battle_lines(game_state, battle, pupil)
        return story

    def battle_lines(self, game_state, battle: dict, pupil: int) -> list[Text]:
        lines = []
        for player, laid in sorted(battle["laid"].items(), key=lambda item: int(item[0])):
            note = laid.get("note")
            messages = {"ran_out": RAN_OUT, "last_card": LAST_CARD, "dropped_out": DROPPED}.get(note)
            if messages:
                lines.append(self.you_or_other(messages, int(player), pupil))
        cards = {int(p): laid["card"] for p, laid in battle["laid"].items() if laid.get("card") is not None}
        return lines + self.compare_lines(game_state, cards, battle["leaders"], battle["result"] == "war", pupil)

    def tell_round(self, game_state, last: dict, pupil: int) -> list[Text]:
        lines = []
        for battle in last["battles"]:
            lines += self.battle_lines(game_state, battle, pupil)
        winner, count = last.get("winner"), last.get("cards", 0)
        if winner is None and "taken_back" in last:
            lines += self.split_lines(game_state, last, pupil)
        elif winner is not None:
            lines.append(
                Text.count(self.takes["you"], count, round=last["round"])
                if winner == pupil
                else Text.count(self.takes["other"], count, round=last["round"], name=self.name(winner, pupil))
            )
        if last.get("removed"):
            corners = and_list([card(c).corner for c in last["removed"]])
            lines.append(Text.count(REMOVED, len(last["removed"]), cards=corners))
        return lines

    def split_lines(self, game_state, last: dict, pupil: int) -> list[Text]:
        """A tie nobody could lay another card for: nobody wins, everyone takes back what they laid."""
        return [Text(NOBODY_WINS, {"round": last["round"]})]

    # --- drills ---------------------------------------------------------------------------------------
    def before_move(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        return self.war_drill(game_state, pupil, levels)

    def after_round(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        last = game_state.last_round
        if not last or not last.get("battles"):
            return []
        laid = laid_per_player(last)
        if not laid.get(pupil):
            return []
        final = last["battles"][-1]["laid"]
        order = [pupil, *(p for p in sorted(map(int, final)) if p != pupil)]
        shown = [final[str(p)]["card"] for p in order if str(p) in final and final[str(p)].get("card") is not None]
        winner = last.get("winner")
        winning = final.get(str(winner), {}).get("card") if winner is not None else None
        return self.round_drills(game_state, pupil, Decided(last["round"], shown, winning, laid, winner), levels)


class WarLesson(ChanceWarLesson):
    game_id = "war"


class JokerWarLesson(ChanceWarLesson):
    game_id = "joker-war"


class TwoDeckWarLesson(ChanceWarLesson):
    game_id = "two-deck-war"


class PyanitsaLesson(ChanceWarLesson):
    """The loser has a name: the drunkard, the one player who did not win; at a tie everyone lays a new card."""

    game_id = "pyanitsa"

    def battle_lines(self, game_state, battle: dict, pupil: int) -> list[Text]:
        """A tie for the highest card: the players whose card did not tie lay a new card too, and the story says so."""
        lines = super().battle_lines(game_state, battle, pupil)
        if battle["result"] != "war":
            return lines
        untied = [
            int(p)
            for p, laid in battle["laid"].items()
            if laid.get("card") is not None and int(p) not in battle["leaders"]
        ]
        if pupil in untied:
            lines.append(self.narration("tie_everyone_you"))
        others = [p for p in sorted(untied) if p != pupil]
        if others:
            lines.append(self.narration("tie_everyone_other", players=and_list([self.name(p, pupil) for p in others])))
        return lines

    def finish_story(self, game_state, pupil: int) -> list[Text]:
        story = super().finish_story(game_state, pupil)
        losers = [p for p in range(game_state.game.players) if p not in game_state.winners()]
        if len(losers) == 1:
            story.append(
                self.narration("drunkard_you")
                if losers[0] == pupil
                else self.narration("drunkard_other", name=self.name(losers[0], pupil))
            )
        return story


class RazboiulLesson(ChanceWarLesson):
    """Before the pupil lays a war's cards: how many cards go into this war, all players together (``add_sub``)."""

    game_id = "razboiul"

    def before_move(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        if not game_state.in_war:
            return []
        tied = game_state.battles[-1]["laid"]
        leaders = game_state.battles[-1]["leaders"]
        tied_card = tied[str(leaders[0])]["card"]
        if card(tied_card).rank == ACE:
            return []
        players = len(game_state.contenders)
        counts = [game_state.available(p) for p in game_state.contenders]
        worth = war_worth(tied_card)
        shortest = min(counts) if min(counts) < worth else None
        if not 2 <= players <= 4 or (shortest is not None and shortest < 1):
            return []
        return [razboiul_war_cards(tied_card, players, level_of(levels, "add_sub"), shortest)]


class TodUndLebenLesson(ChanceWarLesson):
    """Sixteen tricks a round; a finished round is told with each player's cards won."""

    game_id = "tod-und-leben"
    lesson_options = {"rounds": 1}
    counts_won_cards = True
    # A round is the sixteen cards each; what one battle wins is a trick, a word of its own in every language.
    takes = TRICK_TAKES
    last_heading = LAST_TRICK

    def standing(self, game_state, player: int) -> int:
        return len(game_state.won[player])

    def intro_params(self, game_state, pupil: int) -> dict:
        return {"rounds": game_state.game.options["rounds"]}

    def round_line(self, game_state, done: int) -> Text:
        """The deal being played ("Round 1 of 1"): a round of Tod und Leben is sixteen tricks, not one."""
        return progress_line(game_state.game.options["rounds"], len(game_state.deal_scores), ROUND_OF, ROUND)

    def scoreboard(self, game_state, pupil: int) -> list[Text]:
        view = game_state.player_view(pupil)
        lines = [self.round_line(game_state, view["rounds"])]
        for player in range(game_state.game.players):
            # Translators: Tod und Leben's scoreboard: %(side)s is "You" or a computer's name; %(won)s counts the cards
            # won this round, %(num)s the cards still to play.
            line = NP_(
                "%(side)s: %(won)s cards won, %(num)s card to play",
                "%(side)s: %(won)s cards won, %(num)s cards to play",
            )
            lines.append(
                Text.count(
                    line,
                    view["pile_counts"][player],
                    side=self.seat_name(player, pupil, game_state.game.players),
                    won=view["won_counts"][player],
                )
            )
        return lines

    def split_lines(self, game_state, last: dict, pupil: int) -> list[Text]:
        """The last cards tie: each player takes back the cards they laid in the trick, however much it grew."""
        mine = last["taken_back"].get(str(pupil), 0)
        return [
            Text.count(
                # Translators: Tod und Leben: the last cards of a round tie; %(name)s is the computer player's name.
                NP_(
                    "Your last cards are equal too, so nobody wins this trick: you take back the %(num)s card you "
                    "laid in it, and %(name)s takes back theirs.",
                    "Your last cards are equal too, so nobody wins this trick: you take back the %(num)s cards you "
                    "laid in it, and %(name)s takes back theirs.",
                ),
                mine,
                name=self.name(1 - pupil, pupil),
            )
        ]

    def deal_line(self, game_state, pupil: int) -> Text:
        scores, other = game_state.deal_scores, 1 - pupil
        return Text(
            DEAL_DONE,
            {
                "round": len(scores),
                "mine": scores[-1][pupil],
                "theirs": scores[-1][other],
                "name": self.name(other, pupil),
            },
        )

    def tell_round(self, game_state, last: dict, pupil: int) -> list[Text]:
        """The trick; after the sixteenth, the round's score (the next deal has emptied the won piles)."""
        lines = super().tell_round(game_state, last, pupil)
        if game_state.deal_scores and not any(game_state.won) and not game_state.is_over:
            lines.append(self.deal_line(game_state, pupil))
        return lines

    def finish_story(self, game_state, pupil: int) -> list[Text]:
        return ([self.deal_line(game_state, pupil)] if game_state.deal_scores else []) + super().finish_story(
            game_state, pupil
        )
