"""The answer key for stored drill questions: a right answer, typed as a pupil of a locale would.

Tests use it to answer any game's questions without knowing the game, as a teacher's
answer key would.
"""

from __future__ import annotations

from tutor.answers import describe
from tutor.checks import exact
from tutor.expressions import closest


def right_answer(question: dict, locale: str) -> str:
    """A right answer to a stored question, typed as a pupil of ``locale`` would type it."""
    check = question["check"]
    rule = check["rule"]
    if rule == "choice":
        return check["expected"][0]
    if rule in ("equals", "within_tolerance", "equivalent_simplest"):
        return describe(exact(check["expected"]), locale)
    if rule == "between_inclusive":
        return describe(exact(check["low"]), locale)
    if rule == "between_strict":
        return describe((exact(check["low"]) + exact(check["high"])) / 2, locale)
    if rule == "closest_to_target":
        allow = question.get("allow", "four_ops")
        _, _, expression = closest([int(exact(n)) for n in check["numbers"]], int(exact(check["target"])), allow)
        return expression.replace("*", "x")
    if rule == "is_prime":
        return "2"
    raise AssertionError(f"no answer key for the rule {rule}")


def accepted_move(lesson, game_state, pupil: int = 0):
    """The first legal move the lesson does not refuse (a refused choice is stored as an answer)."""
    for move in game_state.legal_moves():
        judged = lesson.judge(game_state, pupil, move)
        if judged is None or judged.correct:
            return move
    raise AssertionError("the rules allow no move the lesson accepts")
