"""What a game's lesson provides: intro steps on the real deal, drill points, and the table.

A lesson describes the table in plain data (:class:`Zone`, :class:`Row`) and the pupil's
possible moves as :class:`Choice` objects with a stable token, so one page template
shows every game and the web layer never needs to know a game's rules.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import ClassVar

from tutor import content
from tutor.deck import kids2
from tutor.drills import Question
from tutor.engine import Move
from tutor.text import N_, NC_, Text, plural_forms

#: The pupil's own seat, as a label on the table and the scoreboard ("You: 12 cards"), never in a sentence.
# Translators: the pupil's seat at the table, shown as a label beside cards and counts ("You: 12 cards").
YOU = NC_("seat at the table", "You")
#: Marks that pick out a row of the table. Each is a whole phrase that never depends on the
#: name beside it ("You", "Computer 2"), so no verb or pronoun agrees with the name.
# The scoreboard's count of rounds (War-like games) or turns (shedding games, Fraction Master).
# Translators: the scoreboard's line with the round being played, out of the rounds the game lasts.
ROUND_OF = NC_("scoreboard", "Round %(n)s of %(total)s")
# Translators: the scoreboard's line with the round being played (the game has no round limit).
ROUND = NC_("scoreboard", "Round %(n)s")
# Translators: the scoreboard's line with the turn being played, out of the turns the game lasts.
TURN_OF = NC_("scoreboard", "Turn %(n)s of %(total)s")
# Translators: the scoreboard's line with the turn being played.
TURN = NC_("scoreboard", "Turn %(n)s")
# Translators: a mark beside a player's name on the cards of the round just played ("You · winner of this round",
# "Computer 2 · winner of this round"); use a phrase that fits any name, with no verb and no gender (the pupil may be a
# girl or a boy).
WINNER_MARK = NC_("mark beside a seat", "winner of this round")
# Translators: a mark beside the name of the player whose turn comes next ("Computer 2 · next to play"); use a phrase
# that fits any name, with no verb and no gender.
NEXT_MARK = NC_("mark beside a seat", "next to play")

#: Where a choice is shown: as a card in the hand, or as a button among the actions.
HAND, ACTION = "hand", "action"


@dataclass(frozen=True)
class Tucked:
    """A card tucked under another card on the table (29's King or Queen under the number card it changes).

    It sticks out towards whoever played it: ``towards`` is "you" (down, to the pupil's side
    of the screen) or "them" (up); ``by`` names the player for screen readers.
    """

    card: int
    towards: str
    by: Text


@dataclass
class Row:
    """One line of a zone on the table: whose it is, a note, and its cards (None = face down).

    ``mark`` picks the row out and says why (:data:`WINNER_MARK`, :data:`NEXT_MARK`): the
    phrase is shown with the frame, so a highlighted row never needs a colour to be
    understood. The name, the note and the mark are shown side by side, so each must be a
    whole phrase on its own: a note or mark never agrees with the name ("You" or "Computer 2").
    ``badge`` is a short number drawn large beside the cards (a 29 pile's value, to be seen at
    a glance; the note says it in words for screen readers), and ``tucked`` the cards lying
    under some of the row's cards, by the id of the card they lie under.
    """

    name: Text
    cards: list = field(default_factory=list)
    note: Text | None = None
    mark: Text | None = None
    badge: int | str | None = None
    tucked: dict[int, list[Tucked]] = field(default_factory=dict)

    @property
    def highlight(self) -> bool:
        return self.mark is not None


@dataclass
class Zone:
    """A part of the table with a heading, such as "On the table" or "Last round".

    ``details`` are lines shown only on request, under a button ``details_title`` (Three Traits:
    the attributes of the row's cards), so that what the pupil works out is not shown first.
    """

    title: Text
    rows: list[Row]
    key: str = ""
    details: list[Text] = field(default_factory=list)
    details_title: Text | None = None


@dataclass
class RoundShown:
    """What the page shows of a round: the scoreboard's lines and the table's zones.

    A lesson's :meth:`Lesson.decided_round` gives only the scoreboard's first line, the
    round's own ("Round 3 of 10" while a question asks about round 3); the other lines are
    the position's.
    """

    scoreboard: list[Text]
    zones: list[Zone]


@dataclass
class Choice:
    """One move the pupil may make now: its token for the form, what to read, which cards."""

    token: str
    label: Text
    cards: list[int] = field(default_factory=list)
    place: str = ACTION


@dataclass
class Judged:
    """What one of the pupil's choices showed, judged before it is made.

    ``correct`` False: the rules refuse it; nothing is played and the pupil chooses again.
    ``told`` says why in one sentence with its numbers ("3 + 6 = 9, not 10: ..."), or, for a
    right choice, what it did ("3 + 7 = 10: tens-friends!"). With a ``skill`` the choice is
    stored as an answer for that skill and feeds the skill model like a drill answer; a rule
    slip that is not maths (a wrong colour) has none. ``kind`` names the decision for reports.
    """

    correct: bool
    told: Text
    skill: str | None = None
    kind: str = "move"

    def to_dict(self) -> dict:
        return {"correct": self.correct, "told": self.told.to_dict(), "skill": self.skill, "kind": self.kind}

    @classmethod
    def from_dict(cls, data: dict) -> Judged:
        return cls(data["correct"], Text.from_dict(data["told"]), data.get("skill"), data.get("kind", "move"))


class MoveRefused(ValueError):
    """A typed move the rules refuse, with a translatable message for the pupil (nothing is lost)."""

    def __init__(self, msgid: str, params: dict | None = None) -> None:
        super().__init__(msgid)
        self.msgid, self.params = msgid, dict(params or {})

    @property
    def text(self) -> Text:
        return Text(self.msgid, self.params)


def progress_line(limit: int, done: int, of_total: tuple[str, str], alone: tuple[str, str]) -> Text:
    """The scoreboard's "Round 3 of 10" (or "Round 3" without a limit) after ``done`` rounds or turns."""
    if limit:
        return Text.in_context(of_total, n=min(done + 1, limit), total=limit)
    return Text.in_context(alone, n=done + 1)


def computer_name(player: int) -> Text:
    # Translators: a computer player's name; %(n)s is the number of its seat at the table.
    return Text(N_("Computer %(n)s"), {"n": player})


def and_list(items: list) -> Text | str | int:
    """Two to four things as one listing, "176 and 201", "176, 201 and 150" (one thing: itself)."""
    items = list(items)
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        # Translators: two things listed, inside another sentence: players' names ("Computer 1 and Computer 3"), numbers
        # or fractions.
        return Text(N_("%(first)s and %(second)s"), {"first": items[0], "second": items[1]})
    if len(items) == 3:
        return Text(
            # Translators: three things listed, inside another sentence: players' names, numbers or fractions.
            N_("%(first)s, %(second)s and %(third)s"),
            {"first": items[0], "second": items[1], "third": items[2]},
        )
    return Text(
        # Translators: four things listed, inside another sentence: players' names, numbers or fractions.
        N_("%(first)s, %(second)s, %(third)s and %(fourth)s"),
        {"first": items[0], "second": items[1], "third": items[2], "fourth": and_list(items[3:])},
    )


class Lesson:
    """A game's lesson: its content file, lesson defaults and drill points."""

    game_id: ClassVar[str]
    #: Game options a lesson uses unless the pupil or teacher chooses others (a lesson must end).
    lesson_options: ClassVar[dict] = {}
    #: With four players, seats 0+2 and 1+3 play as teams.
    teams_of_four: ClassVar[bool] = False
    #: The pupil types the move (an expression) instead of choosing it from buttons.
    typed_move: ClassVar[bool] = False
    #: The pupil builds a move by picking cards, then confirms (a pair, a fraction): no list of combinations.
    picks_cards: ClassVar[bool] = False
    #: The picked cards go to a place the pupil chooses (29's piles and cards), listed by :meth:`places`.
    places_cards: ClassVar[bool] = False
    #: The pace of drill questions: how many per turn of the pupil (see LessonRun's pacing); with a question
    #: offered at (nearly) every drill point, 6 to 12 in a lesson of 10 rounds (bench/pace.py measures it).
    questions_per_turn: ClassVar[float] = 3 / 4
    #: Fractions written a/b in the lesson's texts are drawn stacked, numerator over denominator.
    stacks_fractions: ClassVar[bool] = False

    #: A content file of narration and computer players shared by a family of games.
    common_content: ClassVar[str] = ""
    #: The player counts the start page and the homework form offer (None: every count the game takes).
    offered_players: ClassVar[range | None] = None

    def player_choices(self, game) -> range:
        """The player counts a pupil or teacher may choose for this lesson."""
        return self.offered_players or range(game.min_players, game.max_players + 1)

    def content(self) -> dict:
        own = content.load(f"games/{self.game_id}")
        if not self.common_content:
            return own
        common = content.load(f"games/{self.common_content}")
        return {**common, **own, "narration": {**common.get("narration", {}), **own.get("narration", {})}}

    def cards(self):
        """The game's cards as pages look them up (``cards[id]``, ``cards.colours``): Kids2 unless overridden."""
        return kids2()

    def intro_steps(self) -> list[dict]:
        return self.content()["intro"]

    def intro_text(self, step: int, game_state, pupil: int) -> Text:
        """A step of the intro; a step that counts the rounds or turns has its own text when there is no limit."""
        entry = self.intro_steps()[step]
        params = self.intro_params(game_state, pupil)
        forms = plural_forms(entry["text"])
        if forms and not params[forms[2]] and "text_without_limit" in entry:
            return Text(entry["text_without_limit"], params)
        return Text.from_content(entry["text"], params)

    def narration(self, key: str, **params) -> Text:
        return Text.from_content(self.content()["narration"][key], params)

    def intro_params(self, game_state, pupil: int) -> dict:
        return {}

    # --- drill points ---------------------------------------------------------------------
    def before_move(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        """Questions to ask when the pupil is about to move."""
        return []

    def after_round(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        """Questions to ask about the round that has just been decided (the runner marks them ``about_round``)."""
        return []

    def decided_round(self, game_state, pupil: int, round_number: int) -> RoundShown | None:
        """Round ``round_number`` as it lay when it was decided, before the next round was dealt: shown while a
        question asks about it. None: the table as it is shows that round already."""
        return None

    def shown_while_asking(self, game_state, pupil: int, question: Question | None) -> RoundShown:
        """The scoreboard and the table while ``question`` is open (or none): a question about a decided round
        shows that round, any other the position now."""
        about = question.about_round if question else 0
        shown = self.decided_round(game_state, pupil, about) if about else None
        if shown is not None:
            return RoundShown([shown.scoreboard[0], *self.scoreboard(game_state, pupil)[1:]], shown.zones)
        return RoundShown(self.scoreboard(game_state, pupil), self.table(game_state, pupil))

    # --- what the pupil sees ---------------------------------------------------------------
    def is_partner(self, player: int, pupil: int, players: int) -> bool:
        return self.teams_of_four and players == 4 and player == (pupil + 2) % 4

    def seat_name(self, player: int, pupil: int, players: int) -> Text:
        if player == pupil:
            return Text.in_context(YOU)
        if self.is_partner(player, pupil, players):
            # Translators: the name of the computer player who plays in the pupil's team; %(n)s is the number of its
            # seat.
            return Text(N_("Computer %(n)s (your partner)"), {"n": player})
        return computer_name(player)

    def scoreboard(self, game_state, pupil: int) -> list[Text]:
        """Short lines about the score: round, cards per player or team."""
        return []

    def table(self, game_state, pupil: int) -> list[Zone]:
        """The zones of the table as the pupil may see them."""
        return []

    # --- the pupil's choices -----------------------------------------------------------------
    def hand_choice(self, game_state, pupil: int, card_id: int) -> Choice:
        """Choosing this card of the hand, legal or not: the rules judge it when it is chosen."""
        return Choice(move_token(Move("play", pupil, (card_id,))), Text(N_("Play this card")), [card_id], HAND)

    def judge(self, game_state, pupil: int, move: Move) -> Judged | None:
        """Judge a choice before it is made (see :class:`Judged`); None: nothing to say or record.

        The default refuses any move the rules refuse, without a skill. Lessons say why with
        the numbers, and name the skill a choice shows.
        """
        if game_state.is_legal(move):
            return None
        return Judged(False, Text(N_("That move is not allowed now. Choose again.")))

    def move_from_picks(self, game_state, pupil: int, picked: list[int]) -> Move | None:
        """The move the picked cards make, for lessons with ``picks_cards`` (None: not a move)."""
        return None

    def pickable(self, game_state, pupil: int) -> list[int]:
        """The cards the pupil picks from now, in the order shown: the hand (or Fraction Master's interval cards)."""
        return sorted(game_state.player_view(pupil).get("hand", []))

    def picked_note(self, game_state, pupil: int, picked: list[int]) -> Text | None:
        """What the picked cards make so far, shown beside them ("Your fraction: 4/9"); None: nothing to say."""
        return None

    def pick_where(self, game_state, pupil: int, card_id: int) -> Text | None:
        """Where a card the pupil may pick lies when it is not in the hand ("on your bench"), shown under it."""
        return None

    def places(self, game_state, pupil: int, picked: list[int]) -> list[Choice]:
        """Where the picked cards may go, for lessons with ``places_cards`` (29: a pile, a card, the bench).

        Each place is a move the rules judge when it is chosen, as any choice: the places the
        rules refuse may be offered too, so that a wrong place is explained. Empty: the picked
        cards make no move yet (the picked note says what is missing).
        """
        return []

    def playable(self, game_state, pupil: int) -> set[int]:
        """The hand's cards that some legal move plays: shown only when the pupil asks (a hint)."""
        return {card for move in game_state.legal_moves() if move.kind.startswith("play") for card in move.cards}

    def decision_prompt(self, game_state, pupil: int) -> Text:
        """The decision a choice answers, as the teacher reads it in reports and replays."""
        return Text(N_("Which card do you play?"))

    def choices(self, game_state, pupil: int) -> list[Choice]:
        """The pupil's legal moves, each with a label (from the content's ``moves`` table)."""
        labels = self.content().get("moves", {})
        return [
            Choice(
                move_token(move),
                Text(labels.get(move.kind, move.kind), {"detail": move.detail}),
                list(move.cards),
                HAND if move.kind == "play" and len(move.cards) == 1 else ACTION,
            )
            for move in game_state.legal_moves()
        ]

    def turn_narration(self, game_state, pupil: int) -> Text:
        return self.narration("your_turn")

    def round_number(self, game_state) -> int:
        """How many rounds are decided: when it grows, :meth:`after_round` may ask questions."""
        return game_state.rounds

    def round_story(self, game_state, pupil: int, recent: list[Move]) -> list[Text]:
        """What happened since the pupil last moved (``recent``: those moves), for the pupil to read."""
        return []

    def finish_story(self, game_state, pupil: int) -> list[Text]:
        """How the game ended and who won, from the pupil's side of the table."""
        players = game_state.game.players
        story = [self.narration(f"ended_{game_state.ended_by}")] if game_state.ended_by else []
        mates = {pupil} | {p for p in range(players) if self.is_partner(p, pupil, players)}
        ours = [p for p in game_state.winners() if p in mates]
        theirs = [self.seat_name(p, pupil, players) for p in game_state.winners() if p not in mates]
        if ours and theirs:
            story.append(self.narration("finished_draw", others=and_list(theirs)))
        elif ours:
            story.append(self.narration("finished_team" if len(ours) > 1 else "finished_you"))
        elif len(theirs) == 1:
            story.append(self.narration("finished_other", name=theirs[0]))
        else:
            story.append(self.narration("finished_others", names=and_list(theirs)))
        return story

    def move_from_text(self, game_state, pupil: int, text: str, locale: str) -> Move:
        """A typed move (only for lessons with ``typed_move``); raises AnswerError when unreadable."""
        raise NotImplementedError


def move_token(move: Move) -> str:
    """A move as one form value: ``kind:card,card:detail``."""
    return f"{move.kind}:{','.join(map(str, move.cards))}:{move.detail}"


def move_from_token(token: str, player: int) -> Move | None:
    """The move a form value names, or None when it is not a well-formed token."""
    kind, _, rest = str(token)[:200].partition(":")
    cards, _, detail = rest.partition(":")
    try:
        card_ids = tuple(int(c) for c in cards.split(",") if c)
    except ValueError:
        return None
    return Move(kind, player, card_ids, detail) if kind else None
