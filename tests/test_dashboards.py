"""The teacher's dashboards through the web (pages, htmx fragments, CSV) and the command line."""

from __future__ import annotations

import csv
import functools
import html
import io
import json
import re
from datetime import timedelta

import pytest
from sqlalchemy.orm import Session

from tests.browser_support import Visit
from tests.conftest import PASSWORD
from tests.test_reports import question
from tutor import accounts, answer_counts, classroom, reports
from tutor.app import create_app
from tutor.cli import main
from tutor.db import make_engine, upgrade
from tutor.drills import texts
from tutor.models import Assignment, AssignmentWork, AttemptRecord, LessonRunRecord, SkillRecord, Teacher, utcnow
from tutor.skill_model import skills
from tutor.text import LOCALES, say
from tutor.web import db

HTMX = {"HX-Request": "true"}


def seed(database) -> dict:
    """Tove's class 4B with four pupils, skill records, answers, a lesson run and homework; Bo's class 9Z."""
    now = utcnow()
    tove = Teacher(
        email="tove@school.example", name="Tove", password_hash=accounts.hash_password(PASSWORD), locale="en"
    )
    bo = Teacher(email="bo@school.example", name="Bo", password_hash=accounts.hash_password(PASSWORD), locale="en")
    database.add_all([tove, bo])
    database.flush()
    school_class = classroom.create_class(database, tove, "4B", "en", "Europe/Oslo", "pictures")
    classroom.add_pupils(database, school_class, "Ada\nOla\nLise\n=Eve")
    other_class = classroom.create_class(database, bo, "9Z", "en", "Europe/Oslo", "pictures")
    classroom.add_pupils(database, other_class, "Zed")
    pupils = {p.name: p for p in school_class.pupils}
    ada, ola = pupils["Ada"], pupils["Ola"]

    def skill(pupil, skill_id, p_known, attempts):
        database.add(
            SkillRecord(
                pupil_id=pupil.id,
                skill=skill_id,
                p_known=p_known,
                attempts=attempts,
                correct=0,
                streak=0,
                mastery_threshold=0.95,
                evidence=skills.MASTERY_EVIDENCE,
                typed_right=1,
            )
        )

    skill(ada, "multiply", 0.97, 30)
    skill(ada, "tens_friends", 0.6, 8)
    skill(ola, "tens_friends", 0.1, 9)  # needs help
    skill(ola, "multiply", 0.85, 12)
    skill(pupils["Lise"], "multiply", 0.3, 2)
    run = LessonRunRecord(pupil_id=ola.id, game_id="crazy-banana-tiervenner", seed=1, stage="play", data={"moves": []})
    database.add(run)
    database.flush()
    q = question(1)
    for minutes, typed, correct, misconception, readable in (
        (30, "1", False, "same_number", True),
        (20, "11", False, "added_ten", True),
        (10, "", False, None, False),
        (5, "9", True, None, True),
    ):
        answer = AttemptRecord(
            pupil_id=ola.id,
            run_id=run.id,
            skill="tens_friends",
            question_kind=q["kind"],
            question=q,
            typed=typed,
            read_as=typed or None,
            correct=correct,
            readable=readable,
            first_try=readable,
            hints_used=0,
            time_ms=4000,
            error_code=None if readable else "letters",
            misconception=misconception,
            p_known_after=0.2 if readable else None,
            created_at=now - timedelta(minutes=minutes),
        )
        database.add(answer)
        database.flush()
        answer_counts.count_answer(database, answer)  # as progress.record_attempt counts a stored answer
    assignment = Assignment(
        class_id=school_class.id,
        game_id="crazy-banana-tiervenner",
        goal="questions",
        goal_count=10,
        due_at=now + timedelta(days=2),
        everyone=True,
        created_at=now - timedelta(days=1),
    )
    database.add(assignment)
    database.flush()
    database.add(
        AssignmentWork(
            assignment_id=assignment.id,
            pupil_id=ola.id,
            started_at=now - timedelta(hours=1),
            last_active_at=now,
            games_finished=0,
            questions=8,
            first_try_right=2,
            time_ms=600_000,
        )
    )
    database.add(
        AssignmentWork(
            assignment_id=assignment.id,
            pupil_id=ada.id,
            started_at=now - timedelta(hours=1),
            last_active_at=now,
            games_finished=1,
            questions=10,
            first_try_right=9,
            time_ms=60_000,
            done_at=now,
        )
    )
    database.commit()
    return {
        "class": school_class.public_id,
        "code": school_class.code,
        "assignment": assignment.public_id,
        "ola": ola.public_id,
        "ada": ada.public_id,
        "run": run.public_id,
        "other_class": other_class.public_id,
        "zed": other_class.pupils[0].public_id,
    }


@pytest.fixture
def school(app, staff, client):
    """:func:`seed`, with Tove signed in on ``client``."""
    with app.app_context():
        ids = seed(db.session())
    staff.sign_in(client)
    return {**ids, "client": client}


def urls(ids):
    return {
        "grid": f"/teacher/classes/{ids['class']}",
        "grid_csv": f"/teacher/classes/{ids['class']}/grid.csv",
        "misconceptions": f"/teacher/classes/{ids['class']}/misconceptions",
        "assignment": f"/teacher/assignments/{ids['assignment']}",
        "assignment_csv": f"/teacher/assignments/{ids['assignment']}/export.csv",
        "pupil": f"/teacher/pupils/{ids['ola']}",
    }


def rows_of(page: str) -> list[str]:
    """The pupil names in the grid, in order."""
    return re.findall(r'<a id="pupil-[^"]+" href="[^"]+">([^<]+)</a>', page)


def test_every_dashboard_renders_in_every_language_without_inline_styles(school):
    client = school["client"]
    for locale in LOCALES:
        client.post("/language", data={"locale": locale})
        gettext = functools.partial(say, locale=locale)
        for name, url in urls(school).items():
            response = client.get(url)
            assert response.status_code == 200, (locale, url)
            if name.endswith("csv"):
                continue
            page = response.get_data(as_text=True)
            assert f'<html lang="{locale}">' in page
            assert " style=" not in page and "<script>" not in page  # the CSP allows neither
        grid = client.get(urls(school)["grid"]).get_data(as_text=True)
        assert gettext("not started") in grid and gettext("needs help") in grid and gettext("mastered") in grid


def test_grid_shows_levels_in_words_and_marks_needs_help(school):
    page = school["client"].get(urls(school)["grid"]).get_data(as_text=True)
    assert rows_of(page)[0] == "Ola"  # needs help first by default
    assert 'class="cell-attempted cell-needs-help"' in page and 'href="#icon-needs_help"' in page
    assert "1 of 4 pupils needs help with at least one skill." in page
    assert f'href="/teacher/pupils/{school["ola"]}"' in page
    assert "&#39;=Eve" not in page and "=Eve" in page  # names are shown as they are; only CSV guards them
    assert 'id="icon-mastered"' in page  # the icons the cells use are on the page


def test_grid_sorting_links_and_order(school):
    client = school["client"]
    page = client.get(urls(school)["grid"] + "?sort=name").get_data(as_text=True)
    assert rows_of(page) == ["=Eve", "Ada", "Lise", "Ola"]
    assert '<th scope="col" aria-sort="ascending">' in page
    for key in ("help", "name", "multiply", "tens_friends"):
        assert f'href="/teacher/classes/{school["class"]}?sort={key}"' in page
    # a skill nobody in the class has answered in is named under the grid, not a column of "not started"
    assert '?sort=fractions"' not in page and "Not shown, because nobody in the class" in page
    assert "Fractions" in page.split("Not shown, because nobody in the class")[1].split("</p>")[0]
    page = client.get(urls(school)["grid"] + "?sort=multiply").get_data(as_text=True)
    assert rows_of(page) == ["=Eve", "Lise", "Ola", "Ada"]  # weakest in the skill first (not started lowest)
    assert 'aria-sort="ascending" class="sorted"' in page
    for bad in ("nonsense", "", "<script>", "multiply'--", "x" * 5000):
        response = client.get(urls(school)["grid"], query_string={"sort": bad})
        assert response.status_code == 200 and rows_of(response.get_data(as_text=True))[0] == "Ola"


def test_htmx_requests_get_only_the_live_block(school):
    client = school["client"]
    fragment = client.get(urls(school)["grid"] + "?sort=name", headers=HTMX)
    body = fragment.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="grid"') and "<html" not in body and "class-code-line" not in body
    assert 'hx-trigger="every 30s"' in body and f'hx-get="/teacher/classes/{school["class"]}?sort=name"' in body
    assert rows_of(body) == ["=Eve", "Ada", "Lise", "Ola"]
    assert "HX-Request" in fragment.headers.get("Vary", "")
    for headers in ({**HTMX, "HX-Boosted": "true"}, {**HTMX, "HX-History-Restore-Request": "true"}, {}):
        assert "<html" in client.get(urls(school)["grid"], headers=headers).get_data(as_text=True)
    work = client.get(urls(school)["assignment"], headers=HTMX).get_data(as_text=True)
    assert work.lstrip().startswith('<div id="work"') and "<html" not in work
    report = client.get(urls(school)["misconceptions"], headers=HTMX).get_data(as_text=True)
    assert report.lstrip().startswith('<div id="report"')
    activity = client.get(urls(school)["pupil"], headers={**HTMX, "HX-Target": "activity"}).get_data(as_text=True)
    assert activity.lstrip().startswith('<div id="activity"') and "Recent answers" in activity
    levels = client.get(urls(school)["pupil"], headers={**HTMX, "HX-Target": "levels"}).get_data(as_text=True)
    assert levels.lstrip().startswith('<div id="levels"') and "Recent answers" not in levels


def test_assignment_view_shows_goal_due_statuses_and_counts(school):
    page = school["client"].get(urls(school)["assignment"]).get_data(as_text=True)
    assert "Answer 10 questions." in page
    counts = dict(re.findall(r'<span class="status status-(\w+)">.*?</span> <strong>(\d+)</strong>', page, re.S))
    assert {status: int(count) for status, count in counts.items()} == {
        "not_started": 2,
        "in_progress": 0,
        "needs_help": 1,
        "done": 1,
        "late": 0,
    }
    assert "25%" in page and "(2 of 8)" in page and "10 min" in page  # Ola: accuracy, time spent
    assert (
        "handed in late"
        not in re.sub(r"<p class=\"note\">.*?</p>", "", page, flags=re.S).split('id="work"')[1].split("</table>")[0]
    )


def test_pupil_page_shows_levels_chart_answers_runs_and_homework(school):
    page = school["client"].get(urls(school)["pupil"]).get_data(as_text=True)
    assert '<svg class="history-chart"' in page and 'role="img"' in page and "<polyline" in page
    assert 'id="figures-caption"' in page and "<td>20%</td>" in page  # the chart's figures as a table
    assert "The top card shows 1." in page  # the question's prompt
    assert "letters instead of numbers" in page and "<code>letters</code>" in page  # refusal code, never typed text
    assert f'href="/teacher/runs/{school["run"]}/replay"' in page
    assert (
        f'href="/teacher/pupils/{school["ola"]}/export.json"' in page
        and f'href="/teacher/classes/{school["class"]}/pupils"' in page
    )
    assert f'href="/teacher/assignments/{school["assignment"]}"' in page and "needs help" in page


@pytest.mark.parametrize("locale", LOCALES)
def test_the_pupil_page_describes_a_misconception_for_the_teacher_not_with_the_childs_sentence(school, locale):
    client = school["client"]
    client.post("/language", data={"locale": locale})
    page = client.get(urls(school)["pupil"]).get_data(as_text=True)
    answers = html.unescape(page.split('id="answers-caption"')[1].split("</table>")[0])
    for misconception in ("same_number", "added_ten"):  # Ola's two wrong answers
        entry = texts(question(1)["kind"])
        assert say(entry["teacher_descriptions"][misconception], locale) in answers, (locale, misconception)
        child_sentence = say(entry["misconceptions"][misconception], locale)
        assert child_sentence.split("%(")[0] not in answers, (locale, misconception)


def test_misconception_report_for_a_week_and_bad_weeks(school):
    client = school["client"]
    url = urls(school)["misconceptions"]
    page = client.get(url).get_data(as_text=True)
    assert "Gave the same number as on the card (tens-friends are not known yet)" in page
    assert "Added 10 to the number instead of finding its partner to 10" in page
    assert "The top card shows 1." in page and "<td>67%</td>" in page  # 2 of the 3 readable answers were wrong
    assert 'rel="prev"' in page and 'rel="next"' in page
    for bad in ("garbage", "2026-W99", "99999-W01", "2025-W53", "<b>x</b>", "x" * 3000, "2026-W4７"):
        response = client.get(url, query_string={"week": bad})
        body = response.get_data(as_text=True)
        assert response.status_code == 200, bad
        assert "is not a week we can show" in body and "<b>x</b>" not in body
    old = client.get(url, query_string={"week": "2020-W10"}).get_data(as_text=True)
    assert (
        "Misconceptions in week 10, 2020" in old
        and "No misconceptions were recognised" in old
        and "hx-trigger" not in old.split('id="report"')[1][:200]
    )


def csv_rows(response, delimiter):
    body = response.get_data()
    assert body.startswith("\ufeff".encode("utf-8"))
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=delimiter))


def test_csv_downloads_in_english_and_norwegian(school):
    client = school["client"]
    response = client.get(urls(school)["grid_csv"] + "?sort=name")
    assert response.mimetype == "text/csv" and response.headers["Content-Disposition"].startswith(
        'attachment; filename="kortmatte-'
    )
    assert re.fullmatch(r'attachment; filename="[A-Za-z0-9._-]+\.csv"', response.headers["Content-Disposition"])
    rows = csv_rows(response, ",")
    assert rows[0][:3] == ["Pupil", "Last active", "Compare numbers: level"] and len(rows) == 5
    assert [row[0] for row in rows[1:]] == ["'=Eve", "Ada", "Lise", "Ola"]
    assert "attempted (needs help)" in rows[4]
    multiply = 2 + 4 * reports.grid_skills().index("multiply")
    assert rows[0][multiply + 1] == reports.skills_catalogue_name("multiply") + ": estimate (%)"
    ola = rows[4]
    assert ola[multiply + 1].isdigit() and ola[multiply + 2].isdigit() and ola[multiply + 3].isdigit()  # numbers
    homework = csv_rows(client.get(urls(school)["assignment_csv"]), ",")
    assert homework[0][0] == "Pupil" and {row[0]: row[1] for row in homework[1:]}["Ola"] == "needs help"

    client.post("/language", data={"locale": "nb"})
    rows = csv_rows(client.get(urls(school)["grid_csv"]), ";")
    assert len(rows[0]) == 2 + 4 * len(reports.grid_skills()) and say("not started", "nb") in rows[1]
    assert rows[0][1] == say("Last active", "nb") and rows[0][1] != "Last active"
    assert all(len(row) == len(rows[0]) for row in rows)


def test_another_teacher_gets_404_on_every_dashboard(app, staff, school):
    other = app.test_client()
    staff.sign_in(other, "bo@school.example")
    for url in urls(school).values():
        assert other.get(url).status_code == 404, url
        assert other.get(url, headers=HTMX).status_code == 404, url
    # ...and Tove cannot see Bo's class or pupil either, nor ids that do not exist
    client = school["client"]
    for url in (
        f"/teacher/classes/{school['other_class']}",
        f"/teacher/classes/{school['other_class']}/grid.csv",
        f"/teacher/classes/{school['other_class']}/misconceptions",
        f"/teacher/pupils/{school['zed']}",
        "/teacher/pupils/nope",
        "/teacher/assignments/nope/export.csv",
        "/teacher/classes/%00/grid.csv",
    ):
        assert client.get(url).status_code == 404, url


def test_an_empty_class_has_friendly_pages(app, staff, client):
    staff.teacher()
    empty = staff.school_class(pupils=())
    staff.sign_in(client)
    page = client.get(f"/teacher/classes/{empty.public_id}").get_data(as_text=True)
    assert "No pupils yet." in page
    assert csv_rows(client.get(f"/teacher/classes/{empty.public_id}/grid.csv"), ",")[0][0] == "Pupil"
    assert client.get(f"/teacher/classes/{empty.public_id}/misconceptions").status_code == 200


# --- command line ---------------------------------------------------------------------------
@pytest.fixture
def cli_env(monkeypatch, database_url, school):
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("SECRET_KEY", "cli-test")
    return school


def test_cli_report_prints_the_grid_as_csv(cli_env, capsys):
    assert main(["report", cli_env["code"], "--csv"]) == 0
    out = capsys.readouterr().out
    assert not out.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][:3] == ["Pupil", "Last active", reports.skills_catalogue_name(reports.grid_skills()[0]) + ": level"]
    by_name = {row[0]: row for row in rows[1:]}
    assert set(by_name) == {"'=Eve", "Ada", "Lise", "Ola"}
    multiply = 2 + 4 * reports.grid_skills().index("multiply")
    assert by_name["Ada"][multiply] == "mastered" and by_name["Ola"][multiply] == "proficient"
    assert by_name["Ola"][2 + 4 * reports.grid_skills().index("tens_friends")] == "attempted (needs help)"
    # the code as printed (with a space) and in lower case works too
    code = cli_env["code"]
    assert main(["report", f"{code[:3].lower()} {code[3:]}", "--csv"]) == 0


def test_cli_report_refuses_an_unknown_code(cli_env, capsys):
    assert main(["report", "NOPE99", "--csv"]) == 2
    captured = capsys.readouterr()
    assert "NOPE99" in captured.err and captured.out == ""


def test_cli_lists_classes(cli_env, capsys):
    assert main(["classes", "--json"]) == 0
    classes = {c["code"]: c for c in json.loads(capsys.readouterr().out)}
    assert classes[cli_env["code"]] == {"code": cli_env["code"], "name": "4B", "teachers": ["Tove"], "pupils": 4}
    assert main(["classes"]) == 0
    assert cli_env["code"] in capsys.readouterr().out


# --- in a real browser ----------------------------------------------------------------------
@pytest.mark.browser
def test_dashboards_in_a_browser_pass_axe_and_sort_by_keyboard(live_server, browser):
    engine = make_engine(live_server.database_url)
    with Session(engine) as database:
        ids = seed(database)
    engine.dispose()
    visit = Visit(browser, live_server)
    page = visit.page
    page.goto(live_server + "/teacher/sign-in")
    page.fill("#email", "tove@school.example")
    page.fill("#password", PASSWORD)
    page.click("button[type=submit].primary")
    for name, url in urls(ids).items():
        if not name.endswith("csv"):
            page.goto(live_server + url)
            visit.axe(name)
    page.goto(live_server + urls(ids)["pupil"])
    page.click("details.chart-figures summary")
    visit.axe("the pupil page with the chart's figures open")

    page.goto(live_server + urls(ids)["grid"])
    assert page.locator("table.grid tbody th a").all_inner_texts()[0] == "Ola"
    page.focus("#sort-name")
    with page.expect_response(lambda response: "sort=name" in response.url):
        page.keyboard.press("Enter")
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    assert page.locator("table.grid tbody th a").all_inner_texts() == ["=Eve", "Ada", "Lise", "Ola"]
    assert page.url.endswith("sort=name") and 'id="sort-name"' in visit.focused()  # the new link has the focus again
    assert page.locator("header.site-header").count() == 1  # the block was swapped, not the page nested in it
    visit.axe("the grid sorted by name")
    assert not visit.problems, visit.problems
    visit.close()


# --- on PostgreSQL --------------------------------------------------------------------------
@pytest.mark.postgres
def test_dashboards_and_reports_on_postgres(postgres_url):
    """The report queries are portable: day buckets, GROUP BY with CASE, booleans, CSV, on a real PostgreSQL."""
    upgrade(postgres_url)
    engine = make_engine(postgres_url)
    with Session(engine) as database:
        ids = seed(database)
    app = create_app({"TESTING": True, "DATABASE_URL": postgres_url, "SECRET_KEY": "pg", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    assert (
        client.post("/teacher/sign-in", data={"email": "tove@school.example", "password": PASSWORD}).status_code == 302
    )
    for url in urls(ids).values():
        assert client.get(url).status_code == 200, url
    page = client.get(urls(ids)["misconceptions"]).get_data(as_text=True)
    assert "Gave the same number as on the card" in page and "<polyline" in client.get(urls(ids)["pupil"]).get_data(
        as_text=True
    )
    rows = csv_rows(client.get(urls(ids)["grid_csv"] + "?sort=name"), ",")
    assert [row[0] for row in rows[1:]] == ["'=Eve", "Ada", "Lise", "Ola"]
    app.extensions["db_engine"].dispose()
    engine.dispose()
