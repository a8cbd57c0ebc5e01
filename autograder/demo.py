"""``make demo``: release the course into a scratch nbgrader course root, make three example
submissions, grade them, and print the scores.

Submissions: ``solved`` (every stub filled with the instructor's solution), ``untouched``
(the release as students get it) and ``mistakes`` (solved, with a few realistic mistakes from
tests/fixtures/mistakes).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat

from . import cli
from .selfcheck import load_mistake

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "lecture8"
DEMO_MISTAKES = [  # one realistic mistake per notebook
    "recursive_graph_walk.py", "sgd_update_rebinds_local.py", "softmax_naive_no_max.py",
    "module_params_lecture_dicts_only.py", "tuple_gradient_drops_slot.py", "kaiming_normal_no_relu_gain.py",
]


def release(course_root: Path) -> Path:
    """nbgrader generate_assignment in a scratch course root; returns the release folder."""
    if course_root.exists():
        shutil.rmtree(course_root)
    (course_root / "solutions").mkdir(parents=True)
    shutil.copytree(ROOT / "solutions" / ASSIGNMENT, course_root / "solutions" / ASSIGNMENT)
    shutil.copy(ROOT / "nbgrader_config.py", course_root)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    subprocess.run(
        [sys.executable, "-m", "nbgrader", "generate_assignment", ASSIGNMENT, "--force", "--log-level=WARN"],
        cwd=course_root, env=env, check=True,
    )
    return course_root / "course" / ASSIGNMENT


def _solutions_by_grade_id() -> dict[str, str]:
    cells = {}
    for path in (ROOT / "solutions" / ASSIGNMENT).glob("*.ipynb"):
        for cell in nbformat.read(path, as_version=4).cells:
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("solution"):
                cells[meta["grade_id"]] = cell.source
    return cells


def submit(release_dir: Path, course_root: Path, student: str, replacements: dict[str, str]) -> None:
    folder = course_root / "submitted" / student / ASSIGNMENT
    folder.mkdir(parents=True, exist_ok=True)
    for path in sorted(release_dir.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if cell.metadata.get("nbgrader", {}).get("solution") and grade_id in replacements:
                cell.source = replacements[grade_id]
        nbformat.write(nb, folder / path.name)


def main(out: Path) -> int:
    start = time.monotonic()
    course_root = out / "course-root"
    print(f"1/3 releasing {ASSIGNMENT} from solutions/ with nbgrader into {course_root} ...")
    release_dir = release(course_root)
    print("2/3 making three submissions: solved, untouched, mistakes ...")
    solved = _solutions_by_grade_id()
    submit(release_dir, course_root, "solved", solved)
    submit(release_dir, course_root, "untouched", {})
    mistakes = dict(solved)
    for name in DEMO_MISTAKES:
        spec = load_mistake(ROOT / "tests" / "fixtures" / "mistakes" / name)
        mistakes.update(spec["CELLS"])
        print(f"    mistakes: {spec['doc'].splitlines()[0]}")
    submit(release_dir, course_root, "mistakes", mistakes)
    print("3/3 grading with `python -m autograder grade` ...")
    grades = out / "grades"
    status = cli.main(["grade", str(course_root), "--out", str(grades), "--assignment", ASSIGNMENT, "--gradebook"])
    if status != 0:
        return status
    print(f"\nfeedback for each student: {grades}/<student>/feedback.html (e.g. {grades / 'mistakes' / 'feedback.html'})")
    print(f"Gradescope results: {grades}/<student>/results.json; all tests: {grades / 'grades.csv'}")
    print(f"demo finished in {time.monotonic() - start:.0f} s")
    return 0
