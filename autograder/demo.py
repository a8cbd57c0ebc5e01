"""``make demo``: release an assignment into a scratch nbgrader course root, make three example
submissions, grade them, and print the scores.

Submissions: ``solved`` (every stub filled with the instructor's solution), ``untouched``
(the release as students get it) and ``mistakes`` (solved, with one realistic mistake per
notebook from the assignment's ``mistakes/`` fixtures).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from . import notebook as nbmod
from .check.selfcheck import load_mistake
from .course import Assignment, Course

DEMO_MISTAKES = [  # one realistic mistake per notebook of lecture8
    "recursive_graph_walk.py", "sgd_update_rebinds_local.py", "softmax_naive_no_max.py",
    "module_params_lecture_dicts_only.py", "train_no_reset_grad.py", "tuple_gradient_drops_slot.py",
    "kaiming_normal_no_relu_gain.py", "train_epoch_no_reset_grad.py", "backward_overwrites_adjoints.py",
    "matmul_no_batch_reduction.py",
]


def release(assignment: Assignment, course_root: Path) -> Path:
    """nbgrader generate_assignment in a scratch course root; returns the release folder."""
    if course_root.exists():
        shutil.rmtree(course_root)
    shutil.copytree(assignment.source_dir, Course(course_root).solutions_dir / assignment.name)
    shutil.copy(assignment.course.nbgrader_config, course_root)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    subprocess.run(
        [sys.executable, "-m", "nbgrader", "generate_assignment", assignment.name, "--force", "--log-level=WARN"],
        cwd=course_root, env=env, check=True,
    )
    return Course(course_root).release_dir / assignment.name


def solutions_by_grade_id(assignment: Assignment) -> dict[str, str]:
    cells = {}
    for name in assignment.notebooks():
        for cell in nbmod.read_notebook(assignment.source_notebook(name))["cells"]:
            if nbmod.is_solution(cell):
                cells[nbmod.grade_id(cell)] = nbmod.source_of(cell)
    return cells


def submit(release_dir: Path, course_root: Path, assignment: str, student: str, replacements: dict[str, str]) -> None:
    """Copy the release into submitted/<student>/<assignment>/, solution cells replaced."""
    import nbformat

    folder = Course(course_root).submitted(student, assignment)
    folder.mkdir(parents=True, exist_ok=True)
    for path in sorted(release_dir.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("solution") and meta.get("grade_id") in replacements:
                cell.source = replacements[meta["grade_id"]]
        nbformat.write(nb, folder / path.name)


def with_mistakes(assignment: Assignment, solved: dict[str, str], mistakes: list[str], say=lambda line: None) -> dict[str, str]:
    """The solution cells ``solved`` with the cells of each named mistake fixture in their place."""
    cells = dict(solved)
    for name in mistakes:
        spec = load_mistake(assignment.mistakes_dir / name)
        cells.update(spec["CELLS"])
        say(f"    mistakes: {spec['doc'].splitlines()[0]}")
    return cells


def make_submissions(assignment: Assignment, course_root: Path, release_dir: Path, mistakes: list[str], say=print) -> None:
    solved = solutions_by_grade_id(assignment)
    submit(release_dir, course_root, assignment.name, "solved", solved)
    submit(release_dir, course_root, assignment.name, "untouched", {})
    submit(release_dir, course_root, assignment.name, "mistakes", with_mistakes(assignment, solved, mistakes, say))


def make_class(assignment: Assignment, course_root: Path, students: int) -> Path:
    """Release into ``course_root`` and submit ``students`` students, student0, student1, ...:
    the even ones solved, the odd ones with the demo's mistakes. Returns the release folder."""
    release_dir = release(assignment, course_root)
    solved = solutions_by_grade_id(assignment)
    mistakes = with_mistakes(assignment, solved, [m for m in DEMO_MISTAKES if (assignment.mistakes_dir / m).is_file()])
    for i in range(students):
        submit(release_dir, course_root, assignment.name, f"student{i}", solved if i % 2 == 0 else mistakes)
    return release_dir


def main(assignment: Assignment, out: Path) -> int:
    from .cpus import default_jobs
    from .export.gradebook import record_run
    from .export.report import write_reports
    from .export.summary import describe
    from .grade.grading import grade_course
    from .store import escaped_names

    start = time.monotonic()
    course_root = out / "course-root"
    print(f"1/3 releasing {assignment.name} from solutions/ with nbgrader into {course_root} ...")
    release_dir = release(assignment, course_root)
    print("2/3 making three submissions: solved, untouched, mistakes ...")
    mistakes = [m for m in DEMO_MISTAKES if (assignment.mistakes_dir / m).is_file()]
    make_submissions(assignment, course_root, release_dir, mistakes)
    print("3/3 grading ...")
    grades = out / "grades"
    run = grade_course(assignment, course_root, grades, jobs=default_jobs(), timeout=10.0)
    results = write_reports(grades)
    run.gradebook = record_run(Course(course_root).gradebook, assignment.name, results, escaped_names(grades))
    print(describe(results, grades, unsaved=run.unsaved, ungraded=run.ungraded, gradebook=run.gradebook))
    print(f"\nfeedback for each student: {grades}/<student>/feedback.html (e.g. {grades / 'mistakes' / 'feedback.html'})")
    print(f"Gradescope results: {grades}/<student>/results.json; all tests: {grades / 'grades.csv'}")
    print(f"demo finished in {time.monotonic() - start:.0f} s")
    return 0
