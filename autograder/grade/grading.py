"""Grading a course: discover the submissions, grade them, save each result in the store.

``grade_course`` is the one pipeline behind ``python -m autograder grade``, the Gradescope
entry point and ``make demo``; its callers write the reports and the gradebook (the exports), and
print the summary (``export.summary``). What belongs to the trusted side besides the tests' verdicts is
added here to each result: its assignment, when it was submitted, how late and what the late
policy takes (``deadline``), and the reason column's "review" for a notebook flagged for review.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from .. import store
from ..console import note, printable
from ..course import Assignment
from ..results import REVIEW, NotebookResult
from ..submissions import Job, discover
from ..timestamps import submission_time
from . import batch
from .deadline import Deadline


@dataclass
class GradeRun:
    out: Path
    jobs: list[Job]
    results: list[NotebookResult]  # those of this run's jobs, from the complete store
    unsaved: list[str]  # notebooks whose result could not be written (e.g. disk full)
    gradebook: str = ""  # what was written to nbgrader's gradebook, if asked (by the caller)

    @property
    def ungraded(self) -> list[NotebookResult]:
        """Notebooks an error of the grader's own left ungraded (retried, still failing): their
        zeros say nothing of the student's work."""
        return [r for r in self.results if r.grader_error]


def grade_course(assignment: Assignment, path: Path, out: Path, *, jobs: int, timeout: float,
                 progress: bool = True, scheduler: str | None = None,
                 student: str | None = None, deadline: Deadline | None = None) -> GradeRun:
    """Grade everything ``path`` holds for ``assignment`` into ``out``'s store (see
    ``submissions``), or only ``student``'s submission of a course root; with ``scheduler`` (a
    Dask scheduler's address), grade on that cluster instead of this machine; with ``deadline``,
    mark and penalise late notebooks."""
    todo = discover(path, assignment, student)
    return grade_jobs(assignment, todo, out, jobs=jobs, timeout=timeout, progress=progress, scheduler=scheduler,
                      deadline=deadline)

def grade_jobs(assignment: Assignment, todo: list[Job], out: Path, *, jobs: int, timeout: float,
               progress: bool = True, on_result=None, scheduler: str | None = None,
               deadline: Deadline | None = None) -> GradeRun:
    out.mkdir(parents=True, exist_ok=True)
    escaped = {j.student: j.student_id for j in todo if j.student_id}
    for name, folder in sorted(escaped.items()):
        note(f"student folder {printable(folder)!r} is not a plain folder name: reported as {name}")
    if escaped:
        store.record_escaped_names(out, escaped)  # which folder each escaped name stands for
    bar = batch.Progress(len(todo)) if progress else None
    unsaved: list[str] = []
    by_key = {(j.student, j.notebook): j for j in todo}

    def done(result: NotebookResult) -> None:
        try:
            complete(result, by_key.get((result.student, result.notebook)), assignment.name, deadline)
        except Exception as exc:  # noqa: BLE001 - one notebook's submission time must not stop the class's grading
            print(f"autograder: the submission time of {result.student}/{result.notebook} could not be worked out "
                  f"({type(exc).__name__}); graded without one", file=sys.stderr)
        try:
            store.save_result(out, result)
        except OSError as exc:  # the grader's own write failed: report it, keep going
            unsaved.append(f"{result.student}/{result.notebook}")
            print(f"autograder: could not save the result of {result.student}/{result.notebook}: {exc.strerror}", file=sys.stderr)
        if bar is not None:
            bar.update(result)
        if on_result is not None:
            on_result(result)

    if scheduler is None:
        batch.run_jobs(todo, assignment, timeout, jobs, done)
    else:
        from . import cluster  # needs the cluster extra (distributed)

        cluster.run_jobs(todo, assignment, timeout, scheduler, done)
    if bar is not None:
        bar.close()
    graded = {(assignment.name, j.student, j.notebook) for j in todo}
    return GradeRun(out, todo, [r for r in store.load_results(out) if (r.assignment, r.student, r.notebook) in graded], unsaved)


def complete(result: NotebookResult, job: Job | None, assignment: str, deadline: Deadline | None) -> None:
    """What the trusted side adds to a graded notebook: its assignment, the reason "review" on the
    tests of a flagged notebook, its submission time, lateness and late penalty."""
    result.assignment = assignment
    if result.review:
        for t in result.tests:
            t.reason = t.reason or REVIEW
    if job is not None and job.path is not None:
        moment = submission_time(job.path)
        if moment is not None:
            result.submitted_at = moment.isoformat(timespec="seconds")
            if deadline is not None:
                result.late_seconds = deadline.late_seconds(moment)
                if deadline.policy is not None:
                    result.penalty = deadline.policy.penalty(result.late_seconds, result.raw_score, result.max_score)
