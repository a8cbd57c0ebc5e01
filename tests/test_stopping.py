"""Ctrl-C (SIGINT) and SIGTERM stop a grading run wherever they land (issue 46, item 4): the
grader exits promptly, non-zero, with one clear line, and what is on disk is consistent: every
student in the reports was graded in full, none half, and nothing of a stopped run's unfinished
students or of a student whose folder is gone reaches grades.csv or the Canvas export."""
import csv
import io
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from autograder.grade import batch
from autograder.submissions import Job
from test_grading_pipeline import autograder, rows, solve

pytestmark = pytest.mark.slow

STUDENTS = [f"s{i}" for i in range(5)]
NOTEBOOKS = {"01_square", "02_cube"}


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    """lecture_fixture with five students (each submits both notebooks, 01 solved), graded once in full."""
    from test_grading_pipeline import LECTURE_FIXTURE, ROOT

    root = tmp_path_factory.mktemp("stopping")
    shutil.copytree(LECTURE_FIXTURE / "solutions", root / "solutions")
    shutil.copytree(LECTURE_FIXTURE / "suites", root / "autograder" / "suites")
    for student in STUDENTS:
        folder = root / "submitted" / student / "lecture_fixture"
        folder.mkdir(parents=True)
        for notebook in NOTEBOOKS:
            shutil.copy(root / "solutions" / "lecture_fixture" / f"{notebook}.ipynb", folder)
        solve(folder / "01_square.ipynb")
    autograder("grade", ".", "--out", "grades", "--jobs", "1", cwd=root)
    return root


def consistent(out) -> set[str]:
    """The students of the reports, after checking that each was graded in full and that grades.csv,
    the store and the Canvas export agree; no staging folder is left."""
    assert not list(out.glob(".run-*")), "a stopped run's staging folder was left"
    stored = {p.name: {q.stem for q in p.glob("*.json")} for p in (out / ".state" / "lecture_fixture").iterdir()}
    assert all(notebooks == NOTEBOOKS for notebooks in stored.values()), stored
    in_csv = {r["student"] for r in rows(out)}
    assert in_csv == set(stored)
    for student in in_csv:
        assert {r["notebook"] for r in rows(out) if r["student"] == student} == NOTEBOOKS
    target = out.parent / "canvas.csv"
    autograder("export", out, "--format", "canvas", "--out", target)
    canvas = {row[0] for row in list(csv.reader(io.StringIO(target.read_text())))[2:]}
    assert canvas == in_csv
    return in_csv


def stop_run(root, out, signum: int, after_lines: int, group: bool = False) -> subprocess.CompletedProcess:
    """Start `grade` on the class, send ``signum`` once ``after_lines`` progress lines are out (0:
    at once, while it starts), to the grader or (``group``, as a terminal's Ctrl-C does) to its
    whole process group, and wait for it."""
    from conftest import venv_env

    proc = subprocess.Popen([sys.executable, "-m", "autograder", "grade", ".", "--out", str(out), "--jobs", "1"],
                            cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=venv_env(),
                            start_new_session=group)
    seen = []
    while len(seen) < after_lines:
        line = proc.stderr.readline()
        assert line, f"the run ended before {after_lines} notebooks: {seen}"
        seen.append(line)
    if not after_lines:
        time.sleep(0.3)
    start = time.monotonic()
    if group:
        os.killpg(proc.pid, signum)
    else:
        proc.send_signal(signum)
    stdout, stderr = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, "".join(seen) + stderr), time.monotonic() - start


@pytest.mark.parametrize("signum, after_lines, group", [(signal.SIGINT, 0, False), (signal.SIGINT, 1, False),
                                                        (signal.SIGINT, 6, False), (signal.SIGINT, 3, True),
                                                        (signal.SIGTERM, 3, False)])
def test_a_stopped_run_exits_promptly_and_keeps_only_whole_students(graded_class, tmp_path, signum, after_lines, group):
    root = graded_class
    out = tmp_path / "grades"
    shutil.copytree(root / "grades", out)
    before = (out / "grades.csv").read_text()
    done, seconds = stop_run(root, out, signum, after_lines, group)
    assert done.returncode == 128 + signum, done.stderr[-2000:]
    assert seconds < 30, f"{seconds:.1f} s to stop"  # a backstop: a stop within a notebook's grading
    assert f"autograder: stopped by {signal.Signals(signum).name}" in done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    assert consistent(out) == set(STUDENTS)  # each student's results: the earlier run's or this one's, whole
    if after_lines == 0:
        assert (out / "grades.csv").read_text() == before


def test_a_stopped_run_then_a_smaller_class_exports_the_smaller_class(graded_class, tmp_path):
    """The issue's instructor: a run stopped with Ctrl-C, students' folders removed, a run over the
    rest: the export lists the students of that run, not the earlier run's leftovers."""
    root = tmp_path / "course"
    shutil.copytree(graded_class, root)
    out = root / "grades"
    stopped, _ = stop_run(root, out, signal.SIGINT, 4)
    assert stopped.returncode == 130
    for gone in STUDENTS[2:]:
        shutil.rmtree(root / "submitted" / gone)
    ran = autograder("grade", ".", "--out", "grades", "--jobs", "1", cwd=root)
    assert consistent(out) == set(STUDENTS[:2])
    assert all(line.split()[0] in STUDENTS[:2] for line in ran.stdout.splitlines()[1:3])


def test_a_stop_swallowed_by_a_finalizer_still_stops_the_batch(graded_class):
    """Python only prints an exception raised while a finalizer runs (a logging lock's release):
    the handler's flag stops the batch at its next turn."""
    from autograder.course import Course

    assignment = Course(graded_class).assignment("lecture_fixture")
    batch.terminated = signal.SIGINT
    try:
        with pytest.raises(batch.Stopped):
            batch.run_jobs([Job("s0", "01_square", None)], assignment, 10.0, 1, lambda result: None)
    finally:
        batch.terminated = None


def test_a_stop_raised_in_a_finalizer_is_not_printed(capsys):
    """What Python prints as "Exception ignored ... KeyboardInterrupt" is left to the flag, silently;
    any other exception of a finalizer is printed as before."""
    import gc

    from autograder.cli import _quiet_stops

    class Finalized:
        def __init__(self, exc):
            self.exc = exc

        def __del__(self):
            raise self.exc

    previous, sys.unraisablehook = sys.unraisablehook, _quiet_stops
    try:
        Finalized(batch.Stopped(signal.SIGINT))
        gc.collect()
        assert capsys.readouterr().err == ""
        Finalized(ValueError("a real bug"))
        gc.collect()
        assert "ValueError: a real bug" in capsys.readouterr().err
    finally:
        sys.unraisablehook = previous
