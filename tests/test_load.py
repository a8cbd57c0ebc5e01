"""The same submissions get the same grades on an idle machine and on one at full load.

Budgets are CPU seconds of the worker, read from outside it, so CPU hogs beside the grader slow
it down but change no verdict: an honest walk of the 100,000-update graph passes, an endless
loop is stopped, a too-slow walk is stopped, exactly as on an idle machine.
"""
import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from conftest import LECTURE8, grade_cli

NB = "01_graph_accumulation"
ASSIGNMENT = LECTURE8.name
ENDLESS = "def graph_depth(t):\n    while True:\n        pass\n"
# follows every path: exponential on the ladder (stopped by its read budget), fine elsewhere
EVERY_PATH = "def count_graph_nodes(t):\n    return 1 + sum(count_graph_nodes(x) for x in t.inputs)\n"
STUDENTS = {"honest": {}, "endless": {"task1_2_graph_depth": ENDLESS}, "every_path": {"task1_1_count_graph_nodes": EVERY_PATH}}


def _submit(release_root: Path, root: Path) -> None:
    for student, replace in STUDENTS.items():
        nb = nbformat.read(release_root / "course" / ASSIGNMENT / f"{NB}.ipynb", 4)
        solutions = {c.metadata["nbgrader"]["grade_id"]: c.source for c in nbformat.read(LECTURE8.source_notebook(NB), 4).cells
                     if c.metadata.get("nbgrader", {}).get("solution")}
        for cell in nb.cells:
            gid = cell.metadata.get("nbgrader", {}).get("grade_id")
            if cell.metadata.get("nbgrader", {}).get("solution"):
                cell.source = replace.get(gid, solutions[gid])
        folder = root / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / f"{NB}.ipynb")


def _grade(root: Path, out: Path) -> list[tuple]:
    proc = grade_cli(root, "--out", out, "--timeout", "2", "--jobs", "2")
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = csv.DictReader(io.StringIO((out / "grades.csv").read_text()))
    return sorted((r["student"], r["test"], r["score"], r["status"]) for r in rows if r["notebook"] == NB)


@pytest.mark.slow  # its CPU hogs take every core for most of a minute: make test-slow
def test_grades_under_cpu_hogs_equal_grades_on_an_idle_machine(release_root, tmp_path):
    _submit(release_root, tmp_path)
    idle = _grade(tmp_path, tmp_path / "idle")
    # CPU hogs as their own interpreters (a fork from a pytest-xdist worker can hang)
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3 * (os.cpu_count() or 2))]
    try:
        loaded = _grade(tmp_path, tmp_path / "loaded")
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert loaded == idle
    honest = [r for r in idle if r[0] == "honest"]
    assert honest and all(r[3] == "passed" for r in honest)
    assert any(r[0] == "endless" and r[3] == "failed" for r in idle)
    assert any(r[0] == "every_path" and r[3] == "failed" for r in idle)
