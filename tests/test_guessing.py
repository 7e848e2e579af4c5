"""Guessing limits for a school behind one address: per pupil (parallel guesses all count), per class (a teacher
sees the pause and lifts it), per address for class codes, and a teacher lockout a stranger cannot trigger."""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.conftest import PASSWORD
from tutor import ROOT, accounts, limits
from tutor.limits import Limit

SCHOOL = {"REMOTE_ADDR": "203.0.113.7"}
ELSEWHERE = {"REMOTE_ADDR": "198.51.100.9"}


def wrong_secret(pupil) -> dict:
    """A picture password or PIN that is not the pupil's."""
    if pupil.secret.isdigit():
        return {"pin": "0000" if pupil.secret != "0000" else "1111"}
    wrong = [p for p in accounts.PICTURES if p not in pupil.secret.split()][: accounts.pictures_in(pupil.secret)]
    return {"picked": " ".join(wrong[:-1]), "pick": wrong[-1]}


def guess(app, url: str, form: dict, address=SCHOOL) -> int:
    return app.test_client().post(url, data=form, environ_base=address).status_code


def test_new_picture_secrets_are_four_pictures_and_old_three_picture_ones_still_work(app, staff, client):
    staff.teacher()
    school_class = staff.school_class(pupils=("Ada",))
    ada = staff.pupil(school_class.code, "Ada")
    assert len(ada.secret.split()) == 4 == len(set(ada.secret.split()))
    page = client.get(f"/class/{school_class.code}/{ada.public_id}").get_data(as_text=True)
    assert "Tap your 4 pictures in the right order." in page and "0 of 4 pictures chosen" in page
    with app.app_context():
        from tutor.web import db

        db.session().get(type(ada), ada.id).secret = "sun cat car"
        db.session().commit()
    assert staff.sign_in_pupil(client, school_class.code, "Ada").status_code == 302
    assert client.get("/").status_code == 200 and "Ada" in client.get("/").get_data(as_text=True)


def test_the_guessing_times_in_the_teachers_guide_follow_from_the_secrets_and_the_class_limit():
    """Guessing one pupil at a time is the fastest plan for any pupil of a class: the goal is 30 days or more."""
    secrets = {
        "pictures": math.perm(len(accounts.PICTURES), accounts.PICTURES_IN_SECRET),
        "pin": 10**accounts.PIN_DIGITS,
    }
    per_day = limits.CLASS_TRIES_DAY.hits
    average_tries = {kind: (count + 1) / 2 for kind, count in secrets.items()}
    days = {kind: tries / per_day for kind, tries in average_tries.items()}
    assert (secrets["pictures"], round(average_tries["pictures"]), round(days["pictures"])) == (11_880, 5_940, 119)
    assert round(days["pin"]) == 100 and min(days.values()) >= 30 * 3  # the goal with a margin
    one_percent_days = {kind: count / 100 / per_day for kind, count in secrets.items()}
    assert (round(one_percent_days["pictures"], 1), round(one_percent_days["pin"], 1)) == (2.4, 2.0)
    guide = (ROOT / "docs" / "teachers.md").read_text()
    for figure in ("**11,880**", "5,940 tries on average: 119 days at 50 a day", "1 % after 2.4 days"):
        assert figure in guide, figure


@pytest.mark.parametrize("kind", ["pictures", "pin"])
def test_parallel_guesses_at_one_pupil_are_all_counted_so_only_five_are_checked(app, staff, kind):
    staff.teacher()
    school_class = staff.school_class(pupils=("Ada",), sign_in=kind)
    ada = staff.pupil(school_class.code, "Ada")
    url = f"/class/{school_class.code}/{ada.public_id}"
    with ThreadPoolExecutor(max_workers=8) as pool:
        codes = list(pool.map(lambda _: guess(app, url, wrong_secret(ada)), range(24)))
    assert codes.count(302) == limits.PUPIL_TRIES.hits and codes.count(429) == 24 - limits.PUPIL_TRIES.hits
    # the pupil's own secret waits too, and says how long
    response = staff.sign_in_pupil(app.test_client(), school_class.code, "Ada")
    assert response.status_code == 429 and "Too many tries" in response.get_data(as_text=True)


def test_a_burst_against_many_pupils_pauses_the_class_and_the_teacher_sees_it_and_lifts_it(
    app, staff, client, monkeypatch
):
    monkeypatch.setattr(limits, "CLASS_TRIES_HOUR", Limit("class-hour", 6, 3600))
    staff.teacher()
    names = ("Ada", "Ola", "Lise", "Per", "Kari", "Nils", "Siri", "Emil")
    school_class = staff.school_class(pupils=names)
    other_class = staff.school_class(name="5A", pupils=("Ada",))
    pupils = [staff.pupil(school_class.code, name) for name in names]
    codes = [guess(app, f"/class/{school_class.code}/{p.public_id}", wrong_secret(p)) for p in pupils]
    assert codes == [302] * 6 + [429] * 2  # at most two wrong tries per pupil, yet the class waits
    assert staff.sign_in_pupil(app.test_client(), school_class.code, "Ada").status_code == 429
    assert staff.sign_in_pupil(app.test_client(), other_class.code, "Ada").status_code == 302  # other classes go on
    staff.sign_in(client)
    page = client.get(f"/teacher/classes/{school_class.public_id}/pupils").get_data(as_text=True)
    assert "Many wrong pictures or PINs were tried in this class" in page
    assert "Many wrong pictures" not in client.get(f"/teacher/classes/{other_class.public_id}/pupils").get_data(
        as_text=True
    )
    assert client.post(f"/teacher/classes/{school_class.public_id}/sign-in-again").status_code == 302
    assert "Many wrong pictures" not in client.get(f"/teacher/classes/{school_class.public_id}/pupils").get_data(
        as_text=True
    )
    assert staff.sign_in_pupil(app.test_client(), school_class.code, "Ada").status_code == 302


def test_right_pictures_cost_the_class_nothing(app, staff, monkeypatch):
    monkeypatch.setattr(limits, "CLASS_TRIES_DAY", Limit("class-day", 3, 86_400))
    staff.teacher()
    names = ("Ada", "Ola", "Lise", "Per", "Kari")
    school_class = staff.school_class(pupils=names)
    for name in names:
        assert staff.sign_in_pupil(app.test_client(), school_class.code, name).status_code == 302
    ada = staff.pupil(school_class.code, "Ada")
    codes = [guess(app, f"/class/{school_class.code}/{ada.public_id}", wrong_secret(ada)) for _ in range(4)]
    assert codes == [302, 302, 302, 429]  # the day's three wrong tries, not fewer for the five right ones


def test_class_codes_from_one_address_are_limited_but_right_codes_cost_nothing(app, staff, monkeypatch):
    monkeypatch.setattr(limits, "ADDRESS_CODE_TRIES", Limit("code-address", 3, 3600))
    staff.teacher()
    school_class = staff.school_class()
    school = app.test_client()
    for _ in range(5):
        assert school.post("/class", data={"code": school_class.code}, environ_base=SCHOOL).status_code == 302
    assert [school.post("/class", data={"code": "BBBBBB"}, environ_base=SCHOOL).status_code for _ in range(4)] == [
        400,
        400,
        400,
        429,
    ]
    assert school.post("/class", data={"code": school_class.code}, environ_base=SCHOOL).status_code == 429
    assert school.post("/class", data={"code": school_class.code}, environ_base=ELSEWHERE).status_code == 302


def test_a_stranger_cannot_lock_a_colleague_out_from_the_same_school_address_or_from_elsewhere(app, staff):
    staff.teacher()
    staff.teacher(email="per@school.example", name="Per")
    stranger = app.test_client()
    for n in range(60):  # more than the old address limit of 50: each a wrong password, counted for the address
        email = f"nobody{n}@school.example"
        stranger.post("/teacher/sign-in", data={"email": email, "password": "wrong password"}, environ_base=SCHOOL)
    for _ in range(6):  # and at a colleague's account from the same address
        stranger.post(
            "/teacher/sign-in", data={"email": "per@school.example", "password": "wrong"}, environ_base=SCHOOL
        )
    for _ in range(8):  # and against Tove's account from outside the school
        stranger.post(
            "/teacher/sign-in", data={"email": "tove@school.example", "password": "wrong"}, environ_base=ELSEWHERE
        )
    tove = app.test_client()
    response = tove.post(
        "/teacher/sign-in", data={"email": "tove@school.example", "password": PASSWORD}, environ_base=SCHOOL
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    # the stranger's own tries at Per from the school address wait
    response = stranger.post(
        "/teacher/sign-in", data={"email": "per@school.example", "password": "x" * 12}, environ_base=SCHOOL
    )
    assert response.status_code == 429
