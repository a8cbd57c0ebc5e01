"""The grading pipeline around the suites, by the real commands, on one or two notebooks:
deadlines and late penalties (grades.csv, feedback, nbgrader's gradebook and export), one
student regraded into the gradebook, two assignments graded into one --out, a task written in a
cell the student added, the one-hint feedback page."""
import csv
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell

from autograder import demo
from autograder.export.nbgrader_feedback import place_feedback
from autograder.results import points_back
from conftest import LECTURE8, ROOT, venv_env

pytestmark = pytest.mark.slow

FIRST = "01_graph_accumulation"
LECTURE_FIXTURE = ROOT / "tests" / "fixtures" / "lecture_fixture"
SOLVED = demo.solutions_by_grade_id(LECTURE8)
SQUARE = "def square(x):\n    return x * x\n"  # lecture_fixture's Task 1.1
SQUARE_POINTS = 3  # lecture_fixture's Task 1.1: its hidden rung (the visible ones are worth 0)


def autograder(*args, cwd: Path = ROOT, ok: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "autograder", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, env=venv_env())
    if ok:
        assert proc.returncode == 0, f"{args}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


def rows(out: Path) -> list[dict]:
    return list(csv.DictReader(io.StringIO((out / "grades.csv").read_text())))


def exported(root: Path) -> dict[str, dict]:
    """`nbgrader export`'s rows, by student."""
    subprocess.run([sys.executable, "-m", "nbgrader", "export"], cwd=root, check=True, capture_output=True, env=venv_env())
    return {r["student_id"]: r for r in csv.DictReader((root / "grades.csv").open())}


# --- deadlines, and one student regraded ---------------------------------------------------------
@pytest.fixture(scope="module")
def late_class(tmp_path_factory):
    """A course root of lecture_fixture (tests/fixtures/lecture_fixture) released by nbgrader, where `late`
    submitted 01 one second past two days after the due date and `ontime` before it, graded as
    the instructor does (from the course root) with --gradebook, --due and --late-penalty."""
    root = released_lecture_fixture(tmp_path_factory.mktemp("late-class"))
    submit_solved(root, {"late": "2025-03-03 12:00:01.000000 UTC", "ontime": "2025-02-28 09:30:00.000000 UTC"})
    graded = autograder("grade", ".", "--out", "grades", "--gradebook", "--due", "2025-03-01T13:00+01:00",
                        "--late-penalty", "10%", cwd=root)
    return root, root / "grades", graded.stdout


def released_lecture_fixture(root: Path) -> Path:
    """``root`` made a course root of lecture_fixture (tests/fixtures/lecture_fixture), released by nbgrader."""
    shutil.copy(ROOT / "nbgrader_config.py", root)
    shutil.copytree(LECTURE_FIXTURE / "solutions", root / "solutions")
    shutil.copytree(LECTURE_FIXTURE / "suites", root / "autograder" / "suites")
    subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", "lecture_fixture", "--log-level=WARN"],
                   cwd=root, check=True, capture_output=True, env=venv_env())
    return root


def submit_solved(root: Path, stamps: dict[str, str]) -> None:
    """Each student of ``stamps`` submits lecture_fixture's 01 solved, at that nbgrader timestamp."""
    for student, stamp in stamps.items():
        folder = root / "submitted" / student / "lecture_fixture"
        folder.mkdir(parents=True)
        shutil.copy(root / "course" / "lecture_fixture" / "01_square.ipynb", folder)
        solve(folder / "01_square.ipynb")
        (folder / "timestamp.txt").write_text(stamp)


def solve(notebook: Path) -> None:
    """Fill lecture_fixture's 01 stub as the solution does."""
    nb = nbformat.read(notebook, as_version=4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "task1_1_square":
            cell.source = SQUARE
    nbformat.write(nb, notebook)


def test_a_late_notebook_loses_its_penalty_everywhere(late_class):
    root, out, summary = late_class
    penalty = 3 * 0.10 * SQUARE_POINTS  # 2 days and 1 second late: three started days at 10% of the points
    late = [r for r in rows(out) if r["student"] == "late" and r["notebook"] == "01_square"]
    [row] = [r for r in late if r["test"] == "late_penalty"]
    assert float(row["score"]) == pytest.approx(-penalty) and row["max_score"] == "0" and row["reason"] == "late"
    assert sum(float(r["score"]) for r in late) == pytest.approx(SQUARE_POINTS - penalty)
    assert not [r for r in rows(out) if r["student"] == "ontime" and r["test"] == "late_penalty"]
    assert next(line for line in summary.splitlines() if line.startswith("late ")).split()[1].endswith("L")
    page = (out / "late" / "feedback.html").read_text()
    assert f"Late: submitted 2025-03-03 12:00 UTC, 2 days 1 min after the due date: 3 started days charged, -{penalty:g} points" in page
    assert "Late" not in (out / "ontime" / "feedback.html").read_text()
    data = json.loads((out / "late" / "results.json").read_text())
    assert data["score"] == pytest.approx(SQUARE_POINTS - penalty)
    # nbgrader's own export sees the submission time, the due date and the penalty
    export = exported(root)
    assert export["late"]["timestamp"].startswith("2025-03-03 12:00:01")
    assert export["late"]["duedate"].startswith("2025-03-01 12:00:00")
    assert float(export["late"]["late_submission_penalty"]) == pytest.approx(penalty)
    assert float(export["late"]["score"]) == pytest.approx(SQUARE_POINTS - penalty)
    assert float(export["ontime"]["score"]) == SQUARE_POINTS and float(export["ontime"]["late_submission_penalty"]) == 0
    assert (root / "autograded" / "late" / "lecture_fixture" / "timestamp.txt").read_text() == "2025-03-03 12:00:01.000000 UTC"


def test_one_student_regraded_into_the_gradebook(late_class):
    """`late` resubmits on time: --student regrades only them, the due date now comes from the
    gradebook, their timestamp moves and their penalty goes; `ontime` is untouched."""
    root, out, _ = late_class
    ontime_rows = [r for r in rows(out) if r["student"] == "ontime"]
    (root / "submitted" / "late" / "lecture_fixture" / "timestamp.txt").write_text("2025-03-01 11:00:00.000000 UTC")
    regraded = autograder("grade", ".", "--out", "grades", "--gradebook", "--student", "late", "--late-penalty", "10%", cwd=root)
    assert "ontime" not in regraded.stdout and "due 2025-03-01 12:00 UTC" in regraded.stdout
    export = exported(root)
    assert export["late"]["timestamp"].startswith("2025-03-01 11:00:00")
    assert float(export["late"]["late_submission_penalty"]) == 0 and float(export["late"]["score"]) == SQUARE_POINTS
    assert export["ontime"]["timestamp"].startswith("2025-02-28 09:30:00") and float(export["ontime"]["score"]) == SQUARE_POINTS
    assert [r for r in rows(out) if r["student"] == "ontime"] == ontime_rows
    assert not [r for r in rows(out) if r["student"] == "late" and r["test"] == "late_penalty"]


# --- two assignments in one --out; a task in an added cell ---------------------------------------
@pytest.fixture(scope="module")
def two_assignments(tmp_path_factory):
    """A course with lecture8 and lecture_fixture; sam's 01 of lecture8 writes Task 1.1 in a new cell
    below the stub (the stub left as released) and leaves Task 1.2's stub; sam's 01 of lecture_fixture
    is solved. Both are graded into one --out."""
    base = tmp_path_factory.mktemp("two-assignments")
    course = base / "course"
    shutil.copytree(ROOT / "solutions", course / "solutions")
    shutil.copytree(LECTURE8.suite_dir, course / "autograder" / "suites" / LECTURE8.name)
    shutil.copytree(LECTURE_FIXTURE / "solutions" / "lecture_fixture", course / "solutions" / "lecture_fixture")
    shutil.copytree(LECTURE_FIXTURE / "suites" / "lecture_fixture", course / "autograder" / "suites" / "lecture_fixture")
    nb = nbformat.read(LECTURE8.released_notebook(FIRST), as_version=4)
    stub = next(i for i, c in enumerate(nb.cells) if c.metadata.get("nbgrader", {}).get("grade_id") == "task1_1_count_graph_nodes")
    nb.cells.insert(stub + 1, new_code_cell(SOLVED["task1_1_count_graph_nodes"] + "\n\nprint(count_graph_nodes(ndl.Tensor([1.0])))"))
    nb.cells.insert(stub + 2, new_code_cell("count_graph_nodes(ndl.Tensor([2.0]) * 3)"))
    (base / "sam" / LECTURE8.name).mkdir(parents=True)
    nbformat.write(nb, base / "sam" / LECTURE8.name / f"{FIRST}.ipynb")
    (base / "sam" / "lecture_fixture").mkdir(parents=True)
    shutil.copy(LECTURE_FIXTURE / "solutions" / "lecture_fixture" / "01_square.ipynb", base / "sam" / "lecture_fixture")
    out = base / "grades"
    autograder("--course", course, "grade", base / "sam" / "lecture_fixture", "--out", out, "--assignment", "lecture_fixture")
    autograder("--course", course, "grade", base / "sam" / LECTURE8.name, "--out", out, "--assignment", LECTURE8.name)
    return base, out


def test_two_assignments_in_one_out_stay_apart(two_assignments):
    base, out = two_assignments
    assert {(r["assignment"], r["notebook"]) for r in rows(out)} == {("lecture_fixture", "01_square"), (LECTURE8.name, FIRST)}
    for assignment, notebook in (("lecture_fixture", "01_square"), (LECTURE8.name, FIRST)):
        data = json.loads((out / "sam" / assignment / "results.json").read_text())
        assert data["tests"] and {t["extra_data"]["notebook"] for t in data["tests"]} == {notebook}
        page = (out / "sam" / assignment / "feedback.html").read_text()
        assert notebook in page and ({"lecture_fixture": FIRST, LECTURE8.name: "01_square"}[assignment] not in page)
    assert not (out / "sam" / "results.json").exists()  # a one-assignment report would hold only one of them
    index = (out / "sam" / "feedback.html").read_text()
    assert "href='lecture_fixture/feedback.html'" in index and f"href='{LECTURE8.name}/feedback.html'" in index
    # nbgrader-feedback takes the page of the assignment asked for
    root = base / "nbgrader-root"
    folder = root / "submitted" / "sam" / "lecture_fixture"
    folder.mkdir(parents=True)
    shutil.copy(base / "sam" / "lecture_fixture" / "01_square.ipynb", folder)
    (folder / "timestamp.txt").write_text("2020-01-01 00:00:00.000000 UTC")
    (folder / "submission_secret.txt").write_text("secret")
    assert sorted(place_feedback(root, out, "lecture_fixture").written) == ["sam"]
    assert (root / "feedback" / "sam" / "lecture_fixture" / "01_square.html").read_bytes() == (out / "sam" / "lecture_fixture" / "feedback.html").read_bytes()


def test_a_task_written_in_an_added_cell_is_graded(two_assignments):
    _, out = two_assignments
    mine = [r for r in rows(out) if r["notebook"] == FIRST]
    assert {r["status"] for r in mine if r["task"] == "1.1"} == {"passed"}  # the stub above it stayed
    assert {r["status"] for r in mine if r["task"] == "1.2"} == {"failed"}


def test_the_feedback_page_gives_one_hint_per_failing_task(two_assignments):
    _, out = two_assignments
    page = (out / "sam" / LECTURE8.name / "feedback.html").read_text()
    assert page.count("What to fix first") == 1  # Task 1.2 only: 1.1 passes
    assert "not implemented yet" in page and "fail too (likely the same cause)" in page
    passed = [r for r in rows(out) if r["notebook"] == FIRST and r["task"] == "1.1"]
    assert f"<summary>✓ all {len(passed)} tests pass</summary>" in page  # folded
    tests = json.loads((out / "sam" / LECTURE8.name / "results.json").read_text())["tests"]
    # the task's one message, once; a later rung's pointer to it is folded without words
    messages = {t["output"] for t in tests if t["status"] == "failed" and not points_back(t["output"])}
    assert page.count("<span class='why'>") == len(messages) == 1
