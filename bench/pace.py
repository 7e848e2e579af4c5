"""The pace of every lesson: how many drill questions a pupil gets per turn of their own.

Plays ``--seeds`` seeded lessons of every game with each of 2, 3 and 4 players it takes through the pure
lesson runner. The simulated pupil skips the intro, makes the moves a computer player
would make (``--pupil``: strong or beginner), and answers every question: right at the
first try with chance ``--right`` (seeded), otherwise wrong once and then right. Per game and player count it
prints the pupil's turns (a turn is the pupil's moves with no other player's move between
them: draws, plays, "end my turn"), the questions asked, questions per pupil turn, the
most questions asked between two of the pupil's moves, and how many times a second
question came between two moves although the question before it was answered right at
the first try (the pace rule allows that only after a wrong answer).

    .venv/bin/python bench/pace.py [--seeds 6] [--right 0.8] [--pupil strong] [--game calculation-war]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor.answer_key import right_answer, wrong_answer  # noqa: E402
from tutor.engine import CHANCE, GAMES  # noqa: E402
from tutor.engine.play import bot_rng, make_bots  # noqa: E402
from tutor.lessons import LESSONS  # noqa: E402
from tutor.lessons.base import move_token  # noqa: E402
from tutor.lessons.runner import FINISHED, PUPIL, LessonRun  # noqa: E402

LOCALE = "en"
MAX_STEPS = 5000


def pupil_turns(moves: list[dict]) -> int:
    """How many turns the pupil had: runs of the pupil's moves with no other player's move between them."""
    turns, previous = 0, None
    for move in moves:
        if move["player"] == CHANCE:
            continue
        if move["player"] == PUPIL and previous != PUPIL:
            turns += 1
        previous = move["player"]
    return turns


@dataclass
class Lesson:
    turns: int = 0
    questions: int = 0
    most_between_moves: int = 0
    after_right: int = 0  # a second question between two moves after a right first answer
    gaps: list[int] = field(default_factory=list)


def play(game_id: str, players: int, seed: int, right: float, pupil: str = "strong") -> Lesson:
    """One seeded lesson played to its end by the simulated pupil."""
    lesson = LESSONS[game_id]
    run = LessonRun.start(lesson, players, {}, ["strong", "beginner"], seed, now_ms=0)
    pupil_bot = make_bots(run.game, [pupil])[PUPIL]
    answers = random.Random(f"pace:{game_id}:{players}:{seed}")
    result = Lesson()
    in_gap, last_right = 0, False
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
            move = pupil_bot.choose(state.player_view(PUPIL), state.legal_moves(), bot_rng(seed, len(run.moves)))
            run.move(move_token(move), lesson, {}, now)
            result.gaps.append(in_gap)
            in_gap = 0
    else:
        raise RuntimeError(f"{game_id} with {players} players, seed {seed}, did not finish")
    result.gaps.append(in_gap)
    result.turns = pupil_turns(run.moves)
    result.most_between_moves = max(result.gaps)
    return result


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
    args = parser.parse_args()
    print(
        f"{args.seeds} seeded lessons per game and player count; the pupil moves like a {args.pupil} computer; first "
        f"answers right with chance {args.right}"
    )
    print(
        f"{'game':26} {'players':>7} {'turns':>6} {'questions':>9} {'per turn':>8} {'turns/q':>7} "
        f"{'most between moves':>18} {'2nd after right':>15}"
    )
    for game_id in args.game or LESSONS:
        for players in range(max(2, GAMES[game_id].min_players), min(4, GAMES[game_id].max_players) + 1):
            lessons = [play(game_id, players, seed, args.right, args.pupil) for seed in range(args.seeds)]
            turns = statistics.mean(lesson.turns for lesson in lessons)
            questions = statistics.mean(lesson.questions for lesson in lessons)
            rate = sum(lesson.questions for lesson in lessons) / max(1, sum(lesson.turns for lesson in lessons))
            most = max(lesson.most_between_moves for lesson in lessons)
            after_right = sum(lesson.after_right for lesson in lessons)
            per_question = f"{1 / rate:.1f}" if rate else "-"
            print(
                f"{game_id:26} {players:>7} {turns:>6.1f} {questions:>9.1f} {rate:>8.2f} {per_question:>7} {most:>18} "
                f"{after_right:>15}"
            )


if __name__ == "__main__":
    main()
