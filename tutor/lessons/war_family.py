"""Lessons for the War-like Kids2 games with draw and collection piles: MultiWar and TripleSmart.

They share the scoreboard (cards per side, draw and collection piles) and the table
(last round's cards with the winner, this round's turned cards and the face-down pot).
MultiWar's pupil only turns cards, so its drills come after the round: the product of
the pupil's two cards, then now and then which product won. In TripleSmart the pupil's
move *is* the maths: an expression typed with the card values; after the round the
lesson asks how far it was from the target and whether a better one existed, and the
story shows the best reachable value with an expression that reaches it.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

from tutor.answers import read_answer
from tutor.deck import kids2
from tutor.drills import Question, Text, difficulty_for
from tutor.drills.number_facts import compare_numbers, multiply_top_numbers
from tutor.drills.operations import triplesmart_better, triplesmart_distance, triplesmart_extreme_better, triplesmart_extreme_distance
from tutor.engine import Move
from tutor.engine.triplesmart import SUBMIT_MESSAGES, plain_expression
from tutor.lessons.base import Choice, Lesson, MoveRefused, Row, Zone, computer_name, move_token
from tutor.text import N_, NP_


def war_scoreboard(lesson: Lesson, game_state, pupil: int) -> list[Text]:
    """The round and each side's cards, for the War-like games with draw and collection piles."""
    view = game_state.player_view(pupil)
    limit = game_state.game.options.get("round_limit", 0)
    lines = [Text(N_("Round %(n)s of %(total)s"), {"n": min(view["rounds"] + 1, limit), "total": limit}) if limit else Text(N_("Round %(n)s"), {"n": view["rounds"] + 1})]
    for index, side in enumerate(view["sides"]):
        names = [lesson.seat_name(p, pupil, game_state.game.players) for p in side]
        side_name = names[0] if len(names) == 1 else Text(N_("%(first)s and %(second)s"), {"first": names[0], "second": names[1]})
        lines.append(
            Text.count(
                NP_("%(side)s: %(num)s card (draw pile %(draw)s, collection pile %(collection)s)", "%(side)s: %(num)s cards (draw pile %(draw)s, collection pile %(collection)s)"),
                view["side_counts"][index],
                side=side_name,
                draw=view["draw_counts"][index],
                collection=view["collection_counts"][index],
            )
        )
    return lines


def last_round_zone(lesson: Lesson, game_state, pupil: int) -> list[Zone]:
    """Last round's cards, the winners marked (empty before the first round is decided)."""
    last = game_state.last_round
    if not last:
        return []
    players = game_state.game.players
    rows = [Row(lesson.seat_name(int(p), pupil, players), list(cards), highlight=int(p) in last["winners"]) for p, cards in sorted(last["table"].items(), key=lambda item: int(item[0]))]
    return [Zone(Text(N_("Last round")), rows, key="last-round")]


def turned_zone(lesson: Lesson, game_state, pupil: int, note=None) -> Zone:
    """This round's cards: the face-down pot, then the turned cards."""
    view = game_state.player_view(pupil)
    players = game_state.game.players
    rows = [
        Row(lesson.seat_name(p, pupil, players), [None] * view["pot_counts"][p] + list(view["turned"][p]), note=note(view, p) if note else None)
        for p in range(players)
    ]
    return Zone(Text(N_("On the table")), rows, key="this-round")


def shown_expression(plain: str) -> str:
    """A stored ASCII expression as a pupil writes it: "3*(4-1)" -> "3 × (4 − 1)"."""
    signs = {"*": " × ", "/": " ÷ ", "+": " + ", "-": " − "}
    return "".join(signs.get(ch, ch) for ch in plain).replace("( ", "(").strip()


class WarFamilyLesson(Lesson):
    """Teams of two with four players, the round-based table, and turning as the move."""

    lesson_options = {"round_limit": 10}
    teams_of_four = True
    common_content = "war-common"

    def scoreboard(self, game_state, pupil: int) -> list[Text]:
        return war_scoreboard(self, game_state, pupil)

    def round_story(self, game_state, pupil: int, recent: list[Move]) -> list[Text]:
        last = game_state.last_round
        if not last or last["round"] != game_state.rounds:
            return []
        story = []
        if last["wars"]:
            story.append(self.narration("war_happened", round=last["round"]))
        count = sum(len(cards) for cards in last["table"].values()) + len(last.get("targets", []))
        winners = last["winners"]
        if not winners:
            story.append(self.narration("round_split"))
        elif pupil in winners:
            story.append(self.narration("round_won_by_team" if len(winners) > 1 else "round_won_by_you", round=last["round"], count=count))
        else:
            story.append(self.narration("round_won_by", name=computer_name(winners[0]), round=last["round"], count=count))
        return story

    def pupil_battle(self, game_state, pupil: int) -> dict | None:
        """The pupil's part of the last battle of the round just decided."""
        last = game_state.last_round
        if not last or not last["battles"]:
            return None
        return last["battles"][-1]


class MultiWarLesson(WarFamilyLesson):
    game_id = "multiwar"

    def intro_params(self, game_state, pupil: int) -> dict:
        return {"rounds": game_state.game.options["round_limit"] or "∞"}

    def table(self, game_state, pupil: int) -> list[Zone]:
        return last_round_zone(self, game_state, pupil) + [turned_zone(self, game_state, pupil)]

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
            product = multiply_top_numbers(numbers[0], numbers[1], difficulty_for(levels.get("multiply", 0.0)))
            product.hides_result = True
            questions.append(product)
        products = [r for r in battle["results"].values() if isinstance(r, int)]
        if len(set(products)) >= 2 and game_state.rounds % 3 == 0:
            questions.append(compare_numbers(products, difficulty_for(levels.get("compare", 0.0))))
        return questions


class TripleSmartLesson(WarFamilyLesson):
    game_id = "triplesmart"
    typed_move = True
    distance_question = staticmethod(triplesmart_distance)
    better_question = staticmethod(triplesmart_better)
    skill = "add_sub"

    def intro_params(self, game_state, pupil: int) -> dict:
        view = game_state.player_view(pupil)
        mine = [kids2()[c].top for c in view["turned"][pupil] if not kids2()[c].is_special]
        return {"target": view["target"], "numbers": ", ".join(map(str, mine)), "rounds": game_state.game.options["round_limit"] or "∞"}

    def table(self, game_state, pupil: int) -> list[Zone]:
        view = game_state.player_view(pupil)

        def note(view, player):
            return Text(N_("has written an expression")) if player in view["submitted"] and player != pupil else None

        target = Zone(Text(N_("Target")), [Row(Text(N_("Target number: %(target)s"), {"target": view["target"]}) if view["target"] is not None else Text(N_("Target")), list(view["target_cards"]))], key="target")
        return last_round_zone(self, game_state, pupil) + [target, turned_zone(self, game_state, pupil, note)]

    def choices(self, game_state, pupil: int) -> list[Choice]:
        return []  # the pupil types the move

    def turn_narration(self, game_state, pupil: int) -> Text:
        view = game_state.player_view(pupil)
        return self.narration("your_war" if view["wars"] else "your_turn", target=view["target"])

    def move_from_text(self, game_state, pupil: int, text: str, locale: str) -> Move:
        """Read the pupil's expression (in their own notation), name the cards it uses, and check it."""
        reading = read_answer(text, locale, allow=game_state.game.allow)  # AnswerError: unreadable
        free = [c for c in game_state.turned[pupil] if not kids2()[c].is_special]
        used = []
        for number in reading.numbers:
            card_id = next((c for c in free if number.q == 1 and kids2()[c].top == number.p), None)
            if card_id is None:
                wanted = Counter(reading.numbers)[number]
                have = sum(1 for c in game_state.turned[pupil] if not kids2()[c].is_special and kids2()[c].top == number)
                code, params = ("used_too_often", {"number": number, "count": wanted, "available": have}) if have else ("not_on_cards", {"number": number})
                raise MoveRefused(SUBMIT_MESSAGES[code], {k: str(v) for k, v in params.items()})
            free.remove(card_id)
            used.append(card_id)
        move = Move("submit", pupil, tuple(used), plain_expression(text.strip()))
        problem = game_state.submit_problem(move)
        if problem is not None:
            raise MoveRefused(problem.msgid, {k: str(v) for k, v in problem.params.items() if k != "code"})
        return move

    def round_story(self, game_state, pupil: int, recent: list[Move]) -> list[Text]:
        story = super().round_story(game_state, pupil, recent)
        battle = self.pupil_battle(game_state, pupil)
        if story and battle:
            mine = battle["players"].get(str(pupil), {})
            if mine.get("result") == "submitted":
                story.append(self.narration("your_expression", expression=shown_expression(mine["expression"]), value=mine["value"], target=battle["target"], distance=mine["distance"]))
            if "best_value" in mine:
                story.append(self.narration("best_reachable", value=mine["best_value"], expression=shown_expression(mine["best_expression"]), distance=mine["best_distance"]))
        return story

    def after_round(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        battle = self.pupil_battle(game_state, pupil)
        mine = battle["players"].get(str(pupil), {}) if battle else {}
        if mine.get("result") != "submitted" or battle.get("target_card") is None:
            return []
        cards = [c for c in mine["cards"] if not kids2()[c].is_special]
        level = difficulty_for(levels.get(self.skill, 0.0))
        value = Fraction(mine["value"])
        if rng.random() < 0.5:
            return [self.distance_question(cards, battle["target_card"], value, level)]
        return [self.better_question(cards, battle["target_card"], value, level)]


class TripleSmartExtremeLesson(TripleSmartLesson):
    game_id = "triplesmart-extreme"
    distance_question = staticmethod(triplesmart_extreme_distance)
    better_question = staticmethod(triplesmart_extreme_better)
    skill = "four_ops"


WAR_FAMILY_LESSONS = (MultiWarLesson, TripleSmartLesson, TripleSmartExtremeLesson)
