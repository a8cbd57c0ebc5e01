"""The nbgrader route: run a task's hidden tests inside the notebook's own kernel.

A hidden test block in a solution notebook is one call::

    from autograder.inkernel import check_task
    check_task("1.1", globals())

It finds the assignment (the folder the notebook runs in, as in nbgrader's layouts) and the
notebook (the suite that declares the task), runs that task's hidden tests with the probes
called directly on the notebook's namespace, and raises AssertionError listing what failed
(nbgrader then gives the cell 0 points). Weaker than the grader: the student's code shares
the process with the tests, so it could tamper with them. Use ``python -m autograder grade``
for grades that count. Nothing of the sandbox is imported here.
"""
from __future__ import annotations

import os
from pathlib import Path

from . import plaindata
from .course import Assignment, Course
from .plugin import GradingPlugin
from .probing import Missing
from .suite import StudentCodeError, describe_outcome
from .suiterun import collect_tests, run_suite


class LocalObserver:
    """Runs probes in this process against ``namespace`` (a kernel, or selfcheck)."""

    def __init__(self, namespace: dict):
        self.namespace = namespace

    def __call__(self, probe, deadline: float, **params):
        try:
            value = probe(self.namespace, **plaindata.from_plain(plaindata.to_plain(params)))
            return plaindata.from_plain(plaindata.loads(plaindata.dumps(plaindata.to_plain(value))))
        except Missing as exc:
            raise StudentCodeError(describe_outcome("missing", exc.name, probe.needs)) from None
        except plaindata.EncodeError:
            raise StudentCodeError(describe_outcome("unencodable", None, probe.needs)) from None
        except Exception as exc:
            raise StudentCodeError(describe_outcome("raised", type(exc).__name__, probe.needs)) from None


def locate_task(task: str, where: Path | None = None) -> tuple[Assignment, str]:
    """The assignment and notebook of ``task``: the assignment is the folder the notebook runs
    in (nbgrader runs it in solutions/<a>/, autograded/<student>/<a>/ ...) or else the only
    assignment declaring the task; the notebook is the one whose suite declares it."""
    where = Path(where or os.getcwd()).resolve()
    course = Course.locate()
    candidates = [where.name] if where.name in course.assignments() else course.assignments()
    found = []
    for name in candidates:
        assignment = course.assignment(name)
        for notebook in assignment.notebooks():
            if any(t == task for _, _, t, _ in collect_tests(assignment.suite(notebook))):
                found.append((assignment, notebook))
    if len(found) != 1:
        raise RuntimeError(f"Task {task}: {'no' if not found else 'more than one'} hidden suite declares it (ask your instructor)")
    return found[0]


def check_task(task: str, namespace: dict, timeout: float = 120.0) -> None:
    assignment, notebook = locate_task(task)
    plugin = GradingPlugin(LocalObserver(namespace), tasks={task}, timeout=timeout)
    run_suite(assignment.suite(notebook), plugin)
    failed = [r for r in plugin.results if r.status != "passed"]
    total = sum(r.points for r in plugin.results)
    score = sum(r.score for r in plugin.results)
    print(f"Task {task}: hidden tests {len(plugin.results) - len(failed)}/{len(plugin.results)} passed ({score:g}/{total:g} points)")
    if failed:
        lines = "\n".join(f"  - {r.name}: {r.message}" for r in failed)
        raise AssertionError(f"Task {task}: {len(failed)} hidden test(s) failed:\n{lines}")
