"""The skill model against pyBKT and PFA on two simulated populations of pupils.

Two seeded worlds, each with ``--pupils`` pupils answering ``--answers`` questions in each of
``--skills`` skills. Every skill has 3 question kinds with 3 levels each (as the drills have
levels 1 to 3), so 9 questions of different difficulty; the questions come in random order.

- **irt**: item response theory with learning. A pupil's ability in a skill is their general
  ability (normal, sd 1) plus a skill part (sd 0.5); it grows by the pupil's learning rate
  (uniform 0.01 to 0.06 logits) with every answer. A question's difficulty is the skill's
  (sd 0.5) plus its kind's (-0.8, 0, +0.8, sd 0.2 each) plus its level's (-1.2, 0, +1.2).
  P(right) = 1 / (1 + e^(difficulty - ability)). The pupil "knows" the skill when a
  question of the middle kind and level is more likely right than wrong.
- **bkt**: BKT with known parameters drawn per skill (start 0.05-0.5, learning 0.05-0.3,
  slip 0.03-0.2, guess 0.05-0.3), simulated by :func:`tutor.skill_fit.simulate`; the
  question's kind and level make no difference.

The first 80 % of the pupils train, the other 20 % are predicted answer by answer (the
chance of a right answer before each answer is given). The models:

- **ours**: the app's model today, :func:`tutor.skills.update` with the default parameters
  for every skill; P(right) = P(known) (1 - slip) + (1 - P(known)) guess.
- **ours_fitted**: the same update with parameters fitted per skill on the training pupils
  by :func:`tutor.skill_fit.fit`.
- **elo**: :mod:`tutor.elo` alone: question difficulties learned from the training pupils
  (their answers taken in turns, as a class plays); a test pupil's ability in each new skill
  starts from their abilities in the skills before (:func:`tutor.elo.start`).
- **pybkt**: pyBKT 1.4.3 (standard BKT) fitted per skill on the training pupils, predicting
  the test pupils. One fit per skill (``--pybkt-fits``; pyBKT's default is 5 random
  restarts): its pure-Python EM takes about 4 s per iteration on one skill's 16,000
  answers, and on these worlds every restart reaches the same likelihood (our own fit
  keeps 5 restarts).
- **pfa**: Performance Factors Analysis (Pavlik, Cen & Koedinger 2009): logistic regression
  (scikit-learn) on a per-skill intercept and per-skill counts of earlier right and wrong
  answers.

Also: the **false-mastery rate** (of the times P(known) reaches 0.95 after an answer, the
share where the simulated pupil does not know the skill) for ours and ours_fitted, and for
ours_fitted at the stricter thresholds 0.98 and 0.99; the
**success rate under adaptive selection** for new low, middle and high ability pupils
(general ability -1, 0, +1) of the irt world, who get the question :func:`tutor.elo.choose_difficulty`
picks for a success of 0.75 with the difficulties learned from the training pupils, beside
the best the 9 questions allow (the same choice made with the true ability and
difficulties) and today's choice of level by P(known) (:func:`tutor.drills.difficulty_for`);
and the time of one update in µs.

pyBKT and scikit-learn are benchmark dependencies only: ``make bench-skills`` makes their own
virtual environment (.venv-bench). Without them the pybkt and pfa rows are left out.

    .venv-bench/bin/python bench/skill_model.py [--quick] [--json] [--pupils 500] [--skills 15] [--answers 40]
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
import timeit
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor import elo, skill_fit, skills  # noqa: E402
from tutor.drills import difficulty_for  # noqa: E402

KINDS = {0: -0.8, 1: 0.0, 2: 0.8}
LEVELS = {1: -1.2, 2: 0.0, 3: 1.2}
ITEMS = [(kind, level) for kind in KINDS for level in LEVELS]
MIDDLE = (1, 2)
TRAIN_SHARE = 0.8
GROUPS = {"low": -1.0, "middle": 0.0, "high": 1.0}
MODELS = ("ours", "ours_fitted", "elo", "pybkt", "pfa")
THRESHOLDS = (skills.DEFAULT_PARAMS.mastery, 0.98, 0.99)  # mastery thresholds whose false claims are counted


@dataclass
class Answer:
    item: tuple[int, int]
    correct: bool
    knows_after: bool  # whether the pupil knows the skill after this answer (and its learning)


@dataclass
class World:
    name: str
    skills: list[str]
    pupils: list[dict[str, list[Answer]]]  # per pupil, per skill, the answers in order
    truth: dict  # irt: each skill's question difficulties; bkt: each skill's parameters


def irt_skill(rng: random.Random) -> dict:
    """A skill of the irt world: the difficulty of each of its questions."""
    base = rng.gauss(0, 0.5)
    kinds = {kind: base + offset + rng.gauss(0, 0.2) for kind, offset in KINDS.items()}
    return {"difficulty": {(kind, level): kinds[kind] + offset for kind in KINDS for level, offset in LEVELS.items()}}


def irt_answers(skill: dict, ability: float, rate: float, length: int, rng: random.Random) -> list[Answer]:
    """One pupil's answers in one skill of the irt world, questions in random order."""
    middle = skill["difficulty"][MIDDLE]
    answers = []
    for _ in range(length):
        item = rng.choice(ITEMS)
        correct = rng.random() < elo.expected(ability, skill["difficulty"][item])
        ability += rate
        answers.append(Answer(item, correct, ability > middle))
    return answers


def irt_world(pupils: int, skill_names: list[str], length: int, seed: int) -> World:
    rng = random.Random(f"irt:{seed}")
    truth = {skill: irt_skill(rng) for skill in skill_names}
    population = []
    for _ in range(pupils):
        general, rate = rng.gauss(0, 1), rng.uniform(0.01, 0.06)
        population.append({skill: irt_answers(truth[skill], general + rng.gauss(0, 0.5), rate, length, rng) for skill in skill_names})
    return World("irt", skill_names, population, truth)


def bkt_world(pupils: int, skill_names: list[str], length: int, seed: int) -> World:
    rng = random.Random(f"bkt:{seed}")
    truth = {
        skill: skill_fit.Fitted(p_init=rng.uniform(0.05, 0.5), p_learn=rng.uniform(0.05, 0.3), p_slip=rng.uniform(0.03, 0.2), p_guess=rng.uniform(0.05, 0.3))
        for skill in skill_names
    }
    population = []
    for _ in range(pupils):
        pupil = {}
        for skill in skill_names:
            correct, known = skill_fit.simulate(truth[skill], length, rng)
            pupil[skill] = [Answer(rng.choice(ITEMS), right, known[t + 1]) for t, right in enumerate(correct)]
        population.append(pupil)
    return World("bkt", skill_names, population, truth)


# --- the models: each gives P(right) before every test answer, in the order of test_answers() ---


def test_answers(world: World, test: list[dict]) -> list[bool]:
    return [answer.correct for pupil in test for skill in world.skills for answer in pupil[skill]]


def bkt_predictions(world: World, test: list[dict], params: dict[str, skills.Params]) -> tuple[list[float], dict[float, list[bool]]]:
    """P(right) by the app's update with the given parameters per skill, and per mastery threshold whether each claim was false."""
    predictions, false_claims = [], {threshold: [] for threshold in THRESHOLDS}
    for pupil in test:
        for skill in world.skills:
            state = skills.fresh(params[skill])
            for answer in pupil[skill]:
                p = state.p_known
                predictions.append(p * (1 - params[skill].p_slip) + (1 - p) * params[skill].p_guess)
                state = skills.update(state, answer.correct, params[skill])
                for threshold, claims in false_claims.items():
                    if state.p_known >= threshold > p:
                        claims.append(not answer.knows_after)
    return predictions, false_claims


def train_elo(world: World, train: list[dict]) -> dict:
    """Question difficulties learned from the training pupils, answering in turns as a class does."""
    difficulties = {(skill, item): elo.Rating() for skill in world.skills for item in ITEMS}
    abilities = {(number, skill): elo.Rating() for number in range(len(train)) for skill in world.skills}
    length = max(len(answers) for pupil in train for answers in pupil.values())
    for t in range(length):
        for number, pupil in enumerate(train):
            for skill in world.skills:
                if t < len(pupil[skill]):
                    answer = pupil[skill][t]
                    key = (skill, answer.item)
                    abilities[number, skill], difficulties[key] = elo.update(abilities[number, skill], difficulties[key], answer.correct)
    return difficulties


def elo_predictions(world: World, test: list[dict], difficulties: dict) -> list[float]:
    difficulties = dict(difficulties)
    predictions = []
    for pupil in test:
        practised = []
        for skill in world.skills:
            ability = elo.start(practised)
            for answer in pupil[skill]:
                key = (skill, answer.item)
                predictions.append(elo.expected(ability.value, difficulties[key].value))
                ability, difficulties[key] = elo.update(ability, difficulties[key], answer.correct)
            practised.append(ability)
    return predictions


def pfa_predictions(world: World, train: list[dict], test: list[dict]) -> list[float] | None:
    try:
        from sklearn.linear_model import LogisticRegression
    except ImportError:
        return None
    column = {skill: 3 * number for number, skill in enumerate(world.skills)}

    def rows(pupils):
        features, labels = [], []
        for pupil in pupils:
            for skill in world.skills:
                right = wrong = 0
                for answer in pupil[skill]:
                    row = [0.0] * (3 * len(world.skills))
                    row[column[skill]], row[column[skill] + 1], row[column[skill] + 2] = 1.0, right, wrong
                    features.append(row)
                    labels.append(int(answer.correct))
                    right, wrong = right + answer.correct, wrong + (not answer.correct)
        return features, labels

    model = LogisticRegression(fit_intercept=False, C=100.0, max_iter=2000)
    model.fit(*rows(train))
    return [float(p) for p in model.predict_proba(rows(test)[0])[:, 1]]


def pybkt_fit_predict(job: tuple) -> dict[int, float] | None:
    """pyBKT fitted on one skill's training rows; its P(right) for each test row, by order id."""
    train_rows, test_rows, fits, seed = job
    try:
        import pandas as pd
        from pyBKT.models import Model
    except ImportError:
        return None
    columns = ["order_id", "user_id", "skill_name", "correct"]
    model = Model(seed=seed, num_fits=fits, parallel=False)
    model.fit(data=pd.DataFrame(train_rows, columns=columns))
    predicted = model.predict(data=pd.DataFrame(test_rows, columns=columns))
    return dict(zip(predicted["order_id"].tolist(), predicted["correct_predictions"].tolist()))


def order_id(pupil: int, t: int) -> int:
    """pyBKT's order id of a pupil's answer t in a skill, unique over all pupils."""
    return pupil * 10_000 + t + 1


def pybkt_rows(pupils: list[dict], skill: str, first_pupil: int) -> list[tuple]:
    return [(order_id(first_pupil + number, t), first_pupil + number, skill, int(answer.correct)) for number, pupil in enumerate(pupils) for t, answer in enumerate(pupil[skill])]


def fit_skill(job: tuple) -> skill_fit.Fitted | None:
    sequences, seed = job
    return skill_fit.fit(sequences, seed=seed)


# --- measures ---


def auc(labels: list[bool], scores: list[float]) -> float:
    """The area under the ROC curve, by the rank sum (ties share their mean rank)."""
    order = sorted(range(len(scores)), key=scores.__getitem__)
    ranks = [0.0] * len(scores)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and scores[order[end + 1]] == scores[order[start]]:
            end += 1
        for place in range(start, end + 1):
            ranks[order[place]] = (start + end) / 2 + 1
        start = end + 1
    positives = sum(labels)
    negatives = len(labels) - positives
    rank_sum = sum(rank for rank, label in zip(ranks, labels) if label)
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


def scores(labels: list[bool], predictions: list[float]) -> dict[str, float]:
    clipped = [min(max(p, 1e-6), 1 - 1e-6) for p in predictions]
    rmse = math.sqrt(statistics.fmean((label - p) ** 2 for label, p in zip(labels, predictions)))
    logloss = -statistics.fmean(math.log(p if label else 1 - p) for label, p in zip(labels, clipped))
    return {"auc": round(auc(labels, predictions), 4), "rmse": round(rmse, 4), "logloss": round(logloss, 4)}


def rate(claims: list[bool]) -> dict:
    return {"rate": round(sum(claims) / len(claims), 4) if claims else None, "claims": len(claims)}


def probabilities(fitted: skill_fit.Fitted) -> dict[str, float]:
    return {name: round(value, 3) for name, value in fitted.to_dict().items() if name.startswith("p_")}


def evaluate(world: World, pool, seed: int, pybkt_fits: int) -> tuple[dict, dict, dict, dict]:
    """The scores of every model on one world, its false-mastery rates, the fitted parameters and the trained Elo difficulties."""
    cut = round(len(world.pupils) * TRAIN_SHARE)
    train, test = world.pupils[:cut], world.pupils[cut:]
    labels = test_answers(world, test)
    pybkt_jobs = [(pybkt_rows(train, skill, 0), pybkt_rows(test, skill, cut), pybkt_fits, seed) for skill in world.skills]
    pybkt_async = pool.map_async(pybkt_fit_predict, pybkt_jobs) if pybkt_fits else None
    fitted = pool.map(fit_skill, [([[answer.correct for answer in pupil[skill]] for pupil in train], seed) for skill in world.skills])
    params = {skill: fit.params() if fit else skills.DEFAULT_PARAMS for skill, fit in zip(world.skills, fitted)}
    today, today_claims = bkt_predictions(world, test, dict.fromkeys(world.skills, skills.DEFAULT_PARAMS))
    ours_fitted, fitted_claims = bkt_predictions(world, test, params)
    difficulties = train_elo(world, train)
    results = {
        "ours": scores(labels, today),
        "ours_fitted": scores(labels, ours_fitted),
        "elo": scores(labels, elo_predictions(world, test, difficulties)),
    }
    pybkt = pybkt_async.get() if pybkt_async else None
    if pybkt and all(pybkt):
        by_skill = dict(zip(world.skills, pybkt))
        in_order = [by_skill[skill][order_id(cut + number, t)] for number, pupil in enumerate(test) for skill in world.skills for t in range(len(pupil[skill]))]
        results["pybkt"] = scores(labels, in_order)
    pfa = pfa_predictions(world, train, test)
    if pfa is not None:
        results["pfa"] = scores(labels, pfa)
    results = {model: results[model] for model in MODELS if model in results}
    mastery = {
        "ours": rate(today_claims[THRESHOLDS[0]]),
        "ours_fitted": rate(fitted_claims[THRESHOLDS[0]]),
        "ours_fitted_by_threshold": {str(threshold): rate(claims) for threshold, claims in fitted_claims.items()},
    }
    return results, mastery, {skill: probabilities(fit) for skill, fit in zip(world.skills, fitted) if fit}, difficulties


def adaptive_success(world: World, difficulties: dict, pupils: int, length: int, seed: int) -> dict[str, dict]:
    """Success rates of new irt pupils by ability group under three choices of question.

    elo: :func:`tutor.elo.choose_difficulty` at 0.75 with the learned difficulties and the
    pupil's Elo ability; best: the same choice made with the true ability and difficulties
    (what the 9 questions allow at best); today: a random kind at the level
    :func:`tutor.drills.difficulty_for` gives for the default BKT's P(known).
    """
    rng = random.Random(f"adaptive:{seed}")
    rates = {"elo": {}, "best": {}, "today": {}}
    for group, general in GROUPS.items():
        right = dict.fromkeys(rates, 0)
        total = 0
        for _ in range(pupils):
            growth = rng.uniform(0.01, 0.06)
            practised = []
            for skill in world.skills:
                truth = world.truth[skill]["difficulty"]
                ability = dict.fromkeys(rates, general + rng.gauss(0, 0.5))
                rating, table, state = elo.start(practised), dict(difficulties), skills.fresh()
                for _ in range(length):
                    item = {
                        "elo": elo.choose_difficulty(rating.value, {item: table[skill, item].value for item in ITEMS}),
                        "best": elo.choose_difficulty(ability["best"], truth),
                        "today": (rng.choice(list(KINDS)), difficulty_for(state.p_known)),
                    }
                    correct = {choice: rng.random() < elo.expected(ability[choice], truth[item[choice]]) for choice in rates}
                    rating, table[skill, item["elo"]] = elo.update(rating, table[skill, item["elo"]], correct["elo"])
                    state = skills.update(state, correct["today"])
                    for choice in rates:
                        ability[choice] += growth
                        right[choice] += correct[choice]
                    total += 1
                practised.append(rating)
        for choice in rates:
            rates[choice][group] = round(right[choice] / total, 4)
    return rates


def update_us() -> dict[str, float]:
    """The time of one update, the best of five runs of many."""
    state, ability, difficulty = skills.fresh(), elo.Rating(0.3, 12), elo.Rating(-0.2, 400)
    runs = {
        "skills_update": lambda: skills.update(state, True),
        "skills_update_choice_hint": lambda: skills.update(state, True, skills.DEFAULT_PARAMS, 0.25, 1),
        "elo_update": lambda: elo.update(ability, difficulty, True),
        "elo_choose_9_levels": lambda: elo.choose_difficulty(0.4, {item: 0.1 * number for number, item in enumerate(ITEMS)}),
    }
    return {name: round(min(timeit.repeat(run, number=20000, repeat=5)) / 20000 * 1e6, 2) for name, run in runs.items()}


def goals(report: dict) -> list[dict]:
    """The issue's goals with the measured figures; our best BKT or Elo model stands for "ours"."""
    irt, bkt = report["populations"]["irt"], report["populations"]["bkt"]
    checks = []

    best = max(("ours", "ours_fitted", "elo"), key=lambda model: irt[model]["auc"])
    for baseline in ("pybkt", "pfa"):
        if baseline in irt:
            checks.append({"goal": f"irt: our AUC >= {baseline}", best: irt[best]["auc"], baseline: irt[baseline]["auc"], "met": irt[best]["auc"] >= irt[baseline]["auc"]})
    if "pybkt" in bkt:
        gap = bkt["ours_fitted"]["auc"] - bkt["pybkt"]["auc"]
        checks.append({"goal": "bkt: ours_fitted AUC within 0.01 of pybkt", "gap": round(gap, 4), "met": abs(gap) <= 0.01 or gap > 0})
    if "pfa" in bkt:
        checks.append({"goal": "bkt: ours_fitted AUC >= pfa", "ours_fitted": bkt["ours_fitted"]["auc"], "pfa": bkt["pfa"]["auc"], "met": bkt["ours_fitted"]["auc"] >= bkt["pfa"]["auc"]})
    for population in ("bkt", "irt"):
        for model in ("ours", "ours_fitted"):
            value = report["false_mastery"][population][model]["rate"]
            checks.append({"goal": f"{population}: false mastery of {model} <= 0.05", "rate": value, "met": value is not None and value <= 0.05})
    for group, value in report["success_rate"].items():
        checks.append({"goal": f"success rate {group} 0.75 +- 0.05", "rate": value, "met": abs(value - 0.75) <= 0.05})
    for name in ("skills_update", "elo_update"):
        checks.append({"goal": f"{name} <= 50 us", "us": report["update_us"][name], "met": report["update_us"][name] <= 50})
    return checks


def run(pupils: int, skill_count: int, length: int, seed: int, pybkt_fits: int, adaptive_pupils: int) -> dict:
    started = time.perf_counter()
    skill_names = list(skills.SKILLS[:skill_count])
    report = {"populations": {}, "false_mastery": {}, "fitted": {}}
    with multiprocessing.Pool(2) as pool:
        for world in (irt_world(pupils, skill_names, length, seed), bkt_world(pupils, skill_names, length, seed)):
            results, mastery, fitted, difficulties = evaluate(world, pool, seed, pybkt_fits)
            report["populations"][world.name] = results
            report["false_mastery"][world.name] = mastery
            report["fitted"][world.name] = fitted
            if world.name == "irt":
                rates = adaptive_success(world, difficulties, adaptive_pupils, length, seed)
                report["success_rate"], report["success_rate_best"], report["success_rate_today"] = rates["elo"], rates["best"], rates["today"]
            else:
                report["fitted"]["bkt_truth"] = {skill: probabilities(truth) for skill, truth in world.truth.items()}
    report["update_us"] = update_us()
    report["goals"] = goals(report)
    report["settings"] = {"pupils": pupils, "skills": skill_count, "answers": length, "seed": seed, "pybkt_fits": pybkt_fits, "adaptive_pupils_per_group": adaptive_pupils, "seconds": round(time.perf_counter() - started, 1)}
    return report


def print_table(report: dict) -> None:
    settings = report["settings"]
    print(f"{settings['pupils']} pupils x {settings['skills']} skills x {settings['answers']} answers; train 80 %, test 20 %; seed {settings['seed']}")
    for population, results in report["populations"].items():
        print(f"\n{population} population      AUC     RMSE    log-loss")
        for model, figures in results.items():
            print(f"  {model:<16} {figures['auc']:.4f}  {figures['rmse']:.4f}  {figures['logloss']:.4f}")
    print(f"\nfalse mastery (P(known) reaches {THRESHOLDS[0]}, or the threshold shown, while the pupil does not know the skill)")
    for population, models in report["false_mastery"].items():
        rows = [(model, figures) for model, figures in models.items() if model != "ours_fitted_by_threshold"]
        rows += [(f"ours_fitted at {threshold}", figures) for threshold, figures in models["ours_fitted_by_threshold"].items() if float(threshold) != THRESHOLDS[0]]
        for model, figures in rows:
            shown = "-" if figures["rate"] is None else f"{figures['rate']:.1%}"
            print(f"  {population:<4} {model:<22} {shown:>6} of {figures['claims']} claims")
    print("\nsuccess rate of new irt pupils   elo at 0.75   best possible   today (level by P(known))")
    for group, value in report["success_rate"].items():
        print(f"  {group:<8} {value:>24.3f} {report['success_rate_best'][group]:>15.3f} {report['success_rate_today'][group]:>7.3f}")
    print("\nupdate time per answer (µs)")
    for name, value in report["update_us"].items():
        print(f"  {name:<28} {value:.2f}")
    print("\ngoals")
    for check in report["goals"]:
        figures = ", ".join(f"{key} {value}" for key, value in check.items() if key not in ("goal", "met"))
        print(f"  {'met ' if check['met'] else 'MISS'}  {check['goal']}: {figures}")
    print(f"\n{settings['seconds']} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="60 pupils x 3 skills x 20 answers, pyBKT with one fit: under a minute")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--pupils", type=int)
    parser.add_argument("--skills", type=int)
    parser.add_argument("--answers", type=int)
    parser.add_argument("--pybkt-fits", type=int, help="pyBKT's random restarts per skill (default 1; 0 leaves pyBKT out)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    quick = {"pupils": 60, "skills": 3, "answers": 20, "pybkt_fits": 1, "adaptive": 20}
    full = {"pupils": 500, "skills": 15, "answers": 40, "pybkt_fits": 1, "adaptive": 100}
    size = quick if args.quick else full
    report = run(
        args.pupils or size["pupils"],
        args.skills or size["skills"],
        args.answers or size["answers"],
        args.seed,
        size["pybkt_fits"] if args.pybkt_fits is None else args.pybkt_fits,
        size["adaptive"],
    )
    if args.json:
        print(json.dumps(report))
    else:
        print_table(report)


if __name__ == "__main__":
    main()
