"""``python -m autograder insights GRADES_DIR --out DIR``: the class at a glance.

Reads a grading output folder (``grades.csv`` and ``<student>/results.json``, as ``grade``
writes them) and writes ``DIR/insights.html`` (one self-contained page: inline CSS, plots as
inline PNG, no script) and ``DIR/insights.csv`` (the same findings, one row each).

What an instructor learns, in this order: the five most important findings; the class's
misconceptions (the hints failed tests gave, with how many students got each: one mistake,
one hint, so a hint counts students who made that mistake); the tests almost nobody passes
(a wrong test, or an idea the lecture did not teach) and those everybody passes; the late,
review-flagged and otherwise marked submissions (``grades.csv``'s ``reason`` column, when
present); originality flags (``--originality``: an originality.csv); the students' active time
per notebook (median and quartiles, from the timing JupyterLab records in the submitted
notebooks: autograder.export.active_time); then, per notebook, the score distributions of the
notebook and of each task and every test's failure rate.

The submitted notebooks are looked for in nbgrader's layout, ``submitted/<student>/<assignment>/``,
beside the grading folder (``GRADES_DIR/../submitted``, as in a course root graded into
``grades/``) unless ``main`` is given another folder.

Rates count the students who submitted the notebook: a notebook not submitted (reason "not
submitted") is counted apart, not as a failure of every test. A late notebook's ``late_penalty``
row counts in its score (the penalty) and marks it late; it is no test. A failed test whose student code
raised NotImplementedError is the stub left in place: counted as "not attempted", not as a
misconception.
"""
from __future__ import annotations

import csv
import html
import io
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from needle.viz import figure_png

from ..console import fail, printable
from ..csvcells import cell, uncell
from ..results import task_key
from ..store import escaped_names, write_atomic
from .active_time import GAP_SECONDS, minutes, quartiles, submitted_active_times
from .grades_csv import GradesProblem, Row, read_grades
from .summary import shown

HARD = 0.2  # tests passed by fewer than this share of the students who submitted
TOP_FINDINGS = 5
HINTS_SHOWN = 15
MARKED = ("late", "review", "own work", "timeout")  # reasons listed per submission
NOT_SUBMITTED = "not submitted"
STUB_LEFT = "NotImplementedError"  # the released stub's raise
INSIGHTS_CSV_HEADER = ["kind", "assignment", "notebook", "task", "test", "student", "count", "total", "rate", "text"]


class InsightsProblem(GradesProblem):
    """The grading folder (or the originality CSV) is not what was expected; the message says why."""


def read_originality(path: Path) -> list[dict]:
    """The flagged rows of an originality.csv (``python -m autograder originality``)."""
    path = Path(path)
    if not path.is_file():
        raise InsightsProblem(f"--originality {path} does not exist; expected the originality.csv of `python -m autograder originality`")
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        needed = ["task", "student", "other", "other_kind", "similarity", "flagged"]
        missing = [c for c in needed if c not in (reader.fieldnames or [])]
        if missing:
            raise InsightsProblem(f"{path} has no column {', '.join(missing)}; expected an originality.csv")
        return [{k: uncell(v or "") for k, v in record.items()} for record in reader if record["flagged"] == "yes"]


# --- analysing -------------------------------------------------------------------------------


OWN_LINE = re.compile(r" at line \d+ of your cell(, in `[^`\n]*`)?: `[^`\n]*`")  # coursekit.hints.message's place


def same_hint(message: str) -> str:
    """A hint without the student's own line (where the code raised: coursekit.hints.message's
    "at line N of your cell, in `def ...`: `...`") and cell or line numbers, so one mistake is one hint."""
    return re.sub(r"\b(line|cell|lines|cells)\s+\d+(-\d+)?", r"\1 N", OWN_LINE.sub("", message.strip()))


@dataclass
class TestStats:
    assignment: str
    notebook: str
    task: str
    test: str
    name: str
    points: float
    passed: int = 0
    failed: int = 0

    @property
    def attempted(self) -> int:
        return self.passed + self.failed

    @property
    def pass_rate(self) -> float:
        return self.passed / self.attempted if self.attempted else 0.0


@dataclass
class Hint:
    assignment: str
    notebook: str
    task: str
    text: str
    students: set = field(default_factory=set)
    tests: set = field(default_factory=set)


@dataclass
class Insights:
    students: list  # every student in grades.csv
    notebooks: list  # [(assignment, notebook)]
    tasks: dict  # (assignment, notebook) -> [task]
    notebook_scores: dict  # (assignment, notebook) -> {student: (score, max)} (submitted only)
    task_scores: dict  # (assignment, notebook, task) -> {student: (score, max)} (submitted only)
    not_submitted: dict  # (assignment, notebook) -> [student]
    tests: list  # [TestStats], in notebook, task, test order
    hints: list  # [Hint], most students first
    stub_left: dict  # (assignment, notebook, task) -> {student}
    marked: list  # [(student, assignment, notebook, reasons)], reasons a sorted list
    originality: list  # flagged originality rows
    findings: list = field(default_factory=list)  # [str]: the most important first
    active_time: dict = field(default_factory=dict)  # (assignment, notebook) -> {student: seconds}, timed ones only
    names: dict = field(default_factory=dict)  # {reported (escaped) name: the student's folder name}, as the grader recorded

    def shown(self, student: str) -> str:
        """The student as people read them: their folder's name (josé), with the ASCII id the
        reports use beside it when it differs ("josé (escaped-1a2b...)"), as grade prints them."""
        return shown(student, self.names)


def analyse(rows: list[Row], originality: list[dict] | None = None, active_time: dict | None = None) -> Insights:
    """The class at a glance; ``active_time`` is submitted_active_times' {(assignment, notebook):
    {student: seconds}} (kept for the graded notebooks; grades without an assignment match by notebook)."""
    by_submission: dict[tuple, list[Row]] = defaultdict(list)
    for r in rows:
        by_submission[(r.assignment, r.notebook, r.student)].append(r)
    notebooks = sorted({(r.assignment, r.notebook) for r in rows})
    tasks = {nb: sorted({r.task for r in rows if (r.assignment, r.notebook) == nb and r.is_test}, key=task_key) for nb in notebooks}
    notebook_scores: dict = defaultdict(dict)
    task_scores: dict = defaultdict(dict)
    not_submitted: dict = defaultdict(list)
    stats: dict[tuple, TestStats] = {}
    hints: dict[tuple, Hint] = {}
    stub_left: dict = defaultdict(set)
    marked = []
    for (assignment, notebook, student), tests in sorted(by_submission.items()):
        reasons = sorted({r.reason for r in tests if r.reason in MARKED})
        if reasons:
            marked.append((student, assignment, notebook, reasons))
        if all(r.reason == NOT_SUBMITTED for r in tests):
            not_submitted[(assignment, notebook)].append(student)
            continue
        notebook_scores[(assignment, notebook)][student] = (sum(r.score for r in tests), sum(r.max_score for r in tests))
        tests = [r for r in tests if r.is_test]  # the late penalty counted in the score above
        for task in {r.task for r in tests}:
            mine = [r for r in tests if r.task == task]
            task_scores[(assignment, notebook, task)][student] = (sum(r.score for r in mine), sum(r.max_score for r in mine))
        for r in tests:
            s = stats.setdefault((assignment, notebook, r.task, r.test), TestStats(assignment, notebook, r.task, r.test, r.name, r.max_score))
            if r.passed:
                s.passed += 1
                continue
            s.failed += 1
            if STUB_LEFT in r.message:
                stub_left[(assignment, notebook, r.task)].add(student)
            elif r.message:
                text = same_hint(r.message)
                hint = hints.setdefault((assignment, notebook, r.task, text), Hint(assignment, notebook, r.task, text))
                hint.students.add(student)
                hint.tests.add(r.test)
    insights = Insights(
        students=sorted({r.student for r in rows}), notebooks=notebooks, tasks=tasks,
        notebook_scores=dict(notebook_scores), task_scores=dict(task_scores), not_submitted=dict(not_submitted),
        tests=[stats[k] for k in sorted(stats, key=lambda k: (k[0], k[1], task_key(k[2]), k[3]))],
        hints=sorted(hints.values(), key=lambda h: (-len(h.students), h.assignment, h.notebook, task_key(h.task), h.text)),
        stub_left=dict(stub_left), marked=marked, originality=list(originality or []),
        active_time=_graded_notebooks_times(notebooks, active_time or {}))
    insights.findings = findings(insights)
    return insights


def _graded_notebooks_times(notebooks: list, active_time: dict) -> dict:
    times = {}
    for assignment, notebook in notebooks:
        matching = [t for (a, nb), t in sorted(active_time.items()) if nb == notebook and (a == assignment or not assignment)]
        merged = {student: seconds for t in matching for student, seconds in t.items()}
        if merged:
            times[(assignment, notebook)] = merged
    return times


def active_time_summary(seconds: dict) -> str:
    """'median 42 min, quartiles 30 min to 55 min (8 students)' for {student: seconds}."""
    q1, median, q3 = quartiles(seconds.values())
    n = len(seconds)
    return f"median {minutes(median)}, quartiles {minutes(q1)} to {minutes(q3)} ({n} student{'s' * (n != 1)})"


def hard_tests(insights: Insights) -> list[TestStats]:
    return sorted((t for t in insights.tests if t.attempted and t.pass_rate < HARD), key=lambda t: (t.pass_rate, -t.attempted))


def easy_tests(insights: Insights) -> list[TestStats]:
    return [t for t in insights.tests if t.attempted and t.failed == 0]


def _pct(part: float, whole: float) -> str:
    return f"{part / whole:.0%}" if whole else "0%"


def _where(assignment: str, notebook: str, task: str = "") -> str:
    return " ".join(x for x in (assignment, notebook, f"Task {task}" if task else "") if x)


def findings(insights: Insights) -> list[str]:
    """The most important findings first: what needs the instructor's action (submissions to
    review, tests nearly nobody passes), then what to teach again (the most common
    misconceptions, the weakest task), then who is missing or late, and originality flags."""
    n = len(insights.students)
    candidates: list[str] = []
    review = [m for m in insights.marked if "review" in m[3]]
    if review:
        who = sorted({m[0] for m in review})
        candidates.append(f"{len(review)} submission(s) of {len(who)} student(s) need reading: flagged for review or "
                          f"tampering ({', '.join(who[:5])}{', ...' if len(who) > 5 else ''}).")
    hard = hard_tests(insights)[:2]
    for t in hard:
        candidates.append(f"Almost nobody passes {_where(t.assignment, t.notebook, t.task)}: “{t.name}” "
                          f"({t.passed} of {t.attempted} students, {_pct(t.passed, t.attempted)}): a wrong test, or an idea not taught.")
    said = {(t.assignment, t.notebook, t.test) for t in hard}  # a hint of those tests only would say it again
    for h in [h for h in insights.hints if not {(h.assignment, h.notebook, test) for test in h.tests} <= said][:2]:
        candidates.append(f"{len(h.students)} of {n} students ({_pct(len(h.students), n)}) got this hint in "
                          f"{_where(h.assignment, h.notebook, h.task)}: “{h.text}”")
    weakest = _weakest_task(insights)
    if weakest:
        (assignment, notebook, task), mean = weakest
        candidates.append(f"Weakest task: {_where(assignment, notebook, task)}, {mean:.0%} of its points on average among those who submitted.")
    missing = sorted(((nb, s) for nb, s in insights.not_submitted.items()), key=lambda item: -len(item[1]))
    if missing:
        (assignment, notebook), students = missing[0]
        candidates.append(f"{len(students)} of {n} students did not submit {_where(assignment, notebook)}.")
    late = sorted({m[0] for m in insights.marked if "late" in m[3]})
    if late:
        candidates.append(f"{len(late)} student(s) submitted late.")
    if insights.originality:
        pairs = sum(1 for o in insights.originality if o["other_kind"] == "student")
        candidates.append(f"{len(insights.originality)} originality flag(s), {pairs} between students: read the code side by side.")
    return candidates[:TOP_FINDINGS]


def _weakest_task(insights: Insights):
    means = {key: sum(s for s, _ in scores.values()) / sum(m for _, m in scores.values())
             for key, scores in insights.task_scores.items() if sum(m for _, m in scores.values())}
    if not means:
        return None
    key = min(means, key=lambda k: (means[k], k))
    return (key, means[key]) if means[key] < 1 else None


# --- plots -----------------------------------------------------------------------------------
def distribution_plot(insights: Insights, assignment: str, notebook: str) -> str:
    """The notebook's scores and each task's, as histograms over the students who submitted."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tasks = insights.tasks[(assignment, notebook)]
    panels = [("notebook", insights.notebook_scores.get((assignment, notebook), {}))]
    panels += [(f"Task {t}", insights.task_scores.get((assignment, notebook, t), {})) for t in tasks]
    fig, axes = plt.subplots(1, len(panels), figsize=(2.6 * len(panels), 2.2), squeeze=False)
    for ax, (title, scores) in zip(axes[0], panels):
        shares = [100 * s / m for s, m in scores.values() if m]
        ax.hist(shares, bins=[0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100.001], color="#4a7ab7", edgecolor="white")
        maximum = max((m for _, m in scores.values()), default=0)
        ax.set_title(f"{title} ({maximum:g} pts)", fontsize=9)
        ax.set_xlim(0, 100)
        ax.set_xlabel("% of points", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.yaxis.get_major_locator().set_params(integer=True)
    axes[0][0].set_ylabel("students", fontsize=8)
    fig.tight_layout()
    data = figure_png(fig, dpi=80)
    plt.close(fig)
    return data


def failure_plot(tests: list[TestStats]) -> str:
    """Each test's failure rate, one horizontal bar per test."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, max(1.8, 0.6 + 0.22 * len(tests))))
    rates = [100 * t.failed / t.attempted if t.attempted else 0 for t in tests]
    labels = [f"{t.task} {t.test}" for t in tests]
    colors = ["#b3261e" if t.attempted and t.pass_rate < HARD else "#4a7ab7" for t in tests]
    ax.barh(range(len(tests)), rates, color=colors)
    ax.set_yticks(range(len(tests)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of students who submitted that fail the test (red: fewer than 20% pass)", fontsize=8)
    ax.tick_params(axis="x", labelsize=7)
    fig.tight_layout()
    data = figure_png(fig, dpi=80)
    plt.close(fig)
    return data


# --- outputs ---------------------------------------------------------------------------------
_STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;max-width:64rem;margin:2rem auto;padding:0 1rem;color:#222;line-height:1.45}
h1{font-size:1.6rem}h2{font-size:1.25rem;margin-top:2rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}h3{font-size:1.05rem}
ol.findings li{margin:.35rem 0}table{border-collapse:collapse;margin:.4rem 0}td,th{padding:.2rem .6rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}img.plot{max-width:100%;display:block;margin:.5rem 0}
.muted{color:#666}details{margin:.4rem 0}summary{cursor:pointer}
"""


def insights_html(insights: Insights) -> str:
    e = html.escape
    n = len(insights.students)
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>Class insights</title><style>{_STYLE}</style></head><body>",
        "<h1>Class insights</h1>",
        f"<p class='muted'>{n} students, {len(insights.notebooks)} notebooks. Rates count the students who submitted "
        "the notebook. A hint counts the students whose failed tests gave it (one mistake, one hint).</p>",
        "<h2>Findings</h2><ol class='findings'>",
    ]
    parts += [f"<li>{e(text)}</li>" for text in insights.findings] or ["<li>Nothing stands out: every test passed.</li>"]
    parts.append("</ol>")

    parts.append("<h2 id='misconceptions'>Misconceptions: the most common hints</h2>")
    if insights.hints:
        parts.append("<table><tr><th>students</th><th>where</th><th>hint</th><th>tests</th></tr>")
        for h in insights.hints[:HINTS_SHOWN]:
            parts.append(f"<tr><td class='n'>{len(h.students)} ({_pct(len(h.students), n)})</td>"
                         f"<td>{e(_where(h.assignment, h.notebook, h.task))}</td><td>{e(h.text)}</td><td class='n'>{len(h.tests)}</td></tr>")
        parts.append("</table>")
        if len(insights.hints) > HINTS_SHOWN:
            parts.append(f"<p class='muted'>{len(insights.hints) - HINTS_SHOWN} more in insights.csv.</p>")
    else:
        parts.append("<p>No failed test gave a hint.</p>")
    if insights.stub_left:
        parts.append("<p>Not attempted (the stub left in place): " + "; ".join(
            f"{e(_where(a, nb, t))}: {len(s)}" for (a, nb, t), s in sorted(insights.stub_left.items(), key=lambda i: (i[0][0], i[0][1], task_key(i[0][2])))) + "</p>")

    hard = hard_tests(insights)
    parts.append(f"<h2 id='hard'>Tests almost nobody passes (under {HARD:.0%})</h2>")
    parts.append(_test_table(hard) if hard else "<p>None.</p>")
    easy = easy_tests(insights)
    parts.append(f"<details><summary>Tests everybody passes ({len(easy)})</summary>{_test_table(easy) if easy else '<p>None.</p>'}</details>")

    parts.append("<h2 id='marked'>Late, review-flagged and other marked submissions</h2>")
    if insights.marked:  # a row per student (24 late students were 8 screens of a row per notebook)
        by_student: dict[str, list[str]] = defaultdict(list)
        for student, assignment, notebook, reasons in insights.marked:
            by_student[student].append(f"{_where(assignment, notebook)}: {', '.join(reasons)}")
        parts.append("<table><tr><th>student</th><th>notebooks</th><th>marked</th></tr>")
        for student, marks in by_student.items():
            parts.append(f"<tr><td>{e(insights.shown(student))}</td><td class='n'>{len(marks)}</td><td>{e('; '.join(marks))}</td></tr>")
        parts.append("</table>")
    else:
        parts.append("<p>None (grades.csv marks late, review, own work and timeout in its reason column).</p>")

    if insights.originality:
        parts.append(f"<h2 id='originality'>Originality flags ({len(insights.originality)})</h2>"
                     "<table><tr><th>task</th><th>student</th><th>matches</th><th>similarity</th></tr>")
        for o in insights.originality:
            parts.append(f"<tr><td>{e(o['task'])}</td><td>{e(o['student'])}</td><td>{e(o['other_kind'])} {e(o['other'])}</td>"
                         f"<td class='n'>{e(o['similarity'])}</td></tr>")
        parts.append("</table><p class='muted'>originality.html shows each pair side by side.</p>")

    parts.append(f"<h2 id='active-time'>Active time per notebook (gaps over {GAP_SECONDS // 60} minutes not counted)</h2>")
    if insights.active_time:
        parts.append("<table><tr><th>notebook</th><th>students timed</th><th>first quartile</th><th>median</th>"
                     "<th>third quartile</th></tr>")
        for (assignment, notebook), seconds in sorted(insights.active_time.items()):
            q1, median, q3 = quartiles(seconds.values())
            parts.append(f"<tr><td>{e(_where(assignment, notebook))}</td><td class='n'>{len(seconds)}</td>"
                         f"<td class='n'>{minutes(q1)}</td><td class='n'>{minutes(median)}</td><td class='n'>{minutes(q3)}</td></tr>")
        parts.append("</table><p class='muted'>From the timing JupyterLab records in each code cell (recordTiming): the "
                     "time between recorded moments, without pauses longer than the gap. A cell keeps its last run only, "
                     "so this is a lower bound.</p>")
    else:
        parts.append("<p>No submitted notebook carries timing (JupyterLab's recordTiming setting records it in each code "
                     "cell; the notebooks are read from submitted/ beside the grading folder).</p>")

    for assignment, notebook in insights.notebooks:
        key = (assignment, notebook)
        scores = insights.notebook_scores.get(key, {})
        missing = insights.not_submitted.get(key, [])
        parts.append(f"<h2>{e(_where(assignment, notebook))}</h2><p class='muted'>{len(scores)} submitted"
                     + (f", {len(missing)} not submitted" if missing else "") + "</p>")
        if scores:
            parts.append(f"<img class='plot' alt='score distribution of {e(notebook)}' "
                         f"src='data:image/png;base64,{distribution_plot(insights, assignment, notebook)}'>")
            tests = [t for t in insights.tests if (t.assignment, t.notebook) == key]
            parts.append(f"<img class='plot' alt='failure rate per test of {e(notebook)}' src='data:image/png;base64,{failure_plot(tests)}'>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _test_table(tests: list[TestStats]) -> str:
    e = html.escape
    rows = ["<table><tr><th>where</th><th>test</th><th>passed</th></tr>"]
    for t in tests:
        rows.append(f"<tr><td>{e(_where(t.assignment, t.notebook, t.task))}</td><td>{e(t.name)} <span class='muted'>({e(t.test)})</span></td>"
                    f"<td class='n'>{t.passed} of {t.attempted} ({_pct(t.passed, t.attempted)})</td></tr>")
    rows.append("</table>")
    return "".join(rows)


def insights_csv(insights: Insights) -> str:
    """One row per finding, test, hint, task, marked submission and originality flag."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(INSIGHTS_CSV_HEADER)

    def row(kind, assignment="", notebook="", task="", test="", student="", count="", total="", rate="", text=""):
        rate = f"{rate:.3f}" if isinstance(rate, float) else rate
        writer.writerow([kind] + [cell(str(x)) for x in (assignment, notebook, task, test, student)] + [count, total, rate, cell(text)])

    n = len(insights.students)
    for text in insights.findings:
        row("finding", text=text)
    for t in insights.tests:
        row("test", t.assignment, t.notebook, t.task, t.test, count=t.failed, total=t.attempted,
            rate=t.failed / t.attempted if t.attempted else 0.0, text=t.name)
    for h in insights.hints:
        row("hint", h.assignment, h.notebook, h.task, " ".join(sorted(h.tests)), count=len(h.students), total=n,
            rate=len(h.students) / n if n else 0.0, text=h.text)
    for (assignment, notebook, task), students in sorted(insights.stub_left.items()):
        row("not attempted", assignment, notebook, task, count=len(students), total=n, rate=len(students) / n if n else 0.0)
    for (assignment, notebook, task), scores in sorted(insights.task_scores.items()):
        got, maximum = sum(s for s, _ in scores.values()), sum(m for _, m in scores.values())
        row("task", assignment, notebook, task, count=sum(1 for s, m in scores.values() if s == m), total=len(scores),
            rate=got / maximum if maximum else 0.0, text="count: students with every point; rate: mean share of the points")
    for (assignment, notebook), students in sorted(insights.not_submitted.items()):
        for student in students:
            row(NOT_SUBMITTED, assignment, notebook, student=insights.shown(student))
    for student, assignment, notebook, reasons in insights.marked:
        row("marked", assignment, notebook, student=insights.shown(student), text=", ".join(reasons))
    for (assignment, notebook), seconds in sorted(insights.active_time.items()):
        q1, median, q3 = quartiles(seconds.values())
        row("active time", assignment, notebook, count=len(seconds), total=len(insights.notebook_scores.get((assignment, notebook), {})),
            text=f"median {median:.0f} s, quartiles {q1:.0f} s and {q3:.0f} s (gaps over {GAP_SECONDS} s not counted)")
    for o in insights.originality:
        row("originality", task=o["task"], student=o["student"], rate=o["similarity"], text=f"{o['other_kind']} {o['other']}")
    return buf.getvalue()


def main(grades_dir: Path, out: Path, originality: Path | None = None, submitted: Path | None = None) -> int:
    """Write ``out``/insights.html and insights.csv. Returns 0, or 2 with a message on bad input.

    ``submitted``: the folder of submitted notebooks (nbgrader's ``submitted/``) whose timing
    gives the active time; by default ``submitted/`` beside ``grades_dir``, when there is one."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        return fail(f"--out {out} is a file; expected a folder for insights.html and insights.csv")
    if submitted is not None and not Path(submitted).is_dir():
        return fail(f"{submitted} is not a folder; expected nbgrader's submitted/ (<student>/<assignment>/<notebook>.ipynb)")
    beside = Path(grades_dir).resolve().parent / "submitted"
    submitted = Path(submitted) if submitted is not None else beside if beside.is_dir() else None
    try:
        rows = read_grades(Path(grades_dir))
        if not rows:
            raise InsightsProblem(f"{Path(grades_dir) / 'grades.csv'} has no rows: nothing was graded")
        insights = analyse(rows, read_originality(originality) if originality else None,
                           submitted_active_times(submitted) if submitted else None)
        insights.names = escaped_names(Path(grades_dir))
    except GradesProblem as exc:  # InsightsProblem is one
        return fail(str(exc))
    write_atomic(out / "insights.html", insights_html(insights))
    write_atomic(out / "insights.csv", insights_csv(insights))
    print(f"insights: {len(insights.students)} students, {len(insights.notebooks)} notebooks")
    for i, text in enumerate(insights.findings, 1):
        print(f"  {i}. {printable(text, 300)}")
    if insights.active_time:
        print(f"active time per notebook (gaps over {GAP_SECONDS // 60} minutes not counted):")
        for (assignment, notebook), seconds in sorted(insights.active_time.items()):
            print(f"  {printable(_where(assignment, notebook), 100)}: {active_time_summary(seconds)}")
    else:
        where = f"the notebooks in {submitted}" if submitted else "no submitted/ folder beside the grading folder"
        print(f"active time: no timing recorded ({where}; JupyterLab's recordTiming setting records it)")
    print(f"report: {out / 'insights.html'}, {out / 'insights.csv'}")
    return 0
