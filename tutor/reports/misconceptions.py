"""The weekly misconception report of a class: the most frequent misconceptions and the questions most often wrong."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from tutor import accounts, classroom
from tutor.models import (
    AttemptRecord,
    Pupil,
    SchoolClass,
)
from tutor.reports.common import choice_label, misconception_text, question_prompt
from tutor.reports.pupil import day_starts
from tutor.skill_model import skills
from tutor.text import Text

# --- misconception report -------------------------------------------------------------------
WEEK_PATTERN = re.compile(r"^\s*([0-9]{4})-?W([0-9]{1,2})\s*$", re.IGNORECASE)
TOP_MISCONCEPTIONS = 5  # per skill
TOP_QUESTIONS = 10
EXAMPLES = 3


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
class MisconceptionRow:
    skill: str
    kind: str
    misconception: str
    count: int
    text: Text | None
    examples: list[Example] = field(default_factory=list)


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
class MisconceptionReport:
    year: int
    week: int
    valid: bool  # False when the asked week could not be read and the current week is shown
    monday: date
    start: datetime
    end: datetime
    by_skill: list[tuple[str, list[MisconceptionRow]]]
    questions: list[QuestionRow]
    answers: int
    wrong: int

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


def misconception_report(
    db: Session, school_class: SchoolClass, week: str | None, now: datetime
) -> MisconceptionReport:
    """The week's most frequent misconceptions per skill and the questions most often answered wrong.

    Two statements. A GROUP BY over the week's readable answers of the class (by skill, question
    kind, misconception and, for a misconception, the value typed) counts answers and wrong
    answers and keeps each group's latest wrong answer; then the few answers shown as examples
    (per misconception its most frequent values typed, per question kind its latest wrong
    answer) are read by their ids.
    """
    parsed = parse_week(week)
    valid = parsed is not None or not week
    year, number = parsed or week_of(now, school_class.timezone)
    monday = date.fromisocalendar(year, number, 1)
    starts = day_starts(monday, 7, school_class.timezone)
    start, end = starts[0], starts[-1]
    in_class = select(Pupil.id).where(Pupil.class_id == school_class.id).scalar_subquery()
    wrong = AttemptRecord.correct.is_(False)
    typed = case(
        (AttemptRecord.misconception.is_not(None), AttemptRecord.typed)
    )  # no parameters: the same SQL in SELECT and GROUP BY
    groups = db.execute(
        select(
            AttemptRecord.skill,
            AttemptRecord.question_kind,
            AttemptRecord.misconception,
            func.count(AttemptRecord.id),
            func.sum(case((wrong, 1), else_=0)),
            func.max(case((wrong, AttemptRecord.id))),
        )
        .where(
            AttemptRecord.pupil_id.in_(in_class),
            AttemptRecord.created_at >= start,
            AttemptRecord.created_at < end,
            AttemptRecord.readable.is_(True),
        )
        .group_by(AttemptRecord.skill, AttemptRecord.question_kind, AttemptRecord.misconception, typed)
    ).all()
    kinds: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])  # answers, wrong, latest wrong answer's id
    found: dict[tuple[str, str, str], MisconceptionRow] = {}
    typed_values: dict[tuple[str, str, str], list[tuple[int, int]]] = defaultdict(
        list
    )  # (wrong answers, latest id) per value typed
    for skill, kind, misconception, answers, wrong_count, latest_wrong in groups:
        wrong_count = int(wrong_count or 0)
        totals = kinds[(skill, kind)]
        totals[0] += int(answers)
        totals[1] += wrong_count
        totals[2] = max(totals[2], latest_wrong or 0)
        if misconception and wrong_count:
            key = (skill, kind, misconception)
            found.setdefault(key, MisconceptionRow(skill, kind, misconception, 0, None)).count += wrong_count
            typed_values[key].append((wrong_count, latest_wrong))
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

    example_ids = {
        id(row): [
            attempt_id
            for _, attempt_id in sorted(
                typed_values[(row.skill, row.kind, row.misconception)], key=lambda v: (-v[0], -v[1])
            )[:EXAMPLES]
        ]
        for _, rows in by_skill
        for row in rows
    }
    wanted = {attempt_id for ids in example_ids.values() for attempt_id in ids} | {
        kinds[(q.skill, q.kind)][2] for q in questions
    }
    if wanted:
        stored = {
            row.id: row
            for row in db.execute(
                select(
                    AttemptRecord.id,
                    AttemptRecord.question_kind,
                    AttemptRecord.misconception,
                    AttemptRecord.question,
                    AttemptRecord.typed,
                    AttemptRecord.read_as,
                ).where(AttemptRecord.id.in_(sorted(wanted)))
            )
        }
        for _, rows in by_skill:
            for row in rows:
                for attempt_id in example_ids[id(row)]:
                    example = stored.get(attempt_id)
                    if example is None:
                        continue
                    if row.text is None:
                        row.text = misconception_text(row.kind, row.misconception, example.question)
                    row.examples.append(
                        Example(
                            question_prompt(example.question),
                            example.typed,
                            example.read_as,
                            choice_label(example.question, example.typed),
                        )
                    )
        for q in questions:
            example = stored.get(kinds[(q.skill, q.kind)][2])
            q.example = question_prompt(example.question) if example is not None else None
    return MisconceptionReport(
        year,
        number,
        valid,
        monday,
        start,
        end,
        by_skill,
        questions,
        sum(t[0] for t in kinds.values()),
        sum(t[1] for t in kinds.values()),
    )
