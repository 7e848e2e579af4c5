"""Names and roles: a teacher's launch reads the course's class list, so every pupil is there before they open a link.

The platform's membership list names each member by its opaque ``user_id`` with roles, a
status and (if the platform shares them) names. Active learners become pupils of the linked
class, exactly as their own first launch would make them (:func:`tutor.lti.roster.find_or_make_pupil`):
the first name only, linked by the user id. Running it again makes nobody twice; a member who
left the course is not removed (their answers stay; the teacher may delete the pupil).
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from tutor.lti.launch import Refused
from tutor.lti.roster import find_or_make_pupil
from tutor.models import LtiPlatform, SchoolClass

CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
#: Role names a membership list uses for learners (the full vocabulary URI or its short form).
LEARNER_ROLES = ("http://purl.imsglobal.org/vocab/lis/v2/membership#Learner", "Learner")
INSTRUCTOR_ROLES = ("http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor", "Instructor")


def is_learner(member: dict) -> bool:
    """An active learner of the course who does not also teach it."""
    roles = set(member.get("roles") or [])
    active = str(member.get("status") or "Active") == "Active"
    return active and bool(roles & set(LEARNER_ROLES)) and not roles & set(INSTRUCTOR_ROLES)


def add_learners(db: Session, platform: LtiPlatform, school_class: SchoolClass, members, fallback: str) -> int:
    """Make or find a pupil for each active learner in ``members``; returns how many were new.

    Stops quietly when the class is full (the pupils made so far stay; a later launch adds the rest
    once there is room).
    """
    made = 0
    for member in members:
        user_id = str(member.get("user_id") or "")
        if not is_learner(member) or not user_id or len(user_id) > 255:
            continue
        try:
            _, new = find_or_make_pupil(db, platform, school_class, user_id, member, fallback)
        except Refused:
            break
        made += new
    db.flush()
    return made
