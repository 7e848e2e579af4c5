"""Web security: only local redirects, strict browser policies on every response, sessions renewed at sign-in and ended
at sign-out.

CSRF on every POST and the ownership of every id in a URL are proven by walking the URL
map in tests/test_access.py.
"""

from __future__ import annotations

import html
import re

import pytest
from sqlalchemy import func, select

from tests.conftest import PASSWORD
from tests.test_errors import error_routes
from tutor import ROOT
from tutor.models import SignInSession
from tutor.web import db
from tutor.web.auth import safe_next
from tutor.web.security import CONTENT_SECURITY_POLICY, HEADERS, PERMISSIONS_POLICY

# --- redirects only to this site -----------------------------------------------------------------
#: ``next`` values as the server sees them (after the query or form is decoded); each leads away or breaks the header.
HOSTILE_NEXT = [
    "//other.example",
    "//other.example/teacher",
    "///other.example",
    "/\\other.example",
    "\\\\other",
    "\\/other.example",
    "https://other.example/",
    "HTTPS://other.example",
    "http:other",
    "http:/other.example",
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "/\t/other.example",  # /%09/other.example: browsers drop the tab and read //other.example
    "\t//other",
    " //other.example",
    "/\n/other.example",
    "/\r/other.example",
    "/x\r\nSet-Cookie: a=b",
    "/\x00/other.example",
    "/\x7f/other.example",
    "other.example",
    "progress",
    "",
    None,
    "/" + "a" * 5000,
]
GOOD_NEXT = [
    "/",
    "/progress",
    "/progress?x=1",
    "/teacher/classes/Ab-12_x?step=2&nav=next",
    "/runs/Ab-12_x#lesson",
    "/" + "a" * 999,
]


def short_id(target) -> str:
    return repr(target)[:40]


@pytest.mark.parametrize("target", HOSTILE_NEXT, ids=short_id)
def test_safe_next_sends_anything_but_a_local_path_to_the_default(target):
    assert safe_next(target, "/default") == "/default"


@pytest.mark.parametrize("target", GOOD_NEXT, ids=short_id)
def test_safe_next_keeps_a_path_on_this_site(target):
    assert safe_next(target, "/default") == target


def next_in_sign_in_form(page: str) -> str:
    form = re.search(r'<form method="post" action="/teacher/sign-in".*?</form>', page, re.S).group(0)
    return html.unescape(re.search(r'<input type="hidden" name="next" value="([^"]*)">', form).group(1))


#: ``next`` as sent on the wire, percent-encoded: judged as the app reads it, decoded.
ENCODED_NEXT = [
    "/%09/other.example",
    "%2F%2Fother.example",
    "/%5Cother.example",
    "%09%2F%2Fother",
    "/%0D%0ALocation:%20//other.example",
]


def test_the_language_form_and_the_teacher_sign_in_never_lead_away(app, staff, client):
    staff.teacher()
    for target in [t for t in HOSTILE_NEXT if t is not None]:
        assert client.post("/language", data={"locale": "sv", "next": target}).headers["Location"] == "/", repr(target)
        page = client.get("/teacher/sign-in", query_string={"next": target}).get_data(as_text=True)
        assert next_in_sign_in_form(page) == "/teacher", repr(target)
        response = client.post(
            "/teacher/sign-in", data={"email": "tove@school.example", "password": PASSWORD, "next": target}
        )
        assert response.status_code == 302 and response.headers["Location"] == "/teacher", repr(target)
    for raw in ENCODED_NEXT:  # typed into an address bar, /%09/other.example reaches the app as "/<tab>/other.example"
        assert next_in_sign_in_form(client.get(f"/teacher/sign-in?next={raw}").get_data(as_text=True)) == "/teacher", (
            raw
        )
        response = client.post(
            "/language", data=f"locale=sv&next={raw}", content_type="application/x-www-form-urlencoded"
        )
        assert response.headers["Location"] == "/", raw


def test_a_teacher_sent_to_sign_in_comes_back_to_the_page_asked_for(app, staff, client):
    staff.teacher()
    school_class = staff.school_class()
    wanted = f"/teacher/classes/{school_class.public_id}/misconceptions?week=2026-W10"
    sign_in_page = client.get(wanted).headers["Location"]
    assert sign_in_page.startswith("/teacher/sign-in?next=")
    form_next = next_in_sign_in_form(client.get(sign_in_page).get_data(as_text=True))
    assert form_next == wanted
    response = client.post(
        "/teacher/sign-in", data={"email": "tove@school.example", "password": PASSWORD, "next": form_next}
    )
    assert response.headers["Location"] == wanted


# --- browser policies on every kind of response --------------------------------------------------
POLICY_HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def test_no_page_may_use_the_camera_the_microphone_or_the_position():
    features = dict(part.split("=") for part in PERMISSIONS_POLICY.split(", "))
    assert features["camera"] == features["microphone"] == features["geolocation"] == features["payment"] == "()"


def test_the_content_security_policy_allows_only_the_app_itself():
    directives = dict(part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))
    assert directives["default-src"] == directives["script-src"] == directives["style-src"] == "'self'"
    assert directives["object-src"] == directives["frame-ancestors"] == "'none'"
    assert directives["base-uri"] == directives["form-action"] == "'self'"
    for loose in ("unsafe-inline", "unsafe-eval", "*", "http:", "https:"):
        assert loose not in CONTENT_SECURITY_POLICY, loose


def responses_of_every_kind(app, staff, guest, client) -> dict:
    """One response of each kind the app sends: pages, fragments, files, redirects and errors."""
    error_routes(app)
    staff.teacher()
    school_class = staff.school_class()
    teacher = app.test_client()
    staff.sign_in(teacher, "tove@school.example")
    ada = staff.pupil(school_class.code, "Ada")
    got = {
        "home page": client.get("/"),
        "redirect": client.get("/progress"),
        "static file": client.get("/static/app.css"),
    }
    got["static file"].close()
    got["404 page"] = client.get("/no/such/page")
    got["static 404"] = client.get("/static/x1/../app.css")
    got["405 page"] = client.get("/guest")
    got["413 page"] = client.post("/guest", data={"name": "x" * 70_000})
    got["500 page"] = client.get("/fail/500")
    app.config["WTF_CSRF_ENABLED"] = True
    got["CSRF page"] = client.post("/language", data={"locale": "sv"})
    app.config["WTF_CSRF_ENABLED"] = False
    guest.sign_in()
    run_id = guest.start()
    got["htmx fragment"] = client.post(f"/runs/{run_id}/next-step", headers={"HX-Request": "true"})
    got["htmx 409 fragment"] = client.post(
        f"/runs/{run_id}/next-step", data={"step": "-1"}, headers={"HX-Request": "true"}
    )
    got["form redirect"] = client.post(f"/runs/{run_id}/next-step")
    got["teacher page"] = teacher.get(f"/teacher/classes/{school_class.public_id}")
    got["CSV download"] = teacher.get(f"/teacher/classes/{school_class.public_id}/grid.csv")
    got["JSON download"] = teacher.get(f"/teacher/pupils/{ada.public_id}/export.json")
    return got


def test_every_kind_of_response_carries_the_browser_policies(app, staff, guest, client):
    responses = responses_of_every_kind(app, staff, guest, client)
    expected_status = {
        "redirect": 302,
        "form redirect": 302,
        "404 page": 404,
        "static 404": 404,
        "405 page": 405,
        "413 page": 413,
        "500 page": 500,
        "CSRF page": 400,
        "htmx 409 fragment": 409,
    }
    for kind, response in responses.items():
        assert response.status_code == expected_status.get(kind, 200), kind
        for header, value in {**POLICY_HEADERS, "Permissions-Policy": PERMISSIONS_POLICY}.items():
            assert response.headers.getlist(header) == [value], (
                f"{kind}: {header} is {response.headers.getlist(header)}"
            )
    assert responses["htmx fragment"].get_data(as_text=True).lstrip().startswith('<section id="lesson"')
    assert "This page is too old" in responses["CSRF page"].get_data(as_text=True)


def test_the_page_token_is_accepted_in_the_form_and_in_the_htmx_header(app, client):
    """The other side of the CSRF walk in test_access.py: the page's own token works both ways."""
    app.config["WTF_CSRF_ENABLED"] = True
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/").get_data(as_text=True)).group(1)
    assert client.post("/guest", data={"name": "Ada", "csrf_token": token}).status_code == 302
    page = client.get("/").get_data(as_text=True)  # signing in starts a new session, with a new token
    header_token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    assert (
        client.post(
            "/language", data={"locale": "sv"}, headers={"X-CSRFToken": token, "HX-Request": "true"}
        ).status_code
        == 400
    )
    assert (
        client.post(
            "/language", data={"locale": "sv"}, headers={"X-CSRFToken": header_token, "HX-Request": "true"}
        ).status_code
        == 302
    )


# --- sessions: a new one at every sign-in, ended on the server at sign-out -----------------------
#: a page only this kind of person may open (anyone else is sent to a sign-in)
OWN_PAGE = {"teacher": "/teacher", "pupil": "/progress", "guest": "/progress"}


@pytest.fixture
def sign_in(app, staff):
    """Signs a client in as a teacher, a pupil of a class (with pictures) or a guest, through the forms."""
    staff.teacher()
    code = staff.school_class(pupils=("Ada",)).code

    def as_kind(kind, client):
        if kind == "teacher":
            response = staff.sign_in(client)
        elif kind == "pupil":
            response = staff.sign_in_pupil(client, code, "Ada")
        else:
            response = client.post("/guest", data={"name": "Gus"})
        assert response.status_code == 302, kind

    return as_kind


def session_id(app, client) -> str | None:
    """The server-side session token in the client's signed cookie."""
    cookie = client.get_cookie("session")
    return app.session_interface.get_signing_serializer(app).loads(cookie.value).get("sid") if cookie else None


def stored_sessions(app) -> int:
    with app.app_context():
        return db.session().scalar(select(func.count()).select_from(SignInSession))


@pytest.mark.parametrize("kind", OWN_PAGE)
def test_signing_in_starts_a_new_session_so_a_planted_cookie_gets_nothing(app, sign_in, kind):
    """Session fixation: someone leaves their own signed-in cookie on the school computer; the next person signs in over
    it."""
    planter = app.test_client()
    planter.post("/guest", data={"name": "Mallory"})
    planted, planted_id = planter.get_cookie("session").value, session_id(app, planter)
    victim = app.test_client()
    victim.set_cookie("session", planted)
    sign_in(kind, victim)
    assert victim.get_cookie("session").value != planted
    assert session_id(app, victim) not in (None, planted_id)
    assert victim.get(OWN_PAGE[kind]).status_code == 200
    for page in set(OWN_PAGE.values()):
        assert planter.get(page).status_code == 302, f"the planted cookie still opens {page}"
    assert stored_sessions(app) == 1, "the planted session ends when someone signs in over it"


@pytest.mark.parametrize("kind", OWN_PAGE)
def test_signing_out_ends_the_session_on_the_server_so_a_copied_cookie_stops_working(app, sign_in, kind, sign_in_clock):
    client = app.test_client()
    sign_in(kind, client)
    copy = app.test_client()
    copy.set_cookie("session", client.get_cookie("session").value)
    assert copy.get(OWN_PAGE[kind]).status_code == 200
    assert client.post("/sign-out").status_code == 302
    assert session_id(app, client) is None
    assert stored_sessions(app) == 0
    # the copy's cookie vouches for the sign-in until its next check with the database is due
    sign_in_clock.advance(app.config["SESSION_CHECK_SECONDS"])
    assert copy.get(OWN_PAGE[kind]).status_code == 302, "a copy of the cookie still works after signing out"


def test_a_warning_is_logged_when_proxies_is_set_but_no_proxy_sends_the_forwarded_header(database_url, caplog):
    from tutor.app import create_app

    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s", "PROXIES": 1})
    client = app.test_client()
    client.get("/", headers={"X-Forwarded-For": "203.0.113.5"})
    assert "X-Forwarded-For" not in caplog.text
    client.get("/")
    client.get("/")
    assert caplog.text.count("PROXIES is set, but a request came without X-Forwarded-For") == 1
    app.extensions["db_engine"].dispose()


def test_nginx_sends_the_same_policies_on_every_response_and_hides_the_apps_copies():
    conf = (ROOT / "docs" / "nginx" / "kortmatte.conf").read_text(encoding="utf-8")
    for name, value in HEADERS.items():
        assert conf.count(f'    add_header {name} "{value}" always;') == 1, name
        assert conf.count(f"    proxy_hide_header {name};") == 1, name
