"""nbgrader's exchange, round trip, as real processes on a scratch copy of the course root.

instructor: generate_assignment, release_assignment (course-local exchange: <root>/nbgrader/exchange)
students alice and bob (own HOME, own working folder, the student-side config of
deploy/jupyterhub/student/): fetch_assignment, edit, submit
instructor: collect, then the commands docs/instructors.md gives, as typed there (`python -m
autograder grade . --out grades --gradebook`, `python -m autograder nbgrader-feedback . --from grades
--assignment lecture8`), release_feedback
students: fetch_feedback finds this grader's feedback page (byte for byte), their own, with no
hidden test source in it.

Two student ids on one Unix account: nbgrader's `submit --student ID` (the exchange's student id
is otherwise the Unix user name), and each student's own HOME (nbgrader keeps the copy of a
submission that fetch_feedback matches in $HOME/.local/share/jupyter/nbgrader_cache).
"""
from __future__ import annotations

import ast
import csv
import html
import json
import os
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder import demo
from autograder.export.nbgrader_feedback import FeedbackProblem, place_feedback
from autograder.export.report import write_reports
from autograder.store import save_result
from autograder.results import NotebookResult, TestResult
from autograder.submissions import report_name
from conftest import LECTURE8, ROOT

pytestmark = pytest.mark.slow

VENV_BIN = Path(sys.executable).parent
NBGRADER = str(VENV_BIN / "nbgrader")
ASSIGNMENT = "lecture8"
COURSE_ID = "needle-course"
STUDENT_CONFIG = ROOT / "deploy" / "jupyterhub" / "student"
SUITES = ROOT / "autograder" / "suites" / ASSIGNMENT
HIDDEN_MARKERS = ("BEGIN HIDDEN TESTS", "END HIDDEN TESTS", "check_task")
# The instructor's two commands after collect, as docs/instructors.md, deploy/jupyterhub/README.md
# and nbgrader_config.py's refusal give them (run in the course root).
GRADE = "python -m autograder grade . --out grades --gradebook"
FEEDBACK = f"python -m autograder nbgrader-feedback . --from grades --assignment {ASSIGNMENT}"


def _clean_env(**extra) -> dict:
    """This environment without any nbgrader/Jupyter/course setting of the developer's."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("JUPYTER", "NBGRADER", "NEEDLE_", "IPYTHON"))}
    env.update(extra)
    return env


def run(args, cwd: Path, env: dict, expect_ok: bool = True) -> subprocess.CompletedProcess:
    return run_together([(args, cwd, env)], expect_ok)[0]


def run_together(commands, expect_ok: bool = True) -> list[subprocess.CompletedProcess]:
    """Run (args, cwd, env) commands at the same time (students act independently)."""
    started = [(args, subprocess.Popen([str(a) for a in args], cwd=cwd, env=env, text=True,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE))
               for args, cwd, env in commands]
    done = []
    for args, proc in started:
        try:
            out, err = proc.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
        result = subprocess.CompletedProcess(args, proc.returncode, out, err)
        if expect_ok:
            assert proc.returncode == 0, f"{args} failed ({proc.returncode}):\n{out}\n{err}"
        done.append(result)
    return done


def instructor_env(root: Path, path_with_venv: bool = True) -> dict:
    path = f"{VENV_BIN}{os.pathsep}/usr/bin:/bin" if path_with_venv else "/usr/bin:/bin"
    return _clean_env(PATH=path, HOME=str(root.parent / "instructor-home"), NEEDLE_COURSE_ROOT=str(root))


def student_env(home: Path, exchange: Path) -> dict:
    return _clean_env(PATH=f"{VENV_BIN}{os.pathsep}/usr/bin:/bin", HOME=str(home),
                      JUPYTER_CONFIG_PATH=str(STUDENT_CONFIG), NBGRADER_EXCHANGE=str(exchange))


def solve(notebook: Path, solutions: dict) -> int:
    """What a student does in JupyterLab: fill every stub, save."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    n = 0
    for cell in nb["cells"]:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if cell.get("metadata", {}).get("nbgrader", {}).get("solution") and grade_id in solutions:
            cell["source"] = solutions[grade_id]
            n += 1
    notebook.write_text(json.dumps(nb, indent=1), encoding="utf-8")
    return n


def suite_code_lines() -> set[str]:
    """Lines of code of the hidden suites and probes (no docstrings, comments or string-bearing
    lines: assert messages are meant for students; no line the release shows students, such as a
    stub's signature, which a hint may quote from the student's own cell)."""
    released = {line.strip() for nb in (ROOT / "course" / ASSIGNMENT).glob("*.ipynb")
                for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"] for line in "".join(cell["source"]).splitlines()}
    lines = set()
    for path in LECTURE8.hidden_sources():
        source = path.read_text(encoding="utf-8")
        docstrings = set()
        for node in ast.walk(ast.parse(source)):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant):
                docstrings.update(range(body[0].lineno, body[0].end_lineno + 1))
        for number, line in enumerate(source.splitlines(), start=1):
            text = line.strip()
            if number in docstrings or len(text) < 20 or text.startswith("#") or "'" in text or '"' in text or text in released:
                continue
            lines.add(text)
    assert len(lines) > 50, "the suites should have many lines of code to look for"
    return lines


@pytest.fixture(scope="module")
def trip(tmp_path_factory):
    """The whole round trip; returns the paths the tests look at."""
    base = tmp_path_factory.mktemp("exchange")
    root = base / "course-root"
    (root / "autograder").mkdir(parents=True)
    shutil.copy(ROOT / "nbgrader_config.py", root)
    shutil.copytree(ROOT / "solutions", root / "solutions")
    shutil.copytree(SUITES.parent, root / "autograder" / "suites")
    exchange = root / "nbgrader" / "exchange"  # the course-local default of nbgrader_config.py
    exchange.mkdir(parents=True)
    exchange.chmod(0o1777)  # as `make setup` does: writable by everyone, sticky
    started = time.monotonic()

    # Instructor. generate_assignment runs without the venv on PATH: nbgrader_config.py must
    # still find alembic (else gradebook.db is left without its alembic_version table).
    run([NBGRADER, "generate_assignment", ASSIGNMENT, "--log-level=WARN"], root, instructor_env(root, path_with_venv=False))
    run([NBGRADER, "release_assignment", ASSIGNMENT], root, instructor_env(root))

    # Students: fetch, edit, submit. alice solves everything, bob only the first notebook.
    solutions = demo.solutions_by_grade_id(LECTURE8)
    homes = {s: base / s for s in ("alice", "bob")}
    for home in homes.values():
        home.mkdir()
    run_together([([NBGRADER, "fetch_assignment", ASSIGNMENT], home, student_env(home, exchange)) for home in homes.values()])
    for student, home in homes.items():
        notebooks = sorted((home / ASSIGNMENT).glob("*.ipynb"))
        for nb in notebooks if student == "alice" else notebooks[:1]:
            assert solve(nb, solutions) > 0
    run_together([([NBGRADER, "submit", ASSIGNMENT, "--student", student], home, student_env(home, exchange))
                  for student, home in homes.items()])

    # Instructor: collect, grade, feedback. nbgrader's student list knows alice's name, not bob's.
    run([NBGRADER, "db", "student", "add", "alice", "--first-name", "Alice", "--last-name", "Liddell"], root, instructor_env(root))
    run([NBGRADER, "collect", ASSIGNMENT], root, instructor_env(root))
    grades = root / "grades"
    run([sys.executable, *GRADE.split()[1:]], root, instructor_env(root))
    placed = run([sys.executable, *FEEDBACK.split()[1:]], root, instructor_env(root))
    run([NBGRADER, "release_feedback", ASSIGNMENT], root, instructor_env(root))

    # Students: fetch their feedback.
    run_together([([NBGRADER, "fetch_feedback", ASSIGNMENT], home, student_env(home, exchange)) for home in homes.values()])
    print(f"round trip: {time.monotonic() - started:.1f} s")
    return {"root": root, "exchange": exchange, "grades": grades, "homes": homes, "placed": placed.stdout}


def fetched_pages(home: Path) -> list[Path]:
    return sorted((home / ASSIGNMENT / "feedback").glob("*/*.html"))


def totals(grades: Path) -> dict[str, tuple[float, float]]:
    out: dict[str, tuple[float, float]] = {}
    for row in csv.DictReader((grades / "grades.csv").open(encoding="utf-8")):
        score, maximum = out.get(row["student"], (0.0, 0.0))
        out[row["student"]] = (score + float(row["score"]), maximum + float(row["max_score"]))
    return out


def test_exchange_is_course_local_and_released(trip):
    root, exchange = trip["root"], trip["exchange"]
    released = sorted(p.name for p in (exchange / COURSE_ID / "outbound" / ASSIGNMENT).glob("*.ipynb"))
    assert released == sorted(p.name for p in (root / "course" / ASSIGNMENT).glob("*.ipynb"))
    assert len(released) == len(list((ROOT / "solutions" / ASSIGNMENT).glob("*.ipynb")))
    assert sorted(p.name for p in (root / "submitted").iterdir()) == ["alice", "bob"]


def test_gradebook_has_its_alembic_version(trip):
    with sqlite3.connect(trip["root"] / "gradebook.db") as db:
        versions = db.execute("SELECT version_num FROM alembic_version").fetchall()
    assert len(versions) == 1 and versions[0][0]


def test_grades(trip):
    t = totals(trip["grades"])
    assert set(t) == {"alice", "bob"}
    score, maximum = t["alice"]
    assert maximum > 0 and score == maximum
    first = sorted(p.stem for p in (ROOT / "solutions" / ASSIGNMENT).glob("*.ipynb"))[0]
    rows = list(csv.DictReader((trip["grades"] / "grades.csv").open(encoding="utf-8")))
    first_max = sum(float(r["max_score"]) for r in rows if r["student"] == "bob" and r["notebook"] == first)
    assert first_max > 0 and t["bob"] == (first_max, maximum)


NAMES = {"alice": "Alice Liddell (alice)", "bob": "bob"}  # as the page heads them: nbgrader's student list


def test_students_fetch_this_graders_feedback(trip):
    """Each student fetches a page per notebook: the grader's page of their own submission (its
    total, every notebook), headed with their name, opening on the notebook it is the feedback of."""
    notebooks = sorted(p.stem for p in (ROOT / "course" / ASSIGNMENT).glob("*.ipynb"))
    for student, home in trip["homes"].items():
        pages = fetched_pages(home)
        assert sorted(p.stem for p in pages) == notebooks, f"{student} fetched {pages}"
        assert len({p.parent for p in pages}) == 1  # one submission: feedback/<its timestamp>/
        graders_page = (trip["grades"] / student / "feedback.html").read_text(encoding="utf-8")
        score, maximum = totals(trip["grades"])[student]
        other = "bob" if student == "alice" else "alice"
        for page in pages:
            text = page.read_text(encoding="utf-8")
            assert f"<h1>Feedback for {NAMES[student]}</h1>" in text, page
            assert f"{score:g} / {maximum:g}" in text and other not in text, page
            sections = re.findall(r"<h2 id='([^']+)'>", text)
            assert sections[0] == page.stem, f"{page} opens on {sections[0]}, not on its own notebook"
            assert sorted(sections) == sorted(re.findall(r"<h2 id='([^']+)'>", graders_page)), page
            # the same tasks and messages as the grader's page, in the notebook order the page chose
            assert sorted(re.findall(r"<h3>.*?</h3>", text)) == sorted(re.findall(r"<h3>.*?</h3>", graders_page)), page


def test_feedback_holds_no_hidden_test_source(trip):
    code = suite_code_lines()
    released = sorted((trip["exchange"] / COURSE_ID / "feedback").glob("*.html"))
    assert len(released) == 2 * len(list((ROOT / "course" / ASSIGNMENT).glob("*.ipynb")))
    fetched = [p for home in trip["homes"].values() for p in fetched_pages(home)]
    for page in released + fetched:
        text = html.unescape(page.read_text(encoding="utf-8"))
        for marker in HIDDEN_MARKERS:
            assert marker not in text, f"{page} contains {marker!r}"
        leaked = [line for line in code if line in text]
        assert not leaked, f"{page} contains hidden suite code: {leaked[:3]}"
    # Nor anything else a student holds (the fetched release, the submission cache).
    for home in trip["homes"].values():
        for path in home.rglob("*"):
            if path.is_file():
                assert "BEGIN HIDDEN TESTS" not in path.read_text(encoding="utf-8", errors="replace"), path


def test_nbgrader_generate_feedback_is_refused_before_it_touches_the_placed_pages(trip, tmp_path):
    """nbgrader's own feedback (hidden tests rendered) cannot be generated in this course, and
    trying (--force, as formgrader always does) leaves the grader's placed pages as they were."""
    root = tmp_path / "course-root"
    root.mkdir()
    shutil.copy(ROOT / "nbgrader_config.py", root)
    shutil.copytree(trip["root"] / "submitted" / "alice", root / "autograded" / "alice")
    shutil.copytree(trip["root"] / "feedback", root / "feedback")
    shutil.copy(trip["root"] / "gradebook.db", root)
    placed = {p: p.read_bytes() for p in sorted((root / "feedback").rglob("*")) if p.is_file()}
    assert any(p.suffix == ".html" for p in placed)
    proc = run([NBGRADER, "generate_feedback", ASSIGNMENT, "--force"], root, instructor_env(root), expect_ok=False)
    assert proc.returncode != 0
    assert "nbgrader's generate_feedback would show students the hidden tests" in proc.stdout + proc.stderr
    assert FEEDBACK in proc.stdout + proc.stderr
    assert {p: p.read_bytes() for p in sorted((root / "feedback").rglob("*")) if p.is_file()} == placed


def test_the_feedback_commands_are_documented_the_same_everywhere():
    for doc in (ROOT / "docs" / "instructors.md", ROOT / "deploy" / "jupyterhub" / "README.md"):
        text = doc.read_text(encoding="utf-8")
        assert GRADE in text and FEEDBACK in text, doc
        assert "autograder.export.nbgrader_feedback" not in text, doc
    old = subprocess.run([sys.executable, "-m", "autograder.export.nbgrader_feedback", ".", "--from", "grades"],
                         capture_output=True, text=True, cwd=ROOT)
    assert old.returncode == 2 and "python -m autograder nbgrader-feedback" in old.stderr


def test_exchange_override_by_environment(tmp_path):
    """NBGRADER_EXCHANGE points the course at a shared exchange (here a missing one: nbgrader's error names it)."""
    root = tmp_path / "course-root"
    root.mkdir()
    shutil.copy(ROOT / "nbgrader_config.py", root)
    shared = tmp_path / "srv-exchange"
    env = dict(instructor_env(root), NBGRADER_EXCHANGE=str(shared))
    proc = run([NBGRADER, "list"], root, env, expect_ok=False)
    assert proc.returncode != 0 and f"Unwritable directory, please contact your instructor: {shared}" in proc.stderr


# --- place_feedback on hand-made folders -------------------------------------------------------
def _submission(root: Path, student: str, notebooks=("01_a", "02_b"), secret=True, timestamp="2020-01-01 00:00:00.000000 UTC"):
    sub = root / "submitted" / student / ASSIGNMENT
    sub.mkdir(parents=True)
    for nb in notebooks:
        (sub / f"{nb}.ipynb").write_text("{}")
    if timestamp is not None:
        (sub / "timestamp.txt").write_text(timestamp)
    if secret:
        (sub / "submission_secret.txt").write_text(f"secret-of-{student}")
    return sub


def _graded(grades: Path, *students, page: str = ""):
    """The grader's output for ``students`` (its store and reports): each fails one test of 01_a
    with a message naming them, and passes 02_b. ``page``: a feedback.html written over the grader's."""
    grades.mkdir(exist_ok=True)
    for s in students:
        for nb, status in (("01_a", "failed"), ("02_b", "passed")):
            test = TestResult(f"test_{nb}", f"{nb} works", "1.1" if nb == "01_a" else "2.1", 1.0,
                              1.0 if status == "passed" else 0.0, status, f"the message of {s}" if status == "failed" else "")
            save_result(grades, NotebookResult(report_name(s), nb, [test], assignment=ASSIGNMENT))
    write_reports(grades)
    for s in students:
        if page:
            (grades / report_name(s) / "feedback.html").write_text(page.format(s=s))


def _opens_on(page: Path) -> str:
    """The notebook whose section a placed page shows first."""
    return re.findall(r"<h2 id='([^']+)'>", page.read_text())[0]


def test_place_feedback_writes_what_release_feedback_reads(tmp_path):
    root, grades = tmp_path / "root", tmp_path / "grades"
    _submission(root, "ann")
    _graded(grades, "ann")
    dest = root / "feedback" / "ann" / ASSIGNMENT
    dest.mkdir(parents=True)
    (dest / "01_a.html").write_text("nbgrader's page with BEGIN HIDDEN TESTS")
    (dest / "99_gone.html").write_text("a notebook no longer submitted")
    placed = place_feedback(root, grades, ASSIGNMENT)
    assert placed.skipped == {}
    assert sorted(p.name for p in dest.iterdir()) == ["01_a.html", "02_b.html", "submission_secret.txt", "timestamp.txt"]
    for name in ("01_a.html", "02_b.html"):
        assert "<h1>Feedback for ann</h1>" in (dest / name).read_text() and "the message of ann" in (dest / name).read_text()
        assert _opens_on(dest / name) == name.removesuffix(".html")
        assert stat.S_IMODE((dest / name).stat().st_mode) == 0o644
    assert (dest / "submission_secret.txt").read_text() == "secret-of-ann"
    assert (dest / "timestamp.txt").read_text() == "2020-01-01 00:00:00.000000 UTC"


def test_place_feedback_skips_what_it_cannot_deliver(tmp_path):
    root, grades = tmp_path / "root", tmp_path / "grades"
    _submission(root, "nosecret", secret=False)
    _submission(root, "notgraded")
    _submission(root, "resubmitted", timestamp="2999-01-01 00:00:00.000000 UTC")
    _submission(root, "ok")
    _graded(grades, "nosecret", "resubmitted", "ok")
    placed = place_feedback(root, grades, ASSIGNMENT)
    assert sorted(placed.written) == ["ok"]
    assert "submission_secret.txt" in placed.skipped["nosecret"]
    assert "not graded" in placed.skipped["notgraded"]
    assert "older than the submission" in placed.skipped["resubmitted"]
    assert not (root / "feedback" / "nosecret").exists()


def test_place_feedback_finds_an_escaped_name_and_no_folder_stands_for_another(tmp_path):
    """The grader reports josé under an escaped name. A folder named literally like that escaped
    name (red team, round 4) got josé's page under its own secret, and josé got none: each folder
    is looked up by the name the grader gave it."""
    root, grades = tmp_path / "root", tmp_path / "grades"
    impostor = report_name("josé")
    assert impostor.startswith("escaped-") and report_name(impostor) != impostor
    _submission(root, "josé")
    _submission(root, impostor)
    _graded(grades, "josé", impostor)
    placed = place_feedback(root, grades, ASSIGNMENT)
    assert placed.skipped == {} and sorted(placed.written) == sorted(["josé", impostor])
    for folder, other in (("josé", impostor), (impostor, "josé")):
        page = (root / "feedback" / folder / ASSIGNMENT / "01_a.html").read_text()
        assert f"<h1>Feedback for {folder}</h1>" in page and f"the message of {folder}<" in page
        assert f"the message of {other}<" not in page


def test_place_feedback_reads_nbgrader_files_with_care(tmp_path):
    """A timestamp no UTC time exists for (year 1 at +14:00) is read as the notebook's own time,
    not an uncaught OverflowError; a submission_secret.txt that is a link is not copied."""
    root, grades = tmp_path / "root", tmp_path / "grades"
    _submission(root, "early", timestamp="0001-01-01 00:00:00+14:00 UTC")
    linked = _submission(root, "linked", secret=False)
    (linked / "submission_secret.txt").symlink_to(root / "submitted" / "early" / ASSIGNMENT / "submission_secret.txt")
    _graded(grades, "early", "linked")
    placed = place_feedback(root, grades, ASSIGNMENT)
    assert sorted(placed.written) == ["early"]
    assert "symbolic link" in placed.skipped["linked"]
    assert not (root / "feedback" / "linked").exists()


def test_place_feedback_refuses_a_page_with_hidden_tests(tmp_path):
    root, grades = tmp_path / "root", tmp_path / "grades"
    _submission(root, "ann")
    _graded(grades, "ann", page="### BEGIN HIDDEN TESTS\ncheck_task(...)")  # not the grader's page
    placed = place_feedback(root, grades, ASSIGNMENT)
    assert placed.written == {} and "not this grader's feedback page" in placed.skipped["ann"]
    assert not list(root.glob("feedback/**/*.html"))


def test_place_feedback_bad_input(tmp_path):
    root, grades = tmp_path / "root", tmp_path / "grades"
    root.mkdir()
    with pytest.raises(FeedbackProblem, match="is not the grader's output"):
        place_feedback(root, grades, ASSIGNMENT)
    _graded(grades)
    with pytest.raises(FeedbackProblem, match="no submissions of 'lecture8'"):
        place_feedback(root, grades, ASSIGNMENT)
    with pytest.raises(FeedbackProblem, match="is not a directory"):
        place_feedback(tmp_path / "missing", grades, ASSIGNMENT)
    proc = subprocess.run([sys.executable, "-m", "autograder", "nbgrader-feedback", str(root), "--from", str(tmp_path / "nope")],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "is not the grader's output" in proc.stderr


def test_no_page_placed_is_a_failure(tmp_path):
    """The command exits non-zero when release_feedback would have nothing to release."""
    root, grades = tmp_path / "root", tmp_path / "grades"
    _submission(root, "ann", secret=False)
    _graded(grades, "ann")
    proc = subprocess.run([sys.executable, "-m", "autograder", "nbgrader-feedback", str(root), "--from", str(grades),
                           "--assignment", ASSIGNMENT], capture_output=True, text=True)
    assert proc.returncode == 1 and "no feedback page placed" in proc.stderr and "submission_secret.txt" in proc.stderr
