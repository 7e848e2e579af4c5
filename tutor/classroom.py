"""Classes, pupils and homework: what a teacher sets up and what a pupil's play counts towards.

Plain SQLAlchemy, no Flask. Every function that takes a public id from a URL also takes
the signed-in teacher and returns None unless that teacher teaches the class, so the web
layer turns "not yours" and "does not exist" into the same 404.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from babel.core import get_global
from sqlalchemy import delete, func, select, true
from sqlalchemy.orm import Session

from tutor import accounts, content, guessing, homework_status
from tutor.engine import GAMES, InvalidOptions, make_game
from tutor.lessons import LESSONS
from tutor.models import (
    Assignment,
    AssignmentExtension,
    AssignmentPupil,
    AssignmentWork,
    AttemptRecord,
    ClassTeacher,
    GroupMember,
    LessonRunRecord,
    Pupil,
    PupilGroup,
    SchoolClass,
    SkillRecord,
    Teacher,
    utcnow,
)
from tutor.skill_model import skills
from tutor.text import LOCALES

CLASS_NAME_MAX = 60
PUPILS_MAX = 60  # per class
GOAL_COUNT_MAX = {"games": 20, "questions": 500}
#: A pause longer than this between two steps is not counted as time spent on homework.
IDLE_GAP = timedelta(minutes=5)
#: The lesson that stays off until switched on: for a class by its teacher, for guests by the operator.
CASINO_WAR = "casino-war"


def lesson_open(game_id: str, school_class: SchoolClass | None, casino_war_for_guests: bool) -> bool:
    """Whether a pupil of ``school_class`` (None: a guest) may play this lesson: Casino War only when switched on."""
    if game_id != CASINO_WAR:
        return True
    return school_class.casino_war_on if school_class is not None else casino_war_for_guests


DEFAULT_TIMEZONES = {"en": "Europe/London", "nb": "Europe/Oslo", "sv": "Europe/Stockholm", "it": "Europe/Rome"}


class Refused(ValueError):
    """Input a teacher must correct; ``code`` names the problem for a localised message."""

    def __init__(self, code: str, **params) -> None:
        super().__init__(code)
        self.code, self.params = code, params


#: The time zones of the schools' countries, offered first (Norway, Sweden, Italy, then English-speaking Britain).
SCHOOL_TIMEZONES = ("Europe/Oslo", "Europe/Stockholm", "Europe/Rome", "Europe/London")


def timezones() -> list[str]:
    """The time zones a class is offered (Area/City names, sorted): the current ones, without the deprecated
    aliases such as Africa/Asmera (CLDR's canonical zones); a class may keep any zone it has."""
    canonical = get_global("zone_territories")
    return sorted(zone for zone in available_timezones() if "/" in zone and zone in canonical)


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


# --- classes ---------------------------------------------------------------------------------
def create_class(
    db: Session,
    teacher: Teacher,
    name: str,
    locale: str,
    timezone_name: str,
    sign_in: str,
    target_percent: str | None = None,
) -> SchoolClass:
    school_class = SchoolClass(code=accounts.new_class_code(db))
    update_class(school_class, name, locale, timezone_name, sign_in, target_percent)
    school_class.memberships.append(ClassTeacher(teacher=teacher, role="owner"))
    db.add(school_class)
    db.flush()
    return school_class


#: The shares of right answers a teacher may choose the questions' levels for (per cent; 75 by default).
TARGET_PERCENTS = (60, 65, 70, 75, 80, 85, 90)


def update_class(
    school_class: SchoolClass,
    name: str,
    locale: str,
    timezone_name: str,
    sign_in: str,
    target_percent: str | None = None,
    casino_war_on: bool | None = None,
    read_aloud_on: bool | None = None,
) -> None:
    """Check and set a class's settings; a ``target_percent``, ``casino_war_on`` or ``read_aloud_on`` of None keeps
    what the class has."""
    clean = accounts.clean_name(name, CLASS_NAME_MAX)
    if clean is None:
        raise Refused("class_name", max=CLASS_NAME_MAX)
    if locale not in LOCALES:
        raise Refused("locale")
    if timezone_name not in available_timezones():
        raise Refused("timezone")
    if sign_in not in accounts.SIGN_IN_KINDS:
        raise Refused("sign_in")
    if target_percent is not None and (not target_percent.isdigit() or int(target_percent) not in TARGET_PERCENTS):
        raise Refused("target_success", low=TARGET_PERCENTS[0], high=TARGET_PERCENTS[-1])
    if target_percent is not None:
        school_class.target_success = int(target_percent) / 100
    if casino_war_on is not None:
        school_class.casino_war_on = casino_war_on
    if read_aloud_on is not None:
        school_class.read_aloud_on = read_aloud_on
    if school_class.sign_in != sign_in and school_class.id is not None:
        for pupil in school_class.pupils:  # the old secrets do not fit the new kind of sign-in
            pupil.secret = accounts.new_secret(sign_in)
    school_class.name, school_class.locale, school_class.timezone, school_class.sign_in = (
        clean,
        locale,
        timezone_name,
        sign_in,
    )


def classes_of(db: Session, teacher: Teacher) -> list[tuple[SchoolClass, int]]:
    """The teacher's classes with their pupil counts, by name."""
    pupils = select(Pupil.class_id, func.count(Pupil.id).label("n")).group_by(Pupil.class_id).subquery()
    rows = db.execute(
        select(SchoolClass, func.coalesce(pupils.c.n, 0))
        .join(ClassTeacher, ClassTeacher.class_id == SchoolClass.id)
        .outerjoin(pupils, pupils.c.class_id == SchoolClass.id)
        .where(ClassTeacher.teacher_id == teacher.id)
        .order_by(SchoolClass.name)
    )
    return [(school_class, count) for school_class, count in rows]


def class_for(db: Session, teacher: Teacher, public_id: str) -> SchoolClass | None:
    """The class with this public id, if this teacher teaches it."""
    return db.scalar(
        select(SchoolClass)
        .join(ClassTeacher)
        .where(SchoolClass.public_id == str(public_id), ClassTeacher.teacher_id == teacher.id)
    )


def class_by_code(db: Session, raw_code: str) -> SchoolClass | None:
    code = accounts.normalise_code(raw_code)
    return db.scalar(select(SchoolClass).where(SchoolClass.code == code)) if code else None


def is_owner(db: Session, teacher: Teacher, school_class: SchoolClass) -> bool:
    return (
        db.scalar(
            select(ClassTeacher.role).where(
                ClassTeacher.class_id == school_class.id, ClassTeacher.teacher_id == teacher.id
            )
        )
        == "owner"
    )


def add_co_teacher(db: Session, school_class: SchoolClass, email: str) -> Teacher:
    clean = accounts.clean_email(email)
    teacher = db.scalar(select(Teacher).where(Teacher.email == clean)) if clean else None
    if teacher is None:
        raise Refused("no_such_teacher")
    if any(m.teacher_id == teacher.id for m in school_class.memberships):
        raise Refused("already_teaches")
    school_class.memberships.append(ClassTeacher(teacher=teacher, role="co"))
    return teacher


def remove_co_teacher(db: Session, school_class: SchoolClass, teacher_public_id: str) -> None:
    for membership in school_class.memberships:
        if membership.role == "co" and membership.teacher.public_id == teacher_public_id:
            school_class.memberships.remove(membership)
            return
    raise Refused("no_such_teacher")


def delete_class(db: Session, school_class: SchoolClass) -> None:
    """Delete a class with its pupils and all their work (hard delete)."""
    pupil_ids = [p.id for p in school_class.pupils]
    for pupil_id in pupil_ids:
        accounts.close_sessions_of(db, pupil_id=pupil_id)
    db.delete(school_class)


# --- pupils ----------------------------------------------------------------------------------
@dataclass
class AddedPupils:
    added: list[Pupil]
    duplicates: list[str]
    refused: list[str]
    over_limit: int = 0


def least_used_avatar(used: list[str]) -> str:
    """An avatar that the fewest pupils of the class have (a random one of those), so that faces tell pupils apart."""
    return min(accounts.AVATARS, key=lambda a: (used.count(a), secrets.randbelow(1000)))


def first_name(given: str | None, full: str | None, fallback: str) -> str:
    """A pupil's first name as a school system sends it: ``given``, else the first word of ``full``; never a surname
    (learning platforms and school accounts: tutor.lti, tutor.sso)."""
    name = accounts.clean_name(given or "")
    if name is None:
        words = str(full or "").split()
        name = accounts.clean_name(words[0]) if words else None
    return name or fallback


def free_name(school_class: SchoolClass, name: str) -> str:
    """``name``, or ``name 2``, ``name 3``... when the class has a pupil of that name already."""
    taken = {p.name.casefold() for p in school_class.pupils}
    candidate, number = name, 1
    while candidate.casefold() in taken:
        number += 1
        suffix = f" {number}"
        candidate = name[: accounts.NAME_MAX - len(suffix)] + suffix
    return candidate


def new_pupil(school_class: SchoolClass, name: str) -> Pupil:
    """A pupil joining the class from a school system, under a name no other pupil of the class has."""
    pupil = Pupil(
        name=free_name(school_class, name),
        is_guest=False,
        locale=school_class.locale,
        avatar=least_used_avatar([p.avatar for p in school_class.pupils]),
        secret=accounts.new_secret(school_class.sign_in),
    )
    school_class.pupils.append(pupil)
    return pupil


def add_pupils(db: Session, school_class: SchoolClass, text: str) -> AddedPupils:
    """Add pupils from a pasted list, one first name or nickname per line; duplicates are skipped."""
    existing = {p.name.casefold() for p in school_class.pupils}
    used_avatars = [p.avatar for p in school_class.pupils]
    result = AddedPupils([], [], [])
    for line in str(text or "").splitlines()[: PUPILS_MAX * 4]:
        if not line.strip():
            continue
        name = accounts.clean_name(line)
        if name is None:
            result.refused.append(line.strip()[:20])
            continue
        if name.casefold() in existing:
            result.duplicates.append(name)
            continue
        if len(existing) >= PUPILS_MAX:
            result.over_limit += 1
            continue
        avatar = least_used_avatar(used_avatars)
        pupil = Pupil(
            name=name,
            is_guest=False,
            locale=school_class.locale,
            avatar=avatar,
            secret=accounts.new_secret(school_class.sign_in),
        )
        school_class.pupils.append(pupil)
        existing.add(name.casefold())
        used_avatars.append(avatar)
        result.added.append(pupil)
    db.flush()
    return result


def pupil_for(db: Session, teacher: Teacher, public_id: str) -> Pupil | None:
    """The pupil with this public id, if this teacher teaches their class."""
    return db.scalar(
        select(Pupil)
        .join(SchoolClass, SchoolClass.id == Pupil.class_id)
        .join(ClassTeacher, ClassTeacher.class_id == SchoolClass.id)
        .where(Pupil.public_id == str(public_id), ClassTeacher.teacher_id == teacher.id)
    )


def run_for(db: Session, teacher: Teacher, public_id: str) -> LessonRunRecord | None:
    """The lesson run with this public id, if this teacher teaches its pupil's class."""
    return db.scalar(
        select(LessonRunRecord)
        .join(Pupil, Pupil.id == LessonRunRecord.pupil_id)
        .join(ClassTeacher, ClassTeacher.class_id == Pupil.class_id)
        .where(LessonRunRecord.public_id == str(public_id), ClassTeacher.teacher_id == teacher.id)
    )


def rename_pupil(db: Session, pupil: Pupil, name: str) -> None:
    clean = accounts.clean_name(name)
    if clean is None:
        raise Refused("pupil_name", max=accounts.NAME_MAX)
    taken = db.scalar(
        select(Pupil.id).where(
            Pupil.class_id == pupil.class_id, func.lower(Pupil.name) == clean.lower(), Pupil.id != pupil.id
        )
    )
    if taken:
        raise Refused("duplicate_pupil", name=clean)
    pupil.name = clean


def reset_secret(db: Session, pupil: Pupil) -> None:
    """New pictures (or PIN) for a pupil; their old sign-ins end and any wait is lifted."""
    pupil.secret = accounts.new_secret(pupil.school_class.sign_in)
    accounts.close_sessions_of(db, pupil_id=pupil.id)
    guessing.forget_pupil(db, pupil)


def delete_pupil(db: Session, pupil: Pupil) -> None:
    """Delete a pupil with their runs, answers, skill records and homework (hard delete)."""
    accounts.close_sessions_of(db, pupil_id=pupil.id)
    guessing.forget_pupil(db, pupil)
    db.delete(pupil)


def purge_guests(db: Session, now: datetime, days: int) -> int:
    """Delete guests (and all their work) not seen for ``days`` days; returns how many."""
    cutoff = now - timedelta(days=days)
    last_run = (
        select(LessonRunRecord.pupil_id, func.max(LessonRunRecord.updated_at).label("last"))
        .group_by(LessonRunRecord.pupil_id)
        .subquery()
    )
    stale = db.scalars(
        select(Pupil.id)
        .outerjoin(last_run, last_run.c.pupil_id == Pupil.id)
        .where(Pupil.is_guest.is_(True), Pupil.class_id.is_(None), Pupil.created_at < cutoff)
        .where((last_run.c.last.is_(None)) | (last_run.c.last < cutoff))
    ).all()
    for chunk in range(0, len(stale), 500):
        ids = stale[chunk : chunk + 500]
        db.execute(delete(Pupil).where(Pupil.id.in_(ids)))
    return len(stale)


def purge_old_work(db: Session, now: datetime, months: int) -> int:
    """Delete the games and answers of class pupils who have not played for ``months`` months (they have left the
    class in all but name); the pupil and their skill levels stay for the teacher. Returns how many pupils."""
    cutoff = now - timedelta(days=months * 365 // 12)
    last_run = (
        select(LessonRunRecord.pupil_id, func.max(LessonRunRecord.updated_at).label("last"))
        .group_by(LessonRunRecord.pupil_id)
        .subquery()
    )
    stale = db.scalars(
        select(Pupil.id)
        .join(last_run, last_run.c.pupil_id == Pupil.id)
        .where(Pupil.class_id.is_not(None), last_run.c.last < cutoff)
    ).all()
    for chunk in range(0, len(stale), 500):
        ids = stale[chunk : chunk + 500]
        db.execute(delete(AttemptRecord).where(AttemptRecord.pupil_id.in_(ids)))
        db.execute(delete(LessonRunRecord).where(LessonRunRecord.pupil_id.in_(ids)))
    return len(stale)


# --- homework --------------------------------------------------------------------------------
#: For whom homework is: the whole class (also pupils added later), a group of it (its members at any time), or chosen
#: pupils.
CLASS, GROUP, PUPILS = TARGETS = ("class", "group", "pupils")


@dataclass
class AssignmentForm:
    """A teacher's homework form, as typed; :func:`create_assignment` and :func:`update_assignment` check every
    field."""

    game_id: str
    players: str = "2"
    bots: str = "beginner"
    options: dict | None = None
    goal: str = "games"
    goal_count: str = "1"
    goal_skill: str = ""
    goal_level: str = ""
    due_date: str = ""
    due_time: str = "23:59"
    class_deal: bool = False
    target: str = CLASS
    group_id: str = ""
    pupil_ids: tuple[str, ...] = ()


def game_skills(game_id: str) -> list[str]:
    return list(content.load(f"games/{game_id}").get("skills", []))


def due_at_utc(day: str, clock: str, timezone_name: str) -> datetime:
    """A due date and time typed in the class's time zone, as UTC."""
    try:
        local = datetime.combine(date.fromisoformat(str(day)), time.fromisoformat(str(clock or "23:59")))
    except ValueError:
        raise Refused("due_date") from None
    return local.replace(tzinfo=zone(timezone_name)).astimezone(UTC)


def checked_due(form_day: str, form_clock: str, timezone_name: str, now: datetime, kept: datetime | None = None):
    """The due time of a form, refused when it has passed or is more than a year away (``kept`` unchanged is fine)."""
    due_at = due_at_utc(form_day, form_clock, timezone_name)
    if kept is not None and due_at == accounts.as_utc(kept):
        return due_at
    if due_at <= now:
        raise Refused("due_past")
    if due_at > now + timedelta(days=366):
        raise Refused("due_far")
    return due_at


@dataclass
class CheckedHomework:
    """A homework form's values once every field is checked."""

    game_id: str
    players: int
    bots: str
    options: dict
    goal: str
    goal_count: int
    goal_skill: str | None
    goal_level: str | None
    group: PupilGroup | None
    chosen: list[Pupil]


def check_homework(db: Session, school_class: SchoolClass, form: AssignmentForm) -> CheckedHomework:
    """Every field of a homework form but the due time, checked against the class; Refused names what to fix."""
    if form.game_id not in LESSONS or not lesson_open(form.game_id, school_class, False):
        raise Refused("game")
    game_class = GAMES[form.game_id]
    try:
        players = int(form.players)
        game = make_game(form.game_id, players, {**LESSONS[form.game_id].lesson_options, **(form.options or {})})
    except (InvalidOptions, ValueError, TypeError):
        raise Refused("options") from None
    if form.bots not in game_class.bots or players not in LESSONS[form.game_id].player_choices(game_class):
        raise Refused("options")
    if form.goal not in homework_status.GOALS:
        raise Refused("goal")
    goal_count, goal_skill, goal_level = 1, None, None
    if form.goal == "skill":
        if form.goal_skill not in game_skills(form.game_id) or form.goal_level not in skills.LEVELS[2:]:
            raise Refused("goal_skill")
        goal_skill, goal_level = form.goal_skill, form.goal_level
    else:
        try:
            goal_count = int(form.goal_count)
        except (TypeError, ValueError):
            raise Refused("goal_count", max=GOAL_COUNT_MAX[form.goal]) from None
        if not 1 <= goal_count <= GOAL_COUNT_MAX[form.goal]:
            raise Refused("goal_count", max=GOAL_COUNT_MAX[form.goal])
    group, chosen = None, []
    if form.target == GROUP:
        group = db.scalar(
            select(PupilGroup).where(PupilGroup.public_id == str(form.group_id), PupilGroup.class_id == school_class.id)
        )
        if group is None:
            raise Refused("group")
    elif form.target == PUPILS:
        by_id = {p.public_id: p for p in school_class.pupils}
        chosen = [by_id[pid] for pid in dict.fromkeys(form.pupil_ids) if pid in by_id]
        if not chosen or len(chosen) != len(set(form.pupil_ids)):
            raise Refused("pupils")
    elif form.target != CLASS:
        raise Refused("pupils")
    return CheckedHomework(
        form.game_id,
        players,
        form.bots,
        dict(game.options.items()),
        form.goal,
        goal_count,
        goal_skill,
        goal_level,
        group,
        chosen,
    )


def _apply(assignment: Assignment, checked: CheckedHomework) -> None:
    assignment.game_id, assignment.players, assignment.bots, assignment.options = (
        checked.game_id,
        checked.players,
        checked.bots,
        checked.options,
    )
    assignment.goal, assignment.goal_count = checked.goal, checked.goal_count
    assignment.goal_skill, assignment.goal_level = checked.goal_skill, checked.goal_level
    assignment.everyone = checked.group is None and not checked.chosen
    assignment.group = checked.group
    assignment.chosen = [AssignmentPupil(pupil_id=p.id) for p in checked.chosen]


def create_assignment(
    db: Session, school_class: SchoolClass, teacher: Teacher, form: AssignmentForm, now: datetime
) -> Assignment:
    checked = check_homework(db, school_class, form)
    due_at = checked_due(form.due_date, form.due_time, school_class.timezone, now)
    assignment = Assignment(
        class_id=school_class.id,
        created_by=teacher.id,
        due_at=due_at,
        seed=secrets.randbits(48) if form.class_deal else None,
        created_at=now,
    )
    _apply(assignment, checked)
    db.add(assignment)
    db.flush()
    return assignment


def update_assignment(db: Session, assignment: Assignment, form: AssignmentForm, now: datetime) -> None:
    """Change a set homework (lesson, goal, due time, for whom); its pupils see the change at once.

    The work done so far keeps counting. A due time left as it was may already have passed. A goal
    reached before the change and not reached under the new goal is open again; a game of another
    lesson that a pupil had not finished is no longer continued (:func:`unfinished_run`).
    """
    school_class = assignment.school_class
    checked = check_homework(db, school_class, form)
    assignment.due_at = checked_due(form.due_date, form.due_time, school_class.timezone, now, kept=assignment.due_at)
    if form.class_deal != (assignment.seed is not None):
        assignment.seed = secrets.randbits(48) if form.class_deal else None
    _apply(assignment, checked)
    assignment.changed_at = now
    db.flush()
    restamp_done(db, assignment)


def restamp_done(db: Session, assignment: Assignment) -> None:
    """Keep each pupil's "done" moment true to the goal as it is now (after the teacher changed it).

    A count goal reached under the new goal keeps its moment, or gets the pupil's last step in the
    homework (the count was reached then at the latest); one no longer reached is open again. A
    level goal stays done if the level was reached in the homework and still is.
    """
    levels = {}
    if assignment.goal == "skill":
        now = utcnow()
        levels = {
            record.pupil_id: homework_status.skill_now(record, now)
            for record in db.scalars(
                select(SkillRecord)
                .join(AssignmentWork, AssignmentWork.pupil_id == SkillRecord.pupil_id)
                .where(AssignmentWork.assignment_id == assignment.id, SkillRecord.skill == assignment.goal_skill)
            )
        }
    for work in db.scalars(select(AssignmentWork).where(AssignmentWork.assignment_id == assignment.id)):
        skill = levels.get(work.pupil_id, homework_status.NO_ANSWERS)
        if assignment.goal == "skill":
            there = skills.LEVELS.index(skill.level) >= skills.LEVELS.index(assignment.goal_level)
            work.done_at = work.done_at if there else None
        elif homework_status.progress(assignment, work, skill) >= 1.0:
            work.done_at = work.done_at or work.last_active_at
        else:
            work.done_at = None


def extend_due(db: Session, assignment: Assignment, pupil: Pupil, day: str, clock: str, now: datetime) -> datetime:
    """Give one pupil of the homework a later due time of their own (the others keep theirs)."""
    if not set_for(assignment, pupil):
        raise Refused("pupils")
    due_at = checked_due(day, clock, assignment.school_class.timezone, now)
    if due_at <= accounts.as_utc(assignment.due_at):
        raise Refused("due_not_later")
    extension = db.get(AssignmentExtension, (assignment.id, pupil.id))
    if extension is None:
        db.add(AssignmentExtension(assignment_id=assignment.id, pupil_id=pupil.id, due_at=due_at))
    else:
        extension.due_at = due_at
    db.flush()
    return due_at


def remove_extension(db: Session, assignment: Assignment, pupil: Pupil) -> None:
    """The pupil's due time is the assignment's again."""
    extension = db.get(AssignmentExtension, (assignment.id, pupil.id))
    if extension is None:
        raise Refused("pupils")
    db.delete(extension)
    db.flush()


def assignment_for(db: Session, teacher: Teacher, public_id: str) -> Assignment | None:
    return db.scalar(
        select(Assignment)
        .join(ClassTeacher, ClassTeacher.class_id == Assignment.class_id)
        .where(Assignment.public_id == str(public_id), ClassTeacher.teacher_id == teacher.id)
    )


def assignment_of_pupil(db: Session, pupil: Pupil, public_id: str) -> Assignment | None:
    """An assignment set for this pupil (their class's, for everyone, their group or them)."""
    if pupil.class_id is None:
        return None
    assignment = db.scalar(
        select(Assignment).where(Assignment.public_id == str(public_id), Assignment.class_id == pupil.class_id)
    )
    return assignment if assignment is not None and set_for(assignment, pupil) else None


def set_for(assignment: Assignment, pupil: Pupil) -> bool:
    """Whether the assignment is this pupil's homework: their class's, for everyone, for their group or chosen for
    them."""
    if assignment.class_id != pupil.class_id:
        return False
    if assignment.everyone:
        return True
    if assignment.group is not None:
        return any(m.pupil_id == pupil.id for m in assignment.group.members)
    return any(c.pupil_id == pupil.id for c in assignment.chosen)


def homework_of_run(db: Session, pupil: Pupil, run: LessonRunRecord) -> Assignment | None:
    """The assignment a run of this pupil was started from, while it is still set for them (else None)."""
    if run.assignment_id is None:
        return None
    assignment = db.get(Assignment, run.assignment_id)
    return assignment if assignment is not None and set_for(assignment, pupil) else None


def unfinished_run(db: Session, assignment: Assignment, pupil: Pupil) -> LessonRunRecord | None:
    """The pupil's unfinished game of this homework's lesson, to continue (one of another lesson, set before the
    teacher changed it, is left)."""
    return db.scalar(
        select(LessonRunRecord)
        .where(
            LessonRunRecord.pupil_id == pupil.id,
            LessonRunRecord.assignment_id == assignment.id,
            LessonRunRecord.game_id == assignment.game_id,
            LessonRunRecord.finished_at.is_(None),
        )
        .order_by(LessonRunRecord.updated_at.desc())
        .limit(1)
    )


def class_deal(assignment_seed: int, game: int) -> int:
    """The seed of every pupil's ``game``-th game (1, 2, ...) of an assignment with a class deal.

    The whole class plays the same deals in the same order, so they can talk about the same
    hands: the first game is dealt from the assignment's own seed, game n from the first 48 bits
    of BLAKE2b over the assignment's seed and n. A pupil's next game therefore differs from the
    last one (two seeds agree only by a 2**-48 chance), and a classmate's next game of the same
    number is the same deal.
    """
    if game <= 1:
        return assignment_seed
    digest = hashlib.blake2b(f"{assignment_seed}:{game}".encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


def next_homework_seed(db: Session, assignment: Assignment, pupil: Pupil) -> int | None:
    """The seed of the pupil's next game of this homework: the class deal's next one, or None without a class deal.

    Nothing new is stored: the game's number is one more than the runs the pupil has started
    from the assignment (at most one of them is unfinished, and that one is continued instead).
    """
    if assignment.seed is None:
        return None
    started = db.scalar(
        select(func.count(LessonRunRecord.id)).where(
            LessonRunRecord.assignment_id == assignment.id, LessonRunRecord.pupil_id == pupil.id
        )
    )
    return class_deal(assignment.seed, started + 1)


def set_for_clause(pupil_id_column, assignment: Assignment):
    """A WHERE clause on pupils (their ids in ``pupil_id_column``) that the assignment is set for, within its class."""
    if assignment.everyone:
        return true()
    if assignment.group_id is not None:
        return pupil_id_column.in_(select(GroupMember.pupil_id).where(GroupMember.group_id == assignment.group_id))
    return pupil_id_column.in_(select(AssignmentPupil.pupil_id).where(AssignmentPupil.assignment_id == assignment.id))


def assigned_pupils(db: Session, assignment: Assignment) -> list[Pupil]:
    """The pupils the assignment is set for now, by name."""
    query = select(Pupil).where(Pupil.class_id == assignment.class_id, set_for_clause(Pupil.id, assignment))
    return list(db.scalars(query.order_by(func.lower(Pupil.name))))


def extensions_of(db: Session, assignment_ids: list[int]) -> dict[tuple[int, int], datetime]:
    """The pupils' own due times of these assignments, by (assignment id, pupil id)."""
    if not assignment_ids:
        return {}
    return {
        (assignment_id, pupil_id): accounts.as_utc(due_at)
        for assignment_id, pupil_id, due_at in db.execute(
            select(AssignmentExtension.assignment_id, AssignmentExtension.pupil_id, AssignmentExtension.due_at).where(
                AssignmentExtension.assignment_id.in_(assignment_ids)
            )
        )
    }


@dataclass
class Homework:
    """One assignment as its pupil sees it."""

    assignment: Assignment
    work: AssignmentWork | None
    state: homework_status.WorkState
    run: LessonRunRecord | None  # an unfinished run to continue

    def changed_since_played(self) -> bool:
        """The teacher changed the homework after the pupil last played it (or before they started)."""
        changed = self.assignment.changed_at
        if changed is None:
            return False
        return self.work is None or accounts.as_utc(changed) > accounts.as_utc(self.work.last_active_at)


def homework_of(db: Session, pupil: Pupil, now: datetime) -> list[Homework]:
    """The pupil's assignments, soonest due first, with their work, their status and any run to continue."""
    if pupil.class_id is None:
        return []
    chosen = select(AssignmentPupil.assignment_id).where(AssignmentPupil.pupil_id == pupil.id)
    in_groups = select(GroupMember.group_id).where(GroupMember.pupil_id == pupil.id)
    assignments = db.scalars(
        select(Assignment)
        .where(
            Assignment.class_id == pupil.class_id,
            Assignment.everyone.is_(True) | Assignment.id.in_(chosen) | Assignment.group_id.in_(in_groups),
        )
        .order_by(Assignment.due_at)
    ).all()
    ids = [a.id for a in assignments]
    work = {
        w.assignment_id: w
        for w in db.scalars(
            select(AssignmentWork).where(AssignmentWork.pupil_id == pupil.id, AssignmentWork.assignment_id.in_(ids))
        )
    }
    runs = {}
    for run in db.scalars(
        select(LessonRunRecord)
        .where(
            LessonRunRecord.pupil_id == pupil.id,
            LessonRunRecord.assignment_id.in_(ids),
            LessonRunRecord.finished_at.is_(None),
        )
        .order_by(LessonRunRecord.updated_at)
    ):
        runs[(run.assignment_id, run.game_id)] = run
    records = {r.skill: r for r in db.scalars(select(SkillRecord).where(SkillRecord.pupil_id == pupil.id))}
    own_due = {
        assignment_id: due_at
        for (assignment_id, pupil_id), due_at in extensions_of(db, ids).items()
        if pupil_id == pupil.id
    }
    result = []
    for assignment in assignments:
        record = records.get(assignment.goal_skill) if assignment.goal_skill else None
        skill = homework_status.skill_now(record, now) if record else homework_status.NO_ANSWERS
        state = homework_status.state(assignment, work.get(assignment.id), now, skill, own_due.get(assignment.id))
        result.append(
            Homework(assignment, work.get(assignment.id), state, runs.get((assignment.id, assignment.game_id)))
        )
    result.sort(key=lambda item: (item.state.due_at, item.assignment.id))
    return result


def homework_state(db: Session, assignment: Assignment, pupil: Pupil, now: datetime) -> homework_status.WorkState:
    """One pupil's status on one assignment (the page after a homework game)."""
    work = db.get(AssignmentWork, (assignment.id, pupil.id))
    skill = homework_status.NO_ANSWERS
    if assignment.goal == "skill":
        record = db.scalar(
            select(SkillRecord).where(SkillRecord.pupil_id == pupil.id, SkillRecord.skill == assignment.goal_skill)
        )
        if record is not None:
            skill = homework_status.skill_now(record, now)
    extension = db.get(AssignmentExtension, (assignment.id, pupil.id))
    return homework_status.state(assignment, work, now, skill, extension.due_at if extension else None)


def read_for_step(db: Session, run: LessonRunRecord) -> None:
    """Read the rows :func:`note_step` needs into the session, so that the step's write transaction only writes."""
    if run.assignment_id is not None:
        db.get(AssignmentWork, (run.assignment_id, run.pupil_id))
        db.get(Assignment, run.assignment_id)


def note_step(
    db: Session,
    run: LessonRunRecord,
    now: datetime,
    first_try_right: bool | None = None,
    finished: bool = False,
    skill_record: SkillRecord | None = None,
) -> None:
    """Count a lesson step towards the run's assignment: time, a first try (right or not), a finished game."""
    if run.assignment_id is None:
        return
    work = db.get(AssignmentWork, (run.assignment_id, run.pupil_id))
    if work is None:
        work = AssignmentWork(
            assignment_id=run.assignment_id,
            pupil_id=run.pupil_id,
            started_at=now,
            last_active_at=now,
            games_finished=0,
            questions=0,
            first_try_right=0,
            time_ms=0,
        )
        db.add(work)
    gap = now - accounts.as_utc(work.last_active_at)
    if timedelta(0) < gap <= IDLE_GAP:
        work.time_ms += int(gap.total_seconds() * 1000)
    work.last_active_at = now
    if first_try_right is not None:
        work.questions += 1
        work.first_try_right += int(first_try_right)
    if finished:
        work.games_finished += 1
    if work.done_at is None and goal_reached(db, run, work, skill_record):
        work.done_at = now


def goal_reached(db: Session, run: LessonRunRecord, work: AssignmentWork, skill_record: SkillRecord | None) -> bool:
    """Whether this step reached the goal (:mod:`tutor.homework_status` says what each goal needs)."""
    assignment = db.get(Assignment, run.assignment_id)
    if assignment.goal != "skill":
        return homework_status.reached(assignment, work, homework_status.NO_ANSWERS)
    if skill_record is None or skill_record.skill != assignment.goal_skill:
        return False
    reached = skills.record_level(skill_record, skill_record.practised_at)
    return skills.LEVELS.index(reached) >= skills.LEVELS.index(assignment.goal_level)
