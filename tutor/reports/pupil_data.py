"""Everything stored about one pupil, as plain JSON: the teacher's answer to a data request.

One section per table that holds rows about the pupil (:data:`SECTIONS`); a test checks that every table with a
foreign key to the pupil has its section, so a new table cannot be left out unnoticed. Left out on purpose: the
pupil's pictures or PIN (a sign-in secret, printed on the card the teacher holds), a guest device's cookie hash,
and the rate-limit and throttle counts (keyed by the pupil's id or a hash, deleted within a day).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor import accounts
from tutor.models import (
    AnswerDayCount,
    Assignment,
    AssignmentExtension,
    AssignmentPupil,
    AssignmentWork,
    AttemptRecord,
    GroupMember,
    LessonRunRecord,
    LtiGradeSent,
    LtiLineItem,
    LtiPlatform,
    LtiPupilLink,
    Pupil,
    PupilGroup,
    SignInLink,
    SignInSession,
    SkillRecord,
    utcnow,
)
from tutor.skill_model import skills

#: The export's section for each table that refers to a pupil.
SECTIONS = {
    "lesson_run": "lesson_runs",
    "attempt": "answers",
    "answer_day_count": "answers_per_day",
    "skill_record": "skills",
    "assignment_work": "homework",
    "assignment_pupil": "homework_chosen_for",
    "assignment_extension": "homework_later_due",
    "group_member": "groups",
    "sign_in_session": "sign_ins",
    "lti_pupil_link": "learning_platform_links",
    "sign_in_link": "school_account_links",
    "lti_grade_sent": "learning_platform_scores",
}


def _stamp(moment: datetime | None) -> str | None:
    return accounts.as_utc(moment).isoformat() if moment else None


def export_pupil(db: Session, pupil: Pupil) -> dict:
    """The pupil and one list per table that refers to them (:data:`SECTIONS`)."""
    runs = db.execute(
        select(LessonRunRecord, Assignment.public_id)
        .outerjoin(Assignment, Assignment.id == LessonRunRecord.assignment_id)
        .where(LessonRunRecord.pupil_id == pupil.id)
        .order_by(LessonRunRecord.created_at, LessonRunRecord.id)
    ).all()
    run_ids = {run.id: run.public_id for run, _ in runs}
    attempts = db.scalars(
        select(AttemptRecord)
        .where(AttemptRecord.pupil_id == pupil.id)
        .order_by(AttemptRecord.created_at, AttemptRecord.id)
    )
    day_counts = db.scalars(
        select(AnswerDayCount)
        .where(AnswerDayCount.pupil_id == pupil.id)
        .order_by(AnswerDayCount.day, AnswerDayCount.skill, AnswerDayCount.question_kind, AnswerDayCount.id)
    )
    records = db.scalars(select(SkillRecord).where(SkillRecord.pupil_id == pupil.id).order_by(SkillRecord.skill))
    work = db.execute(
        select(Assignment.public_id, AssignmentWork)
        .join(AssignmentWork, AssignmentWork.assignment_id == Assignment.id)
        .where(AssignmentWork.pupil_id == pupil.id)
        .order_by(AssignmentWork.started_at)
    )
    chosen = db.scalars(
        select(Assignment.public_id)
        .join(AssignmentPupil, AssignmentPupil.assignment_id == Assignment.id)
        .where(AssignmentPupil.pupil_id == pupil.id)
        .order_by(Assignment.created_at)
    )
    later = db.execute(
        select(Assignment.public_id, AssignmentExtension.due_at)
        .join(AssignmentExtension, AssignmentExtension.assignment_id == Assignment.id)
        .where(AssignmentExtension.pupil_id == pupil.id)
        .order_by(Assignment.created_at)
    )
    groups = db.execute(
        select(PupilGroup.public_id, PupilGroup.name)
        .join(GroupMember, GroupMember.group_id == PupilGroup.id)
        .where(GroupMember.pupil_id == pupil.id)
        .order_by(PupilGroup.name)
    )
    sessions = db.scalars(
        select(SignInSession).where(SignInSession.pupil_id == pupil.id).order_by(SignInSession.created_at)
    )
    platform_links = db.execute(
        select(LtiPlatform.issuer, LtiPupilLink.subject)
        .join(LtiPupilLink, LtiPupilLink.platform_id == LtiPlatform.id)
        .where(LtiPupilLink.pupil_id == pupil.id)
        .order_by(LtiPupilLink.id)
    )
    school_accounts = db.execute(
        select(SignInLink.provider, SignInLink.issuer, SignInLink.subject)
        .where(SignInLink.pupil_id == pupil.id)
        .order_by(SignInLink.id)
    )
    scores_sent = db.execute(
        select(LtiPlatform.issuer, Assignment.public_id, LtiGradeSent)
        .join(LtiLineItem, LtiLineItem.id == LtiGradeSent.line_item_id)
        .join(LtiPlatform, LtiPlatform.id == LtiLineItem.platform_id)
        .join(Assignment, Assignment.id == LtiLineItem.assignment_id)
        .where(LtiGradeSent.pupil_id == pupil.id)
        .order_by(LtiLineItem.id)
    )
    now = utcnow()
    return {
        "pupil": {
            "id": pupil.public_id,
            "name": pupil.name,
            "guest": pupil.is_guest,
            "class": pupil.school_class.name if pupil.school_class else None,
            "signs_in_with": pupil.school_class.sign_in if pupil.school_class else None,
            "language": pupil.locale,
            "avatar": pupil.avatar,
            "created_at": _stamp(pupil.created_at),
        },
        "lesson_runs": [
            {
                "id": run.public_id,
                "game": run.game_id,
                "homework": homework,
                "seed": run.seed,
                "stage": run.stage,
                "moves": run.data.get("moves", []),
                "started_at": _stamp(run.created_at),
                "last_step_at": _stamp(run.updated_at),
                "finished_at": _stamp(run.finished_at),
            }
            for run, homework in runs
        ],
        "answers": [
            {
                "lesson_run": run_ids.get(a.run_id),
                "at_move": a.move_index,
                "skill": a.skill,
                "question_kind": a.question_kind,
                "question": a.question,
                "typed": a.typed,
                "read_as": a.read_as,
                "readable": a.readable,
                "could_not_read": a.error_code,
                "correct": a.correct,
                "first_try": a.first_try,
                "hints_used": a.hints_used,
                "time_ms": a.time_ms,
                "misconception": a.misconception,
                "feedback": a.feedback,
                "skill_estimate_after": a.p_known_after,
                "skill_parameters_version": a.params_version,
                "at": _stamp(a.created_at),
            }
            for a in attempts
        ],
        "answers_per_day": [
            {
                "day": row.day.isoformat(),
                "skill": row.skill,
                "question_kind": row.question_kind,
                "misconception": row.misconception or None,
                "typed": row.typed or None,
                "answers": row.answers,
                "wrong": row.wrong,
            }
            for row in day_counts
        ],
        "skills": [
            {
                "skill": s.skill,
                "p_known": round(s.p_known, 4),
                "answers": s.attempts,
                "right": s.correct,
                "streak": s.streak,
                "typed_right": s.typed_right,
                "evidence": round(s.evidence, 4),
                "ability": round(s.ability, 4),
                "ability_answers": s.ability_count,
                "mastery_threshold": s.mastery_threshold,
                "level": skills.record_level(s, now),
                "practised_at": _stamp(s.practised_at),
                "updated_at": _stamp(s.updated_at),
            }
            for s in records
        ],
        "homework": [
            {
                "assignment": public_id,
                "games_finished": w.games_finished,
                "questions": w.questions,
                "first_try_right": w.first_try_right,
                "time_ms": w.time_ms,
                "started_at": _stamp(w.started_at),
                "last_active_at": _stamp(w.last_active_at),
                "done_at": _stamp(w.done_at),
            }
            for public_id, w in work
        ],
        "homework_chosen_for": [{"assignment": public_id} for public_id in chosen],
        "homework_later_due": [{"assignment": public_id, "due_at": _stamp(due)} for public_id, due in later],
        "groups": [{"id": public_id, "name": name} for public_id, name in groups],
        "sign_ins": [{"started_at": _stamp(s.created_at), "last_seen_at": _stamp(s.last_seen_at)} for s in sessions],
        # the learning platform (tutor.lti) and its opaque id for the pupil, which it signs them in by
        "learning_platform_links": [{"platform": issuer, "user_id": subject} for issuer, subject in platform_links],
        # the school account (tutor.sso) that signs the pupil in: its provider, issuer and opaque subject id
        "school_account_links": [
            {"provider": provider, "issuer": issuer, "subject": subject}
            for provider, issuer, subject in school_accounts
        ],
        # the homework scores the platforms' gradebooks accepted (tutor.lti.grades)
        "learning_platform_scores": [
            {"platform": issuer, "assignment": public_id, "score": row.score, "sent_at": _stamp(row.sent_at)}
            for issuer, public_id, row in scores_sent
        ],
    }
