"""What the teacher's dashboards read: class grid, assignment view, pupil page, misconceptions, CSV.

One module per report (grid, attention, homework, pupil, misconceptions, export, and pupil_data: everything
about one pupil as JSON) and the words they share (common); this package gathers their public names.

Plain SQLAlchemy, no Flask: the web pages and the ``kortmatte`` command share it. Every
report runs a fixed number of statements whatever the size of the class:

* class grid: the class's pupils, then all their skill records in one query (on the page also
  their last activity and current homework, :mod:`tutor.reports.attention`);
* needs-attention panel: each pupil's latest first tries in one statement (a UNION ALL of one
  indexed read per pupil), the last activity, the homework summaries;
* assignment view: the assigned pupils, their :class:`AssignmentWork` summaries (and, for a
  skill goal, their records in that skill): no answers are counted again;
* misconception report: three GROUP BYs over the class's per-day answer counts of the week
  (:class:`AnswerDayCount`, kept as answers are stored by :mod:`tutor.answer_counts`): the
  readable and wrong answers per question kind and misconception, then for the misconceptions
  shown the wrong answers per pupil and per value typed; then the few example answers read by id with their questions,
  each pupil's last such answer without its question, the pupils' names and their levels in
  the skills shown;
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

from tutor.reports.attention import (
    DUE_WINDOW_DAYS,
    INACTIVE_DAYS,
    LATEST_FIRST_TRIES,
    STUCK_DAYS,
    STUCK_WRONG,
    Attention,
    Panel,
    PupilHomework,
    Stuck,
    attention_panel,
    class_homework,
    last_active,
    latest_first_tries,
    stuck_skills,
)
from tutor.reports.common import (
    DONE_LATE,
    LEVEL_WORDS,
    STATUS_WORDS,
    UNKNOWN_KIND,
    Gettext,
    PupilRef,
    as_utc_or_none,
    choice_label,
    grid_skill_ids,
    grid_skills,
    kind_name,
    name_key,
    question_prompt,
    untranslated,
)
from tutor.reports.export import (
    BOM,
    CSV_DELIMITERS,
    FORMULA_STARTS,
    SKILL_COLUMNS,
    ClassSummary,
    all_classes,
    assignment_table,
    csv_delimiter,
    grid_table,
    safe_cell,
    safe_filename,
    skills_catalogue_name,
    to_csv,
    whole_percent,
)
from tutor.reports.grid import (
    DEFAULT_SORT,
    EMPTY_CELL,
    SORT_HELP,
    SORT_NAME,
    Cell,
    Grid,
    GridRow,
    cell_of,
    class_grid,
    grid_sort,
    sort_rows,
)
from tutor.reports.homework import (
    AssignmentReport,
    WorkRow,
    assignment_report,
    status_word,
)
from tutor.reports.misconceptions import (
    EXAMPLES,
    TOP_MISCONCEPTIONS,
    TOP_PUPILS,
    TOP_QUESTIONS,
    WEEK_PATTERN,
    Example,
    MisconceptionPage,
    MisconceptionReport,
    MisconceptionRow,
    PupilSeen,
    QuestionRow,
    ReportWeek,
    Suggestion,
    misconception_page,
    misconception_report,
    parse_week,
    report_week,
    suggested_game,
    suggested_level,
    week_label,
    week_of,
)
from tutor.reports.pupil import (
    HISTORY_WEEKS,
    RECENT_ANSWERS,
    RECENT_RUNS,
    AnswerRow,
    Chart,
    ChartLine,
    History,
    HomeworkRow,
    RunRow,
    chart,
    day_starts,
    lesson_runs,
    pupil_homework,
    pupil_skills,
    recent_answers,
    skill_history,
)

__all__ = [
    "DUE_WINDOW_DAYS",
    "INACTIVE_DAYS",
    "LATEST_FIRST_TRIES",
    "STUCK_DAYS",
    "STUCK_WRONG",
    "Attention",
    "Panel",
    "PupilHomework",
    "Stuck",
    "attention_panel",
    "class_homework",
    "last_active",
    "latest_first_tries",
    "stuck_skills",
    "UNKNOWN_KIND",
    "kind_name",
    "SKILL_COLUMNS",
    "whole_percent",
    "PupilSeen",
    "Suggestion",
    "suggested_game",
    "suggested_level",
    "Gettext",
    "untranslated",
    "LEVEL_WORDS",
    "STATUS_WORDS",
    "DONE_LATE",
    "PupilRef",
    "grid_skill_ids",
    "grid_skills",
    "as_utc_or_none",
    "name_key",
    "question_prompt",
    "choice_label",
    "SORT_HELP",
    "SORT_NAME",
    "DEFAULT_SORT",
    "Cell",
    "EMPTY_CELL",
    "cell_of",
    "GridRow",
    "Grid",
    "grid_sort",
    "sort_rows",
    "class_grid",
    "WorkRow",
    "AssignmentReport",
    "assignment_report",
    "status_word",
    "HISTORY_WEEKS",
    "History",
    "day_starts",
    "skill_history",
    "ChartLine",
    "Chart",
    "chart",
    "pupil_skills",
    "AnswerRow",
    "RECENT_ANSWERS",
    "recent_answers",
    "RunRow",
    "RECENT_RUNS",
    "lesson_runs",
    "HomeworkRow",
    "pupil_homework",
    "WEEK_PATTERN",
    "TOP_MISCONCEPTIONS",
    "TOP_PUPILS",
    "TOP_QUESTIONS",
    "EXAMPLES",
    "week_of",
    "parse_week",
    "week_label",
    "Example",
    "MisconceptionRow",
    "QuestionRow",
    "MisconceptionReport",
    "misconception_report",
    "ReportWeek",
    "report_week",
    "MisconceptionPage",
    "misconception_page",
    "ClassSummary",
    "all_classes",
    "BOM",
    "CSV_DELIMITERS",
    "FORMULA_STARTS",
    "csv_delimiter",
    "safe_cell",
    "to_csv",
    "grid_table",
    "assignment_table",
    "skills_catalogue_name",
    "safe_filename",
]
