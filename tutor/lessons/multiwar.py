"""MultiWar's lesson: the pupil turns two cards a round, and the biggest product wins.

The pupil only turns cards, so the drills come after the round: the product of the
pupil's two cards or which product won, whichever is pitched nearest the pupil
(:func:`tutor.drills.choose_question`), and every third round which product won after the product.
"""

from __future__ import annotations

import random

from tutor.deck import kids2
from tutor.drills import Offer, Question, choose_question, level_of
from tutor.drills.compare import compare_numbers
from tutor.drills.multiply import multiply_top_numbers
from tutor.lessons.base import (
    YOU,
    Choice,
    Row,
    Zone,
    move_token,
)
from tutor.lessons.war_family import WAR, RoundTeller, WarFamilyLesson, last_round_zone, turned_zone
from tutor.signs import formula
from tutor.text import N_, Text


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
        """The product of the pupil's two cards or which product won, whichever is pitched nearest the pupil's target
        (the product first); every third round which product won after the product too."""
        battle = self.pupil_battle(game_state, pupil)
        if not battle or str(pupil) not in battle["turned"]:
            return []
        numbers = [c for c in battle["turned"][str(pupil)] if not kids2()[c].is_special]
        products = [r for r in battle["results"].values() if isinstance(r, int)]
        every_third = game_state.rounds % 3 == 0
        offers = []
        if len(numbers) == 2:

            def product(level: int) -> Question:
                question = multiply_top_numbers(numbers[0], numbers[1], level)
                question.hides_result = True
                return question

            offers.append(Offer("multiply", "multiply_top_numbers", product))
        compare = Offer("compare", "compare_numbers", lambda level: compare_numbers(products, level))
        if len(set(products)) >= 2 and (offers or every_third):
            offers.append(compare)
        first = choose_question(levels, offers)
        if first is None or first.kind == compare.kind or not every_third or compare not in offers:
            return [question for question in [first] if question is not None]
        return [first, compare.build(level_of(levels, "compare"))]
