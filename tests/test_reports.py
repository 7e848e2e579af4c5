"""The dashboards' core (tutor.reports), on a real database: grid, homework, history, misconceptions, CSV."""

from __future__ import annotations

import csv
import io
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import event, select

from tutor import answer_counts, answers, classroom, reports
from tutor.deck import kids2
from tutor.drills import marking, texts
from tutor.drills.tens_friends import tens_friend_card, tens_friend_number
from tutor.models import (
    Assignment,
    AssignmentExtension,
    AssignmentPupil,
    AssignmentWork,
    AttemptRecord,
    LessonRunRecord,
    SkillRecord,
    Teacher,
    utcnow,
)
from tutor.skill_model import skills
from tutor.text import say
from tutor.web import db

UTC = UTC
NOW = datetime(2026, 11, 18, 12, 0, tzinfo=UTC)  # a Wednesday, week 2026-W47; Oslo is UTC+1 in winter


@pytest.fixture
def database(app):
    with app.app_context():
        yield db.session()


def make_class(
    database, name="4B", pupils=("Ada", "Ola", "Lise"), timezone_name="Europe/Oslo", email="tove@school.example"
):
    teacher = database.scalar(select(Teacher).where(Teacher.email == email))
    if teacher is None:
        teacher = Teacher(email=email, name="Tove", password_hash="x", locale="en")
        database.add(teacher)
        database.flush()
    school_class = classroom.create_class(database, teacher, name, "en", timezone_name, "pictures")
    classroom.add_pupils(database, school_class, "\n".join(pupils))
    database.flush()
    return school_class, {p.name: p for p in school_class.pupils}


def record(
    database,
    pupil,
    skill,
    p_known,
    attempts,
    mastery=skills.DEFAULT_PARAMS.mastery,
    evidence=skills.MASTERY_EVIDENCE,
    practised_at=None,
):
    """A skill record; by default with the evidence "mastered" needs (a right typed answer among it)."""
    database.add(
        SkillRecord(
            pupil_id=pupil.id,
            skill=skill,
            p_known=p_known,
            attempts=attempts,
            correct=0,
            streak=0,
            mastery_threshold=mastery,
            evidence=evidence,
            typed_right=1,
            practised_at=practised_at,
        )
    )


def question(n=1) -> dict:
    """A real Tens friends question (typed) for the top number ``n``."""
    for card in range(200):
        try:
            q = tens_friend_number(card)
        except ValueError:
            continue
        if q.prompt.params["n"] == n:
            return q.to_dict()
    raise AssertionError(n)


def card_question(n=1) -> dict:
    """A real Tens friends question answered with a button: which card of a hand of a 9 and two others
    makes ten with the top number ``n``."""
    top = next(c for c in kids2().number_card_ids if kids2()[c].top == n)
    hand = [next(c for c in kids2().number_card_ids if kids2()[c].top == k and c != top) for k in (9, 5, n)]
    return tens_friend_card(hand, top).to_dict()


def attempt(
    database,
    pupil,
    at,
    *,
    q=None,
    correct=False,
    typed="1",
    misconception=None,
    first_try=True,
    readable=True,
    p_known_after=None,
    error_code=None,
    run=None,
    skill=None,
):
    q = q or question()
    row = AttemptRecord(
        pupil_id=pupil.id,
        run_id=run.id if run else None,
        skill=skill or q["skill"],
        question_kind=q["kind"],
        question=q,
        typed=typed if readable else "",
        read_as=typed if readable else None,
        correct=correct,
        readable=readable,
        first_try=first_try and readable,
        hints_used=1,
        time_ms=5000,
        error_code=None if readable else (error_code or "letters"),
        misconception=misconception,
        p_known_after=p_known_after,
        created_at=at,
    )
    database.add(row)
    database.flush()
    answer_counts.count_answer(database, row)  # as progress.record_attempt counts a stored answer
    return row


@contextmanager
def statements(database):
    """Count the SQL statements run inside the block."""
    seen = []
    engine = database.get_bind()

    def count(*_args):
        seen.append(1)

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


# --- class grid -----------------------------------------------------------------------------
def test_the_grid_columns_are_the_games_skills_in_catalogue_order():
    assert reports.grid_skills() == [
        "compare",
        "count",
        "tens_friends",
        "parity_size",
        "add_sub",
        "missing_addend",
        "multiply",
        "factor_pairs",
        "estimate_sum",
        "exact_sum",
        "four_ops",
        "fractions",
        "primes",
        "mean",
        "probability",
    ]


@pytest.fixture
def no_three_traits(monkeypatch):
    """A school without Three Traits: no game practises parity_size, so it is no column of the grid."""
    from tutor.reports import common, grid

    columns = tuple(skill for skill in common.grid_skill_ids() if skill != "parity_size")
    monkeypatch.setattr(common, "grid_skill_ids", lambda: columns)
    monkeypatch.setattr(grid, "grid_skill_ids", lambda: columns)


def test_grid_levels_use_each_records_own_mastery_threshold_and_mark_needs_help(database, no_three_traits):
    school_class, pupils = make_class(database)
    other_class, others = make_class(database, "5C", ("Bo",))
    record(database, pupils["Ada"], "multiply", 0.9, 10, mastery=0.85)  # mastered by its own threshold
    record(database, pupils["Ola"], "multiply", 0.9, 10)  # proficient by the default 0.95
    record(database, pupils["Ola"], "tens_friends", 0.2, 5)  # needs help
    record(database, pupils["Lise"], "tens_friends", 0.2, 3)  # too few answers to say
    record(database, pupils["Lise"], "parity_size", 0.99, 9)  # no game practises it: not a column
    record(database, others["Bo"], "multiply", 0.99, 9)
    database.flush()

    grid = reports.class_grid(database, school_class)
    rows = {row.pupil.name: row for row in grid.rows}
    assert set(rows) == {"Ada", "Ola", "Lise"}
    assert rows["Ada"].cell("multiply").level == skills.MASTERED
    assert rows["Ola"].cell("multiply").level == skills.PROFICIENT
    assert rows["Ola"].cell("tens_friends") == reports.Cell(skills.ATTEMPTED, True, 0.2, 5)
    assert rows["Lise"].cell("tens_friends").needs_help is False
    assert rows["Lise"].cell("fractions") == reports.Cell(skills.NOT_STARTED)
    assert "parity_size" not in rows["Lise"].cells and "parity_size" not in grid.skills
    assert rows["Ola"].needs_help == ["tens_friends"]
    assert grid.pupils_needing_help == 1 and grid.needs_help_count("tens_friends") == 1
    assert grid.level_counts("multiply") == {
        "not_started": 1,
        "attempted": 0,
        "familiar": 0,
        "proficient": 1,
        "mastered": 1,
    }


def test_the_grid_shows_mastered_only_with_the_evidence_and_lowers_it_after_weeks_without_practice(database):
    school_class, pupils = make_class(database)
    weeks_ago = utcnow() - timedelta(days=21)
    record(database, pupils["Ada"], "multiply", 0.99, 8, evidence=3.0)  # lucky taps: 20 to 1 against guessing
    record(database, pupils["Ola"], "multiply", 0.99, 20, evidence=skills.EVIDENCE_CAP, practised_at=weeks_ago)
    record(database, pupils["Lise"], "multiply", 0.99, 20, evidence=skills.EVIDENCE_CAP, practised_at=utcnow())
    database.flush()
    rows = {row.pupil.name: row for row in reports.class_grid(database, school_class).rows}
    # three weeks halve the evidence 1.5 times: 11.41 / 2.83 = 4.03, 10 to 1 but not 300 to 1
    assert {name: row.cell("multiply").level for name, row in rows.items()} == {
        "Ada": skills.PROFICIENT,
        "Ola": skills.PROFICIENT,
        "Lise": skills.MASTERED,
    }


def test_grid_sorting_needs_help_first_by_name_or_weakest_in_a_skill(database, no_three_traits):
    school_class, pupils = make_class(database, pupils=("ada", "Bea", "Cato", "Dina"))
    record(database, pupils["Cato"], "multiply", 0.1, 6)
    record(database, pupils["Cato"], "add_sub", 0.1, 6)
    record(database, pupils["Dina"], "add_sub", 0.2, 8)
    record(database, pupils["Bea"], "multiply", 0.6, 8)
    record(database, pupils["ada"], "multiply", 0.97, 30)
    database.flush()

    def order(sort):
        grid = reports.class_grid(database, school_class, sort)
        return grid.sort, [row.pupil.name for row in grid.rows]

    assert order(None) == ("help", ["Cato", "Dina", "ada", "Bea"])
    assert order("name") == ("name", ["ada", "Bea", "Cato", "Dina"])
    # a skill: needing help first, then the lowest level (not started counts as lowest), then the estimate
    assert order("multiply") == ("multiply", ["Cato", "Dina", "Bea", "ada"])
    for bad in ("", "nonsense", "parity_size", "name; drop table", "HELP"):
        assert order(bad)[0] == "help"


def test_the_grid_reads_a_class_in_two_statements_whatever_its_size(database):
    small, _ = make_class(database, "S", ("A1", "A2"))
    big, pupils = make_class(database, "B", tuple(f"P{i}" for i in range(25)))
    for pupil in pupils.values():
        for skill in ("multiply", "add_sub", "fractions"):
            record(database, pupil, skill, 0.5, 5)
    database.flush()
    with statements(database) as seen_small:
        reports.class_grid(database, small)
    with statements(database) as seen_big:
        grid = reports.class_grid(database, big, "multiply")
    assert len(seen_small) == len(seen_big) == 2
    assert all(row.cell("fractions").level == skills.FAMILIAR for row in grid.rows)


# --- assignment view ------------------------------------------------------------------------
def homework(database, school_class, due, goal="questions", count=10, everyone=True, **fields):
    assignment = Assignment(
        class_id=school_class.id,
        game_id="crazy-banana-tiervenner",
        goal=goal,
        goal_count=count,
        due_at=due,
        everyone=everyone,
        created_at=NOW - timedelta(days=7),
        **fields,
    )
    database.add(assignment)
    database.flush()
    return assignment


def work(database, assignment, pupil, questions=0, right=0, done_at=None, time_ms=0):
    database.add(
        AssignmentWork(
            assignment_id=assignment.id,
            pupil_id=pupil.id,
            started_at=NOW - timedelta(days=1),
            last_active_at=NOW - timedelta(hours=1),
            games_finished=1,
            questions=questions,
            first_try_right=right,
            time_ms=time_ms,
            done_at=done_at,
        )
    )


def test_assignment_statuses_progress_and_accuracy(database):
    school_class, pupils = make_class(database, pupils=("Ada", "Bo", "Cy", "Di", "Eli"))
    due = NOW + timedelta(days=2)
    assignment = homework(database, school_class, due)
    work(database, assignment, pupils["Bo"], questions=4, right=3, time_ms=125_000)  # in progress
    work(database, assignment, pupils["Cy"], questions=8, right=3)  # needs help: 6+ questions, under half right
    work(database, assignment, pupils["Di"], questions=10, right=9, done_at=NOW - timedelta(hours=2))  # done in time
    work(database, assignment, pupils["Eli"], questions=6, right=3)  # exactly half: not needs help
    database.flush()

    report = reports.assignment_report(database, assignment, NOW)
    rows = {row.pupil.name: row for row in report.rows}
    assert [row.pupil.name for row in report.rows] == ["Ada", "Bo", "Cy", "Di", "Eli"]
    assert {name: row.status for name, row in rows.items()} == {
        "Ada": "not_started",
        "Bo": "in_progress",
        "Cy": "needs_help",
        "Di": "done",
        "Eli": "in_progress",
    }
    assert report.counts == {"not_started": 1, "in_progress": 2, "needs_help": 1, "done": 1, "late": 0}
    assert rows["Ada"].accuracy is None and rows["Ada"].progress == 0
    assert rows["Bo"].accuracy == 0.75 and rows["Bo"].progress == 0.4 and rows["Bo"].time_ms == 125_000
    assert rows["Di"].progress == 1.0 and not rows["Di"].done_late
    assert not report.past_due and report.done_late == 0


def test_assignment_after_the_due_time_is_late_or_handed_in_late(database):
    school_class, pupils = make_class(database, pupils=("Ada", "Bo", "Cy"))
    due = NOW - timedelta(days=1)
    assignment = homework(database, school_class, due)
    work(
        database, assignment, pupils["Bo"], questions=10, right=10, done_at=due + timedelta(hours=3)
    )  # done after the due time
    work(database, assignment, pupils["Cy"], questions=10, right=10, done_at=due - timedelta(hours=3))
    database.flush()
    report = reports.assignment_report(database, assignment, NOW)
    rows = {row.pupil.name: row for row in report.rows}
    assert rows["Ada"].status == "late" and not rows["Ada"].done_late
    assert rows["Bo"].status == "done" and rows["Bo"].done_late
    assert rows["Cy"].status == "done" and not rows["Cy"].done_late
    assert report.counts["late"] == 1 and report.counts["done"] == 2 and report.done_late == 1 and report.past_due
    assert reports.status_word(rows["Bo"]) == "handed in late" and reports.status_word(rows["Ada"]) == "late"


def test_assignment_for_chosen_pupils_and_skill_goal_progress(database):
    school_class, pupils = make_class(database, pupils=("Ada", "Bo", "Cy"))
    assignment = homework(
        database,
        school_class,
        NOW + timedelta(days=1),
        goal="skill",
        everyone=False,
        goal_skill="tens_friends",
        goal_level="proficient",
    )
    database.add_all([AssignmentPupil(assignment_id=assignment.id, pupil_id=pupils[name].id) for name in ("Ada", "Bo")])
    record(
        database, pupils["Bo"], "tens_friends", 0.6, 6
    )  # familiar: 3 of 4 levels... progress is level index / target index
    record(database, pupils["Cy"], "tens_friends", 0.99, 20)
    database.flush()
    with statements(database) as seen:
        report = reports.assignment_report(database, assignment, NOW)
    assert [row.pupil.name for row in report.rows] == ["Ada", "Bo"]
    assert report.rows[1].progress == pytest.approx(skills.LEVELS.index("familiar") / skills.LEVELS.index("proficient"))
    assert len(seen) == 4  # pupils, work, own due dates, skill records: no answers counted


def test_a_skill_goal_is_judged_by_the_mastery_threshold_each_record_keeps(database):
    """0.93 is mastered for a record judged by 0.9 and only proficient for one judged by 0.99 (the default is 0.95)."""
    school_class, pupils = make_class(database, pupils=("Ada", "Bo"))
    assignment = homework(
        database, school_class, NOW + timedelta(days=1), goal="skill", goal_skill="tens_friends", goal_level="mastered"
    )
    reached = {}
    for name, threshold in (("Ada", 0.9), ("Bo", 0.99)):
        record(database, pupils[name], "tens_friends", 0.93, 6, mastery=threshold)
        run = LessonRunRecord(
            pupil_id=pupils[name].id,
            game_id="crazy-banana-tiervenner",
            seed=1,
            stage="play",
            data={},
            assignment_id=assignment.id,
        )
        database.add(run)
        database.flush()
        skill_record = database.scalar(select(SkillRecord).where(SkillRecord.pupil_id == pupils[name].id))
        classroom.note_step(database, run, NOW, first_try_right=True, finished=False, skill_record=skill_record)
        reached[name] = database.get(AssignmentWork, (assignment.id, pupils[name].id)).done_at is not None
    assert reached == {"Ada": True, "Bo": False}


# --- pupil page -----------------------------------------------------------------------------
def test_skill_history_buckets_first_tries_by_local_day_and_keeps_the_days_last_value(database):
    school_class, pupils = make_class(database, timezone_name="Europe/Oslo")
    ada = pupils["Ada"]
    # Oslo is UTC+1: 22:30 UTC is 23:30 on the 16th; 23:30 UTC is already the 17th there.
    attempt(database, ada, datetime(2026, 11, 16, 20, 0, tzinfo=UTC), p_known_after=0.30)
    attempt(database, ada, datetime(2026, 11, 16, 22, 30, tzinfo=UTC), p_known_after=0.35)
    attempt(database, ada, datetime(2026, 11, 16, 23, 30, tzinfo=UTC), p_known_after=0.50)
    attempt(
        database, ada, datetime(2026, 11, 17, 9, 0, tzinfo=UTC), p_known_after=None, first_try=False
    )  # a second try: no estimate
    attempt(database, ada, datetime(2026, 11, 17, 10, 0, tzinfo=UTC), p_known_after=0.40, skill="multiply")
    attempt(database, ada, NOW - timedelta(days=60), p_known_after=0.9)  # older than 8 weeks
    database.flush()
    history = reports.skill_history(database, ada.id, school_class.timezone, NOW)
    assert history.last_day == date(2026, 11, 18) and history.first_day == date(2026, 11, 18) - timedelta(days=55)
    assert history.values == {
        "tens_friends": {date(2026, 11, 16): 0.35, date(2026, 11, 17): 0.50},
        "multiply": {date(2026, 11, 17): 0.40},
    }
    assert history.skills == ["tens_friends", "multiply"]  # catalogue order
    assert history.days == [date(2026, 11, 16), date(2026, 11, 17)]
    # the same answers in UTC fall on other days
    assert reports.skill_history(database, ada.id, "UTC", NOW).values["tens_friends"] == {date(2026, 11, 16): 0.50}


def test_chart_coordinates_follow_days_and_estimates():
    history = reports.History(
        date(2026, 11, 1),
        date(2026, 11, 29),
        {"multiply": {date(2026, 11, 1): 0.0, date(2026, 11, 29): 1.0}, "add_sub": {date(2026, 11, 15): 0.5}},
    )
    chart = reports.chart(history, width=500, height=300)
    multiply = next(line for line in chart.lines if line.skill == "multiply")
    (x0, y0, _, _), (x1, y1, _, _) = multiply.points
    assert (x0, y0) == (chart.left, chart.plot_bottom) and (x1, y1) == (chart.plot_right, chart.top)
    add_sub = next(line for line in chart.lines if line.skill == "add_sub")
    assert add_sub.points[0][:2] == ((chart.left + chart.plot_right) / 2, (chart.top + chart.plot_bottom) / 2)
    assert [line.style for line in chart.lines] == [0, 1] and [line.skill for line in chart.lines] == [
        "add_sub",
        "multiply",
    ]
    assert [day for _, day in chart.x_ticks] == [
        date(2026, 11, 1),
        date(2026, 11, 8),
        date(2026, 11, 15),
        date(2026, 11, 22),
        date(2026, 11, 29),
    ]


def test_recent_answers_show_no_typed_text_for_unreadable_answers_and_the_chosen_button(database):
    school_class, pupils = make_class(database)
    ada = pupils["Ada"]
    q, tapped = question(1), card_question(1)
    run = LessonRunRecord(pupil_id=ada.id, game_id="crazy-banana-tiervenner", seed=1, stage="play", data={})
    database.add(run)
    database.flush()
    nine = tapped["check"]["expected"][0]  # the 9 among the buttons
    attempt(database, ada, NOW - timedelta(minutes=3), q=tapped, typed=nine, correct=True, run=run)
    attempt(database, ada, NOW - timedelta(minutes=2), q=q, typed="1", misconception="same_number", run=run)
    attempt(database, ada, NOW - timedelta(minutes=1), q=q, readable=False, error_code="letters", run=run)
    database.flush()
    rows = reports.recent_answers(database, ada.id)
    assert [r.readable for r in rows] == [False, True, True]
    unreadable, wrong, right = rows
    assert unreadable.typed == "" and unreadable.error_code == "letters" and unreadable.chosen is None
    assert right.chosen is not None and right.chosen.params["top"] == 9 and right.run_public_id == run.public_id
    assert wrong.chosen is None  # typed: no button
    assert wrong.misconception.msgid == texts(q["kind"])["teacher_descriptions"]["same_number"]  # not the child's
    assert right.prompt.params["n"] == 1
    runs, total = reports.lesson_runs(database, ada.id)
    assert (
        total == 1 and runs[0].questions == 2 and runs[0].public_id == run.public_id
    )  # first tries that could be read


def test_every_refusal_code_has_a_short_description():

    codes = {key.split("/")[0] for key in answers.MESSAGES} | {marking.TYPE_THE_RESULT, "not_a_choice"}
    assert codes - set(marking.REFUSAL_DESCRIPTIONS) == set()
    assert marking.refusal_description("letters") == "letters instead of numbers"
    assert marking.refusal_description("no_such_code") == marking.UNKNOWN_REFUSAL


# --- misconception report -------------------------------------------------------------------
@pytest.mark.parametrize(
    "value, expected",
    [
        ("2026-W47", (2026, 47)),
        ("2026w7", (2026, 7)),
        ("2026-W4７", None),
        (" 2026-W47 ", (2026, 47)),
        ("2026-W53", (2026, 53)),
        ("2025-W53", None),
        ("2026-W00", None),
        ("2026-W54", None),
        ("12026-W01", None),
        ("garbage", None),
        ("", None),
        (None, None),
        ("2026-47", None),
        ("0001-W01", None),
    ],
)
def test_parse_week(value, expected):
    assert reports.parse_week(value) == expected


def test_misconception_report_counts_the_classes_wrong_answers_in_the_local_week(database):
    school_class, pupils = make_class(database, timezone_name="Europe/Oslo")
    _, others = make_class(database, "5C", ("Bo",))
    ada, ola = pupils["Ada"], pupils["Ola"]
    q1, q3 = question(1), question(3)
    monday = datetime(2026, 11, 15, 23, 30, tzinfo=UTC)  # 00:30 on Monday 16 November in Oslo: in week 47
    attempt(database, ada, monday, q=q1, typed="1", misconception="same_number")
    attempt(database, ada, monday + timedelta(hours=1), q=q1, typed="11", misconception="added_ten")
    attempt(database, ola, monday + timedelta(hours=2), q=q3, typed="3", misconception="same_number")
    attempt(database, ola, monday + timedelta(hours=3), q=q3, typed="7", correct=True)
    attempt(database, ola, monday + timedelta(hours=4), q=q3, readable=False)  # unreadable: not counted at all
    attempt(
        database, ada, datetime(2026, 11, 15, 22, 30, tzinfo=UTC), q=q1, typed="1", misconception="same_number"
    )  # Sunday 23:30 in Oslo: week 46
    attempt(
        database, ada, datetime(2026, 11, 22, 23, 30, tzinfo=UTC), q=q1, typed="1", misconception="same_number"
    )  # Monday of week 48 in Oslo
    attempt(
        database, others["Bo"], monday + timedelta(hours=1), q=q1, typed="1", misconception="same_number"
    )  # another class
    database.flush()

    with statements(database) as seen:
        report = reports.misconception_report(database, school_class, "2026-W47", NOW)
    assert len(seen) == 5  # one GROUP BY over the week, then the moments, examples, pupils and levels
    assert report.valid and report.label == "2026-W47" and report.monday == date(2026, 11, 16)
    assert report.previous == "2026-W46" and report.next == "2026-W48"
    assert report.answers == 4 and report.wrong == 3
    [(skill, rows)] = report.by_skill
    assert skill == "tens_friends"
    assert [(row.misconception, row.count) for row in rows] == [("same_number", 2), ("added_ten", 1)]
    same = rows[0]
    assert same.text.msgid == "Gave the same number as on the card (tens-friends are not known yet)"
    assert sorted(example.typed for example in same.examples) == ["1", "3"]
    assert [(seen.pupil.name, seen.count) for seen in same.pupils] == [("Ada", 1), ("Ola", 1)]
    assert [(seen.pupil.name, seen.count) for seen in rows[1].pupils] == [("Ada", 1)]
    [kind] = report.questions
    assert (kind.kind, kind.answers, kind.wrong) == ("tens_friend_number", 4, 3) and kind.wrong_rate == 0.75
    assert kind.example.params["n"] in (1, 3)


def test_misconception_report_falls_back_to_the_current_local_week(database):
    school_class, _ = make_class(database, timezone_name="Pacific/Auckland")
    sunday_evening_utc = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)  # already Monday 23 November (week 48) in Auckland
    default = reports.misconception_report(database, school_class, None, sunday_evening_utc)
    assert default.valid and default.label == "2026-W48" and default.by_skill == [] and default.questions == []
    bad = reports.misconception_report(database, school_class, "2026-W99", sunday_evening_utc)
    assert not bad.valid and bad.label == "2026-W48"
    assert reports.misconception_report(database, school_class, "9998-W53", NOW).next is None


# --- CSV ------------------------------------------------------------------------------------
def parse(text: str, delimiter: str) -> list[list[str]]:
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:]), delimiter=delimiter))


def test_csv_has_a_bom_the_locales_delimiter_and_no_formulas():
    rows = [
        ["Pupil", "Level"],
        ["=HYPERLINK(1)", "done"],
        ["+47", 3],
        ["-2", "a;b"],
        ["@x", "a,b"],
        ["Åse", 'say "hi"'],
        ["\tTab", None],
    ]
    for locale, delimiter in (("en", ","), ("nb", ";"), ("sv", ";"), ("it", ";"), ("xx", ",")):
        assert reports.csv_delimiter(locale) == delimiter
        text = reports.to_csv(rows, delimiter)
        assert text.count("\ufeff") == 1 and "\r\n" in text
        assert parse(text, delimiter) == [
            ["Pupil", "Level"],
            ["'=HYPERLINK(1)", "done"],
            ["'+47", "3"],
            ["'-2", "a;b"],
            ["'@x", "a,b"],
            ["Åse", 'say "hi"'],
            ["'\tTab", ""],
        ]
    assert not reports.to_csv(rows, ",", bom=False).startswith("\ufeff")
    assert reports.safe_cell(-3) == "-3"  # numbers are numbers, not text to guard


def test_grid_and_assignment_tables_in_words(database):
    school_class, pupils = make_class(database, pupils=("=Ada", "Bo"))
    record(database, pupils["Bo"], "multiply", 0.1, 9)
    assignment = homework(database, school_class, NOW + timedelta(days=1))
    work(database, assignment, pupils["Bo"], questions=7, right=2, time_ms=185_000)
    database.flush()
    grid_rows = reports.grid_table(reports.class_grid(database, school_class, "name"))
    assert grid_rows[0][:6] == [
        "Pupil",
        "Last active",
        "Compare numbers: level",
        "Compare numbers: estimate (%)",
        "Compare numbers: first-try answers",
        "Compare numbers: right at the first try (%)",
    ]
    assert len(grid_rows[0]) == 2 + 4 * len(reports.grid_skills())
    bo = grid_rows[2]
    multiply = 2 + 4 * reports.grid_skills().index("multiply")
    assert bo[:6] == ["Bo", "", "not started", "", 0, ""]  # never played, no answers: no numbers
    assert bo[multiply : multiply + 4] == ["attempted (needs help)", 10, 9, 0]  # p 0.1, 9 first tries, none right
    text = reports.to_csv(grid_rows, ",")
    assert parse(text, ",")[1][0] == "'=Ada"

    marked = reports.grid_table(reports.class_grid(database, school_class, "name"), lambda text: f"«{say(text)}»")
    assert (
        marked[0][:3] == ["«Pupil»", "«Last active»", "««Compare numbers»: level»"] and marked[2][2] == "«not started»"
    )

    table = reports.assignment_table(reports.assignment_report(database, assignment, NOW))
    assert table[0][0] == "Pupil" and len({len(row) for row in table}) == 1
    assert table[2] == ["Bo", "needs help", 70, 7, 2, 29, 1, 3]
    assert table[1][5] == ""  # no accuracy before any question


def test_safe_filename():
    assert (
        reports.safe_filename("kortmatte", "AB3K9Q", "homework", "crazy-banana", "2026-11-20")
        == "kortmatte-AB3K9Q-homework-crazy-banana-2026-11-20.csv"
    )
    assert reports.safe_filename('a"b', "../etc/passwd", "Ålesund klasse") == "a-b-etc-passwd-lesund-klasse.csv"


def test_all_classes_lists_teachers_and_pupil_counts(database):
    make_class(database, "4B", ("Ada", "Ola"))
    make_class(database, "5C", ())
    summaries = {c.name: c.to_dict() for c in reports.all_classes(database)}
    assert summaries["4B"]["pupils"] == 2 and summaries["5C"]["pupils"] == 0
    assert summaries["4B"]["teachers"] == ["Tove"] and len(summaries["4B"]["code"]) >= 4


# --- needs attention ----------------------------------------------------------------------------
def test_attention_panel_lists_stuck_inactive_and_behind_pupils_in_a_fixed_number_of_statements(database):
    school_class, pupils = make_class(database, pupils=("Ada", "Bo", "Cy", "Di"))
    for pupil in pupils.values():
        pupil.created_at = NOW - timedelta(days=30)
    ada, bo, cy, di = (pupils[name] for name in ("Ada", "Bo", "Cy", "Di"))
    runs = {}
    for pupil, last_step in ((ada, NOW - timedelta(hours=1)), (bo, NOW - timedelta(days=9)), (cy, NOW)):
        runs[pupil.name] = LessonRunRecord(
            pupil_id=pupil.id, game_id="crazy-banana-tiervenner", seed=1, stage="play", data={"moves": []}
        )
        database.add(runs[pupil.name])
        database.flush()
        runs[pupil.name].updated_at = last_step
    # Ada: right, then 3 wrong in a row (newest last) in tens_friends: stuck; 2 wrong in multiply: not yet
    for minutes, correct in ((50, True), (40, False), (30, False), (20, False)):
        attempt(database, ada, NOW - timedelta(minutes=minutes), correct=correct, run=runs["Ada"])
    for minutes in (15, 10):
        attempt(database, ada, NOW - timedelta(minutes=minutes), skill="multiply", run=runs["Ada"])
    # Cy: 3 wrong, then right: not stuck
    for minutes, correct in ((40, False), (30, False), (20, False), (10, True)):
        attempt(database, cy, NOW - timedelta(minutes=minutes), correct=correct, run=runs["Cy"])
    # homework due yesterday: Cy is done, the others are behind; Bo has a later date of his own
    late = homework(database, school_class, NOW - timedelta(days=1), goal="questions", count=2)
    work(database, late, cy, questions=4, right=3, done_at=NOW - timedelta(days=2))
    database.add(AssignmentExtension(assignment_id=late.id, pupil_id=bo.id, due_at=NOW + timedelta(days=2)))
    database.flush()
    with statements(database) as seen:
        panel = reports.attention_panel(database, school_class, NOW)
    # pupils, last steps, homework (assignments, chosen pupils, own dates, work), latest first tries: whatever the
    # size of the class
    assert len(seen) == 7
    found = {entry.pupil.name: entry for entry in panel.pupils}
    assert set(found) == {"Ada", "Bo", "Di"}
    assert [(s.skill, s.wrong) for s in found["Ada"].stuck] == [("tens_friends", 3)]
    assert found["Ada"].stuck[0].run_public_id == runs["Ada"].public_id
    assert [item.assignment.id for item in found["Ada"].behind] == [late.id] and found["Ada"].inactive_days is None
    assert found["Bo"].inactive_days == 9 and not found["Bo"].behind  # his own date has not passed
    assert found["Di"].never_played and [item.assignment.id for item in found["Di"].behind] == [late.id]
    assert [entry.pupil.name for entry in panel.pupils] == ["Ada", "Di", "Bo"]  # most reasons first, then by name
