"""A renamed notebook is graded on the local route as on Gradescope's, and named to the staff.

`Copy of 01_graph_accumulation.ipynb` (Google Drive), `01_graph_accumulation (1).ipynb` (a
browser's second download) in a student's submitted folder scored 0 locally ("not a notebook of
this assignment") while Gradescope graded the same upload (135/214 against 179/214 for a class):
both routes now match files with one function (submissions.match_notebooks), and the originality
report, which finds submissions the same way, reads the same files.
"""
from __future__ import annotations

import csv
import shutil
import subprocess
import sys
from pathlib import Path

from autograder import demo
from autograder.course import Course
from autograder.submissions import discover
from conftest import LECTURE8, ROOT

FIRST = LECTURE8.notebooks()[0]


def course_with_renamed_notebooks(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    demo.submit(LECTURE8.release_dir, root, LECTURE8.name, "ann", demo.solutions_by_grade_id(LECTURE8))
    folder = Course(root).submitted("ann", LECTURE8.name)
    for path in folder.glob("*.ipynb"):
        if path.stem != FIRST:
            path.unlink()
    (folder / f"{FIRST}.ipynb").rename(folder / f"Copy of {FIRST}.ipynb")
    return root


def test_discover_takes_the_renamed_file_and_says_so(tmp_path, capsys):
    root = course_with_renamed_notebooks(tmp_path)
    jobs = {j.notebook: j for j in discover(root, LECTURE8)}
    assert jobs[FIRST].path is not None and jobs[FIRST].path.name == f"Copy of {FIRST}.ipynb"
    assert f"'Copy of {FIRST}.ipynb' was graded as {FIRST}.ipynb" in capsys.readouterr().err
    # one notebook given on the command line, renamed as a browser's second download names it
    single = tmp_path / "ann" / f"{FIRST} (1).ipynb"
    single.parent.mkdir()
    shutil.copy(root / "submitted" / "ann" / LECTURE8.name / f"Copy of {FIRST}.ipynb", single)
    [job] = discover(single, LECTURE8)
    assert (job.student, job.notebook, job.path) == ("ann", FIRST, single)


def test_the_renamed_notebook_is_graded_by_the_cli(tmp_path):
    root = course_with_renamed_notebooks(tmp_path)
    out = tmp_path / "grades"
    proc = subprocess.run([sys.executable, "-m", "autograder", "grade", str(root), "--out", str(out), "--assignment", LECTURE8.name],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"was graded as {FIRST}.ipynb" in proc.stderr
    rows = [r for r in csv.DictReader((out / "grades.csv").open(encoding="utf-8")) if r["notebook"] == FIRST and r["test"] != "late_penalty"]
    assert rows and all(r["status"] == "passed" for r in rows), [(r["test"], r["reason"]) for r in rows if r["status"] != "passed"]
