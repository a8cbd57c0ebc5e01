"""The benchmarks' own tools (bench/_timing.py), run in a subprocess: importing them sets the
BLAS thread variables, which the test process must not inherit."""
import subprocess
import sys

import pytest

from conftest import ROOT

needs_git = pytest.mark.skipif(
    subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True).returncode != 0,
    reason="needs the project's git history (a clone, not an exported tree)",
)

NEEDLE_AT_HEAD = """
import numpy as np
from _timing import needle_at
old, sha = needle_at("HEAD")
assert old.__name__ == "needle_" + sha and old.__file__.startswith(old.__path__[0]), old.__file__
import needle
assert old.Tensor is not needle.Tensor  # a package of its own, beside the working tree's
x = old.Tensor([1.0, 2.0])
(x * x).sum().backward()
assert np.array_equal(x.grad.numpy(), [2.0, 4.0])
print(sha)
"""


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT / "bench", capture_output=True, text=True, timeout=120)


@needs_git
def test_needle_at_imports_a_revisions_needle_beside_the_working_trees():
    done = _run(NEEDLE_AT_HEAD)
    assert done.returncode == 0, done.stderr
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert head.startswith(done.stdout.strip())


@needs_git
def test_needle_at_names_a_revision_it_cannot_find():
    done = _run("from _timing import needle_at; needle_at('no-such-revision')")
    assert done.returncode == 1
    assert "--against: 'no-such-revision' is not a commit of this repository" in done.stderr


def test_bench_instructions_runs_each_contender_it_counts():
    # What valgrind runs, without valgrind: each contender's steps, the replay included.
    for name in ("numpy by hand", "needle's computes replayed", "needle"):
        done = subprocess.run([sys.executable, "bench_instructions.py", "--run", name, "--steps", "2"],
                              cwd=ROOT / "bench", capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr


HOST_WATCH_ARITHMETIC = """
import os
from _timing import host_watch
tick = os.sysconf("SC_CLK_TCK")
watch = host_watch()
# 10 s of wall time; the machine's user time grew by 12 s, 9 s of them this process's own; 1 s of steal
fields = [0] * 10
later = list(fields); later[0] = 12 * tick; later[7] = 1 * tick
watch.start, watch.end = (0.0, 0.0, fields), (10.0, 9.0, later)
print(watch.summary())
watch.end = (10.0, 9.0, None)  # no /proc/stat (not Linux)
print(watch.summary())
watch.end = (10.0, 12.0, [0] * 10)
print(watch.summary())
"""


def test_host_watch_counts_what_others_used_not_the_benchmarks_own_time():
    done = _run(HOST_WATCH_ARITHMETIC)
    assert done.returncode == 0, done.stderr
    busy, unmeasured, quiet = done.stdout.splitlines()
    # (12 s busy - 9 s own) / 10 s = 0.30 CPUs; steal 1 s / 10 s = 0.10
    assert busy == "host during the run: other processes 0.30 CPUs, steal 0.10 CPUs (NOT quiet: the ratios above may differ on a quiet host)"
    assert unmeasured == "host activity: not measured (no /proc/stat)"
    # the benchmark's own time is never counted as the others' (nor below zero)
    assert quiet == "host during the run: other processes 0.00 CPUs, steal 0.00 CPUs (quiet)"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc/stat")
def test_host_watch_sees_a_process_spinning_beside_it():
    done = _run(
        "import subprocess, sys, time\n"
        "from _timing import host_watch\n"
        "spin = subprocess.Popen([sys.executable, '-c', 'import time\\nt = time.time()\\nwhile time.time() - t < 1.5: pass'])\n"
        "time.sleep(0.2)\n"
        "with host_watch() as host:\n"
        "    time.sleep(1)\n"
        "spin.wait()\n"
        "print(host.summary())\n"
    )
    assert done.returncode == 0, done.stderr
    assert "NOT quiet" in done.stdout, done.stdout
