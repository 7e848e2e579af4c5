"""What a game's lesson provides: intro steps on the real deal, and its drill points."""

from __future__ import annotations

import random
from typing import ClassVar

from tutor import content
from tutor.drills import Question, Text


class Lesson:
    """A game's lesson: its content file, lesson defaults and drill points."""

    game_id: ClassVar[str]
    #: Game options a lesson uses unless the pupil or teacher chooses others (a lesson must end).
    lesson_options: ClassVar[dict] = {}

    def content(self) -> dict:
        return content.load(f"games/{self.game_id}")

    def intro_steps(self) -> list[dict]:
        return self.content()["intro"]

    def intro_text(self, step: int, game_state, pupil: int) -> Text:
        entry = self.intro_steps()[step]
        return Text(entry["text"], self.intro_params(game_state, pupil))

    def narration(self, key: str, **params) -> Text:
        return Text(self.content()["narration"][key], params)

    def intro_params(self, game_state, pupil: int) -> dict:
        return {}

    def before_move(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        """Questions to ask when the pupil is about to move."""
        return []

    def after_round(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        """Questions to ask about the round that has just been decided."""
        return []
