"""Grade one notebook: run its hidden suite here (trusted) against a sandboxed worker.

``grade_notebook`` runs pytest in the calling process, so the batch runner calls it in a
fresh child process per notebook; the student's code only ever runs in the worker.
"""
from __future__ import annotations

import contextlib
import functools
import io
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from . import notebook as nbmod
from .plugin import GradingPlugin, SessionObserver, TestResult
from .session import Session, SessionConfig, SpawnLauncher, ZygoteLauncher

SUITES = Path(__file__).resolve().parent / "suites"


@dataclass
class NotebookResult:
    student: str
    notebook: str  # file stem, e.g. 01_graph_accumulation
    tests: list[TestResult] = field(default_factory=list)
    error: str = ""  # why the notebook could not be graded at all (then score 0)
    isolation: dict = field(default_factory=dict)  # what the sandbox reported enforced

    @property
    def score(self) -> float:
        return sum(t.score for t in self.tests)

    @property
    def max_score(self) -> float:
        return sum(t.points for t in self.tests)


def suite_path(assignment: str, notebook: str) -> Path:
    return SUITES / assignment / f"test_{notebook}.py"


def probes_path(assignment: str, notebook: str) -> Path:
    return SUITES / assignment / "probes" / f"p{notebook}.py"


def _keep_hypothesis_out_of_the_notebook_folder() -> None:
    """Hypothesis writes a .hypothesis/ cache into the current directory (a student's
    notebook folder, or nbgrader's source folder, which it would then release): not there."""
    try:
        from hypothesis.configuration import set_hypothesis_home_dir
    except ImportError:
        return
    set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "needle-course-hypothesis")


def _pytest(suite: Path, plugin: GradingPlugin, *extra: str) -> int:
    """pytest on a suite file: quiet, no caches, the suites' own ini (never the project's),
    and plain asserts everywhere: a module once imported with pytest's assertion rewriting
    keeps it, and rewritten asserts would show students expected values in their messages."""
    args = [
        str(suite), *extra, "--assert=plain", "-c", str(SUITES / "pytest.ini"), "--rootdir", str(SUITES),
        "-p", "no:cacheprovider", "-p", "no:terminal", "-p", "no:randomly",
        # these plugins force full garbage collections after the session: 0.1 s per notebook
        "-p", "no:unraisableexception", "-p", "no:threadexception",
    ]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return pytest.main(args, plugins=[plugin])


def run_suite(suite: Path, plugin: GradingPlugin) -> int:
    """Run a suite file with ``plugin`` (which provides ``observe`` and collects results)."""
    _keep_hypothesis_out_of_the_notebook_folder()
    return _pytest(suite, plugin)


@functools.lru_cache(maxsize=None)
def collect_tests(assignment: str, notebook: str) -> list[tuple[str, str, str, float]]:
    """(test, name, task, points) of every test in a suite, without running any."""
    plugin = GradingPlugin(observer=None)
    _pytest(suite_path(assignment, notebook), plugin, "--collect-only")
    return plugin.collected


def zero_results(assignment: str, notebook: str, message: str) -> list[TestResult]:
    return [TestResult(test, name, task, points, 0.0, "failed", message) for test, name, task, points in collect_tests(assignment, notebook)]


def grade_notebook(student: str, submission: Path, instructor: Path, assignment: str, timeout: float,
                   policy: dict | None = None, zygote: str | None = None) -> NotebookResult:
    """Grade one submitted notebook; workers come from the batch's zygote when given."""
    name = instructor.stem
    result = NotebookResult(student, name)
    try:
        cells = nbmod.grading_code(nbmod.read_notebook(instructor), nbmod.read_notebook(submission))
    except nbmod.UnreadableNotebook as exc:
        result.error = f"could not read the notebook: {exc}"
        result.tests = zero_results(assignment, name, result.error)
        return result
    launcher = ZygoteLauncher(zygote) if zygote else SpawnLauncher()
    config = SessionConfig(cells, probes_path(assignment, name).read_text(), load_timeout=max(2 * timeout, 5.0), policy=policy or {})
    session = Session(config, launcher)
    observer = SessionObserver(session)
    plugin = GradingPlugin(observer, timeout=timeout)
    try:
        run_suite(suite_path(assignment, name), plugin)
        if observer.broken:
            result.error = f"internal grading error: {observer.broken}"
    finally:
        result.isolation = dict(session.enforced)
        session.close()
    if plugin.collection_errors:
        raise RuntimeError(f"the hidden suite for {name} failed to import: {plugin.collection_errors}")
    result.tests = plugin.results
    return result
