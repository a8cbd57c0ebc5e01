"""`python -m autograder grade` end to end on a scratch nbgrader course root."""
import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from autograder import demo
from autograder.check.selfcheck import load_mistake, must_fail
from autograder.course import task_of
from autograder.results import points_back
from autograder.grade.zygote_client import STALE_AFTER
from autograder.suiterun import collect_tests
from conftest import LECTURE8, course_copy, grade_cli, venv_env

ASSIGNMENT = LECTURE8.name
NOTEBOOKS = LECTURE8.notebooks()
TASK_OF_TEST = {(n, t): task for n in NOTEBOOKS for t, _, task, _ in collect_tests(LECTURE8.suite(n))}


def suite_tests(notebook):
    return collect_tests(LECTURE8.suite(notebook))


def grade(*args) -> int:
    """The grader's exit status; its temporary folder is this process's (private_tmp's, if set)."""
    proc = grade_cli(*args, TMPDIR=tempfile.gettempdir())
    print(proc.stdout, proc.stderr)  # shown by pytest when the test fails
    return proc.returncode


@pytest.fixture(scope="module")
def course(release_root, tmp_path_factory, once_per_run):
    """The release plus three submissions: solved, untouched, and with two mistakes (graded once
    per run, whichever pytest-xdist worker needs it first)."""
    return once_per_run("graded-course", lambda: _graded_course(release_root, tmp_path_factory))


def _graded_course(release_root, tmp_path_factory):
    root = tmp_path_factory.mktemp("graded")
    shutil.copytree(release_root, root, dirs_exist_ok=True)
    demo.make_submissions(LECTURE8, root, root / "course" / ASSIGNMENT, demo.DEMO_MISTAKES, say=lambda _: None)
    out = root / "out"
    assert grade(root, "--out", out, "--jobs", 2) == 0
    return root, out


def read_csv(path):
    return list(csv.DictReader(io.StringIO(path.read_text())))


def max_points():
    return {n: sum(p for *_, p in suite_tests(n)) for n in NOTEBOOKS}


def test_grades_csv_has_a_row_per_test(course):
    root, out = course
    text = (out / "grades.csv").read_text()
    assert text.splitlines()[0] == "student,notebook,test,score,max_score,status,assignment,task,reason"
    rows = read_csv(out / "grades.csv")
    n_tests = sum(len(suite_tests(n)) for n in NOTEBOOKS)
    assert len(rows) == 3 * n_tests
    assert {r["status"] for r in rows} <= {"passed", "failed"}
    assert {r["assignment"] for r in rows} == {ASSIGNMENT}
    assert all(r["task"] == TASK_OF_TEST[(r["notebook"], r["test"])] for r in rows)
    assert {r["reason"] for r in rows if r["student"] == "solved"} == {""}


def scores(out):
    totals = {}
    for r in read_csv(out / "grades.csv"):
        key = (r["student"], r["notebook"])
        totals[key] = totals.get(key, 0.0) + float(r["score"])
    return totals


def test_solved_gets_full_marks_untouched_gets_zero(course):
    _, out = course
    s, full = scores(out), max_points()
    for n in NOTEBOOKS:
        assert s[("solved", n)] == full[n], n
        assert s[("untouched", n)] == 0, n


def test_mistakes_lose_exactly_their_tests(course):
    _, out = course
    failed = {(r["notebook"], r["test"]) for r in read_csv(out / "grades.csv") if r["student"] == "mistakes" and r["status"] == "failed"}
    expected, touched = set(), set()
    for name in demo.DEMO_MISTAKES:
        spec = load_mistake(LECTURE8.mistakes_dir / name)
        results = [type("R", (), {"test": t, "task": TASK_OF_TEST[(spec["NOTEBOOK"], t)]})
                   for t, *_ in suite_tests(spec["NOTEBOOK"])]
        expected |= {(spec["NOTEBOOK"], t) for t in must_fail(spec, results)}
        touched |= {(spec["NOTEBOOK"], task_of(gid)) for gid in spec["CELLS"]}
    assert expected <= failed
    stray = [f for f in failed if (f[0], TASK_OF_TEST[f]) not in touched]
    assert not stray, f"a mistake in one task cost tests of another: {stray}"


def test_results_json_is_gradescope_format(course):
    _, out = course
    data = json.loads((out / "solved" / "results.json").read_text())
    assert set(data) >= {"score", "tests"} and data["score"] == sum(max_points().values())
    for t in data["tests"]:
        assert set(t) >= {"name", "score", "max_score", "status", "output", "visibility"}
        assert t["status"] in ("passed", "failed") and t["visibility"] in ("visible", "hidden", "after_due_date", "after_published")
        assert isinstance(t["score"], (int, float)) and isinstance(t["max_score"], (int, float))


def _hidden_lines():
    """Lines of hidden test and probe source long enough to be recognisable, but none the release
    shows students (a hint quotes the student's own line, e.g. a stub's signature)."""
    released = {line.strip() for n in NOTEBOOKS for cell in json.loads(LECTURE8.released_notebook(n).read_text())["cells"]
                for line in "".join(cell["source"]).splitlines()}
    lines = set()
    for path in LECTURE8.hidden_sources():
        for line in path.read_text().splitlines():
            line = line.strip()
            if len(line) > 25 and not line.startswith(('"', "'", "#")) and "assert" not in line[:7] and line not in released:
                lines.add(line)
    return lines


def test_reports_never_contain_hidden_test_source(course):
    _, out = course
    hidden = _hidden_lines()
    assert len(hidden) > 50
    for student in ("solved", "untouched", "mistakes"):
        for name in ("results.json", "feedback.html"):
            text = (out / student / name).read_text()
            leaked = [line for line in hidden if line in text]
            assert not leaked, f"{student}/{name} contains hidden source: {leaked[:3]}"
            assert "Traceback" not in text and "File \"" not in text


def test_feedback_lists_tasks_scores_and_messages(course):
    _, out = course
    html = (out / "mistakes" / "feedback.html").read_text()
    assert "Task 1.1" in html and "✗" in html and "✓" in html
    assert "recursion limit" in html  # the message for the recursive walk
    untouched = (out / "untouched" / "feedback.html").read_text()
    assert "not implemented yet" in untouched


def test_feedback_gives_one_hint_per_failing_task(course):
    """One mistake, one hint: each failing task shows its first failing test's message as what to
    fix first; the task's other failures are folded, their message shown only where it differs."""
    _, out = course
    for student in ("untouched", "mistakes"):
        page = (out / student / "feedback.html").read_text()
        tests = json.loads((out / student / "results.json").read_text())["tests"]
        failed = [t for t in tests if t["status"] == "failed"]
        tasks = {(t["extra_data"]["notebook"], t["extra_data"]["task"]) for t in failed}
        assert page.count("What to fix first") == len(tasks), student
        # each task's first message, and a later one only where it says something else than "fails too"
        shown = {(t["extra_data"]["notebook"], t["extra_data"]["task"], t["output"]) for t in failed
                 if not points_back(t["output"])}
        assert page.count("<span class='why'>") == len(shown) < len(failed), student


def test_regrading_one_notebook_replaces_only_its_rows(course):
    root, out = course
    before = (out / "grades.csv").read_text()
    # regrade one student's one notebook into the same folder: nothing else changes
    nb = root / "submitted" / "mistakes" / ASSIGNMENT / f"{NOTEBOOKS[0]}.ipynb"
    assert grade(nb, "--out", out) == 0
    assert (out / "grades.csv").read_text() == before


@pytest.mark.slow
def test_grading_everything_again_gives_the_identical_file(course, tmp_path):
    root, out = course
    before = (out / "grades.csv").read_text()
    again = tmp_path / "again"
    assert grade(root, "--out", again, "--jobs", 2) == 0
    assert (again / "grades.csv").read_text() == before


def test_regrading_one_student_keeps_the_others(course, tmp_path):
    root, out = course
    work = tmp_path / "out"
    shutil.copytree(out, work)
    solved_nb = root / "submitted" / "solved" / ASSIGNMENT / f"{NOTEBOOKS[0]}.ipynb"
    untouched_dir = tmp_path / "untouched" / ASSIGNMENT
    untouched_dir.mkdir(parents=True)
    shutil.copy(solved_nb, untouched_dir / solved_nb.name)  # "untouched" now submits a solved 01
    assert grade(untouched_dir, "--out", work) == 0
    new, old = scores(work), scores(out)
    assert new[("untouched", NOTEBOOKS[0])] == max_points()[NOTEBOOKS[0]]
    assert {k: v for k, v in new.items() if k != ("untouched", NOTEBOOKS[0])} == {k: v for k, v in old.items() if k != ("untouched", NOTEBOOKS[0])}


@pytest.mark.parametrize(
    "args, message",
    [
        (["grade", "/nonexistent/path", "--out", "OUT"], "does not exist"),
        (["grade", "ROOT", "--out", "OUT", "--assignment", "lecture99"], "unknown assignment 'lecture99'"),
        (["grade", "EMPTY", "--out", "OUT"], "holds no notebook of lecture8"),
        (["grade", "ROOT", "--out", "OUT", "--jobs", "0"], "--jobs must be at least 1"),
        (["grade", "ROOT", "--out", "OUT", "--timeout", "-1"], "--timeout must be a positive"),
        (["grade", "TXT", "--out", "OUT"], "is not a notebook"),
        (["grade", "EMPTY", "--out", "OUT", "--gradebook"], "grade ROOT --student NAME --gradebook"),
        (["grade", "EMPTY", "--out", "OUT", "--student", "ann"], "--student needs an nbgrader course root"),
        (["grade", "ROOT", "--out", "OUT", "--student", "nobody"], "has no nobody/lecture8/ folder"),
        (["grade", "ROOT", "--out", "OUT", "--late-penalty", "10%"], "--late-penalty needs a due date"),
        (["grade", "ROOT", "--out", "OUT", "--due", "next friday"], "is not a date and time"),
        (["grade", "ROOT", "--out", "OUT", "--due", "2025-03-01", "--late-penalty", "a lot"], "is not a late policy"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(args, message, tmp_path, course):
    root, _ = course
    (tmp_path / "empty").mkdir()
    (tmp_path / "notes.txt").write_text("hi")
    subst = {"ROOT": str(root), "OUT": str(tmp_path / "o"), "EMPTY": str(tmp_path / "empty"), "TXT": str(tmp_path / "notes.txt")}
    proc = subprocess.run([sys.executable, "-m", "autograder", *[subst.get(a, a) for a in args]], capture_output=True, text=True, env=venv_env())
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr, proc.stderr


def test_gradebook_without_the_assignment_is_refused_before_grading(course, tmp_path):
    """--gradebook on a root whose gradebook.db lacks the assignment (make release skipped): exit 2
    at once, naming the fix, rather than after grading a class for scores it cannot write."""
    root, _ = course
    bare = tmp_path / "bare"
    shutil.copytree(root / "submitted" / "solved", bare / "submitted" / "solved")
    make_db = f"from nbgrader.api import Gradebook; Gradebook('sqlite:///{bare / 'gradebook.db'}').close()"
    subprocess.run([sys.executable, "-c", make_db], check=True, env=venv_env())  # nbgrader runs alembic from the venv
    proc = subprocess.run([sys.executable, "-m", "autograder", "grade", str(bare), "--out", str(tmp_path / "o"), "--gradebook"],
                          capture_output=True, text=True, env=venv_env())
    assert proc.returncode == 2, proc.stderr
    assert "'lecture8' is not in" in proc.stderr and "nbgrader generate_assignment lecture8" in proc.stderr, proc.stderr
    assert not (tmp_path / "o" / "grades.csv").exists()


def test_unreadable_notebook_scores_zero_and_the_batch_goes_on(course, tmp_path):
    root, _ = course
    folder = tmp_path / "bob" / ASSIGNMENT
    folder.mkdir(parents=True)
    (folder / f"{NOTEBOOKS[0]}.ipynb").write_bytes(b"\xff\xfe not json")
    shutil.copy(root / "submitted" / "solved" / ASSIGNMENT / f"{NOTEBOOKS[1]}.ipynb", folder)
    out = tmp_path / "out"
    assert grade(folder, "--out", out) == 0
    s = scores(out)
    assert s[("bob", NOTEBOOKS[0])] == 0
    assert s[("bob", NOTEBOOKS[1])] == max_points()[NOTEBOOKS[1]]
    assert "not UTF-8" in (out / "bob" / "feedback.html").read_text()


@pytest.mark.slow
def test_gradebook_export_shows_the_grader_scores(course, tmp_path):
    root, out = course
    work = tmp_path / "root"
    shutil.copytree(root, work, ignore=shutil.ignore_patterns("out"))
    assert grade(work, "--out", tmp_path / "o", "--gradebook") == 0
    subprocess.run([sys.executable, "-m", "nbgrader", "export"], cwd=work, check=True, capture_output=True, env=venv_env())
    exported = {r["student_id"]: float(r["score"]) for r in read_csv(work / "grades.csv")}
    total = sum(max_points().values())
    assert exported["solved"] == total and exported["untouched"] == 0
    assert 0 < exported["mistakes"] < total


@pytest.mark.slow
def test_nbgrader_autograde_gives_the_same_per_cell_scores(course, tmp_path):
    """The nbgrader route (hidden blocks call the same suites in the student's kernel) grades
    honest submissions with the grader's per-task scores."""
    from nbgrader.api import Gradebook

    root, out = course
    work = tmp_path / "root"
    shutil.copytree(root, work, ignore=shutil.ignore_patterns("out", "mistakes"))
    subprocess.run([sys.executable, "-m", "nbgrader", "autograde", ASSIGNMENT, "--force", "--log-level=WARN"],
                   cwd=work, check=True, capture_output=True, env=venv_env())
    ours = {}
    for r in read_csv(out / "grades.csv"):
        key = (r["student"], r["notebook"], TASK_OF_TEST[(r["notebook"], r["test"])])
        ours[key] = ours.get(key, 0.0) + float(r["score"])
    with Gradebook(f"sqlite:///{work / 'gradebook.db'}") as gb:
        for student in ("solved", "untouched"):
            for name in NOTEBOOKS:
                nb = gb.find_submission_notebook(name, ASSIGNMENT, student)
                for grade in nb.grades:
                    t = task_of(grade.cell.name)
                    if t is None:  # a written answer: graded by hand, not by either route
                        continue
                    assert grade.auto_score == ours[(student, name, t)], (student, name, t)


def _still_running(pids, within: float) -> list[str]:
    """The processes among ``pids`` still running after ``within`` seconds (zombies are dead)."""
    import time

    deadline = time.monotonic() + within
    while True:
        alive = []
        for pid in pids:
            try:
                state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state != "Z":
                alive.append(pid)
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)


@pytest.fixture
def private_tmp(monkeypatch):
    """A temporary folder of this test's own (short: it holds the zygote's socket), for the
    grader here and in subprocesses, so other grading runs' folders never show up in it."""
    folder = Path(tempfile.mkdtemp(prefix="tmp-"))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def start_grading(root, work, private_tmp):
    """The grader in a subprocess, once it has finished its first notebook; and what it started."""
    proc = subprocess.Popen([sys.executable, "-m", "autograder", "grade", str(root), "--out", str(work), "--jobs", "1"],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                            env=dict(venv_env(), TMPDIR=str(private_tmp)))
    first = proc.stderr.readline()  # the first "[1/18] ..." progress line: one notebook done
    assert first.startswith("[1/"), first
    ours = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()  # zygote, children
    assert ours
    return proc, ours


def test_interrupted_batch_leaves_no_half_written_report(course, tmp_path, private_tmp):
    """SIGKILL the grader mid-batch: every file present is complete; a rerun finishes the job
    and removes the folder (workers' files included) the killed one could not."""
    root, out = course
    work = tmp_path / "out"
    proc, ours = start_grading(root, work, private_tmp)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    time.sleep(0.5)
    assert not (work / "grades.csv").exists(), "reports are written only when the batch finishes"
    states = list(work.glob(f".run-*/.state/{ASSIGNMENT}/*/*.json"))  # the killed run's own folder, not the class's
    assert states and all(json.loads(p.read_text())["tests"] for p in states)
    assert not (work / ".state").exists(), "a killed run commits nothing"
    assert not list(work.rglob("*.tmp"))
    assert not _still_running(ours, within=5.0), "the zygote or a grading process outlived the killed grader"
    left, = private_tmp.glob("grading-*")
    old = time.time() - 2 * STALE_AFTER  # as if the next run came two minutes later
    os.utime(left / "lock", (old, old))
    assert grade(root, "--out", work, "--jobs", 2) == 0
    assert (work / "grades.csv").read_text() == (out / "grades.csv").read_text()
    assert not list(private_tmp.glob("grading-*")), "the next run sweeps what a killed grader left"
    assert not list(work.glob(".run-*")), "and the killed run's own folder"


def test_terminated_grader_stops_its_workers_and_removes_their_files(course, tmp_path, private_tmp):
    """SIGTERM (a CI timeout, kill): the grader exits with a line, its sandbox gone with it,
    keeping only students graded in full (after one notebook: none)."""
    root, _ = course
    proc, ours = start_grading(root, tmp_path / "out", private_tmp)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=90) == 128 + signal.SIGTERM  # seconds when idle; minutes only at load 13 on 2 cores
    assert "autograder: stopped by SIGTERM. 0 student(s) graded in full" in proc.stderr.read()
    assert not _still_running(ours, within=5.0)
    assert not list(private_tmp.glob("grading-*"))
    assert not list((tmp_path / "out" / ".state" / ASSIGNMENT).glob("*/*.json")), "no half-graded student is kept"
    assert not list((tmp_path / "out").glob(".run-*"))


@pytest.mark.parametrize("source, error", [("import does_not_exist\n", "ModuleNotFoundError: No module named 'does_not_exist'"),
                                           ("def broken(:\n", "SyntaxError")])
def test_a_suite_that_cannot_be_imported_is_a_clear_error(tmp_path, source, error):
    """The instructor's suite, not a student's notebook, is wrong: the command names the suite and
    its error, exits 2 and grades nothing (no traceback, no zeros)."""
    course = course_copy(tmp_path / "course").assignment(LECTURE8.name)
    suite = course.suite("02_detach")
    suite.write_text(source)
    out = tmp_path / "out"
    proc = grade_cli(course.source_notebook("02_detach"), "--out", out, NEEDLE_COURSE_ROOT=str(course.course.root))
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert proc.stderr.startswith(f"autograder: error: the hidden suite {suite} failed to import (test_02_detach.py: {error}")
    assert "Traceback" not in proc.stderr and not (out / "grades.csv").exists()


def test_a_notebook_of_megabytes_of_literals_costs_seconds_and_is_the_students(release_root, tmp_path, private_tmp):
    """52 added cells of 250 KB of list literals (13 MB, each cell under its cap) cost the grader's
    own processes 131 CPU seconds and were reported as its own failure, retried 3 times (red team,
    round 12). Graded beside an honest notebook in one batch: the whole run, every process of the
    grader's included, takes a few CPU seconds; the large one scores 0 as the student's, too large
    to grade; the honest one keeps full marks."""
    import resource

    import nbformat

    root, notebook = tmp_path / "root", NOTEBOOKS[0]
    shutil.copytree(release_root, root)
    solved = nbformat.read(LECTURE8.source_notebook(notebook), 4)
    for student in ("honest", "literals"):
        (root / "submitted" / student / ASSIGNMENT).mkdir(parents=True)
    nbformat.write(solved, root / "submitted" / "honest" / ASSIGNMENT / f"{notebook}.ipynb")
    literal = ", ".join(str(i % 1000) for i in range(50_000))  # 250 KB
    solved.cells += [nbformat.v4.new_code_cell(f"DATA_{k} = [{literal}]\n") for k in range(52)]
    nbformat.write(solved, root / "submitted" / "literals" / ASSIGNMENT / f"{notebook}.ipynb")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = grade_cli(root, "--out", tmp_path / "out", "--jobs", 2, TMPDIR=str(private_tmp))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert proc.returncode == 0, proc.stderr[-2000:]
    print(f"the grader's processes: {cpu:.1f} CPU seconds")
    assert cpu < 30, f"the grader's processes took {cpu:.1f} CPU seconds"  # 2.1 s here (2026-12-07); 131 s before
    assert "NOT GRADED" not in proc.stdout and "internal grading error" not in proc.stdout + proc.stderr
    totals = scores(tmp_path / "out")
    assert totals[("honest", notebook)] == max_points()[notebook]
    assert totals[("literals", notebook)] == 0
    lost = [t for t in json.loads((tmp_path / "out" / "literals" / "results.json").read_text())["tests"]
            if t["extra_data"]["notebook"] == notebook]
    assert lost and all("your notebook's code is too large to grade" in t["output"] for t in lost)
