"""The Fraction Master lesson: lay an interval, make fractions inside it, and talk about fractions.

The pupil's moves are buttons: a layout of the four interval cards as two fractions
(when it is the pupil's turn to lay), a fraction from two of the pupil's cards that
fits, or ending the turn. At the start of every other turn of the pupil the lesson asks
a fraction question about the interval on the table and the pupil's own cards: which
of your fractions fits, is this one inside, which is larger, put three in order, are
two equivalent.
"""

from __future__ import annotations

import random

from tutor.deck import kids2
from tutor.drills import Question, Text, difficulty_for
from tutor.drills.fractions_primes_mean import fraction_equivalent, fraction_from_hand, fraction_in_interval, fraction_larger, fraction_order
from tutor.engine import Move
from tutor.engine.fraction_master import interval_of
from tutor.lessons.base import Choice, Lesson, Row, Zone, move_token
from tutor.text import N_, NP_


def fraction_text(numerator_card: int, denominator_card: int) -> str:
    return f"{kids2()[numerator_card].top}/{kids2()[denominator_card].top}"


class FractionMasterLesson(Lesson):
    game_id = "fraction-master"
    lesson_options = {"round_limit": 16}
    teams_of_four = True
    offers_legal_moves_only = True  # until fractions are built by picking cards (issue 8)

    def round_number(self, game_state) -> int:
        return game_state.turns

    def intro_params(self, game_state, pupil: int) -> dict:
        numbers = [kids2()[c].top for c in game_state.interval]
        return {"numbers": ", ".join(map(str, numbers)), "turns": game_state.game.options["round_limit"] or "∞"}

    def scoreboard(self, game_state, pupil: int) -> list[Text]:
        view = game_state.player_view(pupil)
        limit = game_state.game.options["round_limit"]
        lines = [Text(N_("Turn %(n)s of %(total)s"), {"n": min(view["rounds"] + 1, limit), "total": limit}) if limit else Text(N_("Turn %(n)s"), {"n": view["rounds"] + 1})]
        for index, side in enumerate(view["sides"]):
            names = [self.seat_name(p, pupil, game_state.game.players) for p in side]
            side_name = names[0] if len(names) == 1 else Text(N_("%(first)s and %(second)s"), {"first": names[0], "second": names[1]})
            lines.append(Text.count(NP_("%(side)s: %(num)s card left (draw pile %(draw)s)", "%(side)s: %(num)s cards left (draw pile %(draw)s)"), view["side_counts"][index], side=side_name, draw=view["draw_counts"][index]))
        return lines

    def table(self, game_state, pupil: int) -> list[Zone]:
        view = game_state.player_view(pupil)
        players = game_state.game.players
        if view["interval_laid"]:
            low, high = interval_of(view["interval"])
            key = N_("from %(low)s to %(high)s, the ends do not count") if view["strict"] else N_("from %(low)s to %(high)s, the ends count too")
            interval = Row(Text(N_("The interval")), list(view["interval"]), note=Text(key, {"low": str(low), "high": str(high)}))
        else:
            interval = Row(Text(N_("The four interval cards")), list(view["interval"]), note=Text(N_("not laid yet")))
        zones = [Zone(Text(N_("On the table")), [interval], key="interval")]
        record = view["this_turn"] if view["this_turn"] and view["this_turn"]["fractions"] else view["last_turn"]
        if record and record["fractions"]:
            cards = [c for pair in record["fractions"] for c in pair]
            zones.append(Zone(Text(N_("Fractions laid")), [Row(self.seat_name(record["player"], pupil, players), cards, note=Text(", ".join(fraction_text(*pair) for pair in record["fractions"])))], key="laid"))
        others = [
            Row(self.seat_name(p, pupil, players), [None] * view["hand_counts"][p], note=Text.count(NP_("%(num)s card in hand", "%(num)s cards in hand"), view["hand_counts"][p]), highlight=p in view["waiting"][:1])
            for p in range(players)
            if p != pupil
        ]
        return zones + [Zone(Text(N_("The other players")), others, key="others")]

    def choices(self, game_state, pupil: int) -> list[Choice]:
        choices = []
        for move in game_state.legal_moves():
            if move.kind == "lay_interval":
                n1, d1, n2, d2 = move.cards
                label = Text(N_("Lay %(first)s and %(second)s"), {"first": fraction_text(n1, d1), "second": fraction_text(n2, d2)})
            elif move.kind == "play_fraction":
                label = Text(N_("Lay the fraction %(fraction)s"), {"fraction": fraction_text(*move.cards)})
            elif game_state.turn_record and game_state.turn_record["fractions"]:
                label = Text(N_("End my turn"))
            else:
                label = Text(N_("No fraction fits: keep my cards"))
            choices.append(Choice(move_token(move), label, list(move.cards)))
        return choices

    def turn_narration(self, game_state, pupil: int) -> Text:
        if game_state.phase == "lay":
            return self.narration("your_layout", name=self.seat_name(game_state.waiting[0] if game_state.waiting else (pupil + 1) % game_state.game.players, pupil, game_state.game.players))
        low, high = interval_of(game_state.interval)
        return self.narration("your_turn", low=str(low), high=str(high))

    def round_story(self, game_state, pupil: int, recent: list[Move]) -> list[Text]:
        record = game_state.last_turn
        if not record or record["turn"] != game_state.turns:
            return []
        name = self.seat_name(record["player"], pupil, game_state.game.players)
        story = []
        if record["specials"]:
            story.append(self.narration("special_drawn", name=name))
        if record["fractions"]:
            story.append(self.narration("laid", name=name, fractions=", ".join(fraction_text(*pair) for pair in record["fractions"])))
        else:
            story.append(self.narration("kept", name=name))
        return story

    def before_move(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        """At the start of every other turn of the pupil (interval laid, nothing played yet)."""
        if game_state.phase != "move" or (game_state.turn_record and game_state.turn_record["fractions"]):
            return []
        if (game_state.turns // game_state.game.players) % 2:
            return []
        interval, hand = list(game_state.interval), [c for c in sorted(game_state.hands[pupil]) if not kids2()[c].is_special]
        level = difficulty_for(levels.get("fractions", 0.0))
        strict = game_state.strict
        askers = [
            lambda: fraction_from_hand(interval, hand, level, strict),
            lambda: fraction_in_interval(interval, hand, level, strict),
            lambda: fraction_larger(interval, hand, level),
            lambda: fraction_order(interval, hand, level),
            lambda: fraction_equivalent(interval, hand, level),
        ]
        rng.shuffle(askers)
        for ask in askers if len(hand) >= 2 else askers[:0]:
            try:
                return [ask()]
            except ValueError:  # too few different fractions on the table for this kind
                continue
        return []

