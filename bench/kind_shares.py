"""Which question kinds the lessons ask, before and after the lesson chose the kind for the pupil, and how often a drill
point has a choice of kinds.

A drill point that can ask about more than one thing on the table chooses the kind (and
level) whose forecast success for the pupil is nearest their target
(:func:`tutor.drills.choose_question` with :class:`tutor.skill_model.progress.PupilPitch`);
before, it took the kind the lesson drew. This plays ``--seeds`` seeded lessons of every game
(the fewest players its lesson offers, two at least) through the pure lesson runner for a low,
a middle and a high pupil (Elo ability -1, 0, +1 in every skill) and counts the kinds asked:
"before" with the pupil's levels alone (the lesson's own order), "after" with the pitch. The
question difficulties are made up, as no school's answers are at hand: each kind's levels at
the priors (-1.1, 0, +1.1) plus an offset per kind drawn from a normal distribution (sd
``--spread``, seeded by the kind's name), so that kinds differ as they would after a fit. It
also counts the drill points (a lesson's ``before_move`` or ``after_round`` that offered a
question) and how many kinds each could choose from (1, 2, 3 or more), per game and pooled
over the games, each game played as often (``bench/skill_model.py`` draws the kinds on the
table from the pooled shares). No kind may be starved: each is asked of some pupil.

    .venv/bin/python bench/kind_shares.py [--seeds 6] [--spread 0.8] [--json] [--games war,gnav]
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor import content  # noqa: E402
from tutor.answer_key import right_answer, wrong_answer  # noqa: E402
from tutor.engine import GAMES  # noqa: E402
from tutor.engine.play import bot_rng, make_bots  # noqa: E402
from tutor.lessons import LESSONS  # noqa: E402
from tutor.lessons.base import move_token  # noqa: E402
from tutor.lessons.runner import FINISHED, PUPIL, LessonRun  # noqa: E402
from tutor.models import SkillRecord  # noqa: E402
from tutor.skill_model import elo, progress, skills  # noqa: E402

LOCALE = "en"
MAX_STEPS = 5000
PUPILS = {"low": -1.0, "middle": 0.0, "high": 1.0}


class CountingPitch(progress.PupilPitch):
    """The app's pitch, noting the most kinds a drill point could choose from."""

    def __init__(self, model: progress.PupilModel) -> None:
        super().__init__(lambda: model)
        self.kinds_at_point = [0]  # shared by the copies the runner makes (:meth:`tutor.drills.Pitch.avoiding`)
        self.last_point = 1

    def ranked(self, offers):
        self.kinds_at_point[0] = max(self.kinds_at_point[0], len({offer.kind for offer in offers}))
        return super().ranked(offers)


def counting_points(lesson, pitch: CountingPitch, points: Counter):
    """The lesson, its drill points counted in ``points`` by the kinds they could choose from (1, 2, 3: 3 or more);
    the last one's count stays in ``pitch.last_point``."""
    counted = copy.copy(lesson)

    def counting(drill_point):
        def offered(game_state, pupil, rng, levels):
            pitch.kinds_at_point[0] = 0
            questions = [question for question in drill_point(game_state, pupil, rng, levels) if question]
            if questions:
                pitch.last_point = min(3, max(1, pitch.kinds_at_point[0]))
                points[pitch.last_point] += 1
            return questions

        return offered

    counted.before_move, counted.after_round = counting(lesson.before_move), counting(lesson.after_round)
    return counted


def made_up_difficulties(spread: float) -> dict:
    """Every kind's levels at the priors plus the kind's own offset (seeded by its name)."""
    table = {}
    for kind in content.drill_texts():
        offset = random.Random(f"kind:{kind}").gauss(0, spread)
        for skill in skills.SKILLS:
            for level, prior in progress.PRIOR_DIFFICULTY.items():
                table[skill, kind, level] = elo.Rating(prior + offset, 100)
    return table


def pupil_model(ability: float, difficulties: dict) -> progress.PupilModel:
    records = {skill: SkillRecord(skill=skill, ability=ability, ability_count=50) for skill in skills.SKILLS}
    return progress.PupilModel(1, records, {}, difficulties)


def play(game_id: str, seed: int, model: progress.PupilModel, pitched: bool) -> tuple[Counter, Counter, Counter]:
    """One seeded lesson: the kinds asked, its drill points by the kinds they could choose from, and its questions
    asked by the kinds their drill point could choose from (a question opens at the last drill point that offered
    one; a follow-up after a wrong answer belongs to the same point)."""
    pitch, points, asked_at = CountingPitch(model), Counter(), Counter()
    lesson = counting_points(LESSONS[game_id], pitch, points)
    levels = pitch if pitched else dict(pitch)
    players = max(2, lesson.player_choices(GAMES[game_id])[0])
    run = LessonRun.start(lesson, players, {}, ["strong"], seed, now_ms=0)
    pupil_bot = make_bots(run.game, ["strong"])[PUPIL]
    answers = random.Random(f"kinds:{game_id}:{seed}")
    asked: Counter = Counter()
    now = 0
    run.skip_intro(lesson, levels, now)
    for _ in range(MAX_STEPS):
        if run.stage == FINISHED:
            break
        now += 1000
        question = run.drill.question
        if question is not None and run.drill.open:
            if run.drill.tries == 0:
                asked[question["kind"]] += 1
                asked_at[pitch.last_point] += 1
            wrong = wrong_answer(question, LOCALE) if answers.random() < 0.25 and run.drill.tries == 0 else None
            run.answer(wrong if wrong is not None else right_answer(question, LOCALE), LOCALE, now)
        elif question is not None:
            run.close_question(lesson, levels, now)
        else:
            state = run.game_state()
            move = pupil_bot.choose(state.player_view(PUPIL), state.legal_moves(), bot_rng(seed, len(run.moves)))
            run.move(move_token(move), lesson, levels, now)
    return asked, points, asked_at


def point_shares(points: Counter) -> dict[str, float]:
    """The shares of drill points (or questions) that could choose from 1, 2, and 3 or more kinds."""
    total = sum(points.values())
    return {str(kinds): round(points[kinds] / total, 3) if total else 0.0 for kinds in (1, 2, 3)}


def measure(games: list[str], seeds: int, spread: float) -> dict:
    difficulties = made_up_difficulties(spread)
    report, pooled = {}, Counter()
    for game_id in games:
        row, game_points, game_asked = {}, Counter(), Counter()
        for pupil, ability in PUPILS.items():
            model = pupil_model(ability, difficulties)
            for pitched in (False, True):
                total, points, asked_at = Counter(), Counter(), Counter()
                for seed in range(seeds):
                    asked, counted, at = play(game_id, seed, model, pitched)
                    total, points, asked_at = total + asked, points + counted, asked_at + at
                count = sum(total.values())
                row[f"{pupil}_{'after' if pitched else 'before'}"] = {
                    "questions": count,
                    "shares": {kind: round(total[kind] / count, 3) for kind in sorted(total)} if count else {},
                }
                if pitched:
                    game_points, game_asked = game_points + points, game_asked + asked_at
        asked_after = {kind for key, value in row.items() if key.endswith("after") for kind in value["shares"]}
        asked_before = {kind for key, value in row.items() if key.endswith("before") for kind in value["shares"]}
        row["starved_after"] = sorted(asked_before - asked_after)
        row["points"] = sum(game_points.values())
        row["points_by_kinds"] = point_shares(game_points)
        row["questions_by_kinds"] = point_shares(game_asked)
        pooled += Counter({kinds: count / max(1, game_asked.total()) for kinds, count in game_asked.items()})
        report[game_id] = row
    pooled_total = sum(pooled.values())
    return {
        "games": report,
        "pooled_questions_by_kinds": {str(k): round(pooled[k] / pooled_total, 3) for k in (1, 2, 3)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--spread", type=float, default=0.8, help="sd of the made-up kind offsets, in logits")
    parser.add_argument("--games", help="comma-separated game ids (default: every game)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    games = args.games.split(",") if args.games else list(LESSONS)
    report = measure(games, args.seeds, args.spread)
    if args.json:
        print(json.dumps({"seeds": args.seeds, "spread": args.spread, **report}, indent=1))
        return
    for game_id, row in report["games"].items():
        by_kinds = ", ".join(f"{kinds}: {share:.0%}" for kinds, share in row["points_by_kinds"].items())
        asked = ", ".join(f"{kinds}: {share:.0%}" for kinds, share in row["questions_by_kinds"].items())
        print(f"\n{game_id}  (kinds asked before but never after: {row['starved_after'] or 'none'})")
        print(
            f"  {row['points']} drill points by the kinds they could choose from: {by_kinds}; questions asked: {asked}"
        )
        for key, value in row.items():
            if key in ("starved_after", "points", "points_by_kinds", "questions_by_kinds"):
                continue
            shares = ", ".join(f"{kind} {share:.0%}" for kind, share in value["shares"].items())
            print(f"  {key:<14} {value['questions']:>4} questions: {shares}")
    pooled = ", ".join(f"{kinds}: {share:.0%}" for kinds, share in report["pooled_questions_by_kinds"].items())
    print(f"\nevery game played as often: questions asked by the kinds their drill point could choose from {pooled}")


if __name__ == "__main__":
    main()
