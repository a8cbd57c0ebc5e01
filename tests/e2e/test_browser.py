"""The student path in a real browser (Chromium, driven through JupyterLab's own UI).

1. A student opens ``01_graph_accumulation`` from the release and runs all cells: the visible
   test of Task 1.1 stops at the ladder's first rung with the stub's ``NotImplementedError``,
   its line (right under ``# YOUR CODE HERE``) quoted, and nothing after it runs.
2. They type a solution of Task 1.1 into the stub's cell and run all again: "Task 1.1: the 8
   visible rungs pass"; Run All now stops at the next stub, Task 1.2's.
3. They fill Task 1.2 too and run all: both visible tests pass, the plots render as PNG images
   and the last cell (collapsed: it reveals the answer to the written question) prints its
   extrapolation; clicking it shows its source.
4. They save; the grader grades the saved notebook: full marks, and the feedback page renders in
   the browser without a console error.

A second test opens the feedback that ``make demo`` gives its student with mistakes.
Screenshots of each step go to test-artifacts/browser/ (kept by CI).
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

try:
    from playwright.sync_api import Page, expect

    from .jupyterlab import (ERROR_OUTPUT, RUN_TIMEOUT, UI_TIMEOUT, code_cell, console_problems, menu, outputs, shot,
                             solution_source, type_into, wait_idle)
except ImportError:  # the e2e extra is missing: conftest skips (or deselects) these tests
    pass

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "solutions" / "lecture8"
NOTEBOOK = "01_graph_accumulation"
STUDENT = "e2e-student"
VISIBLE_PASS = lambda task: re.compile(rf"Task {re.escape(task)}: the \d+ visible rungs pass")  # noqa: E731 (check()'s line)  # the lab fixture's folder name: <tmp>/e2e-student/lecture8
def check_feedback_page(page: Page, html: Path, results: dict, student: str, screenshot: Path) -> None:
    """Open a feedback.html; it must render what results.json says, with no console problem."""
    problems = console_problems(page)
    page.goto(html.as_uri())
    expect(page.locator("h1")).to_have_text(f"Feedback for {student}")
    scores = [t["score"] for t in results["tests"]]
    maxima = [t["max_score"] for t in results["tests"]]
    total, maximum = sum(scores), sum(maxima)
    fmt = lambda x: f"{x:g}"  # noqa: E731
    expect(page.locator("p.total")).to_have_text(f"Total: {fmt(total)} / {fmt(maximum)} points")
    expect(page.locator("h3").filter(has_text=re.compile(r"^Task 1\.1"))).to_be_visible()
    expect(page.locator("li.passed, li.failed")).to_have_count(len(results["tests"]))
    page.screenshot(path=str(screenshot), full_page=True)
    assert problems == [], f"{html.name} logged problems in the browser: {problems}"


# --- the tests -----------------------------------------------------------------------------------
def test_student_fills_the_stubs_in_jupyterlab(page: Page, lab, artifacts: Path, tmp_path: Path) -> None:
    page.set_default_timeout(UI_TIMEOUT)
    page.goto(lab.page_url(f"/lab/tree/{NOTEBOOK}.ipynb"))
    expect(page.locator(".jp-NotebookPanel .jp-Notebook")).to_be_visible(timeout=UI_TIMEOUT)
    wait_idle(page)
    stub_1 = code_cell(page, "def count_graph_nodes(t) -> int:")
    tests_1 = code_cell(page, "# Task 1.1 - visible tests")
    stub_2 = code_cell(page, "def graph_depth(t) -> int:")
    tests_2 = code_cell(page, "# Task 1.2 - visible tests")
    # The last cell reveals the answer to the written question: its source starts collapsed.
    last = page.locator(".jp-Notebook .jp-CodeCell").last
    expect(last.locator(".jp-InputPlaceholder")).to_be_visible()
    expect(stub_1.locator(".jp-InputArea")).to_contain_text("# YOUR CODE HERE")
    expect(page.locator(".jp-Notebook .jp-OutputArea-output")).to_have_count(0)  # the release has no outputs
    shot(page, artifacts / "01-notebook-opened.png")

    # 1. Run All on the release: Task 1.1's visible test meets the stub.
    menu(page, "Run", "Run All Cells")
    expect(outputs(tests_1)).to_contain_text("NotImplementedError", timeout=RUN_TIMEOUT)
    wait_idle(page)
    error = tests_1.locator(ERROR_OUTPUT)
    expect(error).to_have_count(1)
    # The ladder's first rung, and the stub's own line: the raise under "# YOUR CODE HERE" (no frames of the course's code).
    expect(error).to_contain_text("Task 1.1, rung 1 (a leaf)")
    expect(error).to_contain_text(re.compile(r"of your cell, in `def count_graph_nodes\(t\) -> int:`: `raise NotImplementedError\(\)`"))
    expect(error).not_to_contain_text("ladder.py")
    expect(outputs(tests_1)).not_to_contain_text("visible rungs pass")
    for later in (tests_2, last):  # Run All stopped at the error
        expect(outputs(later)).to_have_count(0)
    shot(page, artifacts / "02-stub-not-implemented.png", error)

    # 2. Type Task 1.1's solution into the stub, Run All: its visible tests pass; Task 1.2's stub stops the run.
    type_into(page, stub_1, solution_source("task1_1_count_graph_nodes"))
    menu(page, "Run", "Run All Cells")
    expect(outputs(tests_1)).to_contain_text(VISIBLE_PASS("1.1"), timeout=RUN_TIMEOUT)
    expect(outputs(tests_2)).to_contain_text("NotImplementedError", timeout=RUN_TIMEOUT)
    wait_idle(page)
    expect(tests_1.locator(ERROR_OUTPUT)).to_have_count(0)
    expect(tests_2.locator(ERROR_OUTPUT)).to_contain_text("in `def graph_depth(t) -> int:`")
    expect(outputs(last)).to_have_count(0)
    shot(page, artifacts / "03-task-1-1-passed.png", outputs(tests_1))

    # 3. Task 1.2 too, Run All: every cell runs, the plots render.
    type_into(page, stub_2, solution_source("task1_2_graph_depth"))
    menu(page, "Run", "Run All Cells")
    expect(outputs(tests_2)).to_contain_text(VISIBLE_PASS("1.2"), timeout=RUN_TIMEOUT)
    expect(outputs(last)).to_contain_text("after 1,000,000 steps: 4,000,002 nodes", timeout=RUN_TIMEOUT)
    wait_idle(page)
    expect(outputs(tests_1)).to_contain_text(VISIBLE_PASS("1.1"))
    expect(page.locator(".jp-Notebook").locator(ERROR_OUTPUT)).to_have_count(0)
    plots = page.locator(".jp-Notebook .jp-OutputArea-output img[src^='data:image/png;base64,']")
    expect(plots).to_have_count(3)  # the graph of w after 3 steps, after 10,000, and size and memory against steps
    for i in range(3):
        plots.nth(i).scroll_into_view_if_needed()
        size = plots.nth(i).evaluate("img => img.decode().then(() => [img.naturalWidth, img.naturalHeight])")
        assert size[0] > 300 and size[1] > 100, f"plot {i} did not render as an image: natural size {size}"
    shot(page, artifacts / "04-all-passed-plots.png", plots.nth(2))
    last.locator(".jp-InputPlaceholder").click()  # the student opens the revealed cell
    expect(last.locator(".jp-InputArea-editor")).to_contain_text("def decay_training(steps, wd=0.01):")

    # 4. Save (File > Save Notebook) and grade what the student saved.
    menu(page, "File", "Save Notebook")
    expect(page.locator(".lm-TabBar-tab.jp-mod-dirty")).to_have_count(0)  # saved
    saved = json.loads((lab.root / f"{NOTEBOOK}.ipynb").read_text())
    sources = {c["metadata"].get("nbgrader", {}).get("grade_id"): "".join(c["source"]) for c in saved["cells"]}
    for grade_id in ("task1_1_count_graph_nodes", "task1_2_graph_depth"):
        assert sources[grade_id] == solution_source(grade_id), f"{grade_id}: the typed cell differs from what was typed"
    out = tmp_path / "grades"
    graded = subprocess.run([sys.executable, "-m", "autograder", "grade", str(lab.root / f"{NOTEBOOK}.ipynb"), "--out", str(out)],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert graded.returncode == 0, f"grading failed:\n{graded.stdout}\n{graded.stderr}"
    results = json.loads((out / STUDENT / "results.json").read_text())
    assert results["tests"] and all(t["score"] == t["max_score"] for t in results["tests"]), (
        f"the solution typed in the browser lost points: {[t['name'] for t in results['tests'] if t['score'] < t['max_score']]}")
    check_feedback_page(page, out / STUDENT / "feedback.html", results, STUDENT, artifacts / "05-feedback-full-marks.png")


def test_demo_feedback_page_renders(page: Page, artifacts: Path, tmp_path: Path) -> None:
    page.set_default_timeout(UI_TIMEOUT)
    demo = subprocess.run([sys.executable, "-m", "autograder", "demo", "--out", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert demo.returncode == 0, f"make demo's grading failed:\n{demo.stdout[-3000:]}\n{demo.stderr[-3000:]}"
    student = tmp_path / "grades" / "mistakes"
    results = json.loads((student / "results.json").read_text())
    check_feedback_page(page, student / "feedback.html", results, "mistakes", artifacts / "06-demo-feedback-mistakes.png")
    # The student with mistakes sees which tests failed, each with a message saying what to look at.
    failed = [t for t in results["tests"] if t["status"] != "passed"]
    assert failed, "the demo's student with mistakes passed everything"
    expect(page.locator("li.failed")).to_have_count(len(failed))
    # One mistake, one hint: each task's first failing test says what to fix first; the task's
    # other failing tests are listed under it, folded, without a message of their own.
    tasks = {(t["extra_data"]["notebook"], t["extra_data"]["task"]) for t in failed}
    expect(page.locator("li.failed.first .why")).to_have_count(len(tasks))
    for i in range(len(tasks)):
        expect(page.locator("li.failed.first .why").nth(i)).not_to_be_empty()
    notebooks = sorted(p.stem for p in SOLUTIONS.glob("*.ipynb"))
    expect(page.locator("h2")).to_have_count(len(notebooks))
