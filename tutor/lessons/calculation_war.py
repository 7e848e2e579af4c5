"""The Calculation War lesson: when to ask which question about the cards on the table.

After a round, when the pupil's card is one of the two highest sums and they are close
(estimates cannot decide), it asks the exact sum of the pupil's card, and which card won
after a wrong answer; otherwise, after every other round, which card won. Before the
pupil lays a card in the other rounds it takes turns between estimating one card's sum
and picking the best of the five. So one question comes between two cards laid, the
kinds taking turns. Where the table supports other questions too (a card's sum estimated
or exact, the best card, which card won) the one pitched nearest the pupil's target is asked
(:func:`tutor.drills.choose_question`), the lesson's kind first among kinds pitched alike.
A question about a round shows that round's cards on the table
(:meth:`WarFamilyLesson.decided_round`), never the empty places of the next.

Every round is told with its sums ("Your 266 beats 176 and 201."), its wars and who
takes the cards. Any card of the hand can be chosen; in a war the rules want the best
card left in the hand (games.md), and the lesson judges that choice. Decision: the war
card is an answer for ``estimate_sum``, the skill of "pick the best card of five":
ranking the cards left by their circled sums is the same estimate. A right war card is
told and recorded as a right answer, any other is refused with the sums and recorded
as a wrong one. Outside a war every card may be laid and nothing is judged
(laying a weaker card is a poor choice, not a broken rule; the drills ask about it).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tutor.deck import kids2
from tutor.drills import Offer, Question, choose_question, level_of
from tutor.drills.compare import winning_card
from tutor.drills.estimate_sum import best_card, estimate_card_sum, round_to_ten
from tutor.drills.exact_sum import exact_card_sum
from tutor.engine import Move
from tutor.engine.calculation_war import card_sum, war_sum
from tutor.lessons.base import Judged, Row, Zone, and_list
from tutor.lessons.war_family import (
    TIE_NOBODY,
    TIE_ONE_SIDE,
    WAR,
    RoundTeller,
    WarFamilyLesson,
    last_round_zone,
    war_scoreboard,
    winning_players,
)
from tutor.text import N_, NP_, Text

#: Two sums this close cannot be told apart by estimating to tens.
CLOSE = 15

# Translators: %(sums)s lists the circled sums of the cards left in the pupil's hand ("266, 201 and 176"); %(best)s
# is the highest of them.
WAR_CARD_RIGHT = N_("Your cards add up to %(sums)s: in a war you lay the best card you have left, the %(best)s.")
# Translators: %(sums)s lists the circled sums of the cards left in the pupil's hand ("266, 201 and 176"); %(best)s
# is the highest of them.
WAR_CARD_WRONG = N_("In a war you lay the best card you have left: your cards add up to %(sums)s, so lay the %(best)s.")
# Translators: %(sums)s lists the circled sums of the cards left in the pupil's hand ("266, 266 and 201"); %(best)s
# is the highest of them.
WAR_CARD_WRONG_TIED = N_(
    "In a war you lay the best card you have left: your cards add up to %(sums)s, so lay one of the cards with "
    "%(best)s."
)
FORFEITED = (
    NP_("You also lose the %(num)s card left in your hand.", "You also lose the %(num)s cards left in your hand."),
    # Translators: %(name)s is a computer player's name ("Computer 2"), never "you".
    NP_(
        "%(name)s also loses the %(num)s card left in their hand.",
        "%(name)s also loses the %(num)s cards left in their hand.",
    ),
)


def player_label(player: int, pupil: int, players: int) -> Text:
    if player == pupil:
        return Text(N_("your card"))
    if players == 4 and player == (pupil + 2) % 4:
        return Text(N_("your partner's card"))
    return Text(N_("the card of computer %(n)s"), {"n": player})


def hiding_result(build: Callable[[int], Question]) -> Callable[[int], Question]:
    """A question about the pupil's card that waits for the round's story to tell the sums."""

    def built(level: int) -> Question:
        question = build(level)
        question.hides_result = True
        return question

    return built


class SumTeller(RoundTeller):
    """Calculation War: the circled sum of the card each player laid."""

    war_messages = WAR["sum"]

    def results(self, battle: dict) -> dict[int, object]:
        return {int(p): card_sum(card) for p, card in battle["cards"].items()}

    def tie_lines(self, battle: dict, last: dict) -> list[Text]:
        """Equal sums across sides, but at most one side still had a card for the war."""
        tied = self.leaders(battle)
        value = self.results(battle)[tied[0]]
        fighters = winning_players(last)
        if not fighters:
            return [self.you_and_others(TIE_NOBODY["sum"], tied, value=value)]
        messages = TIE_ONE_SIDE["sum"]
        if self.pupil in tied and self.pupil in fighters:
            return [
                Text(messages[0], {"others": and_list([self.name(p) for p in tied if p != self.pupil]), "value": value})
            ]
        if self.pupil in tied:
            return [
                Text(
                    messages[1],
                    {
                        "others": and_list([self.name(p) for p in tied if p != self.pupil]),
                        "value": value,
                        "name": self.name(fighters[0]),
                    },
                )
            ]
        return [
            Text(
                messages[2],
                {"players": and_list([self.name(p) for p in tied]), "value": value, "name": self.name(fighters[0])},
            )
        ]

    def round_lines(self, last: dict) -> list[Text]:
        lines = super().round_lines(last)
        for player, cards in sorted(last["forfeited"].items(), key=lambda item: int(item[0])):
            if cards:
                player = int(player)
                lines.append(
                    Text.count(FORFEITED[0], len(cards))
                    if player == self.pupil
                    else Text.count(FORFEITED[1], len(cards), name=self.name(player))
                )
        return lines


class CalculationWarLesson(WarFamilyLesson):
    game_id = "calculation-war"
    lesson_options = {"round_limit": 10}
    teams_of_four = True
    common_content = "war-common"
    teller = SumTeller

    def intro_params(self, game_state, pupil: int) -> dict:
        example = kids2()[sorted(game_state.hands[pupil])[0]]
        return {
            "example_values": " + ".join(map(str, example.circled)),
            "example_sum": example.circled_sum,
            "example_top": example.top,
            "example_estimate": sum(round_to_ten(v) for v in example.circled),
            "rounds": game_state.game.options["round_limit"],
        }

    def before_move(self, game_state, pupil, rng: random.Random, levels: dict) -> list:
        """In every other round, before the pupil lays a card: one card's sum estimated or exact, or the best card of
        the hand, whichever is pitched nearest the pupil's target; the kinds taking turns lead."""
        round_number = game_state.rounds
        if game_state.wars or len(game_state.hands[pupil]) < 2 or round_number % 2:
            return []
        hand = sorted(game_state.hands[pupil])
        about = rng.choice(hand)
        estimate = Offer("estimate_sum", "estimate_card_sum", lambda level: estimate_card_sum(about, level))
        best = Offer("estimate_sum", "best_card", lambda level: best_card(hand, level))
        exact = Offer("exact_sum", "exact_card_sum", lambda level: exact_card_sum(about, level))
        offers = [estimate, best, exact] if round_number % 4 == 0 else [best, estimate, exact]
        return [choose_question(levels, offers)]

    def after_round(self, game_state, pupil, rng: random.Random, levels: dict) -> list:
        """After a close round the exact sum of the pupil's card first (which card won after a wrong answer), after
        every other round which card won; the pupil's card's sum, exact or estimated, may be pitched nearer."""
        last = game_state.last_round
        if not last or last["wars"] or str(pupil) not in last["table"]:
            return []
        first_layer = {int(p): cards[0] for p, cards in last["table"].items()}
        mine = first_layer[pupil]
        sums = sorted((kids2()[c].circled_sum for c in first_layer.values()), reverse=True)
        labels = {card: player_label(p, pupil, game_state.game.players) for p, card in first_layer.items()}
        table = [first_layer[p] for p in sorted(first_layer)]
        compare = Offer("compare", "winning_card", lambda level: winning_card(table, labels, level))
        exact = Offer("exact_sum", "exact_card_sum", hiding_result(lambda level: exact_card_sum(mine, level)))
        estimate = Offer(
            "estimate_sum", "estimate_card_sum", hiding_result(lambda level: estimate_card_sum(mine, level))
        )
        top_two = sums[:2]
        if kids2()[mine].circled_sum in top_two and top_two[0] - top_two[1] <= CLOSE:
            first = choose_question(levels, [exact, compare])  # estimates cannot decide these sums
            return (
                [first]
                if first is None or first.kind == compare.kind
                else [first, compare.build(level_of(levels, "compare"))]
            )
        return [choose_question(levels, [compare, exact, estimate])] if last["round"] % 2 else []

    def table(self, game_state, pupil: int) -> list[Zone]:
        """Last round's cards with the winning card marked, and this round's cards, face down until turned."""
        view = game_state.player_view(pupil)
        players = game_state.game.players
        rows = [
            Row(
                self.seat_name(p, pupil, players),
                list(view["table"][p]),
                note=Text.count(NP_("%(num)s card in hand", "%(num)s cards in hand"), view["hand_counts"][p]),
            )
            for p in range(players)
        ]
        return last_round_zone(self, game_state, pupil) + [Zone(Text(N_("On the table")), rows, key="this-round")]

    def turn_narration(self, game_state, pupil: int) -> Text:
        return self.narration("your_war" if game_state.wars else "your_turn")

    def decision_prompt(self, game_state, pupil: int) -> Text:
        if game_state.wars:
            return Text(N_("Which card is the best one you have left for the war?"))
        return super().decision_prompt(game_state, pupil)

    def judge(self, game_state, pupil: int, move: Move) -> Judged | None:
        """In a war, the best card left by circled sum, told with the sums of the hand (see the module docstring)."""
        if move.kind != "play" or game_state.phase != "play" or game_state.current_player != pupil:
            return super().judge(game_state, pupil, move)
        hand = game_state.hands[pupil]
        if len(move.cards) != 1 or move.cards[0] not in hand:
            return None  # not the pupil's card: a stale or forged form, refused without a word
        if not game_state.wars or len(hand) < 2:
            return None  # every card may be laid
        sums = sorted((card_sum(c) for c in hand), reverse=True)
        best = war_sum(hand)
        params = {"sums": and_list(sums), "best": best}
        if card_sum(move.cards[0]) == best:
            return Judged(True, Text(WAR_CARD_RIGHT, params), "estimate_sum", "war_card")
        wrong = WAR_CARD_WRONG_TIED if sums.count(best) > 1 else WAR_CARD_WRONG
        return Judged(False, Text(wrong, params), "estimate_sum", "war_card")

    def scoreboard(self, game_state, pupil: int) -> list[Text]:
        return war_scoreboard(self, game_state, pupil)
