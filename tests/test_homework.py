"""Homework goes on for the pupil: "Play again" after a homework game starts the homework's next game.

With a class deal every pupil's n-th game of the assignment has the same deal, a new one each
game; without one each game gets a fresh random seed. Also: the pupil's own progress page is a
child's page (stars and a sentence per skill, no numbers) in every language.
"""

from __future__ import annotations

import functools
import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select, update

from tests.conftest import run_id_in, run_record
from tests.test_teacher import count, homework_form, play_through
from tutor import classroom
from tutor.models import Assignment, LessonRunRecord, Pupil, SkillRecord, utcnow
from tutor.skill_model import skills
from tutor.text import say
from tutor.web import db


@pytest.fixture
def teacher_client(app, staff):
    staff.teacher()
    client = app.test_client()
    staff.sign_in(client)
    return client


def set_homework(teacher_client, school_class, **changes) -> str:
    """The public id of new homework for the class."""
    response = teacher_client.post(
        f"/teacher/classes/{school_class.public_id}/homework/new", data=homework_form(**changes)
    )
    assert response.status_code == 302, response.get_data(as_text=True)[:300]
    return response.headers["Location"].rsplit("/", 1)[1]


def pupil_client(app, staff, school_class, name):
    client = app.test_client()
    staff.sign_in_pupil(client, school_class.code, name)
    return client


def play_again(client, app, run_id: str) -> str:
    """Press "Play again" on the finished game's page: the form it shows, posted; the new run's id."""
    page = client.get(f"/runs/{run_id}").get_data(as_text=True)
    action = re.search(
        r'<form method="post" action="([^"]+)" class="inline">\s*<input[^>]*>\s*<button[^>]*>Play again', page
    )
    assert action, "a finished homework game offers Play again as a form that continues the homework"
    response = client.post(action.group(1))
    assert response.status_code == 302
    return run_id_in(response.headers["Location"])


def assignment_seed(app, public_id: str) -> int:
    with app.app_context():
        return db.session().scalar(select(Assignment.seed).where(Assignment.public_id == public_id))


def test_a_class_deal_seed_is_the_same_for_everyone_and_new_for_each_game():
    seeds = [classroom.class_deal(123456789, game) for game in range(1, 41)]
    assert seeds[0] == 123456789  # the first game is the assignment's own deal
    assert len(set(seeds)) == len(seeds) and all(0 <= seed < 2**48 for seed in seeds)
    assert seeds == [classroom.class_deal(123456789, game) for game in range(1, 41)]  # nothing random
    assert classroom.class_deal(987654321, 2) != seeds[1]  # another assignment, other deals


def test_play_again_gives_every_pupil_of_the_class_the_same_next_deal(app, staff, teacher_client):
    school_class = staff.school_class(pupils=("Ada", "Ola"))
    assignment_id = set_homework(teacher_client, school_class, class_deal="yes", goal_count="3")
    ada, ola = (pupil_client(app, staff, school_class, name) for name in ("Ada", "Ola"))
    games = {}
    for name, client in (("Ada", ada), ("Ola", ola)):
        first = run_id_in(client.post(f"/homework/{assignment_id}/start").headers["Location"])
        play_through(client, app, first)
        assert "Play again to go on with your homework." in client.get(f"/runs/{first}").get_data(as_text=True)
        second = play_again(client, app, first)
        assert client.post(f"/homework/{assignment_id}/start").headers["Location"].endswith(second)  # a double click
        games[name] = [run_record(app, first), run_record(app, second)]
    seed = assignment_seed(app, assignment_id)
    for first, second in games.values():
        assert first.seed == seed and second.seed == classroom.class_deal(seed, 2) != seed
        assert second.assignment_id == first.assignment_id is not None and second.finished_at is None
        assert second.data["state"] != first.data["state"]  # a new deal
    assert games["Ada"][1].data["state"] == games["Ola"][1].data["state"]  # the class's second deal
    with app.app_context():
        assert db.session().scalar(select(func.count(LessonRunRecord.id))) == 4


def test_without_a_class_deal_the_next_game_gets_a_fresh_random_seed(app, staff, teacher_client, fixed_deal):
    school_class = staff.school_class(pupils=("Ada",))
    assignment_id = set_homework(teacher_client, school_class)
    ada = pupil_client(app, staff, school_class, "Ada")
    fixed_deal(11)
    first = run_id_in(ada.post(f"/homework/{assignment_id}/start").headers["Location"])
    play_through(ada, app, first)
    assert "Your homework is done. Well done!" in ada.get(f"/runs/{first}").get_data(as_text=True)
    fixed_deal(12)
    second = play_again(ada, app, first)
    assert (run_record(app, first).seed, run_record(app, second).seed) == (11, 12)
    assert run_record(app, second).assignment_id is not None  # done homework still counts what is played


def test_late_homework_goes_on_with_play_again(app, staff, teacher_client):
    """Late work is accepted (the home page marks it late), so "Play again" keeps counting it."""
    school_class = staff.school_class(pupils=("Ada",))
    assignment_id = set_homework(teacher_client, school_class, class_deal="yes", goal_count="2")
    with app.app_context():
        db.session().execute(update(Assignment).values(due_at=datetime.now(UTC) - timedelta(days=1)))
        db.session().commit()
    ada = pupil_client(app, staff, school_class, "Ada")
    first = run_id_in(ada.post(f"/homework/{assignment_id}/start").headers["Location"])
    play_through(ada, app, first)
    second = play_again(ada, app, first)
    assert run_record(app, second).seed == classroom.class_deal(assignment_seed(app, assignment_id), 2)


def test_play_again_after_a_game_that_is_not_homework_opens_the_start_page(app, guest, client):
    guest.sign_in()
    run_id = guest.start()
    play_through(client, app, run_id)
    page = client.get(f"/runs/{run_id}").get_data(as_text=True)
    assert 'href="/lessons/calculation-war" data-autofocus>Play again</a>' in page
    assert "/homework/" not in page and "homework" not in page.split('id="lesson"')[1]


def test_another_pupils_homework_is_not_found_and_nothing_is_started(app, staff, teacher_client):
    school_class = staff.school_class(pupils=("Ada", "Ola"))
    ada_id = staff.pupil(school_class.code, "Ada").public_id
    assignment_id = set_homework(teacher_client, school_class, class_deal="yes", target="pupils", pupils=ada_id)
    ada = pupil_client(app, staff, school_class, "Ada")
    first = run_id_in(ada.post(f"/homework/{assignment_id}/start").headers["Location"])
    play_through(ada, app, first)
    staff.teacher("b@school.example", "Bo")
    other_class = staff.school_class("b@school.example", "B", pupils=("Bea",))
    for outsider in (pupil_client(app, staff, school_class, "Ola"), pupil_client(app, staff, other_class, "Bea")):
        assert outsider.post(f"/homework/{assignment_id}/start").status_code == 404
        assert outsider.get(f"/runs/{first}").status_code == 404
    assert count(app, LessonRunRecord) == 1
    play_again(ada, app, first)  # Ada's own
    assert count(app, LessonRunRecord) == 2


def test_play_again_needs_the_form_token_of_the_pupils_own_session(app, staff, teacher_client):
    school_class = staff.school_class(pupils=("Ada",))
    assignment_id = set_homework(teacher_client, school_class, class_deal="yes")
    ada = pupil_client(app, staff, school_class, "Ada")
    first = run_id_in(ada.post(f"/homework/{assignment_id}/start").headers["Location"])
    play_through(ada, app, first)
    app.config["WTF_CSRF_ENABLED"] = True
    page = ada.get(f"/runs/{first}").get_data(as_text=True)
    form = re.search(
        r'action="(/homework/[^"]+/start)" class="inline">\s*<input type="hidden" name="csrf_token" '
        r'value="([^"]+)"',
        page,
    )
    assert form, "the Play again form carries the session's token"
    assert ada.post(form.group(1)).status_code == 400
    assert ada.post(form.group(1), data={"csrf_token": "not-the-token"}).status_code == 400
    assert count(app, LessonRunRecord) == 1
    assert ada.post(form.group(1), data={"csrf_token": form.group(2)}).status_code == 302
    assert count(app, LessonRunRecord) == 2


# --- the pupil's progress page ---------------------------------------------------------------------
#: One skill at each level, and one the teacher should help with: (p_known, answers).
RECORDS = {
    "multiply": (0.97, 8),  # mastered
    "estimate_sum": (0.85, 4),  # proficient
    "exact_sum": (0.6, 3),  # familiar
    "compare": (0.35, 2),  # attempted
    "count": (0.1, 6),  # needs help
}
SENTENCES = {
    "mastered": "You know this really well!",
    "proficient": "You are good at this.",
    "familiar": "You are getting better at this.",
    "attempted": "You have made a start.",
    "needs_help": "This is hard right now, so ask a grown-up to help you.",
    "not_started": "You have not tried this yet.",
}
STARS = {"mastered": 4, "proficient": 3, "familiar": 2, "attempted": 1, "needs_help": 1, "not_started": 0}


@pytest.mark.parametrize("locale", ["en", "nb", "sv", "it"])
def test_the_progress_page_is_a_childs_page_of_stars_and_sentences(app, guest, client, locale):
    t = functools.partial(say, locale=locale)
    guest.sign_in("Ada", locale=locale)
    with app.app_context():
        database = db.session()
        ada = database.scalar(select(Pupil.id).where(Pupil.name == "Ada"))
        for skill, (p_known, answers) in RECORDS.items():
            database.add(
                SkillRecord(
                    pupil_id=ada,
                    skill=skill,
                    p_known=p_known,
                    attempts=answers,
                    correct=answers // 2,
                    streak=0,
                    mastery_threshold=0.95,
                    evidence=skills.EVIDENCE_CAP,  # luck-proof evidence, fresh: the level is P(known)'s
                    typed_right=1,
                    practised_at=utcnow(),
                )
            )
        database.commit()
    page = client.get("/progress").get_data(as_text=True)
    main = page.split('<main id="main">')[1].split("</main>")[0]
    assert "%" not in main and "<table" not in main and "<meter" not in main and "<progress" not in main
    words = re.sub(r"<[^>]*>", "", re.sub(r"<h2>.*?</h2>", "", main))  # skill names aside ("Amici del 10")
    assert not re.search(r"\d", words), "no numbers for the child to read"
    cards = re.findall(r'<li class="skill-card status-(\w+)">(.*?)</li>', main, re.S)
    statuses = {re.search(r"<h2>([^<]+)</h2>", card).group(1): status for status, card in cards}
    assert statuses[t("Times tables")] == "mastered" and statuses[t("Count")] == "needs_help"
    assert statuses[t("Tens friends")] == "not_started"
    for status, card in cards:
        assert t(SENTENCES[status]) in card
        stars = re.search(r'<p class="stars" role="img" aria-label="([^"]+)">(.*?)</p>', card, re.S)
        assert stars.group(2).count('class="star star-on"') == STARS[status] and stars.group(2).count("<svg") == 4
        assert str(STARS[status]) in stars.group(1) and "4" in stars.group(1)  # the stars in words
        if locale != "en":
            assert "star" not in stars.group(1)
    if locale != "en":
        assert "You " not in main and "Play the games" not in main
    assert t("The stars show how well you know each skill. Play the games to get more stars!") in main
