"""A drill point that can ask about several things on the table asks the kind pitched nearest the pupil's target."""

from __future__ import annotations

import pytest

from tests.answer_key import accepted_move
from tutor.answer_key import right_answer, wrong_answer
from tutor.drills import Offer, Question, choose_question
from tutor.drills.primes import prime_is_prime
from tutor.drills.tens_friends import tens_friend_number
from tutor.engine import GAMES
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
        "rank_difference": 0.9,
        "cards_ahead": -0.9,
        "exact_card_sum": 0.7,
        "best_card": -0.7,
        "compare_numbers": -1.0,
        "casino_house_edge": -0.8,
        "gnav_chance_higher": 0.8,
        "triplesmart_better": -1.2,
        "triplesmart_extreme_better": -1.2,
        "rank_size": 1.0,
        "shared_traits": -0.5,
        "least_waste_card": 0.6,
    }
    return {
        (skill, kind, level): elo.Rating(prior + offset, 100)
        for kind, offset in kinds.items()
        for skill in skills.SKILLS
        for level, prior in progress.PRIOR_DIFFICULTY.items()
    }


@pytest.mark.parametrize("game_id", sorted(LESSONS))
@pytest.mark.parametrize("ability", [-1.5, 1.5])
def test_lessons_choosing_kinds_for_a_pupil_still_never_ask_two_two_option_questions_of_one_kind_in_a_row(
    game_id, ability
):
    lesson = LESSONS[game_id]
    levels = CheckingPitch(pitch(ability, spread_difficulties()).model)
    run = LessonRun.start(lesson, fewest_players(game_id), {}, ["beginner"], 1, now_ms=0)
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


def fewest_players(game_id: str) -> int:
    """The fewest players the lesson offers, two at least (Gnav: 3)."""
    return max(2, LESSONS[game_id].player_choices(GAMES[game_id])[0])


WAR_KINDS = ["rank_difference", "compare_ranks", "cards_on_table", "winner_takes", "special_rank_rule", "war_cards"]
#: The lessons that gained a choice of kinds: the kind made easy, and the other kinds they ask, made hard.
EASY_AND_HARD = {
    "war": ("cards_ahead", WAR_KINDS),
    "joker-war": ("cards_ahead", WAR_KINDS),
    "two-deck-war": ("cards_ahead", WAR_KINDS),
    "pyanitsa": ("cards_ahead", WAR_KINDS),
    "razboiul": ("cards_ahead", [*WAR_KINDS, "razboiul_war_cards"]),
    "tod-und-leben": ("cards_ahead", WAR_KINDS),
    "steal-war": ("cards_ahead", WAR_KINDS),
    "strategy-war": (
        "rank_difference",
        ["compare_ranks", "cards_on_table", "winner_takes", "cards_ahead", "special_rank_rule"]
        + ["least_waste_card", "war_cards", "unseen_beat_count"],
    ),
    "casino-war": (
        "casino_house_edge",
        ["probability_tie", "casino_expected_loss", "probability_tie_bet", "rank_difference", "compare_ranks"],
    ),
    "calculation-war": ("best_card", ["estimate_card_sum", "exact_card_sum", "winning_card"]),
    "multiwar": ("compare_numbers", ["multiply_top_numbers"]),
    "gnav": ("gnav_chance_higher", ["gnav_unseen_higher", "compare_gnav"]),
    "triplesmart": ("triplesmart_distance", ["triplesmart_better"]),
    "triplesmart-extreme": ("triplesmart_extreme_distance", ["triplesmart_extreme_better"]),
    "three-traits": ("rank_size", ["rank_parity", "shared_traits", "playable_card"]),
}


class OfferNotingPitch(progress.PupilPitch):
    """A pitch that notes, at every drill point offering the easy kind among others, the kind ranked first."""

    def __init__(self, model, easy: str) -> None:
        super().__init__(model)
        self.easy, self.first_with_easy = easy, []  # shared by the copies the runner makes

    def ranked(self, offers):
        ranking = super().ranked(offers)
        kinds = {offered.kind for offered in offers}
        if self.easy in kinds and len(kinds) > 1:
            self.first_with_easy.append(ranking[0][0].kind)
        return ranking


def asked_kinds(game_id: str, levels) -> list[str]:
    """The kinds a seeded lesson asks a pupil who answers right, played with ``levels``."""
    lesson = LESSONS[game_id]
    run = LessonRun.start(lesson, fewest_players(game_id), {}, ["beginner"], 2, now_ms=0)
    asked, now = [], 0
    run.skip_intro(lesson, levels, now)
    while run.stage != FINISHED:
        now += 1000
        question = run.drill.question
        if question is not None and run.drill.open:
            if run.drill.tries == 0:
                asked.append(question["kind"])
            run.answer(right_answer(question, "en"), "en", now)
        elif question is not None:
            run.close_question(lesson, levels, now)
        else:
            run.move(move_token(accepted_move(lesson, run.game_state())), lesson, levels, now)
    return asked


@pytest.mark.parametrize("game_id", sorted(EASY_AND_HARD))
def test_a_weak_pupil_gets_the_easier_kind_the_table_offers_in_the_lessons_that_gained_a_choice(game_id):
    easy, hard = EASY_AND_HARD[game_id]
    difficulties = {
        (skill, kind, level): elo.Rating(value + (8.0 if kind in hard else 0.0), 200)
        for kind in [easy, *hard]
        for skill in skills.SKILLS
        for level, value in {1: -4.0, 2: -3.5, 3: -3.0}.items()
    }
    weak = OfferNotingPitch(pitch(-1.0, difficulties).model, easy)
    with_pitch = asked_kinds(game_id, weak)
    in_the_lessons_order = asked_kinds(game_id, dict(weak))
    assert weak.first_with_easy, f"{game_id}: no drill point offered {easy} beside another kind"
    assert set(weak.first_with_easy) == {easy}
    assert with_pitch.count(easy) / len(with_pitch) > in_the_lessons_order.count(easy) / len(in_the_lessons_order)
