"""``python -m autograder``: grade submissions, check suites, run the demo."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import batch, report
from .runner import SUITES

ROOT = Path(__file__).resolve().parents[1]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m autograder", description="needle-course's autograder")
    sub = p.add_subparsers(dest="command", required=True)
    g = sub.add_parser("grade", help="grade submissions with the hidden suites")
    g.add_argument("path", type=Path, help="an nbgrader course root, a student's folder of notebooks, or one notebook")
    g.add_argument("--out", type=Path, required=True, help="folder for grades.csv and per-student reports")
    g.add_argument("--assignment", default="lecture8", help="assignment name (default: lecture8)")
    g.add_argument("--jobs", type=int, default=batch.default_jobs(), help="notebooks graded in parallel (default: number of cores)")
    g.add_argument("--timeout", type=float, default=10.0, help="seconds allowed per test (default: 10)")
    g.add_argument("--source", type=Path, default=ROOT / "solutions", help="instructor notebooks (default: solutions/)")
    g.add_argument("--gradebook", action="store_true", help="also write the scores into PATH/gradebook.db (nbgrader)")
    c = sub.add_parser("selfcheck", help="check the suites against the solutions, the stubs and the mistake fixtures")
    c.add_argument("assignment", nargs="?", default="lecture8")
    c.add_argument("--notebook", default=None)
    d = sub.add_parser("demo", help="release, make three example submissions, grade them")
    d.add_argument("--out", type=Path, default=ROOT / "demo-out")
    s = sub.add_parser("gradescope", help="grade a Gradescope submission (inside Gradescope's container)")
    s.add_argument("--submission", type=Path, default=Path("/autograder/submission"))
    s.add_argument("--results", type=Path, default=Path("/autograder/results"))
    s.add_argument("--assignment", default="lecture8")
    z = sub.add_parser("gradescope-zip", help="build the Gradescope autograder zip")
    z.add_argument("--out", type=Path, default=ROOT / "dist" / "gradescope-autograder.zip")
    return p


def _fail(message: str) -> int:
    print(f"autograder: error: {message}", file=sys.stderr)
    return 2


def grade(args) -> int:
    if args.jobs < 1:
        return _fail(f"--jobs must be at least 1, got {args.jobs}")
    if not args.timeout > 0:
        return _fail(f"--timeout must be a positive number of seconds, got {args.timeout}")
    source = args.source / args.assignment
    if not (SUITES / args.assignment).is_dir() or not source.is_dir():
        known = sorted(p.name for p in SUITES.iterdir() if p.is_dir() and not p.name.startswith("_"))
        return _fail(f"unknown assignment {args.assignment!r}: expected one of {known} (with notebooks in {args.source})")
    known_notebooks = sorted(p.stem for p in source.glob("*.ipynb"))
    try:
        jobs = batch.discover(args.path, args.assignment, known_notebooks)
    except batch.UsageProblem as exc:
        return _fail(str(exc))
    if args.gradebook and not (args.path / "gradebook.db").is_file():
        return _fail(f"--gradebook needs an nbgrader course root with gradebook.db; {args.path / 'gradebook.db'} does not exist")
    args.out.mkdir(parents=True, exist_ok=True)
    progress = batch.Progress(len(jobs))

    def done(result):
        report.save_result(args.out, result)
        progress.update(result)

    batch.run_jobs(jobs, source, args.assignment, args.timeout, args.jobs, done)
    progress.close()
    results = report.write_reports(args.out)
    graded = {(j.student, j.notebook) for j in jobs}
    print(report.summary_table([r for r in results if (r.student, r.notebook) in graded]))
    print(report.isolation_summary([r for r in results if (r.student, r.notebook) in graded]))
    if args.gradebook:
        from .gradebook import write_gradebook

        n = write_gradebook(args.path / "gradebook.db", args.assignment, [r for r in results if (r.student, r.notebook) in graded])
        print(f"gradebook: {n} grade cells written to {args.path / 'gradebook.db'}")
    print(f"reports: {args.out / 'grades.csv'}, {args.out}/<student>/results.json and feedback.html")
    return 0


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "grade":
        return grade(args)
    if args.command == "selfcheck":
        from .selfcheck import main as selfcheck

        return selfcheck(args.assignment, args.notebook)
    if args.command == "demo":
        from .demo import main as demo

        return demo(args.out)
    if args.command == "gradescope":
        from . import gradescope

        if not args.submission.is_dir():
            return _fail(f"{args.submission} is not a directory; expected Gradescope's submission folder")
        return gradescope.run(args.submission, args.results, args.assignment)
    if args.command == "gradescope-zip":
        from . import gradescope

        print(f"wrote {gradescope.build(args.out)}")
        return 0
    return 2
