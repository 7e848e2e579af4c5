"""Deliberate one-line breaks: how many of them the test suite catches, per module.

Each entry of :data:`BREAKS` is a small bug of the kind a real change could bring in (a
check dropped, a comparison turned, a value not passed on), never a syntax error. For
each break the script puts it into a checkout, runs pytest there, records whether a test
failed (``caught``), the tests passed (``missed``) or something else went wrong
(``error``: a collection error, a timeout, the original text not found exactly once), and
puts the file back (always, in a ``finally``). Then it prints, per module, the breaks
tried, caught and missed, with the names of the missed ones.

    .venv/bin/python scripts/breaks.py                      # every break, related tests, a fresh clone of HEAD
    .venv/bin/python scripts/breaks.py --module tutor/skill_model/skills.py --json out.json
    .venv/bin/python scripts/breaks.py --only skills.no_learning --tests all
    .venv/bin/python scripts/breaks.py --list               # the table, without running anything

Which tests run (``--tests``): the whole non-browser suite takes about five minutes on
the 2-core machine, too long to run some eighty times, so by default (``related``) each
break runs the test files related to its module: every test file that imports the
module (found in the checkout, so new test files count at once) and the files named for
the module in :data:`RELATED` (tests that reach it through the app, a lesson or another
module). ``--tests all`` runs the whole suite instead. Browser and PostgreSQL tests never
run (``-m "not browser and not postgres"``). Pytest runs with ``-x``, so a caught break
costs only the time to its first failing test, and with ``--hypothesis-seed=0`` and a
fresh Hypothesis database per break, so a figure does not depend on what an earlier
break left in ``.hypothesis``. A missed break in ``related`` mode may still be caught by
a test elsewhere; ``--confirm-missed`` runs the whole suite for each missed break.
Before the breaks a clean run of the same tests must pass (``--no-baseline`` skips it).
A catch counts only if the failing test fails again with the break and passes on the
restored file; otherwise the test is flaky (a lesson started through the web gets a
random deal) and the break is tried once more.

By default the breaks go into a fresh ``git clone`` of this repository's HEAD in a
temporary directory (its catalogues compiled first), so nobody's working tree is
touched; ``--repo DIR`` uses an existing checkout instead (its files are restored after
each break). The checkout's own ``tutor`` package is imported (``PYTHONPATH``), even
when the virtual environment has another checkout installed in editable mode.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from fnmatch import fnmatch
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
MARKERS = "not browser and not postgres"
CAUGHT, MISSED, ERROR = "caught", "missed", "error"


@dataclass(frozen=True)
class Break:
    """One deliberate bug: in ``module``, the text ``original`` (found exactly once) becomes ``replacement``."""

    name: str
    module: str
    original: str
    replacement: str
    bug: str


# fmt: off
BREAKS: tuple[Break, ...] = (
    # --- the skill model --------------------------------------------------------------------------
    Break("skills.no_learning", "tutor/skill_model/skills.py",
          "learned = seen * (1 - params.p_forget) + (1 - seen) * params.p_learn",
          "learned = seen * (1 - params.p_forget)",
          "the learning step is dropped: practice never raises P(known) beyond the evidence"),
    Break("skills.streak_kept", "tutor/skill_model/skills.py",
          "streak=state.streak + 1 if correct else 0,", "streak=state.streak + 1,",
          "a wrong answer does not reset the streak"),
    Break("skills.guess_ignored", "tutor/skill_model/skills.py",
          "base = min(params.p_guess if tap_share is None else max(tap_share, params.p_guess), 1.0)",
          "base = params.p_guess",
          "the guess chance of a tap (its share of right buttons) is ignored"),
    Break("skills.mastery_lowered", "tutor/skill_model/skills.py",
          "    mastery: float = 0.95", "    mastery: float = 0.9",
          "the default mastery threshold is 0.05 lower (0.95 becomes 0.9)"),
    Break("skills.hints_ignored", "tutor/skill_model/skills.py",
          "guess = guess_chance(params, p_guess, hints if correct else 0)",
          "guess = guess_chance(params, p_guess, 0)",
          "hints no longer weaken the evidence of a right answer"),
    Break("skills.wrong_evidence", "tutor/skill_model/skills.py",
          "seen = known * slip / (known * slip + (1 - known) * (1 - guess))",
          "seen = known * slip / (known * slip + (1 - known) * guess)",
          "a wrong answer is weighed with the guess chance instead of 1 - guess"),
    Break("skills.level_default_threshold", "tutor/skill_model/skills.py",
          "    if p_known >= mastery and", "    if p_known >= DEFAULT_PARAMS.mastery and",
          "level() ignores the mastery threshold stored with the record"),
    Break("skills.mastery_without_evidence", "tutor/skill_model/skills.py",
          "    if p_known >= mastery and evidence >= MASTERY_EVIDENCE and not typed_missing:",
          "    if p_known >= mastery:",
          "mastered from P(known) alone: a lucky run of taps is shown as mastery"),
    Break("skills.proficient_without_evidence", "tutor/skill_model/skills.py",
          "    if p_known >= PROFICIENT_FROM and evidence >= PROFICIENT_EVIDENCE:",
          "    if p_known >= PROFICIENT_FROM:",
          "proficient from P(known) alone"),
    Break("skills.level_one_is_evidence", "tutor/skill_model/skills.py",
          "if drill_level is not None and drill_level >= EVIDENCE_LEVEL:", "if drill_level is not None:",
          "level-1 answers, with their support, count as evidence for mastery"),
    Break("skills.card_choice_is_evidence", "tutor/skill_model/skills.py",
          "if drill_level is not None and drill_level >= EVIDENCE_LEVEL:",
          "if (drill_level or EVIDENCE_LEVEL) >= EVIDENCE_LEVEL:",
          "cards chosen in the game count as evidence for mastery"),
    Break("skills.tap_guess_below_typed", "tutor/skill_model/skills.py",
          "max(tap_share, params.p_guess)", "tap_share",
          "a tap among many buttons counts as more than a typed answer"),
    Break("skills.typed_not_required", "tutor/skill_model/skills.py",
          "    return skill in TYPED_SKILLS and not typed_right", "    return False",
          "a stored skill with typed questions is mastered without a right typed answer"),
    Break("skills.no_ageing", "tutor/skill_model/skills.py",
          "return evidence * 0.5 ** (max(days, 0.0) / EVIDENCE_HALF_LIFE_DAYS)", "return evidence",
          "evidence never ages: a skill not practised for months stays mastered"),
    Break("skills.no_forgetting", "tutor/skill_model/skills.py",
          "learned = seen * (1 - params.p_forget) +", "learned = seen +",
          "a fitted chance of forgetting is ignored"),
    Break("skills.no_evidence_floor", "tutor/skill_model/skills.py",
          "min(max(evidence + evidence_step(correct, guess), EVIDENCE_FLOOR), EVIDENCE_CAP)",
          "min(evidence + evidence_step(correct, guess), EVIDENCE_CAP)",
          "old mistakes bury a pupil's evidence without bound"),
    Break("progress.tap_guess_one_over_k", "tutor/skill_model/progress.py",
          "return sum(value in expected for value in values) / len(values)", "return 1 / len(values)",
          "a tap's guess chance is 1/buttons whatever the share of right buttons"),
    Break("progress.levels_unordered", "tutor/skill_model/progress.py",
          "{1: min(difficulties[1], middle - LEVEL_GAP), 2: middle, 3: max(difficulties[3], middle + LEVEL_GAP)}",
          "difficulties",
          "learnt level difficulties may cross: level 1 can look harder than level 3"),
    Break("progress.card_choices_feed_levels", "tutor/skill_model/progress.py",
          "if level in PRIOR_DIFFICULTY and not is_card_choice(kind):", "if level in PRIOR_DIFFICULTY:",
          "card choices' difficulties feed the choice of the drill level"),
    Break("progress.kind_choice_first_offer", "tutor/skill_model/progress.py",
          "for _, index, level in sorted(chosen)]", "for _, index, level in chosen]",
          "a drill point asks the lesson's first kind, not the one pitched nearest the pupil's target"),
    Break("calculation_war_lesson.own_kind_only", "tutor/lessons/calculation_war.py",
          "offers = [estimate, best, exact] if round_number % 4 == 0 else [best, estimate, exact]",
          "offers = [estimate] if round_number % 4 == 0 else [best]",
          "Calculation War asks the kind of the round before a move, never the one pitched nearest the pupil"),
    Break("progress.card_choices_rated", "tutor/skill_model/progress.py",
          "and not is_card_choice(attempt_kind) else None", "else None",
          "card choices count as drill questions of level 2 (evidence and Elo)"),
    Break("elo.difficulty_step_as_ability", "tutor/skill_model/elo.py",
          "DIFFICULTY_K0 = 0.1", "DIFFICULTY_K0 = 1.0",
          "a shared difficulty moves as far as a pupil's ability: one weak pupil reorders the levels"),
    Break("skill_versions.not_judged_again", "tutor/cli.py",
          "judged = versions.rejudge(session, answers, due)", "judged = 0",
          "a fit leaves the records judged by the old parameters"),
    Break("skill_versions.difficulties_not_calibrated", "tutor/cli.py",
          "versions.save_difficulties(session, difficulties)", "None",
          "a fit leaves the question difficulties where the online steps put them"),
    Break("skill_versions.calibrated_from_too_few", "tutor/skill_model/versions.py",
          "if len(rows) >= MIN_CALIBRATION", "if rows",
          "a question answered once gets a calibrated difficulty"),
    Break("skill_versions.always_due", "tutor/skill_model/versions.py",
          "(skill not in fitted or count >= fitted[skill].answers + refit_after)", "True",
          "the nightly fit refits every skill every night"),
    Break("skills.needs_help_late", "tutor/skill_model/skills.py",
          "return attempts >= NEEDS_HELP_AFTER and", "return attempts > NEEDS_HELP_AFTER and",
          "'needs help' shows one answer later than documented"),
    # --- storing answers and skill records ---------------------------------------------------------
    Break("progress.retries_update_skill", "tutor/skill_model/progress.py",
          "    if attempt.first_try:", "    if attempt.readable:",
          "answers after a retry update the skill model like first tries"),
    Break("progress.wrong_threshold_stored", "tutor/skill_model/progress.py",
          "mastery_threshold=skills.DEFAULT_PARAMS.mastery,", "mastery_threshold=skills.PROFICIENT_FROM,",
          "a new skill record stores the wrong mastery threshold (0.8)"),
    Break("progress.retry_count_first_tries", "tutor/skill_model/progress.py",
          "AttemptRecord.first_try.is_(False)", "AttemptRecord.first_try.is_(True)",
          "right_after_retry counts first tries instead of retries"),
    Break("progress.retry_count_wrong", "tutor/skill_model/progress.py",
          "            AttemptRecord.correct.is_(True),\n", "",
          "right_after_retry also counts wrong retries"),
    Break("progress.choice_guess_lost", "tutor/skill_model/progress.py",
          "            tap_share(attempt.question),\n", "            None,\n",
          "a choice answer updates the skill with the typed-answer guess chance"),
    Break("progress.hints_not_passed", "tutor/skill_model/progress.py",
          "tap_share(attempt.question),\n            attempt.hints_used,",
          "tap_share(attempt.question),\n            0,",
          "the hints a pupil saw are not passed to the skill update"),
    Break("progress.unreadable_text_kept", "tutor/skill_model/progress.py",
          'typed=attempt.typed if attempt.readable else "",', "typed=attempt.typed,",
          "an answer that could not be read is stored as typed (names, phone numbers)"),
    # --- the lesson runner -------------------------------------------------------------------------
    Break("runner.tries_reset_on_reload", "tutor/lessons/runner.py",
          "        for key, value in data.items():", '        for key, value in {**data, "tries": 0}.items():',
          "the retry counter is lost when a run is loaded from the database"),
    Break("runner.stored_run_not_validated", "tutor/lessons/runner.py",
          "        run.game_state()  # validates the stored position", "        pass",
          "a stored run is not validated when it is loaded"),
    Break("runner.choice_closes_after_one_try", "tutor/lessons/runner.py",
          "CHOICE_TRIES, TYPED_TRIES = 2, 5", "CHOICE_TRIES, TYPED_TRIES = 1, 5",
          "a choice of four or more buttons closes after one wrong try instead of two"),
    Break("runner.typed_tries_unbounded", "tutor/lessons/runner.py",
          "CHOICE_TRIES, TYPED_TRIES = 2, 5", "CHOICE_TRIES, TYPED_TRIES = 2, 10**9",
          "a typed question never closes: a pupil (or a script) can answer it forever"),
    Break("runner.time_limit_x10", "tutor/lessons/runner.py",
          "limit * 60_000", "limit * 600_000",
          "the playing-time limit is ten times too long"),
    Break("runner.refused_choice_played", "tutor/lessons/runner.py",
          "        legal = game_state.is_legal(move)", "        legal = True",
          "a choice the rules refuse is played anyway"),
    Break("runner.unreadable_first_try", "tutor/lessons/runner.py",
          "first_try=readable and self.tries == 0,", "first_try=self.tries == 0,",
          "an unreadable answer is stored as a first try"),
    Break("runner.unreadable_costs_a_try", "tutor/lessons/runner.py",
          "        if readable:\n            self.tries += 1", "        if True:\n            self.tries += 1",
          "an unreadable answer costs a try"),
    Break("runner.every_choice_first_try", "tutor/lessons/runner.py",
          "first_try=self.turn.tries == 0,", "first_try=True,",
          "every choice of a card counts as a first try, also after a refused one"),
    Break("runner.levels_not_passed", "tutor/lessons/runner.py",
          'self._rng("before"), levels)', 'self._rng("before"), {})',
          "the pupil's levels do not reach the questions asked before a move"),
    Break("runner.pace_free", "tutor/lessons/runner.py",
          "            self.credit -= 1", "            pass",
          "a question costs no pace credit: a question at every turn"),
    Break("runner.hourglass_x10", "tutor/lessons/runner.py",
          "seconds * 1000", "seconds * 10_000",
          "the hourglass runs ten times too long"),
    # --- evidence: numbers typed, no coin toss twice ------------------------------------------------
    Break("drills.number_buttons_back", "tutor/drills/common.py",
          'return {"answer": NUMBER, "check": {"rule": "equals", "expected": str(right)}}',
          'return {"answer": "choice", "check": {"rule": "choice", "expected": [str(right)]}, "choices": '
              '[{"value": str(n), "label": Text(str(n))} for n in (right, right + 1)]}',
          "a number answer is picked from buttons again (the right number and the next one)"),
    Break("runner.two_option_second_try", "tutor/lessons/runner.py",
          "return max(1, min(CHOICE_TRIES, len(question.choices) - REAL_CHOICE + 1))", "return CHOICE_TRIES",
          "every choice gets a second try again, a coin toss between two buttons included"),
    Break("runner.three_option_second_try", "tutor/lessons/runner.py",
          "REAL_CHOICE = 3", "REAL_CHOICE = 2",
          "a choice of three buttons gets a second try: a coin toss between the two left"),
    Break("runner.closed_choice_without_reason", "tutor/lessons/runner.py",
          "self.open, self.solution_shown = False, True",
          "self.open, self.solution_shown = False, question.answer != CHOICE",
          "a choice closed by a wrong answer does not show the right answer's reason (the worked solution)"),
    Break("runner.two_option_kind_repeats", "tutor/lessons/runner.py",
          'return has_two_options(question) and question["kind"] == self.two_option_kind', "return False",
          "two two-option questions of one kind may be asked in a row"),
    Break("runner.two_option_kind_forgotten", "tutor/lessons/runner.py",
          'self.two_option_kind = question["kind"] if has_two_options(question) else ""', "pass",
          "the runner forgets which two-option question it asked last, so they come in a row again"),
    Break("lesson_view.pad_point_everywhere", "tutor/web/lesson_view.py",
          "PadKey(decimal_sign(locale),", 'PadKey(".",',
          "the number pad types a decimal point in every language, not the comma of nb, sv and it"),
    Break("lesson_view.pad_without_fraction_bar", "tutor/web/lesson_view.py",
          "if question.number_form in (FRACTION, MIXED):", "if question.number_form == MIXED:",
          "the number pad has no fraction bar for a chance written as a fraction"),
    Break("lesson_view.pad_without_minus", "tutor/web/lesson_view.py",
          'keys += [PadKey(written["minus"], Text.in_context(MINUS_SIGN)), PadKey("0")]', 'keys += [PadKey("0")]',
          "the number pad has no minus: a number below zero cannot be typed on a touch screen"),
    Break("answer_key.wrong_below_zero", "tutor/answer_key.py",
          "expected + (abs(miss) if expected + miss < 0 <= expected else miss)", "expected + miss",
          "the answer key's wrong count may be below zero (−1 cards), which no pupil types"),
    # --- the lesson pages --------------------------------------------------------------------------
    Break("steps.levels_empty", "tutor/steps.py",
          "PupilPitch(pupil_model.get, pupil_model.target)", "{}",
          "the levels chosen for the pupil are not passed to the lesson (no adaptivity)"),
    Break("steps.class_target_ignored", "tutor/steps.py",
          "        return target_success(self.record.pupil)", "        return 0.75",
          "the class's share of right answers is ignored: every class aims at 75 %"),
    Break("web_lessons.step_not_checked", "tutor/web/lessons.py",
          "        if posted is not None and posted != str(run.step):", "        if False:",
          "the step a form carries is not checked: a stale page or a double submit acts"),
    Break("steps.step_not_advanced", "tutor/steps.py",
          "    run.step += 1", "    pass",
          "the step does not advance after a change: every old form stays valid"),
    Break("web_lessons.not_owner", "tutor/web/lessons.py",
          "LessonRunRecord.public_id == str(run_id), LessonRunRecord.pupil_id == current_pupil().id\n",
          "LessonRunRecord.public_id == str(run_id)\n",
          "a pupil can open and play another pupil's run by its id"),
    Break("steps.attempt_not_stored", "tutor/steps.py",
          "skill_record = record_attempt(\n                    database, record.pupil_id, record.id, attempt, at=now, "
          "model=pupil_model.model\n"
          "                )[1]",
          "skill_record = None",
          "answers are not stored and the skill model is not updated"),
    Break("db.no_write_lock", "tutor/db.py",
          "            begin_write(db_session)\n", "",
          "SQLite's write lock is not taken before the step's writes (writers fail halfway instead of queueing)"),
    Break("db.flush_every_commit", "tutor/db.py",
          'cursor.execute("PRAGMA synchronous=NORMAL")', 'cursor.execute("PRAGMA synchronous=FULL")',
          "SQLite flushes the disk at every commit: the write lock is held for a flush per lesson step"),
    Break("db.no_write_gate", "tutor/db.py",
          "                fcntl.flock(fd, fcntl.LOCK_EX)\n", "                pass\n",
          "writing steps of different processes do not queue at the gate: they poll SQLite's lock with sleeps"),
    Break("progress.shared_rows_never_cached", "tutor/skill_model/progress.py",
          "time.monotonic() - self.read_at >= self.seconds", "True",
          "the shared rows are read again on every step: two more statements per step"),
    Break("steps.locked_is_500", "tutor/steps.py",
          "            raise\n        return StepOutcome(Taken.BUSY)", "            raise\n        raise",
          "a database locked past its timeout answers 500 instead of 503 with Retry-After"),
    # --- a step renders and stores little; many schools (issue 27) --------------------------------------
    Break("lesson_view.table_not_compared", "tutor/web/lesson_view.py",
          '"table": (run.stage, c["zones"]),', '"table": (run.stage,),',
          "a step leaves the table out although its cards changed: the page shows the table before the step"),
    Break("lesson_view.section_not_compared", "tutor/web/lesson_view.py",
          "if len(old) != len(new) or old[0] != new[0]:", "if len(old) != len(new):",
          "a step that changes the lesson's stage sends only parts: the lesson keeps the stage before"),
    Break("web_lessons.parts_replace_the_lesson", "tutor/web/lessons.py",
          'response.headers["HX-Reswap"] = "none"', "pass",
          "the changed parts also replace the whole lesson, which then holds only them"),
    Break("progress.difficulty_one_shard", "tutor/skill_model/progress.py",
          "shard = model.pupil_id % DIFFICULTY_SHARDS", "shard = 0",
          "every answer's difficulty change goes to one row: a district answering one question queues for it"),
    Break("progress.difficulty_shards_not_summed", "tutor/skill_model/progress.py",
          "changes[key] = (change + value, answers + count)", "changes[key] = (value, count)",
          "a question's difficulty counts only its last shard's changes"),
    Break("versions.calibration_keeps_changes", "tutor/skill_model/versions.py",
          "delete(DifficultyChange).where(", "select(DifficultyChange).where(",
          "a calibration keeps the changes of the answers it was fitted from: they count twice"),
    Break("auth.guests_per_browser_unlimited", "tutor/web/auth.py",
          "limits.check(database, limits.GUESTS_PER_DEVICE, device_hash, time.time())", "pass",
          "one browser makes guests without a limit of its own"),
    Break("db.pool_not_sized", "tutor/db.py",
          'pool = {"pool_size": pool_size, "max_overflow": POOL_OVERFLOW} if pool_size else {}', "pool = {}",
          "a PostgreSQL pool keeps SQLAlchemy's 5 connections, whatever the server's threads"),
    Break("steps.steps_unlimited", "tutor/steps.py",
          "            limits.count_step(record, now_ms / 1000)\n", "",
          "lesson steps have no rate limit"),
    Break("steps.stale_copy_is_500", "tutor/steps.py",
          "    except (StaleDataError, IntegrityError):", "    except IntegrityError:",
          "a second copy of a step that was saved meanwhile answers 500 instead of 'out of date' (409)"),
    Break("steps.model_read_under_lock", "tutor/steps.py",
          "            pupil_model.get()  # the skill update needs the model\n", "            pass\n",
          "a first answer's skill model is read inside the write transaction: the write lock is held longer"),
    Break("steps.finished_game_not_counted", "tutor/steps.py",
          "finished = run.stage == FINISHED and record.finished_at is None", "finished = False",
          "a finished lesson keeps no end time and does not count as a finished game of its homework"),
    Break("steps.homework_answers_not_counted", "tutor/steps.py",
          "first_try_right=attempt.correct if attempt is not None and attempt.first_try else None,",
          "first_try_right=None,",
          "the answers of a homework lesson do not count towards the homework"),
    Break("steps.other_codes_runs_trusted", "tutor/steps.py",
          "    if record.written_by != code_version():\n", "    if False:\n",
          "a run written by other code (an older release, an edit) is played on without being checked"),
    Break("steps.runs_not_stamped", "tutor/steps.py",
          "                written_by=code_version(),", "                written_by=None,",
          "a saved run does not say this code wrote it: it is checked through again on every step"),
    Break("limits.window_never_resets", "tutor/limits.py",
          "else_=1)", "else_=RateLimit.hits + 1)",
          "a rate-limit count never starts again in a new window: a pupil is locked out for good"),
    Break("i18n.catalogue_kept_across_locales", "tutor/web/i18n.py",
          "    if cached is None or cached[0] is not locale:", "    if cached is None:",
          "the catalogue looked up once per request stays in use under force_locale: cards print in the teacher's "
          "language"),
    Break("app.cookie_signed_every_step", "tutor/app.py",
          'app.config["SESSION_REFRESH_EACH_REQUEST"] = False', 'app.config["SESSION_REFRESH_EACH_REQUEST"] = True',
          "the session cookie is signed and sent again with every answer"),
    Break("limits.step_window_never_resets", "tutor/limits.py",
          "run.steps_window_start, run.steps_in_window = window, 0", "run.steps_window_start = window",
          "a lesson's step count never starts again in a new window: the lesson is locked for good"),
    Break("classroom.casino_war_always_open", "tutor/classroom.py",
          "    return school_class.casino_war_on if school_class is not None else casino_war_for_guests", "    return "
              "True",
          "Casino War is open to every class and every guest without anyone switching it on"),
    Break("classic_war.six_beats_everything", "tutor/engine/classic_war.py",
          "        if value == 6 and any(rank_of(c) == ACE for c in compared):", "        if value == 6:",
          "P'yanitsa's six beats every card, not only the ace"),
    Break("classic_war.pyanitsa_only_the_tied_go_on", "tutor/engine/classic_war.py",
          "self._start_battle(live, self.game.war_battle_size(",
          "self._start_battle(leaders if self.game.id == \"pyanitsa\" else live, self.game.war_battle_size(",
          "at a P'yanitsa tie only the tied players lay a new card (the old reading; everyone does)"),
    Break("classic_war.split_to_the_first_player", "tutor/engine/classic_war.py",
          "                self._collect(player, cards)", "                self._collect(0, cards)",
          "a tie on Tod und Leben's last cards gives the whole grown trick to one player, not each their own back"),
    Break("strategy_war.two_never_beats_the_ace", "tutor/engine/strategy_war.py",
          "        return TWO_OVER_TOP if any(rank(other) == TOP_RANKS[jokers] for other in turned) else 1",
          "        return 1",
          "Strategy War's 2 loses to the ace"),
    Break("strategy_war.two_beats_the_ace_with_jokers", "tutor/engine/strategy_war.py",
          "any(rank(other) == TOP_RANKS[jokers] for other in turned)",
          "any(rank(other) >= ACE for other in turned)",
          "with jokers in Strategy War the 2 beats the ace too (the old reading; the ace beats the 2)"),
    Break("three_traits.one_attribute_with_the_last", "tutor/engine/three_traits.py",
          "    return compare(card_id, last).count >= 2 and compare(card_id, before).count >= 1",
          "    return compare(card_id, last).count >= 1 and compare(card_id, before).count >= 1",
          "Three Traits: a card sharing one attribute with the last card fits the main rule"),
    Break("three_traits.card_before_ignored", "tutor/engine/three_traits.py",
          "    return compare(card_id, last).count >= 2 and compare(card_id, before).count >= 1",
          "    return compare(card_id, last).count >= 2",
          "Three Traits: the card before the last one is not compared"),
    Break("three_traits.ace_only_one", "tutor/engine/three_traits.py",
          "    values = (ACE_LOW, ACE) if found.rank == ACE else (found.rank,)",
          "    values = (ACE_LOW,) if found.rank == ACE else (found.rank,)",
          "Three Traits: the ace counts only as 1 (odd and low), never as 14"),
    Break("three_traits.fallback_while_a_card_fits", "tutor/engine/three_traits.py",
          "    return main or [c for c in hand if meets_fallback(c, last, before, rule)]",
          "    return main + [c for c in hand if meets_fallback(c, last, before, rule)]",
          "Three Traits: the fallback card may be played although a card fits the main rule"),
    Break("three_traits.fallback_before_ignored", "tutor/engine/three_traits.py",
          "    return compare(card_id, before, most=False).count < 2", "    return True",
          "Three Traits: the fallback card may share any number of attributes with the card before"),
    Break("three_traits.stuck_takes_own_hand_only", "tutor/engine/three_traits.py",
          "                taken[loser] += self._take(loser, self.hands[player])",
          "                taken[player] += self._take(player, self.hands[player])",
          "Three Traits: who cannot play takes only the row and their own hand, not every hand"),
    Break("three_traits.rest_not_taken", "tutor/engine/three_traits.py",
          "            result[\"rest\"] = self._take(loser, self.draw_pile)", "            result[\"rest\"] = 0",
          "Three Traits: the loser does not take the cards left in the draw pile at the end"),
    Break("three_traits.draw_again_and_again", "tutor/engine/three_traits.py",
          "Move(\"draw\", player) if self.draw_pile and not self.drawn else",
          "Move(\"draw\", player) if self.draw_pile else",
          "Three Traits: a player who cannot play draws again and again instead of losing the round"),
    Break("three_traits.most_penalty_cards_win", "tutor/engine/three_traits.py",
          "        return [p for p, total in enumerate(totals) if total == min(totals)]",
          "        return [p for p, total in enumerate(totals) if total == max(totals)]",
          "Three Traits: the most penalty cards win"),
    Break("three_traits_lesson.lucky_tap_counts", "tutor/lessons/three_traits.py",
          "            counted = 2 * len(fitting) <= len(hand) and not self.asked_about(game_state, pupil)",
          "            counted = True",
          "Three Traits: a card that fits counts for parity_size also when most of the hand fits or the question "
          "just asked gave it away"),
    Break("three_traits_lesson.refused_draw_not_evidence", "tutor/lessons/three_traits.py",
          "                return Judged(False, self.still_fits(\"draw\", game_state, fitting), SKILL, "
          "\"no_card_fits\")",
          "                return Judged(False, self.still_fits(\"draw\", game_state, fitting))",
          "Three Traits: drawing while a card fits is refused but not counted for parity_size"),
    Break("three_traits_lesson.two_button_kinds_together", "tutor/lessons/three_traits.py",
          "DRILL_ORDER = (\"rank_parity\", \"playable_card\", \"rank_size\", \"shared_traits\")",
          "DRILL_ORDER = (\"rank_parity\", \"rank_size\", \"playable_card\", \"shared_traits\")",
          "Three Traits: odd or even and low or high, both two-button questions, come one after the other"),
    Break("parity_size.playable_card_ignores_the_fallback_option", "tutor/drills/parity_size.py",
          "    right = set(playable_cards(hand, last, before, fallback_rule))",
          "    right = set(playable_cards(hand, last, before))",
          "which of your cards may go on the row: the game's fallback option is ignored"),
    Break("casino_war.equal_war_card_loses", "tutor/engine/casino_war.py",
          "        won = rank(own) >= rank(house)", "        won = rank(own) > rank(house)",
          "in a Casino War war an equal card loses for the player"),
    Break("classic_war_lesson.compare_ignores_the_games_rule", "tutor/lessons/classic_war.py",
          "        return not any(key[0] == rules and key[1] in ranks and key[2] in ranks for key in SPECIAL_RULES)",
          "        return True",
          "the compare drill asks about a six against an ace in P'yanitsa and marks the ace right"),
    Break("steal_war_lesson.steal_with_any_rank", "tutor/lessons/steal_war.py",
          "        if victim not in parts:", "        if False:",
          "a steal with another rank is not explained and not counted as a wrong compare answer"),
    Break("steal_war.one_pile_per_steal", "tutor/engine/steal_war.py",
          "        parts = self.stolen_parts(player)", "        parts = {pointed: self.stolen_parts(player)[pointed]}",
          "a card that matches several piles steals only the one it is put on (the old rule; it steals them all)"),
    Break("steal_war.no_swap", "tutor/engine/steal_war.py",
          "        for swap in self.swaps:", "        for swap in []:",
          "when two players' cards match each other's piles, the second cannot steal back: no swap (the old rule)"),
    Break("casino_war_lesson.unaffordable_war_unexplained", "tutor/lessons/casino_war.py",
          '        if move.kind == "war" and game_state.phase == "decide":', "        if False:",
          "a war the pupil cannot afford is refused without saying how many tokens are missing"),
    Break("twenty_nine.pile_won_by_whoever_played", "tutor/engine/twenty_nine.py",
          "            self._win(change.owner, change.pile, ply)", "            self._win(player, change.pile, ply)",
          "29: a pile brought to exactly 29 by the other player's card is won by that player, not the pile's owner"),
    Break("twenty_nine.only_the_turns_piles_bust", "tutor/engine/twenty_nine.py",
          '                if not pile["won"] and value > GOAL:',
          '                if owner == self.turn and not pile["won"] and value > GOAL:',
          "29: at the end of a turn only the piles of the player whose turn it was are thrown away"),
    Break("twenty_nine.jack_protects_nothing", "tutor/engine/twenty_nine.py",
          'elif spot.owner != player and self.piles[spot.owner][spot.pile]["jacks"]:',
          'elif spot.owner != player and False:',
          "29: a Jack does not stop the other player's Kings and Queens"),
    Break("twenty_nine.queen_adds", "tutor/engine/twenty_nine.py",
          "before + (change if rank(card_id) == KING else -change)", "before + change",
          "29: a Queen adds the card she lies on instead of taking it away"),
    Break("twenty_nine.below_zero_allowed", "tutor/engine/twenty_nine.py",
          '        return "below_zero" if change.after < 0 else None', "        return None",
          "29: a play that takes a pile below 0 is allowed"),
    Break("twenty_nine.no_reaction_window", "tutor/engine/twenty_nine.py",
          "        if player == self.turn and self.can_react(self.reactor):",
          "        if False:",
          "29: the other player never gets a window to answer with an ace out of turn"),
    Break("twenty_nine.bench_card_is_the_turns_card", "tutor/engine/twenty_nine.py",
          "            self.played = self.played or move.kind == PLAY", "            self.played = True",
          "29: a face card from the bench uses up the turn's one card from the hand"),
    Break("twenty_nine.pass_after_playing", "tutor/engine/twenty_nine.py",
          '                return "played_already" if self.acted else None', "                return None",
          "29: a player who has played may still play nothing and draw one more card"),
    Break("twenty_nine.strong_player_spends_aces_freely", "tutor/engine/twenty_nine.py",
          "ACE_COST = 60.0", "ACE_COST = 0.0",
          "29's strong player carries any card with an ace, not only for a pile won, saved or thrown away"),
    Break("twenty_nine_lesson.bust_not_counted", "tutor/lessons/twenty_nine.py",
          "        if change.after > GOAL >= change.before and mine:", "        if False:",
          "29: a pile of the pupil's pushed over 29 is not counted as a wrong compare answer"),
    Break("twenty_nine_lesson.gift_counts_right", "tutor/lessons/twenty_nine.py",
          '            return Judged(mine, said, "missing_addend", "make_29")',
          '            return Judged(True, said, "missing_addend", "make_29")',
          "29: bringing the computer's pile to exactly 29 (it wins it) counts as a right answer"),
    Break("twenty_nine_lesson.only_legal_places", "tutor/lessons/twenty_nine.py",
          "            places = [pile_place(owner, index) for owner, index in open_piles]",
          "            places = [pile_place(owner, index) for owner, index in open_piles if owner == pupil]",
          "29: a number card is offered only the pupil's own piles: the wrong place is never explained"),
    Break("compare.twentynine_bust_from_before", "tutor/drills/compare.py",
          "    right = _against_goal(after)", "    right = _against_goal(before)",
          "29's bust question compares the pile before the play with 29"),
    Break("gnav.cuckoo_costs_nobody", "tutor/engine/gnav.py",
          "        losers = [p for p in play_order(self.dealer, self.game.players) if p != holder]",
          "        losers = []",
          "in Gnav the Cuckoo's call stops the trading but nobody else loses a point"),
    Break("gnav.dragoon_trades_on", "tutor/engine/gnav.py",
          "        if how == CUT_OFF:  # the Dragoon's holder does not trade: the player on its left trades on\n"
          "            self._next_turn(asked)",
          "        if how == CUT_OFF:  # the Dragoon's holder does not trade: the player on its left trades on\n"
          "            self._next_turn(asker)",
          "in Gnav the Dragoon's holder takes a turn after cutting the asker off"),
    Break("gnav.points_below_zero", "tutor/engine/gnav.py",
          "        self.points[player] = max(0, before + delta)", "        self.points[player] = before + delta",
          "in Gnav points go below 0"),
    Break("gnav.two_fools_cost_points", "tutor/engine/gnav.py",
          "(fools[0] if len(fools) == 1 else None)", "(fools[0] if fools else None)",
          "in Gnav the lone-Fool rule also strikes when both Fools are in play"),
    Break("gnav.tie_goes_to_the_first", "tutor/engine/gnav.py",
          "        winner = contenders[0] if len(contenders) == 1 else None",
          "        winner = contenders[0]",
          "in Gnav a tie the deck cannot decide goes to the first tied player"),
    Break("gnav.nobody_knocks", "tutor/engine/gnav.py",
          "        self.waiting = [p for p in order if is_fool(self.hands[p][0])]", "        self.waiting = []",
          "in Gnav a player dealt the Fool never gets to knock"),
    Break("gnav.trades_seen_by_all", "tutor/engine/gnav.py",
          '            involved = player in (event.get("player"), event.get("to"))', "            involved = True",
          "in Gnav every player sees the cards of everyone's trades"),
    Break("gnav.strong_trades_against_the_odds", "tutor/engine/gnav.py",
          "            wants = 2 * higher > unseen", "            wants = 2 * higher < unseen",
          "Gnav's strong computer player trades its good cards and keeps its bad ones"),
    Break("gnav_lesson.refusal_unexplained", "tutor/lessons/gnav.py",
          '        if move.kind == "call" and game_state.phase == "answer" and game_state.asked == pupil:',
          "        if False:",
          "a refusal without a matador is refused without naming the card and who asked"),
    Break("gnav_lesson.drill_forgets_seen_cards", "tutor/lessons/gnav.py",
          "lambda level: gnav_unseen_higher(mine, seen, level, order)",
          "lambda level: gnav_unseen_higher(mine, [], level, order)",
          "the Gnav count question ignores the cards the pupil has seen"),
    Break("web_lessons.players_not_offered", "tutor/web/lessons.py",
          "        if players not in lesson.player_choices(game):", "        if False:",
          "a lesson starts with a player count its start page does not offer (Gnav with 2 or 12)"),
    Break("classroom.homework_players_not_offered", "tutor/classroom.py",
          " or players not in LESSONS[form.game_id].player_choices(game_class):", ":",
          "homework is set with a player count its lesson does not offer (Gnav with 2 or 12)"),
    Break("probability.gnav_chance_of_every_card", "tutor/drills/probability.py",
          "    chance = Fraction(higher, unseen)", "    chance = Fraction(higher, total)",
          "the Gnav chance counts the cards the pupil has seen as if they could still come"),
    Break("compare.gnav_order_ignored", "tutor/drills/compare.py",
          "        return gnav_rank(card_id, low_order)", "        return gnav_rank(card_id)",
          "the Gnav compare question ranks by the seed's order whatever the game's low-card order"),
    Break("lesson_view.counts_shown_under_hidden_result", "tutor/web/lesson_view.py",
          "shown.scoreboard[:1] if hide_result else shown.scoreboard",
          "shown.scoreboard",
          "while a question hides the round's result, the card counts on the scoreboard tell who won"),
    # --- questions worth asking, about what is on the table, at a steady pace ---------------------
    Break("runner.after_round_not_marked", "tutor/lessons/runner.py",
          "question.about_round = question.about_round or self.rounds_reviewed",
          "question.about_round = question.about_round",
          "a question about the round just decided shows the next round's table (TripleSmart's next target)"),
    Break("runner.reviewed_round_asked_again", "tutor/lessons/runner.py",
          "self._ask([q for q in questions if q.about_round > reviewed], now_ms)", "self._ask(questions, now_ms)",
          "a round asked about before is asked about again when a later round offers nothing new"),
    Break("runner.lone_pupil_one_turn", "tutor/lessons/runner.py",
          'if move["player"] != CHANCE or alone:', 'if move["player"] != CHANCE:',
          "a pupil alone at Casino War has one turn in the whole game: one question in ten hands"),
    Break("lesson_base.decided_round_not_shown", "tutor/lessons/base.py",
          "shown = self.decided_round(game_state, pupil, about) if about else None", "shown = None",
          "a question about a decided round shows an empty table and the next round's line"),
    Break("lesson_base.slow_pace", "tutor/lessons/base.py",
          "questions_per_turn: ClassVar[float] = 3 / 4", "questions_per_turn: ClassVar[float] = 1 / 3",
          "one question per three turns: 3 to 4 in a lesson of 10 rounds"),
    Break("classic_war_lesson.rule_not_asked", "tutor/lessons/classic_war.py",
          "rule = self.rule_that_decided(game_state, decided)", "rule = None",
          "P'yanitsa's six beating the ace is never asked when it happens"),
    Break("classic_war_lesson.war_face_up_counted_down", "tutor/lessons/classic_war.py",
          'return [war_cards(len(layers), size - 1, level_of(levels, "count"), on_table)]',
          'return [war_cards(len(layers), size, level_of(levels, "count"), on_table)]',
          "the war question counts the face-up card as a face-down one too: one card too many per player"),
    Break("classic_war_lesson.which_is_higher_at_every_level", "tutor/lessons/classic_war.py",
          'if level_of(levels, "compare") == 1 else [difference, higher]', "if True else [difference, higher]",
          "which card is higher, two buttons, is asked at every level, not only of the youngest"),
    Break("casino_war_lesson.same_chance_every_hand", "tutor/lessons/casino_war.py",
          "return [choose_question(levels, offers[first:] + offers[:first])]",
          "return [choose_question(levels, offers)]",
          "Casino War asks the same chance of a tie before every stake"),
    Break("triplesmart_lesson.next_target_shown", "tutor/lessons/triplesmart.py",
          'Row(label, list(record.get("targets", [])))', "Row(label, list(game_state.targets))",
          "a question about the round just decided shows the next round's target cards"),
    Break("compare.waste_the_highest", "tutor/drills/compare.py",
          "lowest = winners[0] if winners else None", "lowest = winners[-1] if winners else None",
          "Strategy War's least-waste question wants the highest card that wins"),
    Break("count.war_without_face_up", "tutor/drills/count.py",
          "    each = down + 1", "    each = down",
          "a war's count leaves out the card each player turns face up"),
    Break("probability.house_edge_whole_tie", "tutor/drills/probability.py",
          "    edge = chance / 2", "    edge = chance",
          "the house's edge counts a tie as the whole stake lost, though the pupil gives up and gets half back"),
    Break("fraction_master_lesson.two_denominators", "tutor/lessons/fraction_master.py",
          "    denominator = math.lcm(*(pair[1] for pair in pairs))",
          "    denominator = math.lcm(*(pair[1] for pair in pairs[1:]))",
          "a fraction that fits is compared over a denominator that leaves out the smaller end's"),
    Break("fractions.every_fit_listed", "tutor/drills/fractions.py",
          '        "others": ", ".join(f.text for f in shown_fits if f != shown_answer),',
          '        "others": ", ".join(f.text for f in fits if f != shown_answer),',
          "the worked solution names every fraction of the hand that fits, not those on the buttons"),
    Break("runner.to_dict_shares_moves", "tutor/lessons/runner.py",
          'data["moves"] = list(self.moves)', 'data["moves"] = self.moves',
          "the stored dict shares the run's move list: later steps change what was saved"),
    # --- adaptivity: difficulty and tolerances -----------------------------------------------------
    Break("drills.unchosen_level_hardest", "tutor/drills/__init__.py",
          "EASIEST = 1", "EASIEST = 3",
          "a skill without a chosen level gets the hardest questions"),
    Break("progress.prior_inverted", "tutor/skill_model/progress.py",
          "PRIOR_DIFFICULTY = {1: -1.1, 2: 0.0, 3: 1.1}", "PRIOR_DIFFICULTY = {1: 1.1, 2: 0.0, 3: -1.1}",
          "level 3 starts as the easiest: new pupils get the hardest questions"),
    Break("progress.newcomer_from_zero", "tutor/skill_model/progress.py",
          "        return elo.start(elo.Rating(r.ability, r.ability_count) for r in self.records.values())", "        "
              "return elo.Rating()",
          "a skill not yet practised ignores the pupil's ability in the others"),
    Break("progress.choice_ignores_target", "tutor/skill_model/progress.py",
          "elo.choose_difficulty(model.ability(skill).value, table[skill], target)",
          "elo.choose_difficulty(model.ability(skill).value, table[skill])",
          "the level is chosen for 75 % whatever the target"),
    Break("progress.learnt_difficulty_ignored", "tutor/skill_model/progress.py",
          "sum(learnt[level]) / len(learnt[level]) if learnt.get(level) else prior", "prior",
          "the difficulties learnt from the pupils' answers never change the choice"),
    Break("progress.elo_not_updated", "tutor/skill_model/progress.py",
          "        rate_question(db, model, record, question, correct, elo_guess(p_guess, hints))", "        pass",
          "answers move neither the pupil's ability nor the question's difficulty"),
    Break("progress.elo_guess_ignored", "tutor/skill_model/progress.py",
          "        rate_question(db, model, record, question, correct, elo_guess(p_guess, hints))",
          "        rate_question(db, model, record, question, correct, 0.0)",
          "a lucky tap or a hinted answer moves the Elo ratings as much as a typed one"),
    Break("progress.fitted_params_ignored", "tutor/skill_model/progress.py",
          "    fitted = model.params.get(skill)", "    fitted = None",
          "the fitted parameters are never used: the defaults judge every answer"),
    Break("progress.oldest_version", "tutor/skill_model/progress.py",
          "newer.version > SkillParams.version", "newer.version < SkillParams.version",
          "the oldest fitted version is used instead of the newest"),
    Break("elo.k_not_falling", "tutor/skill_model/elo.py",
          "return k0 / (1 + decay * count)", "return k0",
          "the K-factor does not fall with the number of answers"),
    Break("elo.guess_dropped", "tutor/skill_model/elo.py",
          "return guess + (1 - guess) * logistic", "return logistic",
          "the expected score ignores the guess chance of a button question"),
    Break("skill_versions.retries_fitted", "tutor/skill_model/versions.py",
          ".where(AttemptRecord.first_try.is_(True), AttemptRecord.readable.is_(True))\n        .order_by(",
          ".where(AttemptRecord.readable.is_(True))\n        .order_by(",
          "retries are fitted as if they were first answers"),
    Break("classroom.target_unchecked", "tutor/classroom.py",
          "(not target_percent.isdigit() or int(target_percent) not in TARGET_PERCENTS)", "(not "
              "target_percent.isdigit())",
          "a class may aim at any share of right answers, 1 % or 99 %"),
    Break("estimate_sum.hard_tolerance_loose", "tutor/drills/estimate_sum.py",
          "TOLERANCE = {1: 20, 2: 10, 3: 5}", "TOLERANCE = {1: 20, 2: 10, 3: 10}",
          "an estimated sum at the hardest level is allowed 10 off instead of 5"),
    Break("mean.hard_tolerance_loose", "tutor/drills/mean.py",
          "MEAN_TOLERANCE = {1: 5, 2: 3, 3: 2}", "MEAN_TOLERANCE = {1: 5, 2: 3, 3: 3}",
          "an estimated mean at the hardest level is allowed 3 off instead of 2"),
    # --- web security ------------------------------------------------------------------------------
    Break("security.no_frame_options", "tutor/web/security.py",
          '    "X-Frame-Options": "DENY",\n', "",
          "the X-Frame-Options header is dropped"),
    Break("security.no_csp", "tutor/web/security.py",
          '    "Content-Security-Policy": CONTENT_SECURITY_POLICY,\n', "",
          "the Content-Security-Policy header is dropped"),
    Break("security.csp_inline_scripts", "tutor/web/security.py",
          "\"script-src 'self'\",", "\"script-src 'self' 'unsafe-inline'\",",
          "the Content-Security-Policy allows inline scripts"),
    Break("security.csp_framing", "tutor/web/security.py",
          "\"frame-ancestors 'none'\",", '"frame-ancestors *",',
          "the Content-Security-Policy lets any site frame the app"),
    Break("security.no_nosniff", "tutor/web/security.py",
          '    "X-Content-Type-Options": "nosniff",\n', "",
          "the X-Content-Type-Options header is dropped"),
    Break("security.no_csrf", "tutor/web/security.py",
          "    csrf.init_app(app)", "    pass",
          "CSRF protection is never switched on"),
    Break("app.csrf_exempt_lessons", "tutor/app.py",
          "        main.bp,\n        lessons.bp,\n", "        main.bp,\n        security.csrf.exempt(lessons.bp),\n",
          "the lesson blueprint is exempt from CSRF protection"),
    Break("app.cookie_not_host_only", "tutor/app.py",
          'SESSION_COOKIE_NAME="__Host-session"', 'SESSION_COOKIE_NAME="session"',
          "behind TLS the session cookie lacks the __Host- prefix (a sibling domain could plant one)"),
    Break("app.cookie_not_httponly", "tutor/app.py",
          "SESSION_COOKIE_HTTPONLY=True,", "SESSION_COOKIE_HTTPONLY=False,",
          "scripts can read the session cookie"),
    Break("auth.safe_next_double_slash", "tutor/web/auth.py",
          '        or target.startswith("//")\n        or "\\\\" in target\n'
          "        or any(ord(ch) < 32 or ord(ch) == 127 for ch in target)\n    ):\n"
          "        return default\n    parts = urlsplit(target)\n    if parts.scheme or parts.netloc:",
          '        or "\\\\" in target\n'
          "        or any(ord(ch) < 32 or ord(ch) == 127 for ch in target)\n    ):\n"
          "        return default\n    parts = urlsplit(target)\n    if parts.scheme:",
          "safe_next sends a signed-in teacher on to //other.host (both of its host guards dropped)"),
    Break("auth.safe_next_backslash", "tutor/web/auth.py",
          '        or "\\\\" in target\n', "",
          "safe_next accepts /\\other.host, which browsers read as //other.host"),
    Break("auth.old_session_kept", "tutor/web/auth.py",
          '    database = db.session()\n    accounts.close_session(database, session.get("sid"))\n    chosen =',
          "    database = db.session()\n    chosen =",
          "signing in does not end the session the cookie held before (no renewal)"),
    Break("auth.session_not_cleared", "tutor/web/auth.py",
          "    session.clear()\n    session.permanent = True", "    session.permanent = True",
          "signing in keeps whatever the old cookie session held"),
    Break("auth.sign_out_keeps_session", "tutor/web/auth.py",
          'def end_session() -> None:\n    database = db.session()\n    accounts.close_session(database, '
          'session.get("sid"))',
          "def end_session() -> None:\n    database = db.session()",
          "signing out clears the cookie but the server-side session stays valid"),
    Break("auth.cookie_believed_forever", "tutor/web/auth.py",
          '    return 0 <= now.timestamp() - checked["at"] < current_app.config["SESSION_CHECK_SECONDS"]',
          "    return True",
          "a signed cookie is believed without asking the database again: a sign-out elsewhere, a deleted pupil "
          "or an idle sign-in never ends it"),
    Break("auth.sign_in_read_every_request", "tutor/web/auth.py",
          "        if not token or not _recent(checked, now):", "        if True:",
          "the sign-in is read from the database on every request, every lesson step included"),
    Break("auth.class_read_per_step", "tutor/web/auth.py",
          '        set_committed_value(pupil, "school_class", school_class)\n', "",
          "a pupil's class is read from the database on every step, though the cookie knows what a step needs"),
    Break("auth.cookie_keeps_the_secret", "tutor/web/auth.py",
          'PUPIL_FACTS = ("id", "public_id", "name", "is_guest", "class_id")',
          'PUPIL_FACTS = ("id", "public_id", "name", "is_guest", "class_id", "secret")',
          "the cookie, which the browser can read, carries the pupil's picture password"),
    Break("auth.teacher_throttle_ignored", "tutor/web/auth.py",
          "    if wait:\n        flash(wait_message(wait), \"error\")\n        return "
          "render_template(\"teacher_sign_in.html\"",
          "    if False:\n        flash(wait_message(wait), \"error\")\n        return "
          "render_template(\"teacher_sign_in.html\"",
          "a teacher's password can be guessed without waiting"),
    Break("auth.any_pictures", "tutor/web/auth.py",
          "if given is None or not accounts.secret_matches(pupil.secret, given):", "if given is None:",
          "any pictures (or PIN) sign a pupil in"),
    # --- guessing limits (issue 25) -----------------------------------------------------------------
    Break("guessing.checked_before_counted", "tutor/guessing.py",
          "        limits.hit(db, limits.PUPIL_TRIES, pupil.public_id, now),\n",
          "        limits.waiting(db, limits.PUPIL_TRIES, pupil.public_id, now),\n",
          "a pupil's tries are looked at but never counted, so guesses at one pupil are unlimited"),
    Break("guessing.no_day_limit", "tutor/guessing.py",
          "    return (limits.CLASS_TRIES_HOUR, limits.CLASS_TRIES_DAY)",
          "    return (limits.CLASS_TRIES_HOUR,)",
          "a class's wrong tries are limited per hour only: 720 guesses a day instead of 50"),
    Break("guessing.right_tries_cost_the_class", "tutor/guessing.py",
          "    for limit in class_limits():\n        limits.give_back(db, limit, pupil.class_id, now)\n", "",
          "pupils signing in with the right pictures use up the class's allowance of wrong tries"),
    Break("guessing.class_codes_unlimited", "tutor/guessing.py",
          "return limits.hit(db, limits.ADDRESS_CODE_TRIES, address_key, now) or 0", "return 0",
          "class codes can be tried from one address without limit"),
    Break("accounts.nine_pictures", "tutor/accounts.py",
          '"ball", "flower", "umbrella", "key")', '"ball")',
          "the pad has nine pictures again: 3,024 secrets, a class's pupil found in 30 days instead of 119"),
    Break("auth.teacher_lockout_per_account", "tutor/web/auth.py",
          "accounts.throttle_key(\"account\", f\"{email or '-'} {client_address()}\", secret)",
          "accounts.throttle_key(\"account\", email or \"-\", secret)",
          "a stranger at another address can lock a teacher out with wrong passwords"),
    Break("auth.device_cookie_ignored", "tutor/web/auth.py",
          "    device_key = teacher_device.throttle_key(teacher)\n", "    device_key = None\n",
          "a teacher's own browser waits like any other: a stranger at the school's address locks a colleague out"),
    Break("auth.device_failures_free", "tutor/web/auth.py",
          "        counted = [(device_key, accounts.ACCOUNT)]", "        counted = [(device_key, accounts.ADDRESS)]",
          "a browser with a device cookie may try 500 wrong passwords an hour instead of 5 in 15 minutes"),
    Break("teacher_device.password_not_bound", "tutor/web/teacher_device.py",
          "if public_id != teacher.public_id or not hmac.compare_digest(mark, _password_mark(teacher)):",
          "if public_id != teacher.public_id:",
          "a device cookie given before a password change still escapes the lockout (a stolen one stays good)"),
    Break("teacher_device.no_max_age", "tutor/web/teacher_device.py",
          "found = _signer().loads(signed, max_age=DAYS * 86_400)", "found = _signer().loads(signed)",
          "a device cookie is trusted for ever, not for a year"),
    Break("accounts.address_lockout_small", "tutor/accounts.py",
          "ADDRESS = Throttle(500,", "ADDRESS = Throttle(50,",
          "50 wrong passwords from a school's address lock every teacher there out"),
    Break("teacher.class_pause_not_lifted", "tutor/web/teacher.py",
          "    guessing.let_class_try_again(database, school_class)\n", "",
          "the teacher's button does not let a paused class sign in again"),
    Break("assets.aliases_served", "tutor/web/assets.py",
          "        if not is_normalised(filename):\n            return None\n", "",
          "a static file is served under aliases such as x1/../app.css (each cached and compressed again)"),
    Break("assets.compressed_every_time", "tutor/web/assets.py",
          "        return self.encoded\n\n    def _compress", "        return self._compress()\n\n    def _compress",
          "a static file is compressed again for every request"),
    Break("security.no_opener_policy", "tutor/web/security.py",
          '    "Cross-Origin-Opener-Policy": "same-origin",\n', "",
          "pages lack Cross-Origin-Opener-Policy: a window another site opened can reach into ours"),
    Break("security.no_permissions_policy", "tutor/web/security.py",
          '    "Permissions-Policy": PERMISSIONS_POLICY,\n', "",
          "pages lack Permissions-Policy"),
    Break("security.proxies_unchecked", "tutor/web/security.py",
          'if not self.warned and "HTTP_X_FORWARDED_FOR" not in environ:', "if False:",
          "PROXIES set without a proxy in front goes unnoticed: anyone may choose their address"),
    Break("marking.unreadable_text_stored", "tutor/drills/marking.py",
          '"typed": self.typed if self.status != UNREADABLE else "",', '"typed": self.typed,',
          "an unreadable answer's free text (a name, a telephone number) is kept in the stored run"),
    Break("web_lessons.unreadable_move_in_cookie", "tutor/web/lessons.py",
          '        g.typed_move = request.form.get("expression", "")[:200]\n        return None',
          '        session["typed_move"] = request.form.get("expression", "")[:200]\n        return None',
          "an unreadable typed move's free text rides in the session cookie"),
    Break("classroom.old_work_kept_longer", "tutor/classroom.py",
          "cutoff = now - timedelta(days=months * 365 // 12)", "cutoff = now - timedelta(days=months * 365 // 12 + 30)",
          "the games and answers of pupils who left are kept a month longer than the retention setting says"),
    Break("accounts.common_passwords_allowed", "tutor/accounts.py",
          "    if is_common(password):\n        return \"common\"\n", "",
          "a new teacher password may be one of the most common ones"),
    Break("admin.password_keeps_sessions", "tutor/admin.py",
          "    teacher.password_hash = accounts.hash_password(password)\n"
          "    accounts.close_sessions_of(db, teacher_id=teacher.id)",
          "    teacher.password_hash = accounts.hash_password(password)",
          "a new password leaves the account's other sign-ins (a stolen session) open"),
    Break("auth.disabled_teacher_signs_in", "tutor/web/auth.py",
          "    if teacher.disabled:\n        database.commit()", "    if False:\n        database.commit()",
          "a switched-off teacher account still signs in"),
    Break("admin.delete_leaves_class_without_owner", "tutor/admin.py",
          '        heir.role = "owner"\n', "",
          "deleting a teacher leaves their classes with a co-teacher who cannot delete them (no owner)"),
    Break("teacher.co_teacher_message_tells", "tutor/web/teacher.py",
          '        if error.code != "no_such_teacher":', "        if True:",
          "adding a co-teacher tells whether the e-mail address has an account"),
    Break("auth.sign_up_unlimited", "tutor/web/sign_up.py",
          "    limits.check(database, limits.SIGN_UPS, address_key(), time.time())\n", "",
          "sign-up can be tried without limit (to find which addresses have accounts)"),
    Break("auth.second_factor_skipped", "tutor/web/auth.py",
          "    if teacher.totp_on:\n        return _ask_for_code(teacher, next_page)\n", "",
          "the password alone signs in a teacher who turned the second factor on"),
    Break("second_factor.code_reused", "tutor/second_factor.py",
          "(Teacher.totp_last_step.is_(None)) | (Teacher.totp_last_step < step)", "Teacher.id == teacher.id",
          "a second-factor code seen over a shoulder signs in again within its half minute"),
    Break("second_factor.recovery_code_kept", "tutor/second_factor.py",
          "    used = db.execute(delete(RecoveryCode).where(*found))\n    return used.rowcount == 1",
          "    return db.scalar(select(RecoveryCode.id).where(*found)) is not None",
          "a recovery code signs in again and again"),
    Break("second_factor.tries_unlimited", "tutor/web/second_factor.py",
          "    wait = limits.hit(database, limits.SECOND_FACTOR_TRIES, teacher.id, time.time())",
          "    wait = None",
          "one who has the password may guess the six digits without limit"),
    Break("second_factor.wrong_code_turns_on", "tutor/second_factor.py",
          "    if teacher.totp_on or not accept_code(db, teacher, code, now):", "    if teacher.totp_on:",
          "the second factor is turned on without a code from the app (the teacher may be locked out)"),
    Break("password_reset.link_works_twice", "tutor/admin.py",
          "    db.execute(delete(PasswordReset).where(PasswordReset.teacher_id == teacher.id))\n", "",
          "a password reset link works again after it was used (one read from a mailbox later resets the password), "
          "and one asked for before a password change still sets a password afterwards"),
    Break("password_reset.no_expiry", "tutor/password_reset.py",
          "if row is None or accounts.as_utc(row.expires_at) < now or row.teacher.disabled:",
          "if row is None or row.teacher.disabled:",
          "a password reset token works for ever, not for one hour"),
    Break("web_password_reset.link_from_request_host", "tutor/web/password_reset.py",
          'link = current_app.config["SITE_URL"].rstrip("/") + url_for("password_reset.new_password", signed=signed)',
          'link = url_for("password_reset.new_password", signed=signed, _external=True)',
          "the e-mailed link leads to whatever host the request named (a forged Host header steals the token)"),
    Break("web_password_reset.inbox_flooded", "tutor/web/password_reset.py",
          "if limits.hit(database, EMAILS_PER_ACCOUNT, teacher.id, now) is None:", "if True:",
          "anyone may fill a teacher's inbox with reset e-mails"),
    Break("sign_up.signed_in_at_once_with_mail", "tutor/web/sign_up.py",
          "    if by_mail:\n        return _send_link(form, page)\n", "",
          "with mail configured a new address is still signed in at once (which tells which addresses have accounts)"),
    Break("sign_up.link_works_for_ever", "tutor/web/sign_up.py",
          "details = _signer().loads(signed, max_age=LINK_VALID_SECONDS)", "details = _signer().loads(signed)",
          "an e-mailed sign-up link works for ever, not for one hour"),
    Break("sign_up.inbox_flooded", "tutor/web/sign_up.py",
          "if limits.hit(database, EMAILS_PER_ADDRESS, mail_key, time.time()) is None:", "if True:",
          "anyone may fill an address's inbox with sign-up e-mails"),
    Break("admin.expired_resets_kept", "tutor/admin.py",
          "        resets=delete_expired_resets(db, now),\n", "        resets=0,\n",
          "kortmatte purge leaves expired password reset links (their token hashes) in the database for ever"),
    Break("pupil_data.groups_left_out", "tutor/reports/pupil_data.py",
          '    "group_member": "groups",\n', "",
          "the pupil's JSON export leaves out the groups they are in"),
    Break("pupil_data.other_pupils_answers", "tutor/reports/pupil_data.py",
          "        .where(AttemptRecord.pupil_id == pupil.id)\n", "",
          "the pupil's JSON export holds every pupil's answers"),
    Break("accounts.idle_ignored", "tutor/accounts.py",
          "if now - as_utc(row.last_seen_at) > limits.idle or now - as_utc(row.created_at) > limits.lifetime:",
          "if now - as_utc(row.created_at) > limits.lifetime:",
          "a sign-in left idle does not end"),
    Break("htmx.boosted_gets_fragment", "tutor/web/htmx.py",
          ' and not headers.get("HX-Boosted")', "",
          "a boosted link gets a bare fragment instead of the whole page"),
    Break("classroom.run_for_any_teacher", "tutor/classroom.py",
          "LessonRunRecord.public_id == str(public_id), ClassTeacher.teacher_id == teacher.id)",
          "LessonRunRecord.public_id == str(public_id))",
          "a teacher can open the run of a pupil in another teacher's class"),
    Break("classroom.pupil_for_any_teacher", "tutor/classroom.py",
          "Pupil.public_id == str(public_id), ClassTeacher.teacher_id == teacher.id)",
          "Pupil.public_id == str(public_id))",
          "a teacher can open a pupil of another teacher's class"),
    Break("classroom.goal_default_threshold", "tutor/classroom.py",
          "reached = skills.record_level(skill_record, skill_record.practised_at)",
          "reached = skills.level(skill_record.p_known, skill_record.attempts, evidence=skill_record.evidence)",
          "a homework goal is judged by the default threshold, not the record's"),
    # --- homework goes on: the next game's deal, "Play again", the pupil's own progress page ---------
    Break("classroom.next_deal_per_pupil", "tutor/classroom.py",
          "return class_deal(assignment.seed, started + 1)",
          "return class_deal(assignment.seed + pupil.id, started + 1)",
          "a class deal's games are dealt per pupil: classmates no longer play the same hands"),
    Break("classroom.next_deal_repeats", "tutor/classroom.py",
          "return class_deal(assignment.seed, started + 1)", "return class_deal(assignment.seed, 1)",
          "every game of a class deal repeats the first deal"),
    Break("classroom.class_deal_ignores_game", "tutor/classroom.py",
          'f"{assignment_seed}:{game}"', 'f"{assignment_seed}:2"',
          "the third and later games of a class deal repeat the second"),
    Break("classroom.homework_for_any_classmate", "tutor/classroom.py",
          "    return any(c.pupil_id == pupil.id for c in assignment.chosen)", "    return True",
          "a classmate can start (and play again) homework set for chosen pupils only"),
    Break("web_lessons.play_again_not_homework", "tutor/web/lessons.py",
          'context["homework"] = finished_homework(record, run)', 'context["homework"] = None',
          "Play again after a homework game starts a free game that does not count"),
    Break("web_main.stars_off_by_one", "tutor/web/main.py",
          '"stars": skills.LEVELS.index(cell.level)', '"stars": skills.LEVELS.index(cell.level) + 1',
          "the progress page gives a star for a skill not yet started, and one too many for every level"),
    Break("progress_page.needs_help_hidden", "templates/progress.html",
          "{{ sentences[row.cell.status] }}", "{{ sentences[row.cell.level] }}",
          "a child who needs help with a skill is not told to ask for help"),
    # --- game engines ------------------------------------------------------------------------------
    Break("calculation_war.hand_size_unchecked", "tutor/engine/calculation_war.py",
          "if any(len(hand) > HAND_SIZE for hand in self.hands):", "if any(len(hand) > HAND_SIZE + 1 for hand in "
              "self.hands):",
          "a stored state with six cards in a hand passes validation"),
    Break("calculation_war.cards_counted_not_checked", "tutor/engine/calculation_war.py",
          "sorted(self.card_ids()) != sorted(self.game.card_ids())",
          "len(self.card_ids()) != len(self.game.card_ids())",
          "validation counts the cards instead of checking them: a duplicated card passes"),
    Break("calculation_war.war_second_of_the_rest", "tutor/engine/calculation_war.py",
          "return max(card_sum(c) for c in hand)",
          "return sorted((card_sum(c) for c in hand), reverse=True)[min(1, len(hand) - 1)]",
          "in a war the second-best of the cards left is asked for instead of the best card left (the old reading)"),
    Break("calculation_war.war_no_forfeit", "tutor/engine/calculation_war.py",
          "lost_war = bool(self.wars) and winner is not None and player in self.contenders and side != winner",
          "lost_war = False",
          "the losers of a war keep the cards left in their hands"),
    Break("calculation_war.lowest_wins", "tutor/engine/calculation_war.py",
          "best = max(card_sum(self.played[p][-1]) for p in self.contenders)",
          "best = min(card_sum(self.played[p][-1]) for p in self.contenders)",
          "the lowest circled sum wins the round"),
    Break("shedding.special_as_last_card", "tutor/engine/shedding.py",
          "continue  # a special card may not be the last card", "pass",
          "a special card may be played as the last card"),
    Break("shedding.overslag_not_strict", "tutor/engine/shedding.py",
          "return sum(values) > sum(top_values)", "return sum(values) >= sum(top_values)",
          "Overslag: an equal circled sum is accepted"),
    Break("shedding.extreme_mean_ignored", "tutor/engine/shedding.py",
          "if is_prime(a + b) and a + b > mean:", "if is_prime(a + b):",
          "Extreme: any prime pair sum is accepted, also one below the mean"),
    Break("shedding.tens_friend_over", "tutor/engine/shedding.py",
          "return top + top_of_discard == 10", "return top + top_of_discard >= 10",
          "Tiervenner: any two top numbers of 10 or more are tens-friends"),
    Break("shedding.pair_one_card", "tutor/engine/shedding.py",
          "if first != second:", "if True:",
          "MultiMatch: one card makes a pair with itself"),
    Break("shedding.unlimited_draws", "tutor/engine/shedding.py",
          "if self.drawn < self.game.draw_limit and self.can_draw():", "if self.can_draw():",
          "a player may draw without limit instead of passing"),
    Break("fraction_master.end_points_excluded", "tutor/engine/fraction_master.py",
          "    return low <= fraction <= high", "    return low < fraction < high",
          "a fraction equal to an end point never fits (strict rules always)"),
    Break("fraction_master.strict_ignored", "tutor/engine/fraction_master.py",
          "        return low < fraction < high", "        return low <= fraction <= high",
          "the strict option is ignored: end points always count"),
    Break("fraction_master.interval_unordered", "tutor/engine/fraction_master.py",
          "    return min(first, second), max(first, second)", "    return first, second",
          "an interval laid with the bigger fraction first is empty"),
    Break("fraction_master.empty_interval_laid", "tutor/engine/fraction_master.py",
          "    return tuple(layout for layout in sorted(permutations(cards)) if not is_empty(layout))",
          "    return tuple(sorted(permutations(cards)))",
          "two equal fractions (4/1 and 4/1, 1/1 and 9/9) may be laid as an interval (the old rule)"),
    Break("fraction_master_lesson.empty_interval_not_counted", "tutor/lessons/fraction_master.py",
          'self.narration("layout_equal", value=shown, **params), "fractions", "empty_interval")',
          'self.narration("layout_equal", value=shown, **params), None, "empty_interval")',
          "an interval of two equivalent fractions is refused but not counted as a fractions answer"),
    Break("fraction_master.kocha_no_extra_cards", "tutor/engine/fraction_master.py",
          "target = KOCHA_HAND_SIZE", "target = HAND_SIZE",
          "a Kocha card drawn gives no extra cards"),
    Break("fraction_master.one_card_twice", "tutor/engine/fraction_master.py",
          "for num in cards for den in cards if num != den and", "for num in cards for den in cards if",
          "one card is used as numerator and denominator (3/3 from a single 3)"),
    Break("fraction_master.record_outside_interval", "tutor/engine/fraction_master.py",
          "elif any(not fits(fraction_of(num, den), self.interval, self.strict)"
          " for num, den in record[\"fractions\"]):",
          "elif False:",
          "a stored turn with a fraction outside the interval passes validation"),
    Break("triplesmart.distance_signed", "tutor/engine/triplesmart.py",
          'abs(Fraction(self.submissions[str(p)]["value"]) - self.target)',
          '(Fraction(self.submissions[str(p)]["value"]) - self.target)',
          "closeness without abs(): the value furthest below the target wins"),
    Break("triplesmart.farthest_wins", "tutor/engine/triplesmart.py",
          "        best = min(distances.values())", "        best = max(distances.values())",
          "the expression furthest from the target wins"),
    Break("triplesmart.number_used_twice", "tutor/engine/triplesmart.py",
          "if count > available[number]:", "if count > available[number] + 1:",
          "a card's number may be written twice"),
    Break("triplesmart.others_card", "tutor/engine/triplesmart.py",
          'return SubmitRefusal("not_your_card")', "pass",
          "an expression may use cards the player did not turn"),
    Break("triplesmart.double_kocha_needs_three", "tutor/engine/triplesmart.py",
          "doubles = [p for p in live if self.specials(p) >= 2]",
          "doubles = [p for p in live if self.specials(p) >= 3]",
          "two special cards are not a double Kocha"),
    Break("triplesmart.fraction_literal", "tutor/engine/triplesmart.py",
          '            if "/" in literal:', "            if False:",
          "TripleSmart accepts a fraction such as 8/2 as a card's number"),
    Break("multiwar.sum_not_product", "tutor/engine/multiwar.py",
          "return (1, numbers[0] * numbers[1])", "return (1, numbers[0] + numbers[1])",
          "MultiWar compares sums instead of products"),
    Break("multiwar.double_kocha_needs_three", "tutor/engine/multiwar.py",
          "if sum(map(is_special, turned)) >= 2:", "if sum(map(is_special, turned)) > 2:",
          "two special cards are not a double Kocha"),
    Break("war_family.teammates_war", "tutor/engine/war_family.py",
          "if len({self.side_of(p) for p in leaders}) == 1:", "if len(leaders) == 1:",
          "teammates with equal best results go to war against each other"),
    # --- answers: the control (its tests are known to be strict) -----------------------------------
    Break("answers.improper_mixed_number", "tutor/answers.py",
          "if numerator.value >= denominator.value:", "if numerator.value > denominator.value:",
          "a mixed number with a fraction part of 1 (2 4/4) is accepted"),
    Break("answers.minus_lost", "tutor/answers.py",
          "value = -self.number() if negative else self.number()", "value = self.number()",
          "a minus in front of a single number is dropped"),
    Break("answers.thousands_not_ambiguous", "tutor/answers.py",
          "and len(whole) <= 3 and len(frac) == 3:", "and len(whole) <= 3 and len(frac) == 4:",
          "1.234 in a comma locale is read as a decimal instead of refused as ambiguous"),
    # --- a teacher's week (issue 23): truthful status, groups, changed homework, reports in words --------
    Break("homework_status.level_reached_elsewhere_not_done", "tutor/homework_status.py",
          "return now_there or (work is not None and work.done_at is not None)",
          "return work is not None and work.done_at is not None",
          "a level goal the pupil has already reached shows \"not started\" at 100 % (the bug of issue 23)"),
    Break("homework_status.answers_elsewhere_not_started", "tutor/homework_status.py",
          'return work is not None or (assignment.goal == "skill" and skill.attempts > 0)',
          "return work is not None",
          "a pupil with answers in a level goal's skill is \"not started\" with progress above 0"),
    Break("homework_status.own_due_ignored", "tutor/homework_status.py",
          "due = accounts.as_utc(due_at or assignment.due_at)", "due = accounts.as_utc(assignment.due_at)",
          "a pupil given a later date is still marked late at the homework's due time"),
    Break("classroom.group_homework_for_everyone", "tutor/classroom.py",
          "        return any(m.pupil_id == pupil.id for m in assignment.group.members)", "        return True",
          "homework set for a group can be started by every pupil of the class"),
    Break("classroom.group_homework_not_listed", "tutor/classroom.py",
          "Assignment.everyone.is_(True) | Assignment.id.in_(chosen) | Assignment.group_id.in_(in_groups)",
          "Assignment.everyone.is_(True) | Assignment.id.in_(chosen)",
          "a group's members do not see the homework set for their group"),
    Break("classroom.group_of_another_class", "tutor/classroom.py",
          "PupilGroup.public_id == str(form.group_id), PupilGroup.class_id == school_class.id",
          "PupilGroup.public_id == str(form.group_id)",
          "homework can be set for a group of another teacher's class"),
    Break("classroom.extension_not_later", "tutor/classroom.py",
          "if due_at <= accounts.as_utc(assignment.due_at):", "if due_at is None:",
          "a pupil's own \"later\" date may be earlier than the homework's"),
    Break("classroom.change_not_told", "tutor/classroom.py",
          "    assignment.changed_at = now\n", "",
          "pupils are not told that their teacher changed the homework"),
    Break("groups.group_for_any_teacher", "tutor/groups.py",
          ".where(PupilGroup.public_id == str(public_id), ClassTeacher.teacher_id == teacher.id)",
          ".where(PupilGroup.public_id == str(public_id))",
          "a teacher can open, change and delete another teacher's group"),
    Break("roster.half_imported", "tutor/roster.py",
          "if not check.ok or not check.names:", "if not check.names:",
          "a class list with bad lines is half imported"),
    Break("attention.stuck_needs_more", "tutor/reports/attention.py",
          "if len(wrong) >= STUCK_WRONG:", "if len(wrong) > STUCK_WRONG:",
          "three wrong first tries in a row are not enough to show a pupil as stuck"),
    Break("reports.question_kind_as_code", "tutor/reports/common.py",
          'return texts(kind)["name"]', "return kind",
          "the misconception report names a question by its internal code"),
    Break("dashboards.misconception_of_any_class", "tutor/web/dashboards.py",
          "    school_class = class_or_404(class_id)\n    found = reports.misconception_page(",
          "    school_class = db.session().query(reports.misconceptions.SchoolClass)"
          ".filter_by(public_id=class_id).one()\n    found = reports.misconception_page(",
          "a teacher can list the pupils of another teacher's class who showed a misconception"),
    Break("answer_counts.not_incremented", "tutor/answer_counts.py",
          '"answers": AnswerDayCount.answers + 1,', '"answers": AnswerDayCount.answers,',
          "a pupil's second answer of a kind on the same day is not counted in the misconception report"),
    Break("export.estimate_missing", "tutor/reports/export.py",
          "whole_percent(cell.p_known) if cell.attempts else \"\",", "\"\",",
          "the CSV grid has no estimate for a spreadsheet"),
    Break("classroom.deprecated_zones_offered", "tutor/classroom.py",
          'if "/" in zone and zone in canonical)', 'if "/" in zone)',
          "the time-zone list offers deprecated names such as Africa/Asmera"),
    Break("i18n.english_dates_american", "tutor/web/i18n.py",
          'FORMAT_LOCALES = {"en": "en_GB"}', "FORMAT_LOCALES = {}",
          "English dates and times are written in the US format"),
    Break("speech.nb_fraction_singular", "tutor/speech/nb.py",
          'plural = "halve" if denominator == 2 else part(denominator) + "er"',
          'plural = "halve" if denominator == 2 else part(denominator)',
          'a Norwegian fraction keeps its singular part: "tre firedel" for 3/4'),
    Break("speech.sv_wrong_fraction_word", "tutor/speech/sv.py",
          '4: "fjärdedel",', '4: "fyradel",',
          'the Swedish quarter is a word no school says: "tre fyradelar"'),
    Break("speech.not_equal_left_out", "tutor/speech/reading.py",
          'r"|(?P<sign>[+−·×÷=<>≤≥≠≈*])"', 'r"|(?P<sign>[+−·×÷=<>≤≥≈*])"',
          "the sign ≠ is left in the speakable form instead of its words"),
    Break("speech.nb_one_card_common", "tutor/speech/nb.py",
          'one_before=dict.fromkeys(NEUTER_NOUNS, "ett"),', "one_before={},",
          'a Norwegian count of one neuter noun is said with the common gender: "en kort"'),
    Break("speech.it_ventuno_carte", "tutor/speech/it.py",
          'return words.removesuffix("o")', "return words",
          'an Italian count of 21 before its plural noun keeps its "o": "ventuno carte", not "ventun carte"'),
    Break("audio.single_word_clips", "tutor/speech/audio.py",
          "for length in self.lengths.get(word, ()):", "for length in (1,):",
          'a recording is stitched word by word: "er lik" and a whole sentence are never said as one clip'),
    Break("audio.recorded_again", "tutor/speech/audio.py",
          'if old["sources"].get(phrase) == source and', 'if old["sources"].get(phrase) == phrase and',
          "every build synthesises every phrase again, also those recorded before by the same synthesiser"),
    Break("audio.stale_clips_kept", "tutor/speech/audio.py",
          "            clip.unlink()", "            pass",
          "a clip no library names any more stays on disk for ever"),
    Break("audio.few_number_words", "tutor/speech/audio.py",
          "        if value % 10 == 1:", "        if value % 10 == 2:",
          'a count of one before its noun ("ett kort", "tjueett kort") has no recording'),
    Break("web_audio.clips_not_kept", "tutor/web/audio.py",
          'response.headers["Cache-Control"] = IMMUTABLE', 'response.headers["Cache-Control"] = "no-cache"',
          "a recorded clip is asked for again on every reading instead of being kept for good"),
    Break("web_audio.any_file_served", "tutor/web/audio.py",
          "if not directory or not CLIP_NAME.fullmatch(digest) or not path.is_file():",
          "if not directory or not path.is_file():",
          "a file of the audio folder that is not a clip named by its hash is served"),
    Break("i18n.speakers_without_clips", "tutor/web/i18n.py",
          "    return Spoken(words, clips)",
          "    return Spoken(words, [])",
          "a device without a voice gets no recorded clips: its speakers stay hidden"),
    Break("i18n.markup_read_aloud", "tutor/web/i18n.py",
          "said = [line.striptags() if isinstance(line, Markup) else str(line) for line in said]",
          "said = [str(line) for line in said]",
          "a seat's stacked fraction is read out as its tags: \"span class er lik frac\""),
    Break("lesson_template.scoreboard_silent", "templates/lesson.html",
          "    {{ speaker([], sentences(scoreboard)) }}\n", "\n",
          "the scoreboard has no speaker: a child cannot hear the round and the counts"),
    Break("web_lessons.guests_read_aloud", "tutor/web/lessons.py",
          'context["read_aloud"] = bool(school_class and school_class.read_aloud_on)',
          'context["read_aloud"] = school_class is None or school_class.read_aloud_on',
          "a guest's lesson reads every new text aloud by itself, as only a class that switched it on should"),
    # --- LTI 1.3 launches -----------------------------------------------------------------------------
    Break("misconceptions.kind_totals_overwritten", "tutor/reports/misconceptions.py",
          "        totals[0] += int(answers)\n", "        totals[0] = int(answers)\n",
          "a question kind's answers are the last pupil's, not the class's, once the report reads them per pupil"),
    Break("misconceptions.count_of_one_pupil", "tutor/reports/misconceptions.py",
          "            sum(count for count, _ in by_pupil.values()),",
          "            max(count for count, _ in by_pupil.values()),",
          "a misconception's wrong answers are those of the pupil who showed it most, not the whole class's"),
    Break("links.pattern_every_time", "tutor/web/links.py",
          "    if key not in patterns:", "    if True:",
          "every link is built by url_for again (the report's hundreds of links stay slow)"),
    Break("links.any_value_filled_in", "tutor/web/links.py",
          'UNRESERVED = re.compile(r"[A-Za-z0-9_.~-]+")', 'UNRESERVED = re.compile(r".+")',
          "a value with spaces, slashes or letters like å goes into the address unquoted"),
    Break("demo.no_button_no_move", "tutor/demo.py",
          "return buttons or [move_token(move)", "return buttons and [move_token(move)",
          "the simulated pupil is stuck when the lesson offers no button (Fraction Master's empty interval)"),
    Break("lti.nonce_unchecked", "tutor/lti/launch.py",
          'return refusing("replayed", super().validate_nonce)', "return self",
          "a launch's nonce is not checked: the same launch sent again signs in again"),
    Break("lti.expiry_optional", "tutor/lti/launch.py",
          'REQUIRED_CLAIMS = ["exp", "iat"]', "REQUIRED_CLAIMS = []",
          "a token without an expiry is let in, and stays good for ever"),
    Break("lti.audience_by_issuer_only", "tutor/lti/tool_config.py",
          "query = query.where(LtiPlatform.client_id == str(client_id))", "query = query",
          "the registration is found by the issuer alone: another client id of the same issuer is not told apart"),
    Break("lti.deployment_unchecked", "tutor/lti/tool_config.py",
          "if platform is None or str(deployment_id) not in platform.deployment_ids:", "if platform is None:",
          "any deployment id of a registered platform is let in"),
    Break("lti.pupil_linked_by_name", "tutor/lti/roster.py",
          "    pupil = linked_pupil(db, platform, sub, school_class)\n    if pupil is not None:",
          "    pupil = next((p for p in school_class.pupils if p.name == person.get(\"given_name\")), None)\n"
          "    if pupil is not None:",
          "a learner is linked to the pupil of the same first name, not to their own subject id"),
    Break("lti.surname_stored", "tutor/lti/roster.py",
          'classroom.first_name(person.get("given_name"), person.get("name"), fallback)',
          'classroom.first_name(person.get("name"), person.get("name"), fallback)',
          "a pupil's full name (with the surname) is stored instead of the first name"),
    Break("lti.class_across_platforms", "tutor/lti/roster.py",
          ".where(LtiClassLink.platform_id == platform.id, LtiClassLink.context_id == context)",
          ".where(LtiClassLink.context_id == context)",
          "a platform reaches another platform's class that has the same course id"),
    Break("lti.switched_off_teacher_enters", "tutor/lti/roster.py",
          "    if teacher.disabled:", "    if False:",
          "a teacher account that is switched off still signs in through a platform"),
    Break("sso.expired_token_let_in", "tutor/web/sso.py",
          "token = client.authorize_access_token()",
          "token = client.authorize_access_token(leeway=10**9)",
          "an expired id_token from the school account's provider still signs somebody in"),
    Break("sso.pkce_off", "tutor/web/sso.py",
          '"code_challenge_method": "S256", ', "",
          "a school-account sign-in is asked for without PKCE"),
    Break("sso.hosted_domain_unchecked", "tutor/web/sso.py",
          'if provider.hosted_domain and claims.get("hd") != provider.hosted_domain:', "if False:",
          "a Google account outside the school's Workspace domain signs in"),
    Break("sso.unvouched_teacher_made", "tutor/web/sso.py",
          'may_create = current_app.config["ALLOW_SIGNUP"] or entry.works_at_school(raw_groups)', "may_create = True",
          "any school account becomes a teacher, though the school does not say it teaches and sign-up is off"),
    Break("sso.unconfigured_provider_shown", "tutor/sso/providers.py",
          'if config.get("GOOGLE_CLIENT_ID") and config.get("GOOGLE_CLIENT_SECRET"):', "if True:",
          "the sign-in pages show a Google button though Google is not configured"),
    Break("sso.surname_stored", "tutor/sso/entry.py",
          "classroom.first_name(identity.given_name, identity.name, fallbacks.pupil_name)",
          "classroom.first_name(identity.name, identity.name, fallbacks.pupil_name)",
          "a pupil placed by Feide's groups keeps their full name (with the surname), not the first name"),
    Break("sso.teaching_groups_ignored", "tutor/sso/entry.py",
          "        if group.teaches:\n", "        if not group.teaches:\n",
          "a Feide teacher gets no class for the groups they teach"),
    Break("sso.switched_off_teacher_enters", "tutor/sso/entry.py",
          "    elif teacher.disabled:", "    elif False:",
          "a teacher account that is switched off still signs in with a school account"),
    Break("sso.subject_across_issuers", "tutor/sso/entry.py",
          "select(SignInLink).where(SignInLink.issuer == identity.issuer, SignInLink.subject == identity.subject)",
          "select(SignInLink).where(SignInLink.subject == identity.subject)",
          "an account of one provider signs in whoever another provider's account with the same subject id is"),
    Break("sso.account_linked_twice", "tutor/sso/entry.py",
          '        raise Refused("linked_elsewhere")\n    db.add(', "        return\n    db.add(",
          "linking a school account that signs in somebody else is taken silently instead of refused"),
    Break("lti.deep_link_without_line_item", "tutor/lti/deep_linking.py",
          "    if request.grades:", "    if False:",
          "a lesson linked from a platform with grades gets no gradebook column"),
    Break("lti.deep_link_form_without_csrf", "tutor/web/lti.py",
          'picker = Blueprint("lti_picker", __name__, url_prefix="/lti")',
          'picker = Blueprint("lti_picker", __name__, url_prefix="/lti")\nsecurity.csrf.exempt(picker)',
          "the lesson picker of a deep-linking request takes a post from any site (no CSRF token checked)"),
    Break("lti.learner_chooses_lessons", "tutor/web/lti.py",
          "if choosing and not instructor:", "if False:",
          "a learner's deep-linking request is let in (and makes a pupil) instead of being refused"),
    Break("lti.class_list_takes_inactive", "tutor/lti/names_roles.py",
          'active = str(member.get("status") or "Active") == "Active"', "active = True",
          "a member who left the course (status Inactive) becomes a pupil from the class list"),
    Break("lti.class_list_takes_teachers", "tutor/lti/names_roles.py",
          "return active and bool(roles & set(LEARNER_ROLES)) and not roles & set(INSTRUCTOR_ROLES)",
          "return active",
          "every member of the class list becomes a pupil, the course's teachers too"),
    Break("lti.pupil_race_fails", "tutor/lti/roster.py",
          "    except IntegrityError:  # another launch of the same learner made them first",
          "    except ValueError:  # another launch of the same learner made them first",
          "two launches making the same pupil at once: the second fails instead of finding the first one's pupil"),
    Break("lti.class_race_fails", "tutor/lti/roster.py",
          "        except IntegrityError:  # another teacher's first launch of the course made the class first",
          "        except ValueError:  # another teacher's first launch of the course made the class first",
          "two first launches of a course at once: the second fails instead of finding the class"),
    Break("lti.grade_sent_every_time", "tutor/lti/grades.py",
          "        if score != sent:", "        if True:",
          "every linked pupil's score is sent on every run, changed or not"),
    Break("lti.grade_failure_counts_as_sent", "tutor/lti/grades.py",
          "            failed += 1\n            continue\n", "            failed += 1\n",
          "a score the platform did not accept is recorded as sent, so it is never tried again"),
    Break("lti.line_item_not_recorded", "tutor/web/lti.py",
          "        grades.note_line_item(database, checked.platform(), assignment, claims)\n        database.commit()\n"
          "        return open_homework(",
          "        database.commit()\n        return open_homework(",
          "a pupil's launch of a graded link does not record the platform's gradebook column"),
    Break("lti.key_set_kept_for_ever", "tutor/lti/key_sets.py",
          "if row is None or now - as_utc(row.fetched_at) > LIFETIME:", "if row is None:",
          "a platform's kept key set is never fetched again, however old"),
    Break("lti.key_set_kept_without_the_kid", "tutor/lti/key_sets.py",
          'if not any(key.get("kid") == kid for key in (row.keys or {}).get("keys", [])):', "if False:",
          "a launch signed with the platform's new key is refused until the kept key set is old"),
)
# fmt: on

#: Test files (globs in tests/) that exercise a module without importing it: through the
#: app, a lesson or another module. The files that import the module are added to these.
APP_TESTS = (
    "test_web.py",
    "test_access.py",
    "test_errors.py",
    "test_teacher.py",
    "test_dashboards.py",
    "test_replay.py",
    "test_stale_steps.py",
    "test_choices.py",
    "test_security.py",
    "test_accounts.py",
    "test_run_storage.py",
    "test_guessing.py",
    "test_second_factor.py",
    "test_teacher_device.py",
)
LESSON_TESTS = (
    "test_lesson_runner.py",
    "test_lessons.py",
    "test_stale_steps.py",
    "test_choices.py",
    "test_web.py",
    "test_war_outcomes.py",
    "test_shedding_outcomes.py",
    "test_adaptivity.py",
    "test_run_storage.py",
)
RELATED: dict[str, tuple[str, ...]] = {
    "tutor/speech/nb.py": ("test_speech.py",),
    "tutor/speech/sv.py": ("test_speech.py",),
    "tutor/speech/it.py": ("test_speech.py",),
    "tutor/speech/audio.py": ("test_audio.py",),
    "tutor/web/audio.py": ("test_audio.py",),
    "tutor/skill_model/skills.py": (
        "test_progress.py",
        "test_adaptivity.py",
        "test_web.py",
        "test_reports.py",
        "test_dashboards.py",
        "test_teacher.py",
    ),
    "tutor/skill_model/versions.py": ("test_cli.py", "test_progress.py"),
    "tutor/lessons/calculation_war.py": ("test_kind_choice.py",),
    "tutor/skill_model/progress.py": (
        "test_adaptivity.py",
        "test_teacher.py",
        "test_web.py",
        "test_reports.py",
        "test_dashboards.py",
        "test_teacher.py",
        "test_choices.py",
    ),
    "tutor/lessons/runner.py": LESSON_TESTS,
    "tutor/web/lessons.py": APP_TESTS
    + LESSON_TESTS
    + ("test_homework.py", "test_read_aloud.py", "test_lesson_parts.py"),
    "tutor/steps.py": APP_TESTS + LESSON_TESTS + ("test_teacher.py", "test_demo.py"),
    "tutor/db.py": ("test_stale_steps.py", "test_errors.py", "test_serve.py"),
    "tutor/drills/__init__.py": LESSON_TESTS,
    "tutor/drills/estimate_sum.py": LESSON_TESTS,
    "tutor/drills/mean.py": ("test_drill_catalogue.py", "test_shedding_outcomes.py"),
    "tutor/web/security.py": APP_TESTS,
    "tutor/app.py": APP_TESTS + ("test_config.py",),
    "tutor/web/auth.py": APP_TESTS + ("test_limits.py",),
    "tutor/web/second_factor.py": ("test_second_factor.py", "test_teacher_device.py"),
    "tutor/web/password_reset.py": ("test_password_reset.py",),
    "tutor/web/sign_up.py": ("test_sign_up.py", "test_teacher.py"),
    "tutor/reports/pupil_data.py": ("test_pupil_data.py", "test_teacher.py", "test_progress.py"),
    "tutor/accounts.py": APP_TESTS,
    "tutor/guessing.py": ("test_guessing.py", "test_teacher.py"),
    "tutor/web/teacher.py": APP_TESTS,
    "tutor/web/assets.py": ("test_assets.py",),
    "tutor/admin.py": ("test_cli.py", "test_teacher.py"),
    "tutor/drills/marking.py": ("test_web.py",),
    "tutor/web/htmx.py": APP_TESTS,
    "tutor/classroom.py": APP_TESTS
    + ("test_reports.py", "test_casino_switch.py", "test_homework.py", "test_teacher_week.py", "test_demo.py"),
    "tutor/homework_status.py": ("test_homework_status.py", "test_reports.py", "test_teacher_week.py"),
    "tutor/groups.py": APP_TESTS + ("test_teacher_week.py",),
    "tutor/roster.py": ("test_teacher.py", "test_teacher_week.py"),
    "tutor/lti/launch.py": ("test_lti.py", "test_lti_platform.py"),
    "tutor/lti/tool_config.py": ("test_lti.py", "test_lti_platform.py"),
    "tutor/lti/roster.py": ("test_lti.py", "test_lti_platform.py"),
    "tutor/lti/deep_linking.py": ("test_lti_platform.py",),
    "tutor/lti/names_roles.py": ("test_lti_platform.py",),
    "tutor/lti/grades.py": ("test_lti_platform.py",),
    "tutor/lti/key_sets.py": ("test_lti_platform.py", "test_lti.py"),
    "tutor/web/lti.py": ("test_lti.py", "test_lti_platform.py"),
    "tutor/web/sso.py": ("test_school_sign_in.py",),
    "tutor/sso/providers.py": ("test_school_sign_in.py",),
    "tutor/reports/attention.py": ("test_teacher_week.py", "test_dashboards.py", "test_reports.py"),
    "tutor/reports/common.py": ("test_teacher_week.py", "test_reports.py", "test_dashboards.py"),
    "tutor/reports/misconceptions.py": ("test_reports.py", "test_teacher_week.py", "test_dashboards.py"),
    "tutor/reports/export.py": ("test_reports.py", "test_dashboards.py"),
    "tutor/web/dashboards.py": APP_TESTS + ("test_teacher_week.py",),
    "tutor/web/i18n.py": APP_TESTS + ("test_teacher_week.py", "test_audio.py"),
    "tutor/web/main.py": APP_TESTS + ("test_progress.py", "test_homework.py"),
    "templates/progress.html": ("test_homework.py", "test_progress.py", "test_web.py"),
    "templates/lesson.html": ("test_speech.py",),
    "tutor/engine/calculation_war.py": (
        "test_engine_conformance.py",
        "test_playthroughs.py",
        "test_lessons.py",
        "test_lesson_runner.py",
        "test_war_outcomes.py",
        "test_web.py",
    ),
    "tutor/engine/shedding.py": (
        "test_engine_conformance.py",
        "test_playthroughs.py",
        "test_lessons.py",
        "test_shedding_outcomes.py",
        "test_choices.py",
    ),
    "tutor/engine/three_traits.py": ("test_engine_conformance.py", "test_playthroughs.py", "test_lessons.py"),
    "tutor/engine/fraction_master.py": ("test_engine_conformance.py", "test_playthroughs.py", "test_lessons.py"),
    "tutor/engine/triplesmart.py": (
        "test_engine_conformance.py",
        "test_playthroughs.py",
        "test_lessons.py",
        "test_war_outcomes.py",
    ),
    "tutor/engine/multiwar.py": (
        "test_engine_conformance.py",
        "test_playthroughs.py",
        "test_lessons.py",
        "test_war_outcomes.py",
    ),
    "tutor/engine/war_family.py": (
        "test_engine_conformance.py",
        "test_playthroughs.py",
        "test_lessons.py",
        "test_war_outcomes.py",
        "test_triplesmart.py",
    ),
    "tutor/answers.py": ("test_drills.py", "test_drill_catalogue.py"),
    "tutor/engine/classic_war.py": (
        "test_engine_conformance.py",
        "test_playthroughs.py",
        "test_classic_war.py",
        "test_steal_war.py",
        "test_standard_war_lessons.py",
    ),
    "tutor/engine/strategy_war.py": ("test_engine_conformance.py", "test_playthroughs.py", "test_strategy_war.py"),
    "tutor/engine/casino_war.py": ("test_engine_conformance.py", "test_playthroughs.py", "test_casino_war.py"),
    "tutor/lessons/classic_war.py": (
        "test_standard_war_lessons.py",
        "test_lessons.py",
        "test_language_rules.py",
        "test_drill_points.py",
    ),
    "tutor/lessons/steal_war.py": ("test_standard_war_lessons.py", "test_steal_war.py", "test_lessons.py"),
    "tutor/lessons/strategy_war.py": (
        "test_standard_war_lessons.py",
        "test_strategy_war.py",
        "test_lessons.py",
        "test_drill_points.py",
    ),
    "tutor/lessons/casino_war.py": ("test_standard_war_lessons.py", "test_lessons.py", "test_drill_points.py"),
    "tutor/lessons/triplesmart.py": ("test_drill_points.py", "test_war_outcomes.py", "test_triplesmart.py"),
    "tutor/lessons/fraction_master.py": ("test_fraction_master.py", "test_drill_points.py"),
    "tutor/engine/twenty_nine.py": ("test_engine_conformance.py", "test_playthroughs.py", "test_twenty_nine.py"),
    "tutor/lessons/twenty_nine.py": ("test_twenty_nine.py", "test_lessons.py"),
    "tutor/web/lesson_view.py": ("test_standard_war_lessons.py", "test_web.py", "test_lesson_parts.py"),
    "tutor/engine/gnav.py": ("test_gnav.py", "test_engine_conformance.py", "test_playthroughs.py"),
    "tutor/lessons/gnav.py": ("test_gnav.py", "test_lessons.py"),
}


@dataclass
class Result:
    name: str
    module: str
    bug: str
    outcome: str
    seconds: float
    detail: str = ""  # the first failing test, or why it is an error
    tests: list[str] = field(default_factory=list)


def import_pattern(module: str) -> re.Pattern:
    """A test file imports ``module`` (tutor/a/b.py): ``tutor.a.b`` or ``from tutor.a import ..., b``."""
    dotted = module.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    parent, _, name = dotted.rpartition(".")
    return re.compile(
        rf"\b{re.escape(dotted)}\b(?!\.)|^\s*from {re.escape(parent)} import [^\n]*\b{re.escape(name)}\b", re.M
    )


def related_tests(repo: Path, module: str) -> list[str]:
    """The test files of ``repo`` that import ``module`` or are named for it in RELATED.

    The module's own test file comes first, then the others that import it, then the rest:
    with ``-x`` the likeliest catcher ends the run soonest.
    """
    pattern, globs = import_pattern(module), RELATED.get(module, ())
    stem = Path(module).stem if Path(module).stem != "__init__" else Path(module).parent.name
    found = []
    for path in sorted((repo / "tests").glob("test_*.py")):
        imports = bool(pattern.search(path.read_text(encoding="utf-8")))
        if imports or any(fnmatch(path.name, glob) for glob in globs):
            found.append((stem not in path.stem, not imports, f"tests/{path.name}"))
    return [name for *_, name in sorted(found)]


def pytest_command(python: str, tests: list[str]) -> list[str]:
    return [python, "-m", "pytest", *tests, "-m", MARKERS, "-x", "-q", "-p", "no:cacheprovider", "--hypothesis-seed=0"]


def run_pytest(repo: Path, python: str, tests: list[str], timeout: float) -> tuple[int | None, str]:
    """Run pytest in ``repo``; the exit code (None on timeout) and the output."""
    with tempfile.TemporaryDirectory(prefix="breaks-hypothesis-") as storage:
        env = {
            **os.environ,
            "PYTHONPATH": str(repo),
            "HYPOTHESIS_STORAGE_DIRECTORY": storage,
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        process = subprocess.Popen(
            pytest_command(python, tests),
            cwd=repo,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        try:
            output, _ = process.communicate(timeout=timeout)
            return process.returncode, output
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
            return None, output
        except BaseException:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            raise


def first_failure(output: str) -> str:
    """The first FAILED/ERROR line of pytest's short summary, or the last line of the output."""
    for line in output.splitlines():
        if line.startswith(("FAILED ", "ERROR tests")):
            return line[:300]
    lines = [line for line in output.splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


def backup_path(repo: Path, module: str) -> Path:
    """Where the original of a broken file waits, outside the checkout, until it is restored."""
    key = hashlib.sha256(str(repo).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"breaks-restore-{key}" / module


def restore_leftovers(repo: Path) -> None:
    """Put back any file a killed earlier run left broken in ``repo``."""
    folder = backup_path(repo, "")
    for kept in sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []:
        module = kept.relative_to(folder)
        (repo / module).write_bytes(kept.read_bytes())
        kept.unlink()
        print(f"restored {module}, left broken by a run that was killed", flush=True)


def stop_on_signal(number, frame) -> None:
    """SIGTERM and SIGHUP end the run like Ctrl-C, so the ``finally`` puts the file back."""
    raise KeyboardInterrupt(f"signal {number}")


def failing_test(failure: str) -> str:
    """The test id in a FAILED/ERROR summary line ("" for a collection error, which names no test)."""
    node = failure.split(" ", 1)[1].split(" - ", 1)[0] if failure.startswith(("FAILED ", "ERROR ")) else ""
    return node if node.startswith("tests/") else ""


def try_break(repo: Path, python: str, item: Break, tests: list[str], timeout: float) -> Result:
    """Put the break in, run the tests, put the file back (always).

    A catch counts only when the failing test fails again with the break and passes without
    it; otherwise the failure was a flaky test's (some tests play a lesson on a random deal).
    """
    path = repo / item.module
    start = time.monotonic()
    if not path.exists():
        return Result(item.name, item.module, item.bug, ERROR, 0.0, f"{item.module} does not exist", tests)
    original = path.read_bytes()
    text = original.decode("utf-8")
    count = text.count(item.original)
    if count != 1:
        return Result(
            item.name, item.module, item.bug, ERROR, 0.0, f"the original text occurs {count} times, not once", tests
        )
    keep = backup_path(repo, item.module)
    keep.parent.mkdir(parents=True, exist_ok=True)
    keep.write_bytes(original)  # if this process is killed outright, the next run restores the file from here
    try:
        path.write_text(text.replace(item.original, item.replacement), encoding="utf-8")
        code, output = run_pytest(repo, python, tests, timeout)
        failure = first_failure(output)
        node = failing_test(failure) if code == 1 else ""
        again = run_pytest(repo, python, [node], timeout)[0] if node else code
    finally:
        path.write_bytes(original)
        keep.unlink()
    assert path.read_bytes() == original, f"{item.module} was not restored"
    clean = run_pytest(repo, python, [node], timeout)[0] if node else 0
    seconds = time.monotonic() - start
    if code == 0:
        return Result(item.name, item.module, item.bug, MISSED, seconds, "", tests)
    if code == 1 and again == 1 and clean == 0:
        return Result(item.name, item.module, item.bug, CAUGHT, seconds, failure, tests)
    if code == 1:
        why = "passes when run again with the break" if again == 0 else "fails without the break too"
        return Result(item.name, item.module, item.bug, ERROR, seconds, f"flaky: {failure} ({why})", tests)
    why = f"timeout after {timeout:.0f} s" if code is None else f"pytest exit code {code}: {failure}"
    return Result(item.name, item.module, item.bug, ERROR, seconds, why, tests)


WHOLE_SUITE = ["tests"]


def clean_run_passes(repo: Path, python: str, chosen: list[Break], mode: str, timeout: float) -> bool:
    """Without a break every chosen test must pass, or a failure would count as a catch."""
    tests = WHOLE_SUITE if mode == "all" else sorted({t for item in chosen for t in related_tests(repo, item.module)})
    start = time.monotonic()
    code, output = run_pytest(repo, python, tests, timeout * 2)
    print(
        f"clean run of {len(tests) if mode != 'all' else 'all'} test files: exit code {code} in "
        f"{time.monotonic() - start:.0f} s",
        flush=True,
    )
    node = failing_test(first_failure(output)) if code == 1 else ""
    if node and run_pytest(repo, python, [node], timeout)[0] == 0:
        print(f"warning: a flaky test failed once and passed when run again: {node}", flush=True)
        return True
    if code != 0:
        print(f"the tests fail without any break, so no break can be judged:\n{output[-3000:]}", file=sys.stderr)
    return code == 0


def fresh_clone(python: str) -> Path:
    """A clone of this repository's HEAD in a temporary directory, with its catalogues compiled."""
    where = Path(tempfile.mkdtemp(prefix="breaks-")) / "checkout"
    try:
        subprocess.run(["git", "clone", "--quiet", str(HERE), str(where)], check=True)
        subprocess.run(
            [python, "-m", "babel.messages.frontend", "compile", "-d", "translations"],
            cwd=where,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except BaseException:
        shutil.rmtree(where.parent, ignore_errors=True)
        raise
    return where


def select(names: list[str] | None, modules: list[str] | None) -> list[Break]:
    chosen = [
        b
        for b in BREAKS
        if (not names or b.name in names)
        and (not modules or any(b.module == m or b.module.endswith("/" + m) for m in modules))
    ]
    unknown = set(names or ()) - {b.name for b in BREAKS}
    if unknown:
        raise SystemExit(f"unknown break(s): {', '.join(sorted(unknown))} (see --list)")
    if not chosen:
        raise SystemExit("no break matches --only/--module (see --list)")
    return chosen


def table(results: list[Result]) -> str:
    """Per module: breaks tried, caught, missed (by name) and errors, then the totals."""
    modules = list(dict.fromkeys(r.module for r in results))
    width = max(len(m) for m in modules + ["total"])
    lines = [f"{'module':<{width}}  tried  caught  missed  error  missed breaks", "-" * (width + 50)]
    for module in modules:
        rows = [r for r in results if r.module == module]
        counts = {outcome: sum(r.outcome == outcome for r in rows) for outcome in (CAUGHT, MISSED, ERROR)}
        names = ", ".join(r.name.split(".", 1)[1] for r in rows if r.outcome == MISSED)
        errors = ", ".join(r.name.split(".", 1)[1] + " (error)" for r in rows if r.outcome == ERROR)
        lines.append(
            f"{module:<{width}}  {len(rows):>5}  {counts[CAUGHT]:>6}  {counts[MISSED]:>6}  {counts[ERROR]:>5}  "
            f"{', '.join(filter(None, (names, errors)))}"
        )
    total = {outcome: sum(r.outcome == outcome for r in results) for outcome in (CAUGHT, MISSED, ERROR)}
    lines.append("-" * (width + 50))
    lines.append(f"{'total':<{width}}  {len(results):>5}  {total[CAUGHT]:>6}  {total[MISSED]:>6}  {total[ERROR]:>5}")
    return "\n".join(lines)


def save_json(path: Path, mode: str, seconds: float, results: list[Result]) -> None:
    path.write_text(
        json.dumps(
            {"tests": mode, "minutes": round(seconds / 60, 1), "results": [asdict(r) for r in results]}, indent=2
        )
        + "\n",
        encoding="utf-8",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, help="an existing checkout to break (default: a fresh clone of HEAD)")
    parser.add_argument(
        "--tests",
        choices=("related", "all"),
        default="related",
        help="related test files per module (default) or the whole suite",
    )
    parser.add_argument("--only", action="append", metavar="NAME", help="run only this break (repeatable)")
    parser.add_argument(
        "--module",
        action="append",
        metavar="M",
        help="run only the breaks in this module, e.g. tutor/skill_model/skills.py or skills.py (repeatable)",
    )
    parser.add_argument("--timeout", type=float, default=900, help="seconds per break (default 900)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="save the results as JSON")
    parser.add_argument("--python", default=sys.executable, help="the Python that runs pytest (default: this one)")
    parser.add_argument(
        "--confirm-missed",
        action="store_true",
        help="run the whole suite again for each break the related tests missed",
    )
    parser.add_argument(
        "--no-baseline", action="store_true", help="skip the clean run of the chosen tests before the breaks"
    )
    parser.add_argument("--list", action="store_true", help="print the breaks and exit")
    args = parser.parse_args(argv)

    chosen = select(args.only, args.module)
    if args.list:
        for item in chosen:
            print(f"{item.name:<45} {item.module:<38} {item.bug}")
        return 0
    signal.signal(signal.SIGTERM, stop_on_signal)
    signal.signal(signal.SIGHUP, stop_on_signal)
    repo = args.repo.resolve() if args.repo else fresh_clone(args.python)
    restore_leftovers(repo)
    print(f"checkout: {repo}\ntests: {args.tests}, {len(chosen)} breaks, timeout {args.timeout:.0f} s each", flush=True)
    began = time.monotonic()
    results = []
    try:
        if not args.no_baseline and not clean_run_passes(repo, args.python, chosen, args.tests, args.timeout):
            return 2
        for number, item in enumerate(chosen, 1):
            tests = WHOLE_SUITE if args.tests == "all" else related_tests(repo, item.module)
            result = try_break(repo, args.python, item, tests, args.timeout)
            if result.detail.startswith("flaky"):  # a test that fails now and then: judge the break once more
                print(f"       {item.name}: {result.detail}; trying it again", flush=True)
                result = try_break(repo, args.python, item, tests, args.timeout)
            if result.outcome == MISSED and args.confirm_missed and args.tests == "related":
                confirmed = try_break(repo, args.python, item, WHOLE_SUITE, args.timeout)
                confirmed.seconds += result.seconds
                confirmed.detail = f"missed by the related tests; whole suite: {confirmed.detail or confirmed.outcome}"
                result = confirmed
            results.append(result)
            if args.json:  # after every break, so a run that is stopped keeps what it measured
                save_json(args.json, args.tests, time.monotonic() - began, results)
            print(
                f"[{number}/{len(chosen)}] {result.outcome:<6} {result.seconds:6.0f} s  {item.name}  {result.detail}",
                flush=True,
            )
    finally:
        kept = backup_path(repo, "")
        if kept.exists() and not any(p.is_file() for p in kept.rglob("*")):
            shutil.rmtree(kept)
        if not args.repo:
            shutil.rmtree(repo.parent, ignore_errors=True)
    elapsed = time.monotonic() - began
    if results:
        print()
        print(table(results))
        print(f"\n{len(results)} breaks in {elapsed / 60:.1f} min ({args.tests} tests)")
    if args.json:
        save_json(args.json, args.tests, elapsed, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
