"""What the lesson page shows, built from a lesson run: no rules here, only presentation."""

from __future__ import annotations

from dataclasses import dataclass

from tutor.deck import kids2
from tutor.drills import Text
from tutor.lessons import LESSONS
from tutor.lessons.calculation_war import computer_name
from tutor.lessons.runner import FINISHED, INTRO, PUPIL, LessonRun
from tutor.text import N_


@dataclass
class Seat:
    player: int
    name: Text
    is_you: bool
    partner: bool
    hand_count: int
    cards: list  # this round's cards on the table (Card, or None face down)
    waiting: bool


def seat_name(player: int, players: int, pupil_name: str) -> Text:
    if player == PUPIL:
        return Text(N_("You (%(name)s)"), {"name": pupil_name})
    if players == 4 and player == (PUPIL + 2) % 4:
        return Text(N_("Partner: computer %(n)s"), {"n": player})
    return computer_name(player)


def lesson_context(run: LessonRun, pupil_name: str, now_ms: int) -> dict:
    """Everything the lesson template needs, in the order a pupil reads it."""
    lesson = LESSONS[run.game_id]
    state = run.game_state()
    view = state.player_view(PUPIL)
    deck = kids2()
    question = run.current_question()
    marked = run.current_marked()
    legal = {move.cards[0] for move in state.legal_moves()} if state.current_player == PUPIL else set()
    can_play = run.stage == "play" and question is None and bool(legal)
    seats = [
        Seat(
            player=p,
            name=seat_name(p, state.game.players, pupil_name),
            is_you=p == PUPIL,
            partner=state.game.players == 4 and p == (PUPIL + 2) % 4,
            hand_count=view["hand_counts"][p],
            cards=[deck[c] if c is not None else None for c in view["table"][p]],
            waiting=p in view["waiting"],
        )
        for p in range(state.game.players)
    ]
    last = view["last_round"]
    hide_result = bool(question and question.hides_result)
    last_table = []
    if last:
        last_table = [(seat_name(int(p), state.game.players, pupil_name), [deck[c] for c in cards], int(p) in last["winners"]) for p, cards in sorted(last["table"].items(), key=lambda item: int(item[0]))]
    narration: list[Text] = []
    if run.stage == INTRO:
        narration.append(lesson.intro_text(run.intro_step, state, PUPIL))
    elif run.stage == FINISHED:
        narration.extend(finish_story(lesson, state))
    elif question is None and can_play:
        narration.append(lesson.narration("your_war" if view["wars"] else "your_turn"))
    seconds = run.options.get("turn_seconds", 0)
    return {
        "run": run,
        "lesson": lesson,
        "lesson_content": lesson.content(),
        "state": state,
        "view": view,
        "deck": deck,
        "colours": {c.id: c for c in deck.colours},
        "hand": [deck[c] for c in view["hand"]],
        "legal": legal,
        "can_play": can_play,
        "seats": seats,
        "side_counts": view["side_counts"],
        "last_round": last,
        "last_table": last_table,
        "story": [] if hide_result or run.stage == INTRO else lesson.round_story(state, PUPIL),
        "hide_result": hide_result,
        "narration": narration,
        "intro_focus": lesson.intro_steps()[run.intro_step]["focus"] if run.stage == INTRO else "",
        "intro_total": len(lesson.intro_steps()),
        "question": question,
        "marked": marked,
        "hints": question.hints[: run.hints_shown] if question else [],
        "more_hints": bool(question and run.question_open and run.hints_shown < len(question.hints)),
        "hourglass": seconds if can_play else 0,
        "hourglass_left": max(0, seconds - (now_ms - run.turn_started_ms) // 1000) if can_play and seconds else 0,
    }


def finish_story(lesson, state) -> list[Text]:
    winners = state.winners()
    winning_sides = {state.side_of(p) for p in winners}
    story = [lesson.narration(f"ended_{state.ended_by}")]
    if len(winning_sides) > 1:
        story.append(lesson.narration("finished_draw"))
    elif state.side_of(PUPIL) in winning_sides:
        story.append(lesson.narration("finished_team" if len(winners) > 1 else "finished_you"))
    else:
        story.append(lesson.narration("finished_other", name=computer_name(winners[0])))
    return story
