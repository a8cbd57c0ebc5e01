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


class host_watch:
    """``with host_watch() as host: ...`` then ``print(host.summary())``: how much CPU the rest of
    the machine used while the benchmark ran (Linux's /proc/stat, less this process's own time),
    and the time the hypervisor gave to other guests (steal). A ratio on a busy host comes out
    higher than on a quiet one, as the interpreter's share of a step suffers more than BLAS's
    (bench_mlp, 2026-12-06, four runs one after another: 1.065x alone, 1.101x beside two busy
    processes). What other virtual machines do to the shared caches shows here only as steal, if
    at all: runs reported quiet that day still spread from 1.04x to 1.15x."""

    BUSY = 0.1  # CPUs on average: above this, a run is reported as not quiet

    def __enter__(self) -> "host_watch":
        self.start = self._read()
        return self

    def __exit__(self, *exc_info) -> None:
        self.end = self._read()

    @staticmethod
    def _read():
        own = os.times()
        try:
            with open("/proc/stat") as stat:
                fields = [int(x) for x in stat.readline().split()[1:]]
        except OSError:
            fields = None
        return time.perf_counter(), own.user + own.system, fields

    def summary(self) -> str:
        (t0, own0, cpu0), (t1, own1, cpu1) = self.start, self.end
        if cpu0 is None or cpu1 is None:
            return "host activity: not measured (no /proc/stat)"
        tick = os.sysconf("SC_CLK_TCK")
        delta = [b - a for a, b in zip(cpu0, cpu1)]
        busy = (delta[0] + delta[1] + delta[2] + delta[5] + delta[6]) / tick  # user nice system irq softirq
        steal = (delta[7] if len(delta) > 7 else 0) / tick
        wall = t1 - t0
        others, steal = max(busy - (own1 - own0), 0.0) / wall, steal / wall
        verdict = "quiet" if others <= self.BUSY and steal <= self.BUSY else "NOT quiet: the ratios above may differ on a quiet host"
        return f"host during the run: other processes {others:.2f} CPUs, steal {steal:.2f} CPUs ({verdict})"


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
