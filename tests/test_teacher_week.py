"""A teacher's week through the routes: groups, homework for a group or one pupil, changed homework, a later date for
one pupil, the truthful status of a level goal, the needs-attention panel, the misconception report in words, time
zones and dates as each language writes them. Every refusal is a friendly message or a 404, and changes nothing."""

from __future__ import annotations

import html
import re
from datetime import date, timedelta

import pytest
from sqlalchemy import select

from tests.test_access import stored_state
from tests.test_dashboards import school  # noqa: F401  (the seeded class 4B as a fixture)
from tests.test_reports import question
from tests.test_teacher import count, flashes, homework_form, teacher_client  # noqa: F401
from tutor import answer_counts
from tutor.drills import texts
from tutor.models import (
    Assignment,
    AssignmentExtension,
    AttemptRecord,
    LessonRunRecord,
    Pupil,
    PupilGroup,
    SchoolClass,
    SkillRecord,
    utcnow,
)
from tutor.text import LOCALES, say
from tutor.web import db

IN_FIVE_DAYS = (date.today() + timedelta(days=5)).isoformat()


def pupil_home(app, staff, school_class, name) -> str:
    client = app.test_client()
    staff.sign_in_pupil(client, school_class.code, name)
    return client.get("/").get_data(as_text=True)


def homework_games(page: str) -> int:
    return page.count('class="panel homework-item')


def set_homework(teacher_client, school_class, **fields) -> str:  # noqa: F811
    response = teacher_client.post(
        f"/teacher/classes/{school_class.public_id}/homework/new", data=homework_form(**fields)
    )
    assert response.status_code == 302, flashes(response)
    return response.headers["Location"].rsplit("/", 1)[1]


def make_group(teacher_client, school_class, name, *pupils) -> str:  # noqa: F811
    response = teacher_client.post(
        f"/teacher/classes/{school_class.public_id}/groups",
        data={"name": name, "pupils": [p.public_id for p in pupils]},
    )
    assert response.status_code == 302, flashes(response)
    return response


def group_id(app, name) -> str:
    with app.app_context():
        return db.session().scalar(select(PupilGroup.public_id).where(PupilGroup.name == name))


# --- groups ------------------------------------------------------------------------------------
def test_homework_for_a_group_follows_its_members(app, staff, teacher_client):  # noqa: F811
    school_class = staff.school_class(pupils=("Ada", "Ola", "Lise"))
    ada, ola = staff.pupil(school_class.code, "Ada"), staff.pupil(school_class.code, "Ola")
    make_group(teacher_client, school_class, "Table 1", ada)
    table = group_id(app, "Table 1")
    page = teacher_client.get(f"/teacher/classes/{school_class.public_id}/groups").get_data(as_text=True)
    assert "Table 1" in page and "1 pupil: Ada" in page
    assignment_id = set_homework(teacher_client, school_class, target="group", group=table)
    assert homework_games(pupil_home(app, staff, school_class, "Ada")) == 1
    assert homework_games(pupil_home(app, staff, school_class, "Ola")) == 0
    ola_client = app.test_client()
    staff.sign_in_pupil(ola_client, school_class.code, "Ola")
    assert ola_client.post(f"/homework/{assignment_id}/start").status_code == 404  # not his group's
    view = teacher_client.get(f"/teacher/assignments/{assignment_id}").get_data(as_text=True)
    assert "Group Table 1 (1 pupil)" in view
    # Ola joins the group, Ada leaves it: the homework goes with the group
    teacher_client.post(f"/teacher/groups/{table}", data={"name": "Table 1", "pupils": [ola.public_id]})
    assert homework_games(pupil_home(app, staff, school_class, "Ola")) == 1
    assert ola_client.post(f"/homework/{assignment_id}/start").status_code == 302
    assert homework_games(pupil_home(app, staff, school_class, "Ada")) == 0
    # deleting the group keeps the homework for the pupils in it now
    refused = teacher_client.post(f"/teacher/groups/{table}/delete", follow_redirects=True)
    assert any("Tick the box" in m for m in flashes(refused)) and count(app, PupilGroup) == 1
    deleted = teacher_client.post(f"/teacher/groups/{table}/delete", data={"confirm": "yes"}, follow_redirects=True)
    assert any("Its homework stays with the pupils" in m for m in flashes(deleted))
    assert count(app, PupilGroup) == 0
    assert homework_games(pupil_home(app, staff, school_class, "Ola")) == 1
    assert homework_games(pupil_home(app, staff, school_class, "Ada")) == 0


@pytest.mark.parametrize(
    "form,message",
    [
        ({"name": "  "}, "a name of 1 to 40 characters"),
        ({"name": "x" * 41}, "a name of 1 to 40 characters"),
        ({"name": "table 1"}, "already a group called table 1"),
        ({"name": "Table 2", "pupils": ["not-a-pupil"]}, "at least one pupil of this class"),
    ],
)
def test_a_bad_group_is_refused_with_a_message_and_nothing_is_stored(app, staff, teacher_client, form, message):  # noqa: F811
    school_class = staff.school_class(pupils=("Ada", "Ola"))
    make_group(teacher_client, school_class, "Table 1", staff.pupil(school_class.code, "Ada"))
    before = stored_state(app)
    response = teacher_client.post(f"/teacher/classes/{school_class.public_id}/groups", data=form)
    assert response.status_code == 400 and any(message in m for m in flashes(response)), flashes(response)
    assert stored_state(app) == before


def test_another_teachers_group_pupil_and_assignment_are_not_found(app, staff, teacher_client):  # noqa: F811
    school_class = staff.school_class(pupils=("Ada", "Ola"))
    ada = staff.pupil(school_class.code, "Ada")
    make_group(teacher_client, school_class, "Table 1", ada)
    staff.teacher("bo@school.example", "Bo")
    other_class = staff.school_class("bo@school.example", "9Z", pupils=("Zed",))
    zed = staff.pupil(other_class.code, "Zed")
    assignment_id = set_homework(teacher_client, school_class)
    bo = app.test_client()
    staff.sign_in(bo, "bo@school.example")
    own = set_homework(bo, other_class)
    before = stored_state(app)
    # Tove cannot put Bo's pupil into her group, nor set homework for him, nor give him a date on her homework
    table = group_id(app, "Table 1")
    assert (
        teacher_client.post(f"/teacher/groups/{table}", data={"name": "T", "pupils": zed.public_id}).status_code == 400
    )
    assert (
        teacher_client.post(
            f"/teacher/classes/{school_class.public_id}/homework/new",
            data=homework_form(target="pupils", pupils=zed.public_id),
        ).status_code
        == 400
    )
    extend = {"pupil": zed.public_id, "due_date": IN_FIVE_DAYS, "due_time": "20:00"}
    assert teacher_client.post(f"/teacher/assignments/{assignment_id}/due", data=extend).status_code == 404
    # Bo cannot open, change or use Tove's group and homework
    for url in (f"/teacher/groups/{table}", f"/teacher/assignments/{assignment_id}/edit"):
        assert bo.get(url).status_code == 404 and bo.post(url, data={"name": "X"}).status_code == 404
    assert bo.post(f"/teacher/groups/{table}/delete", data={"confirm": "yes"}).status_code == 404
    with_her_group = homework_form(target="group", group=table)
    assert bo.post(f"/teacher/assignments/{own}/edit", data=with_her_group).status_code == 400  # not a group of his
    extend["pupil"] = ada.public_id
    assert bo.post(f"/teacher/assignments/{own}/due", data=extend).status_code == 404
    assert bo.post(f"/teacher/assignments/{assignment_id}/due", data=extend).status_code == 404
    assert stored_state(app) == before


# --- targeted, changed and extended homework ---------------------------------------------------
def test_homework_for_one_pupil_is_changed_and_the_pupil_sees_the_change(app, staff, teacher_client):  # noqa: F811
    school_class = staff.school_class(pupils=("Ada", "Ola"))
    ada = staff.pupil(school_class.code, "Ada")
    assignment_id = set_homework(teacher_client, school_class, target="pupils", pupils=ada.public_id)
    assert homework_games(pupil_home(app, staff, school_class, "Ola")) == 0
    form = teacher_client.get(f"/teacher/assignments/{assignment_id}/edit").get_data(as_text=True)
    assert "Change the homework" in form and 'value="pupils" checked' in form
    later = (date.today() + timedelta(days=9)).isoformat()
    changed = homework_form(target="class", goal="questions", goal_count="7", due_date=later, due_time="17:00")
    response = teacher_client.post(f"/teacher/assignments/{assignment_id}/edit", data=changed, follow_redirects=True)
    assert any("The homework is changed" in m for m in flashes(response))
    with app.app_context():
        assignment = db.session().scalar(select(Assignment))
        assert (assignment.goal, assignment.goal_count, assignment.everyone) == ("questions", 7, True)
        assert assignment.changed_at is not None
    ola_home = pupil_home(app, staff, school_class, "Ola")
    assert homework_games(ola_home) == 1 and "Your teacher has changed this homework." in ola_home
    assert "Answer 7 questions" in ola_home or "7 questions" in ola_home


@pytest.mark.parametrize(
    "changes,message",
    [
        ({"due_date": (date.today() - timedelta(days=2)).isoformat()}, "already passed"),
        ({"due_date": "2026-02-30"}, "as a date and a time"),
        ({"due_date": (date.today() + timedelta(days=400)).isoformat()}, "more than a year away"),
        ({"goal": "questions", "goal_count": "0"}, "from 1 to"),
        ({"target": "group", "group": "nope"}, "one of the class"),
    ],
)
def test_a_bad_change_is_refused_with_a_friendly_message(app, staff, teacher_client, changes, message):  # noqa: F811
    school_class = staff.school_class(pupils=("Ada",))
    assignment_id = set_homework(teacher_client, school_class)
    before = stored_state(app)
    response = teacher_client.post(f"/teacher/assignments/{assignment_id}/edit", data=homework_form(**changes))
    assert response.status_code == 400 and any(message in m for m in flashes(response)), flashes(response)
    assert stored_state(app) == before


def test_a_late_pupil_gets_a_new_date_alone(app, staff, teacher_client):  # noqa: F811
    school_class = staff.school_class(pupils=("Ada", "Ola"))
    ada = staff.pupil(school_class.code, "Ada")
    assignment_id = set_homework(teacher_client, school_class)
    url = f"/teacher/assignments/{assignment_id}/due"
    earlier = {"pupil": ada.public_id, "due_date": (date.today() + timedelta(days=2)).isoformat(), "due_time": "18:00"}
    refused = teacher_client.post(url, data=earlier, follow_redirects=True)
    assert any("must be later than the homework" in m for m in flashes(refused))
    bad = teacher_client.post(url, data={**earlier, "due_date": "tomorrow"}, follow_redirects=True)
    assert any("as a date and a time" in m for m in flashes(bad))
    assert count(app, AssignmentExtension) == 0
    later = {**earlier, "due_date": (date.today() + timedelta(days=8)).isoformat()}
    done = teacher_client.post(url, data=later, follow_redirects=True)
    assert any("Ada has a new due date" in m for m in flashes(done))
    assert count(app, AssignmentExtension) == 1
    page = done.get_data(as_text=True)
    assert "Use the homework&#39;s date" in page or "Use the homework's date" in page
    # the pupil sees her own date; Ola keeps the homework's
    ada_home, ola_home = pupil_home(app, staff, school_class, "Ada"), pupil_home(app, staff, school_class, "Ola")
    day = date.fromisoformat(later["due_date"])
    assert f"{day.day} {day:%B} {day.year}" in ada_home and f"{day.day} {day:%B} {day.year}" not in ola_home
    removed = teacher_client.post(f"/teacher/assignments/{assignment_id}/pupils/{ada.public_id}/due/remove")
    assert removed.status_code == 302 and count(app, AssignmentExtension) == 0


# --- the truthful status of a level goal --------------------------------------------------------
def test_a_level_goal_already_reached_is_done_not_started_100_percent(app, staff, teacher_client):  # noqa: F811
    school_class = staff.school_class(pupils=("Ada", "Ola", "Lise"))
    fields = {"goal": "skill", "calculation-war-goal_skill": "estimate_sum", "goal_level": "familiar"}
    assignment_id = set_homework(teacher_client, school_class, **fields)
    with app.app_context():
        database = db.session()
        for name, p_known, attempts in (("Ada", 0.6, 8), ("Ola", 0.1, 9)):
            pupil = staff.pupil(school_class.code, name)
            database.add(
                SkillRecord(
                    pupil_id=pupil.id,
                    skill="estimate_sum",
                    p_known=p_known,
                    attempts=attempts,
                    correct=0,
                    streak=0,
                    mastery_threshold=0.95,
                )
            )
        database.commit()
    page = teacher_client.get(f"/teacher/assignments/{assignment_id}").get_data(as_text=True)
    found = re.findall(r'<tr class="work-(\w+)">\s*<th scope="row"><a [^>]*>(\w+)</a>', page)
    rows = {name: status for status, name in found}
    assert rows == {"Ada": "done", "Ola": "needs_help", "Lise": "not_started"}
    assert "level now: familiar" in page and "the skill model says the pupil needs help" in page


# --- the class page, the misconception report ---------------------------------------------------
def test_the_class_page_has_a_needs_attention_panel_and_last_active(app, school):  # noqa: F811
    client, grid = school["client"], f"/teacher/classes/{school['class']}"
    page = client.get(grid).get_data(as_text=True)
    assert "Nobody needs your attention right now." in page  # 2 wrong, then right: not stuck; nothing is late
    assert "Last active" in page and "never" in page  # Ola played today; the others never have
    with app.app_context():
        database = db.session()
        ola = database.scalar(select(Pupil).where(Pupil.public_id == school["ola"]))
        run = database.scalar(select(LessonRunRecord).where(LessonRunRecord.public_id == school["run"]))
        for minutes in (3, 2, 1):
            database.add(
                AttemptRecord(
                    pupil_id=ola.id,
                    run_id=run.id,
                    move_index=minutes,
                    skill="multiply",
                    question_kind="multiwar_product",
                    question={},
                    typed="12",
                    correct=False,
                    readable=True,
                    first_try=True,
                    hints_used=0,
                    time_ms=3000,
                    created_at=utcnow() - timedelta(minutes=minutes),
                )
            )
        database.commit()
    panel = client.get(grid).get_data(as_text=True).split('id="attention"')[1].split("</section>")[0]
    assert "Ola" in panel and "3 wrong answers in a row in" in panel
    assert f"/teacher/runs/{school['run']}/replay?at=1" in panel
    fragment = client.get(grid, headers={"HX-Request": "true", "HX-Target": "attention"}).get_data(as_text=True)
    assert fragment.lstrip().startswith('<section id="attention"') and "<table" not in fragment


@pytest.mark.parametrize("locale", LOCALES)
def test_the_misconception_report_names_pupils_in_words_without_codes(school, locale):  # noqa: F811
    client = school["client"]
    client.post("/language", data={"locale": locale})
    page = client.get(f"/teacher/classes/{school['class']}/misconceptions").get_data(as_text=True)
    main = page.split("<main")[1]
    for code in ("same_number", "added_ten", "tens_friend_number", "kind:", "<code>"):
        assert code not in main, (locale, code)
    assert 'href="/teacher/pupils/' in main and "Ola" in main
    assert f"/teacher/runs/{school['run']}/replay" in main  # where Ola last showed it
    assert say("Who showed it", locale) in main
    assert "/homework/new?game=" in main and "target=pupils" in main  # the suggested homework for them


@pytest.mark.parametrize("locale", LOCALES)
def test_the_misconception_report_describes_each_mistake_for_the_teacher_not_with_the_childs_sentence(
    school,  # noqa: F811
    locale,
):
    client = school["client"]
    client.post("/language", data={"locale": locale})
    page = client.get(f"/teacher/classes/{school['class']}/misconceptions").get_data(as_text=True)
    report = html.unescape(page.split('id="report"')[1])
    for kind, misconception in (("tens_friend_number", "same_number"), ("tens_friend_number", "added_ten")):
        entry = texts(kind)
        assert say(entry["teacher_descriptions"][misconception], locale) in report, (locale, misconception)
        child_sentence = say(entry["misconceptions"][misconception], locale)
        assert child_sentence.split("%(")[0] not in report, (locale, misconception)


def same_number_by_the_whole_class(database, class_id: str) -> None:
    """In the seeded class 4B, Ada 3 times, Lise twice, =Eve once, besides Ola's once: four pupils showed
    "same_number" this week."""
    pupils = {p.name: p for p in database.scalar(select(SchoolClass).where(SchoolClass.public_id == class_id)).pupils}
    q = question(1)
    for name, times in (("Ada", 3), ("Lise", 2), ("=Eve", 1)):
        for minutes in range(times):
            answer = AttemptRecord(
                pupil_id=pupils[name].id,
                skill="tens_friends",
                question_kind=q["kind"],
                question=q,
                typed="1",
                read_as="1",
                correct=False,
                readable=True,
                first_try=True,
                hints_used=0,
                time_ms=3000,
                misconception="same_number",
                created_at=utcnow() - timedelta(minutes=40 + minutes),
            )
            database.add(answer)
            database.flush()
            answer_counts.count_answer(database, answer)
    database.commit()


def seen_names(html_text: str) -> list[str]:
    return re.findall(r'<li><a href="/teacher/pupils/[^"]+">([^<]+)</a>', html_text)


def test_the_report_names_the_first_few_pupils_and_loads_the_others_on_demand(app, staff, school):  # noqa: F811
    with app.app_context():
        same_number_by_the_whole_class(db.session(), school["class"])
    client, report_url = school["client"], f"/teacher/classes/{school['class']}/misconceptions"
    page = client.get(report_url).get_data(as_text=True)
    week = re.search(r'name="week" type="week" value="([^"]+)"', page).group(1)
    row = html.unescape(page.split("Gave the same number as on the card")[1].split("</tr>")[0])
    assert "4 pupils" in row and seen_names(row) == ["Ada", "Lise", "=Eve"]  # most often first; Ola is one click away
    assert "(3 times)" in row and f"/teacher/runs/{school['run']}/replay" not in row  # Ola's replay is not shown
    row_url = f"{report_url}/tens_friends/tens_friend_number/same_number?week={week}"
    assert f'href="{row_url}"' in row and f'hx-get="{row_url}"' in row and "Show all 4 pupils" in row
    assert row.count("pupils=") == 4 and re.search(
        r">Set [^<]+ for all 4 pupils, to reach", row
    )  # the homework is for all four

    # without JavaScript: the row's own page, with every pupil, the examples and the homework for them
    whole = client.get(row_url).get_data(as_text=True)
    assert "<html" in whole and seen_names(whole) == ["Ada", "Lise", "=Eve", "Ola"]
    assert f"/teacher/runs/{school['run']}/replay" in whole and "Back to the misconceptions of week" in whole
    assert "The top card shows 1." in whole and "same_number" not in whole.split("<main")[1]
    # with htmx: only the list, which keeps its row whole when the report refreshes itself
    fragment = client.get(row_url, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert fragment.lstrip().startswith('<div class="seen">') and "<html" not in fragment
    assert seen_names(fragment) == ["Ada", "Lise", "=Eve", "Ola"] and "data-autofocus" in fragment
    key = re.search(r'<input type="hidden" name="open" value="([^"]+)">', fragment).group(1)
    refreshed = client.get(report_url, query_string={"week": week, "open": key}, headers={"HX-Request": "true"})
    row = html.unescape(refreshed.get_data(as_text=True).split("Gave the same number")[1].split("</tr>")[0])
    assert seen_names(row) == ["Ada", "Lise", "=Eve", "Ola"] and "data-autofocus" not in row  # the focus stays put
    assert 'hx-include="this"' in page


def test_a_misconceptions_own_page_is_found_only_in_the_teachers_class_and_week(app, staff, school):  # noqa: F811
    with app.app_context():
        same_number_by_the_whole_class(db.session(), school["class"])
    client, report_url = school["client"], f"/teacher/classes/{school['class']}/misconceptions"
    row = "tens_friends/tens_friend_number/same_number"
    assert client.get(f"{report_url}/{row}").status_code == 200  # the current week
    other = app.test_client()
    staff.sign_in(other, "bo@school.example")
    for headers in ({}, {"HX-Request": "true"}):
        assert other.get(f"{report_url}/{row}", headers=headers).status_code == 404  # not Bo's class
    nobody = client.get(f"{report_url}/{row}?week=2020-W10").get_data(as_text=True)
    assert "Nobody in the class showed it in week 10." in nobody and "Gave the same number" in nobody
    for url in (
        f"/teacher/classes/{school['other_class']}/misconceptions/{row}",  # Bo's class, for Tove
        f"{report_url}/{row}?week=garbage",
        f"{report_url}/tens_friends/tens_friend_number/no_such_thing",
        f"{report_url}/tens_friends/tens_friend_number/",
        f"{report_url}/multiply/tens_friend_number/same_number",  # not a misconception of that skill
    ):
        assert client.get(url).status_code == 404, url


# --- time zones and dates ----------------------------------------------------------------------
def test_the_time_zone_list_starts_with_the_schools_countries_in_the_readers_language(app, staff, teacher_client):  # noqa: F811
    page = teacher_client.get("/teacher/classes/new").get_data(as_text=True)
    options = re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', page.split('id="class-timezone"')[1])
    assert [zone for zone, _ in options[:4]] == ["Europe/Oslo", "Europe/Stockholm", "Europe/Rome", "Europe/London"]
    assert options[0][1] == "Oslo (Norway)" and "Africa/Asmera" not in page and "US/Pacific" not in page
    teacher_client.post("/language", data={"locale": "nb"})
    page = teacher_client.get("/teacher/classes/new").get_data(as_text=True)
    assert "Oslo (Norge)" in page and "Roma (Italia)" in page
    # a class that has an old zone name keeps it, chosen, at the end of the list
    old = staff.school_class(pupils=(), timezone="Africa/Asmera")
    settings = teacher_client.get(f"/teacher/classes/{old.public_id}/settings").get_data(as_text=True)
    assert re.search(r'<option value="Africa/Asmera" selected>', settings)


def test_english_dates_are_written_as_in_britain(app, staff, teacher_client):  # noqa: F811
    school_class = staff.school_class(pupils=("Ada",))
    day = date.today() + timedelta(days=5)
    set_homework(teacher_client, school_class, due_date=day.isoformat(), due_time="17:30")
    page = teacher_client.get(f"/teacher/classes/{school_class.public_id}/homework").get_data(as_text=True)
    assert f"{day:%A}, {day.day} {day:%B} {day.year}" in page and "17:30" in page and "5:30 PM" not in page


# --- roster import -----------------------------------------------------------------------------
def test_a_class_list_file_is_imported_whole_or_not_at_all(app, staff, teacher_client):  # noqa: F811
    import io

    school_class = staff.school_class(pupils=())
    url = f"/teacher/classes/{school_class.public_id}/pupils"
    sheet = "Navn;Klasse\r\nÅse;4B\r\nOla;4B\r\nåse;4B\r\n".encode("cp1252")
    refused = teacher_client.post(
        url, data={"file": (io.BytesIO(sheet), "liste.csv")}, content_type="multipart/form-data"
    )
    assert refused.status_code == 400 and "Line 4" in refused.get_data(as_text=True)
    assert count(app, SchoolClass) == 1 and not staff.pupil(school_class.code, "Ola")
    good = "Navn;Klasse\r\nÅse;4B\r\nOla;4B\r\n".encode("utf-8-sig")
    added = teacher_client.post(url, data={"file": (io.BytesIO(good), "liste.csv")}, content_type="multipart/form-data")
    assert added.status_code == 302 and staff.pupil(school_class.code, "Åse") and staff.pupil(school_class.code, "Ola")
    binary = teacher_client.post(
        url, data={"file": (io.BytesIO(b"\x00\x01PK"), "x.xlsx")}, content_type="multipart/form-data"
    )
    assert binary.status_code == 400 and any("cannot be read as a list of names" in m for m in flashes(binary))


def test_status_words_never_contradict_the_progress(school):  # noqa: F811
    """The assignment page of the seeded class: Ada done 100 %, Ola needs help at 80 %, the others not started 0 %."""
    page = school["client"].get(f"/teacher/assignments/{school['assignment']}").get_data(as_text=True)
    for status, share in re.findall(r'<tr class="work-(\w+)">.*?<progress max="100" value="(\d+)"', page, re.S):
        assert not (status in ("not_started", "needs_help", "in_progress") and share == "100"), (status, share)
        assert not (status == "done" and share != "100")
