"""Replay a pupil's lesson run for the teacher, one frame per move the pupil made.

A run stores every move applied to the game, chance moves with their drawn outcome,
so the game is rebuilt from ``game.new_state()`` by applying the moves in order; no
position is stored per move and nothing is kept in memory between requests. A frame is
the table just before one of the pupil's moves, as the pupil saw it: what the other
players did since the pupil's previous move, the move the pupil then made, and the
questions asked in that stretch with every try. A last frame shows the end (or "now"
for an unfinished run).

Which frame an answer belongs to follows from its ``move_index`` (how many moves the
run had made when it was answered): frame *k* holds the answers with
``previous pupil move index < move_index <= index of pupil move k``, so a question asked
before the pupil's move and one asked after the round it ends up deciding both land in
the right place. Plain Python: the web layer passes the run and its attempts in.
"""

from __future__ import annotations

import copy
from bisect import bisect_left
from dataclasses import dataclass, field

from tutor.drills import CHOICE, Question
from tutor.drills.marking import refusal_description
from tutor.engine import IllegalMove, InvalidState, Move, make_game
from tutor.lessons import LESSONS
from tutor.lessons.base import Lesson, Zone, move_token
from tutor.lessons.runner import PUPIL, LessonRun
from tutor.lessons.triplesmart import shown_expression
from tutor.text import N_, Text


def refusal_text(code: str | None) -> Text:
    """A short description, for the teacher, of why an answer could not be read (the dashboards' words)."""
    return Text(refusal_description(code))


@dataclass
class Try:
    """One answer to a question, as the teacher sees it (an unreadable one shows only its refusal)."""

    typed: str
    read_as: str | None
    correct: bool
    readable: bool
    first_try: bool
    hints_used: int
    time_ms: int
    feedback: list[dict] = field(default_factory=list)  # Text dicts, as the pupil saw them
    misconception: str | None = None
    refusal: Text | None = None
    chosen: dict | None = None  # the button picked, for a question answered with buttons


@dataclass
class Asked:
    """A question asked during one stretch of play and every try at it, in order."""

    question: Question
    move_index: int | None
    tries: list[Try] = field(default_factory=list)

    @property
    def answered_right(self) -> bool:
        return any(t.correct for t in self.tries)

    @property
    def first_try_right(self) -> bool:
        """Right at the first answer that could be read (an unreadable one costs nothing)."""
        return next((t.correct for t in self.tries if t.readable), False)


@dataclass
class ShownMove:
    """The pupil's move in words (the lesson's own label for it) and the cards it used."""

    label: Text
    cards: list[int]


@dataclass
class Frame:
    number: int  # 1-based
    total: int
    move_index: int | None  # where the pupil's move is in ``run.moves``; None for the end frame
    scoreboard: list[Text]
    zones: list[Zone]
    hand: list[int] | None  # the pupil's hand; None in games without one
    story: list[Text]  # what the others (and chance) did since the pupil's previous move
    move: ShownMove | None
    questions: list[Asked]
    finish: list[Text]  # how the game ended, on the end frame of a finished game

    @property
    def is_end(self) -> bool:
        return self.move_index is None


@dataclass
class Replay:
    """One requested frame, the frames that hold questions, and whether the rebuild matched."""

    frame: Frame | None  # None when the stored moves stop fitting the rules before this frame
    total: int
    question_frames: dict[int, bool]  # frame number -> every question in it right on the first try
    exact: bool  # the rebuilt final state equals the stored one
    finished: bool


# --- reading the stored run ------------------------------------------------------------------
def as_run(run: LessonRun | dict) -> LessonRun:
    """The run, without checking its stored position: the replay rebuilds it and compares instead."""
    return run if isinstance(run, LessonRun) else LessonRun.unchecked(run)


def pupil_move_indices(moves: list[dict]) -> list[int]:
    """Where the pupil's moves are in the move list (cheap: no game is rebuilt)."""
    return [index for index, move in enumerate(moves) if int(move["player"]) == PUPIL]


def frame_count(run: LessonRun | dict) -> int:
    moves = run.moves if isinstance(run, LessonRun) else run["moves"]
    return len(pupil_move_indices(moves)) + 1


def frame_of(move_index: int | None, pupil_indices: list[int]) -> int:
    """The frame an answer given at ``move_index`` belongs to (answers without one go to the end)."""
    if move_index is None:
        return len(pupil_indices) + 1
    return bisect_left(pupil_indices, move_index) + 1


def _get(attempt, name: str, default=None):
    return attempt.get(name, default) if isinstance(attempt, dict) else getattr(attempt, name, default)


def _try(attempt, question: Question) -> Try:
    readable = bool(_get(attempt, "readable", True))
    read_as = _get(attempt, "read_as")
    chosen = None
    if question.answer == CHOICE and readable:
        chosen = next((choice for choice in question.choices if choice["value"] == read_as), None)
    return Try(
        typed=_get(attempt, "typed", "") if readable else "",  # never the text of an unreadable answer
        read_as=read_as if readable else None,
        correct=bool(_get(attempt, "correct", False)),
        readable=readable,
        first_try=bool(_get(attempt, "first_try", False)),
        hints_used=int(_get(attempt, "hints_used", 0) or 0),
        time_ms=int(_get(attempt, "time_ms", 0) or 0),
        feedback=list(_get(attempt, "feedback") or []) if readable else [],
        misconception=_get(attempt, "misconception"),
        refusal=None if readable else refusal_text(_get(attempt, "error_code")),
        chosen=chosen,
    )


def group_questions(attempts: list) -> list[Asked]:
    """Consecutive tries at the same question become one :class:`Asked`, in the order given."""
    asked: list[Asked] = []
    for attempt in attempts:
        data = _get(attempt, "question")
        if not asked or asked[-1].question.to_dict() != data or asked[-1].move_index != _get(attempt, "move_index"):
            asked.append(Asked(Question.from_dict(data), _get(attempt, "move_index")))
        asked[-1].tries.append(_try(attempt, asked[-1].question))
    return asked


def questions_by_frame(attempts: list, pupil_indices: list[int]) -> dict[int, list[Asked]]:
    """The questions of each frame (only frames with questions appear)."""
    frames: dict[int, list[Asked]] = {}
    for asked in group_questions(attempts):
        frames.setdefault(frame_of(asked.move_index, pupil_indices), []).append(asked)
    return frames


# --- the pupil's move in words --------------------------------------------------------------
def describe_move(lesson: Lesson, game_state, move: Move) -> ShownMove:
    """The lesson's own label for ``move`` (made by the pupil in ``game_state``) and its cards."""
    if lesson.typed_move and move.kind == "submit":
        return ShownMove(
            Text(N_("Typed the expression %(expression)s"), {"expression": shown_expression(move.detail)}),
            list(move.cards),
        )
    token = move_token(move)
    choice = next((c for c in lesson.choices(game_state, PUPIL) if c.token == token), None)
    if choice is not None:
        return ShownMove(choice.label, list(move.cards))
    labels = lesson.content().get("moves", {})
    if move.kind in labels:
        return ShownMove(Text(labels[move.kind], {"detail": move.detail}), list(move.cards))
    return ShownMove(Text(N_("A move of the kind %(kind)s"), {"kind": move.kind}), list(move.cards))


# --- rebuilding ---------------------------------------------------------------------------------
def _snapshot(lesson: Lesson, game_state, story_moves: list[Move]) -> dict:
    """What the pupil saw in ``game_state``, copied so later moves cannot change it."""
    view = game_state.player_view(PUPIL)
    return copy.deepcopy(
        {
            "scoreboard": lesson.scoreboard(game_state, PUPIL),
            "zones": lesson.table(game_state, PUPIL),
            "hand": sorted(view["hand"]) if "hand" in view else None,
            "story": lesson.round_story(game_state, PUPIL, story_moves),
        }
    )


def replay(run: LessonRun | dict, attempts: list, number: int) -> Replay:
    """Rebuild ``run`` and describe frame ``number`` (clamped to the frames there are).

    One pass over the moves: the views are taken only at the requested frame, then the
    remaining moves are applied to check that the rebuild ends where the run is stored.
    """
    run = as_run(run)
    lesson = LESSONS[run.game_id]
    indices = pupil_move_indices(run.moves)
    total = len(indices) + 1
    number = min(max(int(number), 1), total)
    by_frame = questions_by_frame(attempts, indices)
    question_frames = {n: all(a.first_try_right for a in asked) for n, asked in sorted(by_frame.items())}
    stop = indices[number - 1] if number <= len(indices) else None  # index of the pupil's move shown
    start = indices[number - 2] + 1 if number >= 2 else 0  # the first move after the previous pupil move

    game_state = make_game(run.game_id, run.players, run.options).new_state()
    frame, exact, moves = None, True, []
    try:
        moves = [Move.from_dict(m) for m in run.moves]
        for index, move in enumerate(moves):
            if index == stop:
                frame = _frame(
                    lesson, game_state, moves[start:index], number, total, index, move, by_frame.get(number, [])
                )
            game_state.apply(move)
    except (IllegalMove, InvalidState):
        exact = False
    else:
        exact = game_state.to_dict() == run.state
        if stop is None:
            frame = _frame(lesson, game_state, moves[start:], number, total, None, None, by_frame.get(number, []))
    return Replay(frame, total, question_frames, exact, game_state.is_over)


def _frame(
    lesson: Lesson,
    game_state,
    story_moves: list[Move],
    number: int,
    total: int,
    index: int | None,
    move: Move | None,
    questions: list[Asked],
) -> Frame:
    seen = _snapshot(lesson, game_state, story_moves)
    return Frame(
        number=number,
        total=total,
        move_index=index,
        scoreboard=seen["scoreboard"],
        zones=seen["zones"],
        hand=seen["hand"],
        story=seen["story"],
        move=describe_move(lesson, game_state, move) if move is not None else None,
        questions=questions,
        finish=lesson.finish_story(game_state, PUPIL) if move is None and game_state.is_over else [],
    )


def rebuild(run: LessonRun | dict):
    """The game state reached by applying the run's stored moves to a new game."""
    run = as_run(run)
    game_state = make_game(run.game_id, run.players, run.options).new_state()
    for move in run.moves:
        game_state.apply(Move.from_dict(move))
    return game_state


def replays_exactly(run: LessonRun | dict) -> bool:
    """Seed plus moves replays exactly: the rebuilt final state is the stored one."""
    try:
        return rebuild(run).to_dict() == as_run(run).state
    except (IllegalMove, InvalidState):
        return False
