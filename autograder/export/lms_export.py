"""``python -m autograder export GRADES_DIR --format canvas|moodle --out FILE``: the grades of a
grading output folder as a CSV that Canvas's or Moodle's gradebook imports: one row per student,
one column per assignment (the student's points, summed over the assignment's notebooks).

- ``canvas`` follows the file Canvas's Gradebook exports and imports (Grades > Import): the
  columns ``Student, ID, SIS User ID, SIS Login ID, Section``, then one per assignment, and a
  second row ``Points Possible``. Canvas matches a row to a student by its ID, SIS User ID or
  SIS Login ID; the grader knows only the student's id as nbgrader or JupyterHub knows it, so
  it goes in ``SIS Login ID`` (and ``Student``), the other identifiers stay empty. A student
  folder the grader reported under an escaped name (``escaped_names.csv``) goes out as itself. An assignment
  column that is new to the course creates that assignment, with the points possible given.
- ``moodle`` follows Moodle's grade import from a CSV file (Grades > Import > CSV file): a header
  row, a ``Username`` column (choose "Identify user by: Username" when importing) and one column
  per assignment, each mapped to a grade item (or "new grade item") on the import page.
"""
from __future__ import annotations

import csv
import io
from collections import defaultdict
from pathlib import Path

from ..console import fail
from ..csvcells import cell
from ..store import escaped_names, write_atomic
from .grades_csv import GradesProblem, read_grades
from .report import num

FORMATS = ("canvas", "moodle")


class ExportProblem(GradesProblem):
    """The grading folder or the format asked for is not what the export can write; the message says why."""


CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


def totals(grades_dir: Path, assignment: str | None = None) -> tuple[list[str], list[str], dict, dict]:
    """(students, assignments, {(student, assignment): points}, {assignment: points possible}).

    ``assignment`` names the assignment of rows that name none (grades.csv of an older grader)."""
    rows = read_grades(grades_dir)
    if not rows:
        raise ExportProblem(f"{Path(grades_dir) / 'grades.csv'} has no rows: nothing was graded")
    if any(not r.assignment for r in rows):
        if not assignment:
            raise ExportProblem(f"{Path(grades_dir) / 'grades.csv'} names no assignment (an older grader wrote it): "
                                "name it with --assignment")
        for r in rows:
            r.assignment = r.assignment or assignment
    points: dict = defaultdict(float)
    maxima: dict = defaultdict(float)  # (student, assignment) -> the points the student could get
    for r in rows:
        points[(r.student, r.assignment)] += r.score
        maxima[(r.student, r.assignment)] += r.max_score
    assignments = sorted({r.assignment for r in rows})
    possible = {a: max(m for (_, b), m in maxima.items() if b == a) for a in assignments}
    return sorted({r.student for r in rows}), assignments, dict(points), possible


def export_csv(grades_dir: Path, fmt: str, assignment: str | None = None) -> str:
    if fmt not in FORMATS:
        raise ExportProblem(f"--format {fmt!r} is not one of {', '.join(FORMATS)}")
    students, assignments, points, possible = totals(grades_dir, assignment)
    folder = escaped_names(grades_dir)  # a folder reported under an escaped name goes out as the student's own id
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    if fmt == "canvas":
        writer.writerow(CANVAS_IDENTITY + [cell(a) for a in assignments])
        writer.writerow(["Points Possible", "", "", "", ""] + [num(possible[a]) for a in assignments])
        for s in students:
            who = cell(folder.get(s, s))
            writer.writerow([who, "", "", who, ""] + [num(points.get((s, a), 0.0)) for a in assignments])
    else:
        writer.writerow(["Username"] + [cell(a) for a in assignments])
        for s in students:
            writer.writerow([cell(folder.get(s, s))] + [num(points.get((s, a), 0.0)) for a in assignments])
    return buf.getvalue()


def main(grades_dir: Path, fmt: str, out: Path, assignment: str | None = None) -> int:
    """Write the export to ``out``. Returns 0, or 2 with a message on bad input."""
    out = Path(out)
    if out.is_dir():
        return fail(f"--out {out} is a folder; expected the name of the CSV file to write")
    try:
        text = export_csv(Path(grades_dir), fmt, assignment)
    except GradesProblem as exc:
        return fail(str(exc))
    write_atomic(out, text)
    print(f"wrote {out}: {text.count(chr(10)) - (2 if fmt == 'canvas' else 1)} students, for {fmt}'s grade import")
    return 0
