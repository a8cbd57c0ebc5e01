"""Notebooks per second: `python -m autograder grade --jobs 2` on this machine against
`grade --scheduler` on a Dask cluster of two single-threaded worker processes on the same
cores, measured in one run (interleaved, medians).

    .venv/bin/python bench/bench_cluster.py [--students 8] [--repeats 5]

Each run is the whole command, as an instructor types it (the cluster's includes importing
distributed and connecting). The cluster is started once and stays up between runs, as a
real one does; its scheduler runs in this process. Needs the cluster extra.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

try:
    import dask
    import distributed
except ImportError:
    sys.exit("bench_cluster: needs Dask's distributed package: .venv/bin/pip install -e '.[cluster]'")

from _timing import interleaved_medians  # noqa: E402
from autograder import demo  # noqa: E402
from autograder.course import Course  # noqa: E402

LECTURE8 = Course.locate(ROOT).assignment("lecture8")


def grading(root: Path, out: Path, *how: str):
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")

    def run():
        proc = subprocess.run([sys.executable, "-m", "autograder", "grade", str(root), "--out", str(out), *how],
                              cwd=ROOT, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"grade {' '.join(how)} failed:\n{proc.stderr[-2000:]}")
    return run


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-cluster-"))
    try:
        root = work / "course-root"
        demo.make_class(LECTURE8, root, args.students)
        n_notebooks = args.students * len(LECTURE8.notebooks())

        # one notebook per worker at a time, as docs/scale.md recommends for a grading cluster
        with dask.config.set({"distributed.scheduler.worker-saturation": 1.0}), distributed.LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address="127.0.0.1:0", worker_dashboard_address="127.0.0.1:0") as cluster:
            medians = interleaved_medians({
                "local --jobs 2": grading(root, work / "local", "--jobs", "2"),
                "dask, 2 workers x 1 thread": grading(root, work / "cluster", "--scheduler", cluster.scheduler_address),
            }, repeats=args.repeats, inner=1)
        same = (work / "local" / "grades.csv").read_bytes() == (work / "cluster" / "grades.csv").read_bytes()

        print(f"{n_notebooks} notebooks ({args.students} students x {len(LECTURE8.notebooks())}), "
              f"median of {args.repeats} runs each, interleaved; grades.csv identical: {same}")
        local = medians["local --jobs 2"]
        for name, seconds in medians.items():
            print(f"  {name:<28} {n_notebooks / seconds:6.2f} notebooks/s   {seconds / local:5.2f}x local's time")
        print("  (goal: the cluster within 1.10x local's time)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
