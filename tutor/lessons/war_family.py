"""Lessons for the War-like Kids2 games with draw and collection piles: MultiWar and TripleSmart.

They share the scoreboard (cards per side, draw and collection piles), the table (last
round's cards with the winning card marked, this round's turned cards and the face-down
pot) and the way a round is told: what was compared, with its numbers, who won and how
many cards they take (:class:`RoundTeller`, Calculation War uses it too). MultiWar's
pupil only turns cards, so its drills come after the round: the product of the pupil's
two cards, then now and then which product won. In TripleSmart the pupil's move *is* the
maths: an expression typed with the card values; after the round the lesson asks how
far it was from the target and whether a better one existed, and the story shows each
player's expression and the best value the pupil could reach.

Decision (which refused expressions count as answers): an expression that cannot be
read at all ("7+", letters) is an input problem, shown under the box and not recorded.
A readable expression the rules refuse is told with its numbers in the coach box and
nothing is played. Of those, only a maths mistake is recorded as an answer for the
game's skill: dividing by zero in TripleSmart: Extreme (``four_ops``: "8 ÷ (3 − 3)" has no
value). Using a number that is not on one's cards, a card more often than one has it,
or writing a card's number another way ("8/2" for 4 in TripleSmart, "4.0") breaks the
rules of the game, not of arithmetic: told, never counted. A legal expression is not
judged when it is played (the round then tells its value and distance, and the drills
after the round ask about it).
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

from tutor.answers import AnswerError, read_answer
from tutor.deck import kids2
from tutor.drills import Question, level_of
from tutor.drills.add_sub import triplesmart_better, triplesmart_distance
from tutor.drills.compare import compare_numbers
from tutor.drills.four_ops import triplesmart_extreme_better, triplesmart_extreme_distance
from tutor.drills.multiply import multiply_top_numbers
from tutor.engine import Move
from tutor.engine.triplesmart import number_literals, plain_expression
from tutor.lessons.base import (
    ROUND,
    ROUND_OF,
    WINNER_MARK,
    YOU,
    Choice,
    Judged,
    Lesson,
    Row,
    Zone,
    and_list,
    computer_name,
    move_token,
    progress_line,
)
from tutor.signs import FRACTION, formula, operators, plain_formula, typed
from tutor.text import N_, NC_, NP_, Text

# Translators: the heading over the cards of the round just played (the previous round, not the final one).
LAST_ROUND = NC_("heading: the round just played", "Last round")
# Translators: a scoreboard line. %(side)s is a label for a player or a team: "You", "Computer 1", or "You and Computer 2 (your partner)"; %(draw)s and %(collection)s count the cards in its two piles.
SIDE_CARDS = NP_(
    "%(side)s: %(num)s card (draw pile %(draw)s, collection pile %(collection)s)",
    "%(side)s: %(num)s cards (draw pile %(draw)s, collection pile %(collection)s)",
)


def war_scoreboard(lesson: Lesson, game_state, pupil: int) -> list[Text]:
    """The round and each side's cards, for the War-like games with draw and collection piles."""
    view = game_state.player_view(pupil)
    limit = game_state.game.options.get("round_limit", 0)
    lines = [progress_line(limit, view["rounds"], ROUND_OF, ROUND)]
    for index, side in enumerate(view["sides"]):
        names = [lesson.seat_name(p, pupil, game_state.game.players) for p in side]
        side_name = (
            names[0]
            if len(names) == 1
            else Text(N_("%(first)s and %(second)s"), {"first": names[0], "second": names[1]})
        )
        lines.append(
            Text.count(
                SIDE_CARDS,
                view["side_counts"][index],
                side=side_name,
                draw=view["draw_counts"][index],
                collection=view["collection_counts"][index],
            )
        )
    return lines


def winning_players(last: dict) -> list[int]:
    """The players whose cards won the round (not their teammates; runs stored earlier: the side)."""
    return list(last.get("leaders", last["winners"]))


def last_round_zone(lesson: Lesson, game_state, pupil: int) -> list[Zone]:
    """Last round's cards, the winning cards marked (empty before the first round is decided)."""
    last = game_state.last_round
    if not last:
        return []
    players = game_state.game.players
    won = winning_players(last)
    rows = [
        Row(
            lesson.seat_name(int(p), pupil, players),
            list(cards),
            mark=Text.in_context(WINNER_MARK) if int(p) in won else None,
        )
        for p, cards in sorted(last["table"].items(), key=lambda item: int(item[0]))
    ]
    return [Zone(Text.in_context(LAST_ROUND), rows, key="last-round")]


def turned_zone(lesson: Lesson, game_state, pupil: int, note=None) -> Zone:
    """This round's cards: the face-down pot, then the turned cards."""
    view = game_state.player_view(pupil)
    players = game_state.game.players
    rows = [
        Row(
            lesson.seat_name(p, pupil, players),
            [None] * view["pot_counts"][p] + list(view["turned"][p]),
            note=note(view, p) if note else None,
        )
        for p in range(players)
    ]
    return Zone(Text(N_("On the table")), rows, key="this-round")


def shown_expression(plain: str) -> dict:
    """A stored ASCII expression as a text's field, written in the reader's school signs: "3*(4-1)" -> "3 × (4 − 1)"."""
    return plain_formula(plain, FRACTION)


def shown_number(stored: str) -> dict:
    """A stored exact value ("-4", "49/8") as a text's field, written by the one number formatter: "−4", never "-4"."""
    return formula(Fraction(stored), form=FRACTION)


# --- telling a round ----------------------------------------------------------------------------
# Every sentence is whole, with a message for "you" apart from another player; card counts
# choose their plural form. A result is a number ("266"), a product ("7 × 8 = 56") or, for
# two special cards, None.
WAR = {
    "sum": (
        # Translators: %(others)s lists the other players' names ("Computer 1 and Computer 3"); %(value)s is the sum of a card's circled values.
        N_("War! You and %(others)s laid the same sum, %(value)s."),
        # Translators: %(players)s lists two or more players' names ("Computer 1 and Computer 3"); %(value)s is the sum of a card's circled values.
        N_("War! %(players)s laid the same sum, %(value)s."),
    ),
    "product": (
        # Translators: %(others)s lists the other players' names; %(value)s is a product written out ("7 × 8 = 56").
        N_("War! You and %(others)s have the same product, %(value)s."),
        # Translators: %(players)s lists two or more players' names; %(value)s is a product written out ("7 × 8 = 56").
        N_("War! %(players)s have the same product, %(value)s."),
    ),
    "distance": (
        # Translators: %(others)s lists the other players' names; %(value)s is how far from the target number ("3").
        N_("War! You and %(others)s are equally close to the target: %(value)s away."),
        # Translators: %(players)s lists two or more players' names; %(value)s is how far from the target number ("3").
        N_("War! %(players)s are equally close to the target: %(value)s away."),
    ),
    "double_kocha": (
        # Translators: %(others)s lists the other players' names ("Computer 1 and Computer 3").
        N_("War! You and %(others)s each have two special cards."),
        # Translators: %(players)s lists two or more players' names ("Computer 1 and Computer 3").
        N_("War! %(players)s each have two special cards."),
    ),
}
TIE_NOBODY = {
    "sum": (
        # Translators: %(others)s lists the other players' names; %(value)s is the sum of a card's circled values.
        N_("You and %(others)s laid the same sum, %(value)s, and nobody has a card left for a war."),
        # Translators: %(players)s lists two or more players' names; %(value)s is the sum of a card's circled values.
        N_("%(players)s laid the same sum, %(value)s, and nobody has a card left for a war."),
    ),
}
TIE_ONE_SIDE = {
    "sum": (
        # Translators: %(others)s lists the other players' names; %(value)s is the sum of a card's circled values.
        N_("You and %(others)s laid the same sum, %(value)s, but only you have a card left for a war."),
        # Translators: %(others)s lists the other players' names; %(name)s is one of them ("Computer 2"); %(value)s is a sum.
        N_("You and %(others)s laid the same sum, %(value)s, but only %(name)s has a card left for a war."),
        # Translators: %(players)s lists two or more players' names; %(name)s is one of them ("Computer 2"); %(value)s is a sum.
        N_("%(players)s laid the same sum, %(value)s, but only %(name)s has a card left for a war."),
    ),
}
BEATS = {
    # you win; another wins and beat you (alone, or you and others); another wins, you were not in it
    "value": (
        # Translators: %(best)s is the winning result (a sum "266" or a product "7 × 8 = 56"); %(others)s lists the beaten results ("176 and 201").
        N_("Your %(best)s beats %(others)s."),
        # Translators: %(name)s is a computer player's name ("Computer 2"); %(best)s and %(mine)s are results (a sum "266" or a product "7 × 8 = 56").
        N_("%(name)s's %(best)s beats your %(mine)s."),
        # Translators: %(name)s is a computer player's name; %(best)s and %(mine)s are results; %(others)s lists the other beaten results ("176 and 201").
        N_("%(name)s's %(best)s beats your %(mine)s. It also beats %(others)s."),
        # Translators: %(name)s is a computer player's name; %(best)s is its result; %(others)s lists the beaten results ("176 and 201").
        N_("%(name)s's %(best)s beats %(others)s."),
    ),
    "double_kocha": (
        # Translators: %(others)s lists the beaten results (sums "176 and 201" or products "7 × 8 = 56 and 3 × 4 = 12").
        N_("Your two special cards beat %(others)s."),
        # Translators: %(name)s is a computer player's name; %(mine)s is the pupil's result (a sum or a product).
        N_("%(name)s's two special cards beat your %(mine)s."),
        # Translators: %(name)s is a computer player's name; %(mine)s is the pupil's result; %(others)s lists the other beaten results.
        N_("%(name)s's two special cards beat your %(mine)s. They also beat %(others)s."),
        # Translators: %(name)s is a computer player's name; %(others)s lists the beaten results.
        N_("%(name)s's two special cards beat %(others)s."),
    ),
}
ALONE = (
    # Translators: %(best)s is the pupil's result (a sum "266" or a product "7 × 8 = 56").
    N_("Nobody else could lay or turn a card: your %(best)s wins."),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    N_("Nobody else could lay or turn a card: %(name)s wins."),
)
TAKES = {
    "you": NP_(
        "You win round %(round)s and take the %(num)s card!", "You win round %(round)s and take the %(num)s cards!"
    ),
    "team": NP_(
        "Your team wins round %(round)s and takes the %(num)s card!",
        "Your team wins round %(round)s and takes the %(num)s cards!",
    ),
    # Translators: %(name)s is a computer player's name ("Computer 2"), never "you".
    "other": NP_(
        "%(name)s wins round %(round)s and takes the %(num)s card.",
        "%(name)s wins round %(round)s and takes the %(num)s cards.",
    ),
    # Translators: %(name)s and %(mate)s are the names of two computer players who play as a team.
    "other_team": NP_(
        "%(name)s and %(mate)s win round %(round)s and take the %(num)s card.",
        "%(name)s and %(mate)s win round %(round)s and take the %(num)s cards.",
    ),
}
NOBODY_WINS = N_("Nobody wins round %(round)s: everyone takes back their own cards.")
NOBODY_COULD_TURN = N_("Nobody could turn enough cards for this battle.")
OUT_OF_BATTLE = (
    N_("You had no cards left to turn, so you are out of this battle."),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    N_("%(name)s had no cards left to turn, so they are out of this battle."),
)


class RoundTeller:
    """Tells a decided round of a War-like game, battle by battle, with its numbers.

    A game supplies :meth:`results` (each contender's result in a battle as the pupil
    reads it, None for two special cards, ``OUT`` for a player who could not turn enough
    cards) and the war sentences (``war_messages``); the rest is common.
    """

    OUT = "out"
    war_messages: tuple = ()

    def __init__(self, lesson: Lesson, game_state, pupil: int) -> None:
        self.lesson, self.state, self.pupil = lesson, game_state, pupil

    def name(self, player: int) -> Text:
        return computer_name(player)

    # --- the game's part --------------------------------------------------------------------
    def results(self, battle: dict) -> dict[int, object]:
        raise NotImplementedError

    def battle_lines(self, battle: dict) -> list[Text]:
        """Lines before the verdict of a battle (TripleSmart: each player's expression)."""
        return []

    def table_count(self, last: dict) -> int:
        return sum(len(cards) for cards in last["table"].values())

    # --- the common part ---------------------------------------------------------------------
    def you_and_others(self, messages: tuple, players: list[int], **params) -> Text:
        """Message 0 when the pupil is among ``players`` ("You and %(others)s ..."), else message 1."""
        if self.pupil in players:
            others = [self.name(p) for p in players if p != self.pupil]
            return Text(messages[0], {"others": and_list(others), **params})
        return Text(messages[1], {"players": and_list([self.name(p) for p in players]), **params})

    def leaders(self, battle: dict) -> list[int]:
        """The players with the best result in a battle (across sides: a war)."""
        return list(battle["leaders"])

    def war_line(self, battle: dict) -> Text:
        leaders = self.leaders(battle)
        value = self.results(battle)[leaders[0]]
        if value is None:
            return self.you_and_others(WAR["double_kocha"], leaders)
        return self.you_and_others(self.war_messages, leaders, value=value)

    def verdict(self, battle: dict, winners: list[int]) -> list[Text]:
        """What beat what in the deciding battle: "Your 266 beats 176 and 201."."""
        results = self.results(battle)
        live = [p for p, r in results.items() if r != self.OUT]
        if not winners:
            return []
        leader = self.pupil if self.pupil in winners else winners[0]
        best = results[leader]
        messages = BEATS["double_kocha" if best is None else "value"]
        beaten = [p for p in live if p not in self.leaders(battle)]
        if not beaten:
            return (
                [
                    Text(ALONE[0], {"best": best})
                    if leader == self.pupil
                    else Text(ALONE[1], {"name": self.name(leader)})
                ]
                if best is not None
                else []
            )
        if leader == self.pupil:
            return [Text(messages[0], {"best": best, "others": and_list([results[p] for p in beaten])})]
        others = [results[p] for p in beaten if p != self.pupil]
        if self.pupil in beaten:
            if others:
                return [
                    Text(
                        messages[2],
                        {
                            "name": self.name(leader),
                            "best": best,
                            "mine": results[self.pupil],
                            "others": and_list(others),
                        },
                    )
                ]
            return [Text(messages[1], {"name": self.name(leader), "best": best, "mine": results[self.pupil]})]
        return [Text(messages[3], {"name": self.name(leader), "best": best, "others": and_list(others)})]

    def out_lines(self, battle: dict) -> list[Text]:
        results = self.results(battle)
        lines = []
        for player, result in results.items():
            if result == self.OUT:
                lines.append(
                    Text(OUT_OF_BATTLE[0])
                    if player == self.pupil
                    else Text(OUT_OF_BATTLE[1], {"name": self.name(player)})
                )
        if lines and all(r == self.OUT for r in results.values()):
            lines.append(Text(NOBODY_COULD_TURN))
        return lines

    def tie_lines(self, battle: dict, last: dict) -> list[Text]:
        """A tie across sides that ended the round without a war (Calculation War: no cards left)."""
        return []

    def takes_line(self, last: dict) -> Text:
        """Who takes the cards: "You win round 3 and take the 4 cards!"."""
        round_number, count = last["round"], self.table_count(last)
        side = last["winner_side"]
        if side is None:
            return Text(NOBODY_WINS, {"round": round_number})
        members = self.state.sides[side]
        won = winning_players(last)
        leader = self.pupil if self.pupil in won else (won[0] if won else members[0])
        if self.pupil in members:
            return Text.count(TAKES["team" if len(members) > 1 else "you"], count, round=round_number)
        if len(members) > 1:
            mate = next(p for p in members if p != leader)
            return Text.count(
                TAKES["other_team"], count, round=round_number, name=self.name(leader), mate=self.name(mate)
            )
        return Text.count(TAKES["other"], count, round=round_number, name=self.name(leader))

    def round_lines(self, last: dict) -> list[Text]:
        """The whole round: each battle's lines, the wars, the verdict, who takes the cards."""
        battles = last.get("battles") or []
        lines: list[Text] = []
        for battle in battles[:-1]:
            lines += self.battle_lines(battle) + self.out_lines(battle) + [self.war_line(battle)]
        if battles:
            final = battles[-1]
            lines += self.battle_lines(final) + self.out_lines(final)
            if len({self.state.side_of(p) for p in self.leaders(final)}) > 1:
                lines += self.tie_lines(final, last)
            else:
                lines += self.verdict(final, winning_players(last))
        lines.append(self.takes_line(last))
        return lines

    def war_in_progress(self, battles: list[dict]) -> list[Text]:
        """The battles of the round being played that ended in a war, while the war goes on."""
        lines: list[Text] = []
        for battle in battles:
            lines += self.battle_lines(battle) + self.out_lines(battle) + [self.war_line(battle)]
        return lines


class ProductTeller(RoundTeller):
    """MultiWar: each player's product of two top numbers, or two special cards."""

    def leaders(self, battle: dict) -> list[int]:
        if "leaders" in battle:
            return list(battle["leaders"])
        # Runs stored before battles named their leaders: two special cards beat every product.
        ranked = {int(p): (2, 0) if r == "double_kocha" else (1, r) for p, r in battle["results"].items() if r != "out"}
        best = max(ranked.values(), default=None)
        return [p for p, r in ranked.items() if r == best]

    def results(self, battle: dict) -> dict[int, object]:
        deck, results = kids2(), {}
        for player, result in battle["results"].items():
            if result == "out":
                results[int(player)] = self.OUT
            elif result == "double_kocha":
                results[int(player)] = None
            else:
                a, b = (deck[c].top for c in battle["turned"][player] if not deck[c].is_special)
                results[int(player)] = formula(a, "*", b, "=", int(result))
        return results

    def war_line(self, battle: dict) -> Text:
        leaders = self.leaders(battle)
        result = battle["results"][str(leaders[0])]
        if result == "double_kocha":
            return self.you_and_others(WAR["double_kocha"], leaders)
        return self.you_and_others(WAR["product"], leaders, value=result)


class CloseTeller(RoundTeller):
    """TripleSmart: each player's expression, value and distance from the target."""

    war_messages = WAR["distance"]

    WROTE = (
        N_("You wrote %(expression)s = %(value)s: %(distance)s away from the target %(target)s."),
        # Translators: %(name)s is a computer player's name ("Computer 2"), never "you"; %(expression)s is its calculation ("7 + 9 − 3").
        N_("%(name)s wrote %(expression)s = %(value)s: %(distance)s away from the target %(target)s."),
    )
    HIT = (
        N_("You wrote %(expression)s = %(value)s: exactly the target %(target)s!"),
        # Translators: %(name)s is a computer player's name ("Computer 2"), never "you"; %(expression)s is its calculation ("7 + 9 − 3").
        N_("%(name)s wrote %(expression)s = %(value)s: exactly the target %(target)s."),
    )
    ONE_CARD = (
        N_("You used just your %(value)s: %(distance)s away from the target %(target)s."),
        # Translators: %(name)s is a computer player's name ("Computer 2"), never "you"; %(value)s is the number on its one card.
        N_("%(name)s used just a %(value)s: %(distance)s away from the target %(target)s."),
    )
    ONE_CARD_HIT = (
        N_("You used just your %(value)s: exactly the target %(target)s!"),
        # Translators: %(name)s is a computer player's name ("Computer 2"), never "you"; %(value)s is the number on its one card.
        N_("%(name)s used just a %(value)s: exactly the target %(target)s."),
    )
    TWO_SPECIALS = (
        N_("You turned two special cards."),
        # Translators: %(name)s is a computer player's name ("Computer 2"), never "you".
        N_("%(name)s turned two special cards."),
    )
    CLOSEST = (
        N_("You are the closest to %(target)s."),
        # Translators: %(name)s is a computer player's name ("Computer 2"), never "you"; %(target)s is the target number.
        N_("%(name)s is the closest to %(target)s."),
    )
    SPECIALS_WIN = (
        N_("Your two special cards win the battle at once!"),
        # Translators: %(name)s is a computer player's name ("Computer 2"), never "you".
        N_("%(name)s's two special cards win the battle at once."),
    )

    def results(self, battle: dict) -> dict[int, object]:
        results = {}
        for player, entry in battle["players"].items():
            if entry["result"] == "out":
                results[int(player)] = self.OUT
            elif entry["result"] == "double_kocha":
                results[int(player)] = None
            elif entry["result"] == "submitted":
                results[int(player)] = shown_number(entry["distance"])
        return results

    def table_count(self, last: dict) -> int:
        return super().table_count(last) + len(last.get("targets", []))

    def who(self, messages: tuple, player: int, **params) -> Text:
        return (
            Text(messages[0], params)
            if player == self.pupil
            else Text(messages[1], {"name": self.name(player), **params})
        )

    def battle_lines(self, battle: dict) -> list[Text]:
        lines = []
        for player, entry in sorted(battle["players"].items(), key=lambda item: int(item[0])):
            player = int(player)
            if entry["result"] == "submitted":
                hit, alone = Fraction(entry["distance"]) == 0, entry["expression"].isdigit()
                messages = (self.ONE_CARD_HIT if hit else self.ONE_CARD) if alone else (self.HIT if hit else self.WROTE)
                lines.append(
                    self.who(
                        messages,
                        player,
                        expression=shown_expression(entry["expression"]),
                        value=shown_number(entry["value"]),
                        distance=shown_number(entry["distance"]),
                        target=battle["target"],
                    )
                )
            elif entry["result"] == "double_kocha":
                lines.append(self.who(self.TWO_SPECIALS, player))
        return lines

    def verdict(self, battle: dict, winners: list[int]) -> list[Text]:
        if not winners:
            return []
        leader = self.pupil if self.pupil in winners else winners[0]
        if battle["players"][str(leader)]["result"] == "double_kocha":
            return [self.who(self.SPECIALS_WIN, leader)]
        return [self.who(self.CLOSEST, leader, target=battle["target"])]


def pupil_submission(last: dict, pupil: int) -> tuple[dict, dict] | None:
    """The pupil's written expression in a round (the last battle they wrote in) and that battle."""
    for battle in reversed(last.get("battles") or []):
        entry = battle.get("players", {}).get(str(pupil), {})
        if entry.get("result") == "submitted":
            return battle, entry
    return None


class WarFamilyLesson(Lesson):
    """Teams of two with four players, the round-based table, and turning as the move."""

    lesson_options = {"round_limit": 10}
    teams_of_four = True
    common_content = "war-common"
    teller = RoundTeller

    def scoreboard(self, game_state, pupil: int) -> list[Text]:
        return war_scoreboard(self, game_state, pupil)

    def rounds_to_tell(self, game_state) -> list[dict]:
        """The rounds decided since the pupil last moved: the last round, unless a new round's war is on."""
        return [game_state.last_round] if game_state.last_round and not game_state.battles else []

    def round_story(self, game_state, pupil: int, recent: list[Move]) -> list[Text]:
        """Every round decided since the pupil's last move, then the war being fought, told with numbers."""
        teller = self.teller(self, game_state, pupil)
        story = [line for last in self.rounds_to_tell(game_state) for line in self.tell_round(teller, last, pupil)]
        if game_state.battles and not game_state.is_over:  # a war is on: how it began
            story += teller.war_in_progress(game_state.battles)
        return story

    def tell_round(self, teller: RoundTeller, last: dict, pupil: int) -> list[Text]:
        return teller.round_lines(last)

    def pupil_battle(self, game_state, pupil: int) -> dict | None:
        """The pupil's part of the last battle of the round just decided."""
        last = game_state.last_round
        if not last or not last["battles"]:
            return None
        return last["battles"][-1]


class MultiWarLesson(WarFamilyLesson):
    game_id = "multiwar"
    teller = ProductTeller

    def intro_params(self, game_state, pupil: int) -> dict:
        numbers = [kids2()[c].top for c in self.first_cards(game_state, pupil) if not kids2()[c].is_special]
        params = {"rounds": game_state.game.options["round_limit"]}
        if len(numbers) == 2:
            params.update(
                a=numbers[0], b=numbers[1], fact=formula(numbers[0], "*", numbers[1], "=", numbers[0] * numbers[1])
            )
        return params

    def intro_text(self, step: int, game_state, pupil: int) -> Text:
        """The step about top numbers uses the pupil's own first two cards (special cards have none)."""
        entry = self.intro_steps()[step]
        specials = sum(kids2()[c].is_special for c in self.first_cards(game_state, pupil))
        if entry.get("focus") == "top-number" and specials:
            return self.narration("intro_one_special" if specials == 1 else "intro_two_specials")
        return super().intro_text(step, game_state, pupil)

    def first_cards(self, game_state, pupil: int) -> list[int]:
        """The two cards the pupil turns first: the top of their side's draw pile (seat 0 turns first)."""
        pile = game_state.draw_piles[game_state.side_of(pupil)]
        return list(reversed(pile[-2:]))

    def table(self, game_state, pupil: int) -> list[Zone]:
        zones = last_round_zone(self, game_state, pupil) + [turned_zone(self, game_state, pupil)]
        if game_state.rounds == 0 and game_state.at_round_start:
            # Shown only during the intro (the page drops the "intro" zone afterwards): the real cards the
            # pupil will turn first, so that "look at the big number" points at real numbers.
            example = Row(
                Text.in_context(YOU),
                self.first_cards(game_state, pupil),
                note=Text(N_("the top two cards of your draw pile: you turn them first")),
            )
            zones.append(Zone(Text(N_("Your first two cards")), [example], key="intro"))
        return zones

    def choices(self, game_state, pupil: int) -> list[Choice]:
        extra = game_state.player_view(pupil)["extra_card"]
        label = Text(N_("Turn one more card")) if extra else Text(N_("Turn your two cards"))
        return [Choice(move_token(move), label) for move in game_state.legal_moves()]

    def turn_narration(self, game_state, pupil: int) -> Text:
        view = game_state.player_view(pupil)
        return self.narration("extra_card" if view["extra_card"] else "your_war" if view["wars"] else "your_turn")

    def after_round(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        battle = self.pupil_battle(game_state, pupil)
        if not battle or str(pupil) not in battle["turned"]:
            return []
        numbers = [c for c in battle["turned"][str(pupil)] if not kids2()[c].is_special]
        questions = []
        if len(numbers) == 2:
            product = multiply_top_numbers(numbers[0], numbers[1], level_of(levels, "multiply"))
            product.hides_result = True
            questions.append(product)
        products = [r for r in battle["results"].values() if isinstance(r, int)]
        if len(set(products)) >= 2 and game_state.rounds % 3 == 0:
            questions.append(compare_numbers(products, level_of(levels, "compare")))
        return questions


# Why a readable expression is refused, with the pupil's numbers.
REFUSED = {
    "fraction": N_(
        "%(number)s is a fraction, and in TripleSmart you only add and subtract: write the numbers on your cards as they are, %(numbers)s."
    ),
    "not_whole": N_("%(number)s is not a number on your cards: use the numbers as they are, %(numbers)s."),
    "not_on_cards": N_("There is no %(number)s on your cards: your numbers are %(numbers)s."),
    "used_too_often": NP_(
        "You used %(number)s %(count)s times, but only %(num)s of your cards shows %(number)s: each card counts once. Your numbers are %(numbers)s.",
        "You used %(number)s %(count)s times, but only %(num)s of your cards show %(number)s: each card counts once. Your numbers are %(numbers)s.",
    ),
    "division_by_zero": N_(
        "%(expression)s divides by zero, and dividing by zero gives no number at all. Write another calculation."
    ),
}


# Translators: a note beside a computer player's name: it has written its calculation this round ("Computer 1 · expression ready"); use a phrase that fits any name, with no verb.
EXPRESSION_READY = NC_("note beside a seat", "expression ready")
# Translators: the heading over TripleSmart's target card: the number to get close to.
TARGET = NC_("heading: TripleSmart's target card", "Target")


class TripleSmartLesson(WarFamilyLesson):
    game_id = "triplesmart"
    typed_move = True
    stacks_fractions = True  # values and distances in Extreme ("49/8 away"), and a refused "8/2"
    teller = CloseTeller
    distance_question = staticmethod(triplesmart_distance)
    better_question = staticmethod(triplesmart_better)
    skill = "add_sub"

    def intro_params(self, game_state, pupil: int) -> dict:
        view = game_state.player_view(pupil)
        mine = [kids2()[c].top for c in view["turned"][pupil] if not kids2()[c].is_special]
        return {
            "target": view["target"],
            "numbers": ", ".join(map(str, mine)),
            "rounds": game_state.game.options["round_limit"],
        }

    def intro_text(self, step: int, game_state, pupil: int) -> Text:
        """The first step says so when two special cards decided a round before the pupil could play."""
        text = super().intro_text(step, game_state, pupil)
        decided = [last for last in self.rounds_to_tell(game_state) if last["winner_side"] is not None]
        if step == 0 and decided:
            won = winning_players(decided[-1])
            params = {**text.params, "round": decided[-1]["round"], "now": game_state.rounds + 1}
            if pupil in won:
                return self.narration("intro_after_specials_you", **params)
            return self.narration("intro_after_specials", name=computer_name(won[0]), **params)
        return text

    def rounds_to_tell(self, game_state) -> list[dict]:
        """Every round decided since the pupil's last move: two special cards can decide the next rounds at once."""
        return list(game_state.recent_rounds)

    def table(self, game_state, pupil: int) -> list[Zone]:
        view = game_state.player_view(pupil)

        def note(view, player):
            return Text.in_context(EXPRESSION_READY) if player in view["submitted"] and player != pupil else None

        heading = Text.in_context(TARGET)
        label = (
            Text(N_("Target number: %(target)s"), {"target": view["target"]}) if view["target"] is not None else heading
        )
        target = Zone(heading, [Row(label, list(view["target_cards"]))], key="target")
        return last_round_zone(self, game_state, pupil) + [target, turned_zone(self, game_state, pupil, note)]

    def choices(self, game_state, pupil: int) -> list[Choice]:
        return []  # the pupil types the move

    def turn_narration(self, game_state, pupil: int) -> Text:
        view = game_state.player_view(pupil)
        return self.narration("your_war" if view["wars"] else "your_turn", target=view["target"])

    def decision_prompt(self, game_state, pupil: int) -> Text:
        return Text(
            N_("Which calculation brings your numbers closest to the target %(target)s?"), {"target": game_state.target}
        )

    def move_from_text(self, game_state, pupil: int, text: str, locale: str) -> Move:
        """Read the pupil's expression (in their own notation) and name the cards it uses.

        Unreadable text raises AnswerError (shown under the box, nothing recorded); any
        readable expression becomes a move, which :meth:`judge` explains if the rules refuse it.
        """
        try:
            read_answer(text, locale, allow=game_state.game.allow)
        except AnswerError as error:
            if error.code != "division_by_zero":
                raise
        plain = plain_expression(text.strip())
        free = [c for c in game_state.turned[pupil] if not kids2()[c].is_special]
        used = []
        for literal in number_literals(plain, game_state.game.allow):
            card_id = next((c for c in free if literal.isdigit() and str(kids2()[c].top) == literal), None)
            if card_id is not None:
                free.remove(card_id)
                used.append(card_id)
        return Move("submit", pupil, tuple(used), plain)

    def judge(self, game_state, pupil: int, move: Move) -> Judged | None:
        """Say why the rules refuse an expression, with the pupil's numbers; a legal one is played without a word."""
        if move.kind != "submit" or game_state.phase != "submit" or game_state.current_player != pupil:
            return super().judge(game_state, pupil, move)
        problem = game_state.submit_problem(move)
        if problem is None:
            return None
        mine = sorted(kids2()[c].top for c in game_state.turned[pupil] if not kids2()[c].is_special)
        numbers = and_list(mine)
        literals = number_literals(move.detail, game_state.game.allow)
        for literal in literals:
            if "/" in literal:
                return Judged(False, Text(REFUSED["fraction"], {"number": literal, "numbers": numbers}))
            if not literal.isdigit() or literal != str(int(literal)):
                return Judged(False, Text(REFUSED["not_whole"], {"number": literal, "numbers": numbers}))
        have = Counter(mine)
        for number, count in Counter(int(literal) for literal in literals).items():
            if not have[number]:
                return Judged(False, Text(REFUSED["not_on_cards"], {"number": number, "numbers": numbers}))
            if count > have[number]:
                return Judged(
                    False,
                    Text.count(REFUSED["used_too_often"], have[number], number=number, count=count, numbers=numbers),
                )
        if problem.code == "division_by_zero":  # the cards are right, the arithmetic has no value: a maths mistake
            return Judged(
                False,
                Text(REFUSED["division_by_zero"], {"expression": shown_expression(move.detail)}),
                self.skill,
                "expression",
            )
        return Judged(False, Text(problem.msgid, dict(problem.params)))

    def tell_round(self, teller: RoundTeller, last: dict, pupil: int) -> list[Text]:
        """The round, then the best the pupil could have reached in the battle they last wrote in."""
        lines = teller.round_lines(last)
        found = pupil_submission(last, pupil)
        if found and "best_value" in found[1]:
            mine = found[1]
            lines.append(
                self.narration(
                    "best_reachable",
                    value=shown_number(mine["best_value"]),
                    expression=shown_expression(mine["best_expression"]),
                    distance=shown_number(mine["best_distance"]),
                )
            )
        return lines

    def after_round(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        """About the pupil's own expression in the newest round they wrote one in (not a round two special cards decided)."""
        found = next(
            (found for last in reversed(self.rounds_to_tell(game_state)) if (found := pupil_submission(last, pupil))),
            None,
        )
        if found is None or found[0].get("target_card") is None:
            return []
        battle, mine = found
        cards = [c for c in mine["cards"] if not kids2()[c].is_special]
        level = level_of(levels, self.skill)
        value = Fraction(mine["value"])
        makers = [self.distance_question, self.better_question]
        if rng.random() >= 0.5:
            makers.reverse()
        for make in makers:  # a drill may have nothing to ask (no distance after a perfect hit): then the other
            question = make(cards, battle["target_card"], value, level)
            if question is not None:
                question.hides_result = True  # the round's story tells the distance and the best reachable value
                return [question]
        return []


class TripleSmartExtremeLesson(TripleSmartLesson):
    game_id = "triplesmart-extreme"
    distance_question = staticmethod(triplesmart_extreme_distance)
    better_question = staticmethod(triplesmart_extreme_better)
    skill = "four_ops"
    #: The typing hints' fields, written in the keys a pupil of the reader's locale types ("+ - * :" in Norwegian).
    TYPING = {"signs": typed(operators("+-*/")), "example": typed(plain_formula("(7-3)*2"))}

    def intro_params(self, game_state, pupil: int) -> dict:
        return {**super().intro_params(game_state, pupil), **self.TYPING}

    def narration(self, key: str, **params) -> Text:
        return super().narration(key, **(self.TYPING | params if key == "typed_move_label" else params))
