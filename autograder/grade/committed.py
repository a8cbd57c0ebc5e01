"""The class's results, as every report shows them: what was graded in full, nothing else.

A run grades into a staging folder of its own (``<out>/.run-<pid>/``), never into the class's
store (``<out>/.state/<assignment>/<student>/``, which grades.csv, results.json, feedback,
the Canvas and Moodle exports and insights are all built from). When the run finishes, each
of its students replaces theirs in the store; a run over a whole course root replaces the class:
a student whose folder is gone (and who is not on the roster) leaves it. A run that is stopped
(Ctrl-C, SIGTERM, a cluster gone) commits only the students it graded in full, so the store
never mixes half of one run's student with the rest of an earlier one. Every rostered student
without a result gets one, zeros marked "not submitted".

The late policy is applied here, to every result of the store, from each notebook's submission
time: one policy (the one kept in ``<out>``) for the whole class, whichever run graded whom.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
from pathlib import Path
from typing import Callable

from ..course import Assignment
from .. import store
from ..results import NotebookResult
from . import batch
from .deadline import Deadline, parse_due
from ..submissions import Job, report_name

STAGING = ".run-"
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def staging_folder(out: Path) -> Path:
    """This run's own folder in ``out``; the folders of graders no longer running are removed."""
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob(f"{STAGING}*"):
        pid = old.name.removeprefix(STAGING)
        if pid.isdigit() and int(pid) != os.getpid() and _alive(int(pid)):
            continue  # another grader's run into the same folder, still going
        shutil.rmtree(old, ignore_errors=True)
    folder = out / f"{STAGING}{os.getpid()}"
    folder.mkdir()
    return folder


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _store(out: Path, assignment: str) -> Path:
    return out / ".state" / assignment


def _load(folder: Path) -> list[NotebookResult]:
    return [NotebookResult.from_dict(json.loads(p.read_text(encoding="utf-8"))) for p in sorted(folder.glob("*.json"))]


def staged_students(staging: Path, assignment: Assignment, complete_only: bool) -> set[str]:
    """The students this run graded; ``complete_only``: those with every notebook of the assignment
    graded, none left to an error of the grader's own (a stopped run keeps only those)."""
    folder = _store(staging, assignment.name)
    if not folder.is_dir():
        return set()
    students = set()
    for student in folder.iterdir():
        results = _load(student)
        if complete_only and ({r.notebook for r in results} < set(assignment.notebooks())
                              or any(r.grader_error for r in results)):
            continue
        students.add(student.name)
    return students


def commit(out: Path, staging: Path, assignment: Assignment, students: set[str], *, whole_class: bool,
           roster: list[str], deadline: Deadline | None,
           write_reports: Callable[[Path], list[NotebookResult]]) -> list[NotebookResult]:
    """Put ``students``' results of ``staging`` into the class's store and rewrite the reports
    (``write_reports``, the exports' writer, given by the caller: grading imports no export);
    ``whole_class``: the class is these students (and the roster). Returns the store's results
    of ``assignment``. Ctrl-C and SIGTERM wait until it is done (a few file renames)."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        escaped = store.escaped_names(staging)
        if escaped:
            store.record_escaped_names(out, escaped)
        saved = _store(out, assignment.name)
        saved.mkdir(parents=True, exist_ok=True)
        for student in sorted(students):  # one with nothing staged (a rostered --student who never submitted): zeros below
            staged = _store(staging, assignment.name) / student
            if not staged.is_dir():
                shutil.rmtree(saved / student, ignore_errors=True)
            elif {p.stem for p in staged.glob("*.json")} >= set(assignment.notebooks()):
                _replace(staged, saved / student)
            else:  # a run over some of a student's notebooks (one notebook, a folder of a few): those replace theirs
                (saved / student).mkdir(exist_ok=True)
                for path in staged.glob("*.json"):
                    os.replace(path, saved / student / path.name)
        names = {report_name(s): s for s in roster}
        if whole_class:
            for gone in sorted({p.name for p in saved.iterdir()} - students - set(names)):
                _drop(out, assignment.name, gone)
        for name, student_id in sorted(names.items()):
            if not (saved / name).exists():
                _not_submitted(out, assignment, name, student_id)
        _apply_deadline(out, assignment.name, deadline)
        results = write_reports(out)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    return [r for r in results if r.assignment == assignment.name]


def _replace(new: Path, current: Path) -> None:
    """``current`` becomes ``new`` (the old folder moved aside first, then removed)."""
    aside = current.with_name(f".{current.name}.old")
    shutil.rmtree(aside, ignore_errors=True)
    if current.exists():
        current.rename(aside)
    new.rename(current)
    shutil.rmtree(aside, ignore_errors=True)


def _drop(out: Path, assignment: str, student: str) -> None:
    """A student no longer in the class: their results, and the reports written for them."""
    folder = store.report_folder(out, student, assignment)
    shutil.rmtree(_store(out, assignment) / student, ignore_errors=True)
    for page in ("results.json", "feedback.html"):
        (folder / page).unlink(missing_ok=True)
    for empty in (folder, out / student):
        try:
            empty.rmdir()
        except OSError:
            pass


def _not_submitted(out: Path, assignment: Assignment, name: str, student_id: str) -> None:
    if name != student_id:
        store.record_escaped_names(out, {name: student_id})
    for notebook in assignment.notebooks():
        result = batch.failed(Job(name, notebook, None), assignment, "notebook not submitted", "not submitted")
        result.assignment = assignment.name
        store.save_result(out, result)


def _apply_deadline(out: Path, assignment: str, deadline: Deadline | None) -> None:
    """Each result's lateness and penalty from its submission time and the student's due date."""
    folders = store.escaped_names(out)
    for path in sorted(_store(out, assignment).glob("*/*.json")):
        r = NotebookResult.from_dict(json.loads(path.read_text(encoding="utf-8")))
        late = penalty = 0.0
        if deadline is not None and r.submitted_at:
            late = deadline.late_seconds(parse_due(r.submitted_at), folders.get(r.student, r.student))
            if deadline.policy is not None:
                penalty = deadline.policy.penalty(late, r.raw_score, r.max_score)
        if (late, penalty) != (r.late_seconds, r.penalty):
            r.late_seconds, r.penalty = late, penalty
            store.save_result(out, r)
