"""The class list: every enrolled student gets a row in the reports and exports, 0 where nothing
was submitted.

A roster comes from ``grade --roster FILE`` (a CSV with a header and a ``student`` column, or
nbgrader's ``id`` column as ``nbgrader db student import`` reads it), kept in the --out folder
(``roster.csv``) for later runs until another is given (``--roster none`` drops it), and, with
``--gradebook``, from nbgrader's student list in gradebook.db.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path

from ..store import write_atomic
from ..submissions import UsageProblem

KEPT = "roster.csv"
CLEAR = "none"


def read_roster(path: Path) -> list[str]:
    try:
        rows = list(csv.DictReader(io.StringIO(Path(path).read_text(encoding="utf-8-sig"))))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise UsageProblem(f"--roster {path}: cannot be read ({exc}); expected a CSV file with a student (or id) column") from None
    column = next((c for c in ("student", "id") if rows and c in rows[0]), None)
    if column is None:
        raise UsageProblem(f"--roster {path}: expected a CSV with a header row and a student column (or nbgrader's id "
                           "column), one enrolled student a row")
    return sorted({(row[column] or "").strip() for row in rows} - {""})


def kept_roster(out: Path) -> list[str]:
    path = out / KEPT
    return read_roster(path) if path.is_file() else []


def keep_roster(out: Path, students: list[str]) -> None:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["student"])
    writer.writerows([s] for s in students)
    write_atomic(out / KEPT, buf.getvalue())


def class_roster(out: Path, given: str | None, gradebook: Path | None) -> list[str]:
    """The roster of a run into ``out``: ``given`` (--roster: a CSV file, or "none") else the one
    kept, with the gradebook's students."""
    if given is not None and given.strip().lower() == CLEAR:
        students = []
    elif given is not None:
        students = read_roster(Path(given))
    else:
        students = kept_roster(out)
    if gradebook is not None:
        from ..nbgrader_db import roster

        students = sorted(set(students) | set(roster(gradebook)))
    return students


def keep(out: Path, given: str | None) -> None:
    """Keep the roster given to a run (once its results are in) for the later ones."""
    if given is not None and given.strip().lower() == CLEAR:
        (out / KEPT).unlink(missing_ok=True)
    elif given is not None:
        keep_roster(out, read_roster(Path(given)))
