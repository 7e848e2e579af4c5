"""The sign-in core: passwords, class codes, pupils' secrets, server-side sessions and throttles."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor import accounts, content, db
from tutor.models import SchoolClass, SignInSession, SignInThrottle

T0 = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)
PICTURE_DIR = Path(accounts.__file__).parent / "static" / "pictures"


@pytest.fixture
def database(database_url):
    engine = db.make_engine(database_url)
    with Session(engine) as session:
        yield session
    engine.dispose()


def test_a_password_is_hashed_with_argon2_and_only_the_right_one_matches():
    stored = accounts.hash_password("correct horse battery")
    assert stored.startswith("$argon2") and "correct horse" not in stored
    assert accounts.check_password(stored, "correct horse battery")
    assert not accounts.check_password(stored, "correct horse batterx")
    assert not accounts.check_password(None, "correct horse battery")  # unknown account
    assert not accounts.check_password("not a hash", "x")


def test_new_passwords_must_be_long_enough_but_not_huge():
    assert accounts.password_problem("short") == "short"
    assert accounts.password_problem("x" * 201) == "long"
    assert accounts.password_problem("ten chars!") is None


@pytest.mark.parametrize(
    "raw, clean",
    [
        (" Ada@School.NO ", "ada@school.no"),
        ("no-at-sign", None),
        ("a@b", None),
        ("a b@c.de", None),
        ("x" * 250 + "@b.no", None),
    ],
)
def test_email_addresses_are_lower_cased_and_checked(raw, clean):
    assert accounts.clean_email(raw) == clean


@pytest.mark.parametrize(
    "raw, clean",
    [
        ("  Ada   Lovelace ", "Ada Lovelace"),
        ("", None),
        ("   ", None),
        ("x" * 41, None),
        ("Ad\u200ba", None),
        ("Ola\x00", None),
        ("Åse", "Åse"),
    ],
)
def test_names_are_trimmed_and_control_characters_refused(raw, clean):
    assert accounts.clean_name(raw) == clean


def test_class_codes_avoid_characters_children_confuse_and_are_unique(database):
    rng = random.Random(1)
    codes = set()
    for _ in range(200):
        code = accounts.new_class_code(database, rng)
        assert len(code) == accounts.CODE_LENGTH and not set(code) & set("0O1IL")
        database.add(SchoolClass(code=code, name="x"))
        database.flush()
        codes.add(code)
    assert len(codes) == 200


@given(st.text(alphabet="bcdfg2345 -–", max_size=12))
def test_a_typed_code_is_read_without_spaces_dashes_or_case(typed):
    assert accounts.normalise_code(typed) == "".join(ch for ch in typed if ch not in " -–").upper()


def test_codes_are_printed_in_two_halves():
    assert accounts.show_code("KX4M9Q") == "KX4 M9Q"


def test_picture_secrets_are_four_different_pictures_and_pins_four_digits():
    rng = random.Random(5)
    for _ in range(50):
        pictures = accounts.new_secret("pictures", rng).split()
        assert len(pictures) == 4 == len(set(pictures)) and set(pictures) <= set(accounts.PICTURES)
        pin = accounts.new_secret("pin", rng)
        assert len(pin) == 4 and pin.isdigit()
    assert accounts.picture_secret(["sun", "cat", "car", "ball"]) == "sun cat car ball"
    assert accounts.picture_secret(["sun", "cat", "car"], 3) == "sun cat car"  # a secret made before four
    assert accounts.picture_secret(["sun", "cat", "car"]) is None
    assert accounts.picture_secret(["sun", "cat", "car", "dragon"]) is None
    assert accounts.pin_secret(" 12 34 ") == "1234"
    assert accounts.pin_secret("12a4") is None and accounts.pin_secret("١٢٣٤") is None
    assert accounts.secret_matches("sun cat car", "sun cat car") and not accounts.secret_matches(
        "sun cat car", "cat sun car"
    )
    assert not accounts.secret_matches(None, "")


def test_a_picture_secret_is_four_of_twelve_pictures_and_the_nine_of_older_secrets_stay_first():
    assert len(accounts.PICTURES) == 12 == len(set(accounts.PICTURES))
    assert math.perm(len(accounts.PICTURES), accounts.PICTURES_IN_SECRET) == 11_880
    older = ("sun", "star", "apple", "cat", "fish", "car", "tree", "house", "ball")
    assert accounts.PICTURES[:9] == older  # secrets stored before are still made of pad pictures
    assert accounts.picture_secret(["ball", "tree", "house", "sun"]) == "ball tree house sun"
    assert accounts.picture_secret(["key", "umbrella", "flower", "sun"]) == "key umbrella flower sun"
    rng = random.Random(25)
    drawn = {name for _ in range(200) for name in accounts.new_secret("pictures", rng).split()}
    assert drawn == set(accounts.PICTURES)  # the new pictures are drawn too


def test_every_picture_and_avatar_has_a_file_and_a_name():
    labels = content.load("pictures")["labels"]
    for name in accounts.PICTURES + accounts.AVATARS:
        assert (PICTURE_DIR / f"{name}.svg").exists(), name
        assert labels[name], name
    assert not set(accounts.PICTURES) & set(accounts.AVATARS)  # an avatar never gives a secret away
    assert len(accounts.AVATARS) >= 24  # a class of 24 can have 24 different pictures


def test_a_session_is_stored_as_a_hash_and_ends_when_idle_too_long_or_too_old(database):
    limits = accounts.SessionLimits(idle=timedelta(minutes=30), lifetime=timedelta(hours=8))
    token = accounts.open_session(database, T0, teacher_id=None, pupil_id=None)
    database.commit()
    stored = database.scalar(select(SignInSession))
    assert token not in stored.token_hash and len(stored.token_hash) == 64
    assert accounts.find_session(database, token, T0 + timedelta(minutes=29), limits) is not None
    assert (
        accounts.find_session(database, token, T0 + timedelta(minutes=58), limits) is not None
    )  # seen at 29, so not idle
    assert accounts.find_session(database, "forged", T0, limits) is None
    assert accounts.find_session(database, token, T0 + timedelta(minutes=58 + 31), limits) is None  # idle too long
    assert database.scalar(select(SignInSession)) is None  # and deleted

    token = accounts.open_session(database, T0)
    database.commit()
    moment = T0
    while moment < T0 + timedelta(hours=8):
        assert accounts.find_session(database, token, moment, limits) is not None
        moment += timedelta(minutes=20)
    assert (
        accounts.find_session(database, token, T0 + timedelta(hours=8, minutes=1), limits) is None
    )  # too old, though active


def test_closing_a_session_makes_its_token_useless(database):
    limits = accounts.SessionLimits()
    token = accounts.open_session(database, T0)
    database.commit()
    accounts.close_session(database, token)
    database.commit()
    assert accounts.find_session(database, token, T0, limits) is None


def test_the_throttle_waits_after_five_failures_and_doubles_the_wait(database):
    key = accounts.throttle_key("account", "tove@school.example", "secret")
    assert "tove" not in key  # the address itself is not stored
    for attempt in range(4):
        accounts.note_failure(database, key, accounts.ACCOUNT, T0 + timedelta(seconds=attempt))
        assert accounts.wait_seconds(database, key, T0 + timedelta(seconds=attempt)) == 0
    accounts.note_failure(database, key, accounts.ACCOUNT, T0 + timedelta(seconds=5))
    assert accounts.wait_seconds(database, key, T0 + timedelta(seconds=5)) == 300
    later = T0 + timedelta(seconds=5 + 301)
    assert accounts.wait_seconds(database, key, later) == 0
    accounts.note_failure(database, key, accounts.ACCOUNT, later)
    assert accounts.wait_seconds(database, key, later) == 600  # one more failure soon after: twice as long
    accounts.clear_failures(database, key)
    assert accounts.wait_seconds(database, key, later) == 0


def test_old_failures_are_forgotten_after_the_window(database):
    key = "account:abc"
    for _ in range(4):
        accounts.note_failure(database, key, accounts.ACCOUNT, T0)
    accounts.note_failure(database, key, accounts.ACCOUNT, T0 + timedelta(minutes=16))  # the window has passed
    assert database.scalar(select(SignInThrottle.failures)) == 1
    assert accounts.wait_seconds(database, key, T0 + timedelta(minutes=16)) == 0


def test_the_wait_never_grows_past_the_longest(database):
    key = "account:xyz"
    moment = T0
    for _ in range(40):
        accounts.note_failure(database, key, accounts.ACCOUNT, moment)
    assert accounts.wait_seconds(database, key, moment) == accounts.ACCOUNT.longest_wait.total_seconds()
