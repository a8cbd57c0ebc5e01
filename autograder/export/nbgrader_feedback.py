"""Deliver this grader's feedback through nbgrader's exchange.

After ``python -m autograder grade COURSE_ROOT --out DIR [--gradebook]``, :func:`place_feedback`
puts each student's feedback page of the assignment (``DIR/<student>/feedback.html``, or
``DIR/<student>/<assignment>/feedback.html`` when DIR holds several assignments) where
``nbgrader release_feedback`` looks for it, in place of what ``nbgrader generate_feedback``
would write (nbgrader's feedback renders the autograded notebooks, hidden test cells included,
so it must never reach students; this course's nbgrader_config.py refuses it)::

    COURSE_ROOT/feedback/<student>/<assignment>/<notebook>.html   this grader's page, one copy per
                                                                  notebook the student submitted
    COURSE_ROOT/feedback/<student>/<assignment>/timestamp.txt          copied from submitted/...
    COURSE_ROOT/feedback/<student>/<assignment>/submission_secret.txt  copied from submitted/...

nbgrader's model is one HTML page per notebook; this grader's page covers the whole assignment,
so every notebook gets the whole page, rendered from the grader's stored results with that
notebook's section first (the student reads the notebook they opened the feedback of, then the
rest), headed with the student's name when nbgrader's student list has one (``nbgrader db student
add ID --first-name ... --last-name ...``). ``release_feedback`` publishes each page in the exchange as
``md5(submission_secret + notebook_id).html``; the student's ``fetch_feedback`` computes the same
names from the copy of the submission it keeps, so it finds exactly its own pages. Any other
``*.html`` already in the folder (nbgrader's own feedback, a notebook no longer submitted) is
removed, so nothing else is released.

Then: ``nbgrader release_feedback <assignment>`` (or formgrader's *Release feedback*).

Command line (the one documented in docs/instructors.md, deploy/jupyterhub/README.md and
nbgrader_config.py's refusal)::

    python -m autograder nbgrader-feedback COURSE_ROOT --from DIR --assignment lecture8

Exit 0 when every submitted student's page was placed; 1 when some could not be (each is named,
with the reason) or none was; 2 on bad arguments.
"""
from __future__ import annotations

import datetime as _dt
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..course import Course
from ..console import printable
from ..nbgrader_db import student_names
from ..submissions import report_name
from ..timestamps import submission_time
from ..notebook import UnreadableNotebook, read_bytes_safely
from ..results import NotebookResult
from ..store import assignments_in, load_results, report_folder, write_atomic
from .report import feedback_html

FEEDBACK_PAGE = "feedback.html"
# Text that only nbgrader's own feedback (or a notebook's hidden tests) contains: a page holding
# any of these is not this grader's and is never placed.
HIDDEN_MARKERS = ("BEGIN HIDDEN TESTS", "END HIDDEN TESTS", "check_task(")
NBGRADER_FILES = ("timestamp.txt", "submission_secret.txt")
MAX_NBGRADER_FILE_BYTES = 4096  # a timestamp and a 32-character secret


class FeedbackProblem(Exception):
    """Bad input (no course root, no grader output, no submissions): the message says which."""


@dataclass
class Placed:
    """What :func:`place_feedback` did: per student, the pages written or why none was."""

    written: dict[str, list[Path]] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)


def place_feedback(course_root: Path, grades: Path, assignment: str = "lecture8") -> Placed:
    """Put this grader's feedback page of ``assignment`` into nbgrader's feedback folder of
    ``course_root`` for every student with a collected submission of it."""
    course_root, grades = Path(course_root), Path(grades)
    submitted = Course(course_root).submitted_dir
    if not course_root.is_dir():
        raise FeedbackProblem(f"{course_root} is not a directory; expected an nbgrader course root")
    if not grades.is_dir() or not (grades / "grades.csv").is_file():
        raise FeedbackProblem(
            f"{grades} is not the grader's output: expected {grades / 'grades.csv'} "
            f"(run `python -m autograder grade {course_root} --out {grades}` first)")
    graded = assignments_in(grades)
    if graded and assignment not in graded and "" not in graded:
        raise FeedbackProblem(f"{grades} holds the results of {', '.join(graded)}, not of {assignment!r} "
                              f"(run `python -m autograder grade {course_root} --out {grades} --assignment {assignment}` first)")
    students = sorted(p.parent.name for p in submitted.glob(f"*/{assignment}") if p.is_dir() and not p.parent.name.startswith("."))
    if not students:
        raise FeedbackProblem(
            f"no submissions of {assignment!r} in {submitted}: expected {submitted}/<student>/{assignment}/ "
            f"(run `nbgrader collect {assignment}` first)")
    placed = Placed()
    results = [r for r in load_results(grades) if r.assignment in (assignment, "")]
    names = student_names(Course(course_root).gradebook)
    for student in students:
        mine = [r for r in results if r.student == report_name(student)]
        reason = _place_one(course_root, grades, assignment, student, mine, names.get(student, ""), placed)
        if reason:
            placed.skipped[student] = reason
    return placed


def _place_one(course_root: Path, grades: Path, assignment: str, student: str, results: list[NotebookResult],
               display_name: str, placed: Placed) -> str | None:
    submission = Course(course_root).submitted(student, assignment)
    # the grader reports a folder name that is not plain (josé) under its escaped name; a folder
    # named like an escaped name is escaped too (submissions.report_name), so none stands for another
    page_path = report_folder(grades, report_name(student), assignment) / FEEDBACK_PAGE
    if not page_path.is_file():
        return f"not graded: {page_path} does not exist (grade the course root again)"
    missing = [name for name in NBGRADER_FILES if not (submission / name).is_file()]
    if missing:
        return (f"{submission} has no {' or '.join(missing)}: it did not come through nbgrader's exchange "
                f"(submit + collect), so nbgrader cannot deliver feedback for it; give the student {page_path}")
    notebooks = sorted(p.stem for p in submission.glob("*.ipynb"))
    if not notebooks:
        return f"{submission} holds no notebook"
    submitted_at = submission_time(submission / f"{notebooks[0]}.ipynb")  # timestamp.txt, read with a cap
    graded_at = _dt.datetime.fromtimestamp(page_path.stat().st_mtime, _dt.timezone.utc)
    if submitted_at is not None and graded_at < submitted_at:
        return (f"{page_path} ({graded_at:%Y-%m-%d %H:%M:%S} UTC) is older than the submission "
                f"({submitted_at:%Y-%m-%d %H:%M:%S} UTC): grade again before releasing feedback")
    if not results:
        return f"not graded: {grades} holds no results of {student}'s {assignment} (grade the course root again)"
    pages = {nb: feedback_html(student, results, assignment, name=display_name, opened=nb) for nb in notebooks}
    for page in [page_path.read_text(encoding="utf-8", errors="replace"), *pages.values()]:
        leaked = [m for m in HIDDEN_MARKERS if m in page]
        if leaked:
            return f"{page_path} contains {leaked[0]!r}: it is not this grader's feedback page; not released"

    try:  # small plain files, as nbgrader writes them (not links, not devices)
        copies = {name: read_bytes_safely(submission / name, MAX_NBGRADER_FILE_BYTES) for name in NBGRADER_FILES}
    except UnreadableNotebook as exc:
        return f"{submission}'s nbgrader files cannot be copied: {exc}"
    dest = Course(course_root).feedback(student, assignment)
    dest.mkdir(parents=True, exist_ok=True)
    keep = {f"{nb}.html" for nb in notebooks}
    for old in dest.glob("*.html"):
        if old.name not in keep:
            old.unlink()
    for name, content in copies.items():
        write_atomic(dest / name, content)
    written = []
    for nb in notebooks:
        write_atomic(dest / f"{nb}.html", pages[nb])
        written.append(dest / f"{nb}.html")
    placed.written[student] = written
    return None


# A printed line holds a student's folder name (in the line and in its paths): shown printable,
# as every command shows it, long enough for a path and a reason.
LINE_LIMIT = 1000


def report(placed: Placed, assignment: str, course_root: Path) -> int:
    """Print what was placed; 0 when every student's page was, 1 when some or all were not."""
    for student, pages in placed.written.items():
        print(printable(f"{student}: {len(pages)} page(s) in {pages[0].parent}", LINE_LIMIT))
    for student, reason in placed.skipped.items():
        print(printable(f"{student}: NOT placed: {reason}", LINE_LIMIT), file=sys.stderr)
    if not placed.written:
        print(f"no feedback page placed for {assignment}: nbgrader release_feedback would release nothing", file=sys.stderr)
        return 1
    print(f"next: nbgrader release_feedback {assignment} (in {course_root})")
    return 1 if placed.skipped else 0


if __name__ == "__main__":  # an older spelling of the command: say which one it is now
    print("autograder: run `python -m autograder nbgrader-feedback COURSE_ROOT --from GRADES --assignment ASSIGNMENT`",
          file=sys.stderr)
    sys.exit(2)
