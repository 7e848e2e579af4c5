"""The Calculation War lesson: when to ask which question about the cards on the table.

Before the pupil lays a card it alternates between estimating one card's sum and
picking the best of the five, pausing every third round so the game keeps its pace.
After a round, when the two highest sums are close (estimates cannot decide), it asks
the exact sum of the pupil's card and then which card won; otherwise, now and then,
just which card won.
"""

from __future__ import annotations

import random

from tutor.deck import kids2
from tutor.drills import Text, difficulty_for
from tutor.drills.card_sums import best_card, estimate_card_sum, exact_card_sum, round_to_ten, winning_card
from tutor.lessons.base import Lesson, Row, Zone, computer_name
from tutor.lessons.war_family import last_round_zone, war_scoreboard
from tutor.text import N_, NP_

#: Two sums this close cannot be told apart by estimating to tens.
CLOSE = 15


def player_label(player: int, pupil: int, players: int) -> Text:
    if player == pupil:
        return Text(N_("your card"))
    if players == 4 and player == (pupil + 2) % 4:
        return Text(N_("your partner's card"))
    return Text(N_("the card of computer %(n)s"), {"n": player})


class CalculationWarLesson(Lesson):
    game_id = "calculation-war"
    lesson_options = {"round_limit": 10}
    teams_of_four = True
    common_content = "war-common"

    def intro_params(self, game_state, pupil: int) -> dict:
        example = kids2()[sorted(game_state.hands[pupil])[0]]
        return {
            "example_values": " + ".join(map(str, example.circled)),
            "example_sum": example.circled_sum,
            "example_top": example.top,
            "example_estimate": sum(round_to_ten(v) for v in example.circled),
            "rounds": game_state.game.options["round_limit"] or "∞",
        }

    def before_move(self, game_state, pupil, rng: random.Random, levels: dict) -> list:
        if game_state.wars or len(game_state.hands[pupil]) < 2:
            return []
        round_number = game_state.rounds
        if round_number % 3 == 2:
            return []
        hand = sorted(game_state.hands[pupil])
        if round_number % 2 == 0:
            return [estimate_card_sum(rng.choice(hand), difficulty_for(levels.get("estimate_sum", 0.0)))]
        return [best_card(hand, difficulty_for(levels.get("estimate_sum", 0.0)))]

    def after_round(self, game_state, pupil, rng: random.Random, levels: dict) -> list:
        last = game_state.last_round
        if not last or last["wars"] or str(pupil) not in last["table"]:
            return []
        first_layer = {int(p): cards[0] for p, cards in last["table"].items()}
        mine = first_layer[pupil]
        sums = sorted((kids2()[c].circled_sum for c in first_layer.values()), reverse=True)
        labels = {card: player_label(p, pupil, game_state.game.players) for p, card in first_layer.items()}
        table = [first_layer[p] for p in sorted(first_layer)]
        compare = winning_card(table, labels, difficulty_for(levels.get("compare", 0.0)))
        top_two = sums[:2]
        if kids2()[mine].circled_sum in top_two and top_two[0] - top_two[1] <= CLOSE:
            return [exact_card_sum(mine, difficulty_for(levels.get("exact_sum", 0.0))), compare]
        return [compare] if last["round"] % 3 == 0 else []

    def scoreboard(self, game_state, pupil: int) -> list[Text]:
        return war_scoreboard(self, game_state, pupil)

    def table(self, game_state, pupil: int) -> list[Zone]:
        """Last round's cards with the winner, and this round's cards, face down until turned."""
        view = game_state.player_view(pupil)
        players = game_state.game.players
        rows = [
            Row(self.seat_name(p, pupil, players), list(view["table"][p]), note=Text.count(NP_("%(num)s card in hand", "%(num)s cards in hand"), view["hand_counts"][p]))
            for p in range(players)
        ]
        return last_round_zone(self, game_state, pupil) + [Zone(Text(N_("On the table")), rows, key="this-round")]

    def turn_narration(self, game_state, pupil: int) -> Text:
        return self.narration("your_war" if game_state.wars else "your_turn")

    def round_story(self, game_state, pupil: int, recent=()) -> list[Text]:
        """What happened in the last round, for the pupil to read."""
        last = game_state.last_round
        if not last:
            return []
        story = []
        if last["wars"]:
            story.append(self.narration("war_happened", round=last["round"]))
        count = sum(len(cards) for cards in last["table"].values()) + sum(len(c) for c in last["forfeited"].values())
        winners = last["winners"]
        if not winners:
            story.append(self.narration("round_split"))
        elif pupil in winners:
            key = "round_won_by_team" if len(winners) > 1 else "round_won_by_you"
            story.append(self.narration(key, round=last["round"], count=count))
        else:
            story.append(self.narration("round_won_by", name=computer_name(winners[0]), round=last["round"], count=count))
        for player, cards in last["forfeited"].items():
            if cards:
                name = Text(N_("You")) if int(player) == pupil else computer_name(int(player))
                story.append(self.narration("forfeited", name=name, count=len(cards)))
        return story
