"""How many CPUs this process may use: its CPU affinity and its cgroup's CPU quota, the smaller.

A container (deploy/jupyterhub's instructor server: 2 CPUs) sees every core of its host in
``os.cpu_count()`` and usually in its affinity too; only the cgroup's quota says that the
kernel will give it two CPUs' worth of time. Starting one grading worker per host core there
fills the server's memory with workers that wait for their turn.
"""
from __future__ import annotations

import os
from pathlib import Path

CGROUP = Path("/sys/fs/cgroup")


def quota_from_cpu_max(text: str) -> float | None:
    """cgroup v2's ``cpu.max`` ("200000 100000": 2 CPUs; "max 100000": no quota) in CPUs, or None."""
    fields = text.split()
    if len(fields) != 2 or fields[0] == "max":
        return None
    try:
        quota, period = int(fields[0]), int(fields[1])
    except ValueError:
        return None
    return quota / period if quota > 0 and period > 0 else None


def quota_from_cfs(quota_text: str, period_text: str) -> float | None:
    """cgroup v1's ``cpu.cfs_quota_us`` (-1: no quota) over ``cpu.cfs_period_us``, in CPUs, or None."""
    try:
        quota, period = int(quota_text.strip()), int(period_text.strip())
    except ValueError:
        return None
    return quota / period if quota > 0 and period > 0 else None


def usable_cpus(affinity: int, quota: float | None) -> int:
    """The workers to start: the CPUs the affinity allows, fewer when the quota is smaller (a
    quota of 1.5 CPUs gives 1), at least 1."""
    limit = affinity if quota is None else min(affinity, int(quota))
    return max(1, limit)


def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except OSError:
        return None


def cgroup_quota(root: Path = CGROUP, self_cgroup: str | None = None) -> float | None:
    """This process's CPU quota in CPUs (cgroup v2, else v1), None when it has none or none can be read."""
    if self_cgroup is None:
        self_cgroup = _read(Path("/proc/self/cgroup")) or ""
    v2 = next((line.split(":", 2)[2] for line in self_cgroup.splitlines() if line.startswith("0::")), "/")
    quotas = []
    for folder in {root / v2.strip().lstrip("/"), root}:  # its own cgroup, and the namespace's root
        text = _read(folder / "cpu.max")
        if text is not None and quota_from_cpu_max(text) is not None:
            quotas.append(quota_from_cpu_max(text))
    for v1 in ("cpu", "cpu,cpuacct"):
        quota, period = _read(root / v1 / "cpu.cfs_quota_us"), _read(root / v1 / "cpu.cfs_period_us")
        if quota is not None and period is not None and quota_from_cfs(quota, period) is not None:
            quotas.append(quota_from_cfs(quota, period))
    return min(quotas) if quotas else None


def default_jobs() -> int:
    try:
        affinity = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        affinity = os.cpu_count() or 1
    return usable_cpus(affinity, cgroup_quota())
