"""Strategy War's lesson: the pupil chooses every card from the hand, hidden until all have chosen.

The round is told as in War, with the 2's own rule: without jokers the 2 beats the ace; with
jokers it beats the joker and the ace beats it (the intro and the story say which). The drills
take turns, one between two choices: after every other round a question about its cards (as in
War: by how much, how many cards the winner takes, who is ahead, the 2's own rule); after every
fourth, a decision: which card of the hand beats the best card another player laid, still on
the table, with the least waste; before every fourth choice, how many of the cards the pupil
cannot see beat a card of the hand; in a war, how many cards it puts on the table, or which
card beats the tied one.
"""

from __future__ import annotations

import random

from tutor.drills import Offer, Question, choose_question, level_of
from tutor.drills.compare import least_waste_card
from tutor.drills.count import unseen_beat_count, war_cards
from tutor.engine import Move
from tutor.engine.strategy_war import WAR_CARDS
from tutor.lessons.base import (
    WINNER_MARK,
    RoundShown,
    Row,
    Zone,
)
from tutor.lessons.classic_war import FACE_DOWN_NOTE, RAN_OUT, Decided, StandardWarLesson
from tutor.lessons.war_family import LAST_ROUND, NOBODY_WINS, TAKES
from tutor.standard_deck import ACE, JOKER_RANK, rank
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
            zones.append(Zone(Text.in_context(LAST_ROUND), self.round_rows(last, pupil, players), key="last-round"))
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

    def round_rows(self, last: dict, pupil: int, players: int) -> list[Row]:
        """The cards each player turned in a decided round (``last``), the winner marked."""
        rows = []
        for player in range(players):
            turned = [battle["turned"][str(player)] for battle in last["battles"] if str(player) in battle["turned"]]
            if turned:
                mark = Text.in_context(WINNER_MARK) if player == last["winner"] else None
                rows.append(Row(self.seat_name(player, pupil, players), turned, mark=mark))
        return rows

    def decided_round(self, game_state, pupil: int, round_number: int) -> RoundShown | None:
        """The round's turned cards on the table as they lay when it was decided, before anyone chooses again."""
        last = game_state.player_view(pupil)["last_round"]
        if not last or last["round"] != round_number or not last["battles"]:
            return None
        rows = self.round_rows(last, pupil, game_state.game.players)
        return RoundShown(
            [self.round_line(game_state, round_number - 1)], [Zone(Text(N_("On the table")), rows, key="this-round")]
        )

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

    # --- drills ---------------------------------------------------------------------------------------
    def before_move(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        """In a war, how many cards it puts down or which card beats the tied card, whichever is pitched nearest the
        pupil's target (the first in every other round first); before every fourth round (the
        gap after_round leaves), how many of the cards the pupil cannot see beat a card of the hand."""
        if game_state.phase != "choose" or game_state.current_player != pupil or not game_state.hands[pupil]:
            return []
        if game_state.battles:
            war = self.war_offers(game_state, pupil)
            beat = self.beat_offers(game_state, pupil, self.tied_card(game_state, pupil))
            offers = war + beat if (game_state.rounds + game_state.wars) % 2 else beat + war
            return [question for question in [choose_question(levels, offers)] if question is not None]
        return self.unseen_drill(game_state, pupil, levels) if game_state.rounds % 4 == 0 else []

    @staticmethod
    def best_other_card(turned: dict, pupil: int) -> int | None:
        """The highest card another player turned in a battle (None: nobody else turned one)."""
        others = [c for p, c in turned.items() if int(p) != pupil]
        return max(others, key=rank, default=None)

    def tied_card(self, game_state, pupil: int) -> int | None:
        """The card another player tied with in the war being fought: it lies face up on the table."""
        return self.best_other_card(game_state.battles[-1]["turned"], pupil)

    def beat_offers(self, game_state, pupil: int, shown: int | None) -> list[Offer]:
        """Which card of the hand beats the shown card with the least waste (none if the pupil has won that card)."""
        hand = list(game_state.hands[pupil])
        if shown is None or not hand or shown in hand:
            return []
        top = JOKER_RANK if game_state.game.options["jokers"] != "none" else ACE
        return [Offer("compare", "least_waste_card", lambda level: least_waste_card(hand, shown, level, top))]

    def unseen_drill(self, game_state, pupil: int, levels: dict) -> list[Question]:
        """How many of the cards the pupil cannot see beat a middle card of the hand."""
        jokers = game_state.game.options["jokers"] != "none"
        hand = sorted(game_state.hands[pupil], key=rank)
        middle = hand[len(hand) // 2]
        seen = [c for c in hand if c != middle] + [c for cards in game_state.shown for c in cards]
        return [unseen_beat_count(middle, seen, jokers, level_of(levels, "count"))]

    def war_offers(self, game_state, pupil: int) -> list[Offer]:
        """How many cards the war puts on the table: three face down and one chosen card per player in it."""
        fighters = list(game_state.contenders)
        if len(fighters) < 2 or any(len(game_state.pot[p]) != WAR_CARDS * game_state.wars for p in fighters):
            return []
        on_table = sum(len(game_state.table_cards(p)) for p in range(game_state.game.players))
        before = on_table - WAR_CARDS * len(fighters)
        return [Offer("count", "war_cards", lambda level: war_cards(len(fighters), WAR_CARDS, level, before))]

    def after_round(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        """About the round's cards on the table: after every other round a question as in War; after every fourth,
        which card of the hand beats the best card another player laid with the least waste."""
        last = game_state.last_round
        if not last or not last["battles"] or last["round"] % 4 == 0:
            return []
        turned = last["battles"][-1]["turned"]
        if last["round"] % 2 == 0:
            beat = self.beat_offers(game_state, pupil, self.best_other_card(turned, pupil))
            return [question for question in [choose_question(levels, beat)] if question is not None]
        laid = {int(p): n for p, n in last["laid"].items()}
        if str(pupil) not in turned or not laid.get(pupil):
            return []
        order = [pupil, *(p for p in sorted(map(int, turned)) if p != pupil)]
        shown = [turned[str(p)] for p in order]
        winner = last["winner"]
        winning = turned.get(str(winner)) if winner is not None else None
        return self.round_drills(game_state, pupil, Decided(last["round"], shown, winning, laid, winner), levels)
