"""One definition of "done", "in progress", "needs help", "not started" and "late" per goal kind, checked by hand.

Each case is worked out from the table in tutor/homework_status.py: the counts of the homework's
own work, or for a level goal the pupil's level in the skill now.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from tutor import homework_status
from tutor.homework_status import DONE, IN_PROGRESS, LATE, NEEDS_HELP, NOT_STARTED, SkillNow, skill_now
from tutor.models import Assignment, AssignmentWork

NOW = datetime(2026, 11, 18, 12, 0, tzinfo=UTC)
DUE = NOW + timedelta(days=2)


def assignment(goal: str, count: int = 1, level: str | None = None) -> Assignment:
    return Assignment(
        goal=goal,
        goal_count=count,
        goal_skill="tens_friends" if goal == "skill" else None,
        goal_level=level,
        due_at=DUE,
    )


def work(games=0, questions=0, right=0, done_at=None) -> AssignmentWork:
    return AssignmentWork(
        games_finished=games,
        questions=questions,
        first_try_right=right,
        done_at=done_at,
        started_at=NOW - timedelta(hours=1),
        last_active_at=NOW - timedelta(minutes=5),
    )


@pytest.mark.parametrize(
    "goal,count,done,expected,progress",
    [
        # games: 3 games to finish
        ("games", 3, None, NOT_STARTED, 0.0),  # no work at all
        ("games", 3, work(games=0, questions=2, right=2), IN_PROGRESS, 0.0),  # started, no game finished yet
        ("games", 3, work(games=2, questions=10, right=8), IN_PROGRESS, 2 / 3),
        ("games", 3, work(games=1, questions=6, right=2), NEEDS_HELP, 1 / 3),  # 6 first tries, 2 right < 3
        ("games", 3, work(games=1, questions=6, right=3), IN_PROGRESS, 1 / 3),  # exactly half is not "fewer than half"
        ("games", 3, work(games=1, questions=5, right=0), IN_PROGRESS, 1 / 3),  # 5 first tries are too few to judge
        ("games", 3, work(games=3, questions=6, right=0, done_at=NOW), DONE, 1.0),  # done outranks needs help
        # questions: 10 to answer
        ("questions", 10, work(questions=4, right=4), IN_PROGRESS, 0.4),
        ("questions", 10, work(questions=8, right=3), NEEDS_HELP, 0.8),
        ("questions", 10, work(questions=12, right=11, done_at=NOW), DONE, 1.0),
    ],
)
def test_count_goals(goal, count, done, expected, progress):
    state = homework_status.state(assignment(goal, count), done, NOW)
    assert state.status == expected and state.progress == pytest.approx(progress)
    assert not state.done_late and not state.extended and state.due_at == DUE


def skill_at(p_known: float, attempts: int, evidence: float = 1e6) -> homework_status.SkillNow:
    """A skill record as the grid judges it now: ``evidence`` against guessing, a right typed answer given."""
    record = SimpleNamespace(
        skill="multiply",
        p_known=p_known,
        attempts=attempts,
        mastery_threshold=0.95,
        evidence=evidence,
        typed_right=1,
        practised_at=None,
    )
    return skill_now(record, NOW)


FAMILIAR = skill_at(0.6, 8)  # 0.5 <= p < 0.8: familiar
ATTEMPTED_HELP = skill_at(0.2, 9)  # 9 answers and p below 0.3: the grid's "needs help"
ATTEMPTED = skill_at(0.4, 3)
PROFICIENT = skill_at(0.85, 20)


@pytest.mark.parametrize(
    "done,skill,expected,progress",
    [
        (None, homework_status.NO_ANSWERS, NOT_STARTED, 0.0),  # no game, no answer in the skill
        # the bug of issue 23: a pupil already "familiar" elsewhere is done, not "not started 100 %"
        (None, FAMILIAR, DONE, 1.0),
        (None, ATTEMPTED, IN_PROGRESS, 0.5),  # answers in the skill elsewhere: started; attempted = 1 of 2 levels
        (work(questions=9, right=1), ATTEMPTED_HELP, NEEDS_HELP, 0.5),  # the skill model's mark, with its progress
        (work(questions=2, right=2), homework_status.NO_ANSWERS, IN_PROGRESS, 0.0),  # a game begun, no answer yet
        (work(questions=30, right=25), PROFICIENT, DONE, 1.0),
        # reached in a game of the homework and fallen back since: still done (the moment is kept)
        (work(questions=30, right=20, done_at=NOW - timedelta(hours=2)), ATTEMPTED, DONE, 1.0),
    ],
)
def test_level_goal_to_familiar(done, skill, expected, progress):
    state = homework_status.state(assignment("skill", level="familiar"), done, NOW, skill)
    assert state.status == expected and state.progress == pytest.approx(progress)
    # never the contradiction of issue 23: "not started" or "needs help" with the goal reached
    assert not (state.status in (NOT_STARTED, NEEDS_HELP) and state.progress == 1.0)


def test_late_and_handed_in_late_use_the_pupils_own_due_time():
    games = assignment("games", 2)
    after_due = DUE + timedelta(hours=1)
    assert homework_status.state(games, work(games=1), after_due).status == LATE
    assert homework_status.state(games, None, after_due).status == LATE  # late outranks "not started"
    given_later = DUE + timedelta(days=3)
    own = homework_status.state(games, work(games=1), after_due, due_at=given_later)
    assert own.status == IN_PROGRESS and own.extended and own.due_at == given_later
    finished_late = work(games=2, done_at=DUE + timedelta(minutes=1))
    assert homework_status.state(games, finished_late, after_due).done_late
    assert not homework_status.state(games, finished_late, after_due, due_at=given_later).done_late
    # a level reached outside the homework's games has no moment: done, never "handed in late"
    level = homework_status.state(assignment("skill", level="familiar"), None, after_due, FAMILIAR)
    assert level.status == DONE and not level.done_late


def test_a_level_goal_counts_levels_from_not_started():
    goal = assignment("skill", level="mastered")
    for level, share in (("not_started", 0), ("attempted", 1 / 4), ("familiar", 2 / 4), ("proficient", 3 / 4)):
        skill = SkillNow(level, False, 5 if level != "not_started" else 0)
        assert homework_status.progress(goal, None, skill) == pytest.approx(share)
