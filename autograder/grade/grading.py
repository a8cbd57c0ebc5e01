"""Grading a course: discover the submissions, grade them, save each result, write reports.

``grade_course`` is the one pipeline behind ``python -m autograder grade``, the Gradescope
entry point and ``make demo``. What belongs to the trusted side besides the tests' verdicts is
added here to each result: its assignment, when it was submitted, how late and what the late
policy takes (``deadline``), and the reason column's "review" for a notebook flagged for review.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from ..course import Assignment, Course
from ..export import report
from ..results import REVIEW, NotebookResult
from . import batch
from .deadline import Deadline, duration, submission_time
from .submissions import Job, discover, note, printable


@dataclass
class GradeRun:
    out: Path
    jobs: list[Job]
    results: list[NotebookResult]  # those of this run's jobs, from the complete store
    unsaved: list[str]  # notebooks whose result could not be written (e.g. disk full)
    gradebook: str = ""  # what was written to nbgrader's gradebook, if asked
    deadline: Deadline | None = None

    @property
    def ungraded(self) -> list[NotebookResult]:
        """Notebooks an error of the grader's own left ungraded (retried, still failing): their
        zeros say nothing of the student's work."""
        return [r for r in self.results if r.error.startswith(batch.INFRASTRUCTURE)]

    def describe(self) -> str:
        """The summary printed after grading: scores, lateness, flags, what isolation held, where reports are."""
        lines = [report.summary_table(self.results), report.isolation_summary(self.results)]
        if self.deadline is not None:
            late = [f"{r.student}/{r.notebook} ({duration(r.late_seconds)}, {report.taken(r.penalty)} points)"
                    for r in self.results if r.late_seconds > 0]
            lines.append(f"{self.deadline.describe()}. Late: {', '.join(late) if late else 'none'}")
        for r in self.results:
            if r.review:  # the grader's own words (the student's feedback says only that it is flagged)
                lines.append(f"REVIEW {r.student}/{r.notebook}: " + "; ".join(printable(str(x), 200) for x in r.review))
        if self.gradebook:
            lines.append(self.gradebook)
        if self.unsaved:
            lines.append(f"NOT SAVED (grade them again): {', '.join(self.unsaved)}")
        if self.ungraded:
            lines.append("NOT GRADED (an error of the grader's own, not the student's; their zeros are not in the "
                         f"gradebook; see feedback, then grade them again): "
                         f"{', '.join(f'{r.student}/{r.notebook}' for r in self.ungraded)}")
        where = "<student>" if len(report.assignments_in(self.out)) < 2 else "<student>/<assignment>"
        lines.append(f"reports: {self.out / 'grades.csv'}, {self.out}/{where}/results.json and feedback.html")
        return "\n".join(lines)


def grade_course(assignment: Assignment, path: Path, out: Path, *, jobs: int, timeout: float,
                 gradebook: Path | None = None, progress: bool = True, scheduler: str | None = None,
                 student: str | None = None, deadline: Deadline | None = None) -> GradeRun:
    """Grade everything ``path`` holds for ``assignment`` into ``out`` (see ``submissions``), or
    only ``student``'s submission of a course root; with ``gradebook``, also write the scores and
    submission times into that nbgrader database; with ``scheduler`` (a Dask scheduler's
    address), grade on that cluster instead of this machine; with ``deadline``, mark and
    penalise late notebooks."""
    todo = discover(path, assignment, student)
    run = grade_jobs(assignment, todo, out, jobs=jobs, timeout=timeout, progress=progress, scheduler=scheduler,
                     deadline=deadline)
    if gradebook is not None:
        from ..export.gradebook import mirror_autograded, write_gradebook

        ids = {j.student: j.student_id for j in todo if j.student_id}
        ungraded = {id(r) for r in run.ungraded}  # a grade the gradebook holds is not overwritten with their zeros
        graded = [r for r in run.results if id(r) not in ungraded]
        n = write_gradebook(gradebook, assignment.name, graded, ids, deadline.due if deadline else None)
        submitted: dict[str, list[Path]] = {}
        for job in todo:
            if job.path is not None and job.path.parent == Course(gradebook.parent).submitted(job.original_id, assignment.name):
                submitted.setdefault(job.original_id, []).append(job.path)
        mirror_autograded(gradebook.parent, assignment.name, submitted)
        run.gradebook = f"gradebook: {n} grade cells and the submission times written to {gradebook} (formgrader lists autograded/)"
    return run


def grade_jobs(assignment: Assignment, todo: list[Job], out: Path, *, jobs: int, timeout: float,
               progress: bool = True, on_result=None, scheduler: str | None = None,
               deadline: Deadline | None = None) -> GradeRun:
    out.mkdir(parents=True, exist_ok=True)
    escaped = {j.student: j.student_id for j in todo if j.student_id}
    for name, folder in sorted(escaped.items()):
        note(f"student folder {printable(folder)!r} is not a plain folder name: reported as {name}")
    if escaped:
        report.record_escaped_names(out, escaped)  # which folder each escaped name stands for
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
    graded = {(assignment.name, j.student, j.notebook) for j in todo}
    return GradeRun(out, todo, [r for r in results if (r.assignment, r.student, r.notebook) in graded], unsaved,
                    deadline=deadline)


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
