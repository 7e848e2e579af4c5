"""The Casino War lesson: chance with tokens, never money.

The pupil makes the game's decisions: the stake alone or with the side bet on a tie, and
on a tie, give up or go to war. Each is a button, also when the pupil cannot afford it:
the lesson then says why with the tokens ("You have 3 tokens: the war needs 2 more, and
you have 1."), and nothing is played. The drills are the chances behind those decisions
(``probability``), a different one before each stake: the chance of a tie with this
table's decks, the house's edge on the stake, the tokens to expect to lose in some hands,
the chance of a tie with 1 or 6 decks (the other count), and, when the side bet is on,
what it wins on average per token. Their prompts give no working: the hints do. After
every fourth hand, how much higher one card was than the other (for the youngest, which
was higher: ``compare``, asked before the hand's result shows). Every hand is told with
its cards and its tokens.

Decision: an unaffordable choice is refused without counting it as an answer: it is a
rule of the table, not a maths mistake (the tokens are on the scoreboard).
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutor.drills import Offer, Question, choose_question, level_of
from tutor.drills.compare import compare_ranks, rank_difference
from tutor.drills.probability import casino_expected_loss, casino_house_edge, probability_tie, probability_tie_bet
from tutor.engine import Move
from tutor.lessons.base import ACTION, Choice, Judged, RoundShown, Row, Zone, move_token, progress_line
from tutor.lessons.classic_war import StandardWarLesson
from tutor.lessons.rank_phrases import houses_card, your_card
from tutor.text import N_, NC_, NP_, Text

# Translators: the scoreboard's line with the hand being played, out of the hands the game lasts (Casino War: one deal
# of cards).
HAND_OF = NC_("scoreboard", "Hand %(n)s of %(total)s")
# Translators: the scoreboard's line with the hand being played.
HAND = NC_("scoreboard", "Hand %(n)s")
# Translators: a scoreboard line: %(side)s is "You" or a computer player's name; the count is their tokens (never
# money).
TOKENS = NP_("%(side)s: %(num)s token", "%(side)s: %(num)s tokens")
# Translators: Casino War's dealer, who is not a player: "the house" as casinos say.
THE_HOUSE = NC_("Casino War's dealer", "The house")
BET = NP_("Bet %(num)s token", "Bet %(num)s tokens")
# Translators: a button: the stake and, as much again, a side bet that the cards will be equal (a tie).
BET_TIE = NP_("Bet %(num)s token, and %(num)s more on a tie", "Bet %(num)s tokens, and %(num)s more on a tie")
# Translators: a button on a tie: give up the hand and get half the stake back.
SURRENDER = NP_("Give up: get %(num)s token back", "Give up: get %(num)s tokens back")
# Translators: a button on a tie: add a second stake and play one more card against the house.
GO_TO_WAR = NP_("Go to war: add %(num)s token", "Go to war: add %(num)s tokens")
CANNOT_AFFORD_TIE = NP_(
    "You have %(num)s token: the stake and the tie bet need %(need)s. Bet without the tie bet.",
    "You have %(num)s tokens: the stake and the tie bet need %(need)s. Bet without the tie bet.",
)
CANNOT_AFFORD_WAR = NP_(
    "You have %(num)s token left: the war needs %(need)s more. You can only give up.",
    "You have %(num)s tokens left: the war needs %(need)s more. You can only give up.",
)
NO_SIDE_BET = N_("In this game there is no tie bet: bet the stake alone.")
OUTCOME = {
    # Translators: %(mine)s is the pupil's card ("your queen"), %(house)s the house's ("the house's 7"); the pupil's
    # stake comes back with as many tokens won.
    "won": NP_(
        "%(mine)s beats %(house)s: you win %(num)s token.",
        "%(mine)s beats %(house)s: you win %(num)s tokens.",
    ),
    # Translators: %(mine)s is the pupil's card ("your queen"), %(house)s the house's ("the house's 7").
    "lost": NP_(
        "%(house)s beats %(mine)s: the house takes your %(num)s token.",
        "%(house)s beats %(mine)s: the house takes your %(num)s tokens.",
    ),
    # Translators: the pupil's card (%(mine)s: "your 7") and the house's card (%(house)s: "the house's 7") are equal.
    "tie": N_("Tie! %(mine)s and %(house)s are equal."),
    "surrendered": NP_("You gave up and got %(num)s token back.", "You gave up and got %(num)s tokens back."),
    # Translators: a war in Casino War: %(mine)s is the pupil's new card ("your queen"), %(house)s the house's ("the
    # house's 7"); an equal card wins for the player.
    "war_won": NP_(
        "War: three cards go aside, then %(mine)s against %(house)s. Equal or higher wins: you win %(num)s token!",
        "War: three cards go aside, then %(mine)s against %(house)s. Equal or higher wins: you win %(num)s tokens!",
    ),
    # Translators: a war in Casino War: %(mine)s is the pupil's new card ("your queen"), %(house)s the house's ("the
    # house's 7").
    "war_lost": NP_(
        "War: three cards go aside, then %(mine)s against %(house)s. The house takes both stakes, %(num)s token.",
        "War: three cards go aside, then %(mine)s against %(house)s. The house takes both stakes, %(num)s tokens.",
    ),
}
SIDE = {
    # Translators: the side bet on a tie: the pupil keeps the side bet and wins 10 times it.
    "won": NP_("Your tie bet wins %(num)s token!", "Your tie bet wins %(num)s tokens!"),
    "lost": NP_("Your tie bet of %(num)s token is lost.", "Your tie bet of %(num)s tokens is lost."),
}
# Translators: after a hand: %(name)s is a computer player's name; %(change)s how many tokens it won (+2) or lost (−2).
OTHER_HAND = N_("%(name)s: %(change)s tokens this hand.")
# Translators: Casino War's end: how the pupil's tokens changed over the game; a loss is written with a minus sign.
TOTAL = NP_(
    "You started with %(start)s tokens and end with %(num)s token: %(change)s.",
    "You started with %(start)s tokens and end with %(num)s tokens: %(change)s.",
)
# Translators: Casino War's end: what all players lost together (the house's gain), in tokens.
HOUSE_GAIN = NP_("The house won %(num)s token in this game.", "The house won %(num)s tokens in this game.")
HOUSE_LOSS = NP_(
    "The house lost %(num)s token in this game: lucky you! In the long run it wins.",
    "The house lost %(num)s tokens in this game: lucky you! In the long run it wins.",
)


def signed(number: int) -> str:
    """A change of tokens with its sign: "+4", "−2" (the minus sign, not a hyphen), "0"."""
    return f"+{number}" if number > 0 else f"−{-number}" if number < 0 else "0"


class CasinoWarLesson(StandardWarLesson):
    """Stakes, ties and wars against the house, told in tokens."""

    game_id = "casino-war"
    lesson_options = {"hands": 10}

    def intro_params(self, game_state, pupil: int) -> dict:
        options = game_state.game.options
        return {"tokens": options["tokens"], "stake": options["stake"], "hands": options["hands"]}

    def round_number(self, game_state) -> int:
        return game_state.rounds

    def round_line(self, game_state, done: int) -> Text:
        """The scoreboard's hand line after ``done`` hands: "Hand 4 of 10" (after the last hand, still the last)."""
        hands = game_state.game.options["hands"]
        return progress_line(hands, min(done, hands - 1), HAND_OF, HAND)

    def scoreboard(self, game_state, pupil: int) -> list[Text]:
        players = game_state.game.players
        lines = [self.round_line(game_state, game_state.rounds)]
        for player in range(players):
            lines.append(Text.count(TOKENS, game_state.holdings(player), side=self.seat_name(player, pupil, players)))
        return lines

    def table(self, game_state, pupil: int) -> list[Zone]:
        players = game_state.game.players
        house = Text.in_context(THE_HOUSE)
        if game_state.house_card:
            rows = [Row(house, list(game_state.house_card) + [c for war in game_state.house_war for c in war])]
            rows += [
                Row(self.seat_name(p, pupil, players), list(game_state.player_cards[p]))
                for p in range(players)
                if game_state.player_cards[p]
            ]
            return [Zone(Text(N_("On the table")), rows, key="this-round")]
        last = game_state.last_hand
        if not last:
            return [Zone(Text(N_("On the table")), [Row(house, [])], key="this-round")]
        rows = [
            Row(
                house, [last["house"]] + [entry["war"]["house"] for entry in last["players"].values() if "war" in entry]
            )
        ]
        for player, entry in sorted(last["players"].items(), key=lambda item: int(item[0])):
            cards = [entry["card"]] + ([entry["war"]["card"]] if "war" in entry else [])
            rows.append(Row(self.seat_name(int(player), pupil, players), cards))
        # Translators: the heading over the cards of the hand just played in Casino War.
        return [Zone(Text.in_context(NC_("heading: the hand just played", "Last hand")), rows, key="last-round")]

    def decided_round(self, game_state, pupil: int, round_number: int) -> RoundShown | None:
        """The hand just played, on the table until the next stake (the table calls it the last hand)."""
        if game_state.last_hand is None or game_state.rounds != round_number or game_state.house_card:
            return None
        [hand] = self.table(game_state, pupil)
        return RoundShown(
            [self.round_line(game_state, round_number - 1)],
            [Zone(Text(N_("On the table")), hand.rows, key="this-round")],
        )

    # --- the pupil's decisions ---------------------------------------------------------------------
    def choices(self, game_state, pupil: int) -> list[Choice]:
        stake = game_state.stake
        if game_state.phase == "bet":
            bets = [Choice(move_token(Move("bet", pupil, (), "plain")), Text.count(BET, stake), place=ACTION)]
            if game_state.game.options[
                "side_bet"
            ]:  # offered whenever the game has it, affordable or not: judge() explains
                bets.append(Choice(move_token(Move("bet", pupil, (), "tie")), Text.count(BET_TIE, stake), place=ACTION))
            return bets
        if game_state.phase == "decide":
            return [
                Choice(move_token(Move("surrender", pupil)), Text.count(SURRENDER, stake // 2), place=ACTION),
                Choice(move_token(Move("war", pupil)), Text.count(GO_TO_WAR, stake), place=ACTION),
            ]
        return []

    def judge(self, game_state, pupil: int, move: Move) -> Judged | None:
        """An unaffordable stake, tie bet or war is refused with the tokens; a legal choice is played."""
        if game_state.is_legal(move):
            return None
        tokens, stake = game_state.tokens[pupil], game_state.stake
        if move.kind == "bet" and move.detail == "tie" and game_state.phase == "bet":
            if not game_state.game.options["side_bet"]:
                return Judged(False, Text(NO_SIDE_BET), kind="bet")
            return Judged(False, Text.count(CANNOT_AFFORD_TIE, tokens, need=2 * stake), kind="bet")
        if move.kind == "war" and game_state.phase == "decide":
            return Judged(False, Text.count(CANNOT_AFFORD_WAR, tokens, need=stake), kind="war")
        return super().judge(game_state, pupil, move)

    def decision_prompt(self, game_state, pupil: int) -> Text:
        if game_state.phase == "decide":
            return Text(N_("Tie: give up, or go to war?"))
        return Text(N_("How do you bet this hand?"))

    def turn_narration(self, game_state, pupil: int) -> Text:
        if game_state.phase == "decide":
            return Text(N_("A tie! Give up and get half your stake back, or go to war with a second stake?"))
        return Text(N_("Place your stake. The house deals one card to you and one to itself."))

    # --- telling a hand -----------------------------------------------------------------------------
    def round_story(self, game_state, pupil: int, recent: list[Move]) -> list[Text]:
        lines = []
        if (
            game_state.phase == "decide"
            and game_state.hand.get("players", {}).get(str(pupil), {}).get("result") == "tie"
        ):
            entry = game_state.hand["players"][str(pupil)]
            tie = {"mine": your_card(entry["card"]), "house": houses_card(game_state.hand["house"])}
            lines.append(Text(OUTCOME["tie"], tie))
            return lines + self.side_lines(entry)
        last = game_state.last_hand
        if not last or game_state.phase not in ("bet", "over"):  # the hand just played, until the next stake
            return lines
        return self.hand_lines(last, pupil, game_state.game.players)

    def side_lines(self, entry: dict) -> list[Text]:
        side = entry.get("side_stake", 0)
        if not side or "side_result" not in entry:
            return []
        return [Text.count(SIDE["won"], 10 * side) if entry["side_result"] == "won" else Text.count(SIDE["lost"], side)]

    def hand_lines(self, last: dict, pupil: int, players: int) -> list[Text]:
        lines = []
        entry = last["players"].get(str(pupil))
        if entry:
            mine, house, stake = your_card(entry["card"]), houses_card(last["house"]), entry["stake"]
            result = entry["result"]
            if result in ("won", "lost"):
                lines.append(Text.count(OUTCOME[result], stake, mine=mine, house=house).as_sentence())
            else:
                lines.append(Text(OUTCOME["tie"], {"mine": mine, "house": house}))
            lines += self.side_lines(entry)
            if entry.get("choice") == "surrendered":
                lines.append(Text.count(OUTCOME["surrendered"], stake // 2))
            elif "war" in entry:
                war = entry["war"]
                won = war["result"] == "won"
                lines.append(
                    Text.count(
                        OUTCOME["war_won" if won else "war_lost"],
                        stake if won else 2 * stake,
                        mine=your_card(war["card"]),
                        house=houses_card(war["house"]),
                    )
                )
        for player, other in sorted(last["players"].items(), key=lambda item: int(item[0])):
            if int(player) != pupil:
                lines.append(
                    Text(OTHER_HAND, {"name": self.name(int(player), pupil), "change": signed(other["change"])})
                )
        return lines

    def finish_story(self, game_state, pupil: int) -> list[Text]:
        story = [self.narration(f"ended_{game_state.ended_by}")] if game_state.ended_by else []
        start = game_state.game.options["tokens"]
        mine = game_state.holdings(pupil)
        story.append(Text.count(TOTAL, mine, start=start, change=signed(mine - start)))
        gain = sum(start - game_state.holdings(p) for p in range(game_state.game.players))
        story.append(Text.count(HOUSE_GAIN, gain) if gain >= 0 else Text.count(HOUSE_LOSS, -gain))
        return story

    # --- drills -----------------------------------------------------------------------------------------
    def before_move(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        """Before a stake, a question about the chances of this table: the kind pitched nearest the pupil's target,
        the hand's own kind first (the kinds turning with the hand)."""
        if game_state.phase != "bet":
            return []
        options = game_state.game.options
        decks, stake = options["decks"], options["stake"]
        other_decks = 6 if decks == 1 else 1
        offers = [
            Offer("probability", "probability_tie", lambda level: probability_tie(decks, level)),
            Offer("probability", "casino_house_edge", lambda level: casino_house_edge(decks, level)),
            Offer(
                "probability",
                "casino_expected_loss",
                lambda level: casino_expected_loss(
                    decks, stake, self.hands_for_whole_tokens(decks, stake, level), level
                ),
            ),
            Offer("probability", "probability_tie", lambda level: probability_tie(other_decks, level)),
        ]
        if options["side_bet"]:
            offers.append(Offer("probability", "probability_tie_bet", lambda level: probability_tie_bet(decks, level)))
        first = game_state.rounds % len(offers)
        return [choose_question(levels, offers[first:] + offers[:first])]

    @staticmethod
    def hands_for_whole_tokens(decks: int, stake: int, level: int) -> int:
        """A number of hands after which the tokens a pupil can expect to lose are whole: more at higher levels."""
        per_hand = Fraction(4 * decks - 1, 52 * decks - 1) * (stake // 2)
        return per_hand.denominator * level

    def after_round(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        """After every fourth hand the pupil won or lost outright: how much higher the one card was than the other
        (for the youngest, which was higher), or the other, if it is pitched nearer the pupil's target."""
        last = game_state.last_hand
        entry = last and last["players"].get(str(pupil))
        if not entry or entry["result"] not in ("won", "lost") or game_state.rounds % 4:
            return []
        cards = [entry["card"], last["house"]]

        def which_is_higher(level: int) -> Question:
            question = compare_ranks(cards, level)
            question.cards = cards
            return question

        difference = Offer("compare", "rank_difference", lambda level: rank_difference(cards, level))
        higher = Offer("compare", "compare_ranks", which_is_higher)
        offers = [difference, higher] if level_of(levels, "compare") > 1 else [higher, difference]
        return [question for question in [choose_question(levels, offers)] if question is not None]
