"""Grading a course: discover the submissions, grade them, save each result, write reports.

``grade_course`` is the one pipeline behind ``python -m autograder grade``, the Gradescope
entry point and ``make demo``.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from . import batch, report
from .course import Assignment
from .results import NotebookResult
from .submissions import Job, discover, printable


@dataclass
class GradeRun:
    out: Path
    jobs: list[Job]
    results: list[NotebookResult]  # those of this run's jobs, from the complete store
    unsaved: list[str]  # notebooks whose result could not be written (e.g. disk full)
    gradebook: str = ""  # what was written to nbgrader's gradebook, if asked

    def describe(self) -> str:
        """The summary printed after grading: scores, what isolation held, where reports are."""
        lines = [report.summary_table(self.results), report.isolation_summary(self.results)]
        if self.gradebook:
            lines.append(self.gradebook)
        if self.unsaved:
            lines.append(f"NOT SAVED (grade them again): {', '.join(self.unsaved)}")
        lines.append(f"reports: {self.out / 'grades.csv'}, {self.out}/<student>/results.json and feedback.html")
        return "\n".join(lines)


def grade_course(assignment: Assignment, path: Path, out: Path, *, jobs: int, timeout: float,
                 gradebook: Path | None = None, progress: bool = True, scheduler: str | None = None) -> GradeRun:
    """Grade everything ``path`` holds for ``assignment`` into ``out`` (see ``submissions``);
    with ``gradebook``, also write the scores into that nbgrader database; with ``scheduler``
    (a Dask scheduler's address), grade on that cluster instead of this machine."""
    todo = discover(path, assignment)
    run = grade_jobs(assignment, todo, out, jobs=jobs, timeout=timeout, progress=progress, scheduler=scheduler)
    if gradebook is not None:
        from .gradebook import mirror_autograded, write_gradebook

        ids = {j.student: j.student_id for j in todo if j.student_id}
        n = write_gradebook(gradebook, assignment.name, run.results, ids)
        submitted: dict[str, list[Path]] = {}
        for job in todo:
            if job.path is not None and job.path.parent == gradebook.parent / "submitted" / job.original_id / assignment.name:
                submitted.setdefault(job.original_id, []).append(job.path)
        mirror_autograded(gradebook.parent, assignment.name, submitted)
        run.gradebook = f"gradebook: {n} grade cells written to {gradebook} (formgrader lists autograded/)"
    return run


def grade_jobs(assignment: Assignment, todo: list[Job], out: Path, *, jobs: int, timeout: float,
               progress: bool = True, on_result=None, scheduler: str | None = None) -> GradeRun:
    out.mkdir(parents=True, exist_ok=True)
    for job in todo:
        if job.student_id:
            print(f"note: student folder {printable(job.student_id)!r} is not a plain folder name: reported as {job.student}", file=sys.stderr)
            break
    bar = batch.Progress(len(todo)) if progress else None
    unsaved: list[str] = []

    def done(result: NotebookResult) -> None:
        try:
            report.save_result(out, result)
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
    results = report.write_reports(out)
    graded = {(j.student, j.notebook) for j in todo}
    return GradeRun(out, todo, [r for r in results if (r.student, r.notebook) in graded], unsaved)
