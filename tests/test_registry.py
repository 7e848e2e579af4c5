"""One registry of games: every engine has a lesson and every lesson an engine, listed in one order.

The engine (tutor/engine) and the lessons (tutor/lessons) find their games and lessons in their
own modules; these tests pin what that must give: the same games in both, each at a place of
its own, the engine importable without the lessons, and no module that only imports in a
lucky order.
"""

from __future__ import annotations

import pkgutil
import re
import subprocess
import sys

import tutor.engine
import tutor.lessons
from tutor.classroom import lesson_open
from tutor.engine import GAMES
from tutor.lessons import LESSONS


def test_every_game_has_a_lesson_and_every_lesson_a_game_in_the_same_order():
    assert list(LESSONS) == list(GAMES)
    assert all(lesson.game_id == game_id for game_id, lesson in LESSONS.items())


def test_every_lesson_lives_in_the_module_named_like_its_engines():
    """tutor/engine/multiwar.py has its lesson in tutor/lessons/multiwar.py: the names never disagree."""
    differ = {
        game_id: (GAMES[game_id].__module__, type(lesson).__module__)
        for game_id, lesson in LESSONS.items()
        if GAMES[game_id].__module__.rsplit(".", 1)[1] != type(lesson).__module__.rsplit(".", 1)[1]
    }
    assert differ == {}


def test_every_game_sets_a_place_of_its_own():
    assert all("order" in vars(game) for game in GAMES.values()), "a game that inherits its place shares it"
    orders = [game.order for game in GAMES.values()]
    assert orders == sorted(set(orders))


def test_the_home_page_lists_the_games_in_the_registry_order(client, guest):
    guest.sign_in()
    page = client.get("/").get_data(as_text=True)
    listed = list(dict.fromkeys(re.findall(r'href="/lessons/([\w-]+)"', page)))
    assert listed == [game_id for game_id in GAMES if lesson_open(game_id, None, casino_war_for_guests=False)]


def run_python(code: str) -> str:
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


def test_the_engine_imports_without_the_lessons_and_the_lessons_without_the_web_or_the_database():
    loaded = run_python(
        "import sys, tutor.engine; print(sorted(m for m in sys.modules if m.startswith('tutor.lessons')))\n"
        "import tutor.lessons; print(sorted(m for m in sys.modules if m.split('.')[0] in ('flask', 'sqlalchemy')))"
    )
    assert loaded.split("\n")[:2] == ["[]", "[]"]


def test_every_module_of_the_engine_and_the_lessons_imports_first():
    """Imported first in a fresh process, each module pulls in what it needs: no import cycle in any order."""
    names = [
        info.name
        for package in (tutor.engine, tutor.lessons)
        for info in pkgutil.iter_modules(package.__path__, f"{package.__name__}.")
    ]
    failed = run_python(
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    for loaded in [m for m in sys.modules if m == 'tutor' or m.startswith('tutor.')]:\n"
        "        del sys.modules[loaded]\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ImportError as error:\n"
        "        print(name, error)\n"
    )
    assert len(names) > 15 and failed == ""
