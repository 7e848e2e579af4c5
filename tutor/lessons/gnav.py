"""The Gnav lesson: trade or stand by the odds, every matador's call told, every point with its reason.

The pupil makes every decision of the game: trade or stand (the dealer trades with the deck),
give the card or refuse when asked (only a matador that refuses may), and knock with a Fool
they were dealt. The pupil's one card lies face up at their seat on the table, and every
decision is a button, offered whatever the pupil holds: a refusal without such a
matador, or the dealer's trade with an empty deck, is refused with its reason and nothing is
played. The drill points are the maths behind the decision: before the pupil trades or
stands, how many of the cards they have not seen beat theirs, or the chance that the card
they would get beats theirs, as a fraction (``probability``, from the cards the pupil has
seen: the discard pile, the matadors shown, their own trades); after a round, which of two
cards was higher (``compare``, asked before the round's result shows). Every event is told:
each trade, each call with what it cost and whom, the highest card and the new points.

Decisions:

- A refusal without a matador, and a trade with an empty deck, are rules of the table, not
  maths: refused with the reason, not counted as an answer (as Casino War's unaffordable stake).
- The lesson offers 3 to 6 players and stops after 8 rounds (the game itself takes 2 to 12
  and plays until the deck runs out).
- The story tells what happened since the pupil's own last move, that move included, so a
  pupil sees what their choice did, and the rounds they sat out.
"""

from __future__ import annotations

import random

from tutor.drills import Offer, Question, choose_question, level_of
from tutor.drills.compare import compare_gnav
from tutor.drills.probability import gnav_chance_higher, gnav_unseen_higher
from tutor.engine import Move
from tutor.gnav_deck import GNAV_CARDS, card_name, face_of, rank, refusal
from tutor.lessons.base import (
    ACTION,
    NEXT_MARK,
    ROUND,
    ROUND_OF,
    WINNER_MARK,
    Choice,
    Judged,
    Lesson,
    RoundShown,
    Row,
    Zone,
    and_list,
    computer_name,
    move_token,
    progress_line,
)
from tutor.lessons.war_family import LAST_ROUND
from tutor.text import NC_, NP_, Text

# Translators: a scoreboard line: %(side)s is "You" or a computer player's name; the count is their points in Gnav.
POINTS = NP_("%(side)s: %(num)s point", "%(side)s: %(num)s points")
# Translators: a scoreboard line: the cards left in the deck, face down.
DECK_LEFT = NP_("Deck: %(num)s card", "Deck: %(num)s cards")
# Translators: the heading over the players and their cards in the round being played.
AT_THE_TABLE = NC_("heading: the Gnav table", "At the table")
# Translators: the heading over the face-up pile of cards put away in Gnav (every player may look at them).
DISCARD_PILE = NC_("heading: Gnav's face-up pile", "Discard pile")
# Translators: beside the face-up discard pile in Gnav: how many cards lie on it, for everyone to see.
DISCARD_COUNT = NP_("%(num)s card, face up", "%(num)s cards, face up")
# Translators: a note beside the player who deals this round of Gnav (a noun, no verb: it stands beside any name).
DEALER = NC_("note beside a seat", "dealer")
# Translators: a note beside the dealer's card in Gnav: %(card)s is the card's name ("the Cat").
DEALER_CARD = NC_("note beside a seat", "dealer, %(card)s")
DEALT = ("knock", "turn", "answer")


class GnavLesson(Lesson):
    """One card each: trade or stand by the odds, with the matadors' calls told."""

    game_id = "gnav"
    lesson_options = {"round_limit": 8}
    offered_players = range(3, 7)

    def cards(self):
        return GNAV_CARDS

    def name(self, player: int) -> Text:
        """A player's name inside a sentence (the pupil has sentences of their own)."""
        return computer_name(player)

    # --- the intro ---------------------------------------------------------------------------------
    def intro_params(self, game_state, pupil: int) -> dict:
        hand = game_state.hands[pupil]
        return {
            "card": card_name(hand[0]) if hand else "",
            "points": game_state.game.options["points"],
            "rounds": game_state.game.options["round_limit"],
        }

    def intro_text(self, step: int, game_state, pupil: int) -> Text:
        """The step about the order of the cards follows the game's low-card order."""
        if self.intro_steps()[step].get("focus") == "order" and game_state.order == "fool_lowest":
            return self.narration("intro_order_fool_lowest")
        return super().intro_text(step, game_state, pupil)

    # --- what the pupil sees -----------------------------------------------------------------------
    def scoreboard(self, game_state, pupil: int) -> list[Text]:
        players = game_state.game.players
        limit = game_state.game.options["round_limit"]
        lines = [
            progress_line(limit, game_state.rounds, ROUND_OF, ROUND),
            Text.count(DECK_LEFT, len(game_state.deck)),
        ]
        for player in range(players):
            lines.append(Text.count(POINTS, game_state.points[player], side=self.seat_name(player, pupil, players)))
        return lines

    def table(self, game_state, pupil: int) -> list[Zone]:
        view = game_state.player_view(pupil)
        players = view["players"]
        seats = [(pupil + step) % players for step in range(players)]  # the pupil, then the player on their left
        rows = []
        for player in seats:
            shown = view["card"][0] if player == pupil and view["card"] else view["exposed"].get(str(player))
            cards = [shown] if shown is not None else [None] * (view["phase"] in DEALT)
            rows.append(
                Row(
                    self.seat_name(player, pupil, players),
                    cards,
                    self.seat_note(player == view["dealer"], shown),
                    Text.in_context(NEXT_MARK) if player == view["to_move"] else None,
                )
            )
        zones = [Zone(Text.in_context(AT_THE_TABLE), rows, key="this-round")]
        if view["history"]:
            last_rows = self.round_end_rows(view["history"][-1], pupil, players)
            zones.append(Zone(Text.in_context(LAST_ROUND), last_rows, key="last-round"))
        return [*zones, self.discard_zone(view)]

    def round_end_rows(self, record: dict, pupil: int, players: int) -> list[Row]:
        """Every seat's card at a round's end, the pupil's first, the winner marked."""
        end = record["events"][-1]
        return [
            Row(
                self.seat_name(player, pupil, players),
                [end["cards"][str(player)]],
                card_name(end["cards"][str(player)]),
                Text.in_context(WINNER_MARK) if player == end["winner"] else None,
            )
            for player in ((pupil + step) % players for step in range(players))
        ]

    @staticmethod
    def discard_zone(view: dict) -> Zone:
        pile = sorted(view["discard"], key=lambda c: (-rank(c, view["low_order"]), c))
        return Zone(
            Text.in_context(DISCARD_PILE), [Row(Text.count(DISCARD_COUNT, len(pile)), pile)], key="gnav-discard"
        )

    def decided_round(self, game_state, pupil: int, round_number: int) -> RoundShown | None:
        """The cards of the round just decided, as they lay at its end, before the next round is dealt."""
        view = game_state.player_view(pupil)
        if round_number != len(view["history"]) or not round_number:
            return None
        line = progress_line(game_state.game.options["round_limit"], round_number - 1, ROUND_OF, ROUND)
        rows = self.round_end_rows(view["history"][-1], pupil, view["players"])
        return RoundShown(
            [line], [Zone(Text.in_context(AT_THE_TABLE), rows, key="this-round"), self.discard_zone(view)]
        )

    def seat_note(self, deals: bool, shown: int | None) -> Text | None:
        if deals:
            return Text.in_context(DEALER_CARD, card=card_name(shown)) if shown is not None else Text.in_context(DEALER)
        return card_name(shown) if shown is not None else None

    # --- the pupil's decisions ----------------------------------------------------------------------
    def choices(self, game_state, pupil: int) -> list[Choice]:
        phase = game_state.phase
        if phase == "knock":
            return [self.action(Move("knock", pupil), "knock"), self.action(Move("quiet", pupil), "quiet")]
        if phase == "turn":
            if pupil == game_state.dealer:
                trade = self.action(Move("trade", pupil), "trade_with_deck")
            else:
                trade = self.action(Move("trade", pupil), "trade_with", name=self.name(game_state.left_of(pupil)))
            return [trade, self.action(Move("stand", pupil), "stand")]
        if phase == "answer":
            give = self.action(Move("accept", pupil), "give", name=self.name(game_state.asker))
            held = game_state.hands[pupil][0]
            if refusal(held) is not None:
                refuse = self.action(Move("call", pupil), "say_call", call=self.call(held))
            else:
                refuse = self.action(Move("call", pupil), "refuse")
            return [give, refuse]
        return []

    def action(self, move: Move, key: str, **params) -> Choice:
        return Choice(move_token(move), self.narration(key, **params), place=ACTION)

    def call(self, card_id: int) -> Text:
        """A matador's call (the narration's ``call_<face>``)."""
        return self.narration(f"call_{face_of(card_id)}")

    def judge(self, game_state, pupil: int, move: Move) -> Judged | None:
        """A refusal without a matador that refuses, or a trade with an empty deck, is refused with the reason."""
        if game_state.is_legal(move):
            return None
        if move.kind == "call" and game_state.phase == "answer" and game_state.asked == pupil:
            told = self.narration(
                "refused_no_matador",
                card=card_name(game_state.hands[pupil][0]),
                name=self.name(game_state.asker),
            )
            return Judged(False, told, kind="answer")
        if move.kind == "trade" and game_state.phase == "turn" and game_state.turn == pupil:
            return Judged(False, self.narration("refused_empty_deck"), kind="trade")
        return super().judge(game_state, pupil, move)

    def decision_prompt(self, game_state, pupil: int) -> Text:
        return self.narration(
            {"knock": "prompt_knock", "answer": "prompt_answer"}.get(game_state.phase, "prompt_trade")
        )

    def turn_narration(self, game_state, pupil: int) -> Text:
        if game_state.phase == "knock":
            return self.narration("knock_turn")
        if game_state.phase == "answer":
            return self.narration("asked_turn", name=self.name(game_state.asker))
        if pupil != game_state.dealer:
            return self.narration("your_turn", name=self.name(game_state.left_of(pupil)))
        return self.narration("your_turn_dealer" if game_state.deck else "your_turn_dealer_empty")

    # --- telling what happened -------------------------------------------------------------------------
    def round_story(self, game_state, pupil: int, recent: list[Move]) -> list[Text]:
        """Every event since the pupil's own last one (that one too), as the pupil may know it."""
        view = game_state.player_view(pupil)
        records = [*view["history"], *([view["round"]] if view["round"] else [])]
        events = [event for record in records for event in record["events"]]
        since = max((event["seq"] for event in events if event["by"] == pupil), default=0)
        lines = []
        for record in records:
            told = [
                line
                for event in record["events"]
                if event["seq"] >= since
                for line in self.event_lines(event, pupil, view)
            ]
            if lines:  # a new round after one already told: say so, and who deals
                lines.append(self.you_or(record["dealer"], pupil, "new_round_you", "new_round", n=record["round"]))
            lines += told
        return lines

    def you_or(self, player: int, pupil: int, you: str, other: str, **params) -> Text:
        """The pupil's own sentence, or another player's with their ``name``."""
        if player == pupil:
            return self.narration(you, **params)
        return self.narration(other, name=self.name(player), **params)

    def event_lines(self, event: dict, pupil: int, view: dict) -> list[Text]:
        kind, player = event["kind"], event.get("player")
        if kind == "knock":
            return [self.you_or(player, pupil, "you_knock", "knock_other")]
        if kind == "quiet":
            return [self.narration("you_quiet")]
        if kind == "stand":
            if player == pupil:
                return [self.narration("you_stand", card=card_name(event["card"]))]
            return [self.narration("stand_other", name=self.name(player))]
        if kind == "trade":
            return [self.trade_line(event, pupil)]
        if kind == "draw":
            if player == pupil:
                return [self.narration("you_draw", gave=card_name(event["gave"]), got=card_name(event["got"]))]
            return [self.narration("draw_other", name=self.name(player), gave=card_name(event["gave"]))]
        if kind == "call":
            return self.call_lines(event, pupil)
        if kind == "end":
            return self.end_lines(event, pupil)
        return []  # an ask is told by its answer

    def trade_line(self, event: dict, pupil: int) -> Text:
        asker, asked = event["player"], event["to"]
        if asker == pupil:
            return self.narration(
                "you_trade", other=self.name(asked), gave=card_name(event["gave"]), got=card_name(event["got"])
            )
        if asked == pupil:  # the pupil gave their card ("got" is the asker's)
            return self.narration(
                "trade_with_you", name=self.name(asker), gave=card_name(event["got"]), got=card_name(event["gave"])
            )
        return self.narration("trade_other", name=self.name(asker), other=self.name(asked))

    def call_lines(self, event: dict, pupil: int) -> list[Text]:
        """The call with the card shown, what it cost the asker, and who goes on."""
        asker, holder, after = event["player"], event["to"], event["next"]
        lines = [
            self.you_or(
                holder, pupil, "call_you", "call_other", call=self.call(event["card"]), card=card_name(event["card"])
            )
        ]
        if event["refuses"] == "stop":
            return lines + [self.you_or(holder, pupil, "stop_you", "stop_other")]
        lost = "lose" if event["lost"] else "no_point"
        lines.append(self.you_or(asker, pupil, f"{lost}_you", f"{lost}_other"))
        if event["refuses"] == "cut_off":
            if after is None:
                return lines + [self.narration("dragoon_last")]
            return lines + [self.you_or(after, pupil, "dragoon_next_you", "dragoon_next")]
        if after is None:
            return lines + [self.narration("nobody_left")]
        if asker == pupil:
            return lines + [self.narration("try_next_you", name=self.name(after))]
        if after == pupil:
            return lines + [self.narration("try_next_is_you", name=self.name(asker))]
        return lines + [self.narration("try_next_other", name=self.name(asker), other=self.name(after))]

    def end_lines(self, event: dict, pupil: int) -> list[Text]:
        """The round's result: the highest card (a tie's draws) and the new points, the lone Fool, no loss at 0."""
        lines = []
        points, winner = event["points"], event["winner"]
        if event["ended"] == "showdown":
            cards = {int(p): c for p, c in event["cards"].items()}
            best = cards[event["highest"][0]]
            if len(event["highest"]) == 1:
                lines.append(self.won_line("highest", best, winner, pupil, points))
            else:
                lines.append(self.tie_line(event["highest"], best, pupil))
                for draws in event["draws"]:
                    for player, card in draws.items():
                        lines.append(
                            self.you_or(int(player), pupil, "tie_draw_you", "tie_draw_other", card=card_name(card))
                        )
                if winner is None:
                    lines.append(self.narration("no_winner"))
                else:
                    lines.append(
                        self.won_line("drawn_highest", int(event["draws"][-1][str(winner)]), winner, pupil, points)
                    )
            if event["lone_fool"] is not None:
                lines.append(self.you_or(event["lone_fool"], pupil, "lone_fool_you", "lone_fool_other"))
                for player in event["lowest"]:
                    card = card_name(cards[player])
                    lines.append(self.you_or(player, pupil, "lowest_you", "lowest_other", card=card))
        for player in event["spared"]:
            lines.append(self.you_or(player, pupil, "spared_you", "spared_other"))
        return lines

    def won_line(self, key: str, card_id: int, winner: int, pupil: int, points: list[int]) -> Text:
        params = {"card": card_name(card_id), "num": points[winner]}
        if winner == pupil:
            return self.narration(f"{key}_you", **params)
        return self.narration(f"{key}_other", name=self.name(winner), **params)

    def tie_line(self, tied: list[int], card_id: int, pupil: int) -> Text:
        names = [self.name(p) for p in tied if p != pupil]
        if pupil in tied:
            return self.narration("tie_you", card=card_name(card_id), others=and_list(names))
        return self.narration("tie_other", card=card_name(card_id), names=and_list(names))

    # --- drills ---------------------------------------------------------------------------------------
    def before_move(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        """Before trading or standing: the higher cards unseen or the chance of a higher card, whichever is pitched
        nearest the pupil's target (the lesson's order: the unseen cards first in even rounds, the chance in odd)."""
        if game_state.phase != "turn" or (pupil == game_state.dealer and not game_state.deck):
            return []
        view = game_state.player_view(pupil)
        mine, seen, order = view["card"][0], view["seen"], view["low_order"]
        from_deck = pupil == game_state.dealer
        unseen = Offer("probability", "gnav_unseen_higher", lambda level: gnav_unseen_higher(mine, seen, level, order))
        chance = Offer(
            "probability",
            "gnav_chance_higher",
            lambda level: gnav_chance_higher(mine, seen, level, order, from_deck=from_deck),
        )
        offers = [unseen, chance] if game_state.rounds % 2 == 0 else [chance, unseen]
        return [question for question in [choose_question(levels, offers)] if question is not None]

    def after_round(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        """After a round: which was higher, the pupil's card or the best of the others (before the result shows)."""
        history = game_state.history
        if not history:
            return []
        cards = {int(p): c for p, c in history[-1]["events"][-1]["cards"].items()}
        order = game_state.order
        mine = cards.pop(pupil)
        best = max(cards.values(), key=lambda c: (rank(c, order), -c))
        return [compare_gnav([mine, best], level_of(levels, "compare"), order)]
