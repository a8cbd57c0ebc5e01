"""Reports from per-notebook results: grades.csv, <student>/results.json (Gradescope's
format), <student>/feedback.html, and the summary table.

The canonical store is ``<out>/.state/<student>/<notebook>.json`` (one file per graded
notebook, written atomically). Every report is rebuilt from the whole store, so re-grading
a notebook replaces exactly its own rows and an interrupted batch leaves the previous,
complete reports in place.
"""
from __future__ import annotations

import csv
import html
import io
import json
import os
import tempfile
from collections import defaultdict
from pathlib import Path

from .results import NotebookResult, TestResult

CSV_HEADER = ["student", "notebook", "test", "score", "max_score", "status"]


def write_atomic(path: Path, content: str | bytes) -> None:
    """Replace ``path`` with ``content`` (text as UTF-8) in one step (readers see the old or the
    new file, never half of one), readable by others (Gradescope's harness may run as another user)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = content.encode("utf-8") if isinstance(content, str) else content
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o644)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


# --- the store ------------------------------------------------------------------------------
def state_path(out: Path, student: str, notebook: str) -> Path:
    return out / ".state" / student / f"{notebook}.json"


def save_result(out: Path, result: NotebookResult) -> None:
    write_atomic(state_path(out, result.student, result.notebook), json.dumps(result.as_dict(), indent=1, sort_keys=True))


def load_results(out: Path) -> list[NotebookResult]:
    results = [NotebookResult.from_dict(json.loads(path.read_text(encoding="utf-8")))
               for path in sorted((out / ".state").glob("*/*.json"))]
    return sorted(results, key=lambda r: (r.student, r.notebook))


# --- grades.csv -----------------------------------------------------------------------------
def _num(x: float) -> str:
    return f"{x:g}"


def _cell(text: str) -> str:
    """A text cell a spreadsheet will not run as a formula (OWASP's CSV injection advice)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def grades_csv(results: list[NotebookResult]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for r in results:
        for t in sorted(r.tests, key=lambda t: (t.task, t.test)):
            writer.writerow([_cell(r.student), _cell(r.notebook), _cell(t.test), _num(t.score), _num(t.points), _cell(t.status)])
    return buf.getvalue()


# --- Gradescope results.json ----------------------------------------------------------------
def gradescope_json(results: list[NotebookResult]) -> dict:
    tests = []
    for r in results:
        for t in sorted(r.tests, key=lambda t: (t.task, t.test)):
            output = "" if t.status == "passed" else t.message
            tests.append({
                "name": f"{r.notebook} · Task {t.task} · {t.name}",
                "score": t.score,
                "max_score": t.points,
                "status": t.status,
                "output": output,
                "visibility": "visible",
                "extra_data": {"notebook": r.notebook, "task": t.task, "test": t.test},
            })
    errors = [f"{r.notebook}: {r.error}" for r in results if r.error]
    return {
        "score": sum(r.score for r in results),
        "output": "\n".join(errors) if errors else "Graded by needle-course's autograder.",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
    }


# --- feedback.html ---------------------------------------------------------------------------
_STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#222;line-height:1.45}
h1{font-size:1.6rem}h2{font-size:1.25rem;margin-top:2rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}
h3{font-size:1.05rem;margin:1.2rem 0 .4rem}.score{float:right;font-weight:600}
ul{list-style:none;padding-left:0;margin:.2rem 0}li{padding:.25rem .5rem;margin:.15rem 0;border-radius:4px}
li.passed{background:#eef8ee}li.failed{background:#fdf0ef}li .why{display:block;color:#7a2a20;font-size:.92rem;margin-top:.15rem}
.mark{font-weight:700;margin-right:.4rem}.passed .mark{color:#2a7a2a}.failed .mark{color:#b3261e}
.error{background:#fff4e5;border:1px solid #f0c36d;padding:.6rem;border-radius:4px}.total{font-size:1.1rem}
"""


def feedback_html(student: str, results: list[NotebookResult]) -> str:
    e = html.escape
    total = sum(r.score for r in results)
    maximum = sum(r.max_score for r in results)
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>Feedback for {e(student)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>Feedback for {e(student)}</h1><p class='total'>Total: <b>{_num(total)} / {_num(maximum)}</b> points</p>",
        "<p>Each test is listed with its result; a failed test says what to look at. "
        "Hidden tests use inputs you have not seen: re-read the task and the message.</p>",
    ]
    for r in results:
        parts.append(f"<h2>{e(r.notebook)}<span class='score'>{_num(r.score)} / {_num(r.max_score)}</span></h2>")
        if r.error:
            parts.append(f"<p class='error'>{e(r.error)}</p>")
        by_task: dict[str, list[TestResult]] = defaultdict(list)
        for t in r.tests:
            by_task[t.task].append(t)
        for task in sorted(by_task, key=lambda s: tuple(int(x) for x in s.split(".") if x.isdigit())):
            tests = by_task[task]
            score, points = sum(t.score for t in tests), sum(t.points for t in tests)
            passed = sum(t.status == "passed" for t in tests)
            parts.append(f"<h3>Task {e(task)}<span class='score'>{_num(score)} / {_num(points)} · {passed}/{len(tests)} tests passed</span></h3><ul>")
            for t in sorted(tests, key=lambda t: (t.status == "passed", t.test)):
                mark = "✓" if t.status == "passed" else "✗"
                why = "" if t.status == "passed" else f"<span class='why'>{e(t.message)}</span>"
                parts.append(f"<li class='{t.status}'><span class='mark'>{mark}</span>{e(t.name)} ({_num(t.score)}/{_num(t.points)}){why}</li>")
            parts.append("</ul>")
    parts.append("</body></html>")
    return "\n".join(parts)


# --- all reports ------------------------------------------------------------------------------
def write_reports(out: Path) -> list[NotebookResult]:
    results = load_results(out)
    write_atomic(out / "grades.csv", grades_csv(results))
    by_student: dict[str, list[NotebookResult]] = defaultdict(list)
    for r in results:
        by_student[r.student].append(r)
    for student, rs in by_student.items():
        write_atomic(out / student / "results.json", json.dumps(gradescope_json(rs), indent=2, ensure_ascii=False))
        write_atomic(out / student / "feedback.html", feedback_html(student, rs))
    return results


def summary_table(results: list[NotebookResult]) -> str:
    notebooks = sorted({r.notebook for r in results})
    students = sorted({r.student for r in results})
    cell = {(r.student, r.notebook): r for r in results}
    short = [n.split("_", 1)[0] for n in notebooks]
    width = max([len("student")] + [len(s) for s in students])
    lines = [f"{'student':<{width}}  " + "  ".join(f"{s:>7}" for s in short) + "    total"]
    for s in students:
        row, total, maximum = [], 0.0, 0.0
        for n in notebooks:
            r = cell.get((s, n))
            if r is None:
                row.append(f"{'-':>7}")
                continue
            row.append(f"{_num(r.score):>3}/{_num(r.max_score):<3}" + ("!" if r.error else ""))
            total, maximum = total + r.score, maximum + r.max_score
        lines.append(f"{s:<{width}}  " + "  ".join(f"{c:>7}" for c in row) + f"  {_num(total):>4}/{_num(maximum)}")
    legend = "  ".join(f"{a}={b}" for a, b in zip(short, notebooks))
    return "\n".join(lines) + f"\n({legend}; ! = could not be fully graded, see feedback)"


def isolation_summary(results: list[NotebookResult]) -> str:
    """One line on what the sandbox enforced in every worker (a layer missing in any is named)."""
    reports = [r.isolation for r in results if r.isolation]
    if not reports:
        return "isolation: no worker was started"

    def everywhere(key: str) -> bool:
        return all(report.get(key) is True for report in reports)

    abi = min(report.get("landlock", 0) for report in reports)
    parts = [
        f"Landlock ABI {abi}" if abi else "NO Landlock (files readable)",
        "seccomp" if everywhere("seccomp") else "NO seccomp (threads, processes, signal handlers allowed)",
        "unprivileged user" if everywhere("unprivileged") else "NO unprivileged user",
        "private tmpfs scratch" if everywhere("private_scratch") else "shared scratch (watched)",
        "needle's task implementation removed per task, CPU-time budgets, resource limits, own session, clean environment",
    ]
    return "isolation: " + ", ".join(parts)
