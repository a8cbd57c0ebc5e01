"""An instructor's authoring slips, each stopped with a message that names it (authoring audit: a
hidden test without @graded made a whole notebook 0/0 with exit 0; a solution line after
### END SOLUTION was released; a test that cannot fail, a misnamed suite or cell, a task id typo
and an error in a test's own code passed selfcheck or read as the student's fault).

Each works on a copy of lecture_fixture (tests/fixtures/lecture_fixture), a minimal second lecture."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.check import selfcheck
from autograder.course import Course
from autograder.suiterun import SuiteBroken, collect_tests
from conftest import venv_env

FIXTURE = Path(__file__).parent / "fixtures" / "lecture_fixture"
UNGRADED = '\n\ndef test_forgot_the_marker(observe):\n    """a test an instructor forgot to mark"""\n    assert True\n'


@pytest.fixture
def lecture(tmp_path):
    shutil.copytree(FIXTURE / "solutions", tmp_path / "solutions")
    shutil.copytree(FIXTURE / "suites", tmp_path / "autograder" / "suites")
    return Course.locate(tmp_path).assignment("lecture_fixture")


def append(path: Path, text: str) -> None:
    path.write_text(path.read_text() + text)


def set_cell(lecture, notebook: str, grade_id: str, *, source: str | None = None, new_id: str | None = None) -> None:
    path = lecture.source_notebook(notebook)
    nb = json.loads(path.read_text())
    cell = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == grade_id)
    if source is not None:
        cell["source"] = source
    if new_id is not None:
        cell["metadata"]["nbgrader"]["grade_id"] = new_id
    path.write_text(json.dumps(nb))


def test_a_hidden_test_without_graded_stops_the_grader_and_selfcheck(lecture, tmp_path, capsys):
    append(lecture.suite("01_square"), UNGRADED)
    with pytest.raises(SuiteBroken, match="has tests without @graded\\(task, points\\): test_forgot_the_marker"):
        collect_tests(lecture.suite("01_square"))
    assert selfcheck.main(lecture, "01_square") == 1
    out = capsys.readouterr().out
    assert "FAIL 01_square suite: " in out and "test_forgot_the_marker" in out
    assert "ok   01_square" not in out  # nothing of a broken suite is called fine
    # the real CLI: no 0/0 for anyone, exit 2, the test named
    student = tmp_path / "sam" / "lecture_fixture"
    shutil.copytree(lecture.source_dir, student)
    proc = subprocess.run([sys.executable, "-m", "autograder", "--course", str(lecture.course.root), "grade", str(student),
                           "--out", str(tmp_path / "grades"), "--assignment", "lecture_fixture"],
                          capture_output=True, text=True, env=venv_env())
    assert proc.returncode == 2 and "test_forgot_the_marker" in proc.stderr, proc.stdout + proc.stderr
    assert not (tmp_path / "grades" / "grades.csv").exists()


@pytest.mark.parametrize("task, points, words", [("1,1", 1, 'the task must be a string "N.M"'), (1.1, 1, "N.M"),
                                                 ("1.1", 0, "points must be a positive number")])
def test_a_malformed_graded_marker_is_named(lecture, task, points, words):
    append(lecture.suite("01_square"), f'\n\nfrom autograder.suite import graded\n\n\n@graded({task!r}, points={points})\n'
                                       'def test_typo(observe):\n    """typo"""\n')
    with pytest.raises(SuiteBroken, match="failed to import") as caught:
        collect_tests(lecture.suite("01_square"))
    assert words in str(caught.value)


def test_a_misnamed_suite_says_which_file_was_expected(lecture):
    suite = lecture.suite("01_square")
    suite.rename(suite.with_name("square_tests.py"))
    with pytest.raises(SuiteBroken) as caught:
        collect_tests(suite)
    assert str(caught.value).startswith(f"no hidden suite {suite}: a notebook NAME.ipynb is graded by test_NAME.py")
    assert "(there: square_tests.py, test_02_cube.py)" in str(caught.value)


def test_code_after_end_solution_is_found_with_its_line(lecture):
    assert selfcheck.check_cells(lecture, "01_square") == []
    set_cell(lecture, "01_square", "task1_1_square", source=(
        'def square(x):\n    """Task 1.1: x * x for a needle Tensor x."""\n    ### BEGIN SOLUTION\n    y = x * x\n'
        '    ### END SOLUTION\n    return y\n'))
    [problem] = selfcheck.check_cells(lecture, "01_square")
    assert problem.startswith("solution cell task1_1_square: line 5 of the released stub comes after ### END SOLUTION")


def test_a_code_solution_cell_named_for_no_task_is_found(lecture):
    set_cell(lecture, "01_square", "task1_1_square", new_id="task_1_1_square")
    [problem] = selfcheck.check_cells(lecture, "01_square")
    assert problem.startswith("solution cell 'task_1_1_square': a code cell's grade_id must be taskN_M_<name>")


def test_a_test_no_mistake_fixture_must_fail_is_named(lecture, capsys):
    assert selfcheck.never_failing(lecture, "02_cube") == []
    (lecture.mistakes_dir / "cube_squares.py").unlink()
    (lecture.mistakes_dir / "cube_in_numpy.py").unlink()
    assert selfcheck.never_failing(lecture, "02_cube") == ["test_2_1_rung1_two_elements_one_negative", "test_cube_drawn"]
    assert selfcheck.main(lecture, "02_cube") == 1
    assert ("FAIL 02_cube: no mistake fixture names ['test_2_1_rung1_two_elements_one_negative', 'test_cube_drawn'] "
            "in MUST_FAIL") in capsys.readouterr().out


def test_an_error_in_a_test_of_its_own_is_shown_to_the_instructor(lecture, capsys):
    # an import the suite forgot: the student would read "could not check your result"; the
    # instructor, running selfcheck, reads the exception and where the test raised it
    suite = lecture.suite("01_square")
    suite.write_text(suite.read_text().replace("assert_close(r[\"grad\"]", "assert_near(r[\"grad\"]"))
    [problem] = selfcheck.check_solutions(lecture, "01_square")
    assert problem.startswith("test_square_drawn failed: Task 1.1, rung 3 (values and gradient on drawn inputs): the "
                              "test could not check your result")
    assert "[the test raised NameError: name 'assert_near' is not defined (test_01_square.py:" in problem
    assert selfcheck.main(lecture, "01_square") == 1
    out = capsys.readouterr().out
    assert "FAIL 01_square solution: test_square_drawn" in out and "ok   01_square: solutions pass" not in out
