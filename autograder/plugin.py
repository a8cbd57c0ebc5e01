"""The pytest plugin that runs a hidden suite: the ``observe`` fixture, task selection,
per-test deadlines and the collection of per-test results."""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass

import pytest

from .sandbox import codec
from .sandbox.probing import Missing
from .suite import StudentCodeError, describe_outcome


@dataclass
class TestResult:
    test: str  # the test function's name (stable id)
    name: str  # what the student reads: the test's docstring
    task: str
    points: float
    score: float
    status: str  # passed, failed
    message: str

    def as_dict(self) -> dict:
        return asdict(self)


class LocalObserver:
    """Runs probes in this process against ``namespace`` (the nbgrader route: a kernel)."""

    def __init__(self, namespace: dict):
        self.namespace = namespace

    def __call__(self, probe, deadline: float, **params):
        try:
            value = probe(self.namespace, **codec.from_plain(codec.to_plain(params)))
            return codec.from_plain(codec.loads(codec.dumps(codec.to_plain(value))))
        except Missing as exc:
            raise StudentCodeError(describe_outcome("missing", exc.name, probe.needs)) from None
        except codec.EncodeError:
            raise StudentCodeError(describe_outcome("unencodable", None, probe.needs)) from None
        except Exception as exc:
            raise StudentCodeError(describe_outcome("raised", type(exc).__name__, probe.needs)) from None


class SessionObserver:
    """Runs probes in a sandboxed worker (``autograder.session``); judges here."""

    def __init__(self, session):
        self.session = session
        self.broken = ""  # set when the worker could not start: the grader's fault, not the student's

    def __call__(self, probe, deadline: float, **params):
        from .session import WorkerBroken

        try:
            outcome = self.session.call(probe.__name__, params, max(0.05, deadline - time.monotonic()))
        except WorkerBroken as exc:
            self.broken = str(exc)
            raise StudentCodeError("the grader could not start your code (an internal error, not yours: tell your instructor)") from None
        if outcome.kind == "ok":
            return outcome.value
        raise StudentCodeError(describe_outcome(outcome.kind, outcome.value, getattr(probe, "needs", ())))


class GradingPlugin:
    def __init__(self, observer, tasks: set[str] | None = None, timeout: float = 10.0):
        self.observer = observer
        self.tasks = tasks
        self.timeout = timeout
        self.results: list[TestResult] = []
        self.collected: list[tuple[str, str, str, float]] = []  # (test, name, task, points)
        self.collection_errors: list[str] = []
        self._deadline = 0.0

    def pytest_collection_modifyitems(self, session, config, items):
        kept = []
        for item in items:
            task, points = item.get_closest_marker("task"), item.get_closest_marker("points")
            if task is None or points is None:
                raise pytest.UsageError(f"{item.nodeid}: every hidden test needs @graded(task, points)")
            if self.tasks is None or task.args[0] in self.tasks:
                kept.append(item)
                self.collected.append((item.name, _display_name(item), task.args[0], float(points.args[0])))
        items[:] = kept

    def pytest_collectreport(self, report):
        if report.failed:
            self.collection_errors.append(str(report.nodeid))

    @pytest.fixture
    def observe(self):
        def observe(probe, **params):
            return self.observer(probe, self._deadline, **params)

        return observe

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item):
        self._deadline = time.monotonic() + self.timeout

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        if report.when == "call" or report.failed:
            report.student_message = _student_message(call.excinfo) if report.failed else ""

    def pytest_runtest_logreport(self, report):
        if report.when == "call" or (report.failed and report.when == "setup"):
            test = report.nodeid.split("::")[-1]
            info = next((c for c in self.collected if c[0] == test), None)
            if info is None:
                return
            _, name, task, points = info
            passed = report.passed
            self.results.append(TestResult(
                test=test, name=name, task=task, points=points,
                score=points if passed else 0.0, status="passed" if passed else "failed",
                message="" if passed else getattr(report, "student_message", "") or "this test failed",
            ))


def _display_name(item) -> str:
    doc = (item.obj.__doc__ or "").strip().splitlines()
    return doc[0] if doc else item.name.removeprefix("test_").replace("_", " ")


def _student_message(excinfo) -> str:
    """Only text the suite wrote: an assert's message or the grader's StudentCodeError."""
    if excinfo is None:
        return ""
    exc = excinfo.value
    if isinstance(exc, (StudentCodeError, AssertionError)):
        if exc.args and isinstance(exc.args[0], str):
            # Only the suite's own words: never pytest's introspection ("assert 7 == 4").
            return exc.args[0].split("\nassert ")[0].strip()[:500]
        return "this test failed"
    return "the test could not check your result (it has an unexpected form)"
