"""Class insights (``python -m autograder insights``) and the Canvas / Moodle grade export
(``python -m autograder export``) on a small synthetic class, written by the grader's own
report writer (autograder.export.report), so the folder has the real format."""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from autograder.cli import main as cli
from autograder.export import insights as ins
from autograder.submissions import is_reserved
from autograder import store
from autograder.export import report
from autograder.results import NotebookResult, TestResult

STUDENTS = [f"s{i:02d}" for i in range(10)]
RESET_HINT = "the loss does not go down: gradients accumulate across steps; call reset_grad before each backward"
# coursekit.hints' form: the student's own line, and the function it is in, quoted.
LINE_HINT = "your code raised IndexError at line {} of your cell, in `def walk({}):`: `return {}[9]`: an index past the end"


def t(test, task, points, passed, message="", reason=""):
    return TestResult(test, f"what {test} checks", task, points, points if passed else 0.0,
                      "passed" if passed else "failed", "" if passed else message, reason)


def class_results() -> list[NotebookResult]:
    """Ten students, two notebooks.

    01: test_a (1.1) everybody passes; test_b (1.1) six students fail with RESET_HINT, s09 left
    the stub (test_a passes without it); test_c (1.2) only s00 passes (a hard test), the others fail with an IndexError at
    their own line (3 or 7, two spellings of the function: one hint). 02: test_d (2.1), s01 did not submit, s02 was two hours
    late (a penalty of 1 point: grades.csv's late_penalty row), s03 is flagged for review; s04 fails it.
    """
    results = []
    for i, s in enumerate(STUDENTS):
        stub = s == "s09"
        first = NotebookResult(s, "01_first", [
            t("test_a", "1.1", 1, True),
            t("test_b", "1.1", 2, i >= 6 and not stub,
              "your code raised NotImplementedError: the stub is not implemented yet" if stub else RESET_HINT),
            t("test_c", "1.2", 3, i == 0, LINE_HINT.format(3 if i % 2 else 7, *(("node", "node") if i % 2 else ("v", "v")))),
        ])
        reason = {"s01": "not submitted", "s03": "review"}.get(s, "")
        second = NotebookResult(s, "02_second", [
            t("test_d", "2.1", 4, s not in ("s01", "s04"), "the shape is wrong: <check the axes>", reason)])
        if s == "s02":
            second.late_seconds, second.penalty = 7200.0, 1.0
        results += [first, second]
    return results


def without_columns(grades_csv: Path, *names: str) -> None:
    """grades.csv as an older grader wrote it: without the columns ``names`` (and, without a
    reason column, without the late_penalty rows, which came with it)."""
    rows = [row for row in csv.DictReader(grades_csv.open(newline="")) if "reason" not in names or row["test"] != report.LATE_TEST]
    buf = io.StringIO()
    writer = csv.DictWriter(buf, [f for f in rows[0] if f not in names], extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    grades_csv.write_text(buf.getvalue())


def make_grades(folder: Path, reasons: bool = True) -> Path:
    """The class as the grader's report writer writes it (grades.csv with its reason column; as
    an older grader wrote it, without its added columns, when not ``reasons``)."""
    for r in class_results():
        store.save_result(folder, r)
    report.write_reports(folder)
    if not reasons:
        without_columns(folder / "grades.csv", "assignment", "task", "reason")
    return folder


@pytest.fixture
def grades(tmp_path: Path) -> Path:
    return make_grades(tmp_path / "grades")


def stats(insights, test):
    return next(s for s in insights.tests if s.test == test)


# --- analysis ----------------------------------------------------------------------------------
def test_failure_rates_count_the_students_who_submitted(grades: Path) -> None:
    insights = ins.analyse(ins.read_grades(grades))
    assert (stats(insights, "test_a").passed, stats(insights, "test_a").failed) == (10, 0)
    assert (stats(insights, "test_b").passed, stats(insights, "test_b").failed) == (3, 7)
    assert (stats(insights, "test_c").passed, stats(insights, "test_c").failed) == (1, 9)
    # s01 did not submit 02: not a failure of test_d; s04 is its one failure among nine.
    assert (stats(insights, "test_d").passed, stats(insights, "test_d").failed) == (8, 1)
    assert insights.not_submitted == {("", "02_second"): ["s01"]}
    assert stats(insights, "test_b").name == "what test_b checks"
    assert stats(insights, "test_b").task == "1.1"
    assert report.LATE_TEST not in {s.test for s in insights.tests}  # the late penalty is no test
    assert insights.tasks[("", "02_second")] == ["2.1"]
    assert insights.notebook_scores[("", "02_second")]["s02"] == (3.0, 4.0)  # 4 points, 1 taken for lateness


def test_without_the_added_columns_tasks_come_from_results_json(tmp_path: Path) -> None:
    insights = ins.analyse(ins.read_grades(make_grades(tmp_path / "grades", reasons=False)))
    assert stats(insights, "test_b").task == "1.1" and stats(insights, "test_d").task == "2.1"


def test_without_a_reason_column_nothing_is_excluded_or_marked(tmp_path: Path) -> None:
    insights = ins.analyse(ins.read_grades(make_grades(tmp_path / "grades", reasons=False)))
    assert (stats(insights, "test_d").passed, stats(insights, "test_d").failed) == (8, 2)
    assert insights.not_submitted == {} and insights.marked == []


def test_hard_and_easy_tests(grades: Path) -> None:
    insights = ins.analyse(ins.read_grades(grades))
    assert [s.test for s in ins.hard_tests(insights)] == ["test_c"]  # 1 of 10 passes: under 20%
    assert [s.test for s in ins.easy_tests(insights)] == ["test_a"]


def test_hints_count_students_and_one_mistake_is_one_hint(grades: Path) -> None:
    insights = ins.analyse(ins.read_grades(grades))
    counts = {(h.task, h.text): len(h.students) for h in insights.hints}
    # test_c's IndexError at the student's own line 3 or 7, in their own function, is one hint, for nine students.
    assert counts == {
        ("1.2", "your code raised IndexError: an index past the end"): 9,
        ("1.1", RESET_HINT): 6,
        ("2.1", "the shape is wrong: <check the axes>"): 1,
    }
    assert [len(h.students) for h in insights.hints] == [9, 6, 1]  # most common first
    # The stub left in place is "not attempted", not a misconception.
    assert insights.stub_left == {("", "01_first", "1.1"): {"s09"}}


def test_marked_submissions_and_findings(grades: Path) -> None:
    insights = ins.analyse(ins.read_grades(grades))
    assert insights.marked == [("s02", "", "02_second", ["late"]), ("s03", "", "02_second", ["review"])]
    assert len(insights.findings) == 5
    first, second, third = insights.findings[:3]
    assert "flagged for review" in first and "s03" in first
    assert "Almost nobody passes" in second and "1 of 10" in second and "what test_c checks" in second
    # The most common hint is test_c's alone, which the hard test's finding already names: the next one is said.
    assert "6 of 10 students" in third and RESET_HINT in third


def test_weakest_task_is_found() -> None:
    rows = [ins.Row("a", "", "01", "1.1", "x", 1, 1, "passed"), ins.Row("a", "", "01", "1.2", "y", 0, 2, "failed", message="m"),
            ins.Row("b", "", "01", "1.1", "x", 1, 1, "passed"), ins.Row("b", "", "01", "1.2", "y", 2, 2, "passed")]
    assert ins.analyse(rows).findings[-1] == "Weakest task: 01 Task 1.2, 50% of its points on average among those who submitted."


def test_originality_flags_are_read(grades: Path, tmp_path: Path) -> None:
    path = tmp_path / "originality.csv"
    path.write_text("task,student,other,other_kind,similarity,matched_tokens,other_lines,flagged\n"
                    "4.1,s05,s06,student,0.910,120,1-9,yes\n4.1,s07,solution,solution,0.350,40,2-3,no\n")
    flags = ins.read_originality(path)
    assert [(f["student"], f["other"]) for f in flags] == [("s05", "s06")]
    insights = ins.analyse(ins.read_grades(grades), flags)
    page = ins.insights_html(insights)
    assert "<h2 id='originality'>Originality flags (1)</h2>" in page and "<td>s05</td><td>student s06</td>" in page
    assert "originality,,,4.1,,s05,,,0.910,student s06" in ins.insights_csv(insights)
    few = [ins.Row("a", "", "01", "1.1", "x", 1, 1, "passed")]
    assert ins.analyse(few, flags).findings == ["1 originality flag(s), 1 between students: read the code side by side."]


# --- outputs -------------------------------------------------------------------------------------
def test_cli_writes_the_page_and_the_csv(grades: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "insights"
    assert cli(["insights", str(grades), "--out", str(out)]) == 0
    page = (out / "insights.html").read_text()
    assert page.count("<img class='plot'") == 4  # two notebooks: score distributions, failure rates
    assert len(re.findall(r"src='data:image/png;base64,[A-Za-z0-9+/=]{1000,}'", page)) == 4
    assert "&lt;check the axes&gt;" in page and "<check the axes>" not in page  # every text escaped
    assert "<script" not in page and "http" not in page.split("<body>")[1]  # self-contained
    findings = re.search(r"<ol class='findings'>(.*?)</ol>", page, re.S).group(1)
    assert findings.count("<li>") == 5
    rows = list(csv.DictReader((out / "insights.csv").open(newline="")))
    assert list(rows[0]) == ins.INSIGHTS_CSV_HEADER
    kinds = [r["kind"] for r in rows]
    assert kinds.count("finding") == 5 and kinds.count("test") == 4 and kinds.count("hint") == 3
    hint = next(r for r in rows if r["kind"] == "hint" and r["task"] == "1.1")
    assert (hint["count"], hint["total"], hint["rate"], hint["test"]) == ("6", "10", "0.600", "test_b")
    assert {(r["student"], r["text"]) for r in rows if r["kind"] == "marked"} == {("s02", "late"), ("s03", "review")}
    assert "1. 1 submission(s) of 1 student(s) need reading" in capsys.readouterr().out
    # a student folder of either name would collide with it in a shared --out: escaped
    assert all(is_reserved(p.name) for p in out.iterdir())


def test_csv_cells_cannot_become_formulas(tmp_path: Path) -> None:
    rows = [ins.Row("=cmd", "", "01", "1.1", "x", 0, 1, "failed", reason="late", message="-1 is not a shape")]
    cells = [cell for row in csv.reader(io.StringIO(ins.insights_csv(ins.analyse(rows)))) for cell in row]
    assert "'=cmd" in cells and "'-1 is not a shape" in cells
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@")]


def test_bad_input_is_named(tmp_path: Path, capsys) -> None:
    assert cli(["insights", str(tmp_path), "--out", str(tmp_path / "o")]) == 2
    assert "grades.csv does not exist; expected the --out folder" in capsys.readouterr().err
    (tmp_path / "grades.csv").write_text("student,notebook,score\n")
    assert cli(["insights", str(tmp_path), "--out", str(tmp_path / "o")]) == 2
    assert "has no column test, max_score, status" in capsys.readouterr().err
    (tmp_path / "grades.csv").write_text("student,notebook,test,score,max_score,status\na,01,x,lots,1,passed\n")
    assert cli(["insights", str(tmp_path), "--out", str(tmp_path / "o")]) == 2
    assert "line 2: 'lots' is not a number" in capsys.readouterr().err
    make_grades(tmp_path / "g")
    assert cli(["insights", str(tmp_path / "g"), "--out", str(tmp_path / "o"), "--originality", str(tmp_path / "none.csv")]) == 2
    assert "none.csv does not exist" in capsys.readouterr().err


# --- export --------------------------------------------------------------------------------------
def two_assignments(folder: Path) -> Path:
    """lecture8 (01, 02) and lecture_fixture (a copy of 01) graded into one folder: the writer then keeps
    each student's results.json per assignment (<student>/<assignment>/results.json)."""
    for r in class_results():
        r.assignment = "lecture8"
        store.save_result(folder, r)
        if r.notebook == "01_first":
            store.save_result(folder, NotebookResult(r.student, r.notebook, r.tests, assignment="lecture_fixture"))
    report.write_reports(folder)
    assert (folder / "s00" / "lecture_fixture" / "results.json").is_file()
    return folder


def test_two_assignments_are_kept_apart(tmp_path: Path) -> None:
    insights = ins.analyse(ins.read_grades(two_assignments(tmp_path / "grades")))
    assert insights.notebooks == [("lecture8", "01_first"), ("lecture8", "02_second"), ("lecture_fixture", "01_first")]
    hint = next(h for h in insights.hints if h.assignment == "lecture_fixture" and h.task == "1.1")
    assert (hint.text, len(hint.students)) == (RESET_HINT, 6)  # the hint read from lecture_fixture's results.json


def expected_points(student: str) -> dict:
    """Points of each notebook of class_results(), by hand: test_a 1, test_b 2, test_c 3, test_d 4
    (s02: 1 point taken for lateness)."""
    i = int(student[1:])
    first = (1) + (2 if 6 <= i < 9 else 0) + (3 if i == 0 else 0)
    second = 0 if student in ("s01", "s04") else 3 if student == "s02" else 4
    return {"lecture8": first + second, "lecture_fixture": first}


def test_canvas_export(tmp_path: Path) -> None:
    grades = two_assignments(tmp_path / "grades")
    assert cli(["export", str(grades), "--format", "canvas", "--out", str(tmp_path / "canvas.csv")]) == 0
    rows = list(csv.reader((tmp_path / "canvas.csv").open(newline="")))
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "lecture8", "lecture_fixture"]
    assert rows[1] == ["Points Possible", "", "", "", "", "10", "6"]
    assert [r[0] for r in rows[2:]] == STUDENTS
    for r in rows[2:]:
        assert r[3] == r[0] and r[1] == r[2] == r[4] == ""
        assert [float(x) for x in r[5:]] == [expected_points(r[0])["lecture8"], expected_points(r[0])["lecture_fixture"]]


def test_moodle_export(tmp_path: Path) -> None:
    grades = two_assignments(tmp_path / "grades")
    assert cli(["export", str(grades), "--format", "moodle", "--out", str(tmp_path / "moodle.csv")]) == 0
    rows = list(csv.reader((tmp_path / "moodle.csv").open(newline="")))
    assert rows[0] == ["Username", "lecture8", "lecture_fixture"]
    assert {r[0]: [float(x) for x in r[1:]] for r in rows[1:]} == {
        s: [expected_points(s)["lecture8"], expected_points(s)["lecture_fixture"]] for s in STUDENTS}


def test_export_without_assignment_column_needs_a_name(tmp_path: Path, capsys) -> None:
    grades = make_grades(tmp_path / "grades", reasons=False)
    out = tmp_path / "moodle.csv"
    assert cli(["export", str(grades), "--format", "moodle", "--out", str(out)]) == 2
    assert "names no assignment (an older grader wrote it): name it with --assignment" in capsys.readouterr().err
    assert cli(["export", str(grades), "--format", "moodle", "--out", str(out), "--assignment", "lecture8"]) == 0
    assert out.read_text().splitlines()[0] == "Username,lecture8"


def test_exports_keep_fractions_and_take_the_most_points_possible(tmp_path: Path) -> None:
    """Mutation audit: points rounded to integers, or Points Possible from the student who could
    get the fewest (one who did not submit a notebook), passed every test. Here ann earns 2.5 of
    4.5, and bob's grades.csv lacks a notebook (a row per test of each notebook he has)."""
    grades = tmp_path / "grades"
    grades.mkdir()
    (grades / "grades.csv").write_text(
        "student,notebook,test,score,max_score,status,assignment,task,reason\n"
        "ann,01_a,test_a,1.5,2.5,failed,lecture8,1.1,\n"
        "ann,02_b,test_b,1,2,failed,lecture8,2.1,\n"
        "bob,01_a,test_a,2.5,2.5,passed,lecture8,1.1,\n")
    assert cli(["export", str(grades), "--format", "canvas", "--out", str(tmp_path / "canvas.csv")]) == 0
    rows = list(csv.reader((tmp_path / "canvas.csv").open(newline="")))
    assert rows[1][5] == "4.5" and [r[5] for r in rows[2:]] == ["2.5", "2.5"]


# --- active time, from the timing JupyterLab records (recordTiming) -----------------------------
from datetime import datetime, timedelta, timezone  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402

from autograder.export import active_time  # noqa: E402

START = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)


def timed_cell(at: datetime, run_seconds: float = 2.0) -> dict:
    """A code cell as JupyterLab saves it with recordTiming on (ISO 8601 UTC, 'Z')."""
    def stamp(t):
        return t.isoformat(timespec="milliseconds").replace("+00:00", "Z")

    return {"cell_type": "code", "source": "x = 1", "outputs": [], "execution_count": 1, "metadata": {"execution": {
        "iopub.status.busy": stamp(at), "iopub.execute_input": stamp(at + timedelta(milliseconds=5)),
        "shell.execute_reply": stamp(at + timedelta(seconds=run_seconds)),
        "iopub.status.idle": stamp(at + timedelta(seconds=run_seconds, milliseconds=10))}}}


def sessions_notebook(sessions: list) -> tuple[dict, float]:
    """A notebook worked on in ``sessions`` [(start minute, cells run one a minute)], and its
    active time worked out by hand: each session spans (cells - 1) minutes plus its last run."""
    cells, expected = [], 0.0
    for start_minute, n in sessions:
        cells += [timed_cell(START + timedelta(minutes=start_minute + k)) for k in range(n)]
        expected += (n - 1) * 60 + 2.01
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, expected


def test_active_time_counts_the_gaps_up_to_five_minutes_only() -> None:
    # two sessions three hours apart (the break is not counted), runs of 2 s a minute apart
    notebook, expected = sessions_notebook([(0, 21), (180, 6)])
    moments = active_time.recorded_moments(notebook)
    assert len(moments) == 4 * 27
    assert active_time.active_seconds(moments) == pytest.approx(expected) == pytest.approx(25 * 60 + 4.02)
    # a gap of exactly five minutes counts; one a second longer does not
    assert active_time.active_seconds([0.0, 300.0, 601.0]) == 300.0
    assert active_time.active_seconds([]) is None


def test_untrusted_timing_is_skipped_not_believed(tmp_path: Path) -> None:
    notebook, _ = sessions_notebook([(0, 3)])
    notebook["cells"] += [
        {"cell_type": "code", "metadata": {"execution": {"iopub.status.busy": "yesterday", "shell.execute_reply": 7}}},
        {"cell_type": "code", "metadata": {"execution": ["not", "a", "dict"]}},
        {"cell_type": "markdown", "metadata": {}}, "not a cell",
    ]
    assert active_time.active_seconds(active_time.recorded_moments(notebook)) == pytest.approx(2 * 60 + 2.01)
    (tmp_path / "broken.ipynb").write_text("{ not json")
    assert active_time.notebook_active_seconds(tmp_path / "broken.ipynb") is None
    (tmp_path / "untimed.ipynb").write_text(json.dumps({"cells": [{"cell_type": "code", "metadata": {}}]}))
    assert active_time.notebook_active_seconds(tmp_path / "untimed.ipynb") is None  # no timing: none, not 0
    (tmp_path / "endless.ipynb").symlink_to("/dev/zero")  # a student's link: never read (it would never end)
    assert active_time.notebook_active_seconds(tmp_path / "endless.ipynb") is None


def test_insights_reports_median_and_quartiles_of_active_time(grades: Path, capsys) -> None:
    """Five students timed on 01_first (10 to 50 minutes of work, each with a break of hours in
    it), one on 02_second, one notebook without timing; the grading folder in a course root, with
    nbgrader's submitted/ beside it."""
    root = grades.parent
    worked = {}
    for i, student in enumerate(STUDENTS[:5]):
        minutes_before_break = 5 * (i + 1)
        notebook, worked[student] = sessions_notebook([(0, minutes_before_break + 1), (600, 5 * (i + 1) + 1)])
        folder = root / "submitted" / student / "lecture8"
        folder.mkdir(parents=True)
        (folder / "01_first.ipynb").write_text(json.dumps(notebook))
    notebook, second = sessions_notebook([(0, 31)])
    (root / "submitted" / "s00" / "lecture8" / "02_second.ipynb").write_text(json.dumps(notebook))
    (root / "submitted" / "s05" / "lecture8").mkdir(parents=True)
    (root / "submitted" / "s05" / "lecture8" / "01_first.ipynb").write_text(json.dumps({"cells": []}))

    out = root / "insights"
    assert cli(["insights", str(grades), "--out", str(out)]) == 0
    q1, median, q3 = statistics.quantiles(worked.values(), n=4, method="inclusive")
    assert median == pytest.approx(30 * 60 + 2 * 2.01)  # s02: 15 minutes on each side of the break
    printed = capsys.readouterr().out
    assert "active time per notebook (gaps over 5 minutes not counted):" in printed
    assert "01_first: median 30 min, quartiles 20 min to 40 min (5 students)" in printed
    assert "02_second: median 30 min, quartiles 30 min to 30 min (1 student)" in printed
    rows = {r["notebook"]: r for r in csv.DictReader((out / "insights.csv").open(newline="")) if r["kind"] == "active time"}
    assert (rows["01_first"]["count"], rows["01_first"]["total"]) == ("5", "10")
    assert rows["01_first"]["text"] == (f"median {median:.0f} s, quartiles {q1:.0f} s and {q3:.0f} s "
                                        "(gaps over 300 s not counted)")
    page = (out / "insights.html").read_text()
    assert "Active time per notebook (gaps over 5 minutes not counted)" in page
    assert "<td class='n'>20 min</td><td class='n'>30 min</td><td class='n'>40 min</td>" in page


def test_insights_without_timing_says_so(grades: Path, tmp_path: Path, capsys) -> None:
    assert cli(["insights", str(grades), "--out", str(tmp_path / "o")]) == 0
    assert "active time: no timing recorded (no submitted/ folder beside the grading folder" in capsys.readouterr().out
    assert "No submitted notebook carries timing" in (tmp_path / "o" / "insights.html").read_text()
    assert ins.main(grades, tmp_path / "o", submitted=tmp_path / "nowhere") == 2
    assert "nowhere is not a folder; expected nbgrader's submitted/" in capsys.readouterr().err


def test_late_and_marked_students_are_one_row_each_under_their_real_names(tmp_path: Path) -> None:
    """24 late students were 8 screens of a row per notebook, and a student whose folder is josé
    read as escaped-<hash>: a row per student, named as their folder is, the report's id beside."""
    folder = tmp_path / "grades"
    escaped = "escaped-0123456789ab"
    for name in ("ann", escaped):
        for notebook in ("01_first", "02_second", "03_third"):
            r = NotebookResult(name, notebook, [t("test_a", "1.1", 1, True)])
            r.late_seconds, r.penalty = 3600.0, 0.0
            store.save_result(folder, r)
    report.write_reports(folder)
    store.record_escaped_names(folder, {escaped: "josé"})
    assert ins.main(folder, tmp_path / "out") == 0
    page = (tmp_path / "out" / "insights.html").read_text(encoding="utf-8")
    marked = page[page.index("id='marked'"):page.index("</table>", page.index("id='marked'"))]
    assert marked.count("<tr><td>") == 2, marked
    assert f"<td>josé ({escaped})</td><td class='n'>3</td>" in marked and "<td>ann</td><td class='n'>3</td>" in marked
    rows = list(csv.DictReader((tmp_path / "out" / "insights.csv").open(encoding="utf-8")))
    assert {r["student"] for r in rows if r["kind"] == "marked"} == {"ann", f"josé ({escaped})"}
