"""Strategy War's lesson: the pupil chooses every card from the hand, hidden until all have chosen.

The round is told as in War, with the 2's own rule: without jokers the 2 beats the ace; with
jokers it beats the joker and the ace beats it (the intro and the story say which). The drills
ask about the round.
"""

from __future__ import annotations

import random

from tutor.drills import Question, level_of
from tutor.drills.count import cards_on_table
from tutor.engine import Move
from tutor.lessons.base import (
    WINNER_MARK,
    Row,
    Zone,
)
from tutor.lessons.classic_war import FACE_DOWN_NOTE, RAN_OUT, StandardWarLesson
from tutor.lessons.war_family import LAST_ROUND, NOBODY_WINS, TAKES
from tutor.text import N_, Text


class StrategyWarLesson(StandardWarLesson):
    """The pupil chooses every card from the hand; the round is told as in War, the drills ask about it."""

    game_id = "strategy-war"

    def rule_set(self, game_state) -> str:
        """With jokers the 2 beats the joker and the ace beats the 2: another set of special rules."""
        return "strategy-war-jokers" if game_state.game.options["jokers"] != "none" else "strategy-war"

    def intro_text(self, step: int, game_state, pupil: int) -> Text:
        """The step about the ranks tells the 2's rule with jokers when they are in the game."""
        if self.intro_steps()[step]["focus"] == "ranks" and game_state.game.options["jokers"] != "none":
            return self.narration("ranks_with_jokers")
        return super().intro_text(step, game_state, pupil)

    def table(self, game_state, pupil: int) -> list[Zone]:
        view = game_state.player_view(pupil)
        players = game_state.game.players
        zones = []
        last = view["last_round"]
        if last and last["battles"]:
            rows = []
            for player in range(players):
                turned = [
                    battle["turned"][str(player)] for battle in last["battles"] if str(player) in battle["turned"]
                ]
                if turned:
                    rows.append(
                        Row(
                            self.seat_name(player, pupil, players),
                            turned,
                            mark=Text.in_context(WINNER_MARK) if player == last["winner"] else None,
                        )
                    )
            zones.append(Zone(Text.in_context(LAST_ROUND), rows, key="last-round"))
        rows = []
        for player in range(players):
            chosen = (
                [view["chosen"]]
                if player == pupil and view["chosen"] is not None
                else [None]
                if player in view["submitted"]
                else []
            )
            down = view["pot_counts"][player]
            rows.append(
                Row(
                    self.seat_name(player, pupil, players),
                    [None] * down + list(view["shown"][player]) + chosen,
                    note=Text.count(FACE_DOWN_NOTE, down) if down else None,
                )
            )
        zones.append(Zone(Text(N_("On the table")), rows, key="this-round"))
        return zones

    def turn_narration(self, game_state, pupil: int) -> Text:
        return self.narration("choose_war" if game_state.battles else "choose")

    def round_story(self, game_state, pupil: int, recent: list[Move]) -> list[Text]:
        view = game_state.player_view(pupil)
        story = []
        last = view["last_round"]
        if last and not view["battles"]:  # the round just decided (the pupil chooses first in every round)
            for battle in last["battles"]:
                story += self.battle_lines(game_state, battle, pupil)
            if last["winner"] is None:
                story.append(Text(NOBODY_WINS, {"round": last["round"]}))
            elif last["winner"] == pupil:
                story.append(Text.count(TAKES["you"], last["cards_won"], round=last["round"]))
            else:
                story.append(
                    Text.count(
                        TAKES["other"], last["cards_won"], round=last["round"], name=self.name(last["winner"], pupil)
                    )
                )
        for battle in view["battles"]:
            story += self.battle_lines(game_state, battle, pupil)
        return story

    def battle_lines(self, game_state, battle: dict, pupil: int) -> list[Text]:
        lines = [self.you_or_other(RAN_OUT, p, pupil) for p in battle.get("out", [])]
        cards = {int(p): c for p, c in battle["turned"].items()}
        return lines + self.compare_lines(game_state, cards, battle["leaders"], len(battle["leaders"]) > 1, pupil)

    def after_round(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        last = game_state.last_round
        if not last or not last["battles"]:
            return []
        turned = last["battles"][-1]["turned"]
        if str(pupil) not in turned:
            return []
        if last["round"] % 3 == 0 and last["winner"] == pupil and len(last["laid"]) > 1:
            mine = last["laid"][str(pupil)]
            question = cards_on_table(
                [mine, *(n for p, n in sorted(last["laid"].items(), key=lambda i: int(i[0])) if p != str(pupil))],
                level_of(levels, "count"),
            )
            question.hides_result = True
            return [question]
        return self.compare_question(game_state, [turned[p] for p in sorted(turned, key=int)], levels)
