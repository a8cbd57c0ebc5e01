"""Where a notebook's grading time goes: each phase of grading one notebook, in ms.

    .venv/bin/python bench/bench_grader_phases.py [--repeat 3] [--mistakes] [NOTEBOOK ...]

Grades each notebook of lecture8, solved (or with --mistakes, with the demo's mistake in it), each
time in a child forked from this process as the grader does, with the real sandbox (a zygote, a
worker per task group), and splits the wall time into: pytest (start, collection, fixtures, the
suite's own asserts and hypothesis), worker start (fork from the zygote, excision, confinement:
Landlock, seccomp, tmpfs), loading the notebook's cells, probe round trips (the student's code and
the probe in the worker, plain-data encoding, the pipe), and the rest (reading the notebook, review
flags). The median of --repeat runs is printed per notebook and in total.
"""
import argparse
import gc
import os
import pickle
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder import demo, notebook as nbmod  # noqa: E402
from autograder.course import Course  # noqa: E402
from autograder.grade import runner, session, zygote_client  # noqa: E402
from autograder.suiterun import collect_tests  # noqa: E402

LECTURE8 = Course.locate(ROOT).assignment("lecture8")


def timed(counter: dict, key: str, fn):
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            counter[key] += time.perf_counter() - start
    return wrapper


def with_demo_mistakes(notebooks: list, folder: Path) -> dict:
    """{notebook: a copy of its solved source with the demo's mistake (make demo's "mistakes" student) in it}."""
    import nbformat

    mistakes = [m for m in demo.DEMO_MISTAKES if (LECTURE8.mistakes_dir / m).is_file()]
    cells = demo.with_mistakes(LECTURE8, demo.solutions_by_grade_id(LECTURE8), mistakes)
    paths = {}
    for notebook in notebooks:
        nb = nbformat.read(LECTURE8.source_notebook(notebook), as_version=4)
        for cell in nb.cells:
            if nbmod.is_solution(cell):
                cell.source = cells[nbmod.grade_id(cell)]
        paths[notebook] = folder / f"{notebook}.ipynb"
        nbformat.write(nb, paths[notebook])
    return paths


def one(notebook: str, zygote, submission: Path | None = None) -> dict:
    spent: dict = defaultdict(float)
    originals = (session.Session._load, session.Session.call, runner.run_suite)
    session.Session._load = timed(spent, "load", originals[0])
    session.Session.call = timed(spent, "calls", originals[1])
    runner.run_suite = timed(spent, "suite", originals[2])
    starts = []
    launch = zygote_client.ZygoteLauncher.start
    zygote_client.ZygoteLauncher.start = timed(spent, "fork", launch)
    try:
        start = time.perf_counter()
        result = runner.grade_notebook("bench", submission or LECTURE8.source_notebook(notebook), LECTURE8, notebook, 10.0, zygote.path)
        total = time.perf_counter() - start
    finally:
        session.Session._load, session.Session.call, runner.run_suite = originals
        zygote_client.ZygoteLauncher.start = launch
    assert (result.score < result.max_score) if submission else (result.score == result.max_score), (notebook, result.score)
    starts.append(spent["fork"])
    calls_inside = spent["calls"] - spent["load"]  # a call starts its worker when it needs one
    return {
        "total": total,
        "pytest and judging": spent["suite"] - spent["calls"],
        "worker start (fork, excise, confine) + cells": spent["load"],
        "probe round trips": calls_inside,
        "read notebook, review, reports": total - spent["suite"],
    }


def in_a_fork(notebook: str, zygote, submission: Path | None) -> dict:
    """one() in a child forked from this process, as the grader grades each notebook (its caches,
    a suite's graphs built for one notebook, die with it: a second run here would find them)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            gc.freeze()  # as the grader's children
            with os.fdopen(write, "wb") as out:
                pickle.dump(one(notebook, zygote, submission), out)
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as inp:
        data = inp.read()
    os.waitpid(pid, 0)
    if not data:
        sys.exit(f"grading {notebook} failed in the forked child")
    return pickle.loads(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--mistakes", action="store_true", help="grade the demo's mistakes (one per notebook), not the solutions")
    parser.add_argument("notebooks", nargs="*")
    args = parser.parse_args()
    notebooks = args.notebooks or LECTURE8.notebooks()
    for nb in notebooks:
        collect_tests(LECTURE8.suite(nb))  # as the batch does before forking its children
    folder = tempfile.TemporaryDirectory(prefix="bench-phases-")
    submissions = with_demo_mistakes(notebooks, Path(folder.name)) if args.mistakes else {}
    zygote = zygote_client.ZygoteProcess()
    try:
        rows = {nb: [in_a_fork(nb, zygote, submissions.get(nb)) for _ in range(args.repeat)] for nb in notebooks}
    finally:
        zygote.close()
        folder.cleanup()
    keys = list(next(iter(rows.values()))[0])
    for n, k in enumerate(keys, 1):  # the columns' names in full, then numbered headers that fit
        print(f"({n}) {k}")
    print(f"{'notebook':24}" + "".join(f"{f'({n})':>24}" for n in range(1, len(keys) + 1)))
    sums = defaultdict(float)
    for nb, runs in rows.items():
        medians = {k: statistics.median(r[k] for r in runs) for k in keys}
        for k, v in medians.items():
            sums[k] += v
        print(f"{nb:24}" + "".join(f"{1000 * medians[k]:22.0f}ms" for k in keys))
    print(f"{'mean per notebook':24}" + "".join(f"{1000 * sums[k] / len(rows):22.0f}ms" for k in keys))


if __name__ == "__main__":
    main()
