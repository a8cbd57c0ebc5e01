"""A worker's CPU clock, read from outside it (/proc/<pid>/stat): the budgets of the trusted side
are in CPU seconds of the worker, so the same submission gets the same verdict on an idle machine
and on a loaded one; a wall-clock backstop many times the budget stops code that sleeps.
"""
from __future__ import annotations

import os
import time

WALL_FACTOR, WALL_EXTRA = 10.0, 60.0  # backstop: wall seconds = 10 x the CPU budget + 60
ASLEEP_LIMIT = 3.0  # seconds a worker may sleep while it owes an answer (honest code never sleeps)
IDLE_STATES = (b"S", b"T", b"t")  # /proc states of a worker making no progress of its own: asleep, stopped
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_and_state(pid: int) -> tuple[float, bytes]:
    """User + system CPU time of a process and its state (R running or waiting for a CPU, S
    sleeping, ...), read from outside it; (0.0, b"") once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat_file:
            fields = stat_file.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS, fields[0]  # utime, stime: fields 14, 15; state: 3
    except (OSError, IndexError, ValueError):
        return 0.0, b""


def cpu_seconds(pid: int) -> float:
    return cpu_and_state(pid)[0]


class OverBudget(Exception):
    """The worker spent its CPU budget."""


class WorkerClock:
    """A CPU budget for one worker, checked while waiting for it. A worker that owes an answer
    and sleeps or is stopped (its state S, or T/t after a SIGSTOP it sent itself, its CPU time
    still) for ASLEEP_LIMIT seconds is stopped too: load on the machine keeps a busy worker
    runnable (R), never asleep. A wall-clock backstop many times the budget covers the rest."""

    def __init__(self, pid: int, cpu_budget: float):
        self.pid, self.budget = pid, cpu_budget
        self.start, _ = cpu_and_state(pid)
        self.deadline = time.monotonic() + WALL_FACTOR * cpu_budget + WALL_EXTRA
        self.last_cpu, self.asleep_since = self.start, None

    def used(self) -> float:
        return max(0.0, cpu_seconds(self.pid) - self.start)

    def check(self) -> None:
        cpu, state = cpu_and_state(self.pid)
        if cpu - self.start > self.budget:
            raise OverBudget()
        now = time.monotonic()
        if state in IDLE_STATES and cpu == self.last_cpu:
            self.asleep_since = self.asleep_since or now
            if now - self.asleep_since > ASLEEP_LIMIT:
                raise OverBudget()
        else:
            self.asleep_since = None
        self.last_cpu = cpu
