"""Exports a registrar can trust (issue 46, item 1), by the real commands on lecture_fixture's small
course: a student whose folder is gone leaves grades.csv and the Canvas and Moodle files; a
rostered student who never submitted gets a row with 0 and can be named with --student; the due
date, the late penalty and per-student extensions are kept with the grades and applied to a later
--student run; the lateness shown is the lateness charged, one line per late student."""
import csv
import io
import shutil

import pytest

from test_grading_pipeline import autograder, exported, released_lecture_fixture, rows, submit_solved

pytestmark = pytest.mark.slow

DUE = "2025-03-01T13:00"
# 3 days 55 minutes after DUE: four started days, 40% of 01_square's 3 points at 10% a day
THREE_DAYS_55 = "2025-03-04 13:55:00.000000 UTC"
ON_TIME = "2025-02-28 09:00:00.000000 UTC"


def export(out, fmt: str) -> dict[str, list[str]]:
    target = out.parent / f"{fmt}.csv"
    autograder("export", out, "--format", fmt, "--out", target)
    table = list(csv.reader(io.StringIO(target.read_text())))
    return {row[0]: row for row in table[1:] if row[0] != "Points Possible"}


def totals(out) -> dict[str, float]:
    points: dict[str, float] = {}
    for r in rows(out):
        points[r["student"]] = points.get(r["student"], 0.0) + float(r["score"])
    return points


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """lecture_fixture released by nbgrader; ann (on time), bob and cat (3 days 55 min late) submit a
    solved 01_square; graded with --gradebook, a due date, 10% a day and an extension for cat."""
    root = released_lecture_fixture(tmp_path_factory.mktemp("class46"))
    submit_solved(root, {"ann": ON_TIME, "bob": THREE_DAYS_55, "cat": THREE_DAYS_55})
    (root / "extensions.csv").write_text("student,extra\ncat,4 days\n")
    (root / "roster.csv").write_text("id,first_name\nann,Ann\nbob,Bob\ncat,Cat\ndan,Dan\n")
    first = autograder("grade", ".", "--out", "grades", "--gradebook", "--due", DUE, "--late-penalty", "10%",
                       "--extensions", "extensions.csv", "--roster", "roster.csv", cwd=root)
    return root, root / "grades", first.stdout


def test_the_lateness_shown_is_the_lateness_charged(course):
    root, out, summary = course
    late_lines = [line for line in summary.splitlines() if line.startswith("late ")]
    assert late_lines == ["late bob: 01_square 3 days 55 min after the due date: 4 started days charged, -1.2 points"]
    assert ("Late: submitted 2025-03-04 13:55 UTC, 3 days 55 min after the due date: 4 started days charged, -1.2 points"
            in (out / "bob" / "feedback.html").read_text())
    assert totals(out)["bob"] == pytest.approx(3 - 1.2)
    assert totals(out)["cat"] == 3  # four extra days: on time
    nbgrader = exported(root)
    assert float(nbgrader["bob"]["late_submission_penalty"]) == pytest.approx(1.2)
    assert float(nbgrader["cat"]["late_submission_penalty"]) == 0 and float(nbgrader["cat"]["score"]) == 3


def test_a_rostered_student_who_never_submitted_has_a_zero_row(course):
    root, out, summary = course
    assert export(out, "canvas")["dan"][5] == "0"
    assert export(out, "moodle")["dan"][1] == "0"
    assert {r["reason"] for r in rows(out) if r["student"] == "dan"} == {"not submitted"}
    assert "dan" in summary
    regraded = autograder("grade", ".", "--out", "grades", "--student", "dan", cwd=root)
    assert "dan" in regraded.stdout and totals(out)["dan"] == 0


def test_the_policy_is_kept_for_a_later_student_run(course):
    """`grade --student bob` with no flags: the due date, 10% a day and cat's extension still hold
    (the penalty was dropped: bob's 1.8 became 3)."""
    root, out, _ = course
    regraded = autograder("grade", ".", "--out", "grades", "--gradebook", "--student", "bob", cwd=root)
    assert "late bob: 01_square 3 days 55 min after the due date: 4 started days charged, -1.2 points" in regraded.stdout
    assert totals(out)["bob"] == pytest.approx(1.8) and totals(out)["cat"] == 3
    assert float(exported(root)["bob"]["late_submission_penalty"]) == pytest.approx(1.2)


def test_a_student_whose_folder_is_gone_leaves_every_export(course):
    """Run last: cat's folder is removed and the class graded again."""
    root, out, _ = course
    shutil.rmtree(root / "submitted" / "cat")
    (root / "roster.csv").write_text("id\nann\nbob\ndan\n")
    autograder("grade", ".", "--out", "grades", "--roster", "roster.csv", cwd=root)
    assert sorted(export(out, "canvas")) == ["ann", "bob", "dan"]
    assert sorted(export(out, "moodle")) == ["ann", "bob", "dan"]
    assert "cat" not in {r["student"] for r in rows(out)} and not (out / "cat").exists()
    assert not list(out.glob(".run-*"))
    autograder("insights", out, "--out", root / "insights")
    assert "3 students, 2 notebooks." in (root / "insights" / "insights.html").read_text()  # ann, bob, dan
