"""A second lecture is a folder: copied next to lecture8 in a course, it is released, checked,
graded and packed for Gradescope by the existing tools, with no edit to any existing file.

The lecture (two small notebooks that follow the course's conventions, their suites with each task
declared and its ladder, probes, and mistake fixtures that reach every rung) is kept in
tests/fixtures/lecture_fixture/: copied as a course's own lecture, it also leaves `make test` green.
"""
import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

from conftest import ROOT, venv_env

LECTURE_FIXTURE = ROOT / "tests" / "fixtures" / "lecture_fixture"
EXISTING = ["nbgrader_config.py", "solutions", "course", "autograder/suites", "docs", "README.md"]


def run(*args, cwd):
    proc = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, env=venv_env())
    assert proc.returncode == 0, f"{args}: {proc.stdout[-1500:]}{proc.stderr[-1500:]}"
    return proc.stdout


def contents(root: Path) -> dict:
    """sha256 of every file of the course as it was before lecture_fixture arrived."""
    files = [root / item for item in EXISTING if (root / item).is_file()]
    files += [f for item in EXISTING if (root / item).is_dir() for f in (root / item).rglob("*") if f.is_file()]
    return {str(f.relative_to(root)): hashlib.sha256(f.read_bytes()).hexdigest()
            for f in files if "__pycache__" not in f.parts and "lecture_fixture" not in f.parts}


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """The course (lecture8) with lecture_fixture's folders added beside it: nothing else changes."""
    root = tmp_path_factory.mktemp("two-lectures")
    for item in EXISTING:
        src = ROOT / item
        (shutil.copytree if src.is_dir() else shutil.copy)(src, root / item)
    before = contents(root)
    shutil.copytree(LECTURE_FIXTURE / "solutions" / "lecture_fixture", root / "solutions" / "lecture_fixture")
    shutil.copytree(LECTURE_FIXTURE / "suites" / "lecture_fixture", root / "autograder" / "suites" / "lecture_fixture")
    return root, before


def test_the_course_finds_the_new_lecture(course):
    from autograder.course import Course

    # the course's own lectures (lecture8, and any a course has added), and the new one
    assert Course.locate(course[0]).assignments() == sorted([*Course.locate(ROOT).assignments(), "lecture_fixture"])


def test_release_selfcheck_grade_and_gradescope(course, tmp_path):
    course, before = course
    # release, with nbgrader, from the course root
    run("-m", "nbgrader", "generate_assignment", "lecture_fixture", "--force", "--log-level=WARN", cwd=course)
    released = sorted(p.name for p in (course / "course" / "lecture_fixture").glob("*.ipynb"))
    assert released == ["01_square.ipynb", "02_cube.ipynb"]
    # selfcheck: solutions pass, stubs fail, the fixture loses its tests with its hint
    out = run("-m", "autograder", "selfcheck", "lecture_fixture", cwd=course)
    assert "ok   mistake square_doubles.py" in out and "ok   mistake cube_squares.py" in out and "FAIL" not in out
    assert "ok   02_cube: every test is one a mistake fixture must fail" in out
    # grading a student's folder: solved 01, stub 02
    student = tmp_path / "sam" / "lecture_fixture"
    student.mkdir(parents=True)
    solutions = {c.metadata["nbgrader"]["grade_id"]: c.source for name in released
                 for c in nbformat.read(course / "solutions" / "lecture_fixture" / name, 4).cells if c.metadata.get("nbgrader", {}).get("solution")}
    nb = nbformat.read(course / "course" / "lecture_fixture" / "01_square.ipynb", 4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("solution"):
            cell.source = solutions[cell.metadata["nbgrader"]["grade_id"]]
    nbformat.write(nb, student / "01_square.ipynb")
    shutil.copy(course / "course" / "lecture_fixture" / "02_cube.ipynb", student)
    # no --assignment: the folder can only be lecture_fixture's (its name, its notebooks)
    run("-m", "autograder", "grade", str(student), "--out", str(tmp_path / "grades"), cwd=course)
    rows = (tmp_path / "grades" / "grades.csv").read_text().splitlines()[1:]
    assert sorted(r.split(",")[1] + ":" + r.split(",")[3] for r in rows) == [
        "01_square:0", "01_square:0", "01_square:3", "02_cube:0", "02_cube:0"]  # visible rungs are worth 0
    # Gradescope: the zip carries lecture_fixture and its run script grades lecture_fixture
    run("-m", "autograder", "gradescope-zip", "--assignment", "lecture_fixture", "--out", str(tmp_path / "ag.zip"), cwd=course)
    base = tmp_path / "autograder"
    zipfile.ZipFile(tmp_path / "ag.zip").extractall(base / "source")
    assert "--assignment lecture_fixture" in (base / "source" / "run_autograder").read_text()
    assert (base / "source" / "autograder" / "suites" / "lecture_fixture" / "test_01_square.py").is_file()
    assert not (base / "source" / "autograder" / "suites" / "lecture8").exists()
    (base / "submission").mkdir()
    shutil.copy(student / "01_square.ipynb", base / "submission")
    (base / "venv" / "bin").mkdir(parents=True)  # stands in for setup.sh's venv (tests/test_gradescope.py builds the real one)
    (base / "venv" / "bin" / "python").write_text(f"#!/bin/sh\nexec {sys.executable} \"$@\"\n")
    (base / "venv" / "bin" / "python").chmod(0o755)
    subprocess.run(["bash", str(base / "source" / "run_autograder")], env=dict(venv_env(), AUTOGRADER_ROOT=str(base)),
                   check=True, capture_output=True)
    results = json.loads((base / "results" / "results.json").read_text())
    assert results["score"] == 3 and len(results["tests"]) == 5
    assert contents(course) == before, "adding lecture_fixture changed a file the course already had"


def test_grade_infers_the_lecture_a_notebook_belongs_to(course, tmp_path):
    """With two lectures, a notebook only lecture8 has is graded as lecture8's without
    --assignment; a course root whose submissions are of both asks for it."""
    course, _ = course
    notebook = course / "course" / "lecture8" / "01_graph_accumulation.ipynb"
    run("-m", "autograder", "grade", str(notebook), "--out", str(tmp_path / "one"), cwd=course)
    assert {row.split(",")[6] for row in (tmp_path / "one" / "grades.csv").read_text().splitlines()[1:]} == {"lecture8"}
    root = tmp_path / "root"
    for lecture, notebook in (("lecture8", notebook), ("lecture_fixture", course / "solutions" / "lecture_fixture" / "01_square.ipynb")):
        (root / "submitted" / "ann" / lecture).mkdir(parents=True)
        shutil.copy(notebook, root / "submitted" / "ann" / lecture)
    asked = subprocess.run([sys.executable, "-m", "autograder", "grade", str(root), "--out", str(tmp_path / "two")],
                           cwd=course, capture_output=True, text=True, env=venv_env())
    assert asked.returncode == 2 and "choose one with --assignment" in asked.stderr, asked.stderr
