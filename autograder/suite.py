"""What hidden suites are written with.

A suite is a pytest module ``autograder/suites/<assignment>/test_<notebook>.py``; its probes
(the code that runs the student's functions) live in ``probes/p<notebook>.py`` beside it and
are loaded with ``P = load_probes(__file__)``; when reading their reports takes more than a few
lines, those functions live in ``judges/j<notebook>.py`` (``J = load_judges(__file__)``), so that
the suite reads as its tasks' declarations and ladders.
A test asks for the ``observe`` fixture, calls ``observe(probe, **inputs)`` to run a probe on
the student's code and get plain data back, and judges that data with plain asserts whose
message is what the student reads::

    @graded("1.1", points=2)
    def test_long_chain(observe):
        "count_graph_nodes counts every node of a very deep chain"
        assert observe(P.count_chain, depth=100_000) == 200_001, "count every node once ..."

Messages must name the mistake without revealing hidden inputs or expected values. In the
grader, ``observe`` runs the probe in the sandboxed worker and the asserts run in the trusted
process; in a notebook (the nbgrader route) both run in the student's kernel.
"""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, Verbosity

# Hypothesis in a hidden suite: deterministic (grading twice gives the same result), quiet
# (a falsifying example is a hidden input), no shrinking (a failing student pays no extra
# probe calls for an example nobody sees). Use as @settings(max_examples=n, **HYPOTHESIS).
HYPOTHESIS = dict(
    derandomize=True, database=None, deadline=None, verbosity=Verbosity.quiet,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)


def load_probes(suite_file: str):
    """The probes module of the suite in ``suite_file`` (``probes/p<notebook>.py`` beside it;
    ``suite_file`` may be the suite's judges), imported by path: a course's suites need not be an
    importable package."""
    from .course import probes_beside

    return _import_by_path(probes_beside(Path(suite_file)), "_probes")


def load_judges(suite_file: str):
    """The judges module of the suite in ``suite_file`` (``judges/j<notebook>.py`` beside it): the
    functions its rungs call to read the probes' reports, on the trusted side."""
    from .course import judges_beside

    return _import_by_path(judges_beside(Path(suite_file)), "_judges")


def _import_by_path(path: Path, prefix: str):
    name = f"{prefix}_{path.parent.parent.name}_{path.stem}"
    module = sys.modules.get(name)
    if module is None or module.__file__ != str(path):
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module


TASK_ID = re.compile(r"[0-9]+\.[0-9]+")


def graded(task: str, points: float, feedback_only: bool = False):
    """Mark a test as part of task ``task`` ("N.M") worth ``points`` (0 for a test that only gives
    feedback: a visible rung, whose input and answer the student has)."""
    if not isinstance(task, str) or not TASK_ID.fullmatch(task):
        raise ValueError(f"@graded({task!r}, ...): the task must be a string \"N.M\" like \"3.4\", as in the notebook's "
                         "Task N.M and its grade cell taskN_M_tests")
    if isinstance(points, bool) or not isinstance(points, (int, float)) or not (points == 0 if feedback_only else points > 0):
        raise ValueError(f"@graded({task!r}, points={points!r}): points must be "
                         + ("0 (the test gives feedback only)" if feedback_only else "a positive number"))

    def mark(fn):
        fn = pytest.mark.task(task)(fn)
        return pytest.mark.points(points)(fn)

    return mark


class StudentCodeError(Exception):
    """The student's code could not produce a value: raised, hung, crashed, missing name.

    Its message is written by the grader (never taken from the student's code); ``reason`` is
    the grader's word for the cause when it is one (timeout, crashed, own work, ...)."""

    def __init__(self, message: str, reason: str = ""):
        super().__init__(message)
        self.reason = reason


class Delegated(StudentCodeError):
    """The task was answered with needle's own implementation of it (``needle_name``)."""

    def __init__(self, needle_name: str):
        super().__init__(needle_name, "own work")
        self.needle_name = needle_name


# Exception names repeated back to a student: common built-ins only, and only when the
# exception is exactly that built-in class (a class of the submission's, or a choice among
# many names, could carry information out of the sandbox).
KNOWN_EXCEPTIONS = {
    "ArithmeticError", "AssertionError", "AttributeError", "FloatingPointError", "ImportError", "IndexError", "KeyError",
    "LookupError", "MemoryError", "ModuleNotFoundError", "NameError", "NotImplementedError", "OverflowError", "RecursionError",
    "RuntimeError", "TypeError", "UnboundLocalError", "ValueError", "ZeroDivisionError",
}


def describe_outcome(kind: str, value, needs: tuple) -> str:
    if kind == "missing":
        return f"`{value}` is not defined: run (or restore) the cell that defines it" if value in needs else "a name your code needs is not defined"
    if kind == "raised":
        if value == "NotImplementedError":
            return "your code raised NotImplementedError: the stub is not implemented yet"
        if value == "RecursionError":
            return "your code raised RecursionError: Python's recursion limit; walk deep structures with an explicit stack"
        if value in ("ModuleNotFoundError", "ImportError"):
            return ("your code imports a module that grading does not provide (numpy, needle and the standard "
                    "library's common modules are there)")
        shown = value if value in KNOWN_EXCEPTIONS else "an exception"
        return f"your code raised {shown}"
    if kind == "timeout":
        return "your code did not finish within its CPU-time budget (an endless loop, far too slow, or asleep)"
    if kind == "unencodable":
        return "your code returned a value of an unexpected type"
    if kind == "disk":
        return "your code wrote too many files (over 64 MiB): grading needs no files"
    return "your code ended the grading process (it exited, crashed, or exhausted its memory)"


# --- assertions with student-facing messages -----------------------------------------------
def expect_array(value, message: str, shape=None) -> np.ndarray:
    assert isinstance(value, np.ndarray), message + " (expected an array)"
    if shape is not None:
        assert value.shape == tuple(shape), message + " (the result has the wrong shape)"
    return value


def assert_close(got, want, message: str, rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """``got`` (plain data from a probe) equals ``want`` up to tolerance, shape and nan/inf included."""
    want = np.asarray(want)
    if isinstance(got, (int, float)) and not isinstance(got, bool):
        got = np.asarray(got, dtype=np.float64)
    assert isinstance(got, np.ndarray) and got.dtype.kind in "biuf", message + " (expected numbers)"
    assert got.shape == want.shape, message + " (the result has the wrong shape)"
    got, want = got.astype(np.float64), want.astype(np.float64)
    same_special = (np.isnan(got) == np.isnan(want)) & (np.isposinf(got) == np.isposinf(want)) & (np.isneginf(got) == np.isneginf(want))
    assert same_special.all(), message + " (nan or inf where a number was expected, or the reverse)"
    finite = np.isfinite(want)
    assert np.allclose(got[finite], want[finite], rtol=rtol, atol=atol), message
