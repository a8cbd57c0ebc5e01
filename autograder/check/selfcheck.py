"""Validate hidden suites against the instructor's notebooks, both ways.

* each task's tests in the suite are worth the points of the task's grade cell in the solution
  notebook (nbgrader's ``points`` of ``taskN_M_tests``: what the gradebook and nbgrader's
  route count), and each grade cell has tests;
* the solution notebook's code passes every test of its suite;
* each task's stub (the solution cell as nbgrader releases it) fails every test of that task;
* each plausible mistake (``<suite>/mistakes/*.py``) loses the tests it names, every one of
  them with the hint the fixture declares and none of the hints it rules out (one mistake,
  one hint), and, when it says ``VISIBLE = True``, the notebook's own visible test cell of
  that task catches it with the same hint.

A fixture module::

    # (its docstring says what the mistake is; make demo shows the first line)
    NOTEBOOK = "01_graph_accumulation"
    CELLS = {"task1_1_count_graph_nodes": "def count_graph_nodes(t): ..."}   # replaced cells
    MUST_FAIL = ["test_count_deep_chain"]      # test names, or "task:1.1" for all of a task's
    HINT = "explicit stack"                    # in the message of every test it fails
    NOT_HINTS = ["paths"]                      # in none of them (optional)
    VISIBLE = True                             # the visible test cell catches it (optional)

Runs the suites in-process (``LocalObserver``): trusted code only, so no sandbox is needed.
``python -m autograder selfcheck lecture8`` prints the outcome of every check.
"""
from __future__ import annotations

import ast
import contextlib
import io
import itertools
import linecache
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

from coursekit.trace import default_recursion_limit

from .. import notebook as nbmod
from ..course import Assignment, task_of
from ..plugin import GradingPlugin, stopped_at
from ..results import TestResult, points_back
from ..suiterun import SuiteBroken, collect_tests, run_suite
from . import stated_points
from .inkernel import LocalObserver
from .isolation import restored
from .manifest import ladders, suite_tasks

HIDDEN_BLOCK = re.compile(r"^[ \t]*### BEGIN HIDDEN TESTS.*?### END HIDDEN TESTS[^\n]*$", re.MULTILINE | re.DOTALL)
SOLUTION_BLOCK = re.compile(r"^([ \t]*)### BEGIN SOLUTION[^\n]*\n.*?^[ \t]*### END SOLUTION[^\n]*$", re.MULTILINE | re.DOTALL)


def stub(source: str) -> str:
    """The released version of a solution cell (as nbgrader's ClearSolutions makes it)."""
    return SOLUTION_BLOCK.sub(lambda m: f"{m.group(1)}# YOUR CODE HERE\n{m.group(1)}raise NotImplementedError()", source)


@dataclass
class Cell:
    grade_id: str
    source: str
    solution: bool


SOLUTION_SEEDS = (0, 1, 2026)


def grading_cells(assignment: Assignment, notebook: str) -> list[Cell]:
    """The setup and solution cells of a solution notebook, in order."""
    nb = nbmod.read_notebook(assignment.source_notebook(notebook))
    return [Cell(nbmod.grade_id(c), nbmod.source_of(c), nbmod.is_solution(c))
            for c in nb["cells"] if nbmod.is_setup(c) or (nbmod.is_solution(c) and c.get("cell_type") == "code")]


_CELL_NUMBERS = itertools.count(10_000)  # cells run here, each under a name of its own


def namespace_of(cells: list[Cell], replace: dict[str, str] | None = None) -> dict:
    """Execute the cells (with some replaced) into a fresh namespace, as a kernel would (what they
    import of a module the grader lacks, matplotlib, stands for it while a probe runs)."""
    ns: dict = {"__name__": "__main__"}
    # a cell's own sys.setrecursionlimit(...) changes nothing, as in the sandbox
    with contextlib.redirect_stdout(io.StringIO()), default_recursion_limit():
        for cell in cells:
            source = (replace or {}).get(cell.grade_id, cell.source)
            name = f"<cell {next(_CELL_NUMBERS)}>"  # named as the grader names a cell: a hint finds its lines
            linecache.cache[name] = (len(source), None, source.splitlines(True), name)
            exec(compile(source, name, "exec"), ns)
    return ns


def check_points(assignment: Assignment, notebook: str) -> list[str]:
    """Where the suite's points of a task disagree with the task's grade cell in the notebook."""
    cells: dict[str, float] = {}
    for c in nbmod.read_notebook(assignment.source_notebook(notebook))["cells"]:
        task = task_of(nbmod.grade_id(c))
        points = nbmod._nbgrader(c).get("points")
        if task and c.get("cell_type") == "code" and nbmod._nbgrader(c).get("grade") is True:
            cells[task] = cells.get(task, 0.0) + float(points or 0)
    suite: dict[str, float] = {}
    for _test, _name, task, points in collect_tests(assignment.suite(notebook)):
        suite[task] = suite.get(task, 0.0) + points
    problems = []
    for task in sorted(cells.keys() | suite.keys(), key=lambda t: tuple(int(x) for x in t.split("."))):
        if task not in suite:
            problems.append(f"Task {task} has a grade cell worth {cells[task]:g} points but no test in {assignment.suite(notebook).name}")
        elif task not in cells:
            problems.append(f"Task {task}'s tests are worth {suite[task]:g} points but the notebook has no grade cell "
                            f"task{task.replace('.', '_')}_tests for it")
        elif suite[task] != cells[task]:
            problems.append(f"Task {task}: the suite's tests are worth {suite[task]:g} points, the notebook's grade cell "
                            f"says {cells[task]:g} (nbgrader caps the gradebook at the cell's points)")
    return problems


def run(assignment: Assignment, notebook: str, ns: dict, tasks: set[str] | None = None, timeout: float = 120.0,
        seed: int = 0, suite_errors: dict | None = None) -> list[TestResult]:
    """The suite's results on ``ns``; ``suite_errors`` gets {test: the exception the test's own code raised}."""
    plugin = GradingPlugin(LocalObserver(ns), tasks=tasks, timeout=timeout, seed=seed)
    run_suite(assignment.suite(notebook), plugin)
    if suite_errors is not None:
        suite_errors.update(plugin.suite_errors)
    return plugin.results


@restored()
def check_solutions(assignment: Assignment, notebook: str) -> list[str]:
    """What fails when the suite runs on the instructor's own solutions, with the hidden inputs of
    three different submissions (nothing should): each test's message, and the exception when the
    test's own code raised (an import the suite lacks), which a student reads only as "could not check"."""
    ns = namespace_of(grading_cells(assignment, notebook))
    problems: dict[str, str] = {}  # test -> what went wrong, each test once (not once per seed)
    for seed in SOLUTION_SEEDS:
        errors: dict = {}
        for r in run(assignment, notebook, ns, seed=seed, suite_errors=errors):
            if r.status != "passed" and r.test not in problems:
                problems[r.test] = f"{r.test} failed: {r.message}" + (f" [the test raised {errors[r.test]}]" if r.test in errors else "")
    return list(problems.values())


def check_cells(assignment: Assignment, notebook: str) -> list[str]:
    """Solution cells the tools would mishandle: a code cell whose grade_id names no task (its stub,
    tests and points are never matched to it), and code after ``### END SOLUTION`` that follows the
    stub's ``raise NotImplementedError()`` in the same block (released to students, yet never run)."""
    problems = _grade_cell_problems(assignment, notebook)
    for cell in grading_cells(assignment, notebook):
        if not cell.solution:
            continue
        if task_of(cell.grade_id) is None:
            problems.append(f"solution cell {cell.grade_id!r}: a code cell's grade_id must be taskN_M_<name> "
                            "(e.g. task3_4_softplus), or its task's stub, tests and points are not matched to it")
            continue
        line = _code_after_stub(stub(cell.source))
        if line:
            problems.append(f"solution cell {cell.grade_id}: line {line} of the released stub comes after "
                            "### END SOLUTION and its raise NotImplementedError(): students receive it (a solution "
                            "line?) and it never runs; move it inside the solution block")
    return problems


def _grade_cell_problems(assignment: Assignment, notebook: str) -> list[str]:
    """A declared task's grade cell is its visible tests, ``check("N.M")`` (the first rungs of its
    ladder), and nbgrader's hidden block ``check_task("N.M", globals())``: nothing else checks. (A
    suite that declares no task, written with ``@graded`` tests only, keeps its own visible tests.)"""
    problems = []
    declared = suite_tasks(assignment, notebook)
    for c in nbmod.read_notebook(assignment.source_notebook(notebook))["cells"]:
        task = task_of(nbmod.grade_id(c))
        if not (task in declared and c.get("cell_type") == "code" and nbmod._nbgrader(c).get("grade") is True):
            continue
        source = nbmod.source_of(c)
        visible = HIDDEN_BLOCK.sub("", source)
        if not re.search(rf"""^check\(["']{re.escape(task)}["']\)\s*$""", visible, re.M):
            problems.append(f"grade cell {nbmod.grade_id(c)}: its visible tests are the line check(\"{task}\") (the "
                            "first rungs of the task's ladder, declared in its suite)")
        if f'check_task("{task}", globals())' not in source:
            problems.append(f"grade cell {nbmod.grade_id(c)}: it lacks nbgrader's hidden block, check_task(\"{task}\", "
                            "globals()) between ### BEGIN HIDDEN TESTS and ### END HIDDEN TESTS")
        if any(isinstance(node, ast.Assert) for node in ast.walk(ast.parse(visible))):
            problems.append(f"grade cell {nbmod.grade_id(c)}: an assert beside check(\"{task}\"): a check of the task "
                            "is a rung of its ladder, so that the visible and the hidden message are the same words")
    return problems


def _code_after_stub(source: str) -> int:
    """The line of the first statement after a stub's ``raise NotImplementedError()`` in the same
    block, else 0."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return 0  # the notebook tests report it
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if not isinstance(body, list):
                continue
            for first, after in zip(body, body[1:]):
                if isinstance(first, ast.Raise) and "NotImplementedError" in ast.unparse(first):
                    return after.lineno
    return 0


@restored()
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
    return {k: spec[k] for k in ("NOTEBOOK", "CELLS", "MUST_FAIL")} | {
        "doc": (spec.get("__doc__") or "").strip(), "HINT": spec.get("HINT", ""),
        "NOT_HINTS": list(spec.get("NOT_HINTS", [])), "VISIBLE": bool(spec.get("VISIBLE", False)),
    }


@restored()
def check_mistake(assignment: Assignment, path: Path) -> tuple[dict, list[TestResult]]:
    spec = load_mistake(path)
    cells = grading_cells(assignment, spec["NOTEBOOK"])
    unknown = set(spec["CELLS"]) - {c.grade_id for c in cells}
    if unknown:
        raise ValueError(f"{path.name}: no solution cell with grade_id {sorted(unknown)}")
    return spec, run(assignment, spec["NOTEBOOK"], namespace_of(cells, spec["CELLS"]))


def must_fail(spec: dict, results: list[TestResult]) -> list[str]:
    """The test names a fixture must lose ("task:N.M" stands for every test of that task worth
    points: the answer earns nothing there; a visible rung, worth none, may pass)."""
    names = []
    for entry in spec["MUST_FAIL"]:
        if entry.startswith("task:"):
            tests = [r.test for r in results if r.task == entry[5:] and r.points > 0]
            if not tests:
                raise ValueError(f"MUST_FAIL names {entry}, a task without tests in {spec['NOTEBOOK']}")
            names += tests
        else:
            names.append(entry)
    return names


def full_marks_when_wrong(spec: dict, results: list[TestResult]) -> list[str]:
    """The tasks whose cells a wrong answer changes, that fail some rung (a visible one, worth
    nothing, perhaps) and still get every point: a behaviour no hidden rung checks again for points.
    (A task that only calls the wrong one, unchanged itself, may keep its points.)"""
    mine = {task_of(gid) for gid in spec["CELLS"]}
    tasks = {r.task for r in results if r.status != "passed" and r.task in mine}
    return [f"Task {task}: fails {', '.join(r.test for r in results if r.task == task and r.status != 'passed')} "
            "and keeps every point" for task in sorted(tasks)
            if all(r.score == r.points for r in results if r.task == task)]


def hint_problems(spec: dict, results: list[TestResult]) -> list[str]:
    """Failed tests whose message lacks the fixture's hint or carries one it rules out."""
    problems = []
    for r in results:
        if r.status == "passed" or points_back(r.message):  # a later rung: the task's message is its first failing rung's
            continue
        if spec["HINT"] and spec["HINT"] not in r.message:
            problems.append(f"{r.test} lacks the hint {spec['HINT']!r}: {r.message!r}")
        problems += [f"{r.test} says {bad!r}: {r.message!r}" for bad in spec["NOT_HINTS"] if bad in r.message]
    return problems


@restored()
def visible_message(assignment: Assignment, notebook: str, task: str, replace: dict[str, str]) -> str:
    """What the task's visible test cell says of the notebook's code with some solution cells
    replaced: its error message, or "" if it passes. The cell is ``check("N.M")`` (checked by
    ``check_cells``), run on the grading cells' definitions with the release's tasks.json."""
    from coursekit.ladder import check

    ns = namespace_of(grading_cells(assignment, notebook), replace)
    try:  # as a kernel runs it: a warning is printed, never raised (whatever the caller's filters)
        with contextlib.redirect_stdout(io.StringIO()), default_recursion_limit(), warnings.catch_warnings():
            warnings.simplefilter("default")
            check(task, ns, folder=assignment.source_dir)
    except AssertionError as exc:
        return str(exc)
    return ""


def accepted(assignment: Assignment, notebook: str) -> dict:
    """A suite's ACCEPTED = {"what": {grade_id: source}}: correct answers other than the solution's."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"_accepted_{assignment.name}_{notebook}", assignment.suite(notebook))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, "ACCEPTED", {})


@restored()
def check_accepted(assignment: Assignment, notebook: str, cells: dict[str, str]) -> str:
    """"" when an accepted answer passes every hidden test of its tasks and their visible tests."""
    tasks = {task_of(g) for g in cells}
    results = run(assignment, notebook, namespace_of(grading_cells(assignment, notebook), cells), tasks=tasks)
    lost = [f"{r.test}: {r.message}" for r in results if r.status != "passed"]
    if not results or lost:
        return f"loses {lost or 'every test'}"
    rejected = [t for t in sorted(tasks) if visible_message(assignment, notebook, t, cells)]
    return f"the visible tests of {rejected} reject it" if rejected else ""


def main(assignment: Assignment, only: str | None = None) -> int:
    if only is not None and only not in assignment.notebooks():
        print(f"selfcheck: no notebook {only!r} in {assignment.name}; expected one of {assignment.notebooks()}")
        return 2
    problems = 0
    checked = []
    for name in assignment.notebooks():
        if only and name != only:
            continue
        try:
            found = check_notebook(assignment, name)
        except SuiteBroken as exc:  # nothing else of this notebook can be checked
            found = 1
            print(f"FAIL {name} suite: {exc}")
        else:
            checked.append(name)
        problems += found
    reached: dict[str, set[str]] = {}  # task -> the rungs where some fixture's ladder stops
    for path in assignment.mistakes():
        if load_mistake(path)["NOTEBOOK"] not in checked:
            continue  # another notebook's (filtered before running), or one whose suite is broken
        spec, results = check_mistake(assignment, path)
        stops = stopped_at(results)
        for task, rung in stops.items():
            reached.setdefault(task, set()).add(rung)
        failed = {r.test for r in results if r.status != "passed"}
        expected = must_fail(spec, results)
        missing = [t for t in expected if t not in failed]
        unknown = [t for t in expected if t not in {r.test for r in results}]
        wrong_hints = hint_problems(spec, results) + full_marks_when_wrong(spec, results)
        visible = ""
        if spec["VISIBLE"]:
            tasks = {task_of(gid) for gid in spec["CELLS"]}
            messages = [visible_message(assignment, spec["NOTEBOOK"], t, spec["CELLS"]) for t in sorted(tasks)]
            if not any(spec["HINT"] in m for m in messages):
                visible = f"the visible tests do not catch it with its hint: {messages}"
        if missing or unknown or wrong_hints or visible:
            problems += 1
            print(f"FAIL mistake {path.name}: still passes {missing}, unknown tests {unknown} {wrong_hints} {visible}")
        else:
            where = "; ".join(f"Task {t} stops at {r}" for t, r in sorted(stops.items()))
            print(f"ok   mistake {path.name}: " + (where or f"loses {sorted(failed)}"))
    for name in checked:
        for task, rungs in ladders(assignment, name).items():
            unreached = [r for r in rungs if r not in reached.get(task, set())]
            if unreached:
                problems += 1
                print(f"FAIL {name}: no mistake fixture stops at Task {task}'s {', '.join(unreached)}: a rung no wrong "
                      f"answer reaches checks nothing yet; add a fixture ({assignment.mistakes_dir.name}/*.py) whose "
                      "first failing rung it is")
            else:
                print(f"ok   {name}: a mistake fixture stops at each of Task {task}'s {len(rungs)} rungs")
        never = never_failing(assignment, name)
        if never:
            problems += 1
            print(f"FAIL {name}: no mistake fixture names {never} in MUST_FAIL: a test that cannot fail? Add a fixture "
                  f"({assignment.mistakes_dir.name}/*.py) with a wrong answer it must catch")
        else:
            print(f"ok   {name}: every test is one a mistake fixture must fail")
    root = assignment.course.root
    docs = [p for p in sorted((root / "docs").glob("*.md")) + [root / "README.md"] if p.is_file()]
    stated = stated_points.problems(assignment, docs)
    for problem in stated:
        problems += 1
        print(f"FAIL points stated in prose: {problem}")
    if not stated:
        print(f"ok   {assignment.name}: every point total the notebooks and the docs state is the declarations'")
    return 1 if problems else 0


def never_failing(assignment: Assignment, notebook: str) -> list[str]:
    """The tests of a notebook's suite that no mistake fixture must fail. A stub raises before any
    assert runs, so only a wrong answer (a fixture, whose MUST_FAIL tests are checked to fail)
    shows that a test can fail at all."""
    named: set[str] = set()
    for path in assignment.mistakes():
        spec = load_mistake(path)
        if spec["NOTEBOOK"] == notebook:
            named |= set(spec["MUST_FAIL"])
    return [test for test, _, task, _ in collect_tests(assignment.suite(notebook))
            if test not in named and f"task:{task}" not in named]


def check_notebook(assignment: Assignment, name: str) -> int:
    """Check one notebook's cells, points, solutions, stubs and accepted answers; print each
    outcome and return the number of problems."""
    problems = 0
    for problem in check_cells(assignment, name):
        problems += 1
        print(f"FAIL {name} cells: {problem}")
    points = check_points(assignment, name)
    for problem in points:
        problems += 1
        print(f"FAIL {name} points: {problem}")
    if not points:
        print(f"ok   {name}: the suite's points per task are the grade cells' points")
    before = problems
    for problem in check_solutions(assignment, name):
        problems += 1
        print(f"FAIL {name} solution: {problem}")
    for task, results in check_stubs(assignment, name).items():
        if not results:
            problems += 1
            print(f"FAIL {name} task {task}: no tests")
        for r in results:
            if r.status == "passed":
                problems += 1
                print(f"FAIL {name} task {task} stub passes {r.test}")
    if problems == before:
        print(f"ok   {name}: solutions pass, stubs fail")
    for key, cells in accepted(assignment, name).items():
        problem = check_accepted(assignment, name, cells)
        problems += bool(problem)
        print(f"FAIL {name} accepted answer {key}: {problem}" if problem else f"ok   {name} accepted answer {key}: full marks")
    return problems
