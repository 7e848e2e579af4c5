"""Shared pieces of the real-browser tests: a live server, Debian's Chromium, and a checked tab."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask
from waitress.server import create_server

from tests.mail_support import MAIL_SETTINGS, FakeSMTP
from tutor import db, mail
from tutor.app import create_app

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


class LiveServer(str):
    """The server's base URL, which also knows its database (to read what a test must answer)."""

    database_url: str
    app: Flask


@contextmanager
def serving(tmp_path_factory, **config) -> Iterator[LiveServer]:
    """A waitress server in a thread for an app on a fresh database (``config`` adds to the app's settings)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('browser') / 'browser.db'}"
    db.upgrade(url)
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "browser-test", "CASINO_WAR_FOR_GUESTS": True, **config})
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    stopping = threading.Event()

    def serve() -> None:
        """Waitress's loop; closing the server under it may make its last poll fail on a closed socket."""
        try:
            server.run()
        except OSError:
            if not stopping.is_set():
                raise

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    base = LiveServer(f"http://127.0.0.1:{server.effective_port}")
    base.database_url, base.app = url, app
    try:
        yield base
    finally:
        stopping.set()
        server.close()
        thread.join(timeout=5)
        app.extensions["db_engine"].dispose()


@contextmanager
def serving_with_mail(tmp_path_factory, **config) -> Iterator[LiveServer]:
    """:func:`serving` with mail configured: its e-mails go to FakeSMTP, and its links lead back to it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mail.smtplib, "SMTP", FakeSMTP)
        with serving(tmp_path_factory, **MAIL_SETTINGS, **config) as base:
            base.app.config["SITE_URL"] = str(base)
            yield base


def the_mail_to(email: str):
    """The e-mail sent to ``email`` (from a thread, after the page answered)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for message in FakeSMTP.sent:
            if message["To"] == email:
                return message
        time.sleep(0.05)
    raise AssertionError(f"no e-mail to {email}")


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    with serving(tmp_path_factory) as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


class Visit:
    """One pupil's browser tab, with checks that run on every page it sees."""

    def __init__(self, browser, base_url, viewport=(1200, 900), touch=False):
        """A desktop tab, or with ``touch`` a phone's: a touch screen (``pointer: coarse``) that taps."""
        self.base_url = base_url
        self.context = browser.new_context(
            viewport={"width": viewport[0], "height": viewport[1]}, has_touch=touch, is_mobile=touch
        )
        self.context.add_init_script(path=str(AXE))  # injected by the browser, not by the page: the CSP still holds
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on("request", self._request)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.checked_pages = 0

    def _request(self, request):
        if not request.url.startswith(self.base_url) and not request.url.startswith("data:"):
            self.problems.append(f"request to another host: {request.url}")

    def _console(self, message):
        if message.type == "error":
            self.problems.append(f"console error: {message.text}")

    def axe(self, label):
        """Run axe-core on the page as it is now; fail on serious or critical violations."""
        results = self.page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
        bad = [v for v in results["violations"] if v["impact"] in ("serious", "critical")]
        details = [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}" for v in bad]
        assert not bad, f"accessibility violations on {label}: {details}"
        self.checked_pages += 1

    def focused(self) -> str:
        return self.page.evaluate(
            "() => { const e = document.activeElement; return e ? (e.outerHTML || '').slice(0, 200) : ''; }"
        )

    def press(self, key):
        """Press a key that sends an htmx request, and wait until the new fragment has settled."""
        with self.page.expect_response(lambda response: response.request.method == "POST"):
            self.page.keyboard.press(key)
        self.page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
        self.page.wait_for_timeout(50)  # htmx:afterSettle handlers (focus) run just after the classes go

    def click(self, locator):
        """Click something that sends an htmx request, and wait until the new fragment has settled."""
        with self.page.expect_response(lambda response: response.request.method == "POST"):
            locator.click()
        self.page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
        self.page.wait_for_timeout(50)

    def tap(self, locator):
        """Tap something that sends an htmx request (a touch-screen tab), and wait until the fragment has settled."""
        with self.page.expect_response(lambda response: response.request.method == "POST"):
            locator.tap()
        self.page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
        self.page.wait_for_timeout(50)

    def sign_in(self, name, language="English"):
        """As a guest, in the language whose button says ``language``."""
        page = self.page
        page.goto(self.base_url + "/")
        page.get_by_role("button", name=language).click()
        page.wait_for_load_state("networkidle")
        page.locator("input#name").fill(name)
        page.locator("input#name").press("Enter")
        page.wait_for_load_state("networkidle")

    def start(self, game_id, players="2"):
        """Start a lesson from its start page; the page is then at the first intro step."""
        page = self.page
        page.goto(f"{self.base_url}/lessons/{game_id}")
        page.locator(f"input[name=players][value='{players}']").check()
        page.locator("form.panel button.primary").click()
        page.wait_for_load_state("networkidle")

    def close(self):
        self.context.close()
