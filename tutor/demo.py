"""Demo data for a first look: a teacher, four classes and three weeks of simulated play.

``kortmatte demo`` (and ``make run``) calls :func:`create_demo_data`. It adds a demo
teacher (:data:`DEMO_EMAIL`, password :data:`DEMO_PASSWORD`, printed on purpose: this is
demo data) with one class per language, 24 pupils in each, three assignments per class
(one due last week, one due in a few days, one due in two weeks), two groups per class
(the pupils who need more practice, with homework of their own, and the strongest) and
the history of pupils who played real lessons over the last three weeks.

Nothing is made up row by row. Each pupil has an ability per skill, from weak to strong,
that rises slowly with practice; the pupil plays real lessons through
:class:`~tutor.lessons.runner.LessonRun` exactly as the web layer drives it (skip the
intro, move, answer, ask for a hint, show the solution, go on), each step taken and
saved by :func:`tutor.steps.take_step` as the lesson pages take it: the answer stored
with its skill update, the step counted towards the homework. A pupil answers right with
their current chance, otherwise with a wrong answer that shows one of the question's
named misconceptions when it has one (both from :mod:`tutor.answer_key`), and now and
then types something that cannot be read. The clock is simulated:
sessions lie on school days and in the evenings in the class's time zone.

The history is reproducible from :data:`DEMO_SEED` (class codes, pictures, PINs and
public ids are random, as for any class). Running it again adds nothing: the demo
teacher's e-mail address marks the demo as present, and its sign-in and class codes are
reported again. Plain Python and SQLAlchemy; no Flask.
"""

from __future__ import annotations

import math
import random
import time as timer
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tutor import accounts, classroom, groups
from tutor.answer_key import right_answer, wrong_answer
from tutor.answers import AnswerError
from tutor.db import make_engine, make_sessions
from tutor.deck import kids2
from tutor.drills import CHOICE, Question
from tutor.expressions import closest
from tutor.lessons import LESSONS
from tutor.lessons.base import Lesson, MoveRefused, move_token
from tutor.lessons.runner import FINISHED, PUPIL, LessonRun
from tutor.models import Assignment, AssignmentWork, AttemptRecord, LessonRunRecord, Pupil, SchoolClass, Teacher
from tutor.skill_model.progress import SharedRows
from tutor.steps import Action, StepOutcome, Taken, take_step

DEMO_EMAIL = "demo@kortmatte.example"
#: The demo teacher's address while the demo is being built: an interrupted demo is not
#: taken for a finished one, and the next run removes it and starts again.
PENDING_EMAIL = "demo-being-built@kortmatte.example"
DEMO_NAME = "Demo Teacher"
DEMO_PASSWORD = "demo-teacher-1234"
SIGN_IN_PATH = "/teacher/sign-in"
PUPIL_SIGN_IN_PATH = "/class"
DEMO_SEED = 2024
#: How far back the history reaches, and how many pupils each class has (the real thing).
DAYS, PUPILS_PER_CLASS = 21, 24
#: A run never takes more steps than this (a safety net: every lesson ends well before).
MAX_STEPS = 160


@dataclass(frozen=True)
class HomeworkPlan:
    """One assignment: its lesson, goal and when it was set and is due (days from now)."""

    game_id: str
    goal: str
    options: dict = field(default_factory=dict)
    goal_count: int = 1
    goal_skill: str = ""
    goal_level: str = ""
    class_deal: bool = False


@dataclass(frozen=True)
class ClassPlan:
    locale: str
    name: str
    timezone: str
    sign_in: str
    names: tuple[str, ...]
    #: Due last week, due in a few days, due in two weeks.
    homework: tuple[HomeworkPlan, HomeworkPlan, HomeworkPlan]
    #: What pupils play on their own: (game, options) with short games.
    free_play: tuple[tuple[str, dict], ...]
    #: Words a pupil types that cannot be read as a number.
    unreadable: tuple[str, ...]
    #: The teacher's two groups, named in the class's language: the pupils who need more practice (they get
    #: homework of their own) and the strongest, who could be given a challenge.
    groups: tuple[str, str]


CLASSES = (
    ClassPlan(
        "en",
        "4A Demo",
        "Europe/London",
        "pictures",
        (
            "Oliver",
            "Amelia",
            "George",
            "Isla",
            "Harry",
            "Ava",
            "Noah",
            "Mia",
            "Jack",
            "Grace",
            "Leo",
            "Freya",
            "Oscar",
            "Lily",
            "Charlie",
            "Ella",
            "Alfie",
            "Poppy",
            "Arthur",
            "Evie",
            "Theo",
            "Sophie",
            "Freddie",
            "Ruby",
        ),
        (
            HomeworkPlan("multiwar", "games", {"round_limit": 6}, class_deal=True),
            HomeworkPlan("crazy-banana-tiervenner", "questions", {"turn_limit": 30}, goal_count=10),
            HomeworkPlan("multimatch", "skill", {"turn_limit": 30}, goal_skill="multiply", goal_level="familiar"),
        ),
        (
            ("multiwar", {"round_limit": 6}),
            ("crazy-banana-tiervenner", {"turn_limit": 20}),
            ("multimatch", {"turn_limit": 20}),
        ),
        ("ten", "twenty", "idk"),
        ("Extra practice", "Challenge"),
    ),
    ClassPlan(
        "nb",
        "5B Demo",
        "Europe/Oslo",
        "pin",
        (
            "Jakob",
            "Nora",
            "Emil",
            "Emma",
            "Håkon",
            "Ingrid",
            "Oskar",
            "Ella",
            "Filip",
            "Sofie",
            "Lukas",
            "Leah",
            "Aksel",
            "Frida",
            "Henrik",
            "Astrid",
            "Magnus",
            "Maja",
            "Sander",
            "Selma",
            "Tobias",
            "Sigrid",
            "Bjørn",
            "Tiril",
        ),
        (
            HomeworkPlan("calculation-war", "games", {"round_limit": 6}, class_deal=True),
            HomeworkPlan("triplesmart", "questions", {"round_limit": 8}, goal_count=10),
            HomeworkPlan(
                "crazy-banana-overslag", "skill", {"turn_limit": 30}, goal_skill="exact_sum", goal_level="familiar"
            ),
        ),
        (
            ("calculation-war", {"round_limit": 6}),
            ("triplesmart", {"round_limit": 6}),
            ("crazy-banana-overslag", {"turn_limit": 20}),
        ),
        ("ti", "tjue", "vet ikke"),
        ("Ekstra øving", "Utfordring"),
    ),
    ClassPlan(
        "sv",
        "6C Demo",
        "Europe/Stockholm",
        "pictures",
        (
            "William",
            "Alice",
            "Hugo",
            "Maja",
            "Liam",
            "Elsa",
            "Lucas",
            "Ebba",
            "Oscar",
            "Alma",
            "Elias",
            "Vera",
            "Axel",
            "Saga",
            "Nils",
            "Astrid",
            "Viktor",
            "Wilma",
            "Måns",
            "Linnéa",
            "Isak",
            "Stella",
            "Melvin",
            "Märta",
        ),
        (
            HomeworkPlan("triplesmart", "games", {"round_limit": 6}, class_deal=True),
            HomeworkPlan("calculation-war", "questions", {"round_limit": 8}, goal_count=12),
            HomeworkPlan("multiwar", "skill", {"round_limit": 8}, goal_skill="compare", goal_level="proficient"),
        ),
        (
            ("multiwar", {"round_limit": 6}),
            ("triplesmart", {"round_limit": 6}),
            ("calculation-war", {"round_limit": 6}),
        ),
        ("tio", "tjugo", "vet inte"),
        ("Extra övning", "Utmaning"),
    ),
    ClassPlan(
        "it",
        "7A Demo",
        "Europe/Rome",
        "pictures",
        (
            "Leonardo",
            "Sofia",
            "Francesco",
            "Giulia",
            "Alessandro",
            "Aurora",
            "Lorenzo",
            "Alice",
            "Mattia",
            "Ginevra",
            "Tommaso",
            "Emma",
            "Gabriele",
            "Giorgia",
            "Riccardo",
            "Beatrice",
            "Andrea",
            "Chiara",
            "Edoardo",
            "Martina",
            "Matteo",
            "Noemi",
            "Nicolò",
            "Greta",
        ),
        (
            HomeworkPlan("fraction-master", "games", {"round_limit": 8}, class_deal=True),
            HomeworkPlan("crazy-banana-extreme", "questions", {"turn_limit": 30}, goal_count=10),
            HomeworkPlan(
                "triplesmart-extreme", "skill", {"round_limit": 8}, goal_skill="four_ops", goal_level="familiar"
            ),
        ),
        (
            ("fraction-master", {"round_limit": 8}),
            ("triplesmart-extreme", {"round_limit": 6}),
            ("crazy-banana-extreme", {"turn_limit": 20}),
        ),
        ("dieci", "venti", "boh"),
        ("Esercizio in più", "Sfida"),
    ),
)


@dataclass
class DemoClass:
    name: str
    code: str
    locale: str
    sign_in: str
    pupils: int
    example: tuple[str, str] | None = None  # one pupil's name and pictures or PIN, to try the pupil's side


@dataclass
class DemoReport:
    """What :func:`create_demo_data` did, and what an operator needs to look at the demo."""

    created: bool
    classes: list[DemoClass]
    pupils: int = 0
    runs: int = 0
    attempts: int = 0
    seconds: float = 0.0
    email: str = DEMO_EMAIL
    password: str = DEMO_PASSWORD

    def lines(self) -> list[str]:
        if self.created:
            head = (
                f"Demo data created in {self.seconds:.1f} s: "
                f"{self.pupils} pupils, {self.runs} lesson runs, {self.attempts} answers."
            )
        else:
            head = (
                f"Demo data already present ({self.pupils} pupils, {self.runs} lesson runs, "
                f"{self.attempts} answers); nothing added."
            )
        lines = [
            head,
            f"Teacher sign-in: {SIGN_IN_PATH}",
            f"  e-mail:   {self.email}",
            f"  password: {self.password}",
            f"Classes (pupils sign in at {PUPIL_SIGN_IN_PATH} with the class code):",
        ]
        for school_class in self.classes:
            line = (
                f"  {school_class.name:<8} language {school_class.locale}  "
                f"code {accounts.show_code(school_class.code)}  {school_class.pupils} pupils, {school_class.sign_in}"
            )
            if school_class.example:
                line += f" (e.g. {school_class.example[0]}: {school_class.example[1]})"
            lines.append(line)
        return lines

    def __str__(self) -> str:
        return "\n".join(self.lines())


# --- the simulated clock ----------------------------------------------------------------------
def school_moment(
    rng: random.Random, zone: ZoneInfo, earliest: datetime, latest: datetime, evening: float
) -> datetime | None:
    """A moment between ``earliest`` and ``latest`` (UTC) when a pupil might play: a school
    lesson on a weekday, or an evening (weekends: the day) at home; None if there is none."""
    if latest <= earliest:
        return None
    for _ in range(60):
        day = (earliest + (latest - earliest) * rng.random()).astimezone(zone).date()
        weekend = day.weekday() >= 5
        if weekend and rng.random() < 0.5:  # less play at the weekend
            continue
        if rng.random() < evening or weekend:
            start, end = (10 * 60, 19 * 60) if weekend else (16 * 60 + 30, 20 * 60 + 30)
        else:
            start, end = 8 * 60 + 40, 14 * 60 + 30
        minute = rng.randrange(start, end)
        moment = datetime.combine(day, time(minute // 60, minute % 60, rng.randrange(60)), zone).astimezone(UTC)
        if earliest <= moment <= latest:
            return moment
    return None


class Clock:
    """Simulated time, moved on by each step; LessonRun reads it as milliseconds."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def tick(self, seconds: float) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now

    @property
    def ms(self) -> int:
        return int(self.now.timestamp() * 1000)


# --- a simulated pupil ------------------------------------------------------------------------
class SimulatedPupil:
    """A pupil's ability per skill (rising slowly with practice) and habits."""

    def __init__(self, pupil: Pupil, rng: random.Random, ability: float, diligence: float) -> None:
        self.pupil, self.rng, self.ability, self.diligence = pupil, rng, ability, diligence
        self.offsets: dict[str, float] = {}
        self.practice: Counter = Counter()
        #: The pupil's homework rows, held so the session's (weak) identity map keeps them between steps.
        self.held: list = []
        self.speed = 1.5 - 0.6 * ability  # weaker pupils take longer

    def chance(self, question: Question, hints: int = 0, tries: int = 0) -> float:
        """The chance of a right answer now."""
        offset = self.offsets.setdefault(question.skill, self.rng.uniform(-0.1, 0.1))
        growth = min(0.2, 0.008 * self.practice[question.skill])
        easier = 0.07 * (2 - question.difficulty)
        return min(0.97, max(0.05, self.ability + offset + growth + easier + 0.1 * hints + 0.15 * tries))


# --- one lesson run, driven as the web layer drives it ----------------------------------------
# The actions of the lesson pages that take no form field (tutor.web.lessons has the same).
def skip_intro(run: LessonRun, lesson: Lesson, levels: Mapping[str, int], now: int) -> None:
    run.skip_intro(lesson, levels, now)


def hint(run: LessonRun, lesson: Lesson, levels: Mapping[str, int], now: int) -> None:
    run.hint()


def solution(run: LessonRun, lesson: Lesson, levels: Mapping[str, int], now: int) -> None:
    run.show_solution()


def go_on(run: LessonRun, lesson: Lesson, levels: Mapping[str, int], now: int) -> None:
    run.close_question(lesson, levels, now)


class LessonPlay:
    """One pupil at one lesson run: each action is one request of :mod:`tutor.web.lessons`, one :func:`take_step`."""

    def __init__(
        self,
        db: Session,
        sim: SimulatedPupil,
        record: LessonRunRecord,
        run: LessonRun,
        clock: Clock,
        latest: datetime,
        unreadable: tuple[str, ...],
        shared_rows: SharedRows,
    ) -> None:
        self.db, self.sim, self.record, self.run, self.clock, self.latest = db, sim, record, run, clock, latest
        self.shared_rows = shared_rows
        self.lesson = LESSONS[run.game_id]
        self.rng, self.locale, self.unreadable = sim.rng, sim.pupil.locale, unreadable
        self.steps = 0

    def step(self, action: Action) -> StepOutcome:
        """Take and save one step at the simulated time, as the lesson pages do (the demo is the only writer)."""
        outcome = take_step(self.db, self.record, self.run, action, self.clock.ms, self.shared_rows)
        if outcome.taken is not Taken.SAVED:
            raise RuntimeError(f"a simulated lesson step was {outcome.taken.value}")
        self.steps += 1
        return outcome

    def wait(self, low: float, high: float) -> None:
        self.clock.tick(self.rng.uniform(low, high) * self.sim.speed)

    # --- the actions ----------------------------------------------------------------------
    def skip_intro(self) -> None:
        self.wait(6, 40)
        self.step(skip_intro)

    def move(self) -> None:
        if self.lesson.typed_move:
            self.wait(10, 45)
            for expression in self.expressions():
                if self.type_move(expression):
                    break
                self.wait(5, 20)
            return
        self.wait(2, 10)
        token = self.rng.choice(self.move_tokens())

        def move(run, lesson, levels, now) -> None:
            # The simulated pupil picks a card at random, not by judgement: the choice is not stored as an
            # answer for its skill (its random misses would swamp the drill answers).
            run.move(token, lesson, levels, now)

        self.step(move)

    def move_tokens(self) -> list[str]:
        """The buttons the pupil sees; when there are none (Fraction Master's interval when the cards as
        they lie make two equal fractions), the cards the pupil could pick and lay instead."""
        game_state = self.run.game_state()
        buttons = [choice.token for choice in self.lesson.choices(game_state, PUPIL)]
        return buttons or [move_token(move) for move in game_state.legal_moves() if move.player == PUPIL]

    def type_move(self, expression: str) -> bool:
        """Type a move as the typed-move form does; whether it could be read and played."""
        refused = []

        def typed_move(run, lesson, levels, now) -> None:
            try:
                run.typed_move(expression, "en", lesson, levels, now)  # as the move above, not stored as an answer
            except (AnswerError, MoveRefused):  # the page says why, nothing is lost; the pupil types again
                refused.append(expression)

        self.step(typed_move)
        return not refused

    def expressions(self) -> list[str]:
        """What a pupil types in TripleSmart: the best expression when they see it, else two
        numbers added; then, if that is refused, the numbers added, then one number."""
        state = self.run.game_state()
        deck = kids2()
        mine = [deck[c].top for c in state.turned[PUPIL] if not deck[c].is_special]
        target = state.player_view(PUPIL)["target"]
        tries = [" + ".join(map(str, mine[:2])), " + ".join(map(str, mine[:1]))]
        if target is not None and self.rng.random() < self.sim.ability:
            _, _, best = closest(mine, int(target), state.game.allow)
            tries.insert(0, best.replace("×", "*").replace("÷", "/"))
        return tries

    def answer(self, typed: str) -> None:
        attempt = self.step(lambda run, lesson, levels, now: run.answer(typed, self.locale, now)).attempt
        if attempt.first_try:
            self.sim.practice[attempt.skill] += 1

    def hint(self) -> None:
        self.wait(4, 12)
        self.step(hint)

    def solution(self) -> None:
        self.wait(3, 8)
        self.step(solution)

    def go_on(self) -> None:
        self.wait(2, 6)
        self.step(go_on)

    def right(self, question: Question) -> str:
        return right_answer(question, self.locale, self.rng)

    def wrong(self, question: Question) -> str:
        """Mostly a value that shows one of the question's named misconceptions, when it lists one."""
        telling = self.rng.random() < (0.8 if question.answer == CHOICE else 0.7)
        return wrong_answer(question, self.locale, self.rng, telling) or self.right(question)  # a tie: all right

    # --- a question, from asking to going on --------------------------------------------
    def work_on_question(self) -> None:
        question, run, rng, sim = self.run.current_question(), self.run, self.rng, self.sim
        typed = question.answer != CHOICE
        if typed and rng.random() < 0.02 + 0.08 * (1 - sim.ability):  # something the box cannot read
            self.wait(4, 15)
            self.answer(rng.choice(self.unreadable) if rng.random() < 0.7 else self.right(question) + " =")
        hints = 0
        if question.hints and rng.random() < 0.4 * (1 - sim.chance(question)):
            self.hint()
            hints += 1
            if len(question.hints) > 1 and rng.random() < 0.3:
                self.hint()
                hints += 1
        for _ in range(4):
            if not run.drill.open:
                break
            self.wait(5, 30) if typed else self.wait(3, 14)
            tries = run.drill.tries
            right = rng.random() < sim.chance(question, hints, tries)
            self.answer(self.right(question) if right else self.wrong(question))
            if run.drill.open and (tries >= 2 or rng.random() < 0.35):  # still wrong: the solution, or just go on
                if rng.random() < 0.5:
                    self.solution()
                    self.wait(8, 25)
                break
        self.go_on()

    def play(self, stop_after: int | None) -> None:
        """Play until the lesson ends, the pupil stops after about ``stop_after`` steps, or the
        history ends; a pupil whose homework is done mostly stops there."""
        limit = min(stop_after or MAX_STEPS, MAX_STEPS)
        while self.run.stage != FINISHED and self.steps < limit and self.clock.now < self.latest:
            if self.run.drill.question is None:
                self.move()
            elif self.run.drill.open:
                self.work_on_question()
            else:
                self.go_on()
            if self.homework_done() and self.rng.random() < 0.7:
                break

    def homework_done(self) -> bool:
        if self.record.assignment_id is None:
            return False
        work = self.db.get(AssignmentWork, (self.record.assignment_id, self.record.pupil_id))
        if work is not None and work not in self.sim.held:
            self.sim.held.append(work)
        return work is not None and work.done_at is not None


# --- planning a pupil's three weeks -----------------------------------------------------------
@dataclass(frozen=True)
class SetHomework:
    """What a pupil's play needs of an assignment (kept apart from the session's objects)."""

    id: int
    game_id: str
    players: int
    bots: str
    options: dict
    created_at: datetime
    due_at: datetime


@dataclass
class Visit:
    """One sitting: a lesson started (or homework) at a moment, played to its end or left early."""

    at: datetime
    game_id: str
    options: dict
    homework: SetHomework | None = None
    stop_after: int | None = None
    players: int = 2
    bots: str = "beginner"


def plan_visits(
    sim: SimulatedPupil, plan: ClassPlan, homework: list[SetHomework], zone: ZoneInfo, start: datetime, latest: datetime
) -> list[Visit]:
    """When this pupil plays what, from their diligence: the homework done on time, late,
    half or not at all, and some free play at school and at home."""
    rng, diligence = sim.rng, sim.diligence
    visits: list[Visit] = []

    def add(
        homework_set: SetHomework | None,
        earliest: datetime,
        last: datetime,
        evening: float,
        stop_after: int | None = None,
        game: tuple[str, dict] | None = None,
    ) -> None:
        moment = school_moment(rng, zone, earliest, last, evening)
        if moment is None:
            return
        if homework_set is not None:
            visits.append(
                Visit(
                    moment,
                    homework_set.game_id,
                    homework_set.options,
                    homework_set,
                    stop_after,
                    homework_set.players,
                    homework_set.bots,
                )
            )
        else:
            players, bots = (2 if rng.random() < 0.8 else 3), ("beginner" if rng.random() < 0.7 else "strong")
            visits.append(Visit(moment, game[0], game[1], None, stop_after, players, bots))

    if rng.random() < 0.08:  # now and then a pupil has not played at all yet
        return visits
    past, soon, later = homework
    chance = rng.random()
    if chance < 0.45 + 0.5 * diligence:  # done: mostly on time, some late
        if rng.random() < 0.8:
            add(past, past.created_at, past.due_at - timedelta(hours=1), 0.7)
        else:
            add(past, past.due_at, latest, 0.7)
    elif chance < 0.6 + 0.5 * diligence:  # started, never finished
        add(past, past.created_at, past.due_at, 0.7, stop_after=rng.randint(4, 12))
    if rng.random() < 0.3 + 0.6 * diligence:
        add(
            soon,
            soon.created_at,
            latest,
            0.7,
            stop_after=None if rng.random() < 0.5 + 0.4 * diligence else rng.randint(6, 24),
        )
    if rng.random() < 0.15 + 0.35 * diligence:
        add(later, later.created_at, latest, 0.6, stop_after=None if rng.random() < 0.6 else rng.randint(6, 20))
    for _ in range(max(rng.randint(1, 3), 3 - len(visits))):
        add(
            None,
            start,
            latest,
            0.45,
            stop_after=rng.randint(4, 20) if rng.random() < 0.3 else None,
            game=rng.choice(plan.free_play),
        )
    return sorted(visits, key=lambda visit: visit.at)


def simulate_pupil(
    db: Session,
    sim: SimulatedPupil,
    plan: ClassPlan,
    homework: list[SetHomework],
    zone: ZoneInfo,
    start: datetime,
    latest: datetime,
    shared_rows: SharedRows,
    group_homework: SetHomework | None = None,
) -> None:
    """Play the pupil's visits in order; homework goes on in a new game until its goal is reached.

    ``group_homework``: the homework of the pupil's group, which a diligent pupil does too.
    """
    rng = sim.rng
    sim.held.extend(db.get(Assignment, h.id) for h in homework)
    busy_until = start
    open_runs: dict[int, tuple[LessonRunRecord, LessonRun]] = {}
    visits = plan_visits(sim, plan, homework, zone, start, latest)
    if group_homework is not None and rng.random() < 0.3 + 0.6 * sim.diligence:
        sim.held.append(db.get(Assignment, group_homework.id))
        moment = school_moment(rng, zone, group_homework.created_at, latest, 0.7)
        if moment is not None:
            stop_after = None if rng.random() < 0.6 else rng.randint(4, 12)
            visits.append(
                Visit(
                    moment,
                    group_homework.game_id,
                    group_homework.options,
                    group_homework,
                    stop_after,
                    group_homework.players,
                    group_homework.bots,
                )
            )
            visits.sort(key=lambda visit: visit.at)
    for visit in visits:
        at = max(visit.at, busy_until + timedelta(minutes=rng.randint(2, 20)))
        if at >= latest:
            continue
        clock = Clock(at)
        games = 2 if visit.homework is not None and visit.stop_after is None else 1
        for _ in range(games):
            play = start_or_continue(db, sim, visit, clock, latest, plan, open_runs, shared_rows)
            play.play(visit.stop_after)
            if play.run.stage == FINISHED and visit.homework is not None:
                open_runs.pop(visit.homework.id, None)
            if play.run.stage != FINISHED or play.homework_done() or clock.now >= latest:
                break
            clock.tick(rng.uniform(20, 90))
        busy_until = clock.now
    db.flush()


def start_or_continue(
    db: Session,
    sim: SimulatedPupil,
    visit: Visit,
    clock: Clock,
    latest: datetime,
    plan: ClassPlan,
    open_runs: dict,
    shared_rows: SharedRows,
) -> LessonPlay:
    """A new lesson run as the start pages make it, or the homework's unfinished one."""
    homework = visit.homework
    if homework is not None and homework.id in open_runs:
        record, run = open_runs[homework.id]
        return LessonPlay(db, sim, record, run, clock, latest, plan.unreadable, shared_rows)
    lesson = LESSONS[visit.game_id]
    seed = classroom.next_homework_seed(db, db.get(Assignment, homework.id), sim.pupil) if homework else None
    if seed is None:
        seed = sim.rng.getrandbits(48)
    run = LessonRun.start(lesson, visit.players, visit.options, [visit.bots], seed, clock.ms)
    record = LessonRunRecord(
        pupil_id=sim.pupil.id,
        assignment_id=homework.id if homework else None,
        game_id=run.game_id,
        seed=seed,
        stage=run.stage,
        data=run.to_dict(),
        created_at=clock.now,
        updated_at=clock.now,
    )
    db.add(record)
    db.flush()
    play = LessonPlay(db, sim, record, run, clock, latest, plan.unreadable, shared_rows)
    if homework is not None:
        classroom.note_step(db, record, clock.now)  # as start_homework does
        open_runs[homework.id] = (record, run)
    play.skip_intro()
    return play


# --- building the demo ------------------------------------------------------------------------
def school_day_at(zone: ZoneInfo, moment: datetime, clock: str) -> datetime:
    """The school day of ``moment`` in ``zone`` (the Friday before, at a weekend) at ``clock`` there, as UTC."""
    day = moment.astimezone(zone).date()
    day -= timedelta(days=max(0, day.weekday() - 4))
    return datetime.combine(day, time.fromisoformat(clock), zone).astimezone(UTC)


def set_homework(
    db: Session,
    school_class: SchoolClass,
    teacher: Teacher,
    plan: ClassPlan,
    rng: random.Random,
    now: datetime,
    days: int,
) -> list[SetHomework]:
    """The class's three assignments, set by the teacher at the time they were set."""
    zone = ZoneInfo(plan.timezone)
    # (set this long ago, due this many days from now): due last week, in a few days, in two weeks
    timing = ((0.9 * days, -0.3 * days), (0.45 * days, 3), (min(2.0, 0.2 * days), 14))
    result = []
    for homework, (set_ago, due_in) in zip(plan.homework, timing):
        created = school_day_at(zone, now - timedelta(days=set_ago), "12:30")
        due_day: date = (now + timedelta(days=due_in)).astimezone(zone).date()
        while (
            due_day.weekday() >= 5
        ):  # due on a school day: the Friday before a past date, the Monday after a coming one
            due_day += timedelta(days=-1 if due_in < 0 else 1)
        form = classroom.AssignmentForm(
            game_id=homework.game_id,
            options=dict(homework.options),
            goal=homework.goal,
            goal_count=str(homework.goal_count),
            goal_skill=homework.goal_skill,
            goal_level=homework.goal_level,
            due_date=due_day.isoformat(),
            due_time="18:00",
            class_deal=homework.class_deal,
        )
        assignment = classroom.create_assignment(db, school_class, teacher, form, created)
        if assignment.seed is not None:
            assignment.seed = rng.getrandbits(48)  # the class deal, reproducible
        result.append(
            SetHomework(
                assignment.id,
                assignment.game_id,
                assignment.players,
                assignment.bots,
                dict(assignment.options),
                created,
                accounts.as_utc(assignment.due_at),
            )
        )
    return result


def set_group_homework(
    db: Session,
    school_class: SchoolClass,
    teacher: Teacher,
    plan: ClassPlan,
    ranked: list[tuple[int, int]],
    now: datetime,
) -> tuple[SetHomework, set[int]]:
    """The teacher's two groups (the weakest third of the class and the strongest) and homework for the first group,
    set two days ago: more practice in the skill of the homework due in a few days. Returns the homework and the ids
    of the pupils in that group."""
    zone = ZoneInfo(plan.timezone)
    by_rank = [pupil_id for pupil_id, _ in sorted(ranked, key=lambda pair: pair[1])]
    third = max(1, len(by_rank) // 3)
    public_ids = {pupil.id: pupil.public_id for pupil in school_class.pupils}
    weakest, strongest = by_rank[:third], by_rank[-third:]
    practice = groups.create_group(db, school_class, plan.groups[0], [public_ids[i] for i in weakest])
    groups.create_group(db, school_class, plan.groups[1], [public_ids[i] for i in strongest])
    created = school_day_at(zone, now - timedelta(days=2), "12:30")
    due_day: date = (now + timedelta(days=5)).astimezone(zone).date()
    while due_day.weekday() >= 5:
        due_day += timedelta(days=1)
    soon = plan.homework[1]
    form = classroom.AssignmentForm(
        game_id=soon.game_id,
        options=dict(soon.options),
        goal="questions",
        goal_count="8",
        due_date=due_day.isoformat(),
        due_time="18:00",
        target=classroom.GROUP,
        group_id=practice.public_id,
    )
    assignment = classroom.create_assignment(db, school_class, teacher, form, created)
    homework = SetHomework(
        assignment.id,
        assignment.game_id,
        assignment.players,
        assignment.bots,
        dict(assignment.options),
        created,
        accounts.as_utc(assignment.due_at),
    )
    return homework, set(weakest)


def build_class(db: Session, teacher: Teacher, plan: ClassPlan, pupils: int, created: datetime) -> SchoolClass:
    school_class = classroom.create_class(db, teacher, plan.name, plan.locale, plan.timezone, plan.sign_in)
    school_class.created_at = created
    added = classroom.add_pupils(db, school_class, "\n".join(plan.names[:pupils]))
    for pupil in added.added:
        pupil.created_at = created
    db.flush()
    return school_class


def create_demo_data(
    url: str,
    pupils_per_class: int = PUPILS_PER_CLASS,
    days: int = DAYS,
    seed: int = DEMO_SEED,
    now: datetime | None = None,
    log: Callable[[str], None] | None = None,
) -> DemoReport:
    """Add the demo teacher, classes, pupils, homework and history unless they are there already.

    ``pupils_per_class`` (1..24) and ``days`` (3 or more) make a smaller demo for tests;
    ``log`` hears about progress while the demo is built.
    """
    if not 1 <= pupils_per_class <= PUPILS_PER_CLASS or days < 3:
        raise ValueError(f"pupils per class must be 1 to {PUPILS_PER_CLASS} and days at least 3")
    log = log or (lambda line: None)
    began = timer.perf_counter()
    now = now or datetime.now(UTC)
    start, latest = now - timedelta(days=days), now - timedelta(minutes=5)
    engine = make_engine(url)
    try:
        with make_sessions(engine)() as db:
            teacher = db.scalar(select(Teacher).where(Teacher.email == DEMO_EMAIL))
            if teacher is not None:
                return report(db, teacher, created=False)
            remove_pending(db)
            log(
                f"Creating the demo data: {len(CLASSES)} classes of {pupils_per_class} pupils "
                f"who have played for {days} days..."
            )
            teacher = Teacher(
                email=PENDING_EMAIL,
                name=DEMO_NAME,
                password_hash=accounts.hash_password(DEMO_PASSWORD),
                locale="en",
                created_at=start - timedelta(days=3),
            )
            db.add(teacher)
            db.flush()
            teacher_id = teacher.id
            classes = []
            for plan in CLASSES:
                rng = random.Random(f"{seed}:{plan.locale}")
                school_class = build_class(db, teacher, plan, pupils_per_class, start - timedelta(days=2))
                homework = set_homework(db, school_class, teacher, plan, rng, now, days)
                pupils = sorted(school_class.pupils, key=lambda pupil: pupil.name)
                ranks = list(range(len(pupils)))
                rng.shuffle(ranks)
                ranked = [(p.id, rank) for p, rank in zip(pupils, ranks)]
                group_homework, in_group = set_group_homework(db, school_class, teacher, plan, ranked, now)
                classes.append((plan, homework, ranked, group_homework, in_group))
            db.commit()
            # The demo is the only writer, so the rows every pupil shares, read once, stay current: each answer's
            # change of its question's difficulty is made to them as well (tutor.skill_model.progress.rate_question).
            shared_rows = SharedRows(math.inf)
            for plan, homework, pupils, group_homework, in_group in classes:
                zone = ZoneInfo(plan.timezone)
                for pupil_id, rank in pupils:
                    pupil = db.get(Pupil, pupil_id)
                    rng = random.Random(f"{seed}:{plan.locale}:{pupil.name}")
                    ability = 0.3 + 0.6 * rank / max(1, len(pupils) - 1)
                    sim = SimulatedPupil(
                        pupil, rng, ability, diligence=min(1.0, 0.15 + 0.6 * rng.random() + 0.25 * ability)
                    )
                    simulate_pupil(
                        db,
                        sim,
                        plan,
                        homework,
                        zone,
                        start,
                        latest,
                        shared_rows,
                        group_homework if pupil_id in in_group else None,
                    )
                    db.commit()
                    db.expunge_all()  # one pupil's rows at a time in memory
                log(f"  {plan.name} ({plan.locale}): {len(pupils)} pupils have played")
            teacher = db.get(Teacher, teacher_id)
            teacher.email = DEMO_EMAIL
            db.commit()
            result = report(db, teacher, created=True)
            result.seconds = timer.perf_counter() - began
            return result
    finally:
        engine.dispose()


def remove_pending(db: Session) -> None:
    """Remove what an interrupted demo left behind (its teacher, classes and their pupils)."""
    teacher = db.scalar(select(Teacher).where(Teacher.email == PENDING_EMAIL))
    if teacher is None:
        return
    for school_class, _ in classroom.classes_of(db, teacher):
        classroom.delete_class(db, school_class)
    db.delete(teacher)
    db.commit()


def report(db: Session, teacher: Teacher, created: bool) -> DemoReport:
    """The demo's sign-in, classes and sizes, read from the database."""
    classes = []
    for school_class, count in classroom.classes_of(db, teacher):
        example = db.scalar(select(Pupil).where(Pupil.class_id == school_class.id).order_by(Pupil.name).limit(1))
        classes.append(
            DemoClass(
                school_class.name,
                school_class.code,
                school_class.locale,
                school_class.sign_in,
                count,
                (example.name, example.secret) if example else None,
            )
        )
    class_ids = [c.id for c, _ in classroom.classes_of(db, teacher)]
    pupil_ids = select(Pupil.id).where(Pupil.class_id.in_(class_ids))
    return DemoReport(
        created=created,
        classes=classes,
        pupils=sum(c.pupils for c in classes),
        runs=db.scalar(select(func.count(LessonRunRecord.id)).where(LessonRunRecord.pupil_id.in_(pupil_ids))) or 0,
        attempts=db.scalar(select(func.count(AttemptRecord.id)).where(AttemptRecord.pupil_id.in_(pupil_ids))) or 0,
    )
