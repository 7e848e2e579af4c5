"""Grades back to the platform: each pupil's share of a linked homework's goal, sent to its gradebook column.

A platform that makes a gradebook column (line item) for a deep-linked homework names it in each
launch of the link; :func:`note_line_item` records it. ``kortmatte lti send-grades`` (run by cron,
see docs/lti.md) then compares every linked pupil's score now (per cent of the goal, as the class
grid counts it) with the score the platform last accepted (:class:`~tutor.models.LtiGradeSent`)
and sends the changed ones. A lesson step never waits for a platform: nothing here runs in a
pupil's request, and a score that could not be sent stays different and goes with the next run,
also after a restart. The log names rows and kinds of failure, never a person.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

import requests
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.exception import LtiException
from pylti1p3.grade import Grade
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from tutor import homework_status
from tutor.lti.deep_linking import SCORE_MAXIMUM
from tutor.lti.services import OneRequestConnector
from tutor.lti.tool_config import DatabaseToolConf
from tutor.models import (
    Assignment,
    AssignmentWork,
    LtiGradeSent,
    LtiLineItem,
    LtiPlatform,
    LtiPupilLink,
    SkillRecord,
)

log = logging.getLogger(__name__)
ENDPOINT = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"


def note_line_item(db: Session, platform: LtiPlatform, assignment: Assignment, claims: dict) -> None:
    """Record the gradebook column a launch of the homework's link names (its URL may change; the last one wins)."""
    endpoint = claims.get(ENDPOINT) or {}
    url = str(endpoint.get("lineitem") or "")
    if not url or len(url) > 1000 or SCORE_SCOPE not in (endpoint.get("scope") or []):
        return
    query = select(LtiLineItem).where(
        LtiLineItem.platform_id == platform.id, LtiLineItem.assignment_id == assignment.id
    )
    found = db.scalar(query)
    if found is not None:
        found.url = url
        return
    try:
        with db.begin_nested():
            db.add(LtiLineItem(platform_id=platform.id, assignment_id=assignment.id, url=url))
    except IntegrityError:  # another launch of the link recorded it first
        db.scalar(query).url = url


def score_now(db: Session, assignment: Assignment, work: AssignmentWork, now: datetime) -> int:
    """The pupil's share of the homework's goal, in whole per cent (100 once the goal is reached)."""
    skill = homework_status.NO_ANSWERS
    if assignment.goal == "skill":
        record = db.scalar(
            select(SkillRecord).where(SkillRecord.pupil_id == work.pupil_id, SkillRecord.skill == assignment.goal_skill)
        )
        skill = homework_status.skill_now(record, now) if record is not None else skill
    return round(SCORE_MAXIMUM * min(1.0, homework_status.progress(assignment, work, skill)))


@dataclass(frozen=True)
class Due:
    """A score the platform has not accepted yet."""

    line_item: LtiLineItem
    pupil_id: int
    subject: str  # the platform's user id of the pupil
    score: int


def due_scores(db: Session, now: datetime) -> list[Due]:
    """Every linked pupil's score that differs from the one the platform last accepted."""
    rows = db.execute(
        select(LtiLineItem, Assignment, AssignmentWork, LtiPupilLink.subject, LtiGradeSent.score)
        .join(Assignment, Assignment.id == LtiLineItem.assignment_id)
        .join(AssignmentWork, AssignmentWork.assignment_id == Assignment.id)
        .join(
            LtiPupilLink,
            (LtiPupilLink.pupil_id == AssignmentWork.pupil_id)
            & (LtiPupilLink.platform_id == LtiLineItem.platform_id)
            & (LtiPupilLink.class_id == Assignment.class_id),
        )
        .outerjoin(
            LtiGradeSent,
            (LtiGradeSent.line_item_id == LtiLineItem.id) & (LtiGradeSent.pupil_id == AssignmentWork.pupil_id),
        )
        .order_by(LtiLineItem.id, AssignmentWork.pupil_id)
    ).all()
    due = []
    for line_item, assignment, work, subject, sent in rows:
        score = score_now(db, assignment, work, now)
        if score != sent:
            due.append(Due(line_item, work.pupil_id, subject, score))
    return due


def send_scores(db: Session, now: datetime) -> tuple[int, int]:
    """Send the due scores, each platform with one access token; returns (sent, failed). Commits each accepted one."""
    sent = failed = 0
    connectors: dict[int, OneRequestConnector] = {}
    tool = DatabaseToolConf(db)
    for due in due_scores(db, now):
        platform = db.get(LtiPlatform, due.line_item.platform_id)
        if platform.id not in connectors:
            registration = tool.find_registration_by_params(platform.issuer, platform.client_id)
            connectors[platform.id] = OneRequestConnector(registration)
        grade = (
            Grade()
            .set_user_id(due.subject)
            .set_score_given(due.score)
            .set_score_maximum(SCORE_MAXIMUM)
            .set_timestamp(now.isoformat())
            .set_activity_progress("Completed" if due.score >= SCORE_MAXIMUM else "InProgress")
            .set_grading_progress("FullyGraded")
        )
        service = AssignmentsGradesService(
            connectors[platform.id], {"scope": [SCORE_SCOPE], "lineitem": due.line_item.url}
        )
        try:
            service.put_grade(grade)
        except (LtiException, requests.RequestException, ValueError, KeyError) as error:
            log.warning("LTI score for line item %s could not be sent (%s)", due.line_item.id, type(error).__name__)
            failed += 1
            continue
        row = db.get(LtiGradeSent, (due.line_item.id, due.pupil_id))
        if row is None:
            db.add(LtiGradeSent(line_item_id=due.line_item.id, pupil_id=due.pupil_id, score=due.score, sent_at=now))
        else:
            row.score, row.sent_at = due.score, now
        db.commit()
        sent += 1
    return sent, failed
