"""Validate hidden suites against the instructor's notebooks, both ways.

* the solution notebook's code passes every test of its suite;
* each task's stub (the solution cell as nbgrader releases it) fails every test of that task;
* each plausible mistake (``<suite>/mistakes/*.py``) loses the tests it names.

Runs the suites in-process (``LocalObserver``): trusted code only, so no sandbox is needed.
``python -m autograder selfcheck lecture8`` prints the outcome of every check.
"""
from __future__ import annotations

import contextlib
import io
import re
from dataclasses import dataclass
from pathlib import Path

from . import notebook as nbmod
from .course import Assignment, task_of
from .inkernel import LocalObserver
from .plugin import GradingPlugin
from .results import TestResult
from .suiterun import run_suite

SOLUTION_BLOCK = re.compile(r"^([ \t]*)### BEGIN SOLUTION[^\n]*\n.*?^[ \t]*### END SOLUTION[^\n]*$", re.MULTILINE | re.DOTALL)


def stub(source: str) -> str:
    """The released version of a solution cell (as nbgrader's ClearSolutions makes it)."""
    return SOLUTION_BLOCK.sub(lambda m: f"{m.group(1)}# YOUR CODE HERE\n{m.group(1)}raise NotImplementedError()", source)


@dataclass
class Cell:
    grade_id: str
    source: str
    solution: bool


def grading_cells(assignment: Assignment, notebook: str) -> list[Cell]:
    """The setup and solution cells of a solution notebook, in order."""
    nb = nbmod.read_notebook(assignment.source_notebook(notebook))
    return [Cell(nbmod.grade_id(c), nbmod.source_of(c), nbmod.is_solution(c))
            for c in nb["cells"] if nbmod.is_setup(c) or nbmod.is_solution(c)]


def namespace_of(cells: list[Cell], replace: dict[str, str] | None = None) -> dict:
    """Execute the cells (with some replaced) into a fresh namespace, as a kernel would."""
    ns: dict = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in cells:
            exec(compile((replace or {}).get(cell.grade_id, cell.source), f"<{cell.grade_id}>", "exec"), ns)
    return ns


def run(assignment: Assignment, notebook: str, ns: dict, tasks: set[str] | None = None, timeout: float = 120.0) -> list[TestResult]:
    plugin = GradingPlugin(LocalObserver(ns), tasks=tasks, timeout=timeout)
    run_suite(assignment.suite(notebook), plugin)
    return plugin.results


def check_solutions(assignment: Assignment, notebook: str) -> list[TestResult]:
    """Results of the suite on the instructor's own solutions (all should pass)."""
    return run(assignment, notebook, namespace_of(grading_cells(assignment, notebook)))


def check_stubs(assignment: Assignment, notebook: str) -> dict[str, list[TestResult]]:
    """For each task: results of its tests when that task's cells are stubs (all should fail)."""
    cells = grading_cells(assignment, notebook)
    out = {}
    for task in sorted({task_of(c.grade_id) for c in cells if c.solution} - {None}):
        replace = {c.grade_id: stub(c.source) for c in cells if c.solution and task_of(c.grade_id) == task}
        out[task] = run(assignment, notebook, namespace_of(cells, replace), tasks={task})
    return out


def load_mistake(path: Path) -> dict:
    spec: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), spec)
    return {k: spec[k] for k in ("NOTEBOOK", "CELLS", "MUST_FAIL")} | {"doc": (spec.get("__doc__") or "").strip()}


def check_mistake(assignment: Assignment, path: Path) -> tuple[dict, list[TestResult]]:
    spec = load_mistake(path)
    cells = grading_cells(assignment, spec["NOTEBOOK"])
    unknown = set(spec["CELLS"]) - {c.grade_id for c in cells}
    if unknown:
        raise ValueError(f"{path.name}: no solution cell with grade_id {sorted(unknown)}")
    return spec, run(assignment, spec["NOTEBOOK"], namespace_of(cells, spec["CELLS"]))


def main(assignment: Assignment, only: str | None = None) -> int:
    if only is not None and only not in assignment.notebooks():
        print(f"selfcheck: no notebook {only!r} in {assignment.name}; expected one of {assignment.notebooks()}")
        return 2
    problems = 0
    for name in assignment.notebooks():
        if only and name != only:
            continue
        for r in check_solutions(assignment, name):
            if r.status != "passed":
                problems += 1
                print(f"FAIL {name} solution: {r.test} failed: {r.message}")
        for task, results in check_stubs(assignment, name).items():
            if not results:
                problems += 1
                print(f"FAIL {name} task {task}: no tests")
            for r in results:
                if r.status == "passed":
                    problems += 1
                    print(f"FAIL {name} task {task} stub passes {r.test}")
        print(f"ok   {name}: solutions pass, stubs fail")
    for path in assignment.mistakes():
        if only and load_mistake(path)["NOTEBOOK"] != only:
            continue  # filtered before running
        spec, results = check_mistake(assignment, path)
        failed = {r.test for r in results if r.status != "passed"}
        missing = [t for t in spec["MUST_FAIL"] if t not in failed]
        unknown = [t for t in spec["MUST_FAIL"] if t not in {r.test for r in results}]
        if missing or unknown:
            problems += 1
            print(f"FAIL mistake {path.name}: still passes {missing}, unknown tests {unknown}")
        else:
            print(f"ok   mistake {path.name}: loses {sorted(failed)}")
    return 1 if problems else 0
