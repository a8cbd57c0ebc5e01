"""Operating-system limits the worker applies to itself before running student code."""
from __future__ import annotations

import resource


def _limit(which: int, value: int) -> None:
    soft, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(which, (value, value))


def apply(policy: dict) -> None:
    mb = 1024 * 1024
    _limit(resource.RLIMIT_AS, int(policy.get("memory_mb", 2048)) * mb)
    _limit(resource.RLIMIT_FSIZE, int(policy.get("file_mb", 16)) * mb)
    _limit(resource.RLIMIT_CPU, int(policy.get("cpu_seconds", 600)))
    _limit(resource.RLIMIT_CORE, 0)
