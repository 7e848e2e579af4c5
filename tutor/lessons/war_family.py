"""What the War-like Kids2 lessons share: MultiWar, TripleSmart and Calculation War.

They share the scoreboard (cards per side, draw and collection piles), the table (last
round's cards with the winning card marked, this round's turned cards and the face-down
pot) and the way a round is told: what was compared, with its numbers, who won and how
many cards they take (:class:`RoundTeller`; each game's teller says what its cards make).
"""

from __future__ import annotations

from tutor.engine import Move
from tutor.lessons.base import (
    ROUND,
    ROUND_OF,
    WINNER_MARK,
    Lesson,
    RoundShown,
    Row,
    Zone,
    and_list,
    computer_name,
    progress_line,
)
from tutor.text import N_, NC_, NP_, Text

# Translators: the heading over the cards of the round just played (the previous round, not the final one).
LAST_ROUND = NC_("heading: the round just played", "Last round")
# Translators: a scoreboard line. %(side)s is a label for a player or a team: "You", "Computer 1", or "You and Computer
# 2 (your partner)"; %(draw)s and %(collection)s count the cards in its two piles.
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


def round_rows(lesson: Lesson, record: dict, pupil: int, players: int) -> list[Row]:
    """Each player's cards of a decided round (``record``: a round's record), the winning cards marked."""
    won = winning_players(record)
    return [
        Row(
            lesson.seat_name(int(p), pupil, players),
            list(cards),
            mark=Text.in_context(WINNER_MARK) if int(p) in won else None,
        )
        for p, cards in sorted(record["table"].items(), key=lambda item: int(item[0]))
    ]


def last_round_zone(lesson: Lesson, game_state, pupil: int) -> list[Zone]:
    """Last round's cards, the winning cards marked (empty before the first round is decided)."""
    last = game_state.last_round
    if not last:
        return []
    rows = round_rows(lesson, last, pupil, game_state.game.players)
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


WAR = {
    "sum": (
        # Translators: %(others)s lists the other players' names ("Computer 1 and Computer 3"); %(value)s is the sum of
        # a card's circled values.
        N_("War! You and %(others)s laid the same sum, %(value)s."),
        # Translators: %(players)s lists two or more players' names ("Computer 1 and Computer 3"); %(value)s is the sum
        # of a card's circled values.
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
        # Translators: %(others)s lists the other players' names; %(name)s is one of them ("Computer 2"); %(value)s is a
        # sum.
        N_("You and %(others)s laid the same sum, %(value)s, but only %(name)s has a card left for a war."),
        # Translators: %(players)s lists two or more players' names; %(name)s is one of them ("Computer 2"); %(value)s
        # is a sum.
        N_("%(players)s laid the same sum, %(value)s, but only %(name)s has a card left for a war."),
    ),
}
BEATS = {
    # you win; another wins and beat you (alone, or you and others); another wins, you were not in it
    "value": (
        # Translators: %(best)s is the winning result (a sum "266" or a product "7 × 8 = 56"); %(others)s lists the
        # beaten results ("176 and 201").
        N_("Your %(best)s beats %(others)s."),
        # Translators: %(name)s is a computer player's name ("Computer 2"); %(best)s and %(mine)s are results (a sum
        # "266" or a product "7 × 8 = 56").
        N_("%(name)s's %(best)s beats your %(mine)s."),
        # Translators: %(name)s is a computer player's name; %(best)s and %(mine)s are results; %(others)s lists the
        # other beaten results ("176 and 201").
        N_("%(name)s's %(best)s beats your %(mine)s. It also beats %(others)s."),
        # Translators: %(name)s is a computer player's name; %(best)s is its result; %(others)s lists the beaten results
        # ("176 and 201").
        N_("%(name)s's %(best)s beats %(others)s."),
    ),
    "double_kocha": (
        # Translators: %(others)s lists the beaten results (sums "176 and 201" or products "7 × 8 = 56 and 3 × 4 = 12").
        N_("Your two special cards beat %(others)s."),
        # Translators: %(name)s is a computer player's name; %(mine)s is the pupil's result (a sum or a product).
        N_("%(name)s's two special cards beat your %(mine)s."),
        # Translators: %(name)s is a computer player's name; %(mine)s is the pupil's result; %(others)s lists the other
        # beaten results.
        N_("%(name)s's two special cards beat your %(mine)s. They also beat %(others)s."),
        # Translators: %(name)s is a computer player's name; %(others)s lists the beaten results.
        N_("%(name)s's two special cards beat %(others)s."),
    ),
}
#: A round the pupil's partner won with four players: the partner's card is the team's, so it beats only the other
#: team's cards, never the pupil's.
PARTNER_BEATS = {
    # Translators: %(name)s is the pupil's partner, a computer player ("Computer 2"); %(best)s its result (a sum "266"
    # or a product "7 × 8 = 56"); %(others)s lists the other team's beaten results ("176 and 201").
    "value": N_("Your partner %(name)s beats %(others)s with %(best)s."),
    # Translators: %(name)s is the pupil's partner, a computer player; %(others)s lists the other team's beaten results.
    "double_kocha": N_("Your partner %(name)s beats %(others)s with two special cards."),
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
        kind = "double_kocha" if best is None else "value"
        messages = BEATS[kind]
        side = self.state.side_of(leader)  # a teammate's card is the team's: the leader does not beat it
        beaten = [p for p in live if p not in self.leaders(battle) and self.state.side_of(p) != side]
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
        if side == self.state.side_of(self.pupil):
            others = and_list([results[p] for p in beaten])
            return [Text(PARTNER_BEATS[kind], {"name": self.name(leader), "best": best, "others": others})]
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

    def round_record(self, game_state, round_number: int) -> dict | None:
        """The record of round ``round_number`` if it is the last round or one decided since the pupil's last move."""
        records = [*self.rounds_to_tell(game_state), game_state.last_round]
        return next((record for record in records if record and record["round"] == round_number), None)

    def decided_round(self, game_state, pupil: int, round_number: int) -> RoundShown | None:
        """The round's cards on the table as they lay when it was decided; the next round's are not dealt yet."""
        record = self.round_record(game_state, round_number)
        if record is None:
            return None
        rows = round_rows(self, record, pupil, game_state.game.players)
        limit = game_state.game.options.get("round_limit", 0)
        return RoundShown(
            [progress_line(limit, round_number - 1, ROUND_OF, ROUND)],
            [Zone(Text(N_("On the table")), rows, key="this-round")],
        )

    def pupil_battle(self, game_state, pupil: int) -> dict | None:
        """The pupil's part of the last battle of the round just decided."""
        last = game_state.last_round
        if not last or not last["battles"]:
            return None
        return last["battles"][-1]
