"""The kortmatte command and configuration from the environment."""

from __future__ import annotations

import json
import os
import stat

import pytest

from tutor import config
from tutor.cli import main
from tutor.engine import GAMES


def run_cli(capsys, *args):
    code = main(list(args))
    return code, capsys.readouterr()


def test_simulate_reports_a_finished_game_with_every_card_accounted_for(capsys):
    code, out = run_cli(capsys, "simulate", "calculation-war", "--players", "2", "--seed", "1", "--json")
    report = json.loads(out.out)
    assert code == 0 and report["finished"] and report["cards_accounted_for"]
    assert report["winners"] and report["rounds"] > 0 and report["moves"] > report["rounds"]
    assert sum(report["card_counts"].values()) == 72


def test_simulate_takes_bots_and_options(capsys):
    code, out = run_cli(capsys, "simulate", "calculation-war", "--players", "4", "--seed", "9", "--bots", "beginner,strong", "--option", "round_limit=5", "--json")
    report = json.loads(out.out)
    assert code == 0 and report["rounds"] == 5 and report["ended_by"] == "round_limit"
    assert report["bots"] == ["beginner", "strong"] and set(report["card_counts"]) == {"0+2", "1+3"}


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "no-such-game"),
        ("simulate", "calculation-war", "--players", "7"),
        ("simulate", "calculation-war", "--option", "round_limit=many"),
        ("simulate", "calculation-war", "--option", "no_such_option=1"),
        ("simulate", "calculation-war", "--bots", "genius"),
    ],
)
def test_bad_simulations_are_refused_clearly(capsys, args):
    code, out = run_cli(capsys, *args)
    assert code == 2 and out.err.strip()


def test_games_lists_every_registered_game_with_options(capsys):
    code, out = run_cli(capsys, "games", "--json")
    games = json.loads(out.out)
    assert code == 0 and [g["id"] for g in games] == sorted(GAMES)
    war = next(g for g in games if g["id"] == "calculation-war")
    assert {o["key"] for o in war["options"]} == {"turn_seconds", "round_limit", "time_limit_minutes"}


def test_a_generated_secret_is_kept_private_and_reused(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = config.from_environment(str(tmp_path))["SECRET_KEY"]
    assert config.from_environment(str(tmp_path))["SECRET_KEY"] == first and len(first) >= 64
    assert stat.S_IMODE(os.stat(tmp_path / "secret_key").st_mode) == 0o600


def test_environment_configuration_wins(tmp_path, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "from-env")
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://u@h/db")
    settings = config.from_environment(str(tmp_path))
    assert settings == {"SECRET_KEY": "from-env", "DATABASE_URL": "postgresql+psycopg://u@h/db"}
    assert not (tmp_path / "secret_key").exists()


def test_demo_data_is_added_once(tmp_path):
    from tutor import db
    from tutor.demo import create_demo_data

    url = f"sqlite:///{tmp_path / 'demo.db'}"
    db.upgrade(url)
    assert create_demo_data(url).startswith("demo pupils added")
    assert create_demo_data(url) == "demo data already present"
