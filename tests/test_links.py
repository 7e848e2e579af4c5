"""Links built from a pattern per request (tutor.web.links): the same address as url_for, for any value."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import flask
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.web import links
from tutor.web.links import link

ENDPOINTS = [
    ("dashboards.pupil", {"pupil_id": "Ab3-x_9"}),
    ("replay.run", {"run_id": "r1", "at": 12}),
    ("replay.run", {"run_id": "r1", "at": None}),
    (
        "dashboards.misconception",
        {"class_id": "c1", "skill": "compare", "kind": "k", "misconception": "m", "week": "2026-W47"},
    ),
    ("dashboards.pupil", {"pupil_id": "Åse og Ola"}),  # quoted by url_for
    ("dashboards.pupil", {"pupil_id": "a/b?c#d"}),
    ("dashboards.pupil", {"pupil_id": "p", "_anchor": "top"}),
    ("teacher.new_homework", {"class_id": "c1", "game": "war", "target": "pupils", "pupils": ["p1", "p2", "p3"]}),
    ("teacher.new_homework", {"class_id": "c1", "pupils": ["p 1", "ø"]}),
    ("teacher.new_homework", {"class_id": "c1", "pupils": []}),
]


def same_address(first: str, second: str) -> bool:
    """The same path and the same query values (a list's items may come last)."""
    one, two = urlsplit(first), urlsplit(second)
    return (one.path, one.fragment, parse_qs(one.query)) == (two.path, two.fragment, parse_qs(two.query))


@pytest.mark.parametrize(("endpoint", "values"), ENDPOINTS)
def test_a_link_is_the_address_url_for_builds(app, endpoint, values):
    with app.test_request_context("/"):
        first = link(endpoint, **values)
        again = link(endpoint, **values)  # from the pattern now
        assert first == again
        assert same_address(first, flask.url_for(endpoint, **values))


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(
    pupil=st.text(min_size=1, max_size=12),
    run=st.text(alphabet="abcXYZ019-_.~ %/?&=#{}", min_size=1, max_size=10),
    at=st.one_of(st.none(), st.integers(0, 10_000), st.text(max_size=5)),
)
def test_any_values_give_the_address_url_for_builds(app, pupil, run, at):
    with app.test_request_context("/"):
        for _ in range(2):  # built, then from the pattern
            assert link("dashboards.pupil", pupil_id=pupil) == flask.url_for("dashboards.pupil", pupil_id=pupil)
            assert link("replay.run", run_id=run, at=at) == flask.url_for("replay.run", run_id=run, at=at)


def test_url_for_runs_once_per_endpoint_and_request(app, monkeypatch):
    calls = []
    real = links.url_for
    monkeypatch.setattr(links, "url_for", lambda *args, **kwargs: calls.append(args) or real(*args, **kwargs))
    with app.test_request_context("/"):
        addresses = [link("dashboards.pupil", pupil_id=f"p{n}") for n in range(50)]
    assert len(calls) == 1
    assert addresses[7].endswith("/pupils/p7")
    with app.test_request_context("/"):
        link("dashboards.pupil", pupil_id="p1")
    assert len(calls) == 2  # a new request builds its own pattern (the script root may differ)
