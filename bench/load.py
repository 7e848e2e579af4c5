"""A school over real HTTP: lesson-step throughput against a bare Flask app, an open-loop class load, no lost answers.

Starts ``kortmatte serve`` on a fresh migrated database (SQLite, or a PostgreSQL server of its
own started as tests/postgres.py does) with classes of pupils made through tutor's own
functions, and a bare Flask app (bench/bare_app.py: one small template) under the same server,
worker and thread counts beside it; every pupil signs in with their PIN over HTTP. Then, in one
run:

1. **closed loop**, app and bare app in alternating windows (``--windows`` of
   ``--closed-seconds``), so that other work on the machine weighs on both alike:
   ``--clients`` kept-alive connections click as fast as the server answers, each for its
   share of the pupils in turn (no pupil goes faster than the app's per-pupil rate limits
   allow). Per window: requests per second and the server tree's CPU per request (utime +
   stime from /proc); reported as medians, with ``ratio`` and ``cpu_ratio`` (bare ÷ app CPU
   per request), and each step kind's CPU from inside the server (bench/counted_serve.py);
2. **open loop** (``--seconds``), once per ``--pupils`` count: every pupil clicks once every
   ``--period`` seconds on a fixed schedule; latency counts from the scheduled time, so a slow
   server cannot hide its queue. With ``--kill`` the server is killed with SIGKILL half way and
   started again;
3. the **check**: every answer the server acknowledged (2xx or 302) must be an attempt row of
   that pupil; ``missing`` counts those that are not.

A pupil plays as a child clicks: opens a game's start page, starts the lesson, skips the
introduction, answers each question (a random choice, or a typed number right or wrong),
sometimes asks for a hint, goes on, picks and plays random cards of its hand, and starts
another game when one ends. Requests go through htmx (``HX-Request``) like the browser's: each sends
the parts the page shows (``shown``), and an answer of changed parts is spliced into the page.
Games with typed moves (TripleSmart) are left out: their moves would be guesses.

``statements_per_answer`` and the CPU per step kind come from bench/counted_serve.py, which
runs ``kortmatte serve`` with a SQLAlchemy listener and request signals from outside the app.

    .venv/bin/python bench/load.py [--pupils 300 | --pupils 150,300,1000] [--seconds 60] [--windows 5]
        [--database sqlite|postgres] [--workers N] [--threads N] [--servers 1] [--kill] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import html
import http.client
import json
import math
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import func, select  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from tutor import accounts, classroom, db  # noqa: E402
from tutor.lessons import LESSONS  # noqa: E402
from tutor.models import AttemptRecord, Pupil, SchoolClass, Teacher  # noqa: E402

#: The games the pupils play: every lesson a class may play without a teacher's switch, except typed moves.
GAMES = tuple(
    game_id
    for game_id, lesson in LESSONS.items()
    if not lesson.typed_move and classroom.lesson_open(game_id, None, casino_war_for_guests=False)
)
PUPILS_PER_CLASS = 50
REQUEST_TIMEOUT_S = 60
READY_TIMEOUT_S = 90
#: A kept-alive connection idle longer than this is dropped before the next click, as the server may have closed it.
IDLE_RECONNECT_S = 1.0
CLICKS_PER_LESSON_MAX = 400
#: How long after the open loop's window a pupil still sends the clicks it is behind with.
DRAIN_S = 10
LESSON_ACTION = re.compile(r"/runs/[\w-]+/([\w-]+)$")
FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S)
TAG = re.compile(r"<(input|button)\b([^>]*)>", re.S)
ATTRIBUTE = re.compile(r'([\w:-]+)(?:="([^"]*)")?')
#: Where a part of the lesson begins: an element with its own id, which htmx swaps out of band.
PART_START = re.compile(r'<\w+\b[^>]*\bid="(lesson-[\w-]+)"')
#: What the page shows, part by part; every htmx form of the lesson sends it (hx-include).
SHOWN = re.compile(r'name="shown" value="([^"]*)"')
PIDS_IN_TREE_MAX = 64
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# --- HTTP -----------------------------------------------------------------------------------
class Browser:
    """One kept-alive HTTP/1.1 connection; the cookies come with each request (a pupil's own jar)."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.connection: http.client.HTTPConnection | None = None
        self.last_used = 0.0
        self.requests = 0

    def request(
        self, method: str, path: str, fields: dict | None = None, htmx: bool = False, cookies: dict | None = None
    ) -> tuple[int, dict, str]:
        """Send one request, updating ``cookies``; answers (status, lower-case headers, body). Raises OSError when the
        connection fails."""
        cookies = {} if cookies is None else cookies
        if self.connection is None or time.monotonic() - self.last_used > IDLE_RECONNECT_S:
            self.close()
            self.connection = http.client.HTTPConnection(self.host, self.port, timeout=REQUEST_TIMEOUT_S)
        headers = {"Accept-Encoding": "gzip"}  # as browsers do: the server's compression is part of its work
        if cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        if htmx:
            headers["HX-Request"] = "true"
        body = None
        if fields is not None:
            body = urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.requests += 1
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            raw = response.read()
            if response.getheader("Content-Encoding") == "gzip":
                raw = gzip.decompress(raw)
            text = raw.decode("utf-8", "replace")
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        finally:
            self.last_used = time.monotonic()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                cookies[key.strip()] = rest.split(";", 1)[0]
        if response.will_close:
            self.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, text

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


@dataclass
class Form:
    action: str
    fields: dict = field(default_factory=dict)
    buttons: list = field(default_factory=list)  # (name, value) of the enabled submit buttons
    text_inputs: list = field(default_factory=list)

    @property
    def lesson_action(self) -> str | None:
        found = LESSON_ACTION.search(self.action)
        return found.group(1) if found else None


def forms_in(page: str) -> list[Form]:
    """The forms of a page or fragment, as a browser would submit them."""
    forms = []
    for attributes, inner in FORM.findall(page):
        attrs = dict(ATTRIBUTE.findall(attributes))
        if "hidden" in attrs:
            continue
        form = Form(html.unescape(attrs.get("action", "")))
        for tag, tag_attributes in TAG.findall(inner):
            a = {k: html.unescape(v) for k, v in ATTRIBUTE.findall(tag_attributes)}
            if tag == "button":
                if "disabled" not in a:
                    form.buttons.append((a.get("name"), a.get("value", "")))
            elif a.get("type") == "hidden":
                form.fields[a["name"]] = a.get("value", "")
            elif a.get("name"):
                form.text_inputs.append(a["name"])
        forms.append(form)
    return forms


def lesson_parts(page: str) -> dict[str, str]:
    """The lesson cut where each part begins (what comes before the first part under ""): enough to find its forms."""
    starts = [(found.start(), found.group(1)) for found in PART_START.finditer(page)]
    parts = {"": page[: starts[0][0]] if starts else page}
    for (start, part), (end, _) in zip(starts, starts[1:] + [(len(page), "")], strict=True):
        parts[part] = page[start:end]
    return parts


def with_parts(page: str, body: str) -> str:
    """The page after an answer of changed parts, as htmx swaps them in: each replaces the part with its id."""
    parts = lesson_parts(page)
    parts.update({part: text for part, text in lesson_parts(body).items() if part})
    return "".join(parts.values())


# --- one pupil --------------------------------------------------------------------------------
@dataclass
class Tally:
    """What the pupils saw, shared by all their threads."""

    statuses: dict = field(default_factory=dict)
    clicks: dict = field(default_factory=dict)  # by lesson action, "start-page" and "start"
    errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, status: int | None, click: str | None = None) -> None:
        with self.lock:
            if click:
                self.clicks[click] = self.clicks.get(click, 0) + 1
            self.statuses[status] = self.statuses.get(status, 0) + 1
            if status is None or status >= 500 or (400 <= status < 500 and status != 409):
                self.errors += 1


class PupilClient:
    """Signs in with the class code and PIN, then plays lessons click by click."""

    def __init__(self, public_id: str, code: str, pin: str, browser: Browser, rng: random.Random, tally: Tally):
        self.public_id, self.code, self.pin = public_id, code, pin
        self.browser, self.rng, self.tally = browser, rng, tally  # the browser's connection may be lent to another
        self.cookies: dict[str, str] = {}
        self.page = ""  # the lesson as last shown (a page or an htmx fragment)
        self.start_form: Form | None = None
        self.clicks_in_lesson = 0
        self.acknowledged = 0  # answers the server said it took

    def send(self, method: str, path: str, fields: dict | None = None, htmx: bool = False, click: str | None = None):
        try:
            status, headers, body = self.browser.request(method, path, fields, htmx, self.cookies)
        except (OSError, http.client.HTTPException):
            self.tally.note(None, click)
            return None, {}, ""
        self.tally.note(status, click)
        return status, headers, body

    def sign_in(self) -> bool:
        path = f"/class/{self.code}/{self.public_id}"
        status, _, page = self.send("GET", path)
        form = next((f for f in forms_in(page) if "pin" in f.text_inputs), None) if status == 200 else None
        return form is not None and self.send("POST", path, {**form.fields, "pin": self.pin})[0] == 302

    def click(self) -> None:
        """One click, as a child makes it on what the page shows."""
        forms = [f for f in forms_in(self.page) if f.lesson_action and f.lesson_action != "hourglass"]
        if not forms or self.clicks_in_lesson >= CLICKS_PER_LESSON_MAX:
            self.start_lesson()
            return
        self.clicks_in_lesson += 1
        form, fields = self.choose(forms)
        shown = SHOWN.search(self.page)
        fields = {**fields, "shown": shown[1]} if shown else fields
        status, headers, body = self.send("POST", form.action, fields, htmx=True, click=form.lesson_action)
        if status in (200, 409):
            self.page = with_parts(self.page, body) if headers.get("hx-reswap") == "none" else body
        elif status is not None and status >= 400:
            self.page = ""  # start afresh
        if form.lesson_action == "answer" and status is not None and (200 <= status < 300 or status == 302):
            self.acknowledged += 1

    def choose(self, forms: list[Form]) -> tuple[Form, dict]:
        by_action = {f.lesson_action: f for f in forms}
        rng = self.rng
        for action in ("skip-intro",):
            if action in by_action:
                return by_action[action], by_action[action].fields
        answer = by_action.get("answer")
        if answer is not None:
            roll = rng.random()
            if "hint" in by_action and roll < 0.1:
                return by_action["hint"], by_action["hint"].fields
            if "go-on" in by_action and roll > 0.9:  # skip the question
                return by_action["go-on"], by_action["go-on"].fields
            if "answer" in answer.text_inputs:
                return answer, {**answer.fields, "answer": str(rng.randint(0, 40))}
            return self.pressed(answer)
        if "go-on" in by_action:
            return by_action["go-on"], by_action["go-on"].fields
        played = by_action.get("play-picked")
        if played is not None and played.buttons and rng.random() < 0.6:
            return played, played.fields
        choices = [f for f in forms if f.lesson_action in ("move", "pick") and f.buttons]
        if choices:
            return self.pressed(rng.choice(choices))
        return forms[0], forms[0].fields  # next-step, show-playable, or whatever is left

    def pressed(self, form: Form) -> tuple[Form, dict]:
        name, value = self.rng.choice(form.buttons)
        return form, {**form.fields, **({name: value} if name else {})}

    def start_lesson(self) -> None:
        """Two clicks: open a game's start page, then start (the redirect is followed as a browser does)."""
        self.clicks_in_lesson = 0
        if self.start_form is None:
            status, _, page = self.send("GET", f"/lessons/{self.rng.choice(GAMES)}", click="start-page")
            self.start_form = (
                next((f for f in forms_in(page) if f.action.endswith("/start")), None) if status == 200 else None
            )
            return
        form, self.start_form = self.start_form, None
        status, headers, _ = self.send(
            "POST", form.action, {**form.fields, "players": "2", "strength": "beginner"}, click="start"
        )
        self.page = ""
        if status == 302:
            status, _, page = self.send("GET", headers["location"])
            self.page = page if status == 200 else ""


# --- servers ----------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(port: int, path: str = "/") -> bool:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        connection.request("GET", path)
        ok = connection.getresponse().status == 200
        connection.close()
        return ok
    except (OSError, http.client.HTTPException):
        return False


class Server:
    """A server process group on one port: started, waited for, measured and stopped."""

    def __init__(self, command: list[str], env: dict, port: int, log: Path):
        self.command, self.env, self.port, self.log = command, env, port, log
        self.process: subprocess.Popen | None = None

    def start(self) -> float:
        """Launch and wait for HTTP 200 on /; the seconds it took."""
        started = time.monotonic()
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                self.command, env=self.env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        while not answers(self.port):
            if self.process.poll() is not None:
                raise SystemExit(
                    f"server exited with {self.process.returncode}; see {self.log}:\n{self.log.read_text()[-3000:]}"
                )
            if time.monotonic() - started > READY_TIMEOUT_S:
                raise SystemExit(f"server not answering within {READY_TIMEOUT_S} s; see {self.log}")
            time.sleep(0.05)
        return time.monotonic() - started

    def kill(self) -> None:
        """SIGKILL to the server and all its workers at once, as a power cut or the OOM killer would."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()

    def pids(self) -> list[int]:
        """The server process and its descendants (gunicorn's workers)."""
        found, queue = [], [self.process.pid]
        while queue and len(found) < PIDS_IN_TREE_MAX:
            pid = queue.pop()
            found.append(pid)
            for task in Path(f"/proc/{pid}/task").glob("*"):
                with contextlib.suppress(OSError):
                    queue.extend(int(child) for child in (task / "children").read_text().split())
        return found

    def cpu_seconds(self) -> float:
        """User plus system CPU time of the whole tree, including workers that have exited."""
        total = 0
        for pid in self.pids():
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
        return total / CLOCK_TICKS


def serve_command(script: str, port: int, args) -> list[str]:
    command = [sys.executable, str(ROOT / "bench" / script)]
    command += ["serve"] if script == "counted_serve.py" else []
    command += ["--host", "127.0.0.1", "--port", str(port)]
    for option in ("workers", "threads"):
        if getattr(args, option) is not None:
            command += [f"--{option}", str(getattr(args, option))]
    return command


@contextlib.contextmanager
def database(kind: str, workdir: Path):
    """A fresh empty database URL: a SQLite file, or a database on a PostgreSQL server of our own."""
    if kind == "sqlite":
        yield f"sqlite:///{workdir / 'load.db'}"
        return
    import psycopg

    from tests.postgres import started_server

    with started_server() as server_url:
        name = "kortmatte_load"
        admin = server_url.replace("postgresql+psycopg://", "postgresql://") + "/postgres"
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        yield f"{server_url}/{name}"


def make_pupils(url: str, count: int) -> list[tuple[str, str, str]]:
    """Classes of pupils who sign in with a PIN, made through tutor's functions; (public id, class code, PIN) each."""
    engine = db.make_engine(url)
    with Session(engine) as session:
        teacher = Teacher(
            email="load@school.example",
            name="Load",
            password_hash=accounts.hash_password("a long enough password"),
            locale="en",
        )
        session.add(teacher)
        session.flush()
        for number in range(math.ceil(count / PUPILS_PER_CLASS)):
            school_class = classroom.create_class(session, teacher, f"Load {number}", "en", "Europe/Oslo", "pin")
            names = [f"Pupil {number}-{n}" for n in range(min(PUPILS_PER_CLASS, count - number * PUPILS_PER_CLASS))]
            classroom.add_pupils(session, school_class, "\n".join(names))
        session.commit()
        rows = session.execute(
            select(Pupil.public_id, SchoolClass.code, Pupil.secret)
            .join(SchoolClass, Pupil.class_id == SchoolClass.id)
            .order_by(Pupil.id)
        ).all()
    engine.dispose()
    return [tuple(row) for row in rows]


def attempts_by_pupil(url: str) -> dict[str, int]:
    engine = db.make_engine(url)
    with Session(engine) as session:
        rows = session.execute(
            select(Pupil.public_id, func.count(AttemptRecord.id))
            .outerjoin(AttemptRecord, AttemptRecord.pupil_id == Pupil.id)
            .group_by(Pupil.public_id)
        ).all()
    engine.dispose()
    return dict(rows)


# --- the loads --------------------------------------------------------------------------------
def run_threads(targets: list, stack_kib: int = 512) -> None:
    threading.stack_size(stack_kib * 1024)
    threads = [threading.Thread(target=target, daemon=True) for target in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def closed_loop(pupils: list[PupilClient], clients: int, port: int, seconds: float) -> tuple[float, int]:
    """``clients`` kept-alive connections click as fast as the server answers, each for its share of the pupils in turn.

    Spreading the clicks over many pupils keeps each one at a child's pace, under the app's
    per-pupil rate limits. Answers (requests per second, requests).
    """
    browsers = [Browser("127.0.0.1", port) for _ in range(clients)]
    started = time.monotonic()
    deadline = started + seconds

    def play(browser: Browser, share: list[PupilClient]) -> None:
        while time.monotonic() < deadline:
            for pupil in share:
                own, pupil.browser = pupil.browser, browser
                try:
                    pupil.click()
                finally:
                    pupil.browser = own
                if time.monotonic() >= deadline:
                    break

    run_threads([lambda b=b, i=i: play(b, pupils[i::clients]) for i, b in enumerate(browsers)])
    requests = sum(b.requests for b in browsers)
    for browser in browsers:
        browser.close()
    return requests / (time.monotonic() - started), requests


def bare_closed_loop(port: int, clients: int, seconds: float, tally: Tally) -> tuple[float, int]:
    """``clients`` browsers fetch the bare app's page as fast as it answers; (requests per second, requests)."""
    done = [0] * clients
    deadline = time.monotonic() + seconds
    started = time.monotonic()

    def fetch(index: int) -> None:
        browser = Browser("127.0.0.1", port)
        while time.monotonic() < deadline:
            try:
                status = browser.request("GET", "/")[0]
            except (OSError, http.client.HTTPException):
                status = None
            tally.note(status)
            done[index] += 1

    run_threads([lambda i=i: fetch(i) for i in range(clients)])
    return sum(done) / (time.monotonic() - started), sum(done)


def open_loop(
    clients: list[PupilClient], seconds: float, period: float, hold_connections: bool, on_half_time=None
) -> tuple[list[float], int, int]:
    """Each pupil clicks every ``period`` seconds from a random phase.

    Answers the latencies from the scheduled times (s), the clicks answered within the
    window (the served rate) and the clicks never sent. A click scheduled in the window is
    waited for even when it ends after it; one still not sent ``DRAIN_S`` after the window
    (the pupil is that far behind) is not sent, and counts with the time it had waited so
    far, a lower bound of its latency.

    Unless ``hold_connections``, a pupil's connection is closed after each click, so the
    server sees one connection per active click rather than one per pupil.
    """
    latencies: list[float] = []
    served, unsent = [0], [0]
    lock = threading.Lock()
    started = time.monotonic()
    end = started + seconds

    def school(client: PupilClient) -> None:
        scheduled = started + client.rng.uniform(0, period)
        while scheduled < end:
            pause = scheduled - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            elif time.monotonic() > end + DRAIN_S:
                with lock:
                    while scheduled < end:
                        latencies.append(time.monotonic() - scheduled)
                        unsent[0] += 1
                        scheduled += period
                return
            client.click()
            if not hold_connections:
                client.browser.close()
            done = time.monotonic()
            with lock:
                latencies.append(done - scheduled)
                served[0] += done <= end
            scheduled += period

    targets = [lambda c=c: school(c) for c in clients]
    if on_half_time is not None:
        targets.append(lambda: (time.sleep(seconds / 2), on_half_time()))
    run_threads(targets)
    return latencies, served[0], unsent[0]


def percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def server_counts(directory: Path) -> tuple[int, int, dict[str, list[float]]]:
    """The app servers' own totals (bench/counted_serve.py): statements, answers, and per endpoint [CPU s, requests]."""
    statements = answered = 0
    cpu: dict[str, list[float]] = {}
    for path in directory.iterdir():
        with contextlib.suppress(ValueError):  # a file being written this instant is read at the next call
            record = json.loads(path.read_text())
            statements, answered = statements + record["statements"], answered + record["answers"]
            for endpoint, (seconds, requests) in record["cpu"].items():
                total = cpu.setdefault(endpoint, [0.0, 0])
                total[0], total[1] = total[0] + seconds, total[1] + requests
    return statements, answered, cpu


def cpu_by_endpoint(before: dict, after: dict) -> dict[str, float]:
    """Thread CPU per request (ms) of each endpoint between two reads of the servers' totals."""
    result = {}
    for endpoint, (seconds, requests) in sorted(after.items()):
        seconds -= before.get(endpoint, [0.0, 0])[0]
        requests -= before.get(endpoint, [0.0, 0])[1]
        if requests > 0:
            result[endpoint] = round(1000 * seconds / requests, 2)
    return result


@dataclass
class Window:
    """One closed-loop window on one server: requests per second and server CPU (ms) per request."""

    rps: float
    cpu_ms: float


def measured_window(server: Server, run) -> Window:
    """Run ``run`` (a closed loop answering (rps, requests)) and read the server tree's CPU time around it."""
    cpu_before = server.cpu_seconds()
    rps, requests = run()
    return Window(rps, 1000 * (server.cpu_seconds() - cpu_before) / max(1, requests))


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def sign_in_all(clients: list[PupilClient], hold_connections: bool, parallel: int = 16) -> None:
    """Every pupil signs in and starts a lesson, 16 at a time."""
    failed = []
    chunks = [clients[i::parallel] for i in range(parallel)]

    def sign_in(chunk: list[PupilClient]) -> None:
        for client in chunk:
            if not client.sign_in():
                failed.append(client)
            for _ in range(3):  # open a start page, start, skip the introduction: every pupil is in a lesson
                client.click()
            if not hold_connections:
                client.browser.close()

    run_threads([lambda chunk=chunk: sign_in(chunk) for chunk in chunks])
    if failed:
        raise SystemExit(f"{len(failed)} of {len(clients)} pupils could not sign in")


def pupil_counts(text: str) -> list[int]:
    counts = [int(part) for part in text.split(",")]
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError("pupil counts are positive whole numbers, such as 300 or 150,300,1000")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--pupils",
        type=pupil_counts,
        default=[300],
        help="pupils in the open-loop school load, or several counts one after another: 150,300,1000 (default 300)",
    )
    parser.add_argument("--seconds", type=float, default=60, help="length of each open-loop school load (default 60)")
    parser.add_argument("--period", type=float, default=3.0, help="seconds between one pupil's clicks (default 3)")
    parser.add_argument(
        "--closed-seconds", type=float, default=8, help="length of each closed-loop throughput window (default 8)"
    )
    parser.add_argument(
        "--windows", type=int, default=5, help="closed-loop windows per server, app and bare alternating (default 5)"
    )
    parser.add_argument(
        "--clients", type=int, default=16, help="kept-alive connections of the closed-loop runs (default 16)"
    )
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--workers", type=int, help="kortmatte serve --workers (default: its own)")
    parser.add_argument("--threads", type=int, help="kortmatte serve --threads (default: its own)")
    parser.add_argument(
        "--servers", type=int, default=1, help="app servers on one database, each pupil on one of them (default 1)"
    )
    parser.add_argument(
        "--kill", action="store_true", help="kill -9 the app server half way through each open loop and start it again"
    )
    parser.add_argument(
        "--hold-connections",
        action="store_true",
        help="every pupil keeps its connection open between clicks, as a browser does (default: closed after each "
        "click)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the servers on the way out
    log = (
        (lambda line: print(line, file=sys.stderr, flush=True)) if args.json else (lambda line: print(line, flush=True))
    )

    workdir = Path(tempfile.mkdtemp(prefix="kortmatte-load-"))
    counts = workdir / "counts"
    counts.mkdir()
    tally, rng = Tally(), random.Random(args.seed)
    with database(args.database, workdir) as url, contextlib.ExitStack() as running:
        db.upgrade(url)
        pupils = make_pupils(url, max(args.pupils))
        env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "bench-load", "KORTMATTE_BENCH_COUNTS": str(counts)}
        servers = []
        for number in range(args.servers):
            port = free_port()
            servers.append(
                Server(serve_command("counted_serve.py", port, args), env, port, workdir / f"app-{number}.log")
            )
            running.callback(servers[-1].stop)
        bare_port = free_port()
        bare = Server(serve_command("bare_app.py", bare_port, args), os.environ.copy(), bare_port, workdir / "bare.log")
        running.callback(bare.stop)
        first_200 = [server.start() for server in servers]
        bare.start()
        processes = len(servers[0].pids())  # the server and its workers
        log(f"app servers answering after {', '.join(f'{s:.1f}' for s in first_200)} s; logs in {workdir}")
        clients = [
            PupilClient(
                p, code, pin, Browser("127.0.0.1", servers[i % len(servers)].port), random.Random(rng.random()), tally
            )
            for i, (p, code, pin) in enumerate(pupils)
        ]
        sign_in_all(clients, args.hold_connections)
        log(f"{len(clients)} pupils signed in, each in a lesson")

        # Throughput: the app and the bare app in alternating windows, so that other work on the machine weighs on
        # both alike; each window's CPU comes from the servers' own process times.
        bare_tally = Tally()
        closed_loop(clients, args.clients, servers[0].port, 2)  # warm up: every worker has served a few steps
        bare_closed_loop(bare_port, args.clients, 2, bare_tally)
        app_windows, bare_windows = [], []
        endpoints_before = server_counts(counts)[2]
        for number in range(args.windows):
            app_windows.append(
                measured_window(
                    servers[0], lambda: closed_loop(clients, args.clients, servers[0].port, args.closed_seconds)
                )
            )
            bare_windows.append(
                measured_window(
                    bare, lambda: bare_closed_loop(bare_port, args.clients, args.closed_seconds, bare_tally)
                )
            )
            log(
                f"window {number + 1}: app {app_windows[-1].rps:.1f} requests/s, {app_windows[-1].cpu_ms:.2f} ms CPU "
                f"each; bare {bare_windows[-1].rps:.1f} requests/s, {bare_windows[-1].cpu_ms:.3f} ms CPU each"
            )
        time.sleep(0.2)  # the servers' last totals reach their files
        cpu_per_endpoint = cpu_by_endpoint(endpoints_before, server_counts(counts)[2])
        bare.stop()

        rows = []
        for pupils_now in args.pupils:
            errors_before = tally.errors
            killed = {}

            def kill_and_restart(killed=killed) -> None:
                killed["at"] = time.monotonic()
                servers[0].kill()
                servers[0].start()
                killed["down_s"] = time.monotonic() - killed["at"]

            latencies, served, unsent = open_loop(
                clients[:pupils_now],
                args.seconds,
                args.period,
                args.hold_connections,
                kill_and_restart if args.kill else None,
            )
            rows.append(
                {
                    "pupils": pupils_now,
                    "offered_clicks_per_s": round(pupils_now / args.period, 1),
                    "served_clicks_per_s": round(served / args.seconds, 1),
                    "p50_ms": round(1000 * percentile(latencies, 0.50), 1) if latencies else None,
                    "p95_ms": round(1000 * percentile(latencies, 0.95), 1) if latencies else None,
                    "p99_ms": round(1000 * percentile(latencies, 0.99), 1) if latencies else None,
                    "errors": tally.errors - errors_before,
                    "unsent_clicks": unsent,
                    "killed_down_s": round(killed["down_s"], 2) if "down_s" in killed else None,
                }
            )
            log(f"open loop, {pupils_now} pupils: {rows[-1]}")
        for server in servers:
            server.stop()
        for client in clients:
            client.browser.close()
        statements, answered, _ = server_counts(counts)
        acknowledged = {c.public_id: c.acknowledged for c in clients}
        stored = attempts_by_pupil(url)
        missing = sum(max(0, count - stored.get(public_id, 0)) for public_id, count in acknowledged.items())

    shutil.rmtree(workdir, ignore_errors=True)  # kept only when the run failed, for its logs
    app_rps, bare_rps = median([w.rps for w in app_windows]), median([w.rps for w in bare_windows])
    result = {
        "app_rps": round(app_rps, 1),
        "bare_rps": round(bare_rps, 1),
        "ratio": round(median([a.rps / b.rps for a, b in zip(app_windows, bare_windows) if b.rps]), 4),
        "cpu_ratio": round(median([b.cpu_ms / a.cpu_ms for a, b in zip(app_windows, bare_windows) if a.cpu_ms]), 4),
        "cpu_ms_per_step": round(median([w.cpu_ms for w in app_windows]), 2),
        "bare_cpu_ms_per_request": round(median([w.cpu_ms for w in bare_windows]), 3),
        "cpu_ms_by_endpoint": cpu_per_endpoint,
        "windows": [
            {
                "app_rps": round(a.rps, 1),
                "app_cpu_ms": round(a.cpu_ms, 2),
                "bare_rps": round(b.rps, 1),
                "bare_cpu_ms": round(b.cpu_ms, 3),
            }
            for a, b in zip(app_windows, bare_windows)
        ],
        **{key: rows[-1][key] for key in ("p50_ms", "p95_ms", "p99_ms", "errors", "pupils")},
        "acknowledged": sum(acknowledged.values()),
        "missing": missing,
        "statements_per_answer": round(statements / answered, 2) if answered else None,
        "by_pupils": rows,
        "database": args.database,
        "workers": args.workers,
        "threads": args.threads,
        "servers": args.servers,
        "processes_per_server": processes,
        "hold_connections": args.hold_connections,
        "first_200_s": round(first_200[0], 2),
        "clicks": dict(sorted(tally.clicks.items())),
        "statuses": {str(k): v for k, v in sorted(tally.statuses.items(), key=lambda item: str(item[0]))},
        "bare_errors": bare_tally.errors,
        "load_average": os.getloadavg()[0],
    }
    if args.json:
        print(json.dumps(result))
        return
    for key, value in result.items():
        if key not in ("by_pupils", "windows"):
            print(f"{key}: {value}")
    print()
    print_table(rows)


def print_table(rows: list[dict]) -> None:
    """The open-loop runs as one table: offered and served clicks, latencies, errors."""
    columns = ("pupils", "offered_clicks_per_s", "served_clicks_per_s", "p50_ms", "p95_ms", "p99_ms", "errors")
    print(" | ".join(columns))
    for row in rows:
        print(" | ".join(str(row[column]) for column in columns))


if __name__ == "__main__":
    main()
