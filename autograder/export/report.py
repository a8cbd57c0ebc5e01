"""Reports from per-notebook results: grades.csv, results.json (Gradescope's format),
feedback.html, and the summary table.

The canonical store is ``<out>/.state/<assignment>/<student>/<notebook>.json`` (one file per
graded notebook, written atomically). Every report is rebuilt from the whole store, so re-grading
a notebook replaces exactly its own rows and an interrupted batch leaves the previous, complete
reports in place.

Layout of ``<out>``: ``grades.csv`` (every test of every assignment, a row each); per student,
``<student>/results.json`` and ``<student>/feedback.html`` while the folder holds one assignment.
Once it holds several, each has its own, ``<student>/<assignment>/results.json`` and
``<student>/<assignment>/feedback.html``, and ``<student>/feedback.html`` links to them
(:func:`report_folder` says where a student's reports of an assignment are).

Every string in a report is the grader's or a suite's; none comes from a student's code.
"""
from __future__ import annotations

import csv
import html
import io
import json
from collections import defaultdict
from pathlib import Path

from .. import timestamps
from ..csvcells import cell
from ..results import LATE, NotebookResult, TestResult, points_back, task_key
from ..store import load_results, write_atomic

CSV_HEADER = ["student", "notebook", "test", "score", "max_score", "status"]  # names scripts rely on
CSV_EXTRA = ["assignment", "task", "reason"]
LATE_TEST = "late_penalty"  # the row (grades.csv) and entry (results.json) of a late notebook
FLAGGED = "Your submission is flagged for review by your instructor."


# --- shared pieces ----------------------------------------------------------------------------
def num(x: float) -> str:
    return f"{x:g}"


def taken(penalty: float) -> str:
    """The points a late penalty takes, as a signed number: "-2", or "0"."""
    return num(-penalty) if penalty else "0"


def by_task(tests: list[TestResult]) -> dict[str, list[TestResult]]:
    """Tests grouped per task, tasks in order, each task's tests in the suite's order."""
    groups: dict[str, list[TestResult]] = defaultdict(list)
    for t in tests:
        groups[t.task].append(t)
    return {task: groups[task] for task in sorted(groups, key=task_key)}


def charged(r: NotebookResult) -> str:
    """"3 days 55 min after the due date: 4 started days charged, -0.8 points": the lateness the
    penalty was worked out from, so what is shown is what is charged."""
    days = timestamps.started_days(r.late_seconds)
    cost = (f": {days} started day{'s' if days > 1 else ''} charged, {taken(r.penalty)} points" if r.penalty
            else " (no points taken)")
    return f"{timestamps.duration(r.late_seconds)} after the due date{cost}"


def lateness(r: NotebookResult) -> str:
    """"submitted 2025-03-02 10:00 UTC, 1 day 2 h after the due date: 2 started days charged, -2 points"."""
    when = f"submitted {r.submitted_at[:16].replace('T', ' ')} UTC, " if r.submitted_at else ""
    return f"{when}{charged(r)}"


# --- grades.csv -----------------------------------------------------------------------------
def grades_csv(results: list[NotebookResult]) -> str:
    """A row per test; a late notebook has one more, ``late_penalty``: the points its lateness cost
    (negative, max_score 0, reason "late"), so the score column sums to the grade."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_HEADER + CSV_EXTRA)
    for r in results:
        who = [cell(r.student), cell(r.notebook)]
        for t in sorted(r.tests, key=lambda t: (t.task, t.test)):
            writer.writerow(who + [cell(t.test), num(t.score), num(t.points), cell(t.status),
                                   cell(r.assignment), cell(t.task), cell(t.reason)])
        if r.late_seconds > 0:
            writer.writerow(who + [LATE_TEST, taken(r.penalty), "0", LATE,
                                   cell(r.assignment), "", LATE])
    return buf.getvalue()


# --- Gradescope results.json ----------------------------------------------------------------
def gradescope_json(results: list[NotebookResult], visibility: str = "visible", student_view: bool = False) -> dict:
    """Gradescope's results.json of one student's assignment. ``student_view`` (what Gradescope
    shows the student): a notebook flagged for review shows no test output, only that it is flagged."""
    tests = []
    flagged = [r for r in results if r.review]
    for r in results:
        hide = student_view and bool(r.review)
        for task, group in by_task(r.tests).items():
            for t in group:
                tests.append({
                    "name": f"{r.notebook} · Task {t.task} · {t.name}",
                    "score": t.score,
                    "max_score": t.points,
                    "status": t.status,
                    "output": "" if t.status == "passed" or hide else t.message,
                    "visibility": "hidden" if hide else visibility,
                    "extra_data": {"notebook": r.notebook, "task": t.task, "test": t.test, "reason": t.reason},
                })
        if r.late_seconds > 0:
            tests.append({
                "name": f"{r.notebook} · late submission", "score": -r.penalty if r.penalty else 0, "max_score": 0, "status": "failed",
                "output": lateness(r), "visibility": visibility,
                "extra_data": {"notebook": r.notebook, "task": "", "test": LATE_TEST, "reason": LATE},
            })
    if student_view and flagged:
        output = FLAGGED
    else:
        notes = [f"{r.notebook}: {r.error}" for r in results if r.error]
        output = "\n".join(notes) if notes else "Graded by needle-course's autograder."
    return {
        "score": sum(r.score for r in results),
        "output": output,
        # plain text everywhere (Gradescope's default, simple_format, passes HTML through): an upload's
        # file name, quoted in the output, is the student's to choose (red team, round 9)
        "output_format": "text",
        "test_output_format": "text",
        "test_name_format": "text",
        "visibility": visibility,
        "stdout_visibility": "hidden",
        "tests": tests,
    }


# --- feedback.html ---------------------------------------------------------------------------
_STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#222;line-height:1.45}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.25rem;margin-top:2rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}
h3{font-size:1.05rem;margin:1.2rem 0 .4rem}.score{float:right;font-weight:600}.assignment{color:#555;margin-top:0}
ul{list-style:none;padding-left:0;margin:.2rem 0}li{padding:.25rem .5rem;margin:.15rem 0;border-radius:4px}
li.passed{background:#eef8ee}li.failed{background:#fdf0ef}li .why{display:block;color:#7a2a20;font-size:.92rem;margin-top:.15rem}
li.first{border-left:4px solid #b3261e}.fix{font-weight:600;color:#7a2a20}
.mark{font-weight:700;margin-right:.4rem}.passed .mark{color:#2a7a2a}.failed .mark{color:#b3261e}
details{margin:.3rem 0 .3rem .2rem}summary{cursor:pointer;color:#444}
.error,.late,.flagged{background:#fff4e5;border:1px solid #f0c36d;padding:.6rem;border-radius:4px}.total{font-size:1.1rem}
"""
_INTRO = ("<p>Per task: your score and, when a test fails, <b>what to fix first</b>: the message of the first "
          "failing test (a task's tests run from basic to advanced, so the others usually fail for the same "
          "reason: they are listed below it, folded). Hidden tests use inputs you have not seen: re-read the "
          "task and the message. The grader runs the code of the task cells and of cells you added that only "
          "define things (def, class, import, constants); code that calls things in cells you added is not run.</p>")


def _page(title: str, body: list[str]) -> str:
    e = html.escape
    return "\n".join(["<!doctype html><html lang='en'><head><meta charset='utf-8'>",
                      f"<title>{e(title)}</title><style>{_STYLE}</style></head><body>", *body, "</body></html>"])


def _test_item(t: TestResult, why: str = "", first: bool = False) -> str:
    e = html.escape
    mark = "✓" if t.status == "passed" else "✗"
    css = t.status + (" first" if first else "")
    return (f"<li class='{css}'><span class='mark'>{mark}</span>{e(t.name)} ({num(t.score)}/{num(t.points)})"
            + (f"<span class='why'>{why}</span>" if why else "") + "</li>")


def _task_html(task: str, tests: list[TestResult]) -> list[str]:
    """One task: its score, the first failing test's message as the one hint, the other failing
    tests folded as "fails too", the passed tests folded."""
    e = html.escape
    score, points = sum(t.score for t in tests), sum(t.points for t in tests)
    failed = [t for t in tests if t.status != "passed"]
    passed = [t for t in tests if t.status == "passed"]
    parts = [f"<h3>Task {e(task)}<span class='score'>{num(score)} / {num(points)}</span></h3>"]
    if failed:
        # the task's one message: its first failing rung's (a later rung's points back to it)
        first = next((t for t in failed if not points_back(t.message)), failed[0])
        rest = [t for t in failed if t is not first]
        parts.append("<ul>" + _test_item(first, f"<span class='fix'>What to fix first:</span> {e(first.message)}", first=True) + "</ul>")
        if rest:
            said, items = {first.message}, []
            for t in rest:  # a message is said once per task, and a pointer to the first not at all
                items.append(_test_item(t, "" if t.message in said or points_back(t.message) else e(t.message)))
                said.add(t.message)
            parts.append(f"<details><summary>{len(rest)} more test{'s' if len(rest) > 1 else ''} "
                         f"fail{'' if len(rest) > 1 else 's'} too (likely the same cause)</summary><ul>{''.join(items)}</ul></details>")
    if passed:
        label = f"all {len(passed)} tests pass" if not failed else f"{len(passed)} test{'s' if len(passed) > 1 else ''} pass{'' if len(passed) > 1 else 'es'}"
        parts.append(f"<details><summary>✓ {label}</summary><ul>{''.join(_test_item(t) for t in passed)}</ul></details>")
    return parts


def feedback_html(student: str, results: list[NotebookResult], assignment: str = "",
                  name: str = "", opened: str = "") -> str:
    """The page a student reads in a minute: per notebook and task the score and one hint.
    A submission flagged for review says only that.

    ``name``: the student's name, when the course knows it (headed "Feedback for Ada Lovelace
    (ada)"). ``opened``: the notebook whose feedback the student opened (nbgrader delivers a page
    per notebook): its section comes first, the assignment's other notebooks after it."""
    e = html.escape
    who = f"{name} ({student})" if name and name != student else student
    head = [f"<h1>Feedback for {e(who)}</h1>"] + ([f"<p class='assignment'>{e(assignment)}</p>"] if assignment else [])
    if any(r.review for r in results):
        return _page(f"Feedback for {who}", head + [f"<p class='flagged'>{e(FLAGGED)}</p>"])
    total = sum(r.score for r in results)
    maximum = sum(r.max_score for r in results)
    parts = head + [f"<p class='total'>Total: <b>{num(total)} / {num(maximum)}</b> points</p>", _INTRO]
    if opened in {r.notebook for r in results}:
        results = sorted(results, key=lambda r: r.notebook != opened)  # stable: the others keep their order
        if len(results) > 1:
            parts.append(f"<p class='opened'>{e(opened)} first; the assignment's other notebooks follow it.</p>")
    for r in results:
        parts.append(f"<h2 id='{e(r.notebook)}'>{e(r.notebook)}<span class='score'>{num(r.score)} / {num(r.max_score)}</span></h2>")
        if r.not_submitted:
            parts.append("<p class='error'>Not submitted: this notebook scores 0.</p>")
            continue
        if r.late_seconds > 0:
            parts.append(f"<p class='late'>Late: {e(lateness(r))}.</p>")
        if r.error:
            parts.append(f"<p class='error'>{e(r.error)}</p>")
            if all(t.message == r.error for t in r.tests):
                continue  # every test says the same: said once
        for task, tests in by_task(r.tests).items():
            parts += _task_html(task, tests)
    return _page(f"Feedback for {who}", parts)


def index_html(student: str, assignments: dict[str, list[NotebookResult]]) -> str:
    """``<student>/feedback.html`` of a folder holding several assignments: a link to each page."""
    e = html.escape
    items = []
    for name, rs in assignments.items():
        score = ("flagged for review" if any(r.review for r in rs)
                 else f"{num(sum(r.score for r in rs))} / {num(sum(r.max_score for r in rs))} points")
        items.append(f"<li><a href='{e(name)}/feedback.html'>{e(name)}</a>: {e(score)}</li>")
    return _page(f"Feedback for {student}", [f"<h1>Feedback for {e(student)}</h1>", f"<ul>{''.join(items)}</ul>"])


# --- all reports ------------------------------------------------------------------------------
def write_reports(out: Path) -> list[NotebookResult]:
    results = load_results(out)
    write_atomic(out / "grades.csv", grades_csv(results))
    groups: dict[str, dict[str, list[NotebookResult]]] = defaultdict(lambda: defaultdict(list))
    for r in results:
        groups[r.student][r.assignment].append(r)
    several = len({r.assignment for r in results}) > 1
    for student, assignments in groups.items():
        for assignment, rs in assignments.items():
            folder = out / student / assignment if several else out / student
            write_atomic(folder / "results.json", json.dumps(gradescope_json(rs), indent=2, ensure_ascii=False))
            write_atomic(folder / "feedback.html", feedback_html(student, rs, assignment))
        if several:  # the one-assignment reports of this folder's earlier runs would mislead
            (out / student / "results.json").unlink(missing_ok=True)
            write_atomic(out / student / "feedback.html", index_html(student, dict(sorted(assignments.items()))))
    return results
