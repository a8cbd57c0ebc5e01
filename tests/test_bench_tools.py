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
