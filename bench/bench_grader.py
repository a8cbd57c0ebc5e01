"""Seconds per notebook: `python -m autograder grade` (sandboxed, isolation on) against
`nbgrader autograde`, on the same reference submissions, measured in one run.

    .venv/bin/python bench/bench_grader.py [--students 4] [--repeats 3]

Both tools grade every notebook of lecture8 for each student (solved and with mistakes,
alternating). nbgrader executes each notebook in a kernel (demos, plots, visible and hidden
tests); the grader runs only the graded code in its sandbox.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder import demo  # noqa: E402
from autograder.course import Course  # noqa: E402
from autograder.cpus import default_jobs  # noqa: E402

LECTURE8 = Course.locate(ROOT).assignment("lecture8")
KERNEL = "needle-course"  # the kernel the notebooks name, which nbgrader starts for each one


def require_kernel():
    """Stop before timing anything if nbgrader could not start the notebooks' kernel."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        KernelSpecManager().get_kernel_spec(KERNEL)
    except NoSuchKernel:
        sys.exit(f"bench_grader: no Jupyter kernel named {KERNEL!r}, which nbgrader needs to run the "
                 f"notebooks: run `make setup` first (it registers the kernel), or `make bench`")


def timed(cmd, cwd):
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(map(str, cmd))} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return elapsed, proc.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3, help="runs of the grader for each --jobs (the median is kept)")
    args = parser.parse_args()
    require_kernel()
    work = Path(tempfile.mkdtemp(prefix="bench-grader-"))
    try:
        root = work / "course-root"
        demo.make_class(LECTURE8, root, args.students)
        n_notebooks = args.students * len(LECTURE8.notebooks())

        t_nbgrader, _ = timed([sys.executable, "-m", "nbgrader", "autograde", LECTURE8.name, "--force", "--log-level=WARN"], root)
        # The grader's runs are short (seconds, against nbgrader's minutes), so a moment of the host's
        # noise moves one of them by a third: each is run --repeats times, interleaved, and the median kept.
        jobs = default_jobs()
        times: dict = {1: [], jobs: []}
        for _ in range(args.repeats):
            for n in times:
                t, out = timed([sys.executable, "-m", "autograder", "grade", str(root), "--out", str(work / f"g{n}"), "--jobs", str(n)], ROOT)
                times[n].append(t)
        isolation = next((line for line in out.splitlines() if line.startswith("isolation:")), "isolation: ?")

        print(f"{n_notebooks} notebooks ({args.students} students x {n_notebooks // args.students}), {isolation}")
        print(f"  nbgrader autograde            {t_nbgrader / n_notebooks:6.2f} s/notebook")
        for n, ts in times.items():
            t = statistics.median(ts)
            runs = ", ".join(f"{x / n_notebooks:.2f}" for x in ts)
            target = "  (target >= 20x)" if n == jobs else ""
            print(f"  autograder grade --jobs {n:<2}    {t / n_notebooks:6.2f} s/notebook   {t_nbgrader / t:5.1f}x faster"
                  f"{target}   (median of {runs})")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
