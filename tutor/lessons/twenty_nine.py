"""29's lesson: build three piles to exactly 29, with every sum told and the ace up the sleeve as a window.

The table shows each player's bench and three piles, each pile with its value drawn large
beside its cards, the Kings and Queens tucked under the number card they change and
pointing at whoever played them (up: the computer, down: the pupil). The pupil picks a card
of the hand or the bench (an ace and the card it carries for a second card, or out of
turn), then a place: a pile, a number card, the bench, or the card a Joker takes away.
Every card can be picked and every place on the table offered; a place the rules refuse is
explained with its numbers. After every play of the computer the pupil who holds an ace
gets a window: answer with the ace and a card, or let it go with one tap.

The judge tells every play with its sum ("20 + 7 = 27") and counts what shows a skill: a
pile of the pupil's own made exactly 29 is a right ``missing_addend`` answer, a pile of the
computer's made exactly 29 (it wins it) a wrong one; a pile of the pupil's own pushed over
29 is a wrong ``compare`` answer (the rules allow it, it is played, and thrown away at the
end of the turn unless brought back), and a play the rules refuse because a pile would go
below 0 a wrong ``add_sub`` answer.

Drill points, at the start of the pupil's turn, about the pupil's own piles and cards: how
many points a pile still needs (``missing_addend``), which card makes it exactly 29
(``missing_addend``), what it is worth after laying a card of the hand (``add_sub``), and
whether it is then under, exactly or over 29 (``compare``). Of the kinds the position
allows, the one (and level) whose forecast success for the pupil is nearest their target is
asked (:func:`tutor.drills.choose_question`).
"""

from __future__ import annotations

import random
from dataclasses import replace

from tutor.drills import Offer, Question, choose_question
from tutor.drills.add_sub import twentynine_pile_value, twentynine_play
from tutor.drills.compare import twentynine_bust
from tutor.drills.missing_addend import twentynine_missing_value, twentynine_which_card
from tutor.engine import Move
from tutor.engine.twenty_nine import (
    ACE_PLAY,
    BENCH,
    END,
    FROM_BENCH,
    GOAL,
    LET_GO,
    PASS,
    PLAY,
    Effect,
    effect_of,
    is_ace,
    is_face,
    is_joker,
    is_number,
    locate,
    on_place,
    parse_place,
    pile_place,
    pile_value,
    take_place,
)
from tutor.lessons.base import (
    HAND,
    TURN,
    YOU,
    Choice,
    Judged,
    Lesson,
    Row,
    Tucked,
    Zone,
    computer_name,
    move_token,
    progress_line,
)
from tutor.signs import formula
from tutor.standard_deck import JACK, KING, QUEEN, STANDARD_CARDS, card, rank
from tutor.text import N_, NC_, NP_, Text

# --- the table --------------------------------------------------------------------------------------------------
# Translators: 29: the name of one of a player's three piles on the table (%(n)s is 1, 2 or 3).
PILE = NC_("29: a player's pile", "Pile %(n)s")
# Translators: 29: the row of a player's face cards waiting to be played.
BENCH_ROW = NC_("29: a row of the table", "Bench")
# Translators: 29: the row with the computer player's hand, face down.
HAND_ROW = NC_("29: a row of the table", "Hand")
# Translators: 29: the shared pile of face-down cards the players draw from.
DRAW_PILE = NC_("29: a row of the table", "Draw pile")
# Translators: 29: a note beside a pile: what its cards are worth together.
WORTH = N_("worth %(value)s")
# Translators: 29: a note beside a pile with a Jack on it: what its cards are worth, and that it is protected.
WORTH_PROTECTED = N_("worth %(value)s, protected by a Jack")
# Translators: 29: a mark beside a pile that reached exactly 29 and was turned face down.
WON_MARK = NC_("29: mark beside a pile", "won with exactly 29")
# Translators: 29: a note beside a row of face-down cards: how many there are.
CARDS_NOTE = NP_("%(num)s card", "%(num)s cards")
# Translators: 29: the player who put a King or Queen under a number card, for screen readers ("played by you").
PLAYED_BY_YOU = N_("played by you")
# Translators: 29: %(name)s is a computer player's name; for screen readers beside a tucked King or Queen.
PLAYED_BY = N_("played by %(name)s")
# Translators: 29: a scoreboard line; %(side)s is "You" or a computer player's name.
PILES_WON = NP_("%(side)s: %(num)s pile won", "%(side)s: %(num)s piles won")

# --- the pupil's moves --------------------------------------------------------------------------------------------
ACTIONS = {
    # Translators: 29: the button that plays no card this turn and draws one more card instead.
    PASS: N_("Draw a card instead"),
    # Translators: 29: the button that ends the pupil's turn.
    END: N_("End my turn"),
    # Translators: 29: the button that lets the computer's play pass without answering it with an ace.
    LET_GO: N_("Let it go"),
}
# Translators: 29: under a card the pupil may pick that lies on their bench, not in the hand.
ON_YOUR_BENCH = N_("on your bench")
PLACE_LABELS = {
    # Translators: 29: a button: lay the picked card on the pupil's pile %(pile)s (1-3), worth %(value)s now.
    "your_pile": N_("your pile %(pile)s (%(value)s)"),
    # Translators: 29: a button: the picked card goes on %(name)s's pile %(pile)s; %(name)s is a computer player.
    "their_pile": N_("%(name)s's pile %(pile)s (%(value)s)"),
    # Translators: 29: a button: the picked King or Queen goes on the %(card)s (a number card) in the pupil's pile.
    "your_card": N_("on the %(card)s in your pile %(pile)s"),
    # Translators: 29: a button: the King or Queen goes on the %(card)s in %(name)s's pile (a computer player).
    "their_card": N_("on the %(card)s in %(name)s's pile %(pile)s"),
    # Translators: 29: a button: the Joker takes %(card)s (a card such as "8♠" or "K♦") off the pupil's pile.
    "take_yours": N_("take %(card)s off your pile %(pile)s"),
    # Translators: 29: a button: the Joker takes %(card)s off %(name)s's pile (a computer player).
    "take_theirs": N_("take %(card)s off %(name)s's pile %(pile)s"),
    # Translators: 29: a button: the picked face card goes to the pupil's bench to wait.
    "bench": N_("your bench"),
}
PICKED = {
    # Translators: 29: %(card)s is the picked card ("7♥").
    "one": N_("Your %(card)s: where does it go? Choose a place under “Your move”."),
    # Translators: 29: %(card)s is the card the ace carries ("7♥").
    "ace": N_("Your ace carries your %(card)s: where does it go? Choose a place under “Your move”."),
    "ace_alone": N_("An ace carries one more card: pick the card it carries too."),
    "too_many": N_("Pick one card, or an ace and one card. Tap a card again to put it back."),
}

# --- what a play does, told with its numbers -------------------------------------------------------------------
#: (who played, what, whose pile): "you" or "they" played it; the pile is "yours" or "theirs" seen from the
#: player who played. %(card)s is a number card's value, %(pile)s a pile's number, %(calc)s the sum.
PLAYED = {
    # Translators: 29: %(card)s is a number card's value, %(pile)s 1-3, %(calc)s a sum such as "20 + 7 = 27".
    ("you", "number", "own"): N_("You laid your %(card)s on your pile %(pile)s: %(calc)s."),
    # Translators: 29: %(name)s is a computer player's name; %(calc)s a sum such as "20 + 7 = 27".
    ("they", "number", "own"): N_("%(name)s laid a %(card)s on its pile %(pile)s: %(calc)s."),
    ("you", "king", "own"): N_("You put your King on the %(card)s in your pile %(pile)s: %(calc)s."),
    # Translators: 29: %(name)s is a computer player's name; the King went on a card of its own pile.
    ("they", "king", "own"): N_("%(name)s put a King on the %(card)s in its pile %(pile)s: %(calc)s."),
    # Translators: 29: %(name)s is a computer player's name; the pupil's King went on a card of its pile.
    ("you", "king", "other"): N_("You put your King on the %(card)s in %(name)s's pile %(pile)s: %(calc)s."),
    # Translators: 29: %(name)s is a computer player's name; its King went on a card of the pupil's pile.
    ("they", "king", "other"): N_("%(name)s put a King on the %(card)s in your pile %(pile)s: %(calc)s."),
    ("you", "queen", "own"): N_("You put your Queen on the %(card)s in your pile %(pile)s: %(calc)s."),
    # Translators: 29: %(name)s is a computer player's name; the Queen went on a card of its own pile.
    ("they", "queen", "own"): N_("%(name)s put a Queen on the %(card)s in its pile %(pile)s: %(calc)s."),
    # Translators: 29: %(name)s is a computer player's name; the pupil's Queen went on a card of its pile.
    ("you", "queen", "other"): N_("You put your Queen on the %(card)s in %(name)s's pile %(pile)s: %(calc)s."),
    # Translators: 29: %(name)s is a computer player's name; its Queen went on a card of the pupil's pile.
    ("they", "queen", "other"): N_("%(name)s put a Queen on the %(card)s in your pile %(pile)s: %(calc)s."),
    # Translators: 29: %(name)s is a computer player's name.
    ("you", "jack", "own"): N_("You put your Jack on your pile %(pile)s: %(name)s may not put Kings or Queens on it."),
    # Translators: 29: %(name)s is a computer player's name.
    ("they", "jack", "own"): N_("%(name)s put a Jack on its pile %(pile)s: you may not put Kings or Queens on it."),
    # Translators: 29: %(card)s is the card the Joker took, such as "8♠" or "K♦"; %(calc)s the sum.
    ("you", "joker", "own"): N_("Your Joker took %(card)s off your pile %(pile)s: %(calc)s."),
    # Translators: 29: %(name)s is a computer player's name; %(card)s the card taken off its own pile ("8♠").
    ("they", "joker", "own"): N_("%(name)s's Joker took %(card)s off its pile %(pile)s: %(calc)s."),
    # Translators: 29: %(name)s is a computer player's name; %(card)s the card taken off its pile ("8♠").
    ("you", "joker", "other"): N_("Your Joker took %(card)s off %(name)s's pile %(pile)s: %(calc)s."),
    # Translators: 29: %(name)s is a computer player's name; %(card)s the card taken off the pupil's pile ("8♠").
    ("they", "joker", "other"): N_("%(name)s's Joker took %(card)s off your pile %(pile)s: %(calc)s."),
    ("you", "jack_taken", "own"): N_("Your Joker took the Jack off your pile %(pile)s."),
    # Translators: 29: %(name)s is a computer player's name.
    ("they", "jack_taken", "own"): N_("%(name)s's Joker took the Jack off its pile %(pile)s."),
    # Translators: 29: %(name)s is a computer player's name.
    ("you", "jack_taken", "other"): N_(
        "Your Joker took the Jack off %(name)s's pile %(pile)s: it is not protected now."
    ),
    # Translators: 29: %(name)s is a computer player's name.
    ("they", "jack_taken", "other"): N_(
        "%(name)s's Joker took the Jack off your pile %(pile)s: it is not protected now."
    ),
    ("you", "king", "bench"): N_("You put your King on your bench: it waits there for a turn of yours."),
    ("you", "queen", "bench"): N_("You put your Queen on your bench: it waits there for a turn of yours."),
    ("you", "jack", "bench"): N_("You put your Jack on your bench: it waits there for a turn of yours."),
    # Translators: 29: %(name)s is a computer player's name.
    ("they", "king", "bench"): N_("%(name)s put a King on its bench."),
    # Translators: 29: %(name)s is a computer player's name.
    ("they", "queen", "bench"): N_("%(name)s put a Queen on its bench."),
    # Translators: 29: %(name)s is a computer player's name.
    ("they", "jack", "bench"): N_("%(name)s put a Jack on its bench."),
}
# Translators: 29: %(name)s is a computer player's name; told before the card the ace carried.
ACE_USED = N_("%(name)s played an ace, so it may play one more card, even in your turn.")
OUTCOMES = {
    # Translators: 29: a pile of the pupil's reached exactly 29 (%(pile)s is 1-3).
    ("won", "yours"): N_("Exactly 29: your pile %(pile)s is won!"),
    # Translators: 29: %(name)s is a computer player's name; its pile reached exactly 29.
    ("won", "theirs"): N_("Exactly 29: %(name)s wins its pile %(pile)s."),
    ("over", "yours"): N_(
        "Over 29! Unless it comes back to 29 or less, your pile %(pile)s is thrown away at the end of the turn."
    ),
    # Translators: 29: %(name)s is a computer player's name.
    ("over", "theirs"): N_(
        "Over 29! Unless it comes back to 29 or less, %(name)s's pile %(pile)s is thrown away at the end of the turn."
    ),
}
BUSTS = {
    # Translators: 29: at the end of a turn a pile of the pupil's was over 29; %(value)s is what it was worth.
    "yours": NP_(
        "Your pile %(pile)s was worth %(value)s, over 29, so it was thrown away: %(num)s card.",
        "Your pile %(pile)s was worth %(value)s, over 29, so it was thrown away: %(num)s cards.",
    ),
    # Translators: 29: %(name)s is a computer player's name; its pile was over 29 at the end of a turn.
    "theirs": NP_(
        "%(name)s's pile %(pile)s was worth %(value)s, over 29, so it was thrown away: %(num)s card.",
        "%(name)s's pile %(pile)s was worth %(value)s, over 29, so it was thrown away: %(num)s cards.",
    ),
}
# Translators: 29: %(name)s is a computer player's name.
THEY_PASSED = N_("%(name)s played nothing and drew one more card.")
YOU_PASSED = N_("You play nothing this turn and draw one more card.")
YOUR_TURN_ENDED = N_("You have nothing more to play, so your turn is over.")
# Translators: two whole sentences of the story one after the other (the first tells a card played, the second
# what it did); keep them as they are, in this order.
TWO_SENTENCES = N_("%(first)s %(second)s")

# --- choices the rules refuse -----------------------------------------------------------------------------------
REFUSED = {
    "not_your_pile": N_("Number cards go only on your own piles."),
    # Translators: 29: the pupil tried to put a Jack on a computer player's pile.
    "jack_not_your_pile": N_("A Jack goes only on one of your own piles: it protects that pile."),
    # Translators: 29: %(name)s is the computer player whose Jack protects the pile.
    "protected": N_("%(name)s put a Jack on that pile: you may not put a King or a Queen on its cards."),
    # Translators: 29: %(calc)s is a subtraction that ends below 0, such as "5 − 8 = −3".
    "below_zero": N_("%(calc)s: that is below 0, and a pile can never be worth less than 0."),
    "joker_to_bench": N_("The Joker is not a face card, so it cannot wait on the bench. It takes a card off a pile."),
    "pile_won": N_("That pile is won: it lies face down, and no card may touch it."),
    "played_already": N_("You have played your card this turn. One more card needs an ace with it."),
    "ace_alone": N_("An ace is never played alone: pick the card it carries too."),
    # Translators: 29: a reaction window: it is a computer player's (%(name)s's) turn, not the pupil's.
    "needs_an_ace": N_("It is %(name)s's turn: you may only answer with an ace and one more card."),
    "ace_carries_ace": N_("An ace carries one card that is not an ace."),
    "face_needs_a_number_card": N_("A King or a Queen goes on a number card."),
    "number_to_bench": N_("Only face cards wait on the bench."),
}
NOT_ALLOWED = N_("That move is not allowed now. Choose again.")

# --- the questions at the start of a turn -----------------------------------------------------------------------
#: The smallest pile each question is asked about: how many points it needs, which card makes it 29 (a card
#: can), what it is worth after a card; and the smallest value after a play that asks whether it is over 29.
MISSING_FROM, WHICH_FROM, WORTH_FROM, BUST_FROM = 10, 19, 1, 20


def drill_pile(pile: dict) -> list:
    """A pile as the drill questions take it: number card ids with the face cards on them."""
    return [(entry["card"], [face["card"] for face in entry["faces"]]) for entry in pile["cards"]]


def what(card_id: int) -> str:
    """A card's part in the story: "number", "king", "queen", "jack" or "joker"."""
    if is_joker(card_id):
        return "joker"
    return {KING: "king", QUEEN: "queen", JACK: "jack"}.get(rank(card_id), "number")


def change_sum(change: Effect) -> dict:
    """The change to a pile as a calculation: "20 + 7 = 27", "37 − 8 = 29"."""
    difference = change.after - change.before
    return formula(change.before, "+" if difference >= 0 else "-", abs(difference), "=", change.after)


class TwentyNineLesson(Lesson):
    """29: pick a card and a place; every sum told; the ace up the sleeve as a window after the computer's plays."""

    game_id = "twenty-nine"
    picks_cards = True
    places_cards = True

    def cards(self):
        return STANDARD_CARDS

    def name(self, player: int, pupil: int) -> Text:
        return self.seat_name(player, pupil, 2)

    # --- the table ------------------------------------------------------------------------------------------------
    def scoreboard(self, game_state, pupil: int) -> list[Text]:
        lines = [progress_line(0, game_state.turns, (), TURN)]
        for player in (pupil, 1 - pupil):
            lines.append(Text.count(PILES_WON, game_state.won_piles(player), side=self.name(player, pupil)))
        return lines

    def pile_row(self, game_state, owner: int, index: int, pupil: int) -> Row:
        pile = game_state.piles[owner][index]
        name = Text.in_context(PILE, n=index + 1)
        if pile["won"]:
            return Row(name, [None] * pile["won"], Text.count(CARDS_NOTE, pile["won"]), Text.in_context(WON_MARK))
        value = pile_value(pile)
        tucked = {
            entry["card"]: [
                Tucked(
                    face["card"],
                    "you" if face["by"] == pupil else "them",
                    Text(PLAYED_BY_YOU)
                    if face["by"] == pupil
                    else Text(PLAYED_BY, {"name": computer_name(face["by"])}),
                )
                for face in entry["faces"]
            ]
            for entry in pile["cards"]
            if entry["faces"]
        }
        note = Text(WORTH_PROTECTED if pile["jacks"] else WORTH, {"value": value})
        cards = list(pile["jacks"]) + [entry["card"] for entry in pile["cards"]]
        return Row(name, cards, note, badge=value, tucked=tucked)

    def table(self, game_state, pupil: int) -> list[Zone]:
        other = 1 - pupil
        theirs = [
            Row(
                Text.in_context(HAND_ROW),
                [None] * len(game_state.hands[other]),
                Text.count(CARDS_NOTE, len(game_state.hands[other])),
            ),
            Row(Text.in_context(BENCH_ROW), list(game_state.benches[other])),
            *(self.pile_row(game_state, other, index, pupil) for index in range(3)),
        ]
        yours = [
            *(self.pile_row(game_state, pupil, index, pupil) for index in range(3)),
            Row(Text.in_context(BENCH_ROW), list(game_state.benches[pupil])),
        ]
        draw = [
            Row(
                Text.in_context(DRAW_PILE),
                [None] if game_state.draw_pile else [],
                Text.count(CARDS_NOTE, len(game_state.draw_pile)),
            )
        ]
        return [
            Zone(computer_name(other), theirs, key="their-piles"),
            Zone(Text.in_context(YOU), yours, key="your-piles"),
            Zone(Text.in_context(DRAW_PILE), draw, key="draw-pile"),
        ]

    # --- the pupil's choices ----------------------------------------------------------------------------------------
    def choices(self, game_state, pupil: int) -> list[Choice]:
        """Every legal play, as a card of the hand (the page offers it as a card picked and a place), then the
        buttons: draw a card instead, end the turn, let it go."""
        legal = game_state.legal_moves()
        plays = [
            replace(self.place_choice(game_state, pupil, move), place=HAND)
            for move in legal
            if move.kind not in ACTIONS
        ]
        return plays + [Choice(move_token(move), Text(ACTIONS[move.kind])) for move in legal if move.kind in ACTIONS]

    def hand_choice(self, game_state, pupil: int, card_id: int) -> Choice:
        return Choice(move_token(Move(PLAY, pupil, (card_id,))), Text(N_("Play this card")), [card_id], HAND)

    def pickable(self, game_state, pupil: int) -> list[int]:
        """The hand by rank (number cards first, then Jacks, Queens, Kings, aces, jokers), and in one's own turn
        the bench."""
        bench = game_state.benches[pupil] if game_state.phase == "play" else []
        return sorted(game_state.hands[pupil], key=lambda c: (rank(c), c)) + list(bench)

    def pick_where(self, game_state, pupil: int, card_id: int) -> Text | None:
        return Text(ON_YOUR_BENCH) if card_id in game_state.benches[pupil] else None

    def playable(self, game_state, pupil: int) -> set[int]:
        return {c for move in game_state.legal_moves() if move.kind in (PLAY, ACE_PLAY, FROM_BENCH) for c in move.cards}

    def picked_play(self, game_state, pupil: int, picked: list[int]) -> tuple[str, tuple] | None:
        """The kind of move the picked cards make and its cards, or None when they make none."""
        aces = [c for c in picked if is_ace(c)]
        others = [c for c in picked if not is_ace(c)]
        if len(others) != 1 or len(aces) > 1:
            return None
        if aces:
            return (ACE_PLAY, (aces[0], others[0])) if others[0] in game_state.hands[pupil] else None
        return (FROM_BENCH if others[0] in game_state.benches[pupil] else PLAY), (others[0],)

    def picked_note(self, game_state, pupil: int, picked: list[int]) -> Text | None:
        play = self.picked_play(game_state, pupil, picked)
        if play is None:
            return Text(
                PICKED["ace_alone" if picked and all(is_ace(c) for c in picked) and len(picked) == 1 else "too_many"]
            )
        return Text(PICKED["ace" if play[0] == ACE_PLAY else "one"], {"card": card(play[1][-1]).corner})

    def places(self, game_state, pupil: int, picked: list[int]) -> list[Choice]:
        """Every place on the table the picked card could go: the piles not won, their number cards (a King or
        Queen), every card on them (a Joker), the bench (a face card or Joker from the hand)."""
        play = self.picked_play(game_state, pupil, picked)
        if play is None:
            return []
        kind, cards = play
        card_id = cards[-1]
        order = [pupil, 1 - pupil]
        open_piles = [
            (owner, index) for owner in order for index in range(3) if not game_state.piles[owner][index]["won"]
        ]
        places = []
        if is_number(card_id) or rank(card_id) == JACK:
            places = [pile_place(owner, index) for owner, index in open_piles]
        elif is_joker(card_id):
            places = [
                take_place(c)
                for owner, index in open_piles
                for c in game_state.piles[owner][index]["jacks"]
                + [
                    c
                    for e in game_state.piles[owner][index]["cards"]
                    for c in [e["card"], *(f["card"] for f in e["faces"])]
                ]
            ]
        else:
            places = [
                on_place(e["card"]) for owner, index in open_piles for e in game_state.piles[owner][index]["cards"]
            ]
        if (is_face(card_id) or is_joker(card_id)) and kind != FROM_BENCH:
            places.append(BENCH)
        return [self.place_choice(game_state, pupil, Move(kind, pupil, cards, place)) for place in places]

    def place_choice(self, game_state, pupil: int, move: Move) -> Choice:
        place = parse_place(move.detail)
        if place[0] == BENCH:
            return Choice(move_token(move), Text(PLACE_LABELS["bench"]))
        if place[0] == "pile":
            owner, index = place[1], place[2]
            fields = {"pile": index + 1, "value": pile_value(game_state.piles[owner][index])}
            if owner == pupil:
                return Choice(move_token(move), Text(PLACE_LABELS["your_pile"], fields))
            return Choice(move_token(move), Text(PLACE_LABELS["their_pile"], {**fields, "name": computer_name(owner)}))
        spot = locate(game_state.piles, place[1])
        fields = {"pile": spot.pile + 1}
        if spot.owner != pupil:
            fields["name"] = computer_name(spot.owner)
        if place[0] == "on":
            key = "your_card" if spot.owner == pupil else "their_card"
            return Choice(move_token(move), Text(PLACE_LABELS[key], {**fields, "card": rank(place[1])}), [place[1]])
        key = "take_yours" if spot.owner == pupil else "take_theirs"
        return Choice(move_token(move), Text(PLACE_LABELS[key], {**fields, "card": card(place[1]).corner}), [place[1]])

    def decision_prompt(self, game_state, pupil: int) -> Text:
        return Text(N_("Which card do you play, and where?"))

    # --- judging a choice -----------------------------------------------------------------------------------------
    def judge(self, game_state, pupil: int, move: Move) -> Judged | None:
        """A play told with its sum; a pile made 29, pushed over 29 or below 0 counts for its skill (module doc)."""
        if game_state.is_over or game_state.current_player != pupil:
            return super().judge(game_state, pupil, move)
        if move.kind == PASS and game_state.is_legal(move):
            return Judged(True, Text(YOU_PASSED))
        if move.kind in (END, LET_GO) and game_state.is_legal(move):
            return None
        reason = game_state.refusal(move)
        if reason is not None:
            return self.refused(game_state, pupil, move, reason)
        return self.told(game_state, pupil, move)

    def refused(self, game_state, pupil: int, move: Move, reason: str) -> Judged:
        if reason == "below_zero":
            change = effect_of(game_state.piles, pupil, move.cards[-1], parse_place(move.detail))
            return Judged(False, Text(REFUSED[reason], {"calc": change_sum(change)}), "add_sub", "below_zero")
        if reason == "protected":
            owner = locate(game_state.piles, parse_place(move.detail)[1]).owner
            return Judged(False, Text(REFUSED[reason], {"name": computer_name(owner)}))
        if reason == "needs_an_ace":
            return Judged(False, Text(REFUSED[reason], {"name": computer_name(game_state.turn)}))
        return Judged(False, Text(REFUSED.get(reason, NOT_ALLOWED)))

    def told(self, game_state, pupil: int, move: Move) -> Judged:
        """A legal play, told as the story tells it; its outcome counts for a skill when it shows one."""
        card_id = move.cards[-1]
        place = parse_place(move.detail)
        if place[0] == BENCH:
            return Judged(True, Text(PLAYED[("you", what(card_id), "bench")]))
        change = effect_of(game_state.piles, pupil, card_id, place)
        taken = place[1] if place[0] == "take" else None
        said = self.play_line("you", pupil, card_id, change, taken, game_state, pupil)
        outcome = self.outcome_line(change, pupil)
        if outcome is not None:
            said = Text(TWO_SENTENCES, {"first": said, "second": outcome})
        mine = change.owner == pupil
        if change.after == GOAL:
            return Judged(mine, said, "missing_addend", "make_29")
        if change.after > GOAL >= change.before and mine:
            return Judged(False, said, "compare", "over_29")
        return Judged(True, said)

    def play_line(self, who: str, player: int, card_id: int, change: Effect, taken, game_state, pupil: int) -> Text:
        """One play told with its sum: who played what on whose pile."""
        kind = what(card_id)
        if kind == "joker" and taken is not None and rank(taken) == JACK:
            kind = "jack_taken"
        whose = "own" if change.owner == player else "other"
        fields = {"pile": change.pile + 1, "calc": change_sum(change)}
        if who == "they" or whose == "other" or kind == "jack":
            fields["name"] = computer_name(player if who == "they" else change.owner if whose == "other" else 1 - pupil)
        if kind in ("number", "king", "queen"):
            fields["card"] = rank(change.target) if kind != "number" else rank(card_id)
        elif kind == "joker":
            fields["card"] = card(taken).corner
        return Text(PLAYED[(who, kind, whose)], fields)

    def outcome_line(self, change: Effect, pupil: int) -> Text | None:
        """A pile made exactly 29 (won) or pushed over 29 (thrown away at the end of the turn)."""
        whose = "yours" if change.owner == pupil else "theirs"
        fields = {"pile": change.pile + 1}
        if whose == "theirs":
            fields["name"] = computer_name(change.owner)
        if change.after == GOAL:
            return Text(OUTCOMES[("won", whose)], fields)
        if change.after > GOAL >= change.before:
            return Text(OUTCOMES[("over", whose)], fields)
        return None

    # --- the story --------------------------------------------------------------------------------------------------
    def turn_narration(self, game_state, pupil: int) -> Text:
        if game_state.phase == "react":
            return self.narration("your_window", name=computer_name(game_state.turn))
        over = [index for index, value in enumerate(game_state.values()[pupil]) if value is not None and value > GOAL]
        if over:
            value = game_state.values()[pupil][over[0]]
            return self.narration("your_pile_over", pile=over[0] + 1, value=value)
        if game_state.acted:
            return self.narration("play_more")
        drawn = next(
            (e.get("card") for e in reversed(game_state.events) if e["kind"] == "draw" and e["player"] == pupil), None
        )
        if drawn is None:
            return self.narration("your_turn")
        return self.narration("your_turn_drew", card=card(drawn).corner)

    def round_story(self, game_state, pupil: int, recent: list[Move]) -> list[Text]:
        """The computer's plays since the pupil's last move, and what the end of a turn threw away."""
        mine = game_state.plies - len(recent) - 1  # the pupil's own last move: its play is told by the judge
        story = []
        for event in game_state.events:
            if event["ply"] < mine or event["ply"] == mine and event["kind"] not in ("bust", "end"):
                continue
            story += self.event_lines(event, game_state, pupil)
        return story

    def event_lines(self, event: dict, game_state, pupil: int) -> list[Text]:
        kind = event["kind"]
        if kind == "bust":
            whose = "yours" if event["owner"] == pupil else "theirs"
            fields = {"pile": event["pile"] + 1, "value": event["value"]}
            if whose == "theirs":
                fields["name"] = computer_name(event["owner"])
            return [Text.count(BUSTS[whose], event["cards"], **fields)]
        if kind == "end":
            return [Text(YOUR_TURN_ENDED)] if event["player"] == pupil and event.get("by_itself") else []
        if kind == "pass":
            return [Text(THEY_PASSED, {"name": computer_name(event["player"])})] if event["player"] != pupil else []
        if kind not in (PLAY, ACE_PLAY, FROM_BENCH) or event["player"] == pupil:
            return []
        player = event["player"]
        lines = [Text(ACE_USED, {"name": computer_name(player)})] if event["ace"] is not None else []
        if event["place"] == BENCH:
            return [*lines, Text(PLAYED[("they", what(event["card"]), "bench")], {"name": computer_name(player)})]
        change = Effect(event["owner"], event["pile"], event["before"], event["after"], event["target"])
        lines.append(
            self.play_line(
                "they", player, event["card"], change, event["target"] if event["taken"] else None, game_state, pupil
            )
        )
        outcome = self.outcome_line(change, pupil)
        return lines + ([outcome] if outcome is not None else [])

    def round_number(self, game_state) -> int:
        return game_state.turns

    def finish_story(self, game_state, pupil: int) -> list[Text]:
        other = 1 - pupil
        mine, theirs = game_state.won_piles(pupil), game_state.won_piles(other)
        lines = [self.narration("piles_won", mine=mine, theirs=theirs, name=computer_name(other))]
        if game_state.ended_by == "draw_pile" and mine == theirs:
            lines.append(
                self.narration(
                    "open_sums",
                    mine=game_state.open_sum(pupil),
                    theirs=game_state.open_sum(other),
                    name=computer_name(other),
                )
            )
        return super().finish_story(game_state, pupil)[:1] + lines + super().finish_story(game_state, pupil)[1:]

    # --- drill points -----------------------------------------------------------------------------------------------
    def before_move(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        """At the start of the pupil's turn, one question about a pile of theirs and the cards in their hand.

        How many points a pile of 10 or more still needs; which card makes a pile of 19 or more
        exactly 29; what a pile with cards is worth after a card of the hand; and whether a
        play brings a pile to 20 or more under, exactly or over 29. Of the kinds the position
        offers, the one whose forecast success for the pupil is nearest their target is asked
        (:func:`tutor.drills.choose_question`); among kinds forecast alike the one drawn first,
        so that each comes up whatever the position offers most of.
        """
        if game_state.phase != "play" or game_state.turn != pupil or game_state.acted:
            return []
        hand = game_state.hands[pupil]
        useful = [c for c in hand if is_number(c) or rank(c) in (KING, QUEEN)]
        asks: dict[str, list] = {}
        for pile in game_state.piles[pupil]:
            value = pile_value(pile)
            if pile["won"]:
                continue
            cards = drill_pile(pile)
            if MISSING_FROM <= value:
                asks.setdefault("missing", []).append((cards,))
            if WHICH_FROM <= value and useful:
                asks.setdefault("which", []).append((cards, useful[:6]))
            plays = [(c, rank(c)) for c in hand if is_number(c)] + [
                ((face, number), rank(number) if rank(face) == KING else -rank(number))
                for face in hand
                if rank(face) in (KING, QUEEN)
                for number, _ in cards
            ]
            for play, change in plays:
                if WORTH_FROM <= value and value + change >= 0:
                    asks.setdefault("worth", []).append((cards, play))
                if value + change >= BUST_FROM:
                    asks.setdefault("bust", []).append((cards, play))
        if not asks:
            return []
        drawn = rng.choice(sorted(asks))
        offers = [self.offer(kind, rng.choice(asks[kind])) for kind in [drawn, *sorted(set(asks) - {drawn})]]
        return [question for question in [choose_question(levels, offers)] if question is not None]

    @staticmethod
    def offer(kind: str, args: tuple) -> Offer:
        """The question of one of the four kinds about ``args`` (a pile, with a card or a play), at any level."""
        if kind == "missing":
            return Offer(
                "missing_addend", "twentynine_missing_value", lambda level: twentynine_missing_value(*args, level)
            )
        if kind == "which":
            return Offer("missing_addend", "twentynine_which_card", lambda level: twentynine_which_card(*args, level))
        if kind == "worth":
            played = f"twentynine_{twentynine_play(*args)[2]}_played"
            return Offer("add_sub", played, lambda level: twentynine_pile_value(*args, level))
        return Offer("compare", "twentynine_bust", lambda level: twentynine_bust(*args, level))
