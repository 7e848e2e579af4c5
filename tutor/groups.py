"""Groups inside a class: the teacher names a group and picks its pupils, and can set homework for it.

Plain SQLAlchemy, no Flask. A group belongs to one class; its members are pupils of that class.
Homework set for a group reaches its members at any time (a pupil added to the group later gets
it too, one taken out no longer sees it). Deleting a group keeps its homework for the pupils it
reached: such an assignment becomes one for those pupils, chosen by name.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from tutor import accounts
from tutor.classroom import Refused
from tutor.models import Assignment, AssignmentPupil, ClassTeacher, GroupMember, PupilGroup, SchoolClass, Teacher

GROUP_NAME_MAX = 40
GROUPS_MAX = 20  # per class


def groups_of(db: Session, school_class: SchoolClass) -> list[PupilGroup]:
    """The class's groups by name, with their members read in one more statement."""
    return list(
        db.scalars(
            select(PupilGroup)
            .where(PupilGroup.class_id == school_class.id)
            .options(selectinload(PupilGroup.members))
            .order_by(func.lower(PupilGroup.name), PupilGroup.id)
        )
    )


def group_for(db: Session, teacher: Teacher, public_id: str) -> PupilGroup | None:
    """The group with this public id, if this teacher teaches its class."""
    return db.scalar(
        select(PupilGroup)
        .join(ClassTeacher, ClassTeacher.class_id == PupilGroup.class_id)
        .where(PupilGroup.public_id == str(public_id), ClassTeacher.teacher_id == teacher.id)
    )


def _checked(db: Session, school_class: SchoolClass, name: str, pupil_ids, group: PupilGroup | None):
    clean = accounts.clean_name(name, GROUP_NAME_MAX)
    if clean is None:
        raise Refused("group_name", max=GROUP_NAME_MAX)
    taken = db.scalar(
        select(PupilGroup.id).where(
            PupilGroup.class_id == school_class.id,
            func.lower(PupilGroup.name) == clean.lower(),
            PupilGroup.id != (group.id if group is not None else -1),
        )
    )
    if taken:
        raise Refused("duplicate_group", name=clean)
    by_id = {p.public_id: p for p in school_class.pupils}
    wanted = list(dict.fromkeys(str(pupil_id) for pupil_id in pupil_ids))
    if any(pupil_id not in by_id for pupil_id in wanted):
        raise Refused("pupils")
    return clean, [by_id[pupil_id] for pupil_id in wanted]


def create_group(db: Session, school_class: SchoolClass, name: str, pupil_ids) -> PupilGroup:
    if db.scalar(select(func.count(PupilGroup.id)).where(PupilGroup.class_id == school_class.id)) >= GROUPS_MAX:
        raise Refused("groups_max", max=GROUPS_MAX)
    clean, members = _checked(db, school_class, name, pupil_ids, None)
    group = PupilGroup(class_id=school_class.id, name=clean)
    group.members = [GroupMember(pupil_id=pupil.id) for pupil in members]
    db.add(group)
    db.flush()
    return group


def update_group(db: Session, group: PupilGroup, name: str, pupil_ids) -> None:
    """A new name and the pupils in the group now; the group's homework follows its members."""
    school_class = db.get(SchoolClass, group.class_id)
    clean, members = _checked(db, school_class, name, pupil_ids, group)
    group.name = clean
    group.members = [GroupMember(pupil_id=pupil.id) for pupil in members]
    db.flush()


def delete_group(db: Session, group: PupilGroup) -> int:
    """Delete a group; its homework becomes homework for the pupils in it now. Returns how many assignments."""
    members = [member.pupil_id for member in group.members]
    kept = list(db.scalars(select(Assignment).where(Assignment.group_id == group.id)))
    for assignment in kept:
        assignment.group = None
        assignment.everyone = False
        assignment.chosen = [AssignmentPupil(pupil_id=pupil_id) for pupil_id in members]
    db.delete(group)
    db.flush()
    return len(kept)
