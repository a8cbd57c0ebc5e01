"""The grader's half of needle's hints: a raised exception explained from trusted pieces only.

The worker (the student's process) sends ``needle.hints.classify``'s plain data; this side reads
the line from the cells it ran, which were read from the submitted file, and lets
``needle.hints.message`` check every detail against that line.
"""
from __future__ import annotations

from needle.hints import classify, message  # noqa: F401  (the worker imports classify from here)


def explain(exc_name: str, info: dict, cells: list[str], op_names: frozenset | None = None) -> str:
    """The student's message for a raised exception. ``cells`` are the sources the grader ran;
    ``info`` is the worker's claim (cause, detail, where = [cell index, line])."""
    where = info.get("where") if isinstance(info, dict) else None
    lines: list[str] = []
    line_no = 0
    if (isinstance(where, (list, tuple)) and len(where) == 2 and all(type(v) is int for v in where)
            and 0 <= where[0] < len(cells)):
        lines = cells[where[0]].splitlines()
        line_no = where[1] if 1 <= where[1] <= len(lines) else 0
    return message(exc_name, info if isinstance(info, dict) else {}, lines, line_no, op_names)
