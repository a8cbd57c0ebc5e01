"""Grade one notebook: run its hidden suite here (trusted) against a sandboxed worker.

``grade_notebook`` runs pytest in the calling process, so the batch runs it in a fresh child
process per notebook; the student's code only ever runs in the worker.
"""
from __future__ import annotations

from .. import notebook as nbmod
from ..course import Assignment
from ..plugin import GradingPlugin, submission_seed
from ..results import NotebookResult, TestResult
from ..suite import KNOWN_EXCEPTIONS, Delegated, StudentCodeError, describe_outcome
from ..suiterun import collect_tests, run_suite
from . import bounded, hints
from .review import review_flags
from .session import Session, SessionConfig
from .zygote_client import WorkerBroken, ZygoteLauncher


class SessionObserver:
    """Runs probes in a sandboxed worker (``autograder.grade.session``); judges here."""

    def __init__(self, session: Session):
        self.session = session
        self.broken = ""  # set when the worker could not start: the grader's fault, not the student's
        self.uncompiled: dict = {}  # missing name -> _does_not_compile's message: a cell parsed once, not per test

    def memory(self, probe, budget, own_work: list[str], params: dict):
        grown: list[int] = []
        value = self(probe, budget, own_work, params, grown)
        return value, grown[0] if grown else 0

    def __call__(self, probe, budget, own_work: list[str], params: dict, memory: list | None = None):
        try:
            outcome = self.session.call(probe.__name__, params, budget.left, own_work, memory)
            budget.charge(outcome.cpu)
        except WorkerBroken as exc:
            self.broken = str(exc)
            raise StudentCodeError("the grader could not start your code (an internal error, not yours: tell your instructor)") from None
        if outcome.kind == "ok":
            return outcome.value
        if outcome.kind == "delegated":
            raise Delegated(outcome.value)
        if outcome.kind == "raised":
            name, info = outcome.value  # the name is given only for a built-in exception class
            shown = name if name in KNOWN_EXCEPTIONS else ""
            config = self.session.config
            raise StudentCodeError(hints.explain(shown, info, config.cells, course_cells=config.course_cells), "raised")
        if outcome.kind == "missing":
            if outcome.value not in self.uncompiled:
                self.uncompiled[outcome.value] = _does_not_compile(self.session.config.cells, outcome.value)
            broken = self.uncompiled[outcome.value]
            if broken:
                raise StudentCodeError(broken, outcome.kind)
        raise StudentCodeError(describe_outcome(outcome.kind, outcome.value, getattr(probe, "needs", ())), outcome.kind)


def _does_not_compile(cells: list[str], name) -> str:
    """The message for a name that is missing because the cell defining it does not compile (a
    def without its colon): Python ran none of that cell. Read here, from the submitted cells."""
    import ast
    import re

    from coursekit.hints import printable_line

    if not isinstance(name, str) or not name.isidentifier():
        return ""
    for source in cells:
        code = nbmod.strip_magics(source)
        if not re.search(rf"^\s*(def|class)\s+{re.escape(name)}\b|^{re.escape(name)}\s*=", code, re.M):
            continue
        try:
            ast.parse(code)
        except SyntaxError as exc:
            lines = code.splitlines()
            line = printable_line(lines[exc.lineno - 1]) if exc.lineno and 0 < exc.lineno <= len(lines) else ""
            where = f" at line {exc.lineno} of the cell that defines `{name}`" + (f": `{line}`" if line else "")
            return (f"`{name}` is not defined: your cell does not compile (SyntaxError{where}), so Python ran none "
                    "of it; fix that line (a missing colon, bracket or quote, or an indentation slip)")
        except (ValueError, RecursionError, MemoryError):
            return ""
    return ""


UNREVIEWED = "its code could not be reviewed within the review's CPU and memory budget"


def _grading_cells(source: dict, submitted: dict, large: bool) -> list[str]:
    """The cells the worker runs (``notebook.grading_code``); for ``large`` code, CodeTooLarge if
    they parse into more syntax than the grader reads (small code cannot: its size bounds it, and
    counting would cost every notebook a parse)."""
    cells = nbmod.grading_code(source, submitted)
    if large:
        nbmod.check_syntax_size(cells)
    return cells


def zero_results(assignment: Assignment, notebook: str, message: str, reason: str = "error") -> list[TestResult]:
    return [TestResult(test, name, task, points, 0.0, "failed", message, reason)
            for test, name, task, points in collect_tests(assignment.suite(notebook))]


def grade_notebook(student: str, submission, assignment: Assignment, notebook: str, timeout: float,
                   zygote: str) -> NotebookResult:
    """Grade one submitted notebook with workers forked from the batch's zygote."""
    result = NotebookResult(student, notebook)
    try:
        source = nbmod.read_notebook(assignment.source_notebook(notebook))
        submitted = nbmod.read_notebook(submission)
        size = nbmod.code_bytes(submitted)
        cells = bounded.within_budget(size, _grading_cells, source, submitted, size > bounded.LARGE_CODE)
    except nbmod.UnreadableNotebook as exc:  # too large included: the submission's, so no retry
        result.error = str(exc) if isinstance(exc, nbmod.CodeTooLarge) else f"could not read the notebook: {exc}"
        result.tests = zero_results(assignment, notebook, result.error)
        return result
    setup = {nbmod.source_of(c) for c in source["cells"] if nbmod.is_setup(c)}
    config = SessionConfig(cells, assignment.probes(notebook).read_text(), load_timeout=max(2 * timeout, 5.0),
                           course_cells=frozenset(i for i, cell in enumerate(cells) if cell in setup))
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
    try:
        result.review = bounded.within_budget(size, review_flags, cells, setup, plugin.declared)
    except nbmod.CodeTooLarge:
        result.review = [UNREVIEWED]
    result.tests = plugin.results
    return result
