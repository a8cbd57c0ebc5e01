"""The pytest plugin that runs a hidden suite: the ``observe`` fixture, task selection,
per-test deadlines, own-work checks and the collection of per-test results.

An observer runs probes: in a sandboxed worker (``runner.SessionObserver``, the grader) or in
the notebook's own kernel (``inkernel.LocalObserver``, the nbgrader route). A suite declares,
per task, needle's own implementation of it::

    OWN_WORK = {"5.1": ("Optimizer and SGD", ["needle.optim"])}

and a task whose code is found using it scores 0 in every one of its tests, with one message.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from .results import FAILS_TOO, TestResult, points_back
from .suite import Delegated, StudentCodeError
from coursekit.ladder import uses_note


def stopped_at(results) -> dict[str, str]:
    """{task: "rung N (name)"}: where each task's ladder stopped, read from its results' messages."""
    out = {}
    for r in results:
        head = f"Task {r.task}, rung "
        if r.status != "passed" and r.message.startswith(head) and not points_back(r.message):
            number = r.message[len(head):].partition(" ")[0]  # a rung's name may hold "): ", its number not
            out[r.task] = f"rung {number} ({r.name})"
    return out


class Budget:
    """The CPU seconds a test's probes may still spend in the worker (all its calls together)."""

    def __init__(self, seconds: float):
        self.left = seconds

    def charge(self, seconds: float) -> None:
        self.left = max(0.0, self.left - seconds)


class GradingPlugin:
    def __init__(self, observer, tasks: set[str] | None = None, timeout: float = 10.0, seed: int = 0):
        self.observer = observer
        self.tasks = tasks
        self.timeout = timeout
        self.seed = seed
        self.results: list[TestResult] = []
        self.collected: list[tuple[str, str, str, float]] = []  # (test, name, task, points)
        self.collection_errors: list[str] = []
        self.ungraded: list[str] = []  # tests without @graded: the suite is not used
        # test -> the exception a test's own code raised (not an assert, not the student's code): for
        # the instructor (selfcheck), never in a report, where it reads "could not check your result"
        self.suite_errors: dict[str, str] = {}
        self.delegated: dict[str, str] = {}  # task -> the message every test of it gets
        self._budget = Budget(timeout)
        self._task = ""
        self._own_work: tuple[str, list[str]] = ("", [])
        self.declared: dict[str, tuple[str, list[str]]] = {}  # the suite's OWN_WORK, for the review
        self._once: dict = {}
        self.rungs: dict[str, tuple[int, str]] = {}  # test -> (number, name) in its task's ladder
        self.tasks_declared: dict = {}  # task -> its declaration (autograder.specification.Task), where the suite has one

    def pytest_configure(self, config):
        config.addinivalue_line("markers", "task(id): the task (N.M) a hidden test belongs to")
        config.addinivalue_line("markers", "points(n): the points a hidden test is worth")
        config.addinivalue_line("markers", "rung(number, name): the test's place in its task's ladder")

    def pytest_collection_modifyitems(self, session, config, items):
        kept = []
        for item in items:
            task, points = item.get_closest_marker("task"), item.get_closest_marker("points")
            if task is None or points is None:  # raised here, it would end pytest's run with no result (0/0)
                self.ungraded.append(item.name)
                continue
            if self.tasks is None or task.args[0] in self.tasks:
                kept.append(item)
                self.collected.append((item.name, _display_name(item), task.args[0], float(points.args[0])))
                rung = item.get_closest_marker("rung")
                if rung is not None:
                    self.rungs[item.name] = tuple(rung.args)
                self.tasks_declared.update(getattr(item.module, "TASKS", {}))
        items[:] = kept

    def pytest_collectreport(self, report):
        if report.failed:  # the file and the error's last line (ModuleNotFoundError: ..., SyntaxError: ...)
            last = next((line.strip() for line in reversed(str(report.longrepr).splitlines()) if line.strip()), "")
            last = last[1:].lstrip() if last.startswith("E ") else last  # pytest's error-line marker
            self.collection_errors.append(f"{report.nodeid}: {last}" if last else str(report.nodeid))

    @pytest.fixture
    def observe(self):
        def observe(probe, **params):
            return self.observer(probe, self._budget, self._own_work[1], params)

        def memory(probe, **params):
            """(value, bytes the peak resident memory grew during the call), measured from
            outside the student's process by the grader (tracemalloc in a kernel)."""
            return self.observer.memory(probe, self._budget, self._own_work[1], params)

        observe.memory = memory
        return observe

    @pytest.fixture
    def once(self):
        """once(key, compute): compute() the first time a test of this submission asks for
        ``key``, its value (or the exception it raised) every later time. For what several tests
        of one task judge from the same expensive probe: the probe runs once (under the first
        test's budget), and one mistake fails each of those tests with the same message."""
        def once(key, compute):
            if key not in self._once:
                try:
                    self._once[key] = (True, compute())
                except (AssertionError, StudentCodeError) as exc:
                    self._once[key] = (False, exc)
            ok, value = self._once[key]
            if not ok:
                raise value.with_traceback(None)
            return value

        return once

    @pytest.fixture
    def submission_seed(self) -> int:
        """Derived on the trusted side from the submission's content: the same submission always
        draws the same hidden inputs, another submission other ones."""
        return self.seed

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item):
        self._budget = Budget(self.timeout)
        self._task = item.get_closest_marker("task").args[0]
        self.declared = getattr(item.module, "OWN_WORK", {})
        label, names = self.declared.get(self._task, ("", []))
        self._own_work = (label, list(names))

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_makereport(self, item, call):
        """The report of a test's phase, made here rather than by pytest: pytest renders a failure's
        traceback, parsing the source file of every frame, which nobody reads (the student's message
        is the exception's own words): about a quarter of the trusted side's time in grading a class
        with mistakes. A skip is left to pytest (its reason and place)."""
        excinfo = call.excinfo
        if excinfo is not None and isinstance(excinfo.value, pytest.skip.Exception):
            return None
        exc = excinfo.value if excinfo is not None else None
        report = pytest.TestReport(item.nodeid, item.location, dict.fromkeys(item.keywords, 1),
                                   "passed" if excinfo is None else "failed",
                                   None if excinfo is None else excinfo.typename, call.when,
                                   duration=call.duration, start=call.start, stop=call.stop)
        if report.when == "call" or report.failed:
            if report.failed and isinstance(exc, Delegated):
                label, names = self._own_work
                used = exc.needle_name if exc.needle_name in names else "needle's own implementation"
                self.delegated.setdefault(self._task, f"Task {self._task} must be your own {label or 'work'}: it uses {used}")
            report.student_message = _student_message(excinfo) if report.failed else ""
            if report.failed and not isinstance(exc, (StudentCodeError, AssertionError)):
                entry = excinfo.traceback[-1]  # where the suite's (or a probe's) own code raised
                self.suite_errors[item.name] = f"{type(exc).__name__}: {str(exc)[:200]} ({Path(str(entry.path)).name}:{entry.lineno + 1})"
            report.reason = getattr(exc, "reason", "") if report.failed and isinstance(exc, StudentCodeError) else ""
        return report

    def pytest_sessionfinish(self, session):
        """A task answered with needle's own implementation scores nothing, whatever passed."""
        for r in self.results:
            if r.task in self.delegated:
                r.score, r.status, r.message, r.reason = 0.0, "failed", self.delegated[r.task], "own work"
        self._one_message_per_task()

    def _one_message_per_task(self) -> None:
        """A task's first failing rung gives its message; a later rung that fails points back to it."""
        ladders: dict[str, list] = {}
        for r in self.results:
            if r.test in self.rungs and r.task not in self.delegated:
                ladders.setdefault(r.task, []).append(r)
        firsts: dict[str, tuple] = {}  # task -> (its first failing rung's result, "rung K (name)")
        for task, results in ladders.items():
            first = None
            for r in sorted(results, key=lambda r: self.rungs[r.test][0]):
                if r.status == "passed":
                    continue
                number, name = self.rungs[r.test]
                where = f"Task {task}, rung {number} ({name})"
                if first is None:
                    first = where
                    firsts[task] = (r, where.partition(", ")[2])
                    if not r.message.startswith(where):
                        r.message = f"{where}: {r.message}"
                else:
                    r.message = f"{where}: {FAILS_TOO} {first.partition(', ')[2]}, the first rung your code fails"
        for task, (r, _) in firsts.items():  # the same note the visible cell adds (coursekit.ladder.check)
            declared = self.tasks_declared.get(task)
            for used in getattr(declared, "uses", []):
                if used in firsts and used in self.tasks_declared:
                    r.message += uses_note(task, used, self.tasks_declared[used].names, firsts[used][1])

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
                reason="" if passed else getattr(report, "reason", ""),
            ))


def submission_seed(cells: list[str]) -> int:
    """The seed of a submission's hidden inputs: a digest of the code the grader runs (so a
    regrade draws the same inputs, and any change to the code draws new ones)."""
    import hashlib

    digest = hashlib.sha256("\0".join(cells).encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def _display_name(item) -> str:
    doc = (item.obj.__doc__ or "").strip().splitlines()
    return doc[0] if doc else item.name.removeprefix("test_").replace("_", " ")


MESSAGE_LIMIT = 1_200  # characters of a test's message kept for the student


def _student_message(excinfo) -> str:
    """Only text the suite wrote: an assert's message or the grader's StudentCodeError."""
    if excinfo is None:
        return ""
    exc = excinfo.value
    if isinstance(exc, (StudentCodeError, AssertionError)):
        if exc.args and isinstance(exc.args[0], str):
            # Only the suite's own words: never pytest's introspection ("assert 7 == 4"). Bounded, with
            # room for the longest the suites write: a raise quoted with its line and cause, then the
            # test's own diagnosis (about 700 characters; 500 cut that diagnosis short).
            return exc.args[0].split("\nassert ")[0].strip()[:MESSAGE_LIMIT]
        return "this test failed"
    return "the test could not check your result (it has an unexpected form)"
