"""The grader's half of needle's hints: a raised exception explained from trusted pieces only.

The worker (the student's process) sends ``coursekit.hints.classify``'s plain data; this side reads
the line from the cells it ran, which were read from the submitted file, and lets
``coursekit.hints.message`` check every detail against that line.
"""
from __future__ import annotations

import re

from coursekit.hints import CAUSES, message, no_line_running


def explain(exc_name: str, info: dict, cells: list[str], op_names: frozenset | None = None,
            course_cells: frozenset = frozenset()) -> str:
    """The student's message for a raised exception. ``cells`` are the sources the grader ran, those
    numbered in ``course_cells`` the course's own (setup cells); ``info`` is the worker's claim
    (cause, detail, where = [cell index, line]). A line of a course cell is never quoted as the
    student's: the worker can claim any cell (red team, round 9), and an honest one names a setup
    cell only when the course's code raised on something the student's code gave it."""
    where = info.get("where") if isinstance(info, dict) else None
    if isinstance(where, (list, tuple)) and len(where) == 2 and where[0] in course_cells:
        where = None
    lines: list[str] = []
    line_no = 0
    if (isinstance(where, (list, tuple)) and len(where) == 2 and all(type(v) is int for v in where)
            and 0 <= where[0] < len(cells)):
        lines = cells[where[0]].splitlines()
        line_no = where[1] if 1 <= where[1] <= len(lines) else 0
    text = message(exc_name, info if isinstance(info, dict) else {}, lines, line_no, op_names)
    name = info.get("detail") if isinstance(info, dict) and info.get("cause") == "name_not_defined" else None
    if isinstance(name, str) and name.isidentifier() and _set_by_a_line_not_run(name, cells):
        text = text.replace(CAUSES["name_not_defined"].format(detail=f" (`{name}`)"), (
            f"`{name}` is set in a cell you added, by a line that calls something: of the cells you add, the grader "
            "runs only the definitions (def, class, import, assignments that call nothing); set it in your task's "
            "cell instead"))
    if where is None and isinstance(info, dict) and "where" in info and info.get("cause") != "not_implemented":
        # The worker compiles every cell as "<cell N>", so classify finding no such frame means no
        # line of the student's was running: needle or the grader raised it on something their
        # code had returned or stored (a forward's output of the wrong shape, ...).
        text = no_line_running(text, exc_name)
    return text


def _set_by_a_line_not_run(name: str, cells: list[str]) -> bool:
    """Does a line of an added cell that the grader did not run (notebook.NOT_RUN) assign ``name``?"""
    from ..notebook import NOT_RUN

    assigns = re.compile(rf"{re.escape(NOT_RUN)}\s*{re.escape(name)}\s*(?::[^=]*)?=(?!=)")
    return any(assigns.match(line) for cell in cells for line in cell.splitlines())
