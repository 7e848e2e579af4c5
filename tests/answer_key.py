"""The answer key of a move: the first legal move the lesson accepts.

The answer key of the named checks is :mod:`tutor.answer_key`; ``right_answer`` is
imported here too because the browser tests take it from this module.
"""

from __future__ import annotations

from tutor.answer_key import right_answer  # noqa: F401 - the browser tests import it from here


def accepted_move(lesson, game_state, pupil: int = 0):
    """The first legal move the lesson does not refuse (a refused choice is stored as an answer)."""
    for move in game_state.legal_moves():
        judged = lesson.judge(game_state, pupil, move)
        if judged is None or judged.correct:
            return move
    raise AssertionError("the rules allow no move the lesson accepts")
