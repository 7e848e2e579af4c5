"""Every URL that carries an id is checked against the signed-in user: another's id is a 404.
Every POST needs the CSRF token of its own session.

The tests walk the app's URL map, so a new route is covered the moment it exists. A route
with an argument this table does not know fails the test until the table says what it is.
A refused request changes nothing that is stored.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from sqlalchemy import select

from tests.conftest import PASSWORD, run_id_in
from tutor.models import Base, PupilGroup, Teacher
from tutor.web import db

#: Who may use an id in a URL, by the URL argument's name.
TEACHER_IDS = {"class_id", "pupil_id", "assignment_id", "run_id", "teacher_id", "group_id"}
#: ... and arguments anyone may send: a game, a class code, a static file or recorded clip, a password reset link's
#: signed token, a misconception of the drill content, a school-account provider.
PUBLIC_ARGUMENTS = {"game_id", "code", "filename", "signed", "skill", "kind", "misconception", "provider_id", "digest"}


def homework_form(game="calculation-war", **fields):
    due = (date.today() + timedelta(days=5)).isoformat()
    return {
        "game": game,
        f"{game}-players": "2",
        f"{game}-bots": "beginner",
        "goal": "games",
        "goal_count": "1",
        "due_date": due,
        "due_time": "18:00",
        "target": "class",
        **fields,
    }


@pytest.fixture
def two_schools(app, staff):
    """Teacher A with a class, a co-teacher, a pupil who has started homework set for her alone; teacher B with a class
    of their own."""
    staff.teacher("a@school.example", "Anna")
    staff.teacher("co@school.example", "Cora")
    staff.teacher("b@school.example", "Bo")
    class_a = staff.school_class("a@school.example", "A-class", pupils=("Ada", "Ali"))
    class_b = staff.school_class("b@school.example", "B-class", pupils=("Bea",))
    teacher_a = app.test_client()
    staff.sign_in(teacher_a, "a@school.example")
    teacher_a.post(f"/teacher/classes/{class_a.public_id}/co-teachers", data={"email": "co@school.example"})
    ada = staff.pupil(class_a.code, "Ada").public_id
    created = teacher_a.post(
        f"/teacher/classes/{class_a.public_id}/homework/new", data=homework_form(target="pupils", pupils=ada)
    )
    assignment_id = created.headers["Location"].rsplit("/", 1)[1]
    teacher_a.post(f"/teacher/classes/{class_a.public_id}/groups", data={"name": "Table 1", "pupils": ada})
    pupil_a = app.test_client()
    staff.sign_in_pupil(pupil_a, class_a.code, "Ada")
    run_id = run_id_in(pupil_a.post(f"/homework/{assignment_id}/start").headers["Location"])
    with app.app_context():
        co_teacher = db.session().scalar(select(Teacher.public_id).where(Teacher.email == "co@school.example"))
        group = db.session().scalar(select(PupilGroup.public_id).where(PupilGroup.name == "Table 1"))
    ids = {
        "class_id": class_a.public_id,
        "pupil_id": ada,
        "assignment_id": assignment_id,
        "run_id": run_id,
        "teacher_id": co_teacher,
        "group_id": group,
        "code": class_a.code,
        "game_id": "calculation-war",
        "filename": "app.css",
        "digest": "0123456789abcdef",  # a recorded clip's name (tutor/web/audio.py): the same for everybody
        "signed": "not-a-signed-token",
        "skill": "tens_friends",
        "kind": "tens_friend_number",
        "misconception": "same_number",
        "provider_id": "feide",
    }
    return {"ids": ids, "class_a": class_a, "class_b": class_b, "pupil_a": pupil_a, "teacher_a": teacher_a}


def rules(app):
    return [rule for rule in app.url_map.iter_rules()]


def url_for_rule(rule, ids) -> str:
    unknown = set(rule.arguments) - TEACHER_IDS - PUBLIC_ARGUMENTS
    assert not unknown, f"{rule.rule}: say in tests/test_access.py who may use {unknown}"
    return re.sub(r"<(?:[a-z]+:)?(\w+)>", lambda m: ids[m.group(1)], rule.rule)


def methods(rule):
    return sorted(rule.methods - {"HEAD", "OPTIONS"})


def stored_state(app) -> dict:
    """Every row of every table, a session's last-seen time aside: what a refused request must leave alone."""
    with app.app_context():
        database = db.session()
        state = {}
        for table in Base.metadata.sorted_tables:
            columns = [column for column in table.columns if column.name != "last_seen_at"]
            state[table.name] = sorted((tuple(row) for row in database.execute(select(*columns))), key=repr)
        return state


def test_another_teacher_gets_404_for_every_teacher_url(app, staff, two_schools):
    other = app.test_client()
    assert staff.sign_in(other, "b@school.example").status_code == 302
    before = stored_state(app)
    own_class = {"class_id": two_schools["class_b"].public_id}  # B's own class with A's other ids: still A's
    checked = 0
    for rule in rules(app):
        if not rule.rule.startswith("/teacher/") or not set(rule.arguments) & TEACHER_IDS:
            continue
        mixed = [
            {name: value}
            for name, value in own_class.items()
            if name in rule.arguments and len(set(rule.arguments) & TEACHER_IDS) > 1
        ]
        for ids in [two_schools["ids"], *({**two_schools["ids"], **mix} for mix in mixed)]:
            url = url_for_rule(rule, ids)
            for method in methods(rule):
                response = other.open(
                    url,
                    method=method,
                    data={"confirm": "yes", "name": "X", "names": "Eve", "email": "b@school.example"},
                )
                assert response.status_code == 404, f"{method} {url} gave {response.status_code} to another teacher"
                checked += 1
    assert checked >= 21
    assert stored_state(app) == before
    # ...while the class's own teachers reach every page they may read
    for client_email in ("a@school.example", "co@school.example"):
        own = app.test_client()
        staff.sign_in(own, client_email)
        for rule in rules(app):
            if rule.rule.startswith("/teacher/") and "GET" in rule.methods and set(rule.arguments) & TEACHER_IDS:
                url = url_for_rule(rule, two_schools["ids"])
                assert own.get(url).status_code == 200, f"{client_email} cannot open {url}"


def test_teacher_urls_send_pupils_and_strangers_to_the_teacher_sign_in(app, two_schools):
    stranger = app.test_client()
    for client in (two_schools["pupil_a"], stranger):
        for rule in rules(app):
            if rule.rule.startswith("/teacher/") and set(rule.arguments) & TEACHER_IDS:
                url = url_for_rule(rule, two_schools["ids"])
                for method in methods(rule):
                    response = client.open(url, method=method)
                    assert response.status_code == 302 and "/teacher/sign-in" in response.headers["Location"], (
                        f"{method} {url}"
                    )


def test_another_pupil_gets_404_for_every_pupil_url(app, staff, two_schools):
    """A pupil of another class, a guest and a classmate cannot reach Ada's run or the homework set for her alone."""
    outsiders = []
    bea = app.test_client()
    staff.sign_in_pupil(bea, two_schools["class_b"].code, "Bea")
    outsiders.append(bea)
    guest = app.test_client()
    guest.post("/guest", data={"name": "Gus"})
    outsiders.append(guest)
    classmate = app.test_client()
    staff.sign_in_pupil(classmate, two_schools["class_a"].code, "Ali")
    outsiders.append(classmate)
    before = stored_state(app)
    checked = 0
    for rule in rules(app):
        if (
            rule.rule.startswith(("/teacher/", "/static"))
            or not set(rule.arguments) & TEACHER_IDS
            or "code" in rule.arguments
        ):
            continue  # the sign-in pages with a class code are public: see the next test
        url = url_for_rule(rule, two_schools["ids"])
        for method in methods(rule):
            for client in outsiders:
                assert client.open(url, method=method).status_code == 404, f"{method} {url}"
                checked += 1
    assert checked >= 40
    assert stored_state(app) == before
    assert two_schools["pupil_a"].get(f"/runs/{two_schools['ids']['run_id']}").status_code == 200


def test_a_pupil_sign_in_page_needs_the_pupils_own_class_code(app, staff, two_schools):
    client = app.test_client()
    ada = two_schools["ids"]["pupil_id"]
    assert client.get(f"/class/{two_schools['class_a'].code}/{ada}").status_code == 200
    assert client.get(f"/class/{two_schools['class_b'].code}/{ada}").status_code == 404
    assert client.post(f"/class/{two_schools['class_b'].code}/{ada}", data={"pick": "sun"}).status_code == 404
    assert client.get("/class/ZZZZZZ").status_code == 404


def test_ids_in_urls_are_random_not_sequential(two_schools):
    for name in ("class_id", "pupil_id", "assignment_id", "run_id"):
        value = two_schools["ids"][name]
        assert len(value) >= 16 and not value.isdigit(), (name, value)


HOSTILE = ["9223372036854775808", "-1", "0", "x" * 300, "%E2%80%AE", "..%2F..%2Fetc", "' OR 1=1 --", "ÅØ\u202e", "null"]
HOSTILE_FORM = {
    "name": "\x00" * 3,
    "names": "\u202e\n" * 5 + "A" * 5000,
    "email": "a@b@c",
    "password": "x" * 500,
    "code": "<script>",
    "pick": "dragon",
    "picked": "sun sun sun sun",
    "pin": "١٢٣٤",
    "locale": "xx",
    "timezone": "../../etc/passwd",
    "sign_in": "both",
    "game": "calculation-war",
    "calculation-war-players": "1e9",
    "goal": "skill",
    "goal_count": "-5",
    "due_date": "2026-02-30",
    "due_time": "24:61",
    "target": "pupils",
    "pupils": "nobody",
    "confirm": "maybe",
    "answer": "1/0",
    "move": "play:9999999999999:x",
    "expression": "((((((((((1))))))))))",
    "next": "\t//evil.example",
    "step": "NaN",
    "sort": "'; drop",
    "week": "2026-W99",
}


def test_hostile_values_in_urls_forms_and_queries_never_give_a_server_error(app, staff, two_schools):
    owner = app.test_client()
    staff.sign_in(owner, "a@school.example")
    clients = {"teacher": owner, "pupil": two_schools["pupil_a"], "stranger": app.test_client()}
    checked = 0
    for rule in rules(app):
        if rule.rule.startswith("/static"):
            continue
        for hostile in [None, *HOSTILE]:  # None: the real ids, with hostile forms and queries
            ids = {**two_schools["ids"], **({name: hostile for name in rule.arguments} if hostile else {})}
            url = url_for_rule(rule, ids)
            for client in clients.values():
                for method in methods(rule):
                    response = client.open(
                        url,
                        method=method,
                        data=HOSTILE_FORM if method == "POST" else None,
                        query_string={"sort": "'; drop", "week": "W99", "step": "-9e9"},
                    )
                    assert response.status_code < 500, f"{method} {url}: {response.status_code}"
                    checked += 1
    assert checked > 500


#: A form each POST route would act on: right e-mail and password, a confirmed deletion, a name, an answer.
ACTING_FORM = {
    "email": "a@school.example",
    "password": PASSWORD,
    "confirm": "yes",
    "name": "Eve",
    "names": "Eve",
    "locale": "sv",
    "pick": "sun",
    "pin": "1234",
    "answer": "12",
    "move": "play:1:",
    "players": "2",
    "strength": "beginner",
    "next": "/progress",
}


#: POSTs a learning platform sends (tutor.web.lti): they carry no form token; the OIDC state cookie and the signed,
#: single-use id_token guard them, and without those they are refused and change nothing.
PLATFORM_POSTS = {"/lti/login", "/lti/launch"}


def test_every_post_needs_the_csrf_token_of_its_own_session(app, staff, two_schools):
    """With CSRF checks on, as in production: no token, or a real token of another session, is the 400 page and changes
    nothing."""
    owner = app.test_client()
    staff.sign_in(owner, "a@school.example")
    clients = {"teacher": owner, "pupil": two_schools["pupil_a"], "stranger": app.test_client()}
    app.config["WTF_CSRF_ENABLED"] = True
    page = app.test_client().get("/").get_data(as_text=True)
    foreign = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    before = stored_state(app)
    checked = 0
    for rule in rules(app):
        if "POST" not in rule.methods:
            continue
        url = url_for_rule(rule, two_schools["ids"])
        for who, client in clients.items():
            for form, headers in [
                (ACTING_FORM, {}),
                ({**ACTING_FORM, "csrf_token": foreign}, {}),
                (ACTING_FORM, {"HX-Request": "true", "X-CSRFToken": foreign}),
            ]:
                response = client.post(url, data=form, headers=headers)
                if rule.rule in PLATFORM_POSTS:  # no form token: refused by the LTI checks instead
                    assert response.status_code in (400, 403), f"{who}: POST {url} gave {response.status_code}"
                    assert "Kortmatte could not be opened" in response.get_data(as_text=True)
                    continue
                assert response.status_code == 400 and "This page is too old" in response.get_data(as_text=True), (
                    f"{who}: POST {url} without its own token gave {response.status_code}"
                )
                checked += 1
    assert checked >= 3 * 3 * 30
    assert stored_state(app) == before, "a refused POST changed what is stored (a sign-out, an answer, a deletion...)"
