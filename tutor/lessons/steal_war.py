"""Steal War's lesson: see your next card, and steal a pile with the same rank on top.

The pupil looks at the next card and decides: play it, or steal a pile whose top card
has the same rank (every pile it matches goes along, and a pile the thief had before
stealing the pupil's can be taken back: a swap). A steal with another rank is refused with
both ranks and counts as a wrong ``compare`` answer; a right steal counts as a right one.
Every steal is told with its cards and how many cards it took: the piles of several
players at once, and a swap, the pupil's pile going to the computer player who takes it
back or two computer players swapping (the pupil moves first in every battle, so the pupil
is never the one who takes a pile back).
"""

from __future__ import annotations

from tutor.engine import Move
from tutor.lessons.base import (
    HAND,
    Choice,
    Judged,
    Row,
    Zone,
    and_list,
    move_token,
)
from tutor.lessons.classic_war import ChanceWarLesson
from tutor.lessons.rank_phrases import players_card, the_card, your_card
from tutor.standard_deck import card
from tutor.text import N_, NP_, Text

STEAL_LINES = {
    # Translators: Steal War: %(victim)s is a computer player's name; %(card)s is the pupil's card that matched the top
    # of its pile ("your 7", "your queen").
    "you": NP_(
        "You stole %(victim)s's pile with %(card)s: %(num)s card.",
        "You stole %(victim)s's pile with %(card)s: %(num)s cards.",
    ),
    # Translators: Steal War: %(name)s is a computer player's name; %(card)s is its card that matched the top of the
    # pupil's pile, with its article ("the 7", "the queen").
    "yours": NP_(
        "%(name)s stole your pile with %(card)s: %(num)s card.",
        "%(name)s stole your pile with %(card)s: %(num)s cards.",
    ),
    # Translators: Steal War: %(name)s and %(victim)s are computer players' names; %(card)s is the card that matched,
    # with its article ("the 7").
    "other": NP_(
        "%(name)s stole %(victim)s's pile with %(card)s: %(num)s card.",
        "%(name)s stole %(victim)s's pile with %(card)s: %(num)s cards.",
    ),
}
MULTI_STEAL_LINES = {
    # Translators: Steal War: one card matched the tops of several piles; %(victims)s lists two or more computer
    # players' names ("Computer 1 and Computer 2"); %(card)s is the pupil's card that matched ("your 7").
    "you": NP_(
        "You stole the piles of %(victims)s with %(card)s: %(num)s card.",
        "You stole the piles of %(victims)s with %(card)s: %(num)s cards.",
    ),
    # Translators: Steal War: %(name)s is a computer player's name; its card (%(card)s, with its article: "the 7")
    # matched the top of the pupil's pile and of the piles of %(others)s, one or more other computer players' names.
    "yours": NP_(
        "%(name)s stole your pile with %(card)s, and stole from %(others)s too: %(num)s card in all.",
        "%(name)s stole your pile with %(card)s, and stole from %(others)s too: %(num)s cards in all.",
    ),
    # Translators: Steal War: %(name)s is a computer player's name; %(victims)s lists two or more other computer
    # players' names; %(card)s is the card that matched, with its article ("the 7").
    "other": NP_(
        "%(name)s stole the piles of %(victims)s with %(card)s: %(num)s card.",
        "%(name)s stole the piles of %(victims)s with %(card)s: %(num)s cards.",
    ),
}
#: A swap, told from the side of the one who gives (the pupil sits first in every battle, so a swap is always taken
#: by a computer player: from the pupil, or from another computer player).
SWAP_LINES = {
    # Translators: Steal War's swap: %(name)s is a computer player's name; its card (%(card)s: "Computer 2's 7")
    # matched the top of the pile the pupil had before stealing its pile; %(num)s counts the cards it takes, with the
    # card.
    "yours": NP_(
        "Swap! %(card)s matches the top of the pile you had before: you and %(name)s swap piles, and %(name)s takes "
        "%(num)s card.",
        "Swap! %(card)s matches the top of the pile you had before: you and %(name)s swap piles, and %(name)s takes "
        "%(num)s cards.",
    ),
    # Translators: Steal War's swap: %(name)s and %(victim)s are computer players' names; %(name)s's card (%(card)s:
    # "Computer 2's 7") matched the top of the pile %(victim)s had before stealing from %(name)s.
    "other": NP_(
        "Swap! %(card)s matches the top of the pile %(victim)s had before: %(name)s and %(victim)s swap piles, and "
        "%(name)s takes %(num)s card.",
        "Swap! %(card)s matches the top of the pile %(victim)s had before: %(name)s and %(victim)s swap piles, and "
        "%(name)s takes %(num)s cards.",
    ),
}
PROTECTED = (
    N_("You played a card of the same rank as the top of your own pile: your pile is safe in this battle."),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    N_("%(name)s played a card of the same rank as the top of their own pile: that pile is safe in this battle."),
)
# Translators: Steal War: the pupil tried to steal with a card of another rank. %(mine)s is the pupil's card ("your
# 7"), %(top)s the other card with its article ("the queen"); %(name)s a computer player's name.
STEAL_WRONG_RANK = N_(
    "%(mine)s and %(top)s on top of %(name)s's pile are not the same rank: you can only steal with the same rank."
)
# Translators: Steal War: %(name)s is a computer player's name whose pile is protected this battle.
STEAL_PROTECTED = N_("%(name)s's pile is safe in this battle: they played a card of the same rank as its top.")
# Translators: Steal War: a right steal; %(mine)s is the pupil's card ("your 7"), %(top)s the card of the same rank
# with its article ("the 7"), %(name)s a computer player's name.
STEAL_RIGHT = NP_(
    "%(mine)s matches %(top)s on top of %(name)s's pile: you steal %(num)s card!",
    "%(mine)s matches %(top)s on top of %(name)s's pile: you steal %(num)s cards!",
)
# Translators: Steal War: the pupil's card (%(mine)s: "your 7") matches the tops of several piles; %(names)s lists two
# or more computer players' names.
STEAL_RIGHT_MANY = NP_(
    "%(mine)s matches the top of the piles of %(names)s: you steal them all, %(num)s card!",
    "%(mine)s matches the top of the piles of %(names)s: you steal them all, %(num)s cards!",
)
# Translators: a button in Steal War: %(name)s is a computer player's name; %(num)s counts the cards in its face-up
# pile.
STEAL_BUTTON = NP_("Steal %(name)s's pile (%(num)s card)", "Steal %(name)s's pile (%(num)s cards)")
# Translators: the heading over every player's pile of won cards, face up (Steal War).
FACE_UP_PILES = N_("Face-up piles")
# Translators: a note beside a player's face-up pile in Steal War: how many cards it holds (its top card is shown).
PILE_NOTE = NP_("%(num)s card in the pile", "%(num)s cards in the pile")


class StealWarLesson(ChanceWarLesson):
    """The pupil looks at the next card and decides: play it, or steal a pile with the same rank on top.

    Every opponent's face-up pile is offered to steal, matching or not: a steal with another
    rank is refused with both ranks and counts as a wrong ``compare`` answer; a right steal
    counts as a right one. After a win the pupil chooses the top card among the won cards.
    """

    game_id = "steal-war"

    def table(self, game_state, pupil: int) -> list[Zone]:
        players = game_state.game.players
        rows = [
            Row(
                self.seat_name(p, pupil, players),
                game_state.faceup[p][-1:],
                note=Text.count(PILE_NOTE, len(game_state.faceup[p])) if game_state.faceup[p] else None,
            )
            for p in range(players)
        ]
        return super().table(game_state, pupil) + [Zone(Text(FACE_UP_PILES), rows, key="face-up-piles")]

    def hand_choice(self, game_state, pupil: int, card_id: int) -> Choice:
        return Choice(move_token(Move("turn", pupil)), Text(N_("Play this card")), [card_id], HAND)

    def playable(self, game_state, pupil: int) -> set[int]:
        return set(game_state.hands[pupil])

    def choices(self, game_state, pupil: int) -> list[Choice]:
        players = game_state.game.players
        if game_state.phase == "top":
            return [
                Choice(move_token(move), Text(N_("Put this card on top")), list(move.cards))
                for move in game_state.legal_moves()
            ]
        if game_state.phase != "turn" or not game_state.hands[pupil]:
            return []
        return [self.hand_choice(game_state, pupil, game_state.hands[pupil][0])] + [
            Choice(
                move_token(Move("steal", pupil, (), str(victim))),
                Text.count(STEAL_BUTTON, len(game_state.faceup[victim]), name=self.name(victim, pupil)),
                game_state.faceup[victim][-1:],
            )
            for victim in range(players)
            if victim != pupil and game_state.faceup[victim]
        ]

    def judge(self, game_state, pupil: int, move: Move) -> Judged | None:
        """A steal is judged by the ranks: the same rank steals (right), another cannot (wrong, with both ranks)."""
        if (
            move.kind != "steal"
            or game_state.phase != "turn"
            or game_state.current_player != pupil
            or not game_state.hands[pupil]
        ):
            return super().judge(game_state, pupil, move)
        try:
            victim = int(move.detail)
        except ValueError:
            return super().judge(game_state, pupil, move)
        if victim == pupil or victim not in range(game_state.game.players) or not game_state.faceup[victim]:
            return super().judge(game_state, pupil, move)
        mine, top = game_state.hands[pupil][0], game_state.faceup[victim][-1]
        params = {"mine": your_card(mine), "top": the_card(top), "name": self.name(victim, pupil)}
        parts = game_state.stolen_parts(pupil)
        if victim not in parts:
            if victim in game_state.protected and card(mine).rank == card(top).rank:
                # the pupil moves first in every battle, so only a later seat could meet this
                return Judged(False, Text(STEAL_PROTECTED, {"name": params["name"]}), kind="steal")
            return Judged(False, Text(STEAL_WRONG_RANK, params, sentence=True), "compare", "steal")
        taken = sum(parts.values()) + 1
        if len(parts) > 1:
            names = and_list([self.name(v, pupil) for v in sorted(parts)])
            return Judged(
                True,
                Text.count(STEAL_RIGHT_MANY, taken, mine=params["mine"], names=names).as_sentence(),
                "compare",
                "steal",
            )
        return Judged(True, Text.count(STEAL_RIGHT, taken, **params).as_sentence(), "compare", "steal")

    def decision_prompt(self, game_state, pupil: int) -> Text:
        if game_state.phase == "top":
            return Text(N_("Which won card goes on top of your pile?"))
        return Text(N_("Play your card, or steal a pile?"))

    def turn_narration(self, game_state, pupil: int) -> Text:
        if game_state.phase == "top":
            return self.narration("choose_top")
        return self.narration("look_and_choose", card=card(game_state.hands[pupil][0]).corner)

    def battle_lines(self, game_state, battle: dict, pupil: int) -> list[Text]:
        lines = []
        for player, laid in sorted(battle["laid"].items(), key=lambda item: int(item[0])):
            for steal in laid.get("steals", []):
                lines += self.steal_lines(int(player), steal, pupil)
            if laid.get("note") == "protected":
                lines.append(self.you_or_other(PROTECTED, int(player), pupil))
        return lines + super().battle_lines(game_state, battle, pupil)

    def steal_lines(self, thief: int, steal: dict, pupil: int) -> list[Text]:
        """One steal: the whole piles it took (one, or several at once), then a swap, each with its cards."""
        card_id = steal["card"]
        whole = [pile for pile in steal["piles"] if not pile["swap"]]
        swaps = [pile for pile in steal["piles"] if pile["swap"]]
        lines = []
        if whole:
            count = sum(pile["cards"] for pile in whole) + (0 if swaps else 1)
            lines.append(self.whole_piles_line(thief, [pile["victim"] for pile in whole], card_id, count, pupil))
        thief_name = self.name(thief, pupil)
        for index, pile in enumerate(swaps):  # taken by a computer player (see SWAP_LINES), the card with the last
            count, victim = pile["cards"] + (1 if index == len(swaps) - 1 else 0), pile["victim"]
            thiefs_card = players_card(card_id, thief_name)
            if victim == pupil:
                lines.append(Text.count(SWAP_LINES["yours"], count, name=thief_name, card=thiefs_card))
            else:
                lines.append(
                    Text.count(
                        SWAP_LINES["other"], count, name=thief_name, victim=self.name(victim, pupil), card=thiefs_card
                    )
                )
        return lines

    def whole_piles_line(self, thief: int, victims: list[int], card_id: int, count: int, pupil: int) -> Text:
        """Whole piles stolen with one card: one pile, or several (the pupil's among them or not)."""
        card_name = your_card(card_id) if thief == pupil else the_card(card_id)
        if len(victims) == 1:
            victim = victims[0]
            if thief == pupil:
                return Text.count(STEAL_LINES["you"], count, victim=self.name(victim, pupil), card=card_name)
            if victim == pupil:
                return Text.count(STEAL_LINES["yours"], count, name=self.name(thief, pupil), card=card_name)
            return Text.count(
                STEAL_LINES["other"],
                count,
                name=self.name(thief, pupil),
                victim=self.name(victim, pupil),
                card=card_name,
            )
        names = and_list([self.name(v, pupil) for v in sorted(victims) if v != pupil])
        if thief == pupil:
            return Text.count(MULTI_STEAL_LINES["you"], count, victims=names, card=card_name)
        if pupil in victims:
            return Text.count(
                MULTI_STEAL_LINES["yours"], count, name=self.name(thief, pupil), others=names, card=card_name
            )
        return Text.count(
            MULTI_STEAL_LINES["other"], count, name=self.name(thief, pupil), victims=names, card=card_name
        )

    def round_story(self, game_state, pupil: int, recent: list[Move]) -> list[Text]:
        """As in War; the steals of the battle in progress too (they happen before the cards are compared)."""
        story = super().round_story(game_state, pupil, recent)
        if not game_state.battles and game_state.phase == "turn":
            for player, laid in sorted(game_state.laid.items(), key=lambda item: int(item[0])):
                for steal in laid.get("steals", []):
                    story += self.steal_lines(int(player), steal, pupil)
        return story
