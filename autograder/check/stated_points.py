"""Point totals stated in prose, checked against the tasks' declarations.

A notebook or a guide that says "Task 3.3 (stretch, 12 points)" or "12 of its 32 points" goes
stale the day a rung's points change; nothing else would notice. ``problems`` reads every such
statement in the notebooks' markdown and the docs and compares it with the suites' declarations
(a task's points) and the notebooks' totals (the sum of their tasks'). The statements it reads:

* ``Task 3.3 (stretch, 12 points)``, ``Tasks 6.1 and 6.2 (16 points)``: the tasks' points;
* ``Tasks 3.1 and 3.2 are worth 10 each``: each task's points;
* ``12 of its 32 points``, ``12 of the notebook's 32 points``: the tasks named just before in the
  same sentence, and the total of their notebook.
A number of points stated in any other form is reported as one the check cannot read. A guide's
"Task 3.3" may mean a task of any of the course's lectures: its statement holds when it is true of
one of them.
"""
from __future__ import annotations

import re
from pathlib import Path

from .. import notebook as nbmod
from ..course import Assignment
from .manifest import declared

TASKS = r"Tasks? (\d+\.\d+)((?:(?:, | and )\d+\.\d+)*)"
IN_PARENTHESES = re.compile(TASKS + r"[^()]*?\((?:[^()]*?, )?(\d+) points\)")
WORTH_EACH = re.compile(TASKS + r" (?:are|is) worth (\d+)(?: points)?( each)?")
PART_OF_TOTAL = re.compile(r"(\d+) of (?:its|the notebook's|the notebook’s) (\d+) points")
ANY_POINTS = re.compile(r"\b(\d+) points\b|\bworth (\d+)\b")


def _ids(first: str, rest: str) -> list[str]:
    return [first] + re.findall(r"\d+\.\d+", rest)


def _sentences(text: str):
    """A paragraph's sentences, each on one line (markdown's emphasis marks dropped)."""
    for paragraph in re.split(r"\n\s*\n", text):
        flat = re.sub(r"\s+", " ", paragraph.replace("**", "").replace("*", ""))
        yield from re.split(r"(?<=\.)\s+(?=[A-Z(])", flat)


def statements(text: str, where: str, tasks: dict, totals: dict) -> list[str]:
    """The problems of the point statements in ``text``: each stated number against the declared one."""
    problems = []

    def points(ids):
        missing = [t for t in ids if t not in tasks]
        return None if missing else sum(tasks[t]["points"] for t in ids)

    def compare(what: str, stated: float, actual, sentence: str):
        if actual is None:
            problems.append(f"{where}: {what} is stated, but no such task is declared: {sentence!r}")
        elif float(stated) != float(actual):
            problems.append(f"{where}: {what} is {actual:g}, the text says {stated}: {sentence!r}")

    for sentence in _sentences(text):
        read: set[int] = set()  # the positions of the numbers a rule read
        for m in IN_PARENTHESES.finditer(sentence):
            ids = _ids(m.group(1), m.group(2))
            compare(f"Task {' + '.join(ids)}'s points", m.group(3), points(ids), sentence)
            read.add(m.start(3))
        for m in WORTH_EACH.finditer(sentence):
            ids = _ids(m.group(1), m.group(2))
            for task in ids if m.group(4) else [" + ".join(ids)]:
                compare(f"Task {task}'s points", m.group(3), points(task.split(" + ")), sentence)
            read.add(m.start(3))
        for m in PART_OF_TOTAL.finditer(sentence):
            named = re.findall(TASKS, sentence[:m.start()])
            if not named:
                problems.append(f"{where}: 'N of M points' with no task named before it: {sentence!r}")
                continue
            ids = _ids(*named[-1])
            compare(f"Task {' + '.join(ids)}'s points", m.group(1), points(ids), sentence)
            notebook = tasks[ids[0]]["notebook"] if ids[0] in tasks else None
            compare(f"notebook {notebook}'s total", m.group(2), totals.get(notebook), sentence)
            read |= {m.start(1), m.start(2)}
        if not re.search(r"\bTasks? \d|\bnotebook|\bof \d\d\b", sentence):
            continue  # points not of a task or a notebook ("-0.8 points" of a late penalty)
        for m in ANY_POINTS.finditer(sentence):
            start = m.start(1) if m.group(1) else m.start(2)
            if start not in read and (m.group(1) or m.group(2)) != "0":
                problems.append(f"{where}: a number of points this check cannot read (say it as 'Task N.M (K points)' "
                                f"or 'K of its M points'): {sentence!r}")
    return problems


def _declarations(assignment: Assignment) -> tuple[dict, dict]:
    """The assignment's tasks (as ``declared``) and its notebooks' totals."""
    tasks = declared(assignment)
    totals: dict[str, float] = {}
    for task in tasks.values():
        totals[task["notebook"]] = totals.get(task["notebook"], 0) + task["points"]
    return tasks, totals


def problems(assignment: Assignment, docs: list[Path]) -> list[str]:
    """Every point statement of the assignment's notebooks (markdown) that disagrees with its
    declarations, and of ``docs`` that agrees with no lecture of the course, or that this check
    cannot read."""
    tasks, totals = _declarations(assignment)
    found = []
    for name in assignment.notebooks():
        for number, cell in enumerate(nbmod.read_notebook(assignment.source_notebook(name))["cells"]):
            if cell.get("cell_type") == "markdown":
                source = "".join(cell.get("source", ""))
                found += statements(source, f"{name} cell {number}", tasks, totals)
    others = [_declarations(assignment.course.assignment(n)) for n in assignment.course.assignments()
              if n != assignment.name]
    for doc in docs:
        for paragraph in re.split(r"\n\s*\n", doc.read_text(encoding="utf-8")):
            wrong = statements(paragraph, doc.name, tasks, totals)
            if wrong and all(statements(paragraph, doc.name, *other) for other in others):
                found += wrong
    return found
