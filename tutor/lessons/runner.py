"""A guided lesson in progress: the rules on a real deal, then play that pauses for drills.

:class:`LessonRun` is plain Python and round-trips through a dict, which the web layer
stores in the database after every step; so a reload, a restart or another app server
carries on exactly where the pupil was. The clock is passed in (``now_ms``), never
read here, so a run is reproducible in tests.

Besides the game (its seed, moves and position) a run has three named parts: the
:class:`Drill` (the question being asked), the :class:`Pace` of questions and the
pupil's :class:`Turn`. The stored dict stays flat, one key per field as runs were
stored before the parts existed (:data:`STORED`), so runs already in a database load.

The runner keeps the pace of questions, whatever a lesson's drill points offer: about
``questions_per_turn`` per turn of the pupil (a lesson setting, default three per four
turns) and never more than one between two of the pupil's moves, except after a wrong
answer. An offered question the pace does not allow is dropped (see :meth:`Pace.allow_question`).

A question with k buttons is evidence only on its first try, so a retry must not be a coin toss:
a choice closes after its first wrong answer unless at least three options are left untried (a
choice of four or more buttons gets a second try), and then shows the right answer with its
worked solution (:func:`tries_allowed`). Nor are two two-option questions of one kind asked in a
row: the second is dropped before it costs the pace anything (:meth:`Drill.repeats_two_options`).

A question offered after a round (``after_round``) is marked with the round it asks about,
so that the page shows that round's cards while it is open (:meth:`Lesson.decided_round`).
"""

from __future__ import annotations

import random
import types
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from typing import NamedTuple, get_args, get_origin, get_type_hints

from tutor.drills import CHOICE, Pitch, Question
from tutor.drills.marking import CARD_CHOICE, RIGHT, UNREADABLE, Attempt, Marked, mark
from tutor.engine import CHANCE, InvalidState, Move, make_game
from tutor.engine.play import bot_rng, make_bots, next_automatic_move
from tutor.lessons import LESSONS
from tutor.lessons.base import Judged, Lesson, move_from_token, move_token
from tutor.text import N_, Text

PUPIL = 0
INTRO, PLAY, FINISHED = "intro", "play", "finished"
#: Credit saved up in quiet turns is capped, so a lesson does not catch up with a run of questions.
PACE_CREDIT_MAX = 1.5
#: Readable tries a question allows at most: a choice two, a typed answer five, so no question can be
#: hammered forever (then the worked solution is shown). A choice gets its second try only if it is a
#: real choice again (:data:`REAL_CHOICE`).
CHOICE_TRIES, TYPED_TRIES = 2, 5
#: The fewest options left untried that make a retry a choice rather than a coin toss.
REAL_CHOICE = 3


def tries_allowed(question: Question) -> int:
    """How many readable answers a question takes before it closes: a choice of two or three buttons one
    (a retry would pick between at most two), of four or more :data:`CHOICE_TRIES`; a typed answer
    :data:`TYPED_TRIES`."""
    if question.answer != CHOICE:
        return TYPED_TRIES
    return max(1, min(CHOICE_TRIES, len(question.choices) - REAL_CHOICE + 1))


def has_two_options(question: dict) -> bool:
    """Whether a stored question is answered by one of two buttons (yes/no, higher/lower, one of two cards)."""
    return question["answer"] == CHOICE and len(question["choices"]) == 2


def _fits(value, hint) -> bool:
    """Whether a stored value has the type its field declares (JSON gives no guarantee; a bool is no count)."""
    if get_origin(hint) is types.UnionType:
        return any(_fits(value, option) for option in get_args(hint))
    if get_origin(hint) is list:
        return isinstance(value, list) and all(_fits(item, get_args(hint)[0]) for item in value)
    if hint is type(None):
        return value is None
    if hint in (int, float):
        return isinstance(value, (int, float) if hint is float else int) and not isinstance(value, bool)
    return isinstance(value, hint)


class LessonError(ValueError):
    """A request that does not fit the lesson's current step (a stale page, a double click)."""


def _stored_as(key: str, default=MISSING, *, default_factory=MISSING):
    """A field of a run's named part, stored under ``key`` in the run's flat dict."""
    return field(default=default, default_factory=default_factory, metadata={"key": key})


@dataclass
class Drill:
    """The question the lesson is asking, and the questions offered with it that wait their turn.

    A question stays open until it is answered right, its tries run out or its solution is
    shown; closed, it stays on the page with its feedback until the pupil goes on.
    """

    question: dict | None = _stored_as("question", None)
    open: bool = _stored_as("question_open", False)  # answers are taken
    queued: list[dict] = _stored_as("queued", default_factory=list)  # offered at the same point, asked next if paced
    #: when it opened or was last answered: an answer's time counts from here
    asked_at_ms: int = _stored_as("asked_at_ms", 0)
    tries: int = _stored_as("tries", 0)  # readable answers given
    hints_shown: int = _stored_as("hints_shown", 0)
    solution_shown: bool = _stored_as("solution_shown", False)
    #: the marking of the last answer (a Marked dict), shown until the next
    marked: dict | None = _stored_as("marked", None)
    #: the kind of the last question asked if it had two options: the next question may not be one like it
    two_option_kind: str = _stored_as("two_option_kind", "")

    def current_question(self) -> Question | None:
        return Question.from_dict(self.question) if self.question else None

    def current_marked(self) -> Marked | None:
        return Marked.from_dict(self.marked) if self.marked else None

    def ask(self, question: dict, now_ms: int) -> None:
        """Open ``question``: no tries, hints or marking yet, and its time counts from now."""
        self.question, self.open, self.tries, self.hints_shown = question, True, 0, 0
        self.solution_shown, self.marked, self.asked_at_ms = False, None, now_ms
        self.two_option_kind = question["kind"] if has_two_options(question) else ""

    def repeats_two_options(self, question: dict) -> bool:
        """Whether ``question`` would be the second two-option question of its kind in a row: a second
        coin toss tells little and bores, so it is not asked."""
        return has_two_options(question) and question["kind"] == self.two_option_kind

    def answer(self, typed: str, locale: str, now_ms: int, move_index: int) -> Attempt:
        """Mark an answer to the open question; an unreadable one costs nothing."""
        question = self.current_question()
        if question is None or not self.open:
            raise LessonError("there is no open question")
        marked = mark(question, typed.strip()[:200], locale)
        self.marked = marked.to_dict()
        readable = marked.status != UNREADABLE
        attempt = Attempt(
            skill=question.skill,
            kind=question.kind,
            question=self.question,
            typed=typed[:200],
            read_as=marked.read_as if question.answer != "choice" else marked.value,
            correct=marked.status == RIGHT,
            readable=readable,
            first_try=readable and self.tries == 0,
            hints_used=self.hints_shown,
            time_ms=max(0, now_ms - self.asked_at_ms),
            choices=len(question.choices),
            move_index=move_index,
            feedback=[text.to_dict() for text in marked.feedback] if readable else [],
            misconception=marked.misconception,
            error_code=marked.error_code,
        )
        if readable:
            self.tries += 1
            self.asked_at_ms = now_ms
        if marked.status == RIGHT:
            self.open = False
        elif readable and self.tries >= tries_allowed(question):
            # closed unsolved: the right answer is shown with its reason, the worked solution
            self.open, self.solution_shown = False, True
        return attempt

    def hint(self) -> Text:
        question = self.current_question()
        if question is None or not self.open:
            raise LessonError("there is no open question")
        self.hints_shown = min(self.hints_shown + 1, len(question.hints))
        return question.hints[self.hints_shown - 1]

    def show_solution(self) -> None:
        if self.question is None:
            raise LessonError("there is no question")
        self.solution_shown, self.open = True, False

    def close(self) -> None:
        if self.question is None:
            raise LessonError("there is no question")
        self.question, self.open, self.marked = None, False, None

    def problems(self) -> list[str]:
        """What is impossible about the stored questions; a record that does not read back raises."""
        for queued in self.queued:
            Question.from_dict(queued)
        question = self.current_question()
        self.current_marked()
        if question and self.hints_shown > len(question.hints):
            return ["more hints shown than the question has"]
        return []


@dataclass
class Pace:
    """How many questions the lesson may ask now, whatever its drill points offer.

    Each turn of the pupil earns the lesson's ``questions_per_turn`` of credit and a question
    costs a whole one; between two of the pupil's moves (a gap) at most one question opens,
    and one more only after a wrong answer (the lesson's follow-up, which costs no credit).
    """

    credit: float = _stored_as("pace_credit", 1.0)  # questions the pace allows now; a question costs 1
    turns_paid: int = _stored_as("pace_turns", 0)  # the pupil's turns already paid into the credit
    gap: int = _stored_as(
        "pace_gap", 0
    )  # the pupil's moves made when the last question opened: the gap it was asked in
    asked_in_gap: int = _stored_as("pace_asked", 0)
    follow_up_allowed: bool = _stored_as("pace_followup", False)  # the last question got a wrong answer

    def pay_turns(self, moves: list[dict], questions_per_turn: float, alone: bool = False) -> None:
        """Each turn the pupil has played earns ``questions_per_turn`` towards the next question.

        A turn is the pupil's moves with no other player's move between them (draws and a
        play, several fractions and "end my turn" are one turn). A pupil ``alone`` at the
        table (Casino War against the house) has a turn between two chance moves: a hand.
        """
        turns, previous = 0, None
        for move in moves:
            if move["player"] != CHANCE or alone:
                turns += move["player"] == PUPIL and previous != PUPIL
                previous = move["player"]
        if turns > self.turns_paid:
            self.credit = min(PACE_CREDIT_MAX, self.credit + questions_per_turn * (turns - self.turns_paid))
            self.turns_paid = turns

    def allow_question(self, moves: list[dict]) -> bool:
        """Let the next offered question open now and count it, or say no (it is dropped).

        A first question in a gap needs a whole credit: with ``questions_per_turn`` 3/4 that
        is about three questions per four turns of the pupil, whatever the lesson offers.
        """
        gap = sum(1 for m in moves if m["player"] == PUPIL)
        if gap != self.gap:
            self.gap, self.asked_in_gap, self.follow_up_allowed = gap, 0, False
        if self.asked_in_gap and not self.follow_up_allowed:
            return False
        if not self.asked_in_gap:
            if self.credit < 1:
                return False
            self.credit -= 1
        self.asked_in_gap += 1
        self.follow_up_allowed = False
        return True


@dataclass
class Turn:
    """The pupil's decision in play: when it began, the cards picked, the tries and hints, what was told."""

    started_ms: int = _stored_as("turn_started_ms", 0)  # a choice's time and the hourglass count from it
    picked: list[int] = _stored_as("picked", default_factory=list)  # cards picked towards a move (pairs, fractions)
    #: the judgement of the last choice (a Judged dict), shown until the next
    told: dict | None = _stored_as("told", None)
    tries: int = _stored_as("move_tries", 0)  # choices made since the decision began (a refused one is a wrong try)
    hints: int = _stored_as("move_hints", 0)  # times the pupil asked to see what they can play
    show_playable: bool = _stored_as("show_playable", False)  # the cards that can be played are marked

    def current_told(self) -> Judged | None:
        return Judged.from_dict(self.told) if self.told else None

    def pick(self, card_id: int) -> None:
        """Pick a card towards a move, or put a picked card back; what the last choice was told is over."""
        if card_id in self.picked:
            self.picked.remove(card_id)
        else:
            self.picked.append(card_id)
        self.told = None

    def mark_playable(self) -> None:
        """A hint on request: the cards that can be played are marked (asking again is no new hint)."""
        if not self.show_playable:
            self.show_playable = True
            self.hints += 1

    def count_choice(self, judged: Judged | None) -> None:
        """A choice is a try of this decision; its judgement (if the lesson has one) is told until the next."""
        self.told = judged.to_dict() if judged else None
        self.tries += 1

    def move_made(self) -> None:
        """A move was made: the next decision starts with no picks, tries, hints or marked cards."""
        self.picked, self.show_playable, self.tries, self.hints = [], False, 0, 0


@dataclass
class LessonRun:
    """A pupil's lesson: the game so far, the question being asked, the pace of questions and the pupil's turn."""

    game_id: str
    players: int
    options: dict
    bots: list[str]
    seed: int
    state: dict
    moves: list[dict] = field(default_factory=list)
    stage: str = INTRO
    intro_step: int = 0
    drill: Drill = field(default_factory=Drill)
    rounds_reviewed: int = 0
    last_drill_point: str = ""
    pace: Pace = field(default_factory=Pace)
    started_ms: int = 0
    turn: Turn = field(default_factory=Turn)
    #: counts the saved changes; every lesson form carries it, so a stale page or a double submit is refused
    step: int = 0

    # --- building and storing -----------------------------------------------------------
    @classmethod
    def start(cls, lesson: Lesson, players: int, options: dict, bots: list[str], seed: int, now_ms: int) -> LessonRun:
        game = make_game(lesson.game_id, players, {**lesson.lesson_options, **options})
        make_bots(game, bots)  # refuse unknown bot names now, not mid-game
        run = cls(
            lesson.game_id, players, game.options, list(bots), seed, game.new_state().to_dict(), started_ms=now_ms
        )
        game_state = run.game_state()
        while game_state.current_player == CHANCE:  # deal, so the rules are taught on a real hand
            run._apply(game_state, game_state.chance_move(random.Random(f"chance:{seed}:{len(run.moves)}")))
        run.state = game_state.to_dict()
        return run

    def to_dict(self) -> dict:
        """The run as stored (flat, see :data:`STORED`), copied so that later steps cannot change what was saved.

        The moves are only appended to, never changed, so their list is copied but not each
        move: a deep copy of every move (dataclasses.asdict) grew to milliseconds a step in
        long games. The rest (the game state, the question) is small and copied whole.
        """
        data = {key: _copied(value) for key, value in self._stored_values() if key != "moves"}
        data["moves"] = list(self.moves)
        return data

    def _stored_values(self):
        """Each stored key with the value the run holds for it, not copied."""
        for key, where in STORED.items():
            yield key, getattr(getattr(self, where.part) if where.part else self, where.name)

    @classmethod
    def unchecked(cls, data: dict) -> LessonRun:
        """A stored run as it is, its values not checked (the replay rebuilds the position and compares instead).

        An unknown key raises KeyError, a missing one TypeError.
        """
        if not isinstance(data, dict):
            raise TypeError(f"a stored run is a dict, not {type(data).__name__}")
        values: dict[str | None, dict] = {None: {}, **{part: {} for part in PARTS}}
        for key, value in data.items():
            where = STORED[key]
            values[where.part][where.name] = value
        return cls(**values[None], **{part: PARTS[part](**values[part]) for part in PARTS})

    @classmethod
    def from_dict(cls, data: dict) -> LessonRun:
        """Rebuild a stored run; one that cannot occur raises :class:`InvalidState` now, not mid-lesson."""
        try:
            run = cls.unchecked(data)
            problems = run._problems()
        except (KeyError, TypeError, ValueError) as error:  # an unknown field, game, bot or option; a malformed record
            raise InvalidState(f"lesson run: malformed ({error!r})") from error
        if problems:
            raise InvalidState("lesson run: " + "; ".join(problems))
        run.game_state()  # validates the stored position
        return run

    def _problems(self) -> list[str]:
        """What is impossible about this run, apart from the game position (its engine checks that)."""
        stored = dict(self._stored_values())
        problems = [f"{key} is {value!r}" for key, value in stored.items() if not _fits(value, STORED[key].hint)]
        if problems:
            return problems
        if any(stored[key] < 0 for key, where in STORED.items() if where.hint is int and key != "seed"):
            problems.append("a negative count or time")
        if self.stage not in (INTRO, PLAY, FINISHED):
            problems.append(f"unknown stage {self.stage!r}")
        if self.intro_step > len(LESSONS[self.game_id].intro_steps()) - (
            self.stage == INTRO
        ):  # past the intro it is one beyond
            problems.append("no such intro step")
        make_bots(self.game, self.bots)
        # The stored records must read back (each raises on junk): the moves, the questions, the judgements.
        for move in self.moves:
            Move.from_dict(move)
        problems += self.drill.problems()
        self.turn.current_told()
        return problems

    @property
    def game(self):
        return make_game(self.game_id, self.players, self.options)

    def game_state(self):
        return self.game.state_from_dict(self.state)

    def current_question(self) -> Question | None:
        return self.drill.current_question()

    def current_told(self) -> Judged | None:
        return self.turn.current_told()

    def current_marked(self) -> Marked | None:
        return self.drill.current_marked()

    def recent_moves(self) -> list[Move]:
        """The moves since the pupil last moved (the computers' and chance moves), oldest first."""
        moves = [Move.from_dict(m) for m in self.moves]
        last = max((i for i, m in enumerate(moves) if m.player == PUPIL), default=-1)
        return moves[last + 1 :]

    def _apply(self, game_state, move: Move) -> None:
        game_state.apply(move)
        self.moves.append(move.to_dict())

    # --- the intro --------------------------------------------------------------------------
    def next_intro(self, lesson: Lesson, levels: dict, now_ms: int) -> None:
        self._expect(INTRO)
        self.intro_step += 1
        if self.intro_step >= len(lesson.intro_steps()):
            self.stage = PLAY
            self.turn.started_ms = now_ms
            self.advance(lesson, levels, now_ms)

    def skip_intro(self, lesson: Lesson, levels: dict, now_ms: int) -> None:
        self._expect(INTRO)
        self.intro_step = len(lesson.intro_steps()) - 1
        self.next_intro(lesson, levels, now_ms)

    # --- play -------------------------------------------------------------------------------
    def advance(self, lesson: Lesson, levels: dict, now_ms: int) -> None:
        """Play chance and computer moves until the pupil must act: move, or answer a drill."""
        self.pace.pay_turns(self.moves, lesson.questions_per_turn, alone=self.players == 1)
        if isinstance(levels, Pitch):  # a lesson choosing among kinds passes over one the runner would drop
            levels = levels.avoiding(self.drill.two_option_kind)
        game_state = self.game_state()
        bots = {seat: bot for seat, bot in enumerate(make_bots(self.game, self.bots)) if seat != PUPIL}
        while self.drill.question is None:
            if lesson.round_number(game_state) > self.rounds_reviewed:
                reviewed, self.rounds_reviewed = self.rounds_reviewed, lesson.round_number(game_state)
                questions = [q for q in lesson.after_round(game_state, PUPIL, self._rng("after"), levels) if q]
                for question in questions:
                    question.about_round = question.about_round or self.rounds_reviewed
                # a round reviewed before (its question asked or dropped then) is not asked about again
                self._ask([q for q in questions if q.about_round > reviewed], now_ms)
                continue
            if game_state.is_over:
                break
            if self._time_is_up(game_state, now_ms):
                self._apply(game_state, Move("time_up", CHANCE))
                break
            move = next_automatic_move(game_state, self.seed, len(self.moves), bots)
            if move is None:  # the pupil's turn
                point = f"{lesson.round_number(game_state)}:{len(self.moves)}"
                if point != self.last_drill_point:
                    self.last_drill_point = point
                    self.turn.started_ms = now_ms
                    self._ask(lesson.before_move(game_state, PUPIL, self._rng("before"), levels), now_ms)
                break
            self._apply(game_state, move)
        self.state = game_state.to_dict()
        if game_state.is_over and self.drill.question is None:
            self.stage = FINISHED

    def _rng(self, where: str) -> random.Random:
        return random.Random(f"drill:{where}:{self.seed}:{len(self.moves)}:{self.rounds_reviewed}")

    def _time_is_up(self, game_state, now_ms: int) -> bool:
        limit = self.options.get("time_limit_minutes", 0)
        return (
            bool(limit) and now_ms - self.started_ms >= limit * 60_000 and game_state.is_legal(Move("time_up", CHANCE))
        )

    def move(self, token: str, lesson: Lesson, levels: dict, now_ms: int) -> Attempt | None:
        """The pupil chooses the move a form token names (see :func:`tutor.lessons.base.move_token`).

        Any card may be chosen: a choice the rules refuse is explained and nothing is played.
        The returned attempt, if any, is the choice as an answer for the skill it shows.
        """
        return self._choose(move_from_token(token, PUPIL), lesson, levels, now_ms)

    def typed_move(self, text: str, locale: str, lesson: Lesson, levels: dict, now_ms: int) -> Attempt | None:
        """The pupil types the move (an expression); unreadable text raises AnswerError, nothing lost."""
        self._expect(PLAY)
        if not lesson.typed_move:
            raise LessonError("this game has no typed moves")
        return self._choose(lesson.move_from_text(self.game_state(), PUPIL, text, locale), lesson, levels, now_ms)

    def pick(self, card_id: int, lesson: Lesson) -> None:
        """Pick a card of the hand towards a move, or put a picked card back (lessons with picks_cards)."""
        self._expect_pupil_turn()
        if not lesson.picks_cards or card_id not in lesson.pickable(self.game_state(), PUPIL):
            raise LessonError("that card cannot be picked")
        self.turn.pick(card_id)

    def play_picked(self, lesson: Lesson, levels: dict, now_ms: int) -> Attempt | None:
        """Play the picked cards as one move; the rules judge it like any choice."""
        self._expect_pupil_turn()
        if not lesson.picks_cards:
            raise LessonError("this game's moves are not made by picking cards")
        move = lesson.move_from_picks(self.game_state(), PUPIL, list(self.turn.picked))
        if move is None:
            self.turn.told = Judged(False, lesson.narration("pick_more")).to_dict()
            return None
        return self._choose(move, lesson, levels, now_ms)

    def show_what_I_can_play(self) -> None:
        """A hint on request: mark the cards that can be played now (counted as a hint)."""
        self._expect_pupil_turn()
        self.turn.mark_playable()

    def _expect_pupil_turn(self) -> None:
        self._expect(PLAY)
        if self.drill.question is not None:
            raise LessonError("answer or close the question first")
        if self.game_state().current_player != PUPIL:
            raise LessonError("it is not the pupil's turn")

    def _choose(self, move: Move | None, lesson: Lesson, levels: dict, now_ms: int) -> Attempt | None:
        self._expect_pupil_turn()
        game_state = self.game_state()
        if move is None or (move.kind.startswith("play") and not move.cards):
            raise LessonError("that is not a move")  # a play always names its cards (a forged form does not)
        judged = lesson.judge(game_state, PUPIL, move)
        legal = game_state.is_legal(move)
        if not legal and judged is None:
            raise LessonError("that move cannot be made now")
        attempt = self._choice_attempt(lesson, game_state, move, judged, now_ms) if judged and judged.skill else None
        self.turn.count_choice(judged)
        if not legal:
            return attempt
        self.turn.move_made()
        self._apply(game_state, move)
        self.state = game_state.to_dict()
        self.advance(lesson, levels, now_ms)
        return attempt

    def _choice_attempt(self, lesson: Lesson, game_state, move: Move, judged: Judged, now_ms: int) -> Attempt:
        """A choice stored like the answer to a choice question whose buttons are the pupil's cards."""
        hand = sorted(game_state.player_view(PUPIL).get("hand", []))
        chosen = move_token(move)
        choices = [
            {"value": lesson.hand_choice(game_state, PUPIL, c).token, "label": Text(N_("this card")), "card": c}
            for c in hand
        ]
        if chosen not in {c["value"] for c in choices}:  # a pair, a fraction or a typed move: its own button
            choices.append({"value": chosen, "label": Text(N_("these cards")) if move.cards else Text(N_("this move"))})

        def judged_right(value: str) -> bool:
            """Whether the lesson would judge this button right (one it does not judge: whether it is legal)."""
            option = move_from_token(value, PUPIL)
            verdict = lesson.judge(game_state, PUPIL, option) if option is not None else None
            return verdict.correct if verdict is not None else option is not None and game_state.is_legal(option)

        # Right buttons ÷ buttons is the chance of a lucky tap the skill model allows for
        # (tutor.skill_model.progress.tap_share): in a hand of many legal cards a right tap says little.
        right = [c["value"] for c in choices if (judged.correct if c["value"] == chosen else judged_right(c["value"]))]
        question = Question(
            kind=f"{CARD_CHOICE}{judged.kind}",
            skill=judged.skill,
            prompt=lesson.decision_prompt(game_state, PUPIL),
            answer=CHOICE,
            check={"rule": "choice", "expected": right},
            hints=[],
            solution=[],
            choices=choices,
            cards=list(move.cards),
        )
        return Attempt(
            skill=judged.skill,
            kind=question.kind,
            question=question.to_dict(),
            typed=chosen,
            read_as=chosen,
            correct=judged.correct,
            readable=True,
            first_try=self.turn.tries == 0,
            hints_used=self.turn.hints,
            time_ms=max(0, now_ms - self.turn.started_ms),
            choices=max(len(choices), 1),
            move_index=len(self.moves),
            feedback=[judged.told.to_dict()],
        )

    def _pupil_moves(self, move: Move | None, lesson: Lesson, levels: dict, now_ms: int) -> None:
        """A move made for the pupil (the hourglass ran out): applied as it is, never judged."""
        self._expect_pupil_turn()
        game_state = self.game_state()
        if move is None or not game_state.is_legal(move):
            raise LessonError("that move cannot be made now")
        self.turn.move_made()
        self.turn.told = None  # a move made for the pupil is not judged
        self._apply(game_state, move)
        self.state = game_state.to_dict()
        self.advance(lesson, levels, now_ms)

    def hourglass_ran_out(self, lesson: Lesson, levels: dict, now_ms: int) -> bool:
        """With an hourglass set, a pupil who runs out of time makes a move chosen by chance."""
        seconds = self.options.get("turn_seconds", 0)
        game_state = self.game_state()
        if not seconds or self.drill.question is not None or game_state.current_player != PUPIL:
            return False
        if now_ms - self.turn.started_ms < seconds * 1000:
            return False
        move = bot_rng(self.seed, len(self.moves)).choice(game_state.legal_moves())
        judged = lesson.judge(game_state, PUPIL, move)  # what the move does, told before the table changes
        self._pupil_moves(move, lesson, levels, now_ms)
        told = Text(N_("The hourglass ran out, so a move was chosen for you: see your card on the table."))
        if judged is not None and judged.correct:
            told = Text(N_("The hourglass ran out, so a move was chosen for you. %(move)s"), {"move": judged.told})
        self.turn.told = Judged(True, told).to_dict()
        return True

    # --- drills -----------------------------------------------------------------------------
    def _ask(self, questions: list[Question], now_ms: int) -> None:
        """Queue the questions offered now and open the first one the pace allows."""
        self.drill.queued.extend(q.to_dict() for q in questions if q is not None)
        while self.drill.question is None and self.drill.queued:
            question = self.drill.queued.pop(0)
            if self.drill.repeats_two_options(question):
                continue  # dropped before the pace counts it: the next offered question may be asked instead
            if self.pace.allow_question(self.moves):
                self.drill.ask(question, now_ms)
            # else dropped: a question about this position makes no sense later

    def answer(self, typed: str, locale: str, now_ms: int) -> Attempt:
        """Mark an answer to the open question; an unreadable one costs nothing."""
        attempt = self.drill.answer(typed, locale, now_ms, len(self.moves))
        if attempt.readable and not attempt.correct:
            self.pace.follow_up_allowed = True
        return attempt

    def hint(self) -> Text:
        return self.drill.hint()

    def show_solution(self) -> None:
        self.drill.show_solution()

    def close_question(self, lesson: Lesson, levels: dict, now_ms: int) -> None:
        """Go on with the game (after feedback, or skipping the question)."""
        self.drill.close()
        self._ask([], now_ms)
        if self.drill.question is None:
            self.turn.started_ms = now_ms
            self.advance(lesson, levels, now_ms)

    def _expect(self, stage: str) -> None:
        if self.stage != stage:
            raise LessonError(f"the lesson is at {self.stage}, not {stage}")


def _copied(value):
    """A copy of plain JSON data (dicts, lists and scalars), faster than copy.deepcopy."""
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copied(item) for item in value]
    return value


class Stored(NamedTuple):
    """Where a key of the stored run lives, and the type its value must have (checked by :func:`_fits`)."""

    part: str | None  # the named part of the run that holds it; None: the run itself
    name: str
    hint: object


#: The run's named parts: its field's name, the part's class.
PARTS = {name: hint for name, hint in get_type_hints(LessonRun).items() if is_dataclass(hint)}


def _stored_keys() -> dict[str, Stored]:
    """The keys of the stored run: the run's fields in order, each named part's fields in its place."""
    keys = {}
    for name, hint in get_type_hints(LessonRun).items():
        if name not in PARTS:
            keys[name] = Stored(None, name, hint)
            continue
        part_hints = get_type_hints(hint)
        for part_field in fields(hint):
            keys[part_field.metadata["key"]] = Stored(name, part_field.name, part_hints[part_field.name])
    return keys


#: The stored run's keys, flat (as runs were stored before the named parts): where each lives and its type.
STORED = _stored_keys()
