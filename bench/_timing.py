"""Side-by-side timing for the benchmarks: contenders run interleaved in one process, and
we report medians, so a noisy machine slows all of them alike."""
from __future__ import annotations

import os
import statistics
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
