"""The pace of every lesson: questions per 10 rounds, how many of them typed, and the longest stretch without one.

Plays ``--seeds`` seeded lessons of every game with each player count its lesson offers (1 to 4)
through the pure lesson runner. The simulated pupil skips the intro, makes the moves a
computer player would make (``--pupil``: strong or beginner), and answers every
question: right at the first try with chance ``--right`` (seeded), otherwise wrong once
and then right.

What a round is, per game: in the War-like games (War and its variants, Calculation War,
MultiWar, TripleSmart) a round decided (a war belongs to its round), in Casino War a
hand; in the shedding games (MultiMatch, the Crazy Banana games) and Fraction Master,
whose scoreboard counts every player's turn, in 29 and in Three Traits (whose rounds
last until a player is stuck), a round is one turn of the pupil (once around the
table). A turn of the pupil is the pupil's moves with no other player's move between
them (draws, plays, "end my turn"; a window let go is no move). Only the pupil's rounds count: up to the round
of the pupil's last move, so a pupil who is out of the game early (the others play the
rest at once, with nothing to ask between two of the pupil's moves) is not counted as
sitting through quiet rounds.

Per game and player count it prints the rounds played, the questions asked per 10 rounds,
the share of them answered by typing a number (the rest by buttons), the longest stretch
without a question (in rounds: from the start, between two questions, and to the end),
the most questions asked between two of the pupil's moves, and how many times a second
question came between two moves although the question before it was answered right at
the first try (the pace rule allows that only after a wrong answer). ``--json`` prints one
object: the settings and ``rows``, one per game and player count, with the keys ``game``,
``players``, ``questions_per_10_rounds``, ``typed_share`` and ``longest_gap``.

    .venv/bin/python bench/pace.py [--seeds 6] [--right 0.8] [--pupil strong] [--game calculation-war] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor.answer_key import right_answer, wrong_answer  # noqa: E402
from tutor.drills import NUMBER  # noqa: E402
from tutor.engine import CHANCE, GAMES  # noqa: E402
from tutor.engine.play import bot_rng, make_bots  # noqa: E402
from tutor.engine.twenty_nine import LET_GO  # noqa: E402
from tutor.lessons import LESSONS  # noqa: E402
from tutor.lessons.base import move_token  # noqa: E402
from tutor.lessons.runner import FINISHED, PUPIL, LessonRun  # noqa: E402

LOCALE = "en"
MAX_STEPS = 5000


def pupil_turns(moves: list[dict]) -> int:
    """How many turns the pupil had: runs of the pupil's moves with no other player's move between them.

    A window let go (29: the other player does not answer a play with an ace) is no move of a
    turn: the pupil's turn goes on.
    """
    turns, previous = 0, None
    for move in moves:
        if move["player"] == CHANCE or move["kind"] == LET_GO:
            continue
        if move["player"] == PUPIL and previous != PUPIL:
            turns += 1
        previous = move["player"]
    return turns


#: Games whose rounds last many turns each (Three Traits: until a player is stuck): a round is a turn of the pupil.
LONG_ROUNDS = {"three-traits"}


def rounds_played(lesson, game_state, moves: list[dict]) -> int:
    """The rounds of the module docstring: the pupil's turns where the lesson's rounds are every player's turns."""
    if lesson.round_number(game_state) == getattr(game_state, "turns", None) or lesson.game_id in LONG_ROUNDS:
        return pupil_turns(moves)
    return lesson.round_number(game_state)


@dataclass
class Lesson:
    rounds: int = 0
    questions: int = 0
    typed: int = 0
    most_between_moves: int = 0
    after_right: int = 0  # a second question between two moves after a right first answer
    asked_at: list[int] = field(default_factory=list)  # the rounds played when each question opened
    gaps: list[int] = field(default_factory=list)  # questions asked between two of the pupil's moves

    @property
    def longest_gap(self) -> int:
        """The most rounds played without a question: from the start, between two questions, to the end."""
        marks = [0, *self.asked_at, self.rounds]
        return max(b - a for a, b in zip(marks, marks[1:]))


def play(game_id: str, players: int, seed: int, right: float, pupil: str = "strong") -> Lesson:
    """One seeded lesson played to its end by the simulated pupil."""
    lesson = LESSONS[game_id]
    run = LessonRun.start(lesson, players, {}, ["strong", "beginner"], seed, now_ms=0)
    pupil_bot = make_bots(run.game, [pupil])[PUPIL]
    answers = random.Random(f"pace:{game_id}:{players}:{seed}")
    result = Lesson()
    in_gap, last_right, last_round_in = 0, False, 0
    now = 0
    run.skip_intro(lesson, {}, now)
    for _ in range(MAX_STEPS):
        if run.stage == FINISHED:
            break
        now += 1000
        question = run.drill.question
        if question is not None and run.drill.open:
            if run.drill.tries == 0:
                result.questions += 1
                result.typed += question["answer"] == NUMBER
                result.asked_at.append(rounds_played(lesson, run.game_state(), run.moves))
                in_gap += 1
                if in_gap > 1 and last_right:
                    result.after_right += 1
                wrong = wrong_answer(question, LOCALE) if answers.random() >= right else None
                attempt = run.answer(wrong if wrong is not None else right_answer(question, LOCALE), LOCALE, now)
                last_right = attempt.correct
            else:
                run.answer(right_answer(question, LOCALE), LOCALE, now)
        elif question is not None:
            run.close_question(lesson, {}, now)
        else:
            state = run.game_state()
            last_round_in = rounds_played(lesson, state, run.moves) + 1  # the round this move belongs to
            move = pupil_bot.choose(state.player_view(PUPIL), state.legal_moves(), bot_rng(seed, len(run.moves)))
            run.move(move_token(move), lesson, {}, now)
            result.gaps.append(in_gap)
            in_gap = 0
    else:
        raise RuntimeError(f"{game_id} with {players} players, seed {seed}, did not finish")
    result.gaps.append(in_gap)
    result.rounds = min(rounds_played(lesson, run.game_state(), run.moves), last_round_in)
    result.asked_at = [min(at, result.rounds) for at in result.asked_at]
    result.most_between_moves = max(result.gaps)
    return result


@dataclass
class Row:
    """One game and player count over every seed."""

    game: str
    players: int
    lessons: list[Lesson]

    @property
    def rounds(self) -> float:
        return sum(lesson.rounds for lesson in self.lessons) / len(self.lessons)

    @property
    def per_10_rounds(self) -> float:
        return 10 * sum(lesson.questions for lesson in self.lessons) / max(1, sum(le.rounds for le in self.lessons))

    @property
    def typed_share(self) -> float:
        questions = sum(lesson.questions for lesson in self.lessons)
        return sum(lesson.typed for lesson in self.lessons) / questions if questions else 0.0

    @property
    def longest_gap(self) -> int:
        return max(lesson.longest_gap for lesson in self.lessons)

    def summary(self) -> dict:
        return {
            "game": self.game,
            "players": self.players,
            "questions_per_10_rounds": round(self.per_10_rounds, 1),
            "typed_share": round(self.typed_share, 2),
            "longest_gap": self.longest_gap,
        }


def measure(game_ids, seeds: int, right: float, pupil: str) -> list[Row]:
    """A row per game and player count (1 to 4, as the lesson offers them)."""
    rows = []
    for game_id in game_ids:
        for players in (n for n in LESSONS[game_id].player_choices(GAMES[game_id]) if n <= 4):
            rows.append(Row(game_id, players, [play(game_id, players, seed, right, pupil) for seed in range(seeds)]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--right", type=float, default=0.8, help="chance that a first answer is right")
    parser.add_argument(
        "--pupil",
        choices=("strong", "beginner"),
        default="strong",
        help="the computer player whose moves the pupil makes",
    )
    parser.add_argument("--game", choices=sorted(LESSONS), action="append", help="only these games (default: all)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = parser.parse_args()
    rows = measure(args.game or LESSONS, args.seeds, args.right, args.pupil)
    if args.json:
        settings = {"seeds": args.seeds, "right": args.right, "pupil": args.pupil}
        print(json.dumps({**settings, "rows": [row.summary() for row in rows]}, indent=1))
        return
    print(
        f"{args.seeds} seeded lessons per game and player count; the pupil moves like a {args.pupil} computer; first "
        f"answers right with chance {args.right}; a round: see the docstring"
    )
    print(
        f"{'game':26} {'players':>7} {'rounds':>6} {'q/10 rounds':>11} {'typed':>5} {'longest gap':>11} "
        f"{'most between moves':>18} {'2nd after right':>15}"
    )
    for row in rows:
        print(
            f"{row.game:26} {row.players:>7} {row.rounds:>6.1f} {row.per_10_rounds:>11.1f} {row.typed_share:>5.0%} "
            f"{row.longest_gap:>11} {max(le.most_between_moves for le in row.lessons):>18} "
            f"{sum(le.after_right for le in row.lessons):>15}"
        )


if __name__ == "__main__":
    main()
