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
  slip 0.03-0.2, guess 0.05-0.3), simulated by :func:`tutor.skill_model.fitting.simulate`; the
  question's kind and level make no difference.

The first 80 % of the pupils train, the other 20 % are predicted answer by answer (the
chance of a right answer before each answer is given). The models:

- **ours**: the app's model: per skill, BKT with parameters fitted on the training pupils,
  Elo, and the :class:`tutor.skill_model.forecast.Blend` of their two chances fitted by
  :func:`tutor.skill_model.forecast.fit_blend` on the training pupils' answers (BKT's chance in-sample,
  Elo's as the class replay gave it before each answer). Falls back to Elo alone where a
  skill has too few answers, as the app does.
- **ours_default**: :func:`tutor.skill_model.skills.update` with the default parameters for every skill
  (the app before ``kortmatte skills fit``); P(right) = :func:`tutor.skill_model.forecast.bkt_chance`.
- **bkt_fitted**: the same update with parameters fitted per skill on the training pupils
  by :func:`tutor.skill_model.fitting.fit` (the BKT half of ours).
- **elo**: :mod:`tutor.skill_model.elo` alone (the Elo half of ours): question difficulties learned from
  the training pupils (their answers taken in turns, as a class plays); a test pupil's
  ability in each new skill starts from their abilities in the skills before
  (:func:`tutor.skill_model.elo.start`).
- **pybkt**: pyBKT 1.4.3 (standard BKT) fitted per skill on the training pupils, predicting
  the test pupils. One fit per skill (``--pybkt-fits``; pyBKT's default is 5 random
  restarts): its pure-Python EM takes about 4 s per iteration on one skill's 16,000
  answers, and on these worlds every restart reaches the same likelihood (our own fit
  keeps 5 restarts).
- **pfa**: Performance Factors Analysis (Pavlik, Cen & Koedinger 2009): logistic regression
  (scikit-learn) on a per-skill intercept and per-skill counts of earlier right and wrong
  answers.

Also the **false-mastery rate**, read two ways, for ours (the app declares "mastered" when
the fitted BKT's P(known) reaches 0.95) and ours_default: **while_declared**, of all answers
after which the skill stands as mastered, the share where the simulated pupil does not know
it (the issue's goal); **at_declaration**, of the times P(known) crosses the threshold, the
share where the pupil does not know it (stricter: it counts only the first, least certain
moment). Both also at the stricter thresholds 0.98 and 0.99.

The **success rate under adaptive selection** for new low, middle and high ability pupils
(general ability -1, 0, +1) of the irt world, who get the question :func:`tutor.skill_model.elo.choose_difficulty`
picks among the 9 for a success of 0.75 with the difficulties learned from the training
pupils, beside the best the 9 questions allow (the same choice made with the true ability
and difficulties) and the app's choice, which picks only the level (by the mean difficulty
of its kinds, as :func:`tutor.skill_model.progress.choose_levels` does) while the game decides the
kind (here at random). And the time per answer in µs of each update and of the forecast.

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

from tutor import skills  # noqa: E402
from tutor.skill_model import elo, fitting, forecast

KINDS = {0: -0.8, 1: 0.0, 2: 0.8}
LEVELS = {1: -1.2, 2: 0.0, 3: 1.2}
ITEMS = [(kind, level) for kind in KINDS for level in LEVELS]
MIDDLE = (1, 2)
TRAIN_SHARE = 0.8
GROUPS = {"low": -1.0, "middle": 0.0, "high": 1.0}
MODELS = ("ours", "ours_default", "bkt_fitted", "elo", "pybkt", "pfa")
THRESHOLDS = (skills.DEFAULT_PARAMS.mastery, 0.98, 0.99)  # mastery thresholds whose false claims are counted
READINGS = ("while_declared", "at_declaration")  # of false mastery: the issue's, and the stricter one


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
        population.append(
            {skill: irt_answers(truth[skill], general + rng.gauss(0, 0.5), rate, length, rng) for skill in skill_names}
        )
    return World("irt", skill_names, population, truth)


def bkt_world(pupils: int, skill_names: list[str], length: int, seed: int) -> World:
    rng = random.Random(f"bkt:{seed}")
    truth = {
        skill: fitting.Fitted(
            p_init=rng.uniform(0.05, 0.5),
            p_learn=rng.uniform(0.05, 0.3),
            p_slip=rng.uniform(0.03, 0.2),
            p_guess=rng.uniform(0.05, 0.3),
        )
        for skill in skill_names
    }
    population = []
    for _ in range(pupils):
        pupil = {}
        for skill in skill_names:
            correct, known = fitting.simulate(truth[skill], length, rng)
            pupil[skill] = [Answer(rng.choice(ITEMS), right, known[t + 1]) for t, right in enumerate(correct)]
        population.append(pupil)
    return World("bkt", skill_names, population, truth)


# --- the models: each gives P(right) before every answer, pupil by pupil, skill by skill, in order ---


def answers_of(world: World, pupils: list[dict]) -> list[tuple[str, bool]]:
    """Each answer's skill and whether it was right, in the order the predictions take."""
    return [(skill, answer.correct) for pupil in pupils for skill in world.skills for answer in pupil[skill]]


def bkt_predictions(
    world: World, pupils: list[dict], params: dict[str, skills.Params]
) -> tuple[list[float], dict[str, dict[float, list[bool]]]]:
    """P(right) by the app's update with the given parameters per skill, and whether each claim of mastery was false.

    The claims per reading and threshold: while_declared after every answer that leaves
    P(known) at or above it, at_declaration only when that answer raised P(known) past it.
    """
    predictions = []
    false_claims = {reading: {threshold: [] for threshold in THRESHOLDS} for reading in READINGS}
    for pupil in pupils:
        for skill in world.skills:
            state = skills.fresh(params[skill])
            for answer in pupil[skill]:
                before = state.p_known
                predictions.append(forecast.bkt_chance(before, params[skill].p_slip, params[skill].p_guess))
                state = skills.update(state, answer.correct, params[skill])
                for threshold in THRESHOLDS:
                    if state.p_known >= threshold:
                        false_claims["while_declared"][threshold].append(not answer.knows_after)
                        if before < threshold:
                            false_claims["at_declaration"][threshold].append(not answer.knows_after)
    return predictions, false_claims


def train_elo(world: World, train: list[dict]) -> tuple[dict, list[float]]:
    """Question difficulties learned from the training pupils answering in turns as a class does, and Elo's P(right)
    before each of their answers."""
    difficulties = {(skill, item): elo.Rating() for skill in world.skills for item in ITEMS}
    abilities = {(number, skill): elo.Rating() for number in range(len(train)) for skill in world.skills}
    chances = {key: [] for key in abilities}
    length = max(len(answers) for pupil in train for answers in pupil.values())
    for t in range(length):
        for number, pupil in enumerate(train):
            for skill in world.skills:
                if t < len(pupil[skill]):
                    answer = pupil[skill][t]
                    key = (skill, answer.item)
                    chances[number, skill].append(elo.expected(abilities[number, skill].value, difficulties[key].value))
                    abilities[number, skill], difficulties[key] = elo.update(
                        abilities[number, skill], difficulties[key], answer.correct
                    )
    return difficulties, [p for number in range(len(train)) for skill in world.skills for p in chances[number, skill]]


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
    return [
        (order_id(first_pupil + number, t), first_pupil + number, skill, int(answer.correct))
        for number, pupil in enumerate(pupils)
        for t, answer in enumerate(pupil[skill])
    ]


def fit_skill(job: tuple) -> fitting.Fitted | None:
    sequences, seed = job
    return fitting.fit(sequences, seed=seed)


def fit_blends(world: World, train: list[dict], p_bkt: list[float], p_elo: list[float]) -> dict[str, forecast.Blend]:
    """Per skill the blend fitted on the training pupils' answers, or Elo alone with too few of them (as the app)."""
    rows = {skill: [] for skill in world.skills}
    for (skill, correct), bkt_chance, elo_chance in zip(answers_of(world, train), p_bkt, p_elo):
        rows[skill].append((bkt_chance, elo_chance, correct))
    return {skill: forecast.fit_blend(rows[skill]) or forecast.ELO_ONLY for skill in world.skills}


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


def probabilities(fitted: fitting.Fitted) -> dict[str, float]:
    return {name: round(value, 3) for name, value in fitted.to_dict().items() if name.startswith("p_")}


def false_mastery(claims: dict[str, dict[float, list[bool]]], threshold: float) -> dict[str, dict]:
    return {reading: rate(claims[reading][threshold]) for reading in READINGS}


def evaluate(world: World, pool, seed: int, pybkt_fits: int) -> tuple[dict, dict, dict, dict]:
    """The scores of every model on one world, its false-mastery rates, the fitted parameters and blends, and the
    trained Elo difficulties."""
    cut = round(len(world.pupils) * TRAIN_SHARE)
    train, test = world.pupils[:cut], world.pupils[cut:]
    test_answers = answers_of(world, test)
    labels = [correct for _, correct in test_answers]
    pybkt_jobs = [
        (pybkt_rows(train, skill, 0), pybkt_rows(test, skill, cut), pybkt_fits, seed) for skill in world.skills
    ]
    pybkt_async = pool.map_async(pybkt_fit_predict, pybkt_jobs) if pybkt_fits else None
    fitted = pool.map(
        fit_skill, [([[answer.correct for answer in pupil[skill]] for pupil in train], seed) for skill in world.skills]
    )
    params = {skill: fit.params() if fit else skills.DEFAULT_PARAMS for skill, fit in zip(world.skills, fitted)}
    difficulties, train_elo_chances = train_elo(world, train)
    blends = fit_blends(world, train, bkt_predictions(world, train, params)[0], train_elo_chances)
    default_bkt, default_claims = bkt_predictions(world, test, dict.fromkeys(world.skills, skills.DEFAULT_PARAMS))
    fitted_bkt, fitted_claims = bkt_predictions(world, test, params)
    elo_chances = elo_predictions(world, test, difficulties)
    ours = [
        blends[skill].chance(p_bkt, p_elo) for (skill, _), p_bkt, p_elo in zip(test_answers, fitted_bkt, elo_chances)
    ]
    results = {
        "ours": scores(labels, ours),
        "ours_default": scores(labels, default_bkt),
        "bkt_fitted": scores(labels, fitted_bkt),
        "elo": scores(labels, elo_chances),
    }
    pybkt = pybkt_async.get() if pybkt_async else None
    if pybkt and all(pybkt):
        by_skill = dict(zip(world.skills, pybkt))
        in_order = [
            by_skill[skill][order_id(cut + number, t)]
            for number, pupil in enumerate(test)
            for skill in world.skills
            for t in range(len(pupil[skill]))
        ]
        results["pybkt"] = scores(labels, in_order)
    pfa = pfa_predictions(world, train, test)
    if pfa is not None:
        results["pfa"] = scores(labels, pfa)
    results = {model: results[model] for model in MODELS if model in results}
    mastery = {
        "ours": false_mastery(fitted_claims, THRESHOLDS[0]),
        "ours_default": false_mastery(default_claims, THRESHOLDS[0]),
        "ours_by_threshold": {str(threshold): false_mastery(fitted_claims, threshold) for threshold in THRESHOLDS},
    }
    models = {
        skill: {
            "bkt": probabilities(fit) if fit else None,
            "blend": {name: round(value, 3) for name, value in blends[skill].to_dict().items()},
        }
        for skill, fit in zip(world.skills, fitted)
    }
    return results, mastery, models, difficulties


def adaptive_success(world: World, difficulties: dict, pupils: int, length: int, seed: int) -> dict[str, dict]:
    """Success rates of new irt pupils by ability group under three choices of question.

    elo: :func:`tutor.skill_model.elo.choose_difficulty` at 0.75 among the 9 questions with the learned
    difficulties and the pupil's Elo ability; best: the same choice made with the true
    ability and difficulties (what the 9 questions allow at best); app: a random kind (the
    game decides it) at the level chosen by the mean difficulty of its kinds, as
    :func:`tutor.skill_model.progress.choose_levels` does.
    """
    rng = random.Random(f"adaptive:{seed}")
    rates = {"elo": {}, "best": {}, "app": {}}
    for group, general in GROUPS.items():
        right = dict.fromkeys(rates, 0)
        total = 0
        for _ in range(pupils):
            growth = rng.uniform(0.01, 0.06)
            practised = {"elo": [], "app": []}
            for skill in world.skills:
                truth = world.truth[skill]["difficulty"]
                ability = dict.fromkeys(rates, general + rng.gauss(0, 0.5))
                rating = {choice: elo.start(practised[choice]) for choice in ("elo", "app")}
                table = {choice: dict(difficulties) for choice in rating}
                for _ in range(length):
                    levels = {
                        level: statistics.fmean(table["app"][skill, (kind, level)].value for kind in KINDS)
                        for level in LEVELS
                    }
                    item = {
                        "elo": elo.choose_difficulty(
                            rating["elo"].value, {item: table["elo"][skill, item].value for item in ITEMS}
                        ),
                        "best": elo.choose_difficulty(ability["best"], truth),
                        "app": (rng.choice(list(KINDS)), elo.choose_difficulty(rating["app"].value, levels)),
                    }
                    correct = {
                        choice: rng.random() < elo.expected(ability[choice], truth[item[choice]]) for choice in rates
                    }
                    for choice in rating:
                        key = (skill, item[choice])
                        rating[choice], table[choice][key] = elo.update(
                            rating[choice], table[choice][key], correct[choice]
                        )
                    for choice in rates:
                        ability[choice] += growth
                        right[choice] += correct[choice]
                    total += 1
                for choice, ratings in practised.items():
                    ratings.append(rating[choice])
        for choice in rates:
            rates[choice][group] = round(right[choice] / total, 4)
    return rates


def update_us() -> dict[str, float]:
    """The time of one update or forecast, the best of five runs of many."""
    state, ability, difficulty = skills.fresh(), elo.Rating(0.3, 12), elo.Rating(-0.2, 400)
    blend = forecast.Blend(0.8, 0.9, 0.1)
    runs = {
        "skills_update": lambda: skills.update(state, True),
        "skills_update_choice_hint": lambda: skills.update(state, True, skills.DEFAULT_PARAMS, 0.25, 1),
        "elo_update": lambda: elo.update(ability, difficulty, True),
        "elo_choose_9_levels": lambda: elo.choose_difficulty(
            0.4, {item: 0.1 * number for number, item in enumerate(ITEMS)}
        ),
        "blend_chance": lambda: blend.chance(0.62, 0.71),
    }
    return {name: round(min(timeit.repeat(run, number=20000, repeat=5)) / 20000 * 1e6, 2) for name, run in runs.items()}


def check(goal: str, margin: float, info: bool = False, **figures) -> dict:
    """One goal with its figures; ``margin`` is how far it is met (>= 0) or missed (< 0)."""
    return {"goal": goal, **figures, "margin": round(margin, 4), "met": margin >= 0, **({"info": True} if info else {})}


def goals(report: dict) -> list[dict]:
    """The issue's goals with the measured figures; "ours" is the app's model, the blend."""
    checks = []
    for population, results in report["populations"].items():
        ours = results["ours"]["auc"]
        for baseline in ("pybkt", "pfa"):
            if baseline in results:
                slack = 0.01 if (population, baseline) == ("bkt", "pybkt") else 0.0
                goal = f"{population}: ours AUC >= {baseline}" + (f" - {slack}" if slack else "")
                checks.append(
                    check(
                        goal, ours - results[baseline]["auc"] + slack, ours=ours, **{baseline: results[baseline]["auc"]}
                    )
                )
    for population, mastery in report["false_mastery"].items():
        for reading, info in (("while_declared", False), ("at_declaration", True)):
            value = mastery["ours"][reading]["rate"]
            goal = f"{population}: false mastery of ours {reading} <= 0.05" + (
                " (information: the stricter reading)" if info else ""
            )
            checks.append(check(goal, 0.05 - value if value is not None else -1.0, info, rate=value))
    for group, value in report["success_rate"].items():
        checks.append(check(f"success rate {group} 0.75 +- 0.05", 0.05 - abs(value - 0.75), rate=value))
    for name in ("skills_update", "elo_update", "blend_chance"):
        checks.append(check(f"{name} <= 50 us", 50 - report["update_us"][name], us=report["update_us"][name]))
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
                report["success_rate"], report["success_rate_best"], report["success_rate_app"] = (
                    rates["elo"],
                    rates["best"],
                    rates["app"],
                )
            else:
                report["fitted"]["bkt_truth"] = {skill: probabilities(truth) for skill, truth in world.truth.items()}
    report["update_us"] = update_us()
    report["goals"] = goals(report)
    report["settings"] = {
        "pupils": pupils,
        "skills": skill_count,
        "answers": length,
        "seed": seed,
        "pybkt_fits": pybkt_fits,
        "adaptive_pupils_per_group": adaptive_pupils,
        "seconds": round(time.perf_counter() - started, 1),
    }
    return report


def print_table(report: dict) -> None:
    settings = report["settings"]
    print(
        f"{settings['pupils']} pupils x {settings['skills']} skills x {settings['answers']} answers; train 80 %, test "
        f"20 %; seed {settings['seed']}"
    )
    for population, results in report["populations"].items():
        print(f"\n{population} population      AUC     RMSE    log-loss")
        for model, figures in results.items():
            print(f"  {model:<16} {figures['auc']:.4f}  {figures['rmse']:.4f}  {figures['logloss']:.4f}")
    print(
        f"\nfalse mastery: the pupil does not know the skill while P(known) >= {THRESHOLDS[0]}, or the threshold shown"
    )
    print(f"  {'':<27} {'while declared':>24} {'at declaration':>24}")
    for population, models in report["false_mastery"].items():
        rows = [(model, models[model]) for model in ("ours", "ours_default")]
        rows += [
            (f"ours at {threshold}", figures)
            for threshold, figures in models["ours_by_threshold"].items()
            if float(threshold) != THRESHOLDS[0]
        ]
        for model, figures in rows:
            shown = [
                "-"
                if figures[reading]["rate"] is None
                else f"{figures[reading]['rate']:.1%} of {figures[reading]['claims']}"
                for reading in READINGS
            ]
            print(f"  {population:<4} {model:<22} {shown[0]:>24} {shown[1]:>24}")
    print("\nsuccess rate of new irt pupils   elo at 0.75 (9 questions)   best possible   app (level only)")
    for group, value in report["success_rate"].items():
        print(
            f"  {group:<8} {value:>38.3f} {report['success_rate_best'][group]:>15.3f} "
            f"{report['success_rate_app'][group]:>18.3f}"
        )
    print("\ntime per answer (µs)")
    for name, value in report["update_us"].items():
        print(f"  {name:<28} {value:.2f}")
    print("\ngoals (margin: how far met, or missed if negative; info: not a goal)")
    for row in report["goals"]:
        figures = ", ".join(f"{key} {value}" for key, value in row.items() if key not in ("goal", "met", "info"))
        status = ("info " if row.get("info") else "") + ("met" if row["met"] else "MISS")
        print(f"  {status:<9} {row['goal']}: {figures}")
    print(f"\n{settings['seconds']} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="60 pupils x 3 skills x 20 answers, pyBKT with one fit: under a minute"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--pupils", type=int)
    parser.add_argument("--skills", type=int)
    parser.add_argument("--answers", type=int)
    parser.add_argument(
        "--pybkt-fits", type=int, help="pyBKT's random restarts per skill (default 1; 0 leaves pyBKT out)"
    )
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
