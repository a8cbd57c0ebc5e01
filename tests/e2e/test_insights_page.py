"""The class insights page in a real browser (Chromium through Playwright, as test_browser.py).

A class of twelve students with two notebooks is written by the grader's own report writer;
``python -m autograder insights`` turns it into insights.html, which must open without a console
error, lead with its findings, show the class's most common hint with its count, and render
every plot as a decoded PNG image. A screenshot goes to test-artifacts/browser/.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from autograder import store
from autograder.export import report
from autograder.results import NotebookResult, TestResult

try:
    from playwright.sync_api import Page, expect

    from .jupyterlab import UI_TIMEOUT, console_problems
except ImportError:  # the e2e extra is missing: conftest skips (or deselects) these tests
    pass

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
HINT = "the loss does not go down: gradients accumulate across steps; call reset_grad before each backward"


def result(test: str, task: str, points: float, passed: bool, message: str = "") -> TestResult:
    return TestResult(test, f"what {test} checks", task, points, points if passed else 0.0,
                      "passed" if passed else "failed", "" if passed else message)


def write_class(out: Path) -> None:
    """Twelve students: in 01, test_b fails for eight with HINT and test_c passes for one."""
    for i in range(12):
        student = f"student{i:02d}"
        store.save_result(out, NotebookResult(student, "01_first", [
            result("test_a", "1.1", 1, True),
            result("test_b", "1.1", 2, i >= 8, HINT),
            result("test_c", "1.2", 3, i == 0, "graph_depth counts nodes, not ops"),
        ]))
        store.save_result(out, NotebookResult(student, "02_second", [result("test_d", "2.1", 4, i % 3 != 0, "the shape is wrong")]))
    report.write_reports(out)


def test_insights_page_renders(page: Page, artifacts: Path, tmp_path: Path) -> None:
    page.set_default_timeout(UI_TIMEOUT)
    grades = tmp_path / "grades"
    write_class(grades)
    made = subprocess.run([sys.executable, "-m", "autograder", "insights", str(grades), "--out", str(tmp_path / "insights")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, f"insights failed:\n{made.stdout}\n{made.stderr}"

    problems = console_problems(page)
    page.goto((tmp_path / "insights" / "insights.html").as_uri())
    expect(page.locator("h1")).to_have_text("Class insights")
    findings = page.locator("ol.findings li")
    expect(findings.first).to_contain_text("Almost nobody passes 01_first Task 1.2")
    assert 1 <= findings.count() <= 5
    hint_row = page.locator("#misconceptions + table tr", has_text=HINT)
    expect(hint_row).to_contain_text("8 (67%)")
    plots = page.locator("img.plot")
    expect(plots).to_have_count(4)  # per notebook: the score distributions and the failure rates
    for i in range(4):
        plots.nth(i).scroll_into_view_if_needed()
        width, height = plots.nth(i).evaluate("img => img.decode().then(() => [img.naturalWidth, img.naturalHeight])")
        assert width > 300 and height > 100, f"plot {i} did not render as an image: natural size {width}x{height}"
    page.screenshot(path=str(artifacts / "07-class-insights.png"), full_page=True)
    assert problems == [], f"insights.html logged problems in the browser: {problems}"
