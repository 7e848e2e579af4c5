"""Lessons for the shedding games: MultiMatch and the three Crazy Banana games.

The four share a table (the discard pile with the colour in force, the draw pile, the
others' hands face down), the moves (play, pair play, draw, pass, "one card left",
knock) and the story of the computers' turns. They differ only in their drill points:
each pauses at the start of every other turn of the pupil and asks about the top
discard and the pupil's own cards, with the skill the game trains.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutor.deck import kids2
from tutor.drills import Question, Text, difficulty_for
from tutor.drills.card_sums import estimate_card_sum, exact_card_sum
from tutor.drills.fractions_primes_mean import mean_estimate, mean_exact, prime_which_sum
from tutor.drills.number_facts import factor_pair_cards, multiply_top_numbers, tens_friend_card, tens_friend_number
from tutor.engine import Move
from tutor.engine.shedding import extreme_witness
from tutor.primes import primes_up_to
from tutor.lessons.base import HAND, Choice, Judged, Lesson, Row, Zone, move_token
from tutor.text import N_, NP_

#: Estimates cannot tell two sums apart when they are this close.
CLOSE = 15


def colour_name(colour_id: str) -> Text:
    return Text(kids2().colour(colour_id).name)


class SheddingLesson(Lesson):
    """The common part: the table, the moves as buttons, and the computers' turns told."""

    lesson_options = {"turn_limit": 60}
    common_content = "shedding-common"

    def round_number(self, game_state) -> int:
        return game_state.turns

    def intro_params(self, game_state, pupil: int) -> dict:
        top = game_state.top
        return {
            "hand_size": game_state.game.hand_size,
            "draw_limit": game_state.game.draw_limit,
            "colour": colour_name(game_state.colour),
            "top": top.top,
            "top_values": ", ".join(map(str, top.circled)),
            "top_sum": top.circled_sum,
        }

    # --- the table ---------------------------------------------------------------------------
    def scoreboard(self, game_state, pupil: int) -> list[Text]:
        view = game_state.player_view(pupil)
        lines = [
            Text(N_("Turn %(n)s"), {"n": view["turns"]}),
            Text(N_("Colour to follow: %(colour)s"), {"colour": colour_name(view["colour"])}),
            Text.count(NP_("Draw pile: %(num)s card", "Draw pile: %(num)s cards"), view["draw_count"]),
        ]
        if game_state.game.players > 2:
            lines.append(Text(N_("Direction of play: clockwise")) if view["direction"] == 1 else Text(N_("Direction of play: anticlockwise")))
        return lines

    def table(self, game_state, pupil: int) -> list[Zone]:
        view = game_state.player_view(pupil)
        players = game_state.game.players
        pile = Row(Text(N_("Top card")), [view["top"]], note=Text(N_("colour to follow: %(colour)s"), {"colour": colour_name(view["colour"])}))
        others = [
            Row(
                self.seat_name(p, pupil, players),
                [None] * min(view["hand_counts"][p], 8),
                note=Text(N_("out of cards")) if p in view["finished"] else Text.count(NP_("%(num)s card in hand", "%(num)s cards in hand"), view["hand_counts"][p]),
                highlight=p == view["turn"] and not game_state.is_over,
            )
            for p in range(players)
            if p != pupil
        ]
        return [Zone(Text(N_("Discard pile")), [pile], key="discard"), Zone(Text(N_("The other players")), others, key="others")]

    # --- the pupil's moves --------------------------------------------------------------------
    def choices(self, game_state, pupil: int) -> list[Choice]:
        view = game_state.player_view(pupil)
        deck = kids2()
        choices = []
        for move in game_state.legal_moves():
            token = move_token(move)
            if move.kind == "play" and not deck[move.cards[0]].is_special:
                choices.append(Choice(token, Text(N_("Play this card")), list(move.cards), HAND))
            elif move.kind == "play" and move.detail:
                choices.append(Choice(token, Text(N_("Play it and choose %(colour)s"), {"colour": colour_name(move.detail)}), list(move.cards)))
            elif move.kind == "play":
                choices.append(Choice(token, Text(N_("Play this card")), list(move.cards)))
            elif move.kind == "play_pair" and self.picks_cards:
                continue  # pairs are made by picking two cards
            elif move.kind == "play_pair":
                top = deck[move.cards[-1]]
                choices.append(Choice(token, Text(N_("Play both: %(a)s × %(b)s, with the %(top)s on top"), {"a": deck[move.cards[0]].top, "b": top.top, "top": top.top}), list(move.cards)))
            elif move.kind == "draw":
                choices.append(Choice(token, Text(N_("Draw a card (%(n)s of %(limit)s)"), {"n": view["drawn"] + 1, "limit": view["draw_limit"]})))
            elif move.kind == "pass":
                choices.append(Choice(token, Text(N_("Pass"))))
            elif move.kind == "call_one_card":
                choices.append(Choice(token, Text(N_("Say \"one card left\""))))
            elif move.kind == "knock":
                choices.append(Choice(token, Text(N_("Knock on the table: %(name)s forgot to say \"one card left\""), {"name": self.seat_name(view["exposed"], pupil, game_state.game.players)})))
            elif move.kind == "no_knock":
                choices.append(Choice(token, Text(N_("Do not knock"))))
        return choices

    def decision_prompt(self, game_state, pupil: int) -> Text:
        top = game_state.top
        return Text(N_("Which card do you play on the %(colour)s %(top)s?"), {"colour": colour_name(top.colour), "top": top.top}) if not top.is_special else super().decision_prompt(game_state, pupil)

    def judge(self, game_state, pupil: int, move: Move) -> Judged | None:
        """Why a card may or may not go on the top card, with the numbers of the game's maths rule."""
        if move.kind not in ("play", "play_pair") or game_state.phase != "play" or game_state.current_player != pupil:
            return super().judge(game_state, pupil, move)
        if not set(move.cards) <= set(game_state.hands[pupil]) or len(set(move.cards)) != len(move.cards):
            return None  # not the pupil's cards: a stale or forged form, refused without a word
        deck, top, legal = kids2(), game_state.top, game_state.is_legal(move)
        mine = deck[move.cards[0]]
        if move.kind == "play" and mine.is_special:
            if legal:
                return None
            if any(m.kind == "play" and m.cards == move.cards for m in game_state.legal_moves()):
                return Judged(False, self.narration("choose_colour_below"))
            return super().judge(game_state, pupil, move)
        if move.kind == "play" and mine.colour == game_state.colour:
            return None if legal else super().judge(game_state, pupil, move)
        if top.is_special:
            return Judged(False, self.narration("follow_special", colour=colour_name(game_state.colour)))
        judged = self.judge_maths(game_state, move, deck[move.cards[-1]] if move.kind == "play_pair" else mine, top)
        if judged is not None and judged.correct != legal:  # the lesson's reading and the rules must agree
            return super().judge(game_state, pupil, move)
        return judged

    def judge_maths(self, game_state, move: Move, mine, top) -> Judged | None:
        """The game's maths rule for a card of another colour (subclasses)."""
        return Judged(False, self.narration("not_this_colour", colour=colour_name(game_state.colour)))

    def turn_narration(self, game_state, pupil: int) -> Text:
        if game_state.phase == "knock":
            return self.narration("knock_window", name=self.seat_name(game_state.exposed, pupil, game_state.game.players))
        if game_state.drawn:
            return self.narration("after_draw", n=game_state.drawn, limit=game_state.game.draw_limit)
        return self.narration("your_turn", colour=colour_name(game_state.colour))

    def round_story(self, game_state, pupil: int, recent: list[Move]) -> list[Text]:
        """The computers' moves since the pupil's last move, one line each (draws counted together)."""
        story, players = [], game_state.game.players
        draws: dict[int, int] = {}
        for move in recent:
            if move.player < 0:
                if move.kind == "reshuffle":
                    story.append(self.narration("reshuffled"))
                continue
            name = self.seat_name(move.player, pupil, players)
            if move.kind == "draw":
                draws[move.player] = draws.get(move.player, 0) + 1
                continue
            if draws.get(move.player):
                story.append(Text.count(NP_("%(name)s drew %(num)s card.", "%(name)s drew %(num)s cards."), draws.pop(move.player), name=name))
            if move.kind in ("play", "play_pair"):
                story.append(self.play_story(name, move))
            elif move.kind == "pass":
                story.append(self.narration("passed", name=name))
            elif move.kind == "call_one_card":
                story.append(self.narration("called", name=name))
            elif move.kind == "knock":
                story.append(self.narration("knocked", name=name))
        for player, count in draws.items():
            story.append(Text.count(NP_("%(name)s drew %(num)s card.", "%(name)s drew %(num)s cards."), count, name=self.seat_name(player, pupil, players)))
        return story

    def play_story(self, name: Text, move: Move) -> Text:
        top = kids2()[move.cards[-1]]
        if not top.is_special:
            key = "played_pair" if move.kind == "play_pair" else "played"
            return self.narration(key, name=name, colour=colour_name(top.colour), top=top.top)
        if move.detail:
            return self.narration("played_special", name=name, colour=colour_name(move.detail))
        return self.narration("played_special_plain", name=name)

    # --- drill points --------------------------------------------------------------------------
    def before_move(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        """At the start of every other turn of the pupil, a question about the top card and the hand."""
        if game_state.phase != "play" or game_state.drawn or game_state.called or game_state.top.is_special:
            return []
        if (game_state.turns // game_state.game.players) % 2:
            return []
        hand = [c for c in sorted(game_state.hands[pupil]) if not kids2()[c].is_special]
        if not hand:
            return []
        return [q for q in self.drills(game_state, hand, rng, levels) if q is not None]

    def drills(self, game_state, hand: list[int], rng: random.Random, levels: dict) -> list[Question]:
        raise NotImplementedError


class MultiMatchLesson(SheddingLesson):
    game_id = "multimatch"
    picks_cards = True

    def move_from_picks(self, game_state, pupil: int, picked: list[int]) -> Move | None:
        """One picked card is played alone; two are a pair, the second picked on top."""
        if len(picked) == 1:
            return Move("play", pupil, tuple(picked))
        if len(picked) == 2:
            return Move("play_pair", pupil, tuple(picked))
        return None

    def judge_maths(self, game_state, move, mine, top):
        if move.kind == "play":
            return Judged(False, self.narration("single_not_colour", colour=colour_name(game_state.colour)))
        a, b = (kids2()[c] for c in move.cards)
        if a.is_special or b.is_special:
            return Judged(False, self.narration("pair_of_numbers"))
        product, values = a.top * b.top, ", ".join(map(str, top.circled))
        if product in top.circled:
            return Judged(True, self.narration("pair_fits", a=a.top, b=b.top, product=product), "multiply", "pair_product")
        return Judged(False, self.narration("pair_does_not_fit", a=a.top, b=b.top, product=product, values=values), "multiply", "pair_product")

    def drills(self, game_state, hand, rng, levels):
        top = game_state.discard_pile[-1]
        level = difficulty_for(levels.get("factor_pairs", 0.0))
        if len(hand) >= 2 and rng.random() < 0.5:
            return [factor_pair_cards(hand, top, level)]
        first, second = rng.sample(hand, 2) if len(hand) >= 2 else (hand[0], top)
        return [multiply_top_numbers(first, second, difficulty_for(levels.get("multiply", 0.0)))]


class OverslagLesson(SheddingLesson):
    game_id = "crazy-banana-overslag"

    def judge_maths(self, game_state, move, mine, top):
        if mine.circled_sum > top.circled_sum:
            return Judged(True, self.narration("sum_higher", mine=mine.circled_sum, top=top.circled_sum), "estimate_sum", "higher_sum")
        return Judged(False, self.narration("sum_not_higher", mine=mine.circled_sum, top=top.circled_sum, colour=colour_name(game_state.colour)), "estimate_sum", "higher_sum")

    def drills(self, game_state, hand, rng, levels):
        top = game_state.discard_pile[-1]
        top_sum = kids2()[top].circled_sum
        close = [c for c in hand if abs(kids2()[c].circled_sum - top_sum) <= CLOSE]
        if close:
            return [exact_card_sum(rng.choice(close), difficulty_for(levels.get("exact_sum", 0.0)))]
        return [estimate_card_sum(top, difficulty_for(levels.get("estimate_sum", 0.0)))]


class TiervennerLesson(SheddingLesson):
    game_id = "crazy-banana-tiervenner"

    def judge_maths(self, game_state, move, mine, top):
        total = mine.top + top.top
        if total == 10:
            return Judged(True, self.narration("tens_friend_yes", top=top.top, mine=mine.top), "tens_friends", "tens_friend")
        return Judged(False, self.narration("tens_friend_no", top=top.top, mine=mine.top, sum=total, colour=colour_name(game_state.colour)), "tens_friends", "tens_friend")

    def drills(self, game_state, hand, rng, levels):
        top = game_state.discard_pile[-1]
        level = difficulty_for(levels.get("tens_friends", 0.0))
        if rng.random() < 0.5:
            return [tens_friend_number(top, level)]
        return [tens_friend_card(hand, top, level)]


def mixed(value: Fraction) -> str:
    """A mean as pupils write it: 37 or 37 1/2 (the same in every language)."""
    whole, part = divmod(value, 1)
    return str(int(whole)) if not part else f"{int(whole)} {part.numerator}/{part.denominator}"


class ExtremeLesson(SheddingLesson):
    game_id = "crazy-banana-extreme"

    def judge_maths(self, game_state, move, mine, top):
        total = top.circled_sum
        mean = Fraction(total, len(top.circled))
        witness = extreme_witness(mine.circled, top.circled)
        if witness and witness[0] == "beats_total":
            a, b = witness[1]
            return Judged(True, self.narration("beats_total", a=a, b=b, sum=a + b, total=total), "exact_sum", "beats_total")
        if witness:
            a, b = witness[1]
            return Judged(True, self.narration("prime_above_mean", a=a, b=b, sum=a + b, mean=mixed(mean)), "primes", "prime_above_mean")
        a, b = sorted(mine.circled)[-2:]
        return Judged(False, self.narration("extreme_no", a=a, b=b, sum=a + b, total=total, mean=mixed(mean), colour=colour_name(game_state.colour)), "exact_sum", "beats_total")

    def intro_params(self, game_state, pupil: int) -> dict:
        return {**super().intro_params(game_state, pupil), "primes": ", ".join(map(str, primes_up_to(200)))}

    def drills(self, game_state, hand, rng, levels):
        top = game_state.discard_pile[-1]
        roll = rng.random()
        if roll < 0.15:
            return [estimate_card_sum(top, difficulty_for(levels.get("estimate_sum", 0.0)))]
        close = [c for c in hand if abs(kids2()[c].circled_sum - kids2()[top].circled_sum) <= CLOSE]
        if roll < 0.3 and close:
            return [exact_card_sum(rng.choice(close), difficulty_for(levels.get("exact_sum", 0.0)))]
        if roll < 0.45:
            return [mean_estimate(top, difficulty_for(levels.get("mean", 0.0)))]
        if roll < 0.6:
            return [mean_exact(top, difficulty_for(levels.get("mean", 0.0)))]
        return [prime_which_sum(rng.choice(hand), difficulty_for(levels.get("primes", 0.0)))]


SHEDDING_LESSONS = (MultiMatchLesson, OverslagLesson, TiervennerLesson, ExtremeLesson)
