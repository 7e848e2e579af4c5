"""A drill point that can ask about several things on the table asks the kind pitched nearest the pupil's target."""

from __future__ import annotations

import pytest

from tests.answer_key import accepted_move
from tutor.answer_key import right_answer, wrong_answer
from tutor.drills import Offer, Question, choose_question
from tutor.drills.primes import prime_is_prime
from tutor.drills.tens_friends import tens_friend_number
from tutor.lessons import LESSONS
from tutor.lessons.base import move_token
from tutor.lessons.runner import FINISHED, LessonRun
from tutor.models import SkillRecord
from tutor.skill_model import elo, progress, skills

EASY, HARD = "tens_friend_number", "prime_is_prime"  # two kinds, given made-up difficulties below
#: the easy kind's levels far below the hard kind's
DIFFICULTIES = {
    **{("compare", EASY, level): elo.Rating(value, 200) for level, value in {1: -4.0, 2: -3.5, 3: -3.0}.items()},
    **{("compare", HARD, level): elo.Rating(value, 200) for level, value in {1: 0.5, 2: 1.0, 3: 1.5}.items()},
}


def pitch(ability: float, difficulties=DIFFICULTIES) -> progress.PupilPitch:
    """The pitch of a pupil with ``ability`` in every skill."""
    records = {skill: SkillRecord(skill=skill, ability=ability, ability_count=40) for skill in skills.SKILLS}
    model = progress.PupilModel(1, records, {}, dict(difficulties))
    return progress.PupilPitch(lambda: model)


def offer(kind: str, built: list) -> Offer:
    """An offer in compare of ``kind`` that notes the level it is built at."""

    def build(level: int) -> Question:
        built.append((kind, level))
        return tens_friend_number(4, level) if kind == EASY else prime_is_prime(9, level)

    return Offer("compare", kind, build)


def forecast(ability: float, kind: str, level: int) -> float:
    return elo.expected(ability, DIFFICULTIES["compare", kind, level].value)


@pytest.mark.parametrize("order", [(HARD, EASY), (EASY, HARD)])
def test_a_struggling_pupil_gets_the_easier_kind_and_a_strong_pupil_the_harder_whatever_the_lessons_order(order):
    weak, strong = -1.0, 2.5
    assert forecast(weak, HARD, 1) < 0.2 and forecast(weak, EASY, 3) > 0.85  # low on A, high on B
    built = []
    assert choose_question(pitch(weak), [offer(kind, built) for kind in order]).kind == EASY
    assert built == [(EASY, 3)]  # only the chosen question is built, at the level nearest 0.75
    built.clear()
    assert choose_question(pitch(strong), [offer(kind, built) for kind in order]).kind == HARD
    assert built == [(HARD, 3)] and abs(forecast(strong, HARD, 3) - 0.75) < 0.05


def test_the_kind_and_level_are_the_ones_nearest_the_target_of_all_offered():
    ranked = progress.rank_offers({"compare": -1.0}, DIFFICULTIES, [("compare", HARD), ("compare", EASY)])
    nearest = min(
        ((kind, level) for kind in (HARD, EASY) for level in (1, 2, 3)),
        key=lambda pair: abs(forecast(-1.0, *pair) - elo.TARGET),
    )
    assert [((HARD, EASY)[index], level) for index, level in ranked][0] == nearest


@pytest.mark.parametrize("kind", [EASY, HARD])
def test_with_one_kind_on_the_table_it_is_asked_however_far_its_forecast(kind):
    built = []
    for ability in (-3.0, 4.0):
        assert choose_question(pitch(ability), [offer(kind, built)]).kind == kind


def test_kinds_forecast_alike_keep_the_lessons_order():
    # no difficulty learnt for either kind: both stand at the skill's levels, so the lesson's first is asked
    built = []
    for order in ((HARD, EASY), (EASY, HARD)):
        assert choose_question(pitch(0.0, {}), [offer(kind, built) for kind in order]).kind == order[0]
    # within PITCHED_ALIKE of the target counts as alike too
    near = {("compare", "a", 2): elo.Rating(-1.0, 50), ("compare", "b", 2): elo.Rating(-1.3, 50)}
    chances = [elo.expected(0.0, near["compare", kind, 2].value) for kind in "ab"]
    assert all(abs(chance - elo.TARGET) < progress.PITCHED_ALIKE for chance in chances) and chances[0] != chances[1]
    assert progress.rank_offers({"compare": 0.0}, near, [("compare", "b"), ("compare", "a")])[0][0] == 0


def test_plain_levels_keep_the_lessons_order_at_the_skills_level():
    built = []
    assert choose_question({"compare": 2}, [offer(HARD, built), offer(EASY, built)]).kind == HARD
    assert built == [(HARD, 2)]


def test_a_two_option_kind_just_asked_is_passed_over_for_the_next_nearest():
    built = []
    weak = pitch(-1.0)
    assert choose_question(weak.avoiding(EASY), [offer(HARD, built), offer(EASY, built)]).kind == EASY  # typed
    yes_no = pitch(2.5).avoiding(HARD)  # the last question was a yes/no about primes
    assert choose_question(yes_no, [offer(HARD, built), offer(EASY, built)]).kind == EASY
    assert choose_question(yes_no, [offer(HARD, built)]) is None  # the runner would drop it: nothing to ask


class CheckingPitch(progress.PupilPitch):
    """A pitch that checks every offer builds a question of the kind it names (its difficulty is looked up by it)."""

    def ranked(self, offers):
        for offered in offers:
            question = offered.build(2)
            assert question is None or question.kind == offered.kind, (offered.kind, question.kind)
        return super().ranked(offers)


def spread_difficulties() -> dict:
    """Every kind of the lessons that choose among kinds at its own distance from the priors."""
    kinds = {
        "twentynine_missing_value": -1.0,
        "twentynine_which_card": 0.6,
        "twentynine_bust": -0.4,
        "fraction_from_hand": 1.0,
        "fraction_order": -1.0,
        "factor_pair_cards": 0.8,
        "tens_friend_card": -0.8,
        "mean_exact": 1.2,
        "prime_which_sum": -0.6,
    }
    return {
        (skill, kind, level): elo.Rating(prior + offset, 100)
        for kind, offset in kinds.items()
        for skill in skills.SKILLS
        for level, prior in progress.PRIOR_DIFFICULTY.items()
    }


@pytest.mark.parametrize(
    "game_id",
    [
        "twenty-nine",
        "fraction-master",
        "multimatch",
        "crazy-banana-overslag",
        "crazy-banana-tiervenner",
        "crazy-banana-extreme",
    ],
)
@pytest.mark.parametrize("ability", [-1.5, 1.5])
def test_lessons_choosing_kinds_for_a_pupil_still_never_ask_two_two_option_questions_of_one_kind_in_a_row(
    game_id, ability
):
    lesson = LESSONS[game_id]
    levels = CheckingPitch(pitch(ability, spread_difficulties()).model)
    run = LessonRun.start(lesson, 2, {}, ["beginner"], 1, now_ms=0)
    asked, now = [], 0
    run.skip_intro(lesson, levels, now)
    while run.stage != FINISHED:
        now += 1000
        question = run.drill.question
        if question is not None and run.drill.open:
            if run.drill.tries == 0:
                asked.append((question["kind"], len(question["choices"])))
            wrong = wrong_answer(question, "en")
            run.answer(wrong if run.drill.tries == 0 and wrong else right_answer(question, "en"), "en", now)
        elif question is not None:
            run.close_question(lesson, levels, now)
        else:
            run.move(move_token(accepted_move(lesson, run.game_state())), lesson, levels, now)
    assert asked
    for before, after in zip(asked, asked[1:], strict=False):
        assert not (before == after and before[1] == 2), (game_id, asked)
