"""Guided lessons: one per game, registered here by game id."""

from tutor.lessons.base import Lesson
from tutor.lessons.calculation_war import CalculationWarLesson

LESSONS: dict[str, Lesson] = {lesson.game_id: lesson for lesson in (CalculationWarLesson(),)}

__all__ = ["LESSONS", "Lesson"]
