"""Guided lessons: one per game, registered here by game id."""

from tutor.lessons.base import Lesson
from tutor.lessons.calculation_war import CalculationWarLesson
from tutor.lessons.casino_war import CasinoWarLesson
from tutor.lessons.fraction_master import FractionMasterLesson
from tutor.lessons.shedding import SHEDDING_LESSONS
from tutor.lessons.standard_war import STANDARD_WAR_LESSONS
from tutor.lessons.war_family import WAR_FAMILY_LESSONS

LESSONS: dict[str, Lesson] = {
    lesson.game_id: lesson
    for lesson in (
        CalculationWarLesson(),
        *(cls() for cls in SHEDDING_LESSONS + WAR_FAMILY_LESSONS + STANDARD_WAR_LESSONS),
        FractionMasterLesson(),
        CasinoWarLesson(),
    )
}

__all__ = ["LESSONS", "Lesson"]
