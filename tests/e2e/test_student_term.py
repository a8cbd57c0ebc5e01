"""The student's term in a real browser: what is graded is what the student wrote and saved.

1. The instructor, in a scratch course root, releases lecture8 into the course's exchange with
   the documented commands (`make release`'s generate_assignment, `nbgrader release_assignment`)
   and adds the student to nbgrader's student list with their name.
2. The student builds nothing: they start the student repository's `make lab` (the repository
   from `make student-repo`; its .venv is this one, linked, since its set-up from PyPI is
   `make test-student-repo`'s). JupyterLab opens on course/, no news pop-up over the page. The
   Assignments panel lists lecture8 as downloaded: the notebooks the file browser shows. The
   student opens 01 from the file browser, types Task 1.1's answer, saves, and clicks Submit.
3. The instructor collects, grades and releases feedback with docs/instructors.md's commands:
   the grade has Task 1.1 (the student's edit) and not Task 1.2 (still the stub).
4. The student clicks Fetch Feedback, then "(view feedback)": the file browser goes to the
   feedback folder, and 01's page, opened there, is headed with the student's name and opens on
   notebook 01.

A second test is a student whose server starts on an empty home folder (the class's hub): Fetch
in the panel puts lecture8 in the file browser; Submit of the untouched release is refused with
a message naming the folder Submit sends.
Screenshots of each step: test-artifacts/browser/term-*.png.
"""
from __future__ import annotations

import csv
import os
import pwd
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import RELEASE, _lab_environment, as_root_flags, new_lab, serving

try:
    from playwright.sync_api import Page, expect

    from .jupyterlab import UI_TIMEOUT, code_cell, menu, shot, solution_source, type_into, wait_idle
except ImportError:  # the e2e extra is missing: conftest skips (or deselects) these tests
    pass

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
ASSIGNMENT = "lecture8"
NOTEBOOK = "01_graph_accumulation"
STUDENT = pwd.getpwuid(os.getuid()).pw_name  # without a hub, nbgrader's student id is the Unix user's
NAME = "Ada Lovelace"
# docs/instructors.md's commands, as typed there (in the course root)
GRADE = "python -m autograder grade . --out grades --gradebook"
FEEDBACK = f"python -m autograder nbgrader-feedback . --from grades --assignment {ASSIGNMENT}"


def clean_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "NBGRADER", "NEEDLE_", "IPYTHON"))}
    env.update(extra)
    return env


def run(args: list, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"{args} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


@pytest.fixture
def course(tmp_path: Path) -> Path:
    """The instructor's course root with lecture8 released into its exchange (nbgrader/exchange)."""
    root = tmp_path / "course-root"
    (root / "autograder").mkdir(parents=True)
    shutil.copy(ROOT / "nbgrader_config.py", root)
    shutil.copytree(ROOT / "solutions", root / "solutions")
    shutil.copytree(ROOT / "autograder" / "suites", root / "autograder" / "suites")
    exchange = root / "nbgrader" / "exchange"
    exchange.mkdir(parents=True)
    exchange.chmod(0o1777)
    env = instructor_env(root)
    run([VENV_BIN / "nbgrader", "generate_assignment", ASSIGNMENT, "--log-level=WARN"], root, env)
    run([VENV_BIN / "nbgrader", "release_assignment", ASSIGNMENT], root, env)
    first, last = NAME.split()
    run([VENV_BIN / "nbgrader", "db", "student", "add", STUDENT, "--first-name", first, "--last-name", last], root, env)
    return root


def instructor_env(root: Path) -> dict:
    return clean_env(PATH=f"{VENV_BIN}{os.pathsep}/usr/bin:/bin", HOME=str(root.parent / "instructor-home"))


def student_repo(tmp_path: Path) -> Path:
    """`make student-repo` into a scratch folder, its .venv this one (make sees it set up)."""
    repo = tmp_path / "student-repo"
    run(["make", "--no-print-directory", "student-repo", f"STUDENT_REPO={repo}"], ROOT, clean_env())
    (repo / ".venv").symlink_to(VENV_BIN.parent)
    for made_from in ("Makefile", "pyproject.toml"):  # older than the venv's stamps: no reinstall
        os.utime(repo / made_from, (0, 0))
    return repo


def open_assignments(page: Page) -> None:
    menu(page, "Nbgrader", "Assignment List")
    expect(page.locator("#fetched_assignments_list_loading")).to_be_hidden(timeout=UI_TIMEOUT)


def refresh_assignments(page: Page) -> None:
    page.locator("#refresh_assignments_list").click()
    expect(page.locator("#submitted_assignments_list_loading")).to_be_hidden(timeout=UI_TIMEOUT)


def test_a_student_submits_their_saved_work_and_reads_its_feedback(page: Page, course: Path, tmp_path: Path, artifacts: Path) -> None:
    page.set_default_timeout(UI_TIMEOUT)
    repo = student_repo(tmp_path)
    exchange = course / "nbgrader" / "exchange"
    lab = new_lab(repo / "course", artifacts / "term-jupyterlab.log")
    env = _lab_environment(tmp_path / "student-jupyter")
    del env["JUPYTERLAB_SETTINGS_DIR"]  # the shipped settings, as a student's first start
    env.update(HOME=str(tmp_path / "student-home"), NBGRADER_EXCHANGE=str(exchange),
               JUPYTER_PORT=lab.url.rsplit(":", 1)[1], JUPYTER_TOKEN=lab.token)
    with serving(["make", "--no-print-directory", "lab", "NO_BROWSER=1"], repo, env, lab):
        page.goto(lab.page_url("/lab/tree/lecture8"))
        expect(page.locator(".jp-DirListing-item", has_text=f"{NOTEBOOK}.ipynb")).to_be_visible()
        page.wait_for_timeout(3000)  # JupyterLab asks about news a moment after it starts
        expect(page.locator(".jp-Notification-Toast")).to_have_count(0)
        # the shipped settings are the ones in force: no news, cell timing recorded (for insights)
        # (shipped overrides are the schema's defaults; the student's own settings would come on top)
        news = lab.api("GET", "/lab/api/settings/@jupyterlab/apputils-extension:notification")["schema"]["properties"]
        timing = lab.api("GET", "/lab/api/settings/@jupyterlab/notebook-extension:tracker")["schema"]["properties"]
        assert news["fetchNews"]["default"] == "false" and timing["recordTiming"]["default"] is True, (news, timing)

        # The panel's lecture8 is the folder the file browser shows: downloaded, nothing to fetch.
        open_assignments(page)
        expect(page.locator("#released_assignments_list_placeholder")).to_be_visible()
        downloaded = page.locator("#fetched_assignments_list .list_item", has_text=ASSIGNMENT).first
        expect(downloaded.get_by_role("button", name="Submit")).to_be_visible()
        shot(page, artifacts / "term-1-assignments.png")

        # The student opens 01 from the file browser, answers Task 1.1, saves.
        page.locator(".jp-DirListing-item", has_text=f"{NOTEBOOK}.ipynb").dblclick()
        expect(page.locator(".jp-NotebookPanel .jp-Notebook")).to_be_visible()
        wait_idle(page)
        type_into(page, code_cell(page, "def count_graph_nodes(t) -> int:"), solution_source("task1_1_count_graph_nodes"))
        menu(page, "File", "Save Notebook")
        expect(page.locator(".lm-TabBar-tab.jp-mod-dirty")).to_have_count(0)
        shot(page, artifacts / "term-2-saved.png")

        page.locator(".lm-TabBar-tab", has_text="Assignments").click()
        downloaded.get_by_role("button", name="Submit").click()
        expect(page.locator("#submitted_assignments_list .list_item", has_text=ASSIGNMENT)).to_have_count(1)
        shot(page, artifacts / "term-3-submitted.png")

        # The instructor: collect, grade, place and release the feedback.
        ienv = instructor_env(course)
        run([VENV_BIN / "nbgrader", "collect", ASSIGNMENT], course, ienv)
        run([sys.executable, *GRADE.split()[1:]], course, ienv)
        rows = [r for r in csv.DictReader((course / "grades" / "grades.csv").open(encoding="utf-8"))
                if r["student"] == STUDENT and r["notebook"] == NOTEBOOK and r["test"] != "late_penalty"]
        by_task = {task: [r for r in rows if r["task"] == task] for task in ("1.1", "1.2")}
        assert by_task["1.1"] and all(r["status"] == "passed" for r in by_task["1.1"]), by_task["1.1"]
        assert by_task["1.2"] and all(float(r["score"]) == 0 for r in by_task["1.2"]), "Task 1.2 is still the stub"
        run([sys.executable, *FEEDBACK.split()[1:]], course, ienv)
        run([VENV_BIN / "nbgrader", "release_feedback", ASSIGNMENT], course, ienv)

        # The student fetches the feedback and opens 01's from the panel.
        refresh_assignments(page)
        submitted = page.locator("#submitted_assignments_list .list_item", has_text=ASSIGNMENT).first
        submitted.get_by_role("button", name="Fetch Feedback").click()
        view = page.locator("#submitted_assignments_list a", has_text="(view feedback)")
        expect(view).to_have_count(1)
        view.click()
        page_file = page.locator(".jp-DirListing-item", has_text=f"{NOTEBOOK}.html")
        expect(page_file).to_be_visible()
        page_file.dblclick()
        feedback = page.frame_locator(".jp-HTMLViewer iframe").first
        expect(feedback.locator("h1")).to_have_text(f"Feedback for {NAME} ({STUDENT})")
        expect(feedback.locator("h2").first).to_contain_text(NOTEBOOK)
        score = feedback.locator("h3", has_text=re.compile(r"^Task 1\.1")).locator(".score").first.inner_text()
        assert re.fullmatch(r"\s*(\d+) / \1\s*", score), f"Task 1.1, the student's saved edit, scored {score}"
        shot(page, artifacts / "term-4-feedback.png")


def test_fetch_lands_in_the_file_browser_and_the_untouched_release_is_not_submitted(page: Page, course: Path, tmp_path: Path,
                                                                                      artifacts: Path) -> None:
    page.set_default_timeout(UI_TIMEOUT)
    home = tmp_path / "home"  # a hub's student server: JupyterLab on the home folder
    home.mkdir()
    lab = new_lab(home, artifacts / "term-hub-jupyterlab.log")
    env = _lab_environment(tmp_path / "jupyter")
    env.update(HOME=str(home), NBGRADER_EXCHANGE=str(course / "nbgrader" / "exchange"),
               JUPYTER_CONFIG_PATH=str(ROOT / "deploy" / "jupyterhub" / "student"))
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={lab.url.rsplit(':', 1)[1]}",
               "--ServerApp.port_retries=0", f"--IdentityProvider.token={lab.token}", f"--ServerApp.root_dir={home}",
               *as_root_flags()]
    with serving(command, tmp_path, env, lab):  # started elsewhere than the folder it serves
        page.goto(lab.page_url("/lab"))
        expect(page.locator(".jp-DirListing-content")).to_be_visible()
        open_assignments(page)
        released = page.locator("#released_assignments_list .list_item", has_text=ASSIGNMENT).first
        released.get_by_role("button", name="Fetch").click()
        expect(page.locator("#fetched_assignments_list .list_item", has_text=ASSIGNMENT).first).to_be_visible()
        # the file browser shows it at its next poll of the folder (every few seconds)
        expect(page.locator(".jp-DirListing-itemText", has_text=re.compile(f"^{ASSIGNMENT}$"))).to_be_visible(timeout=UI_TIMEOUT)
        assert sorted(p.name for p in (home / ASSIGNMENT).glob("*.ipynb")) == sorted(p.name for p in RELEASE.glob("*.ipynb"))
        shot(page, artifacts / "term-5-fetched.png")

        page.locator("#fetched_assignments_list .list_item", has_text=ASSIGNMENT).first.get_by_role("button", name="Submit").click()
        dialog = page.locator(".jp-Dialog")
        expect(dialog).to_contain_text("Not submitted: nothing has changed since you fetched it.")
        expect(dialog).to_contain_text(str(home / ASSIGNMENT))
        shot(page, artifacts / "term-6-untouched-refused.png")
        assert not any((course / "nbgrader" / "exchange" / "needle-course" / "inbound").iterdir())
