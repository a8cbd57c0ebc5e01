"""Delegation is impossible, not detected: every `delegate_*` mistake fixture (an alias, a
subclass, a copied method, a call, a super() call, sys.modules, ...) graded by the real command
line. In the worker that grades the task, needle's implementation of it does not exist, so the
task scores 0 with "Task N.M must be your own ..."; the other tasks of the notebook keep their
points (their workers hold needle whole).
"""
import csv
import io
import json
import shutil

import pytest

from autograder import demo
from autograder.check.selfcheck import load_mistake
from autograder.results import points_back
from autograder.suiterun import collect_tests
from conftest import LECTURE8, grade_cli

FIXTURES = sorted(p for p in LECTURE8.mistakes_dir.glob("delegate_*.py"))
# A library's implementation instead of the student's: scipy is not in the worker (it provides
# numpy, needle and common standard-library modules), and the hint names it at the student's line,
# which only the real command line shows (selfcheck's fixture, logsumexp_stable_via_scipy, has no lines).
SCIPY_LOGSUMEXP = {
    "NOTEBOOK": "03_stable_softmax",
    "CELLS": {"task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    from scipy.special import logsumexp
    return logsumexp(x, axis=axis, keepdims=keepdims)
'''},
}


def _task_points(notebook: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for _, _, task, points in collect_tests(LECTURE8.suite(notebook)):
        out[task] = out.get(task, 0.0) + points
    return out


@pytest.fixture(scope="module")
def graded(tmp_path_factory, release_root, once_per_run):
    """Graded once per run (whichever pytest-xdist worker needs it first)."""
    return once_per_run("delegation", lambda: _graded(tmp_path_factory, release_root))


def _graded(tmp_path_factory, release_root):
    root = tmp_path_factory.mktemp("delegation")
    shutil.copytree(release_root, root, dirs_exist_ok=True)
    release_dir = root / "course" / LECTURE8.name
    solved = demo.solutions_by_grade_id(LECTURE8)
    specs = {}
    for path in FIXTURES:
        spec = load_mistake(path)
        specs[path.stem] = spec
        demo.submit(release_dir, root, LECTURE8.name, path.stem, {**solved, **spec["CELLS"]})
    demo.submit(release_dir, root, LECTURE8.name, "library_scipy", {**solved, **SCIPY_LOGSUMEXP["CELLS"]})
    for notebook in (root / "submitted" / "library_scipy" / LECTURE8.name).glob("*.ipynb"):
        if notebook.stem != SCIPY_LOGSUMEXP["NOTEBOOK"]:
            notebook.unlink()
    # each student submitted every notebook: grade only the one its fixture is about
    for student, spec in specs.items():
        for notebook in (root / "submitted" / student / LECTURE8.name).glob("*.ipynb"):
            if notebook.stem != spec["NOTEBOOK"]:
                notebook.unlink()
    out = root / "out"
    proc = grade_cli(root, "--out", out, "--jobs", "2")
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = list(csv.DictReader(io.StringIO((out / "grades.csv").read_text())))
    return specs, rows, out


@pytest.mark.parametrize("fixture", [p.stem for p in FIXTURES])
def test_a_delegated_task_scores_zero_and_says_why(graded, fixture):
    specs, rows, out = graded
    spec = specs[fixture]
    tasks = {m.split(":", 1)[1] for m in spec["MUST_FAIL"] if m.startswith("task:")}
    mine = [r for r in rows if r["student"] == fixture and r["notebook"] == spec["NOTEBOOK"]]
    assert mine, f"{fixture}: not graded"
    for task in tasks:
        task_rows = [r for r in mine if r.get("task", task) == task or r["test"] in _tests_of(spec["NOTEBOOK"], task)]
        assert task_rows and all(float(r["score"]) == 0 for r in task_rows), (fixture, task)
    results = json.loads(next(out.rglob(f"{fixture}/**/results.json"), out / fixture / "results.json").read_text())
    said = " ".join(t["output"] for t in results["tests"])
    assert spec["HINT"] in said, (fixture, said[:500])
    # every other task keeps its points, unless it builds on the delegated one (3.3's op calling
    # 3.2's function): then it reached needle's implementation too, and says so
    points = _task_points(spec["NOTEBOOK"])
    for task, full in points.items():
        if task in tasks:
            continue
        rows = [r for r in mine if r["test"] in _tests_of(spec["NOTEBOOK"], task)]
        kept = sum(float(r["score"]) for r in rows)
        said_own = [t for t in results["tests"] if t.get("extra_data", {}).get("task") == task
                    and t.get("extra_data", {}).get("notebook") == spec["NOTEBOOK"] and "must be your own" in t["output"]]
        assert kept == full or len(said_own) == len(rows), (fixture, task, kept)


def _tests_of(notebook: str, task: str) -> set[str]:
    return {test for test, _, t, _ in collect_tests(LECTURE8.suite(notebook)) if t == task}


def test_a_library_implementation_is_not_in_the_worker_and_the_hint_says_so(graded):
    """Task 3.2 answered with scipy.special.logsumexp scores 0, with the module named at the
    student's line; Task 3.1 keeps its points."""
    _, rows, out = graded
    notebook = SCIPY_LOGSUMEXP["NOTEBOOK"]
    mine = {r["test"]: r for r in rows if r["student"] == "library_scipy" and r["notebook"] == notebook}
    assert all(float(mine[t]["score"]) == 0 for t in _tests_of(notebook, "3.2"))
    assert sum(float(mine[t]["score"]) for t in _tests_of(notebook, "3.1")) == _task_points(notebook)["3.1"]
    results = json.loads((out / "library_scipy" / "results.json").read_text())
    said = [t["output"] for t in results["tests"] if t["extra_data"]["task"] == "3.2"]
    first = [m for m in said if not points_back(m)]  # the task's one message; its later rungs point back to it
    assert len(first) == 1 and "from scipy.special import logsumexp`: a module that cannot be imported where your " \
        "code runs (`scipy`)" in first[0], said

