"""What the teacher's dashboards read: class grid, assignment view, pupil page, misconceptions, CSV.

One module per report (grid, homework, pupil, misconceptions, export) and the words they
share (common); this package gathers their public names.

Plain SQLAlchemy, no Flask: the web pages and the ``kortmatte`` command share it. Every
report runs a fixed number of statements whatever the size of the class:

* class grid: the class's pupils, then all their skill records in one query;
* assignment view: the assigned pupils, their :class:`AssignmentWork` summaries (and, for a
  skill goal, their records in that skill): no answers are counted again;
* misconception report: one GROUP BY over the week's readable answers of the class, filtered
  on ``pupil_id IN (the class)`` and ``created_at`` within the week (the index
  ``attempt(pupil_id, created_at)`` serves it), then the few example answers read by id;
* pupil page: skill history (grouped per local day in SQL), current records, the last answers,
  lesson runs with their question counts, homework.

Texts are English source strings marked with :func:`tutor.text.N_` or :class:`Text` values;
the web layer translates them, the command line shows them in English.

CSV files: UTF-8 with a byte order mark (so Excel reads the accents), a header row, and the
delimiter that the teacher's spreadsheet expects by default: ``;`` where the decimal sign is a
comma (nb, sv, it), ``,`` for English. Any cell starting with ``= + - @`` (or a tab or carriage
return) gets a leading apostrophe, so a spreadsheet never runs it as a formula.
"""

from __future__ import annotations

from tutor.reports.common import (
    Gettext,
    untranslated,
    LEVEL_WORDS,
    STATUS_WORDS,
    DONE_LATE,
    ERROR_DESCRIPTIONS,
    UNKNOWN_ERROR,
    error_description,
    PupilRef,
    grid_skill_ids,
    grid_skills,
    as_utc_or_none,
    name_key,
    question_prompt,
    choice_label,
    misconception_text,
)
from tutor.reports.grid import (
    SORT_HELP,
    SORT_NAME,
    DEFAULT_SORT,
    Cell,
    EMPTY_CELL,
    cell_of,
    GridRow,
    Grid,
    grid_sort,
    sort_rows,
    class_grid,
)
from tutor.reports.homework import (
    WorkRow,
    AssignmentReport,
    assignment_report,
    status_word,
)
from tutor.reports.pupil import (
    HISTORY_WEEKS,
    History,
    day_starts,
    skill_history,
    ChartLine,
    Chart,
    chart,
    pupil_skills,
    AnswerRow,
    RECENT_ANSWERS,
    recent_answers,
    RunRow,
    RECENT_RUNS,
    lesson_runs,
    HomeworkRow,
    pupil_homework,
)
from tutor.reports.misconceptions import (
    WEEK_PATTERN,
    TOP_MISCONCEPTIONS,
    TOP_QUESTIONS,
    EXAMPLES,
    week_of,
    parse_week,
    week_label,
    Example,
    MisconceptionRow,
    QuestionRow,
    MisconceptionReport,
    misconception_report,
)
from tutor.reports.export import (
    ClassSummary,
    all_classes,
    BOM,
    CSV_DELIMITERS,
    FORMULA_STARTS,
    csv_delimiter,
    safe_cell,
    to_csv,
    grid_table,
    assignment_table,
    skills_catalogue_name,
    safe_filename,
)

__all__ = [
    'Gettext', 'untranslated', 'LEVEL_WORDS', 'STATUS_WORDS', 'DONE_LATE', 'ERROR_DESCRIPTIONS',
    'UNKNOWN_ERROR', 'error_description', 'PupilRef', 'grid_skill_ids', 'grid_skills',
    'as_utc_or_none', 'name_key', 'question_prompt', 'choice_label', 'misconception_text',
    'SORT_HELP', 'SORT_NAME', 'DEFAULT_SORT', 'Cell', 'EMPTY_CELL', 'cell_of', 'GridRow', 'Grid',
    'grid_sort', 'sort_rows', 'class_grid', 'WorkRow', 'AssignmentReport', 'assignment_report',
    'status_word', 'HISTORY_WEEKS', 'History', 'day_starts', 'skill_history', 'ChartLine', 'Chart',
    'chart', 'pupil_skills', 'AnswerRow', 'RECENT_ANSWERS', 'recent_answers', 'RunRow',
    'RECENT_RUNS', 'lesson_runs', 'HomeworkRow', 'pupil_homework', 'WEEK_PATTERN',
    'TOP_MISCONCEPTIONS', 'TOP_QUESTIONS', 'EXAMPLES', 'week_of', 'parse_week', 'week_label',
    'Example', 'MisconceptionRow', 'QuestionRow', 'MisconceptionReport', 'misconception_report',
    'ClassSummary', 'all_classes', 'BOM', 'CSV_DELIMITERS', 'FORMULA_STARTS', 'csv_delimiter',
    'safe_cell', 'to_csv', 'grid_table', 'assignment_table', 'skills_catalogue_name',
    'safe_filename',
]
