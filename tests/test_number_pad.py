"""The number pad of a typed answer: the keys a question's answer needs, in the locale's signs, on the page.

The pad (``tutor.web.lesson_view.number_pad``) has the digits, a minus and the locale's decimal
sign for a number, the fraction bar (and a space for a mixed number) where the question writes
fractions, and brackets and operators for a calculation. A property test types every right and
wrong answer of the answer key on the pad, key by key, in every locale, and the answer must be
marked as before: no answer needs a key the pad lacks. The page shows the pad in the answer form
of a typed question only, named for screen readers in the reader's language; app.css shows it on
touch screens with the script on, so without either the plain answer box is the way to answer.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.drill_support import card
from tests.test_answer_key import ARGUMENTS, GENERATORS, question_from
from tests.test_web import ask_now, drill_section, run_of, through_intro
from tutor import ROOT
from tutor.answer_key import right_answer, wrong_answer
from tutor.answers import ALLOW_NUMBER
from tutor.drills import CHOICE
from tutor.drills.add_sub import triplesmart_expression
from tutor.drills.count import cards_on_table
from tutor.drills.four_ops import triplesmart_extreme_expression
from tutor.drills.marking import mark
from tutor.drills.mean import mean_exact
from tutor.drills.primes import prime_is_prime
from tutor.drills.probability import probability_tie
from tutor.signs import MINUS
from tutor.text import LOCALES
from tutor.web.lesson_view import number_pad

DIGITS = ["7", "8", "9", "4", "5", "6", "1", "2", "3"]


def keys(question, locale) -> list[str]:
    return [key.types for key in number_pad(question, locale).keys]


def test_a_count_has_digits_a_minus_and_the_locales_decimal_sign():
    count = cards_on_table([4, 5], 1)
    assert keys(count, "nb") == [*DIGITS, "−", "0", ","] and keys(count, "it")[-1] == ","
    assert keys(count, "en") == [*DIGITS, "−", "0", "."]
    assert number_pad(count, "sv").inputmode == "decimal"


def test_fractions_get_the_fraction_bar_and_a_mixed_number_its_space():
    assert keys(probability_tie(1, 2), "sv") == [*DIGITS, "−", "0", "/"]  # written as fractions: no decimal sign
    assert keys(mean_exact(card(5), 2), "it") == [*DIGITS, "−", "0", ",", "/", " "]


def test_a_calculation_gets_brackets_and_its_operators_in_the_locales_signs():
    cards, target = [card(3), card(4), card(6)], card(9)
    assert keys(triplesmart_expression(cards, target), "en") == [*DIGITS, "(", "0", ")", "+", "−"]
    extreme = triplesmart_extreme_expression(cards, target)
    assert keys(extreme, "nb")[-2:] == ["·", ":"] and keys(extreme, "en")[-2:] == ["×", "÷"]
    assert number_pad(extreme, "it").inputmode == "text"


def on_the_pad(typed: str, question, locale: str) -> str:
    """``typed`` as a pupil types it on the pad: each sign by the key the answer grammar reads alike (a
    calculation needs no spaces)."""
    on_keys = {key.types for key in number_pad(question, locale).keys}
    alike = {"-": MINUS, **({} if question.allow == ALLOW_NUMBER else {s: k for k in on_keys for s in _read_alike(k)})}
    pressed = [alike.get(sign, sign) for sign in typed if sign != " " or question.allow == ALLOW_NUMBER]
    assert set(pressed) <= on_keys, (typed, pressed, on_keys)
    return "".join(pressed)


def _read_alike(key: str) -> str:
    """The signs the answer grammar reads as this key's (x and * multiply like ·; / divides like :)."""
    return {"×": "x*×·", "·": "x*×·", "÷": "/:÷", ":": "/:÷"}.get(key, key)


@pytest.mark.parametrize("make", GENERATORS, ids=lambda make: make.__name__)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(data=st.data())
def test_every_answer_of_a_typed_question_can_be_typed_on_its_pad(make, data):
    question = question_from(make, data.draw(ARGUMENTS[make], label="arguments"))
    if question.answer == CHOICE:
        return
    for locale in LOCALES:
        for typed in (right_answer(question, locale), wrong_answer(question, locale, misconception=True)):
            if typed is None:
                continue
            padded = mark(question, on_the_pad(typed, question, locale), locale)
            keyboard = mark(question, typed, locale)
            assert (padded.status, padded.value) == (keyboard.status, keyboard.value), (question.kind, typed, locale)


# --- the page -----------------------------------------------------------------------------------------------------
def war_page_asking(client, guest, app, question, locale="en") -> str:
    guest.sign_in(locale=locale)
    run_id = guest.start("war")
    through_intro(client, run_id)
    ask_now(app, run_id, question)
    return run_id, drill_section(client.get(f"/runs/{run_id}").get_data(as_text=True))


def test_a_typed_question_has_the_pad_named_in_the_readers_language(guest, client, app):
    _, drill = war_page_asking(client, guest, app, cards_on_table([4, 5], 1), "nb")
    box = re.search(r"<input id=\"answer\"[^>]*>", drill).group(0)
    assert 'inputmode="decimal"' in box and "data-pad-input" in box and "data-autofocus" in box
    pad = drill[drill.index('<div class="number-pad"') : drill.index("</div>", drill.index('<div class="number-pad"'))]
    assert 'role="group" aria-label="Talltastatur" data-pad-for="answer"' in pad
    inserted = re.findall(r'data-pad-insert="([^"]*)"', pad)
    assert inserted == [*DIGITS, "−", "0", ","]
    assert 'data-pad-insert="−" aria-label="minustegn"' in pad and 'aria-label="desimalkomma">,<' in pad
    assert 'data-pad-delete aria-label="Slett det siste tegnet"' in pad
    assert all(f'type="button" class="pad-key" data-pad-insert="{d}">{d}<' in pad for d in DIGITS)  # names itself
    assert drill.index("number-pad") < drill.index('type="submit" class="primary answer-submit"')


def test_a_choice_has_no_pad(guest, client, app):
    _, drill = war_page_asking(client, guest, app, prime_is_prime(9, 1))
    assert "number-pad" not in drill and 'name="answer" value="yes"' in drill


def test_the_pad_is_shown_only_on_touch_screens_with_the_script_that_makes_it_type():
    css = (ROOT / "tutor" / "static" / "app.css").read_text(encoding="utf-8")
    assert ".number-pad { display: none; }" in css
    touch = css[css.index("@media (pointer: coarse) {") :]
    assert ".js .number-pad { display: grid;" in touch[: touch.index("\n}")]
    script = (ROOT / "tutor" / "static" / "app.js").read_text(encoding="utf-8")
    assert '"[data-pad-insert], [data-pad-delete]"' in script and "(pointer: coarse)" in script


def test_a_wrong_answer_to_a_two_option_question_closes_it_with_the_right_answer_and_its_reason(guest, client, app):
    question = prime_is_prime(9, 1)
    run_id, _ = war_page_asking(client, guest, app, question)
    page = client.post(f"/runs/{run_id}/answer", data={"answer": "yes"}, follow_redirects=True).get_data(as_text=True)
    drill = drill_section(page)
    assert "That is not the right choice." in drill and 'class="answer-form"' not in drill
    reveal = drill[drill.index('<ul class="choices-reveal"') :]
    assert re.search(r'class="reveal reveal-right">\s*<span class="choice-label">No</span>', reveal)
    assert 'class="solution"' in drill  # the reason: the worked solution
    run = run_of(app, run_id)
    assert not run.drill.open and run.drill.tries == 1
    assert client.post(f"/runs/{run_id}/answer", data={"answer": "no", "step": str(run.step)}).status_code == 409
