"""The weekly misconception report of a class: the most frequent misconceptions and the questions most often wrong."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from sqlalchemy import Row, func, select
from sqlalchemy.orm import Session

from tutor import accounts, answer_counts, classroom
from tutor.drills import texts
from tutor.lessons import LESSONS
from tutor.models import (
    AnswerDayCount,
    AttemptRecord,
    LessonRunRecord,
    Pupil,
    SchoolClass,
    SkillRecord,
)
from tutor.reports.common import LEVEL_COLUMNS, PupilRef, choice_label, name_key, question_prompt, teacher_description
from tutor.skill_model import skills
from tutor.text import Text

# --- misconception report -------------------------------------------------------------------
WEEK_PATTERN = re.compile(r"^\s*([0-9]{4})-?W([0-9]{1,2})\s*$", re.IGNORECASE)
TOP_MISCONCEPTIONS = 5  # per skill
#: Pupils named per misconception on the report (those who showed it most); the rest are on the misconception's own
#: page, which the report loads into the row on demand.
TOP_PUPILS = 3
TOP_QUESTIONS = 10
EXAMPLES = 3
#: Per misconception (skill, question kind, misconception), per pupil id who showed it: [wrong answers, the latest
#: one's id].
ShowedBy = dict[tuple[str, str, str], dict[int, list[int]]]


def week_of(moment: datetime, timezone_name: str) -> tuple[int, int]:
    year, week, _ = accounts.as_utc(moment).astimezone(classroom.zone(timezone_name)).isocalendar()
    return year, week


def parse_week(value: str | None) -> tuple[int, int] | None:
    """``2026-W47`` (or ``2026W47``) as (year, week); None for anything else or a week that does not exist."""
    match = WEEK_PATTERN.match(str(value or ""))
    if not match:
        return None
    year, week = int(match.group(1)), int(match.group(2))
    if not 1900 <= year <= 9998:
        return None
    try:
        date.fromisocalendar(year, week, 1)
    except ValueError:
        return None
    return year, week


def week_label(year: int, week: int) -> str:
    return f"{year:04d}-W{week:02d}"


@dataclass
class Example:
    prompt: Text | None
    typed: str
    read_as: str | None
    chosen: Text | None


@dataclass
class PupilSeen:
    """A pupil who showed a misconception in the week: how often, and where they last did (for the replay)."""

    pupil: PupilRef
    count: int
    run_public_id: str | None = None
    move_index: int | None = None


@dataclass(frozen=True)
class Suggestion:
    """Homework to set for the pupils who showed a misconception: a lesson that practises its skill and a level."""

    game_id: str
    skill: str
    level: str
    pupils: tuple[str, ...]  # the public ids of every pupil who showed it


@dataclass
class MisconceptionRow:
    skill: str
    kind: str
    misconception: str
    count: int
    text: Text | None  # what the misconception says about the pupil, for the teacher
    examples: list[Example] = field(default_factory=list)
    pupils: list[PupilSeen] = field(default_factory=list)  # everyone who showed it, most often first
    suggestion: Suggestion | None = None

    @property
    def key(self) -> str:
        """The row's name in a link (its own page) and in the report's list of rows shown whole."""
        return "/".join((self.skill, self.kind, self.misconception))

    @property
    def top_pupils(self) -> list[PupilSeen]:
        return self.pupils[:TOP_PUPILS]


@dataclass
class QuestionRow:
    skill: str
    kind: str
    answers: int
    wrong: int
    example: Text | None

    @property
    def wrong_rate(self) -> float:
        return self.wrong / self.answers if self.answers else 0.0


@dataclass
class ReportWeek:
    """The class's calendar week a report is about."""

    year: int
    week: int
    valid: bool  # False when the asked week could not be read and the current week is shown
    monday: date

    @property
    def label(self) -> str:
        return week_label(self.year, self.week)

    @property
    def sunday(self) -> date:
        return self.monday + timedelta(days=6)

    @property
    def previous(self) -> str:
        return week_label(*(self.monday - timedelta(days=7)).isocalendar()[:2])

    @property
    def next(self) -> str | None:
        later = self.monday + timedelta(days=7)
        return week_label(*later.isocalendar()[:2]) if later.year <= 9998 else None

    def days(self, class_id: int) -> tuple:
        """The conditions on :class:`AnswerDayCount` for the class's rows of this week."""
        return (
            AnswerDayCount.class_id == class_id,
            AnswerDayCount.day >= self.monday,
            AnswerDayCount.day <= self.sunday,
        )


@dataclass
class MisconceptionReport(ReportWeek):
    by_skill: list[tuple[str, list[MisconceptionRow]]]
    questions: list[QuestionRow]
    answers: int
    wrong: int


@dataclass
class MisconceptionPage(ReportWeek):
    """One misconception of a week with every pupil who showed it (the report names only the first few)."""

    row: MisconceptionRow


def report_week(week: str | None, timezone_name: str, now: datetime) -> ReportWeek:
    """The asked week (``2026-W47``), or the current week in the class's time zone when none or a bad one is asked."""
    parsed = parse_week(week)
    year, number = parsed or week_of(now, timezone_name)
    return ReportWeek(year, number, parsed is not None or not week, date.fromisocalendar(year, number, 1))


def suggested_level(levels: list[str]) -> str:
    """The level to set as a goal for pupils at these levels: one above the lowest of them, "familiar" at least."""
    lowest = min((skills.LEVELS.index(level) for level in levels), default=0)
    return skills.LEVELS[min(max(lowest + 1, skills.LEVELS.index(skills.FAMILIAR)), len(skills.LEVELS) - 1)]


def open_lessons(skill: str, school_class: SchoolClass) -> list[str]:
    """The lessons that practise the skill and that the class may play, in the lessons' order."""
    return [
        game_id
        for game_id in LESSONS
        if skill in classroom.game_skills(game_id) and classroom.lesson_open(game_id, school_class, False)
    ]


def suggested_game(seen_in: list[str], open_games: list[str]) -> str | None:
    """The lesson to set: of ``open_games``, the one the pupils showed the misconception in most often, else the first
    (:func:`open_lessons`)."""
    for game_id, _ in Counter(seen_in).most_common():
        if game_id in open_games:
            return game_id
    return open_games[0] if open_games else None


def misconception_report(
    db: Session, school_class: SchoolClass, week: str | None, now: datetime
) -> MisconceptionReport:
    """The week's most frequent misconceptions per skill, who showed them, and the questions most often answered wrong.

    Five statements whatever the class: one GROUP BY over the class's per-day answer counts of
    the week (:mod:`tutor.answer_counts`), never its answers: answers and wrong answers per
    question kind, misconception and pupil; each pupil's last answer that showed a misconception
    shown (its run and move, for the replay link, and the value typed), without the question;
    the few answers shown as examples (the last ones of the pupils who showed it most, one per
    value typed), read by id with only their questions' prompts and buttons; the class's
    pupils; their records in the skills shown (for the level to suggest).
    """
    shown_week = report_week(week, school_class.timezone, now)
    kinds: dict[tuple[str, str], list[int]] = {}  # answers, wrong, latest wrong answer's id
    showed: ShowedBy = defaultdict(dict)
    for skill, kind, misconception, pupil_id, answers, wrong_count, latest_wrong in db.execute(
        select(
            AnswerDayCount.skill,
            AnswerDayCount.question_kind,
            AnswerDayCount.misconception,
            AnswerDayCount.pupil_id,
            func.sum(AnswerDayCount.answers),
            func.sum(AnswerDayCount.wrong),
            func.max(AnswerDayCount.last_wrong_id),
        )
        .where(*shown_week.days(school_class.id))
        .group_by(
            AnswerDayCount.skill, AnswerDayCount.question_kind, AnswerDayCount.misconception, AnswerDayCount.pupil_id
        )
    ):
        totals = kinds.setdefault((skill, kind), [0, 0, 0])
        totals[0] += int(answers)
        totals[1] += int(wrong_count or 0)
        totals[2] = max(totals[2], latest_wrong or 0)
        if misconception != answer_counts.NONE:
            showed[(skill, kind, misconception)][pupil_id] = [int(wrong_count or 0), latest_wrong]
    found = {
        (skill, kind, misconception): MisconceptionRow(
            skill,
            kind,
            misconception,
            sum(count for count, _ in by_pupil.values()),
            teacher_description(kind, misconception),
        )
        for (skill, kind, misconception), by_pupil in showed.items()
    }
    by_skill_all: dict[str, list[MisconceptionRow]] = defaultdict(list)
    for row in found.values():
        by_skill_all[row.skill].append(row)
    order = {skill: i for i, skill in enumerate(skills.SKILLS)}
    by_skill = [
        (skill, sorted(by_skill_all[skill], key=lambda r: (-r.count, r.kind, r.misconception))[:TOP_MISCONCEPTIONS])
        for skill in sorted(by_skill_all, key=lambda s: (order.get(s, len(order)), s))
    ]
    questions = sorted(
        (
            QuestionRow(skill, kind, answers, wrong_count, None)
            for (skill, kind), (answers, wrong_count, _) in kinds.items()
            if wrong_count
        ),
        key=lambda q: (-q.wrong, -q.wrong_rate, q.kind),
    )[:TOP_QUESTIONS]
    stored = describe_rows(
        db,
        school_class,
        [row for _, rows in by_skill for row in rows],
        showed,
        now,
        {kinds[(q.skill, q.kind)][2] for q in questions},
    )
    for q in questions:
        example = stored.get(kinds[(q.skill, q.kind)][2])
        q.example = question_prompt(shown_question(example)) if example is not None else None
    return MisconceptionReport(
        **vars(shown_week),
        by_skill=by_skill,
        questions=questions,
        answers=sum(t[0] for t in kinds.values()),
        wrong=sum(t[1] for t in kinds.values()),
    )


def misconception_page(
    db: Session, school_class: SchoolClass, week: str | None, key: tuple[str, str, str], now: datetime
) -> MisconceptionPage | None:
    """One misconception (skill, question kind, misconception) of the week with every pupil who showed it; None for a
    week that cannot be read, or a misconception that the drill content does not name and nobody in the class showed.

    The report's statements for that one row: its wrong answers per pupil, then as :func:`misconception_report` reads
    them.
    """
    shown_week = report_week(week, school_class.timezone, now)
    if not shown_week.valid:
        return None
    skill, kind, misconception = key
    showed: ShowedBy = defaultdict(dict)
    for pupil_id, count, latest in db.execute(
        select(AnswerDayCount.pupil_id, func.sum(AnswerDayCount.wrong), func.max(AnswerDayCount.last_wrong_id))
        .where(
            *shown_week.days(school_class.id),
            AnswerDayCount.skill == skill,
            AnswerDayCount.question_kind == kind,
            AnswerDayCount.misconception == misconception,
            AnswerDayCount.misconception != answer_counts.NONE,
        )
        .group_by(AnswerDayCount.pupil_id)
    ):
        showed[key][pupil_id] = [int(count or 0), latest]
    wrong_count = sum(count for count, _ in showed[key].values())
    if not wrong_count and not named_in_content(skill, kind, misconception):
        return None
    row = MisconceptionRow(skill, kind, misconception, wrong_count, teacher_description(kind, misconception))
    describe_rows(db, school_class, [row], showed, now)
    return MisconceptionPage(**vars(shown_week), row=row)


def named_in_content(skill: str, kind: str, misconception: str) -> bool:
    """Whether the drill content describes this misconception for questions of this kind in this skill."""
    try:
        entry = texts(kind)
    except KeyError:
        return False
    return entry.get("skill") == skill and misconception in entry.get("teacher_descriptions", {})


def shown_question(example: Row) -> dict:
    """The parts of a stored question that an example reads (:func:`describe_rows`), as a question dict."""
    return {"prompt": example.prompt, "answer": example.answer, "choices": example.choices or []}


def describe_rows(
    db: Session,
    school_class: SchoolClass,
    shown: list[MisconceptionRow],
    showed: ShowedBy,
    now: datetime,
    more_examples: Collection[int] = (),
) -> dict[int, Row]:
    """Fill in each row's examples, pupils (with where they last showed it) and suggested homework from ``showed``
    (per misconception, each pupil's count and latest wrong answer); returns the answers read as examples by id, those
    of ``more_examples`` too (the report's questions most often wrong)."""
    by_pupil = {
        (row.skill, row.kind, row.misconception): showed.get((row.skill, row.kind, row.misconception), {})
        for row in shown
    }
    # where each pupil last showed each misconception, and what they typed: no stored question (reading hundreds of
    # them is slow)
    moments_wanted = {seen[1] for row in shown for seen in by_pupil[(row.skill, row.kind, row.misconception)].values()}
    moments = {}
    if moments_wanted:
        moments = {
            row.id: row
            for row in db.execute(
                select(
                    AttemptRecord.id,
                    AttemptRecord.move_index,
                    AttemptRecord.typed,
                    LessonRunRecord.public_id.label("run_public_id"),
                    LessonRunRecord.game_id,
                )
                .outerjoin(LessonRunRecord, LessonRunRecord.id == AttemptRecord.run_id)
                .where(AttemptRecord.id.in_(sorted(moments_wanted)))
            )
        }
    # the examples: the last such answer of the pupils who showed it most, one for each value typed
    values: dict[int, list[int]] = {}
    for row in shown:
        latest_first = sorted(by_pupil[(row.skill, row.kind, row.misconception)].values(), key=lambda v: (-v[0], -v[1]))
        chosen: dict[str, int] = {}
        for _, latest in latest_first:
            if latest in moments and len(chosen) < EXAMPLES:
                chosen.setdefault(moments[latest].typed, latest)
        values[id(row)] = list(chosen.values())
    examples = {attempt_id for ids in values.values() for attempt_id in ids} | set(more_examples)
    stored = {}
    if examples:
        # of each stored question only what the example shows: its prompt and, for a choice, the buttons (the whole
        # question, with its hints and worked solution, is several times longer to read and decode)
        stored = {
            row.id: row
            for row in db.execute(
                select(
                    AttemptRecord.id,
                    AttemptRecord.question["prompt"].label("prompt"),
                    AttemptRecord.question["answer"].label("answer"),
                    AttemptRecord.question["choices"].label("choices"),
                    AttemptRecord.typed,
                    AttemptRecord.read_as,
                ).where(AttemptRecord.id.in_(sorted(examples)))
            )
        }
    pupils = {
        pupil_id: PupilRef(pupil_id, public_id, name)
        for pupil_id, public_id, name in db.execute(
            select(Pupil.id, Pupil.public_id, Pupil.name).where(Pupil.class_id == school_class.id)
        )
    }
    levels: dict[tuple[int, str], str] = {}
    if shown:
        for record in db.execute(
            select(*LEVEL_COLUMNS)
            .join(Pupil, Pupil.id == SkillRecord.pupil_id)
            .where(Pupil.class_id == school_class.id, SkillRecord.skill.in_({row.skill for row in shown}))
        ):
            levels[(record.pupil_id, record.skill)] = skills.record_level(record, now)
    open_games: dict[str, list[str]] = {}
    for row in shown:
        for attempt_id in values[id(row)]:
            example = stored.get(attempt_id)
            if example is None:
                continue
            question = shown_question(example)
            row.examples.append(
                Example(
                    question_prompt(question), example.typed, example.read_as, choice_label(question, example.typed)
                )
            )
        seen_in = []
        for pupil_id, (count, latest) in by_pupil[(row.skill, row.kind, row.misconception)].items():
            if pupil_id not in pupils:
                continue
            last = moments.get(latest)
            row.pupils.append(
                PupilSeen(
                    pupils[pupil_id],
                    count,
                    last.run_public_id if last is not None else None,
                    last.move_index if last is not None else None,
                )
            )
            if last is not None and last.game_id:
                seen_in.append(last.game_id)
        row.pupils.sort(key=lambda seen: (-seen.count, name_key(seen.pupil.name), seen.pupil.id))
        if row.skill not in open_games:
            open_games[row.skill] = open_lessons(row.skill, school_class)
        game_id = suggested_game(seen_in, open_games[row.skill])
        if game_id is not None and row.pupils:
            level = suggested_level([levels.get((seen.pupil.id, row.skill), skills.NOT_STARTED) for seen in row.pupils])
            row.suggestion = Suggestion(game_id, row.skill, level, tuple(seen.pupil.public_id for seen in row.pupils))
    return stored
