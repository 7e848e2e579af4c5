"""TripleSmart's lessons: the pupil's move *is* the maths, an expression typed with the card values.

After the round the lesson asks how far the expression was from the target and whether
a better one existed, and the story shows each player's expression and the best value
the pupil could reach.

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
from tutor.drills import Offer, Question, choose_question
from tutor.drills.add_sub import triplesmart_better, triplesmart_distance
from tutor.drills.four_ops import triplesmart_extreme_better, triplesmart_extreme_distance
from tutor.engine import Move
from tutor.engine.triplesmart import number_literals, plain_expression
from tutor.lessons.base import (
    Choice,
    Judged,
    RoundShown,
    Row,
    Zone,
    and_list,
    computer_name,
)
from tutor.lessons.war_family import (
    WAR,
    RoundTeller,
    WarFamilyLesson,
    last_round_zone,
    turned_zone,
    winning_players,
)
from tutor.signs import FRACTION, formula, operators, plain_formula, typed
from tutor.text import N_, NC_, NP_, Text


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


class CloseTeller(RoundTeller):
    """TripleSmart: each player's expression, value and distance from the target."""

    war_messages = WAR["distance"]

    WROTE = (
        N_("You wrote %(expression)s = %(value)s: %(distance)s away from the target %(target)s."),
        # Translators: %(name)s is a computer player's name ("Computer 2"), never "you"; %(expression)s is its
        # calculation ("7 + 9 − 3").
        N_("%(name)s wrote %(expression)s = %(value)s: %(distance)s away from the target %(target)s."),
    )
    HIT = (
        N_("You wrote %(expression)s = %(value)s: exactly the target %(target)s!"),
        # Translators: %(name)s is a computer player's name ("Computer 2"), never "you"; %(expression)s is its
        # calculation ("7 + 9 − 3").
        N_("%(name)s wrote %(expression)s = %(value)s: exactly the target %(target)s."),
    )
    ONE_CARD = (
        N_("You used just your %(value)s: %(distance)s away from the target %(target)s."),
        # Translators: %(name)s is a computer player's name ("Computer 2"), never "you"; %(value)s is the number on its
        # one card.
        N_("%(name)s used just a %(value)s: %(distance)s away from the target %(target)s."),
    )
    ONE_CARD_HIT = (
        N_("You used just your %(value)s: exactly the target %(target)s!"),
        # Translators: %(name)s is a computer player's name ("Computer 2"), never "you"; %(value)s is the number on its
        # one card.
        N_("%(name)s used just a %(value)s: exactly the target %(target)s."),
    )
    TWO_SPECIALS = (
        N_("You turned two special cards."),
        # Translators: %(name)s is a computer player's name ("Computer 2"), never "you".
        N_("%(name)s turned two special cards."),
    )
    CLOSEST = (
        N_("You are the closest to %(target)s."),
        # Translators: %(name)s is a computer player's name ("Computer 2"), never "you"; %(target)s is the target
        # number.
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


# Why a readable expression is refused, with the pupil's numbers.
REFUSED = {
    "fraction": N_(
        "%(number)s is a fraction, and in TripleSmart you only add and subtract: write the numbers on your cards as "
        "they are, %(numbers)s."
    ),
    "not_whole": N_("%(number)s is not a number on your cards: use the numbers as they are, %(numbers)s."),
    "not_on_cards": N_("There is no %(number)s on your cards: your numbers are %(numbers)s."),
    "used_too_often": NP_(
        "You used %(number)s %(count)s times, but only %(num)s of your cards shows %(number)s: each card counts once. "
        "Your numbers are %(numbers)s.",
        "You used %(number)s %(count)s times, but only %(num)s of your cards show %(number)s: each card counts once. "
        "Your numbers are %(numbers)s.",
    ),
    "division_by_zero": N_(
        "%(expression)s divides by zero, and dividing by zero gives no number at all. Write another calculation."
    ),
}


# Translators: a note beside a computer player's name: it has written its calculation this round ("Computer 1 ·
# expression ready"); use a phrase that fits any name, with no verb.
EXPRESSION_READY = NC_("note beside a seat", "expression ready")
# Translators: the heading over TripleSmart's target card: the number to get close to.
TARGET = NC_("heading: TripleSmart's target card", "Target")


class TripleSmartLesson(WarFamilyLesson):
    game_id = "triplesmart"
    typed_move = True
    #: The one drill point is after a round (and a perfect hit by everyone leaves nothing to ask), so every
    #: round may ask: a lesson lasts six or seven rounds, each a calculation typed and one question.
    questions_per_turn = 1
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

    def decided_round(self, game_state, pupil: int, round_number: int) -> RoundShown | None:
        """The round's cards and its target cards as they lay, not the next round's (already turned)."""
        shown = super().decided_round(game_state, pupil, round_number)
        if shown is None:
            return None
        record = self.round_record(game_state, round_number)
        battle = self.asked_battle(record, pupil)
        label = Text(N_("Target number: %(target)s"), {"target": battle["target"]})
        target = Zone(Text.in_context(TARGET), [Row(label, list(record.get("targets", [])))], key="target")
        return RoundShown(shown.scoreboard, [target, *shown.zones])

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
        return Judged(False, problem.text)

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
        """About the newest round with something to ask, the question about it pitched nearest the pupil's target:
        the pupil's own calculation first, else another player's."""
        distance_first = rng.random() < 0.5
        for record in reversed(self.rounds_to_tell(game_state)):
            battle = self.asked_battle(record, pupil)
            if battle.get("target_card") is None:
                continue  # two special cards decided it before anyone wrote a calculation
            question = choose_question(levels, self.round_offers(battle, pupil, distance_first))
            if question is not None:
                question.hides_result = True  # the round's story tells the distance and the best reachable value
                question.about_round = record["round"]  # rounds that double Kochas decided may have followed it
                return [question]
        return []

    @staticmethod
    def asked_battle(record: dict, pupil: int) -> dict:
        """The battle of a round the questions ask about: the last one the pupil wrote in, else the last one."""
        found = pupil_submission(record, pupil)
        return found[0] if found else record["battles"][-1]

    def round_offers(self, battle: dict, pupil: int, distance_first: bool) -> list[Offer]:
        """The questions about a battle, the lesson's first first: about the pupil's calculation (how far, or could it
        get closer), then how far another player's was. A perfect hit leaves nothing to ask about it (None)."""
        target, mine = battle["target_card"], battle["players"].get(str(pupil), {})
        distance, better = self.distance_question, self.better_question
        offers = []
        if mine.get("result") == "submitted":
            cards, value = self.number_cards(mine), Fraction(mine["value"])
            offers = [
                Offer(self.skill, distance.__name__, lambda level: distance(cards, target, value, level)),
                Offer(self.skill, better.__name__, lambda level: better(cards, target, value, level)),
            ]
            offers = offers if distance_first else offers[::-1]
        for player, entry in sorted(battle["players"].items(), key=lambda item: int(item[0])):
            if int(player) != pupil and entry["result"] == "submitted":
                offers.append(self.others_distance(entry, target, computer_name(int(player)).to_dict()))
        return offers

    def others_distance(self, entry: dict, target: int, name: dict) -> Offer:
        """How far another player's calculation was from the target."""
        cards, value, distance = self.number_cards(entry), Fraction(entry["value"]), self.distance_question
        return Offer(self.skill, distance.__name__, lambda level: distance(cards, target, value, level, name))

    @staticmethod
    def number_cards(entry: dict) -> list[int]:
        """A player's number cards in a battle (special cards have no top number)."""
        return [c for c in entry["cards"] if not kids2()[c].is_special]


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
