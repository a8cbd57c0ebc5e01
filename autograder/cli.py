"""``python -m autograder``: grade, selfcheck, demo, Gradescope (its zip and in-container grading),
originality, insights, LMS export, nbgrader feedback."""
from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import signal
import sys
from pathlib import Path

from .course import Course, CourseNotFound, UnknownAssignment
from .console import fail
from .cpus import default_jobs
from .grade import batch
from .submissions import UsageProblem, does_not_exist, match_notebooks, not_a_notebook, student_needs_a_course_root

VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")  # Gradescope's


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m autograder", description="needle-course's autograder")
    p.add_argument("--course", type=Path, default=None,
                   help="the course root (solutions/, autograder/suites/); default: found from the current directory")
    sub = p.add_subparsers(dest="command", required=True)
    g = sub.add_parser("grade", help="grade submissions with the hidden suites")
    g.add_argument("path", type=Path, help="an nbgrader course root, a student's folder of notebooks, or one notebook")
    g.add_argument("--out", type=Path, required=True, help="folder for grades.csv and per-student reports")
    g.add_argument("--assignment", default=None, help="assignment name (default: the course's only one, else the one PATH can only be: its folder name, its submissions, its notebooks)")
    g.add_argument("--jobs", type=int, default=default_jobs(), help="notebooks graded in parallel (default: the CPUs this process may use: its affinity and cgroup CPU quota)")
    g.add_argument("--timeout", type=float, default=10.0, help="CPU seconds the student's code may spend per test (default: 10)")
    g.add_argument("--gradebook", action="store_true",
                   help="also write the scores and submission times into PATH/gradebook.db (nbgrader)")
    g.add_argument("--student", default=None, metavar="NAME",
                   help="grade only this student of the course root PATH (submitted/NAME/), gradebook included")
    g.add_argument("--due", default=None, metavar="ISO8601",
                   help="the due date, e.g. 2025-03-01T23:59+01:00 (no offset: UTC); notebooks submitted later are "
                        "marked late. Kept in --out for later runs (none: drop it); default: the one kept, else the "
                        "assignment's due date in gradebook.db with --gradebook, else none")
    g.add_argument("--late-penalty", default=None, metavar="POLICY",
                   help="points a late notebook loses per day or part of a day late: 10%% (of the notebook's points), "
                        "2 (points), 100%% (late scores zero). Kept in --out for later runs (none: drop it); default: "
                        "the one kept, else late notebooks are marked, not penalised")
    g.add_argument("--extensions", default=None, metavar="FILE",
                   help="per-student extensions: a CSV with the columns student,due (their own due date, ISO 8601) or "
                        "student,extra (time added to the due date: 2 days, 36 h, 1 day 12 h). Kept in --out for later "
                        "runs (none: drop them)")
    g.add_argument("--roster", default=None, metavar="FILE",
                   help="the enrolled students: a CSV with a student column (or nbgrader's id column); each gets a row, "
                        "0 where nothing was submitted. Kept in --out for later runs (none: drop it); with --gradebook, "
                        "nbgrader's student list is added")
    g.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                   help="grade on the Dask cluster of this running `dask scheduler` (--jobs is then unused: "
                        "each worker thread grades one notebook); default: on this machine")
    c = sub.add_parser("selfcheck", help="check the suites against the solutions, the stubs and the mistake fixtures")
    c.add_argument("assignment", nargs="?", default=None, help="default: every assignment")
    c.add_argument("--notebook", default=None, help="only this notebook (and its mistake fixtures)")
    t = sub.add_parser("tasks", help="write solutions/<assignment>/tasks.json (the release's task facts and visible rungs) "
                                     "from the suites' task declarations")
    t.add_argument("assignment", nargs="?", default=None, help="default: every assignment")
    d = sub.add_parser("demo", help="release, make three example submissions, grade them")
    d.add_argument("--out", type=Path, default=Path("demo-out"))
    d.add_argument("--assignment", default=None)
    s = sub.add_parser("gradescope", help="grade a Gradescope submission (inside Gradescope's container)")
    s.add_argument("--assignment", default=None)
    s.add_argument("--submission", type=Path, default=Path("/autograder/submission"))
    s.add_argument("--results", type=Path, default=Path("/autograder/results"),
                   help="the folder results.json is written into (Gradescope's /autograder/results)")
    s.add_argument("--visibility", default="visible", choices=VISIBILITIES, help="when students see the tests (Gradescope's visibility)")
    o = sub.add_parser("originality", help="compare each task's answers with classmates', the solutions and needle's source")
    o.add_argument("path", type=Path, help="an nbgrader course root, a student's folder of notebooks, or one notebook")
    o.add_argument("--out", type=Path, required=True, help="folder for originality.html and originality.csv")
    o.add_argument("--assignment", default=None)
    f = sub.add_parser("nbgrader-feedback", help="put the grader's feedback pages where `nbgrader release_feedback` releases them")
    f.add_argument("course_root", type=Path, help="the nbgrader course root that was graded")
    f.add_argument("--from", dest="grades", type=Path, required=True, help="the grader's --out folder")
    f.add_argument("--assignment", default=None, help="default: the course's only assignment")
    z = sub.add_parser("gradescope-zip", help="build the Gradescope autograder zip of an assignment")
    z.add_argument("--assignment", default=None)
    z.add_argument("--out", type=Path, default=None, help="default: dist/gradescope-autograder-<assignment>.zip")
    z.add_argument("--visibility", default="visible", choices=VISIBILITIES,
                   help="when students see the tests on Gradescope (default: visible)")
    i = sub.add_parser("insights", help="the class at a glance from a grading folder: insights.html (plots) and insights.csv")
    i.add_argument("grades", type=Path, help="the --out folder of `grade` (grades.csv, <student>/results.json)")
    i.add_argument("--out", type=Path, required=True, help="folder for insights.html and insights.csv")
    i.add_argument("--originality", type=Path, default=None, help="an originality.csv whose flags to include")
    x = sub.add_parser("export", help="the grades as a CSV for Canvas's or Moodle's grade import (a row per student, a column per assignment)")
    x.add_argument("grades", type=Path, help="the --out folder of `grade`")
    x.add_argument("--format", required=True, choices=["canvas", "moodle"])
    x.add_argument("--out", type=Path, required=True, help="the CSV file to write")
    x.add_argument("--assignment", default=None, help="the assignment's name, when grades.csv has no assignment column")
    return p


def _assignment(course: Course, name: str | None, path: Path | None = None):
    """--assignment, else the course's only one, else the one ``path`` (what is graded or
    compared) can only be: a folder named after it, a course root whose submissions are of it
    alone, notebooks only it has."""
    if name is None:
        every = course.assignments()
        if len(every) > 1 and path is not None:
            name = _inferred(course, every, Path(path))
        elif len(every) == 1:
            name = every[0]
        else:
            raise UnknownAssignment(f"this course has {len(every)} assignments ({', '.join(every) or 'none'}): "
                                    "choose one with --assignment")
    return course.assignment(name)


def _inferred(course: Course, every: list[str], path: Path) -> str:
    """The one lecture ``path`` can be, or a message saying why there is none (said as it is
    with one lecture, when it holds nothing of any) or which to choose from."""
    if not path.exists() and not path.is_symlink():
        raise does_not_exist(path)
    if path.is_file() and path.suffix != ".ipynb":
        raise not_a_notebook(path)
    named = [n for n in every if path.name == n or path.suffix == ".ipynb" and path.parent.name == n]
    if len(named) == 1 and not Course(path).submitted_dir.is_dir():
        return named[0]  # a folder named after it (or a notebook in one): its name says which
    names = [n for n in every if _could_be(course.assignment(n), path)]
    if len(names) == 1:
        return names[0]
    if not names:
        raise UsageProblem(f"{path} holds no notebook of {' or '.join(every)}: expected an nbgrader course root, a "
                           "student's folder of a lecture's notebooks, or one of them")
    raise UnknownAssignment(f"this course has {len(every)} assignments ({', '.join(every)}); {path} could be "
                            f"{' or '.join(names)}: choose one with --assignment")


def _could_be(assignment, path: Path) -> bool:
    path = Path(path)
    submitted = Course(path).submitted_dir
    if submitted.is_dir():
        return any(submitted.glob(f"*/{assignment.name}"))
    if path.name == assignment.name or path.parent.name == assignment.name and path.suffix == ".ipynb":
        return True
    notebooks = [path] if path.suffix == ".ipynb" else sorted(path.glob("*.ipynb")) if path.is_dir() else []
    present, _ = match_notebooks(notebooks, assignment.notebooks(), path if path.is_dir() else path.parent)
    return bool(present)


def _unwritable(out: Path) -> str:
    """Why the reports cannot go to ``out``, checked before grading (it graded the class, then
    failed on every save), or ""."""
    if out.exists() and not out.is_dir():
        return f"--out {out} is a file; expected a folder for the reports (it is made if missing)"
    folder = out if out.exists() else next((p for p in out.parents if p.exists()), Path("."))
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        return f"--out {out}: {folder} is not writable by this user; choose a folder you can write"
    return ""


def _stop(signum, frame):
    """Ctrl-C and SIGTERM: stop wherever the run is. The flag is checked by the batch loop too: an
    exception raised while the main thread runs a finalizer (a __del__, a weakref callback, a
    logging lock's release) is only printed by Python, and grading went on to the end."""
    from .grade import batch

    if batch.terminated is None:  # once: a second signal does not interrupt the stop
        batch.terminated = signum
        raise batch.Stopped(signum)


def _quiet_stops(unraisable) -> None:
    """A stop swallowed by a finalizer is not printed as "Exception ignored": the flag acts on it."""
    from .grade import batch

    if not isinstance(unraisable.exc_value, (batch.Stopped, KeyboardInterrupt)):
        sys.__unraisablehook__(unraisable)


def grade(course: Course, args) -> int:
    from .nbgrader_db import GradebookProblem
    from .grade.deadline import resolve, store_policy
    from .grade.roster import class_roster
    from .grade.roster import keep as keep_roster

    if args.jobs < 1:
        return fail(f"--jobs must be at least 1, got {args.jobs}")
    if not args.timeout > 0:
        return fail(f"--timeout must be a positive number of seconds, got {args.timeout}")
    if args.scheduler is not None and importlib.util.find_spec("distributed") is None:
        return fail("--scheduler needs Dask's distributed package: pip install -e '.[cluster]' in the course's checkout")
    problem = _unwritable(args.out)
    if problem:
        return fail(problem)
    # what needs no lecture is checked before the lecture is inferred from PATH
    if args.student is not None and not Course(args.path).submitted_dir.is_dir():
        return fail(str(student_needs_a_course_root(args.path)))
    gradebook = Course(args.path).gradebook if args.gradebook else None
    if gradebook is not None and not gradebook.is_file():
        return fail(f"--gradebook needs an nbgrader course root with gradebook.db; {gradebook} does not exist: "
                     "run make release (nbgrader generate_assignment) in the course root first, and to regrade one "
                     "student of it: grade ROOT --student NAME --gradebook")
    assignment = _assignment(course, args.assignment, args.path)
    due = None
    if gradebook is not None:
        from .nbgrader_db import check_assignment, due_date
        try:
            check_assignment(gradebook, assignment.name)
        except GradebookProblem as exc:
            return fail(str(exc))
        due = due_date(gradebook, assignment.name)
    deadline, penalty = resolve(args.out, assignment.name, args.due, args.late_penalty, args.extensions, due)
    roster = class_roster(args.out, args.roster, gradebook)

    def keep_settings() -> None:  # once results are in: a run refused for a bad argument changes nothing
        store_policy(args.out, assignment.name, deadline, penalty)
        keep_roster(args.out, args.roster)

    return _graded(args, assignment, gradebook, deadline, roster, keep_settings)


def _graded(args, assignment, gradebook, deadline, roster: list[str], keep_settings) -> int:
    """Grade into a staging folder, then commit what was graded in full (see grade.committed)."""
    from .export.report import write_reports
    from .export.summary import describe
    from .grade import committed
    from .nbgrader_db import GradebookProblem
    from .grade.grading import GradeRun, grade_course
    from .suiterun import SuiteBroken

    whole_class = args.student is None and Course(args.path).submitted_dir.is_dir()
    unsubmitted = (args.student is not None and args.student in roster
                   and not Course(args.path).submitted(args.student, assignment.name).is_dir())
    staging = committed.staging_folder(args.out)
    previous = {signum: signal.signal(signum, _stop) for signum in committed.STOP_SIGNALS}
    previous_hook, sys.unraisablehook = sys.unraisablehook, _quiet_stops
    batch.terminated = None

    def commit(students: set[str], whole: bool) -> list:
        results = committed.commit(args.out, staging, assignment, students, whole_class=whole, roster=roster,
                                   deadline=deadline, write_reports=write_reports)
        keep_settings()
        return results if whole else [r for r in results if r.student in students]

    def stopped(signum: int, why: str) -> int:
        if batch.terminated is None:  # a stop is not itself interrupted (the handler raises only once)
            batch.terminated = 0
        kept = committed.staged_students(staging, assignment, complete_only=True)
        results = commit(kept, False)
        if gradebook is not None and kept:
            _record(gradebook, args.out, assignment.name, results, deadline)
        print(f"\nautograder: {why}. {len(kept)} student(s) graded in full by this run replace their results in "
              f"{args.out} (grades.csv, <student>/); nothing of the others was kept (their reports, if any, are an "
              "earlier complete run's). Run the same command again to grade the rest.", file=sys.stderr)
        return 128 + signum if signum else 1

    try:
        if unsubmitted:  # on the roster, never submitted: zeros, no grading
            run = GradeRun(args.out, [], [], [])
        else:
            run = grade_course(assignment, args.path, staging, jobs=args.jobs, timeout=args.timeout,
                               scheduler=args.scheduler, student=args.student, deadline=deadline)
        if batch.terminated is not None:  # the signal landed where only the flag could say it
            raise batch.Stopped(batch.terminated)
        graded = committed.staged_students(staging, assignment, complete_only=False)
        results = commit(graded | ({args.student} if unsubmitted else set()), whole_class)
        if gradebook is not None:
            run.gradebook = _record(gradebook, args.out, assignment.name, [r for r in results if r.student in graded], deadline)
    except (batch.Stopped, KeyboardInterrupt) as exc:
        signum = exc.signum if isinstance(exc, batch.Stopped) else signal.SIGINT
        return stopped(signum, f"stopped by {signal.Signals(signum).name}")
    except ConnectionError as exc:  # the Dask scheduler went away mid-run
        return stopped(0, str(exc))
    except GradebookProblem as exc:
        return fail(str(exc))
    except SuiteBroken as exc:  # the instructor's files, not a student's: nothing is graded against them
        return fail(f"{exc}; fix it (make selfcheck runs every suite against the solutions), then grade again")
    except OSError as exc:  # the reports (not a student's result) could not be written
        print(f"autograder: could not write the reports in {args.out}: {exc}. Nothing of this run was kept; free the "
              "space and run the same command again.", file=sys.stderr)
        return 1
    finally:  # a caller in this process (a test, a notebook) gets its own handlers back
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        sys.unraisablehook = previous_hook
        batch.terminated = None
        shutil.rmtree(staging, ignore_errors=True)
    print(describe(results, args.out, unsaved=run.unsaved, ungraded=run.ungraded, gradebook=run.gradebook,
                   deadline=deadline.describe() if deadline is not None else ""))
    return 1 if run.unsaved or run.ungraded else 0


def _record(gradebook: Path, out: Path, assignment: str, results: list, deadline) -> str:
    from .export.gradebook import record_run
    from .store import escaped_names

    return record_run(gradebook, assignment, results, escaped_names(out), deadline)


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "insights":  # reads a grading folder: needs no course
        from .export.insights import main as insights

        return insights(args.grades, args.out, args.originality)
    if args.command == "export":
        from .export.lms_export import main as export

        return export(args.grades, args.format, args.out, args.assignment)
    try:
        course = Course.locate(args.course)
        if args.command == "grade":
            return grade(course, args)
        if args.command == "selfcheck":
            from .check.selfcheck import main as selfcheck

            names = [args.assignment] if args.assignment else course.assignments()
            return max(selfcheck(course.assignment(name), args.notebook) for name in names)
        if args.command == "tasks":
            from .check import manifest

            for name in [args.assignment] if args.assignment else course.assignments():
                assignment = course.assignment(name)
                changed = manifest.write(assignment)
                print(f"{assignment.source_dir / 'tasks.json'}: {'written' if changed else 'unchanged'}")
            return 0
        if args.command == "demo":
            from .demo import main as demo

            return demo(_assignment(course, args.assignment), args.out)
        if args.command == "gradescope":
            from . import gradescope

            if not args.submission.is_dir():
                return fail(f"{args.submission} is not a directory; expected Gradescope's submission folder")
            if args.results.suffix == ".json" or args.results.is_file():
                return fail(f"--results {args.results} names a file; expected the folder results.json goes into "
                             "(Gradescope's: /autograder/results)")
            return gradescope.run(_assignment(course, args.assignment), args.submission, args.results, visibility=args.visibility)
        if args.command == "originality":
            from .export import originality_report

            return originality_report.main(_assignment(course, args.assignment, args.path), args.path, args.out)
        if args.command == "nbgrader-feedback":
            from .export.nbgrader_feedback import FeedbackProblem, place_feedback, report

            name = _assignment(course, args.assignment).name
            try:
                return report(place_feedback(args.course_root, args.grades, name), name, args.course_root)
            except FeedbackProblem as exc:
                return fail(str(exc))
        if args.command == "gradescope-zip":
            from . import gradescope

            assignment = _assignment(course, args.assignment)
            out = args.out or Path("dist") / f"gradescope-autograder-{assignment.name}.zip"
            print(f"wrote {gradescope.build(assignment, out, args.visibility)}")
            return 0
    except (CourseNotFound, UnknownAssignment, UsageProblem) as exc:
        return fail(str(exc))
    return 2
