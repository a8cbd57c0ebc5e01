"""Where a notebook's grading time goes: each phase of grading one solved notebook, in ms.

    .venv/bin/python bench/bench_grader_phases.py [--repeat 3] [NOTEBOOK ...]

Grades each notebook of lecture8 in this process with the real sandbox (a zygote, a worker per
task group) and splits the wall time into: pytest (start, collection, fixtures, the suite's
own asserts and hypothesis), worker start (fork from the zygote, excision, confinement: Landlock,
seccomp, tmpfs), loading the notebook's cells, probe round trips (the student's code and the
probe in the worker, plain-data encoding, the pipe), and the rest (reading the notebook, review
flags). The median of --repeat runs is printed per notebook and in total.
"""
import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.course import Course  # noqa: E402
from autograder.grade import runner, session  # noqa: E402
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


def one(notebook: str, zygote) -> dict:
    spent: dict = defaultdict(float)
    originals = (session.Session._load, session.Session.call, runner.run_suite)
    session.Session._load = timed(spent, "load", originals[0])
    session.Session.call = timed(spent, "calls", originals[1])
    runner.run_suite = timed(spent, "suite", originals[2])
    starts = []
    launch = session.ZygoteLauncher.start
    session.ZygoteLauncher.start = timed(spent, "fork", launch)
    try:
        start = time.perf_counter()
        result = runner.grade_notebook("bench", LECTURE8.source_notebook(notebook), LECTURE8, notebook, 10.0, zygote.path)
        total = time.perf_counter() - start
    finally:
        session.Session._load, session.Session.call, runner.run_suite = originals
        session.ZygoteLauncher.start = launch
    assert result.score == result.max_score, (notebook, result.score, result.max_score)
    starts.append(spent["fork"])
    calls_inside = spent["calls"] - spent["load"]  # a call starts its worker when it needs one
    return {
        "total": total,
        "pytest and judging": spent["suite"] - spent["calls"],
        "worker start (fork, excise, confine) + cells": spent["load"],
        "probe round trips": calls_inside,
        "read notebook, review, reports": total - spent["suite"],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("notebooks", nargs="*")
    args = parser.parse_args()
    notebooks = args.notebooks or LECTURE8.notebooks()
    for nb in notebooks:
        collect_tests(LECTURE8.suite(nb))  # as the batch does before forking its children
    zygote = session.Zygote()
    try:
        rows = {nb: [one(nb, zygote) for _ in range(args.repeat)] for nb in notebooks}
    finally:
        zygote.close()
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
