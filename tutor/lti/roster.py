"""The teacher, class and pupil a checked launch stands for: found by the platform's ids, made on the first launch.

People are linked by the platform's opaque subject id and classes by its context id, both
within one registered platform, never by a name: two pupils called Emma stay two pupils, and
a platform reaches only the classes it made. A pupil keeps only a first name (the platform's
``given_name``); no surname or e-mail address is stored. A teacher from a platform has no
e-mail address or password here: the platform signs them in.

Two launches may race to make the same teacher, class or pupil (a class opening the link at
once): each is made inside a savepoint, and the loser of the race finds the winner's row by the
link's unique constraint instead of failing.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from tutor import accounts, classroom
from tutor.lti.launch import Refused
from tutor.models import (
    ClassTeacher,
    LtiClassLink,
    LtiPlatform,
    LtiPupilLink,
    LtiTeacherLink,
    Pupil,
    SchoolClass,
    Teacher,
)

CONTEXT = "https://purl.imsglobal.org/spec/lti/claim/context"
PRESENTATION = "https://purl.imsglobal.org/spec/lti/claim/launch_presentation"
#: Platform language tags that mean one of ours: Norwegian is "no", "nb" or "nn" depending on the platform.
LANGUAGES = {"nb": "nb", "no": "nb", "nn": "nb", "sv": "sv", "it": "it", "en": "en"}
CLASS_NAME_MAX = 60


@dataclass(frozen=True)
class Fallbacks:
    """Words for what a platform did not send (in the language of the page that asks)."""

    teacher_name: str
    class_name: str
    pupil_name: str


@dataclass(frozen=True)
class Entry:
    """Who signs in and into which class."""

    school_class: SchoolClass
    teacher: Teacher | None = None
    pupil: Pupil | None = None


def locale_of(claims: dict) -> str:
    tag = str((claims.get(PRESENTATION) or {}).get("locale") or "")
    return LANGUAGES.get(tag.replace("_", "-").split("-")[0].lower(), "en")


def context_id(claims: dict) -> str:
    found = str((claims.get(CONTEXT) or {}).get("id") or "")
    if not found or len(found) > 255:
        raise Refused("no_context")
    return found


def subject(claims: dict) -> str:
    found = str(claims.get("sub") or "")
    if not found or len(found) > 255:
        raise Refused("malformed")
    return found


def linked_class(db: Session, platform: LtiPlatform, context: str) -> SchoolClass | None:
    return db.scalar(
        select(SchoolClass)
        .join(LtiClassLink, LtiClassLink.class_id == SchoolClass.id)
        .where(LtiClassLink.platform_id == platform.id, LtiClassLink.context_id == context)
    )


def linked_teacher(db: Session, platform: LtiPlatform, sub: str) -> Teacher | None:
    return db.scalar(
        select(Teacher)
        .join(LtiTeacherLink, LtiTeacherLink.teacher_id == Teacher.id)
        .where(LtiTeacherLink.platform_id == platform.id, LtiTeacherLink.subject == sub)
    )


def enter_as_teacher(db: Session, platform: LtiPlatform, claims: dict, fallbacks: Fallbacks) -> Entry:
    """The instructor's teacher account and the course's class (made on the first launch; they teach it)."""
    sub, context, locale = subject(claims), context_id(claims), locale_of(claims)
    teacher = linked_teacher(db, platform, sub)
    if teacher is None:
        name = accounts.clean_name(claims.get("name") or claims.get("given_name") or "", accounts.TEACHER_NAME_MAX)
        try:
            with db.begin_nested():
                teacher = Teacher(email=None, password_hash=None, name=name or fallbacks.teacher_name, locale=locale)
                db.add(teacher)
                db.flush()
                db.add(LtiTeacherLink(platform_id=platform.id, subject=sub, teacher_id=teacher.id))
        except IntegrityError:  # another launch of the same teacher made them first
            teacher = linked_teacher(db, platform, sub)
    if teacher.disabled:
        raise Refused("switched_off")
    school_class = linked_class(db, platform, context)
    if school_class is None:
        course = claims.get(CONTEXT) or {}
        name = accounts.clean_name(course.get("title") or course.get("label") or "", CLASS_NAME_MAX)
        try:
            with db.begin_nested():
                school_class = classroom.create_class(
                    db,
                    teacher,
                    name or fallbacks.class_name,
                    locale,
                    classroom.DEFAULT_TIMEZONES.get(locale, "UTC"),
                    "pictures",
                )
                db.add(LtiClassLink(platform_id=platform.id, context_id=context, class_id=school_class.id))
        except IntegrityError:  # another teacher's first launch of the course made the class first
            school_class = linked_class(db, platform, context)
    if not any(m.teacher_id == teacher.id for m in school_class.memberships):
        school_class.memberships.append(ClassTeacher(teacher=teacher, role="co"))
    db.flush()
    return Entry(school_class, teacher=teacher)


def linked_pupil(db: Session, platform: LtiPlatform, sub: str, school_class: SchoolClass) -> Pupil | None:
    return db.scalar(
        select(Pupil)
        .join(LtiPupilLink, LtiPupilLink.pupil_id == Pupil.id)
        .where(
            LtiPupilLink.platform_id == platform.id,
            LtiPupilLink.subject == sub,
            LtiPupilLink.class_id == school_class.id,
        )
    )


def find_or_make_pupil(
    db: Session, platform: LtiPlatform, school_class: SchoolClass, sub: str, person: dict, fallback: str
) -> tuple[Pupil, bool]:
    """The platform user's pupil in the class, made with their first name if new; and whether it was made.

    ``person`` holds the platform's ``given_name``/``name`` (a launch's claims or a class list's member).
    """
    pupil = linked_pupil(db, platform, sub, school_class)
    if pupil is not None:
        return pupil, False
    if len(school_class.pupils) >= classroom.PUPILS_MAX:
        raise Refused("class_full")
    try:
        with db.begin_nested():
            name = classroom.first_name(person.get("given_name"), person.get("name"), fallback)
            pupil = classroom.new_pupil(school_class, name)
            db.flush()
            db.add(LtiPupilLink(platform_id=platform.id, subject=sub, class_id=school_class.id, pupil_id=pupil.id))
            db.flush()
    except IntegrityError:  # another launch of the same learner made them first
        db.expire(school_class, ["pupils"])
        return linked_pupil(db, platform, sub, school_class), False
    return pupil, True


def enter_as_pupil(db: Session, platform: LtiPlatform, claims: dict, fallbacks: Fallbacks) -> Entry:
    """The learner's pupil in the course's class (made on their first launch); the class must exist already."""
    sub = subject(claims)
    school_class = linked_class(db, platform, context_id(claims))
    if school_class is None:
        raise Refused("no_class")
    pupil, _ = find_or_make_pupil(db, platform, school_class, sub, claims, fallbacks.pupil_name)
    return Entry(school_class, pupil=pupil)


def enter(db: Session, platform: LtiPlatform, claims: dict, instructor: bool, learner: bool, fallbacks: Fallbacks):
    """The :class:`Entry` of a checked launch: an instructor enters as a teacher, a learner as a pupil."""
    if instructor:
        return enter_as_teacher(db, platform, claims, fallbacks)
    if learner:
        return enter_as_pupil(db, platform, claims, fallbacks)
    raise Refused("no_role")
