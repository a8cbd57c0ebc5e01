"""Where grading keeps its results, and how they are read back: one file per graded notebook,
``<out>/.state/<assignment>/<student>/<notebook>.json``, written atomically; the index of the
students reported under an escaped name; the folder of a student's reports.

Below both grading (which saves results here) and the exports (which read them from here).
"""
from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from pathlib import Path

from .csvcells import cell, uncell
from .results import NotebookResult


def write_atomic(path: Path, content: str | bytes) -> None:
    """Replace ``path`` with ``content`` (text as UTF-8) in one step (readers see the old or the
    new file, never half of one), readable by others (Gradescope's harness may run as another user)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = content.encode("utf-8") if isinstance(content, str) else content
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o644)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def state_path(out: Path, assignment: str, student: str, notebook: str) -> Path:
    """Where a result is kept (results without an assignment, as older graders wrote them, one level up)."""
    return out / ".state" / assignment / student / f"{notebook}.json"


def save_result(out: Path, result: NotebookResult) -> None:
    write_atomic(state_path(out, result.assignment, result.student, result.notebook),
                 json.dumps(result.as_dict(), indent=1, sort_keys=True))
    if result.assignment:  # replaces the same notebook as graded by an older grader
        state_path(out, "", result.student, result.notebook).unlink(missing_ok=True)


def load_results(out: Path) -> list[NotebookResult]:
    paths = sorted((out / ".state").glob("*/*/*.json")) + sorted((out / ".state").glob("*/*.json"))
    results = [NotebookResult.from_dict(json.loads(path.read_text(encoding="utf-8"))) for path in paths]
    return sorted(results, key=lambda r: (r.student, r.assignment, r.notebook))


def assignments_in(out: Path) -> list[str]:
    """The assignments ``out`` holds results of ("" for results without one)."""
    state = out / ".state"
    names = {p.parent.parent.name for p in state.glob("*/*/*.json")}
    return sorted(names | ({""} if any(state.glob("*/*.json")) else set()))


ESCAPED_NAMES = "escaped_names.csv"  # report name,student folder: for the instructor and the LMS export


def escaped_names(out: Path) -> dict[str, str]:
    """{report name: student folder} of the folders this output folder reports under an escaped
    name (a space, an accent, ...): written by the grader, read by the exports."""
    path = out / ESCAPED_NAMES
    if not path.is_file():
        return {}
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    return {row[0]: uncell(row[1]) for row in rows[1:] if len(row) == 2}


def record_escaped_names(out: Path, names: dict[str, str]) -> None:
    """Add ``names`` ({report name: student folder}) to the output folder's ESCAPED_NAMES."""
    merged = {**escaped_names(out), **names}
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["reported_as", "student_folder"])
    for name, folder in sorted(merged.items()):
        writer.writerow([name, cell(folder)])
    write_atomic(out / ESCAPED_NAMES, buf.getvalue())


def report_folder(out: Path, student: str, assignment: str) -> Path:
    """The folder of a student's results.json and feedback.html for ``assignment``."""
    return out / student / assignment if len(assignments_in(out)) > 1 else out / student
