"""Operator settings from the environment: sign-up, guests, session limits, proxies, cookies."""

from __future__ import annotations

import pytest

from tutor import accounts, config
from tutor.app import create_app
from tutor.models import Teacher
from tutor.web import db


def test_defaults_are_safe_for_a_school(tmp_path, monkeypatch):
    for name in config.DEFAULTS:
        monkeypatch.delenv(name, raising=False)
    settings = config.from_environment(str(tmp_path))
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}", "SECRET_KEY": "x", **settings})
    assert app.config["ALLOW_SIGNUP"] is False and app.config["ALLOW_GUESTS"] is True
    assert app.config["SESSION_IDLE_MINUTES"] == 60 and app.config["SESSION_LIFETIME_HOURS"] == 12
    assert app.permanent_session_lifetime.total_seconds() == 12 * 3600
    assert app.config["SESSION_COOKIE_SECURE"] is False and app.config["SESSION_COOKIE_HTTPONLY"] is True
    app.extensions["db_engine"].dispose()


def test_the_environment_sets_every_option(tmp_path, monkeypatch):
    values = {
        "ALLOW_SIGNUP": "yes",
        "ALLOW_GUESTS": "0",
        "SESSION_IDLE_MINUTES": "15",
        "SESSION_LIFETIME_HOURS": "2",
        "GUEST_RETENTION_DAYS": "7",
        "PROXIES": "1",
        "SECURE_COOKIES": "on",
    }
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("AUDIO_DIR", "/srv/kortmatte-audio")
    settings = config.from_environment(str(tmp_path))
    assert settings | {"DATABASE_URL": None, "SECRET_KEY": None} == {
        "AUDIO_DIR": "/srv/kortmatte-audio",
        "ALLOW_SIGNUP": True,
        "ALLOW_GUESTS": False,
        "SESSION_IDLE_MINUTES": 15,
        "SESSION_LIFETIME_HOURS": 2,
        "GUEST_RETENTION_DAYS": 7,
        "PROXIES": 1,
        "SECURE_COOKIES": True,
        "DATABASE_URL": None,
        "SECRET_KEY": None,
    }


@pytest.mark.parametrize(
    "name, value", [("SESSION_IDLE_MINUTES", "0"), ("SESSION_LIFETIME_HOURS", "soon"), ("PROXIES", "-1")]
)
def test_bad_numbers_stop_the_server_with_a_clear_message(tmp_path, monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit, match=name):
        config.from_environment(str(tmp_path))


def test_behind_a_proxy_the_throttle_sees_each_clients_own_address(database_url):
    app = create_app(
        {"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False, "PROXIES": 1}
    )
    client = app.test_client()
    for _ in range(5):  # an account waits after five failures from one address: the forwarded one
        client.post(
            "/teacher/sign-in",
            data={"email": "a@x.example", "password": "wrong"},
            headers={"X-Forwarded-For": "203.0.113.9"},
        )
    assert (
        client.post(
            "/teacher/sign-in",
            data={"email": "a@x.example", "password": "wrong"},
            headers={"X-Forwarded-For": "203.0.113.9"},
        ).status_code
        == 429
    )
    assert (
        client.post(
            "/teacher/sign-in",
            data={"email": "a@x.example", "password": "wrong"},
            headers={"X-Forwarded-For": "198.51.100.4"},
        ).status_code
        == 400
    )
    app.extensions["db_engine"].dispose()


@pytest.mark.parametrize("secure", [False, True])
def test_behind_tls_the_cookies_are_secure_and_host_only(database_url, secure):
    """SECURE_COOKIES: Secure cookies named __Host- (HTTPS only, this host only, path /); without it, plain names for
    HTTP."""
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": database_url,
            "SECRET_KEY": "x",
            "WTF_CSRF_ENABLED": False,
            "SECURE_COOKIES": secure,
            "PROXIES": 1,
        }
    )
    client = app.test_client()
    response = client.post("/guest", data={"name": "Ada"}, headers={"X-Forwarded-Proto": "https"})
    cookies = {header.split("=", 1)[0]: header for header in response.headers.getlist("Set-Cookie")}
    names = {"__Host-session", "__Host-kortmatte_device"} if secure else {"session", "kortmatte_device"}
    assert set(cookies) == names, cookies
    for header in cookies.values():
        assert "HttpOnly" in header and "SameSite=Lax" in header and "Path=/" in header and "Domain" not in header
    assert all("Secure" in header for header in cookies.values()) if secure else "Secure" not in cookies["session"]
    assert (
        client.get("/progress", headers={"X-Forwarded-Proto": "https"}).status_code == 200
    )  # the renamed cookie signs the guest in
    app.extensions["db_engine"].dispose()


@pytest.mark.parametrize("secure", [False, True])
def test_behind_tls_a_teachers_device_cookie_is_secure_and_host_only(database_url, secure):
    config = {"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False}
    app = create_app({**config, "SECURE_COOKIES": secure, "PROXIES": 1})
    with app.app_context():
        database = db.session()
        database.add(Teacher(email="tove@school.example", name="Tove", password_hash=accounts.hash_password("p" * 12)))
        database.commit()
    response = app.test_client().post(
        "/teacher/sign-in",
        data={"email": "tove@school.example", "password": "p" * 12},
        headers={"X-Forwarded-Proto": "https"},
    )
    cookies = {header.split("=", 1)[0]: header for header in response.headers.getlist("Set-Cookie")}
    name = "__Host-kortmatte_teacher_device" if secure else "kortmatte_teacher_device"
    header = cookies[name]
    assert "HttpOnly" in header and "SameSite=Lax" in header and "Path=/" in header and "Domain" not in header
    assert "Secure" in header or not secure  # without SECURE_COOKIES, Secure follows the request's scheme
    app.extensions["db_engine"].dispose()
