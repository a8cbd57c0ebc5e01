"""The trusted side of sandboxed workers: start them, load a notebook's code, ask probes.

A notebook is graded by one worker per task group: the tasks whose needle implementation
(``OWN_WORK``) is the same share a worker, which removed that implementation from itself before
loading the student's code. A session survives its workers: after a crash or a timeout the
worker is killed (with its whole process group) and the next request starts a fresh one; a
cell that hangs or kills the worker while loading is skipped on the next start, so one bad
cell costs only the tests that need it.

Budgets are in CPU seconds of the worker, read from /proc on this side: the same submission
gets the same verdict on an idle machine and on a loaded one. A wall-clock backstop, many times
the budget, stops code that sleeps. Memory is read from /proc too, against the worker's memory
before any student code (it waits for this side's go after saying ready): a floor the student
cannot move. Whatever fails after the worker names its first cell (a compile included) is that
cell's; only a failure before it is the grader's. Every verdict and message is made here; what
the worker reports is a claim about the student's own code, validated against a fixed schema.
"""
from __future__ import annotations

import os
import signal
import stat
import tempfile
from dataclasses import dataclass

from .. import plaindata
from ..sandbox import protocol
from ..sandbox.confine import NOBODY, SCRATCH_BYTES, SCRATCH_FILES
from .worker_clock import OverBudget, WorkerClock
from .zygote_client import WorkerBroken, ZygoteLauncher, remove_tree

LOAD_CELLS_LIMIT = 4  # the whole load may take this many times the per-cell load budget
ISOLATION_SCHEMA = {  # what a worker may report, and the type each value must have
    "rlimits": bool, "unprivileged": bool, "capabilities_dropped": bool, "landlock": int,
    "landlock_net": bool, "landlock_signals": bool, "seccomp": bool, "private_scratch": bool,
}


@dataclass
class Outcome:
    """What a probe request came to: ``kind`` is ok, missing, raised, unencodable, timeout,
    crashed, disk or delegated; ``cpu`` the worker's CPU seconds spent on it."""

    kind: str
    value: object = None
    cpu: float = 0.0


@dataclass
class SessionConfig:
    cells: list[str]
    probes_source: str
    load_timeout: float = 60.0
    course_cells: frozenset = frozenset()  # indices of the cells that are the course's own (setup cells)


def validated_isolation(report) -> dict:
    """Only known keys with values of the expected type; anything else is dropped."""
    if not isinstance(report, dict):
        return {}
    out = {}
    for key, kind in ISOLATION_SCHEMA.items():
        value = report.get(key)
        if type(value) is kind and (kind is not int or 0 <= value < 100):
            out[key] = value
    return out


class _Over(Exception):
    """The scratch directory grew past its limit."""


class Session:
    def __init__(self, config: SessionConfig, launcher: ZygoteLauncher):
        self.config = config
        self.launcher = launcher
        self.skip: set[int] = set()
        self.enforced: dict = {}
        self.pid: int | None = None
        self.excised: tuple[str, ...] = ()  # what the running worker removed of needle
        self.refused: dict[str, str] = {}  # name a cell could not define -> the removed needle name it reached for
        folder = tempfile.mkdtemp(prefix="grade-", dir=launcher.scratch_root)
        os.chmod(folder, 0o711)  # the worker's user passes through to its own work/ folder
        self.scratch = os.path.join(folder, "work")
        self.uid = NOBODY if os.geteuid() == 0 else None
        self.starts = 0
        self.resting_kib = 0  # the running worker's resident memory before any student code (kB)

    def _fresh_scratch(self) -> None:
        """An empty scratch directory for each worker: what a crashed one left is not kept."""
        remove_tree(self.scratch)
        os.mkdir(self.scratch, 0o700)
        if self.uid is not None:
            os.chown(self.scratch, self.uid, self.uid)

    # --- lifecycle -----------------------------------------------------------------
    def _watch(self, clock: WorkerClock):
        def on_wait():
            clock.check()
            if not self.enforced.get("private_scratch"):  # a tmpfs of its own caps itself
                used, files = scratch_usage(self.scratch)
                if used > SCRATCH_BYTES or files > SCRATCH_FILES:
                    raise _Over()
        return on_wait

    def _load(self, excised: tuple[str, ...]) -> bool:
        """Start a worker without ``excised`` and load the code; False if it died or hung (that
        cell is skipped next time)."""
        self._fresh_scratch()
        self.pid, self.to_worker, self.from_worker = self.launcher.start(self.scratch)
        self.starts += 1
        self.excised, self.refused = excised, {}
        current = None
        whole = WorkerClock(self.pid, LOAD_CELLS_LIMIT * self.config.load_timeout)
        clock = WorkerClock(self.pid, self.config.load_timeout)
        try:
            protocol.send(self.to_worker, {
                "cells": self.config.cells, "probes": self.config.probes_source, "excise": list(excised),
                "skip": sorted(self.skip), "scratch": self.scratch, "uid": self.uid,
            })
            ready = protocol.receive(self.from_worker, clock.deadline, self._watch(clock))
            if not (isinstance(ready, dict) and ready.get("event") == "ready"):
                raise plaindata.DecodeError("no ready event")
            self.enforced = validated_isolation(ready.get("enforced"))
            # the worker waits for the go: no student code has been compiled or run yet, so its
            # memory now is the grader's own floor, a moment the student cannot choose
            self.resting_kib = _reset_peak_memory(self.pid)
            protocol.send(self.to_worker, {"go": True})
            while True:
                event = protocol.receive(self.from_worker, min(clock.deadline, whole.deadline), self._watch(clock))
                whole.check()
                if not isinstance(event, dict):
                    raise plaindata.DecodeError("bad event")
                if event.get("event") == "cell" and type(event.get("index")) is int:
                    current = event["index"]
                    clock = WorkerClock(self.pid, self.config.load_timeout)  # each cell its budget, the load a few
                elif event.get("event") == "refused" and isinstance(event.get("name"), str) and isinstance(event.get("defines"), list):
                    for name in event["defines"]:
                        if isinstance(name, str):
                            self.refused.setdefault(name, event["name"])
                elif event.get("event") == "loaded":
                    return True
                else:
                    raise plaindata.DecodeError("unexpected event")
        except (protocol.ChannelClosed, protocol.ChannelTimeout, plaindata.DecodeError, OSError, _Over, OverBudget):
            self.kill()
            if current is None:  # no student code had run yet: the grader's fault, not the student's
                raise WorkerBroken("the grading worker failed before running any of your code") from None
            self.skip.add(current)
            return False

    def ensure_started(self, excised: tuple[str, ...] = ()) -> None:
        if self.pid is not None and self.excised == excised:
            return
        self.kill()  # another task group: its worker goes, one without this task's needle comes
        while not self._load(excised):
            if len(self.skip) > len(self.config.cells):  # cannot happen: each retry skips one more cell
                raise WorkerBroken("your notebook's code could not be loaded")

    def kill(self) -> None:
        if self.pid is None:
            return
        for kill in (os.killpg, os.kill):  # the group, and the process if it had no time to setsid
            try:
                kill(self.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            self.launcher.reap(self.pid)  # the pid is not reused before this: no stray kills
        except WorkerBroken:
            pass
        for fd in (self.to_worker, self.from_worker):
            try:
                os.close(fd)
            except OSError:
                pass
        self.pid = None

    def close(self) -> None:
        self.kill()
        self.launcher.close()  # the zygote kills anything this session still had running
        remove_tree(os.path.dirname(self.scratch))

    # --- requests ----------------------------------------------------------------------
    def call(self, probe: str, params: dict, cpu_budget: float, own_work: list[str] | None = None,
             memory: list | None = None) -> Outcome:
        """Run ``probe`` in the worker of this task group (``own_work``: needle's implementation
        of the task, removed from that worker). ``cpu_budget``: CPU seconds it may spend.
        ``memory``: a list to which the worker's peak resident memory during the call is appended,
        in bytes above its memory before any student code ran (``resting_kib``): read from /proc
        by this side, against a floor the worker never chose. Memory the student's code holds
        between calls (a ballast freed when a call starts and taken again after it) is above
        that floor too, so it cannot hide what a call uses."""
        self.ensure_started(tuple(sorted(set(own_work or ()))))
        clock = WorkerClock(self.pid, max(cpu_budget, 0.01))
        try:
            if memory is not None:
                _reset_peak_memory(self.pid)
            protocol.send(self.to_worker, {"probe": probe, "params": plaindata.to_plain(params)})
            reply = protocol.receive(self.from_worker, clock.deadline, self._watch(clock))
            if memory is not None:
                memory.append(max(0, _memory_kib(self.pid, "VmHWM") - self.resting_kib) * 1024)
        except (protocol.ChannelTimeout, OverBudget):
            used = clock.used()
            self.kill()
            return Outcome("timeout", cpu=used)
        except _Over:
            self.kill()
            return Outcome("disk")
        except (protocol.ChannelClosed, OSError, plaindata.DecodeError):
            self.kill()
            return Outcome("crashed")
        outcome = _interpret(reply)
        outcome.cpu = clock.used()
        if outcome.kind == "missing" and outcome.value in self.refused:  # its definition reached for needle's
            return Outcome("delegated", self.refused[outcome.value], cpu=outcome.cpu)
        return outcome


def _memory_kib(pid: int, field: str) -> int:
    """A memory figure of a process (kB), read from outside it."""
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith(field.encode() + b":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _reset_peak_memory(pid: int) -> int:
    """Reset the process's peak resident memory to its current one (``clear_refs`` 5); returns
    the current resident memory in kB."""
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as refs:
            refs.write("5")
    except OSError:
        pass
    return _memory_kib(pid, "VmRSS")


def _interpret(reply) -> Outcome:
    if not isinstance(reply, dict) or not reply:
        return Outcome("crashed")
    kind = next(iter(reply))
    value = reply[kind]
    try:
        if kind == "ok" and len(reply) == 1:
            return Outcome("ok", plaindata.from_plain(value))
        if kind in ("missing", "delegated") and isinstance(value, str) and len(reply) == 1:
            return Outcome(kind, value[:200])
        if kind == "raised" and isinstance(value, str):
            info = reply.get("info")
            return Outcome("raised", (value[:80], info if isinstance(info, dict) else {}))
        if kind == "unencodable":
            return Outcome("unencodable")
    except plaindata.DecodeError:
        pass
    return Outcome("crashed")


def scratch_usage(folder: str) -> tuple[int, int]:
    """(bytes, entries) under ``folder`` (a sub-folder the worker made unreadable is opened up)."""
    total, count, stack = 0, 0, [folder]
    while stack:
        path = stack.pop()
        try:
            entries = list(os.scandir(path))
        except OSError:
            try:
                os.chmod(path, 0o700)
                entries = list(os.scandir(path))
            except OSError:
                continue
        count += len(entries)
        for entry in entries:
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(info.st_mode):
                stack.append(entry.path)
            else:
                total += info.st_blocks * 512 if hasattr(info, "st_blocks") else info.st_size
    return total, count
