"""Fixtures built from the app factory: app, client, and a guest helper that signs in."""

from __future__ import annotations

import re

import pytest

from tutor import db
from tutor.app import create_app

pytest_plugins = ["tests.postgres", "tests.browser_support"]


@pytest.fixture
def database_url(tmp_path):
    return f"sqlite:///{tmp_path / 'test.db'}"


@pytest.fixture
def app(database_url, tmp_path):
    db.upgrade(database_url)
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret", "WTF_CSRF_ENABLED": False})
    yield app
    app.extensions["db_engine"].dispose()


@pytest.fixture
def client(app):
    return app.test_client()


class Guest:
    """Signs a guest in and drives a lesson through the same forms a pupil uses."""

    def __init__(self, client):
        self.client = client

    def sign_in(self, name="Ada", locale="en"):
        self.client.post("/language", data={"locale": locale})
        return self.client.post("/guest", data={"name": name}, follow_redirects=True)

    def start(self, game_id="calculation-war", **form):
        response = self.client.post(f"/lessons/{game_id}/start", data={"players": "2", "strength": "beginner", **form})
        assert response.status_code == 302, response.data[:500]
        return int(re.search(r"/runs/(\d+)", response.headers["Location"]).group(1))


@pytest.fixture
def guest(client):
    return Guest(client)
