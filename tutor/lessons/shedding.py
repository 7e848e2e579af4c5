"""Lessons for the shedding games: MultiMatch and the three Crazy Banana games.

The four share a table (the discard pile with the colour in force, the draw pile, the
others' hands face down), the moves (play, pair play, draw, pass, "one card left",
knock) and the story of the computers' turns. They differ in their maths rule (how a
card of another colour may be played: :meth:`SheddingLesson.judge_maths` for the
pupil's choice, :meth:`SheddingLesson.maths_story` for a computer's play, both with
the numbers) and in their drill points: each offers a question at the start of every
turn of the pupil, about the top discard and the pupil's own cards, and the runner's pace
asks about three in four of them.

Every outcome is told: the pupil's own move in the judgement shown after it, the
computers' moves in the story, each play with the card it went on (the state's play
log, which outlives a reshuffle) and each special card with whom it hit.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutor.deck import kids2
from tutor.drills import Offer, Question, choose_question, level_of
from tutor.drills.estimate_sum import estimate_card_sum
from tutor.drills.exact_sum import exact_card_sum
from tutor.drills.factor_pairs import factor_pair_cards
from tutor.drills.mean import mean_estimate, mean_exact
from tutor.drills.multiply import multiply_top_numbers
from tutor.drills.primes import prime_which_sum
from tutor.drills.tens_friends import tens_friend_card, tens_friend_number
from tutor.engine import Move
from tutor.engine.shedding import DRAW_TWO, KNOCK_PENALTY, PLAY_KINDS, extreme_witness, overslag_vri, tens_friends
from tutor.lessons.base import HAND, NEXT_MARK, TURN, Choice, Judged, Lesson, Row, Zone, move_token
from tutor.primes import primes_up_to
from tutor.signs import MIXED, formula, fraction_text
from tutor.text import COLOUR_ADJECTIVE, COLOUR_NOUN, N_, NC_, NP_, Text

#: Estimates cannot tell two sums apart when they are this close.
CLOSE = 15


def colour_name(colour_id: str) -> Text:
    """A colour said as itself: "Colour to follow: green", "chose green"."""
    return Text(kids2().colour(colour_id).name, context=COLOUR_NOUN)


def card_colour(colour_id: str) -> Text:
    """A colour describing a card: "the green 7", "your card is not green" (some languages inflect it)."""
    return Text(kids2().colour(colour_id).name, context=COLOUR_ADJECTIVE)


# Translators: a button: pass the turn without playing.
PASS = NC_("button: pass the turn", "Pass")


#: What a Kocha draw-two card and a knock make someone draw, told with the count.
# Translators: %(name)s is a computer player's name ("Computer 2"); %(colour)s is the colour it chose, a colour's name
# as a noun.
DRAWS_TWO_YOU = NP_(
    "%(name)s played a Kocha draw-two card and chose %(colour)s: you draw %(num)s card.",
    "%(name)s played a Kocha draw-two card and chose %(colour)s: you draw %(num)s cards.",
)
# Translators: %(name)s and %(target)s are computer players' names ("Computer 2"), never "you"; %(colour)s is the colour
# chosen, a colour's name as a noun.
DRAWS_TWO_OTHER = NP_(
    "%(name)s played a Kocha draw-two card and chose %(colour)s: %(target)s draws %(num)s card.",
    "%(name)s played a Kocha draw-two card and chose %(colour)s: %(target)s draws %(num)s cards.",
)
# Translators: %(target)s is a computer player's name ("Computer 2"); %(colour)s is the colour the pupil chose, a
# colour's name as a noun.
YOU_DRAW_TWO = NP_(
    "You played a Kocha draw-two card and chose %(colour)s: %(target)s draws %(num)s card.",
    "You played a Kocha draw-two card and chose %(colour)s: %(target)s draws %(num)s cards.",
)
# Translators: %(name)s is a computer player's name ("Computer 2").
KNOCKED_YOU = NP_(
    '%(name)s knocked on the table: you did not say "one card left", so you draw %(num)s card.',
    '%(name)s knocked on the table: you did not say "one card left", so you draw %(num)s cards.',
)
# Translators: %(name)s and %(target)s are computer players' names ("Computer 2"), never "you".
KNOCKED_OTHER = NP_(
    '%(name)s knocked on the table: %(target)s did not say "one card left" and draws %(num)s card.',
    '%(name)s knocked on the table: %(target)s did not say "one card left" and draws %(num)s cards.',
)
# Translators: %(target)s is a computer player's name ("Computer 2").
YOU_KNOCKED = NP_(
    'You knocked on the table: %(target)s did not say "one card left" and draws %(num)s card.',
    'You knocked on the table: %(target)s did not say "one card left" and draws %(num)s cards.',
)
# Translators: %(name)s is a computer player's name ("Computer 2"), never "you".
DREW = NP_("%(name)s drew %(num)s card.", "%(name)s drew %(num)s cards.")


def window_log(game_state, recent: list[Move]) -> tuple[list[dict | None], dict | None]:
    """The play log's entries for the plays in ``recent`` (None where the log is too short) and the play before them."""
    plays = [move for move in recent if move.kind in PLAY_KINDS]
    log = game_state.play_log
    known = log[max(0, len(log) - len(plays)) :]
    entries = [None] * (len(plays) - len(known)) + known
    entries = [
        entry if entry and entry["player"] == move.player and entry["cards"] == list(move.cards) else None
        for entry, move in zip(entries, plays)
    ]
    before = log[-len(plays) - 1] if len(log) > len(plays) else None
    return entries, before


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
            "colour": card_colour(game_state.colour),
            "top": top.top,
            "top_values": ", ".join(map(str, top.circled)),
            "top_sum": top.circled_sum,
        }

    # --- the table ---------------------------------------------------------------------------
    def scoreboard(self, game_state, pupil: int) -> list[Text]:
        view = game_state.player_view(pupil)
        lines = [
            Text.in_context(TURN, n=view["turns"]),
            # Translators: %(colour)s is a colour's name as a noun.
            Text(N_("Colour to follow: %(colour)s"), {"colour": colour_name(view["colour"])}),
            Text.count(NP_("Draw pile: %(num)s card", "Draw pile: %(num)s cards"), view["draw_count"]),
        ]
        if game_state.game.players > 2:
            lines.append(
                Text(N_("Direction of play: clockwise"))
                if view["direction"] == 1
                else Text(N_("Direction of play: anticlockwise"))
            )
        return lines

    def table(self, game_state, pupil: int) -> list[Zone]:
        view = game_state.player_view(pupil)
        players = game_state.game.players
        # Translators: a note beside the top card of the discard pile; %(colour)s is a colour's name as a noun.
        follow = Text(N_("colour to follow: %(colour)s"), {"colour": colour_name(view["colour"])})
        pile = Row(Text(N_("Top card")), [view["top"]], note=follow)
        others = [
            Row(
                self.seat_name(p, pupil, players),
                [None] * min(view["hand_counts"][p], 8),
                note=Text(N_("out of cards"))
                if p in view["finished"]
                else Text.count(NP_("%(num)s card in hand", "%(num)s cards in hand"), view["hand_counts"][p]),
                mark=Text.in_context(NEXT_MARK) if p == view["turn"] and not game_state.is_over else None,
            )
            for p in range(players)
            if p != pupil
        ]
        return [
            Zone(Text(N_("Discard pile")), [pile], key="discard"),
            Zone(Text(N_("The other players")), others, key="others"),
        ]

    # --- the pupil's moves --------------------------------------------------------------------
    def choices(self, game_state, pupil: int) -> list[Choice]:
        view = game_state.player_view(pupil)
        deck = kids2()
        choices, offered = [], set()
        for move in game_state.legal_moves():
            token = move_token(move)
            this = deck[move.cards[0]] if move.cards else None
            if this is not None and this.is_special and move.kind == "play":
                if (this.kind, this.instruction, move.detail) in offered:
                    continue  # two alike special cards: one set of colour buttons
                offered.add((this.kind, this.instruction, move.detail))
            if move.kind == "play" and not deck[move.cards[0]].is_special:
                choices.append(Choice(token, Text(N_("Play this card")), list(move.cards), HAND))
            elif move.kind == "play" and move.detail:
                choices.append(
                    Choice(
                        token,
                        # Translators: a button for a special card; %(colour)s is the colour it chooses, a colour's name
                        # as a noun.
                        Text(N_("Play it and choose %(colour)s"), {"colour": colour_name(move.detail)}),
                        list(move.cards),
                    )
                )
            elif move.kind == "play":
                choices.append(Choice(token, Text(N_("Play this card")), list(move.cards)))
            elif move.kind == "play_pair" and self.picks_cards:
                continue  # pairs are made by picking two cards
            elif move.kind == "play_pair":
                top = deck[move.cards[-1]]
                choices.append(
                    Choice(
                        token,
                        Text(
                            # Translators: a button for two cards played as a pair; %(pair)s is their multiplication in
                            # the reader's own signs ("7 × 8"), %(top)s the big top number of the card that lands on
                            # top.
                            N_("Play both: %(pair)s, with the %(top)s on top"),
                            {"pair": formula(deck[move.cards[0]].top, "*", top.top), "top": top.top},
                        ),
                        list(move.cards),
                    )
                )
            elif move.kind == "draw":
                choices.append(
                    Choice(
                        token,
                        Text(
                            # Translators: a button; %(n)s is which draw this would be this turn, %(limit)s how many
                            # draws a turn allows.
                            N_("Draw a card (%(n)s of %(limit)s)"),
                            {"n": view["drawn"] + 1, "limit": view["draw_limit"]},
                        ),
                    )
                )
            elif move.kind == "pass":
                choices.append(Choice(token, Text.in_context(PASS)))
            elif move.kind == "call_one_card":
                choices.append(Choice(token, Text(N_('Say "one card left"'))))
            elif move.kind == "knock":
                choices.append(
                    Choice(
                        token,
                        Text(
                            # Translators: a button; %(name)s is a computer player's name ("Computer 2").
                            N_('Knock on the table: %(name)s forgot to say "one card left"'),
                            {"name": self.seat_name(view["exposed"], pupil, game_state.game.players)},
                        ),
                    )
                )
            elif move.kind == "no_knock":
                choices.append(Choice(token, Text(N_("Do not knock"))))
        return choices

    def decision_prompt(self, game_state, pupil: int) -> Text:
        top = game_state.top
        if top.is_special:
            return super().decision_prompt(game_state, pupil)
        return Text(
            # Translators: %(colour)s %(top)s name the top card of the discard pile: a colour's name describing the
            # card, and its big top number ("the green 7").
            N_("Which card do you play on the %(colour)s %(top)s?"),
            {"colour": card_colour(top.colour), "top": top.top},
        )

    def judge(self, game_state, pupil: int, move: Move) -> Judged | None:
        """Why a card may or may not go on the top card, with the numbers of the game's maths rule.

        A move the rules allow is told too: what the pupil played and what it did (a colour
        followed, a special card's effect on the next player, a knock's penalty).
        """
        if game_state.current_player != pupil or move.player != pupil:
            return super().judge(game_state, pupil, move)
        if move.kind not in PLAY_KINDS:
            told = self.move_told(game_state, pupil, move) if game_state.is_legal(move) else None
            return Judged(True, told) if told is not None else super().judge(game_state, pupil, move)
        if (
            not move.cards
            or not set(move.cards) <= set(game_state.hands[pupil])
            or len(set(move.cards)) != len(move.cards)
        ):
            return None  # no card, or not the pupil's cards: a stale or forged form, refused without a word
        if game_state.phase == "knock":
            return Judged(
                False,
                self.narration("knock_first", name=self.seat_name(game_state.exposed, pupil, game_state.game.players)),
            )
        deck, top, legal = kids2(), game_state.top, game_state.is_legal(move)
        mine = deck[move.cards[0]]
        if move.kind == "play" and mine.is_special:
            if legal:
                return Judged(True, self.special_told(game_state, pupil, move))
            if len(game_state.hands[pupil]) == 1:
                return Judged(False, self.narration("special_not_last"))
            if any(m.kind == "play" and m.cards == move.cards for m in game_state.legal_moves()):
                return Judged(False, self.narration("choose_colour_below"))
            if mine.kind == "banana" and game_state.game.options["banana_has_no_power"]:
                return Judged(False, self.narration("banana_without_power"))
            return super().judge(game_state, pupil, move)
        if move.kind == "play" and mine.colour == game_state.colour:
            if legal:
                return Judged(True, self.narration("you_played_colour", colour=card_colour(mine.colour), top=mine.top))
            return super().judge(game_state, pupil, move)
        if top.is_special:
            return Judged(False, self.narration("follow_special", colour=colour_name(game_state.colour)))
        judged = self.judge_maths(game_state, move, deck[move.cards[-1]] if move.kind == "play_pair" else mine, top)
        if judged is not None and judged.correct != legal:  # the lesson's reading and the rules must agree
            return super().judge(game_state, pupil, move)
        return judged

    def judge_maths(self, game_state, move: Move, mine, top) -> Judged | None:
        """The game's maths rule for a card of another colour (subclasses)."""
        return Judged(False, self.narration("not_this_colour", colour=card_colour(game_state.colour)))

    def move_told(self, game_state, pupil: int, move: Move) -> Text | None:
        """What the pupil's legal move other than a play did, in one sentence."""
        players = game_state.game.players
        if move.kind == "draw":  # the hand is sorted, so say which card is new
            drawn = kids2()[game_state.draw_pile[-1]] if game_state.draw_pile else None
            if drawn is None:
                return self.narration("you_drew")
            return (
                self.narration("you_drew_special")
                if drawn.is_special
                else self.narration("you_drew_card", colour=card_colour(drawn.colour), top=drawn.top)
            )
        if move.kind == "pass":
            return self.narration("you_passed")
        if move.kind == "call_one_card":
            return self.narration("you_called")
        if move.kind == "knock":
            return Text.count(YOU_KNOCKED, KNOCK_PENALTY, target=self.seat_name(game_state.exposed, pupil, players))
        if move.kind == "no_knock":
            return self.narration("you_did_not_knock")
        return None

    def special_told(self, game_state, pupil: int, move: Move) -> Text:
        """The pupil's special card and whom it hits, found by making the move on a copy of the table."""
        after = game_state.clone()
        after.apply(move)
        return self.special_story(move, after.play_log[-1], pupil, game_state.game.players)

    def special_story(self, move: Move, entry: dict | None, pupil: int, players: int, name: Text | None = None) -> Text:
        """A special card's effect, told from the pupil's side: by the pupil (``name`` None) or by ``name``."""
        this = kids2()[move.cards[-1]]
        you = name is None
        prefix, params = ("you_special", {}) if you else ("special", {"name": name})
        if move.detail:
            params["colour"] = colour_name(move.detail)
        if this.kind == "banana":
            return self.narration(f"{prefix}_banana" if move.detail else f"{prefix}_banana_plain", **params)
        target, following = (entry["target"], entry["next"]) if entry else (None, None)
        if target is None and following is None:  # no log entry says whom it hit
            return self.narration(f"{prefix}_kocha", **params)
        if this.instruction == "reverse" and target is None:  # three or more players: the direction turns
            if not you and following == pupil:
                return self.narration("special_reverse_you", **params)
            return self.narration(f"{prefix}_reverse", **params, next=self.seat_name(following, pupil, players))
        if target != pupil:  # "you" has sentences of its own, never a name slotted in
            params["target"] = self.seat_name(target, pupil, players)
        if this.instruction == "draw_two":
            forms = YOU_DRAW_TWO if you else DRAWS_TWO_YOU if target == pupil else DRAWS_TWO_OTHER
            return Text.count(forms, DRAW_TWO, **params)
        # A skip, or a reverse between two players, which works like a skip.
        kind = "skip" if this.instruction == "skip" else "reverse_two"
        if you:
            return self.narration(
                f"you_special_{kind}_again" if following == pupil else f"you_special_{kind}", **params
            )
        return self.narration(f"special_{kind}_you" if target == pupil else f"special_{kind}", **params)

    def turn_narration(self, game_state, pupil: int) -> Text:
        if game_state.phase == "knock":
            return self.narration(
                "knock_window", name=self.seat_name(game_state.exposed, pupil, game_state.game.players)
            )
        if game_state.drawn:
            return self.narration("after_draw", n=game_state.drawn, limit=game_state.game.draw_limit)
        return self.narration("your_turn", colour=colour_name(game_state.colour))

    def round_story(self, game_state, pupil: int, recent: list[Move]) -> list[Text]:
        """The computers' moves since the pupil's last move, one line each (draws counted together).

        Each play is told with the card it went on and, for a maths play, the numbers of the
        game's rule; each special card with whom it hit; each knock with its penalty.
        """
        story, players = [], game_state.game.players
        entries, before = window_log(game_state, recent)
        exposed = before["player"] if before else None  # who made the play a knock window follows
        pupil_window = (
            exposed == pupil
            and bool(recent)
            and next((m.kind for m in recent if m.player >= 0), "") in ("knock", "no_knock")
        )
        knocked = False
        draws: dict[int, int] = {}
        for move in recent:
            if move.player < 0:
                if move.kind == "reshuffle":
                    story.append(self.narration("reshuffled"))
                continue
            if pupil_window and move.kind not in ("knock", "no_knock"):
                pupil_window = False
                if not knocked:
                    story.append(self.narration("nobody_knocked"))
            name = self.seat_name(move.player, pupil, players)
            if move.kind == "draw":
                draws[move.player] = draws.get(move.player, 0) + 1
                continue
            if draws.get(move.player):
                story.append(Text.count(DREW, draws.pop(move.player), name=name))
            if move.kind in PLAY_KINDS:
                story.append(self.play_story(name, move, entries.pop(0), pupil, players))
                exposed = move.player
            elif move.kind == "pass":
                story.append(self.narration("passed", name=name))
            elif move.kind == "call_one_card":
                story.append(self.narration("called", name=name))
            elif move.kind == "knock":
                knocked = True
                if exposed is None:
                    story.append(self.narration("knocked", name=name))
                elif exposed == pupil:
                    story.append(Text.count(KNOCKED_YOU, KNOCK_PENALTY, name=name))
                else:
                    story.append(
                        Text.count(
                            KNOCKED_OTHER, KNOCK_PENALTY, name=name, target=self.seat_name(exposed, pupil, players)
                        )
                    )
        if pupil_window and not knocked:
            story.append(self.narration("nobody_knocked"))
        for player, count in draws.items():
            story.append(Text.count(DREW, count, name=self.seat_name(player, pupil, players)))
        return story

    def play_story(self, name: Text, move: Move, entry: dict | None, pupil: int, players: int) -> Text:
        """A computer's play: the colour followed, the maths rule with its numbers, or a special card's effect."""
        deck = kids2()
        top = deck[move.cards[-1]]
        if top.is_special:
            return self.special_story(move, entry, pupil, players, name)
        on = deck[entry["on"]] if entry else None
        if on is not None and move.kind == "play" and (on.is_special or on.colour == top.colour):
            return self.narration("played_colour", name=name, colour=card_colour(top.colour), top=top.top)
        told = self.maths_story(name, move, on) if on is not None and not on.is_special else None
        if told is not None:
            return told
        key = "played_pair" if move.kind == "play_pair" else "played"
        return self.narration(key, name=name, colour=card_colour(top.colour), top=top.top)

    def maths_story(self, name: Text, move: Move, on) -> Text | None:
        """A computer's maths play on the number card ``on``, with its numbers (subclasses); None: no such play."""
        return None

    def card_params(self, move: Move, on) -> dict:
        top = kids2()[move.cards[-1]]
        return {"colour": card_colour(top.colour), "top": top.top, "on_colour": card_colour(on.colour), "on": on.top}

    # --- drill points --------------------------------------------------------------------------
    def before_move(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        """At the start of every turn of the pupil, a question about the top card and the hand (the pace picks);
        on a special card, which has no numbers, about the hand alone."""
        if game_state.phase != "play" or game_state.drawn or game_state.called:
            return []
        hand = [c for c in sorted(game_state.hands[pupil]) if not kids2()[c].is_special]
        if not hand:
            return []
        drills = self.hand_drills if game_state.top.is_special else self.drills
        return [q for q in drills(game_state, hand, rng, levels) if q is not None]

    def drills(self, game_state, hand: list[int], rng: random.Random, levels: dict) -> list[Question]:
        raise NotImplementedError

    def hand_drills(self, game_state, hand: list[int], rng: random.Random, levels: dict) -> list[Question]:
        """A question about the pupil's own cards alone, when the top card is special (no numbers to ask about)."""
        return []


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
            return Judged(False, self.narration("single_not_colour", colour=card_colour(game_state.colour)))
        a, b = (kids2()[c] for c in move.cards)
        if a.is_special or b.is_special:
            return Judged(False, self.narration("pair_of_numbers"))
        product, values = a.top * b.top, ", ".join(map(str, top.circled))
        if product in top.circled:
            return Judged(
                True,
                self.narration("pair_fits", fact=formula(a.top, "*", b.top, "=", product), product=product),
                "multiply",
                "pair_product",
            )
        return Judged(
            False,
            self.narration("pair_does_not_fit", fact=formula(a.top, "*", b.top, "=", product), values=values),
            "multiply",
            "pair_product",
        )

    def maths_story(self, name, move, on):
        a, b = (kids2()[c] for c in move.cards) if move.kind == "play_pair" else (None, None)
        if a is None or a.top * b.top not in on.circled:
            return None
        return self.narration(
            "called_pair",
            name=name,
            a=a.top,
            b=b.top,
            fact=formula(a.top, "*", b.top, "=", a.top * b.top),
            **self.card_params(move, on),
        )

    def drills(self, game_state, hand, rng, levels):
        """Which two cards of the hand make a value of the top card, or a product of two cards; the one pitched
        nearest the pupil's target (among equals the one drawn first)."""
        top = game_state.discard_pile[-1]
        pairs = Offer("factor_pairs", "factor_pair_cards", lambda level: factor_pair_cards(hand, top, level))
        pair_first = len(hand) >= 2 and rng.random() < 0.5
        first, second = rng.sample(hand, 2) if len(hand) >= 2 else (hand[0], top)
        product = Offer("multiply", "multiply_top_numbers", lambda level: multiply_top_numbers(first, second, level))
        return [choose_question(levels, [pairs, product] if pair_first else [product, *([pairs] * (len(hand) >= 2))])]

    def hand_drills(self, game_state, hand, rng, levels):
        if len(hand) < 2:
            return []
        return [multiply_top_numbers(*rng.sample(hand, 2), level_of(levels, "multiply"))]


class OverslagLesson(SheddingLesson):
    game_id = "crazy-banana-overslag"

    def judge_maths(self, game_state, move, mine, top):
        if mine.circled_sum > top.circled_sum:
            return Judged(
                True,
                self.narration("sum_higher", mine=mine.circled_sum, top=top.circled_sum),
                "estimate_sum",
                "higher_sum",
            )
        return Judged(
            False,
            self.narration(
                "sum_not_higher", mine=mine.circled_sum, top=top.circled_sum, colour=card_colour(game_state.colour)
            ),
            "estimate_sum",
            "higher_sum",
        )

    def maths_story(self, name, move, on):
        mine = kids2()[move.cards[-1]]
        if not overslag_vri(mine.circled, on.circled):
            return None
        return self.narration(
            "called_higher_sum", name=name, mine=mine.circled_sum, on_sum=on.circled_sum, **self.card_params(move, on)
        )

    def drills(self, game_state, hand, rng, levels):
        """Estimate a sum (the top card's, or a card of the hand close to it); every other turn, add a close card
        exactly. The exact question names the card and never says an estimate was not enough."""
        top = game_state.discard_pile[-1]
        top_sum = kids2()[top].circled_sum
        close = [c for c in hand if abs(kids2()[c].circled_sum - top_sum) <= CLOSE]
        about = rng.choice(close) if close else top
        estimate = Offer("estimate_sum", "estimate_card_sum", lambda level: estimate_card_sum(about, level))
        if not close:
            return [choose_question(levels, [estimate])]
        exact = Offer("exact_sum", "exact_card_sum", lambda level: exact_card_sum(about, level))
        exact_turn = (game_state.turns // game_state.game.players) % 2
        return [choose_question(levels, [exact, estimate] if exact_turn else [estimate, exact])]

    def hand_drills(self, game_state, hand, rng, levels):
        return [estimate_card_sum(rng.choice(hand), level_of(levels, "estimate_sum"))]


class TiervennerLesson(SheddingLesson):
    game_id = "crazy-banana-tiervenner"

    def judge_maths(self, game_state, move, mine, top):
        total = mine.top + top.top
        if total == 10:
            return Judged(
                True, self.narration("tens_friend_yes", top=top.top, mine=mine.top), "tens_friends", "tens_friend"
            )
        return Judged(
            False,
            self.narration(
                "tens_friend_no", top=top.top, mine=mine.top, sum=total, colour=card_colour(game_state.colour)
            ),
            "tens_friends",
            "tens_friend",
        )

    def maths_story(self, name, move, on):
        if not tens_friends(kids2()[move.cards[-1]].top, on.top):
            return None
        return self.narration("called_tens_friends", name=name, **self.card_params(move, on))

    def drills(self, game_state, hand, rng, levels):
        top = game_state.discard_pile[-1]
        number = Offer("tens_friends", "tens_friend_number", lambda level: tens_friend_number(top, level))
        hand_card = Offer("tens_friends", "tens_friend_card", lambda level: tens_friend_card(hand, top, level))
        return [choose_question(levels, [number, hand_card] if rng.random() < 0.5 else [hand_card, number])]


def mixed(value: Fraction) -> str:
    """A mean as pupils write it: 37 or 37 1/2 (the same in every language; tutor.signs writes it)."""
    return fraction_text(value, MIXED)


class ExtremeLesson(SheddingLesson):
    game_id = "crazy-banana-extreme"

    def judge_maths(self, game_state, move, mine, top):
        total = top.circled_sum
        mean = Fraction(total, len(top.circled))
        witness = extreme_witness(mine.circled, top.circled)
        if witness and witness[0] == "beats_total":
            a, b = witness[1]
            return Judged(
                True, self.narration("beats_total", a=a, b=b, sum=a + b, total=total), "exact_sum", "beats_total"
            )
        if witness:
            a, b = witness[1]
            return Judged(
                True,
                self.narration("prime_above_mean", a=a, b=b, sum=a + b, mean=mixed(mean)),
                "primes",
                "prime_above_mean",
            )
        a, b = sorted(mine.circled)[-2:]
        return Judged(
            False,
            self.narration(
                "extreme_no", a=a, b=b, sum=a + b, total=total, mean=mixed(mean), colour=card_colour(game_state.colour)
            ),
            "exact_sum",
            "beats_total",
        )

    def maths_story(self, name, move, on):
        witness = extreme_witness(kids2()[move.cards[-1]].circled, on.circled)
        if witness is None:
            return None
        (a, b), params = witness[1], self.card_params(move, on)
        if witness[0] == "beats_total":
            return self.narration("called_beats_total", name=name, a=a, b=b, sum=a + b, total=on.circled_sum, **params)
        return self.narration(
            "called_prime_above_mean",
            name=name,
            a=a,
            b=b,
            sum=a + b,
            mean=mixed(Fraction(on.circled_sum, len(on.circled))),
            **params,
        )

    def intro_params(self, game_state, pupil: int) -> dict:
        return {**super().intro_params(game_state, pupil), "primes": ", ".join(map(str, primes_up_to(200)))}

    def drills(self, game_state, hand, rng, levels):
        top = game_state.discard_pile[-1]
        roll = rng.random()
        close = [c for c in hand if abs(kids2()[c].circled_sum - kids2()[top].circled_sum) <= CLOSE]
        offers = {
            "estimate_card_sum": Offer(
                "estimate_sum", "estimate_card_sum", lambda level: estimate_card_sum(top, level)
            ),
            "exact_card_sum": Offer(
                "exact_sum", "exact_card_sum", lambda level: exact_card_sum(rng.choice(close), level)
            ),
            "mean_estimate": Offer("mean", "mean_estimate", lambda level: mean_estimate(top, level)),
            "mean_exact": Offer("mean", "mean_exact", lambda level: mean_exact(top, level)),
            "prime_which_sum": Offer(
                "primes", "prime_which_sum", lambda level: prime_which_sum(rng.choice(hand), level)
            ),
        }
        if not close:
            del offers["exact_card_sum"]
        if roll < 0.15:
            drawn = "estimate_card_sum"
        elif roll < 0.3 and close:
            drawn = "exact_card_sum"
        else:
            drawn = "mean_estimate" if roll < 0.45 else "mean_exact" if roll < 0.6 else "prime_which_sum"
        # the kind the roll draws is the lesson's first among kinds forecast alike
        ordered = [offers.pop(drawn), *offers.values()]
        return [choose_question(levels, ordered)]

    def hand_drills(self, game_state, hand, rng, levels):
        mine = rng.choice(hand)
        if rng.random() < 0.5:
            return [mean_estimate(mine, level_of(levels, "mean"))]
        return [prime_which_sum(mine, level_of(levels, "primes"))]
