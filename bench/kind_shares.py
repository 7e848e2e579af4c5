"""Which question kinds the games that offer several ask, before and after the lesson chose the kind for the pupil.

A drill point that can ask about more than one thing on the table chooses the kind (and
level) whose forecast success for the pupil is nearest their target
(:func:`tutor.drills.choose_question` with :class:`tutor.skill_model.progress.PupilPitch`);
before, it took the kind the lesson drew. This plays ``--seeds`` seeded lessons of each such game
(two players) through the pure lesson runner for a low, a middle and a high pupil (Elo ability
-1, 0, +1 in every skill) and counts the kinds asked: "before" with the pupil's levels alone
(the lesson's own order), "after" with the pitch. The question difficulties are made up, as no
school's answers are at hand: each kind's levels at the priors (-1.1, 0, +1.1) plus an offset
per kind drawn from a normal distribution (sd ``--spread``, seeded by the kind's name), so that
kinds differ as they would after a fit. It also counts the drill points that had more than one
kind to choose from. No kind may be starved: each is asked of some pupil.

    .venv/bin/python bench/kind_shares.py [--seeds 6] [--spread 0.8] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor.answer_key import right_answer, wrong_answer  # noqa: E402
from tutor.engine.play import bot_rng, make_bots  # noqa: E402
from tutor.lessons import LESSONS  # noqa: E402
from tutor.lessons.base import move_token  # noqa: E402
from tutor.lessons.runner import FINISHED, PUPIL, LessonRun  # noqa: E402
from tutor.models import SkillRecord  # noqa: E402
from tutor.skill_model import elo, progress, skills  # noqa: E402

LOCALE = "en"
MAX_STEPS = 5000
#: The games whose drill points choose among several kinds, with the kinds they may ask there.
GAMES = {
    "twenty-nine": [
        "twentynine_missing_value",
        "twentynine_which_card",
        "twentynine_number_played",
        "twentynine_king_played",
        "twentynine_queen_played",
        "twentynine_bust",
    ],
    "fraction-master": [
        "fraction_from_hand",
        "fraction_in_interval",
        "fraction_larger",
        "fraction_order",
        "fraction_equivalent",
    ],
    "multimatch": ["factor_pair_cards", "multiply_top_numbers"],
    "crazy-banana-overslag": ["estimate_card_sum", "exact_card_sum"],
    "crazy-banana-tiervenner": ["tens_friend_number", "tens_friend_card"],
    "crazy-banana-extreme": ["estimate_card_sum", "exact_card_sum", "mean_estimate", "mean_exact", "prime_which_sum"],
}
PUPILS = {"low": -1.0, "middle": 0.0, "high": 1.0}


class CountingPitch(progress.PupilPitch):
    """The app's pitch, counting the drill points that had a choice of kinds."""

    def __init__(self, model: progress.PupilModel) -> None:
        super().__init__(lambda: model)
        self.counts = Counter()  # shared by the copies the runner makes (:meth:`tutor.drills.Pitch.avoiding`)

    def ranked(self, offers):
        self.counts["points"] += 1
        self.counts["with_choice"] += len({offer.kind for offer in offers}) > 1
        return super().ranked(offers)


def made_up_difficulties(spread: float) -> dict:
    """Every kind's levels at the priors plus the kind's own offset (seeded by its name)."""
    table = {}
    for kind in {kind for kinds in GAMES.values() for kind in kinds}:
        offset = random.Random(f"kind:{kind}").gauss(0, spread)
        for skill in skills.SKILLS:
            for level, prior in progress.PRIOR_DIFFICULTY.items():
                table[skill, kind, level] = elo.Rating(prior + offset, 100)
    return table


def pupil_model(ability: float, difficulties: dict) -> progress.PupilModel:
    records = {skill: SkillRecord(skill=skill, ability=ability, ability_count=50) for skill in skills.SKILLS}
    return progress.PupilModel(1, records, {}, difficulties)


def play(game_id: str, seed: int, model: progress.PupilModel, pitched: bool) -> tuple[Counter, CountingPitch]:
    """One seeded two-player lesson: the kinds asked, and the pitch that counted the choices."""
    lesson = LESSONS[game_id]
    pitch = CountingPitch(model)
    levels = pitch if pitched else dict(pitch)
    run = LessonRun.start(lesson, 2, {}, ["strong"], seed, now_ms=0)
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
            wrong = wrong_answer(question, LOCALE) if answers.random() < 0.25 and run.drill.tries == 0 else None
            run.answer(wrong if wrong is not None else right_answer(question, LOCALE), LOCALE, now)
        elif question is not None:
            run.close_question(lesson, levels, now)
        else:
            state = run.game_state()
            move = pupil_bot.choose(state.player_view(PUPIL), state.legal_moves(), bot_rng(seed, len(run.moves)))
            run.move(move_token(move), lesson, levels, now)
    return asked, pitch


def measure(seeds: int, spread: float) -> dict:
    difficulties = made_up_difficulties(spread)
    report = {}
    for game_id in GAMES:
        row = {}
        for pupil, ability in PUPILS.items():
            model = pupil_model(ability, difficulties)
            for pitched in (False, True):
                total, points, with_choice = Counter(), 0, 0
                for seed in range(seeds):
                    asked, pitch = play(game_id, seed, model, pitched)
                    total += asked
                    points, with_choice = points + pitch.counts["points"], with_choice + pitch.counts["with_choice"]
                count = sum(total.values())
                row[f"{pupil}_{'after' if pitched else 'before'}"] = {
                    "questions": count,
                    "shares": {kind: round(total[kind] / count, 3) for kind in sorted(total)} if count else {},
                    **({"points_with_a_choice": round(with_choice / points, 3) if points else None} if pitched else {}),
                }
        asked_after = {kind for key, value in row.items() if key.endswith("after") for kind in value["shares"]}
        asked_before = {kind for key, value in row.items() if key.endswith("before") for kind in value["shares"]}
        row["starved_after"] = sorted(asked_before - asked_after)
        report[game_id] = row
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--spread", type=float, default=0.8, help="sd of the made-up kind offsets, in logits")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = measure(args.seeds, args.spread)
    if args.json:
        print(json.dumps({"seeds": args.seeds, "spread": args.spread, "games": report}, indent=1))
        return
    for game_id, row in report.items():
        print(f"\n{game_id}  (kinds asked before but never after: {row['starved_after'] or 'none'})")
        for key, value in row.items():
            if key == "starved_after":
                continue
            shares = ", ".join(f"{kind} {share:.0%}" for kind, share in value["shares"].items())
            choice = value.get("points_with_a_choice")
            extra = f"; drill points with a choice {choice:.0%}" if choice is not None else ""
            print(f"  {key:<14} {value['questions']:>4} questions: {shares}{extra}")


if __name__ == "__main__":
    main()
