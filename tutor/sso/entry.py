"""The teacher or pupil a checked school sign-in stands for, found by the provider's subject id and never by a name.

A school account is linked by its issuer and subject id (``sub``): the same name or e-mail
address on another account finds nothing. A teacher's first sign-in makes a teacher without
an e-mail address or password here, but only when the school vouches for them: Feide's groups
say they teach, or the operator lets teachers sign up. A pupil gets in only when linked: by
their teacher, or by Feide's groups, which place them in the class made for their group. A
pupil keeps only a first name (``given_name``), never a surname or an e-mail address.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor import accounts, classroom
from tutor.models import ClassTeacher, Pupil, SchoolClass, SignInGroupLink, SignInLink, Teacher

#: why a sign-in is turned away -> HTTP status
REASONS = {
    "provider_error": 400,  # the provider said no, or the person cancelled there
    "bad_state": 400,  # the answer does not belong to a sign-in this browser started (or it was used already)
    "bad_token": 403,  # the id_token's signature, issuer, audience or nonce is wrong
    "expired": 403,  # the id_token is too old
    "unreachable": 502,  # the provider or its groups API did not answer as documented
    "wrong_domain": 403,  # a Google account outside the school's Workspace domain
    "no_teacher_account": 403,  # nothing linked, and the school does not vouch for a new teacher
    "no_pupil_account": 403,  # nothing linked, and no class of the pupil's group here
    "switched_off": 403,
    "linked_elsewhere": 409,  # linking an account that already signs in somebody else
    "class_full": 403,
}
#: Feide: group types and memberships (https://docs.feide.no, the groups API)
TEACHING_GROUP = "fc:gogroup"
ORGANISATION = "fc:org"
STAFF_AFFILIATIONS = {"faculty", "staff", "employee"}
CLASS_NAME_MAX = 60


class Refused(Exception):
    """A sign-in that is turned away; ``reason`` is a key of :data:`REASONS`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = REASONS[reason]


@dataclass(frozen=True)
class Identity:
    """A school account as its checked id_token names it."""

    provider: str
    issuer: str
    subject: str
    name: str
    given_name: str

    @classmethod
    def from_claims(cls, provider: str, claims: dict) -> Identity:
        issuer, subject = str(claims.get("iss") or ""), str(claims.get("sub") or "")
        if not issuer or not subject or len(issuer) > 255 or len(subject) > 255:
            raise Refused("bad_token")
        return cls(provider, issuer, subject, str(claims.get("name") or ""), str(claims.get("given_name") or ""))


@dataclass(frozen=True)
class Group:
    """A teaching group of the school's records (Feide ``fc:gogroup``)."""

    id: str
    name: str
    teaches: bool  # the person is its teacher (``admin`` / ``faculty``), not one of its pupils


@dataclass(frozen=True)
class Fallbacks:
    """Words for what a provider did not send (in the language of the page that asks)."""

    teacher_name: str
    class_name: str
    pupil_name: str


def teaching_groups(groups: list) -> list[Group]:
    """The ``fc:gogroup`` groups of a groups API answer, in its order; anything else is left out."""
    found = []
    for group in groups if isinstance(groups, list) else []:
        if not isinstance(group, dict) or group.get("type") != TEACHING_GROUP or not group.get("id"):
            continue
        membership = group.get("membership") if isinstance(group.get("membership"), dict) else {}
        teaches = membership.get("basic") == "admin" or membership.get("affiliation") == "faculty"
        found.append(Group(str(group["id"])[:255], str(group.get("displayName") or ""), teaches))
    return found


def works_at_school(groups: list) -> bool:
    """Whether the school's records say this person teaches: staff of its organisation, or a group's teacher."""
    for group in groups if isinstance(groups, list) else []:
        if not isinstance(group, dict) or group.get("type") != ORGANISATION:
            continue
        membership = group.get("membership") if isinstance(group.get("membership"), dict) else {}
        affiliation = membership.get("affiliation")
        affiliations = set(affiliation) if isinstance(affiliation, list) else {affiliation}
        if affiliations & STAFF_AFFILIATIONS:
            return True
    return any(group.teaches for group in teaching_groups(groups))


def linked(db: Session, identity: Identity) -> SignInLink | None:
    return db.scalar(
        select(SignInLink).where(SignInLink.issuer == identity.issuer, SignInLink.subject == identity.subject)
    )


def group_class(db: Session, identity: Identity, group: Group) -> SchoolClass | None:
    return db.scalar(
        select(SchoolClass)
        .join(SignInGroupLink, SignInGroupLink.class_id == SchoolClass.id)
        .where(SignInGroupLink.issuer == identity.issuer, SignInGroupLink.group_id == group.id)
    )


def enter_as_teacher(
    db: Session, identity: Identity, groups: list[Group], may_create: bool, fallbacks: Fallbacks, locale: str
) -> Teacher:
    """The linked teacher (made when ``may_create``, in ``locale``), now teaching a class for each group they teach."""
    link = linked(db, identity)
    if link is not None and link.teacher_id is None:
        raise Refused("linked_elsewhere")  # a pupil's account does not open a teacher's pages
    teacher = db.get(Teacher, link.teacher_id) if link is not None else None
    if teacher is None:
        if not may_create:
            raise Refused("no_teacher_account")
        name = accounts.clean_name(identity.name or identity.given_name, accounts.TEACHER_NAME_MAX)
        teacher = Teacher(email=None, password_hash=None, name=name or fallbacks.teacher_name, locale=locale)
        db.add(teacher)
        db.flush()
        db.add(
            SignInLink(provider=identity.provider, issuer=identity.issuer, subject=identity.subject, teacher=teacher)
        )
    elif teacher.disabled:
        raise Refused("switched_off")
    for group in groups:
        if group.teaches:
            teach_group(db, identity, teacher, group, fallbacks)
    db.flush()
    return teacher


def teach_group(db: Session, identity: Identity, teacher: Teacher, group: Group, fallbacks: Fallbacks) -> None:
    """The group's class, made on its first teacher's sign-in; a later teacher of the group joins it as co-teacher."""
    school_class = group_class(db, identity, group)
    if school_class is None:
        name = accounts.clean_name(group.name, CLASS_NAME_MAX) or fallbacks.class_name
        locale = teacher.locale or "en"
        school_class = classroom.create_class(
            db, teacher, name, locale, classroom.DEFAULT_TIMEZONES.get(locale, "UTC"), "pictures"
        )
        db.add(
            SignInGroupLink(
                provider=identity.provider, issuer=identity.issuer, group_id=group.id, class_id=school_class.id
            )
        )
    elif not any(m.teacher_id == teacher.id for m in school_class.memberships):
        school_class.memberships.append(ClassTeacher(teacher=teacher, role="co"))


def enter_as_pupil(db: Session, identity: Identity, groups: list[Group], fallbacks: Fallbacks) -> Pupil:
    """The linked pupil; else a new pupil in the class made for one of their groups; else :class:`Refused`."""
    link = linked(db, identity)
    if link is not None:
        pupil = db.get(Pupil, link.pupil_id) if link.pupil_id is not None else None
        if pupil is None:
            raise Refused("linked_elsewhere")  # a teacher's account does not sign a pupil in
        return pupil
    for group in groups:
        school_class = None if group.teaches else group_class(db, identity, group)
        if school_class is None:
            continue
        if len(school_class.pupils) >= classroom.PUPILS_MAX:
            raise Refused("class_full")
        pupil = classroom.new_pupil(
            school_class, classroom.first_name(identity.given_name, identity.name, fallbacks.pupil_name)
        )
        db.flush()
        db.add(SignInLink(provider=identity.provider, issuer=identity.issuer, subject=identity.subject, pupil=pupil))
        db.flush()
        return pupil
    raise Refused("no_pupil_account")


def link(db: Session, identity: Identity, teacher: Teacher | None = None, pupil: Pupil | None = None) -> None:
    """Let this school account sign in ``teacher`` or ``pupil`` from now on; refused if it signs in somebody else."""
    found = linked(db, identity)
    if found is not None:
        if (teacher is not None and found.teacher_id == teacher.id) or (
            pupil is not None and found.pupil_id == pupil.id
        ):
            return
        raise Refused("linked_elsewhere")
    db.add(
        SignInLink(
            provider=identity.provider, issuer=identity.issuer, subject=identity.subject, teacher=teacher, pupil=pupil
        )
    )
    db.flush()
