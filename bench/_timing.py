"""Side-by-side timing for the benchmarks: contenders run interleaved in one process, and
we report medians, so a noisy machine slows all of them alike."""
from __future__ import annotations

import atexit
import importlib
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Callable

# One BLAS thread for everyone (numpy, torch): ratios compare the libraries, not thread pools.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")


def interleaved_medians(contenders: dict[str, Callable[[], None]], repeats: int, inner: int) -> dict[str, float]:
    """Median seconds per call of each contender; every repeat times each contender once
    (``inner`` calls), in rotating order."""
    names = list(contenders)
    samples: dict[str, list[float]] = {n: [] for n in names}
    for fn in contenders.values():  # warm up caches and allocators
        for _ in range(max(1, inner // 4)):
            fn()
    for r in range(repeats):
        for n in names[r % len(names):] + names[: r % len(names)]:
            fn = contenders[n]
            start = time.perf_counter()
            for _ in range(inner):
                fn()
            samples[n].append((time.perf_counter() - start) / inner)
    return {n: statistics.median(s) for n, s in samples.items()}


def try_import_torch():
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)
    return torch


def report(title: str, medians: dict[str, float], baseline: str, unit: str = "ms") -> None:
    scale = {"ms": 1e3, "us": 1e6}[unit]
    print(title)
    width = max(len(n) for n in medians)
    for name, t in medians.items():
        ratio = t / medians[baseline]
        print(f"  {name:<{width}}  {t * scale:9.3f} {unit}/step   {ratio:5.2f}x {baseline}")


def needle_at(rev: str):
    """needle as of git revision ``rev``, imported beside the working tree's as its own package
    (needle's imports are relative), so a change is timed against its parent in one run."""
    root = pathlib.Path(__file__).resolve().parents[1]
    commit = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=root,
                            capture_output=True, text=True)
    if commit.returncode != 0:
        raise SystemExit(f"--against: {rev!r} is not a commit of this repository ({commit.stderr.strip()})")
    sha = commit.stdout.strip()
    name = f"needle_{sha[:10]}"
    folder = pathlib.Path(tempfile.mkdtemp(prefix="needle-at-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    archive = subprocess.run(["git", "archive", sha, "needle"], cwd=root, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    (folder / "needle").rename(folder / name)
    sys.path.insert(0, str(folder))
    return importlib.import_module(name), sha[:10]
