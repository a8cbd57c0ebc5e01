"""Write scores into an nbgrader gradebook (``--gradebook``), by grade cell.

A test cell ``taskN_M_tests`` in the instructor notebook is the grade cell of Task N.M; its
auto score becomes the sum of that task's passed tests, so ``nbgrader export`` and the
formgrader show the grader's scores. The submission's time (the latest of its notebooks') is
its ``timestamp``, updated on every regrade, and a late notebook's penalty its
``late_submission_penalty``; a due date given to the grader becomes the assignment's
``duedate``: nbgrader's export then shows the same lateness and score. The assignment and its
grade cells must already be in the database (``nbgrader generate_assignment`` puts them there).
formgrader lists a submission as graded only when ``autograded/<student>/<assignment>/`` holds
it, as ``nbgrader autograde`` would leave it: ``mirror_autograded`` puts the graded notebooks there.
"""
from __future__ import annotations

import datetime as dt
import shutil
import warnings
from pathlib import Path

from ..course import Course, task_of
from ..nbgrader_db import GradebookProblem, not_in_gradebook
from ..results import NotebookResult


def write_gradebook(db_path: Path, assignment: str, results: list[NotebookResult], student_ids: dict[str, str] | None = None,
                    due: dt.datetime | None = None, extensions: dict[str, dt.datetime] | None = None) -> int:
    """``student_ids`` maps a reported (escaped) name back to nbgrader's student id; ``due`` (UTC)
    becomes the assignment's due date, and ``extensions`` ({student id: their own due date}) the
    submissions' extensions, so that nbgrader's export sees the lateness the grader charged."""
    from nbgrader.api import Gradebook, MissingEntry

    with warnings.catch_warnings():
        # nbgrader's own SQLAlchemy usage warns on add_submission; nothing we can act on.
        warnings.filterwarnings("ignore", module="nbgrader")
        return _write(Gradebook, MissingEntry, db_path, assignment, results, student_ids or {}, due, extensions or {})


def record_run(db_path: Path, assignment: str, results: list[NotebookResult], student_ids: dict[str, str],
               deadline=None) -> str:
    """Write a run's committed ``results`` into the gradebook, and the notebooks graded into
    autograded/ for formgrader; returns the line the summary prints. A notebook an error of the
    grader's own left ungraded is skipped: the gradebook keeps the grade it had, not its zeros."""
    results = [r for r in results if not r.grader_error]
    n = write_gradebook(db_path, assignment, results, student_ids, deadline.due if deadline else None,
                        deadline.extensions if deadline else None)
    submitted: dict[str, list[Path]] = {}
    for r in results:
        student = student_ids.get(r.student, r.student)
        path = Course(db_path.parent).submitted(student, assignment) / f"{r.notebook}.ipynb"
        if path.is_file():
            submitted.setdefault(student, []).append(path)
    mirror_autograded(db_path.parent, assignment, submitted)
    return f"gradebook: {n} grade cells and the submission times written to {db_path} (formgrader lists autograded/)"


def _naive_utc(moment: dt.datetime) -> dt.datetime:
    """nbgrader keeps times as naive UTC."""
    return moment.astimezone(dt.timezone.utc).replace(tzinfo=None)


def _write(Gradebook, MissingEntry, db_path: Path, assignment: str, results: list[NotebookResult], ids: dict[str, str],
           due: dt.datetime | None, extensions: dict[str, dt.datetime]) -> int:
    written = 0
    submitted: dict[str, dt.datetime] = {}  # nbgrader student id -> the latest of its notebooks' times
    for r in results:
        if r.submitted_at:
            student, moment = ids.get(r.student, r.student), dt.datetime.fromisoformat(r.submitted_at)
            submitted[student] = max(moment, submitted.get(student, moment))
    with Gradebook(f"sqlite:///{db_path.resolve()}") as gb:
        try:
            record = gb.find_assignment(assignment)
        except MissingEntry:
            raise GradebookProblem(not_in_gradebook(db_path, assignment)) from None
        if due is not None:
            record.duedate = _naive_utc(due)
        for r in results:
            student = ids.get(r.student, r.student)
            gb.update_or_create_student(student)
            try:
                submission = gb.find_submission(assignment, student)
            except MissingEntry:
                submission = gb.add_submission(assignment, student)
            if student in submitted:  # a resubmission moves it
                submission.timestamp = _naive_utc(submitted[student])
            if due is not None:
                submission.extension = extensions[student] - due if student in extensions else None
            scores: dict[str, float] = {}
            for t in r.tests:
                scores[t.task] = scores.get(t.task, 0.0) + t.score
            notebook = gb.find_notebook(r.notebook, assignment)
            gb.find_submission_notebook(r.notebook, assignment, student).late_submission_penalty = (
                r.penalty if r.late_seconds > 0 else None)
            for cell in notebook.grade_cells:
                task = task_of(cell.name)
                if task is None or task not in scores:
                    continue
                grade = gb.find_grade(cell.name, r.notebook, assignment, student)
                grade.auto_score = min(scores[task], cell.max_score)
                written += 1
        gb.db.commit()
    return written


def mirror_autograded(course_root: Path, assignment: str, graded: dict[str, list[Path]]) -> None:
    """Copy each student's graded notebooks (``graded``: nbgrader student id -> submitted
    notebooks) into ``autograded/<student>/<assignment>/``, with nbgrader's timestamp.txt (the
    submission's, else the latest notebook's time). The copies are read as submissions are (no
    link followed) and written as plain files."""
    from ..timestamps import nbgrader_timestamp, submission_time
    from ..notebook import UnreadableNotebook, read_bytes_safely

    for student, notebooks in graded.items():
        folder = Course(course_root).autograded(student, assignment)
        folder.mkdir(parents=True, exist_ok=True)
        for path in notebooks:
            try:
                (folder / path.name).write_bytes(read_bytes_safely(path))
            except UnreadableNotebook:
                continue
        stamp = Course(course_root).submitted(student, assignment) / "timestamp.txt"
        if stamp.is_file() and not stamp.is_symlink():
            shutil.copyfile(stamp, folder / "timestamp.txt")
        else:
            times = [t for t in map(submission_time, notebooks) if t is not None]
            if times:
                (folder / "timestamp.txt").write_text(nbgrader_timestamp(max(times)), encoding="utf-8")
