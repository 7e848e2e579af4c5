"""Three Traits' lesson: the pupil lays cards on the row, and every choice is judged with its attributes.

The table shows the last two cards of the row, the two a new card is compared with, and their
attributes on request ("Show the attributes": suit, odd or even, low or high, and an ace's two
readings); the other players' hands as counts; the scoreboard the round, the draw pile and
everyone's penalty cards. Every card of the hand is a button, and so are "Draw a card" (at the
start of a turn, while the draw pile has cards) and "I cannot play" (after drawing, or with an
empty draw pile), whether the rules allow them now or not: the rules judge the choice and the
lesson says why, with the attributes the cards share ("Q♥ shares one attribute with 5♠ (high):
you need two"). Every play is told the same way, the computers' in the story, and so is every
round's end: who won, who took how many penalty cards.

Decisions:

- A choice counts for ``parity_size`` when it was a real decision. A refused card, draw or "I
  cannot play" always counts (wrong); a card that fits counts (right) only when at most half of
  the hand could be played, since a tap on a hand where most cards fit shows nothing; drawing
  and "I cannot play" when nothing fits count (right). Ending the turn is strategy, not maths.
- A game of Three Traits is short: a turn is a run of cards laid one after another, and a
  lesson has only two to nine turns of the pupil (bench/pace.py). So the drill point comes at
  the start of every turn of the pupil (one question a turn), in a fixed order: odd or even,
  which of your cards may go on the row, low or high, which attributes two cards share. The two kinds answered
  with two buttons (odd or even, low or high) never come twice in a row. "Which of your cards"
  is about the pupil's very next decision, so the play that follows it does not count again;
  it is asked only when some of the hand fits and at most half of it (otherwise: which
  attributes two cards share).
"""

from __future__ import annotations

import random

from tutor.drills import Offer, Question, choose_question, level_of
from tutor.drills.parity_size import playable_card, rank_parity, rank_size, shared_traits
from tutor.engine import Move
from tutor.engine.three_traits import (
    FEWER_THAN_TWO,
    HAND_SIZE,
    LOGGED,
    PARITY,
    SIZE,
    SUIT,
    Comparison,
    compare,
    meets_main_rule,
    readings,
)
from tutor.lessons.base import (
    NEXT_MARK,
    ROUND,
    ROUND_OF,
    Choice,
    Judged,
    Lesson,
    Row,
    Zone,
    and_list,
    computer_name,
    move_token,
    progress_line,
)
from tutor.standard_deck import ACE, ACE_LOW, STANDARD_CARDS, card
from tutor.text import N_, NC_, NP_, Text

SKILL = "parity_size"
#: The question kinds of the drill points, in the order they come (see the module docstring).
DRILL_ORDER = ("rank_parity", "playable_card", "rank_size", "shared_traits")

# Translators: the attributes of a playing card in Three Traits, listed ("5♠: spades, odd and low") or shared by two
# cards ("3♣ shares odd and low with 5♠"): a suit's name, odd or even, low (A to 7) or high (8 to K).
ATTRIBUTE = "an attribute of a card"
SUIT_WORDS = {
    "S": NC_("an attribute of a card", "spades"),
    "H": NC_("an attribute of a card", "hearts"),
    "D": NC_("an attribute of a card", "diamonds"),
    "C": NC_("an attribute of a card", "clubs"),
}
VALUE_WORDS = {
    "odd": NC_("an attribute of a card", "odd"),
    "even": NC_("an attribute of a card", "even"),
    "low": NC_("an attribute of a card", "low"),
    "high": NC_("an attribute of a card", "high"),
}
# Translators: what two cards share when they share no attribute, in "Q♥ shares nothing with 5♠".
NOTHING = NC_("attributes two cards share", "nothing")
# Translators: a card's attributes, listed under the row on request; %(card)s is the card ("5♠"), %(suit)s its suit
# ("spades"), %(parity)s "odd" or "even", %(size)s "low" or "high".
ATTRIBUTES = N_("%(card)s: %(suit)s, %(parity)s and %(size)s")
# Translators: an ace's attributes, listed under the row on request; %(card)s is the ace ("A♠"), %(suit)s its suit.
ACE_ATTRIBUTES = N_("%(card)s: %(suit)s; odd and low as 1, or even and high as 14")
# Translators: the attributes two cards share when an ace's value decided them; %(traits)s lists them ("even and
# high"), %(value)s is 1 or 14.
WITH_ACE = N_("%(traits)s (the ace as %(value)s)")
# Translators: the attributes two aces share; %(traits)s lists them ("odd and low"), %(value)s is 1 or 14.
WITH_ACES = N_("%(traits)s (the aces as %(value)s)")
# Translators: the scoreboard's line with a player's penalty cards; %(side)s is "You" or a computer player's name.
PENALTIES = NP_("%(side)s: %(num)s penalty card", "%(side)s: %(num)s penalty cards")
DRAW_PILE = NP_("Draw pile: %(num)s card", "Draw pile: %(num)s cards")


def trait_words(comparison: Comparison) -> Text:
    """The attributes two cards share, as a sentence lists them ("spades, odd and low"), or "nothing".

    When an ace's value decided odd or even, low or high, it is said: "even and high (the ace as 14)".
    """
    reading = comparison.mine
    words = {SUIT: SUIT_WORDS[reading.suit], PARITY: VALUE_WORDS[reading.parity], SIZE: VALUE_WORDS[reading.size]}
    if not comparison.shared:
        return Text.in_context(NOTHING)
    traits = and_list([Text.in_context(words[trait]) for trait in comparison.shared])
    aces = [r.value for r in (comparison.mine, comparison.theirs) if r.value in (ACE_LOW, ACE)]
    if aces and (PARITY in comparison.shared or SIZE in comparison.shared):
        return Text(WITH_ACES if len(aces) == 2 else WITH_ACE, {"traits": traits, "value": aces[0]})
    return traits


def attributes(card_id: int) -> Text:
    """One card's attributes, as the list under the row shows them: "5♠: spades, odd and low"."""
    found = card(card_id)
    suit = Text.in_context(SUIT_WORDS[found.suit])
    if found.rank == ACE:
        return Text(ACE_ATTRIBUTES, {"card": found.corner, "suit": suit})
    reading = readings(card_id)[0]
    return Text(
        ATTRIBUTES,
        {
            "card": found.corner,
            "suit": suit,
            "parity": Text.in_context(VALUE_WORDS[reading.parity]),
            "size": Text.in_context(VALUE_WORDS[reading.size]),
        },
    )


class ThreeTraitsLesson(Lesson):
    """The row and its attributes, every card a choice judged with its attributes, and the drills of parity_size."""

    game_id = "three-traits"
    lesson_options = {"rounds": 4}
    #: A turn is a run of cards laid one after another (two or three decisions on average), and a lesson has
    #: only a handful of turns: one question at the start of each.
    questions_per_turn = 1

    def cards(self):
        return STANDARD_CARDS

    def round_number(self, game_state) -> int:
        return game_state.rounds

    def rule(self, game_state) -> str:
        return game_state.game.options["fallback_rule"]

    def intro_params(self, game_state, pupil: int) -> dict:
        options = game_state.game.options
        return {
            "last": card(game_state.last).corner,
            "before": card(game_state.before).corner,
            "last_traits": attributes(game_state.last),
            "rounds": 0 if options["play_to_limit"] else options["rounds"],
            "limit": options["penalty_limit"],
        }

    def intro_text(self, step: int, game_state, pupil: int) -> Text:
        """The fallback's step says the rule of the game's option."""
        entry = self.intro_steps()[step]
        if entry.get("fallback") and self.rule(game_state) != FEWER_THAN_TWO:
            return self.narration("intro_fallback_at_least_one", **self.intro_params(game_state, pupil))
        return super().intro_text(step, game_state, pupil)

    # --- the table --------------------------------------------------------------------------------------
    def scoreboard(self, game_state, pupil: int) -> list[Text]:
        options, players = game_state.game.options, game_state.game.players
        limit = 0 if options["play_to_limit"] else options["rounds"]
        lines = [
            progress_line(limit, game_state.rounds, ROUND_OF, ROUND),
            Text.count(DRAW_PILE, len(game_state.draw_pile)),
        ]
        for player in range(players):
            lines.append(
                Text.count(PENALTIES, len(game_state.penalties[player]), side=self.seat_name(player, pupil, players))
            )
        return lines

    def table(self, game_state, pupil: int) -> list[Zone]:
        players = game_state.game.players
        zones = []
        if game_state.row:
            shown = game_state.row[-2:]
            zones.append(
                Zone(
                    Text(N_("The row")),
                    [
                        Row(
                            # Translators: beside the last two cards of the row: the card before, then the last card.
                            Text(N_("The last two cards")),
                            shown,
                            note=Text.count(
                                NP_("%(num)s card in the row", "%(num)s cards in the row"), len(game_state.row)
                            ),
                        )
                    ],
                    key="row",
                    details=[attributes(c) for c in shown],
                    # Translators: a button that opens the list of the row's cards' attributes (the intro names it).
                    details_title=Text(N_("Show the attributes")),
                )
            )
        others = [
            Row(
                self.seat_name(p, pupil, players),
                [None] * min(len(game_state.hands[p]), HAND_SIZE),
                note=Text.count(NP_("%(num)s card in hand", "%(num)s cards in hand"), len(game_state.hands[p])),
                mark=Text.in_context(NEXT_MARK) if p == game_state.turn and not game_state.is_over else None,
            )
            for p in range(players)
            if p != pupil
        ]
        zones.append(Zone(Text(N_("The other players")), others, key="others"))
        return zones

    # --- the pupil's choices ---------------------------------------------------------------------------
    def choices(self, game_state, pupil: int) -> list[Choice]:
        """The cards that fit (each card of the hand is a button anyway), then the one other move that is the
        question now, legal or not: draw or "I cannot play" before a card is laid, end the turn after."""
        if game_state.current_player != pupil:
            return []
        plays = [self.hand_choice(game_state, pupil, card_id) for card_id in game_state.playable(pupil)]
        if game_state.played:
            action = Choice(move_token(Move("end_turn", pupil)), Text(N_("End my turn")))
        elif game_state.draw_pile and not game_state.drawn:
            action = Choice(move_token(Move("draw", pupil)), Text(N_("Draw a card")))
        else:
            action = Choice(move_token(Move("cannot_play", pupil)), Text(N_("I cannot play")))
        return [*plays, action]

    def decision_prompt(self, game_state, pupil: int) -> Text:
        return Text(
            # Translators: the decision a pupil's choice answers, in the teacher's reports; %(before)s and %(last)s
            # are the row's last two cards ("J♦", "5♠").
            N_("Which card goes on the row after %(before)s and %(last)s?"),
            {"before": card(game_state.before).corner, "last": card(game_state.last).corner},
        )

    def playable(self, game_state, pupil: int) -> set[int]:
        return set(game_state.playable(pupil)) if game_state.current_player == pupil else set()

    def judge(self, game_state, pupil: int, move: Move) -> Judged | None:
        """Why a card may or may not go on the row, with the attributes it shares; and the draw and "cannot play"."""
        if game_state.current_player != pupil or move.player != pupil or game_state.phase != "play":
            return super().judge(game_state, pupil, move)
        hand = game_state.hands[pupil]
        fitting = game_state.playable(pupil)
        if move.kind == "play":
            if len(move.cards) != 1 or move.cards[0] not in hand:
                return None  # not the pupil's card: a stale or forged form, refused without a word
            return self.judge_card(game_state, pupil, move.cards[0], fitting)
        if move.kind == "draw":
            if fitting:
                return Judged(False, self.still_fits("draw", game_state, fitting), SKILL, "no_card_fits")
            if not game_state.is_legal(move):
                return super().judge(game_state, pupil, move)
            drawn = card(game_state.draw_pile[-1]).corner
            return Judged(True, self.narration("you_drew", card=drawn), SKILL, "no_card_fits")
        if move.kind == "cannot_play":
            if fitting:
                return Judged(False, self.still_fits("stuck", game_state, fitting), SKILL, "no_card_fits")
            if game_state.draw_pile and not game_state.drawn and not game_state.played:
                return Judged(False, self.narration("draw_first"))
            if not game_state.is_legal(move):
                return super().judge(game_state, pupil, move)
            return Judged(True, self.narration("you_cannot_play"), SKILL, "no_card_fits")
        return super().judge(game_state, pupil, move)  # ending the turn is strategy: nothing to judge

    def judge_card(self, game_state, pupil: int, card_id: int, fitting: list[int]) -> Judged:
        """A card of the hand laid on the row: it fits, with what it shares, or why not."""
        last, before, rule = game_state.last, game_state.before, self.rule(game_state)
        hand = game_state.hands[pupil]
        main = [c for c in hand if meets_main_rule(c, last, before)]
        names = {"card": card(card_id).corner, "last": card(last).corner, "before": card(before).corner}
        with_last, with_before = compare(card_id, last), compare(card_id, before)
        if card_id in fitting:
            counted = 2 * len(fitting) <= len(hand) and not self.asked_about(game_state, pupil)
            if meets_main_rule(card_id, last, before):
                told = self.narration(
                    "fits", **names, with_last=trait_words(with_last), with_before=trait_words(with_before)
                )
            else:
                told = self.narration(
                    "fits_fallback", **names, with_before=trait_words(self.fallback_before(card_id, before, rule))
                )
            return Judged(True, told, SKILL if counted else None, "playable_card")
        nothing_with_last = compare(card_id, last, most=False).count == 0
        if nothing_with_last and main:
            told = Text.count(self.forms("fallback_too_soon"), len(main), **names)
        elif nothing_with_last and rule == FEWER_THAN_TWO:
            told = self.narration(
                "fallback_too_close", **names, with_before=trait_words(compare(card_id, before, most=False))
            )
        elif nothing_with_last:
            told = self.narration("fallback_needs_one", **names)
        elif with_last.count < 2:
            key = "one_with_last" if main or not fitting else "one_with_last_none_fit"
            told = self.narration(key, **names, with_last=trait_words(with_last))
        else:
            told = self.narration("nothing_with_before", **names, with_last=trait_words(with_last))
        return Judged(False, told, SKILL, "playable_card")

    @staticmethod
    def fallback_before(card_id: int, before: int, rule: str) -> Comparison:
        """What a fallback card shares with the card before, read the way its rule allows it."""
        return compare(card_id, before, most=rule != FEWER_THAN_TWO)

    def still_fits(self, kind: str, game_state, fitting: list[int]) -> Text:
        """Why drawing or "I cannot play" is refused: how many cards still fit, and by which rule."""
        last, before = card(game_state.last).corner, card(game_state.before).corner
        main = meets_main_rule(fitting[0], game_state.last, game_state.before)
        return Text.count(
            self.forms(f"{kind}_{'main' if main else 'fallback'}"), len(fitting), last=last, before=before
        )

    def forms(self, key: str) -> tuple[str, str]:
        """A narration text with singular and plural forms, as :meth:`Text.count` takes them."""
        entry = self.content()["narration"][key]
        return entry["one"], entry["other"]

    # --- the story ------------------------------------------------------------------------------------------
    def turn_narration(self, game_state, pupil: int) -> Text:
        if game_state.played:
            return self.narration("go_on")
        if game_state.drawn:
            return self.narration("after_draw")
        return self.narration("your_turn" if game_state.draw_pile else "your_turn_no_draw")

    def round_story(self, game_state, pupil: int, recent: list[Move]) -> list[Text]:
        """The computers' plays and draws since the pupil's last move, and every round that ended, with its numbers."""
        players = game_state.game.players
        events = [m for m in recent if m.kind in LOGGED]
        log = game_state.log
        entries = log[max(0, len(log) - len(events)) :]
        entries = [None] * (len(events) - len(entries)) + entries
        before_window = log[-len(events) - 1] if len(log) > len(events) else None
        story = []
        if before_window and before_window["player"] == pupil and before_window["ended"]:
            story += self.round_end(game_state, before_window["round"], pupil)
        for move in recent:
            if move.player < 0 or move.kind == "end_turn":
                continue
            name = self.seat_name(move.player, pupil, players)
            entry = entries.pop(0)
            if move.kind == "draw":
                story.append(self.narration("drew", name=name))
            elif move.kind == "play" and entry is not None:
                story.append(self.play_story(game_state, name, entry))
            if entry is not None and entry["ended"]:
                story += self.round_end(game_state, entry["round"], pupil)
        return story

    def play_story(self, game_state, name: Text, entry: dict) -> Text:
        card_id, last, before = entry["card"], entry["last"], entry["before"]
        names = {"name": name, "card": card(card_id).corner, "last": card(last).corner, "before": card(before).corner}
        if meets_main_rule(card_id, last, before):
            return self.narration(
                "played",
                **names,
                with_last=trait_words(compare(card_id, last)),
                with_before=trait_words(compare(card_id, before)),
            )
        rule = self.rule(game_state)
        return self.narration(
            "played_fallback", **names, with_before=trait_words(self.fallback_before(card_id, before, rule))
        )

    def round_end(self, game_state, number: int, pupil: int) -> list[Text]:
        """How round ``number`` ended: who won or could not play, who took how many penalty cards, what comes next."""
        players = game_state.game.players
        result = game_state.results[number - 1]
        winner, loser = result["winner"], result["loser"]
        lines = []
        if winner is not None:
            lines.append(self.you_or_other("round_won", winner, pupil, round=number))
        else:
            lines.append(self.you_or_other("round_lost", loser, pupil, round=number))
        for player in range(players):
            taken = result["taken"].get(str(player), 0)
            if not taken:
                continue
            what = "everything" if winner is None else "row_and_hand" if player == loser else "hand"
            lines.append(self.you_or_other_count(f"took_{what}", player, pupil, taken))
        if result["rest"]:
            lines.append(self.you_or_other_count("rest", loser, pupil, result["rest"]))
        elif number < game_state.rounds or not game_state.is_over:
            row = game_state.results[number]["row"] if number < game_state.rounds else game_state.row
            lines.append(
                self.you_or_other(
                    "new_round", loser, pupil, round=number + 1, before=card(row[0]).corner, last=card(row[1]).corner
                )
            )
        return lines

    def you_or_other(self, key: str, player: int, pupil: int, **params) -> Text:
        """A line with a sentence of its own for the pupil ("_you") and for a computer ("_other")."""
        if player == pupil:
            return self.narration(f"{key}_you", **params)
        return self.narration(f"{key}_other", name=computer_name(player), **params)

    def you_or_other_count(self, key: str, player: int, pupil: int, num: int) -> Text:
        if player == pupil:
            return Text.count(self.forms(f"{key}_you"), num)
        return Text.count(self.forms(f"{key}_other"), num, name=computer_name(player))

    def finish_story(self, game_state, pupil: int) -> list[Text]:
        totals = game_state.totals()
        return [*super().finish_story(game_state, pupil), Text.count(self.forms("fewest"), min(totals))]

    # --- drill points ----------------------------------------------------------------------------------------
    def drill_kind(self, game_state, pupil: int) -> str | None:
        """The question kind this position asks, or None: at the start of each of the pupil's turns, in DRILL_ORDER."""
        if game_state.phase != "play" or game_state.current_player != pupil or game_state.played or game_state.drawn:
            return None
        kind = DRILL_ORDER[(game_state.turns[pupil] - 1) % len(DRILL_ORDER)]
        if kind == "playable_card" and not self.a_real_choice(game_state, pupil):
            return "shared_traits"
        return kind

    @staticmethod
    def a_real_choice(game_state, pupil: int) -> bool:
        """Some of the hand fits and at most half of it: the question is worth asking (a guess is mostly wrong)."""
        hand, fitting = game_state.hands[pupil], game_state.playable(pupil)
        return len(hand) >= 2 and 0 < 2 * len(fitting) <= len(hand)

    def asked_about(self, game_state, pupil: int) -> bool:
        """Whether this position's drill point asks which of the pupil's cards may go on the row (the next choice)."""
        return self.drill_kind(game_state, pupil) == "playable_card"

    def before_move(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        """At the start of the pupil's turn: which card may go on the row where :meth:`drill_kind` asks it (the
        choice the pupil makes next); elsewhere a card's parity or size or what two cards share, whichever is pitched
        nearest the pupil's target, the turn's own kind first (each drawing its card as it did when asked alone)."""
        kind = self.drill_kind(game_state, pupil)
        if kind is None:
            return []
        hand, last, before = game_state.hands[pupil], game_state.last, game_state.before
        if kind == "playable_card":
            return [playable_card(hand, last, before, level_of(levels, SKILL), self.rule(game_state))]

        def shared() -> Offer:
            first = rng.choice(hand) if rng.random() < 0.5 else before
            return Offer(SKILL, "shared_traits", lambda level: shared_traits(first, last, level))

        def one_card(make) -> Offer:
            about = rng.choice([last, before, *hand])
            return Offer(SKILL, make.__name__, lambda level: make(about, level))

        makers = {
            "rank_parity": lambda: one_card(rank_parity),
            "rank_size": lambda: one_card(rank_size),
            "shared_traits": shared,
        }
        kinds = [name for name in DRILL_ORDER if name in makers]
        first = kinds.index(kind)
        offers = [makers[name]() for name in kinds[first:] + kinds[:first]]  # the turn's own kind draws first
        return [question for question in [choose_question(levels, offers)] if question is not None]
