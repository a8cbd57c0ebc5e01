"""Grade one notebook: run its hidden suite here (trusted) against a sandboxed worker.

``grade_notebook`` runs pytest in the calling process, so the batch runs it in a fresh child
process per notebook; the student's code only ever runs in the worker.
"""
from __future__ import annotations

import time

from . import notebook as nbmod
from .course import Assignment
from .plugin import GradingPlugin, submission_seed
from .results import NotebookResult, TestResult
from .session import Session, SessionConfig, WorkerBroken, ZygoteLauncher
from .suite import Delegated, StudentCodeError, describe_outcome
from .suiterun import collect_tests, run_suite


class SessionObserver:
    """Runs probes in a sandboxed worker (``autograder.session``); judges here."""

    def __init__(self, session: Session):
        self.session = session
        self.broken = ""  # set when the worker could not start: the grader's fault, not the student's

    def memory(self, probe, deadline: float, own_work: list[str], params: dict):
        grown: list[int] = []
        value = self(probe, deadline, own_work, params, grown)
        return value, grown[0] if grown else 0

    def __call__(self, probe, deadline: float, own_work: list[str], params: dict, memory: list | None = None):
        try:
            outcome = self.session.call(probe.__name__, params, max(0.05, deadline - time.monotonic()), own_work, memory)
        except WorkerBroken as exc:
            self.broken = str(exc)
            raise StudentCodeError("the grader could not start your code (an internal error, not yours: tell your instructor)") from None
        if outcome.kind == "ok":
            return outcome.value
        if outcome.kind == "delegated":
            raise Delegated(outcome.value)
        raise StudentCodeError(describe_outcome(outcome.kind, outcome.value, getattr(probe, "needs", ())))


def zero_results(assignment: Assignment, notebook: str, message: str) -> list[TestResult]:
    return [TestResult(test, name, task, points, 0.0, "failed", message)
            for test, name, task, points in collect_tests(assignment.suite(notebook))]


def grade_notebook(student: str, submission, assignment: Assignment, notebook: str, timeout: float,
                   zygote: str) -> NotebookResult:
    """Grade one submitted notebook with workers forked from the batch's zygote."""
    result = NotebookResult(student, notebook)
    try:
        cells = nbmod.grading_code(nbmod.read_notebook(assignment.source_notebook(notebook)), nbmod.read_notebook(submission))
    except nbmod.UnreadableNotebook as exc:
        result.error = f"could not read the notebook: {exc}"
        result.tests = zero_results(assignment, notebook, result.error)
        return result
    config = SessionConfig(cells, assignment.probes(notebook).read_text(), load_timeout=max(2 * timeout, 5.0))
    session = Session(config, ZygoteLauncher(zygote))
    observer = SessionObserver(session)
    plugin = GradingPlugin(observer, timeout=timeout, seed=submission_seed(cells))
    try:
        run_suite(assignment.suite(notebook), plugin)
        if observer.broken:
            result.error = f"internal grading error: {observer.broken}"
    finally:
        result.isolation = dict(session.enforced)
        session.close()
    if session.tampered:
        result.error = "your code changed needle's, numpy's or the grader's own code: see the tests' messages"
    result.tests = plugin.results
    return result
