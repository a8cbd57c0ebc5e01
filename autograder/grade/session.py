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
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from .. import plaindata
from ..sandbox import protocol
from ..sandbox.confine import NOBODY

SCRATCH_LIMIT = 64 * 1024 * 1024  # bytes of files a notebook may leave in its scratch directory
SCRATCH_FILES = 4096  # and files (when the worker has no private tmpfs, this side counts them)
LOAD_CELLS_LIMIT = 4  # the whole load may take this many times the per-cell load budget
WALL_FACTOR, WALL_EXTRA = 10.0, 60.0  # backstop: wall seconds = 10 x the CPU budget + 60
ASLEEP_LIMIT = 3.0  # seconds a worker may sleep while it owes an answer (honest code never sleeps)
IDLE_STATES = (b"S", b"T", b"t")  # /proc states of a worker making no progress of its own: asleep, stopped
ISOLATION_SCHEMA = {  # what a worker may report, and the type each value must have
    "rlimits": bool, "unprivileged": bool, "capabilities_dropped": bool, "landlock": int,
    "landlock_net": bool, "landlock_signals": bool, "seccomp": bool, "private_scratch": bool,
}
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


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


def clean_environment(scratch: str) -> dict:
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": scratch,
        "TMPDIR": scratch,
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "MPLBACKEND": "Agg",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }


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


class WorkerBroken(RuntimeError):
    """The grader could not start a worker: infrastructure, not the student's doing."""


class ZygoteLauncher:
    """Ask a running zygote (``autograder.sandbox.zygote``) to fork a pre-imported worker.
    One launcher (one connection) per trusted grading process: when it goes, so do its workers."""

    def __init__(self, socket_path: str):
        import socket

        self.scratch_root = os.path.join(os.path.dirname(socket_path), "scratch")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.sock.connect(socket_path)
        except OSError as exc:
            raise WorkerBroken(f"the sandbox zygote is not answering ({exc.strerror})") from None

    def _ask(self, message: dict, fds=()) -> dict:
        import array
        import json
        import socket

        anc = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))] if fds else []
        try:
            self.sock.sendmsg([json.dumps(message).encode()], anc)
            reply = json.loads(self.sock.recv(1 << 16).decode())
        except (OSError, ValueError):
            raise WorkerBroken("the sandbox zygote is not answering") from None
        if "error" in reply:
            raise WorkerBroken(f"the sandbox could not start a worker ({reply['error']})")
        return reply

    def start(self, scratch: str) -> tuple[int, int, int]:
        to_worker_r, to_worker_w = os.pipe()
        from_worker_r, from_worker_w = os.pipe()
        try:
            pid = int(self._ask({"scratch": scratch, "env": clean_environment(scratch)}, [to_worker_r, from_worker_w])["pid"])
        except WorkerBroken:
            for fd in (to_worker_w, from_worker_r):
                os.close(fd)
            raise
        finally:
            os.close(to_worker_r)
            os.close(from_worker_w)
        return pid, to_worker_w, from_worker_r

    def reap(self, pid: int) -> None:
        self._ask({"reap": pid})

    def close(self) -> None:
        self.sock.close()


STALE_AFTER = 60.0  # seconds: a grading folder younger than this may still be setting up its lock


def sweep_stale_folders(parent: str) -> None:
    """Remove the ``grading-*`` folders a killed grader left in ``parent`` (its workers' files
    included): those whose lock no live process holds. A running batch holds its lock."""
    import fcntl

    try:
        entries = list(os.scandir(parent))
    except OSError:
        return
    for entry in entries:
        if not entry.name.startswith("grading-") or not entry.is_dir(follow_symlinks=False):
            continue
        lock_path = os.path.join(entry.path, "lock")
        try:
            if time.time() - os.lstat(lock_path).st_mtime < STALE_AFTER:
                continue
            fd = os.open(lock_path, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:  # no lock: not a folder of this grader's, or another user's
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)  # a live batch
            continue
        remove_tree(entry.path)
        os.close(fd)


class ZygoteFailed(RuntimeError):
    """The zygote did not start (the grader retries, then reports the notebooks waiting)."""


class Zygote:
    """The zygote process of a batch: started once, shared by every notebook's session."""

    def __init__(self, parent: str | None = None, meanwhile=None):
        """Start the zygote and wait until it is ready; ``meanwhile()``, if given, runs while it
        imports (the grader collects its suites then: the two overlap on two cores)."""
        import fcntl

        # The batch's own folder: the zygote's socket (0600) and every notebook's scratch
        # directory (0700, the worker's), removed with the batch whatever happened inside; a
        # grader killed before it could remove it leaves it unlocked, for the next one to sweep.
        if parent is None or len(parent) > 80:  # a socket's path must stay under 108 bytes
            parent = tempfile.gettempdir()
        sweep_stale_folders(parent)
        self.dir = tempfile.mkdtemp(prefix="grading-", dir=parent)
        self._lock = os.open(os.path.join(self.dir, "lock"), os.O_RDONLY | os.O_CREAT | os.O_EXCL, 0o600)
        fcntl.flock(self._lock, fcntl.LOCK_EX)  # held while this process (or a fork of it) lives
        os.chmod(self.dir, 0o711)
        os.mkdir(os.path.join(self.dir, "scratch"), 0o711)
        self.path = os.path.join(self.dir, "sock")
        log = os.path.join(self.dir, "zygote.log")  # its own errors (workers write nothing there)
        with open(log, "wb") as errors:
            self.proc = subprocess.Popen(
                [sys.executable, "-I", "-m", "autograder.sandbox.zygote", self.path, str(os.getpid())],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors,
                env=clean_environment(self.dir), start_new_session=True,  # it dies with this process
            )
        if meanwhile is not None:
            try:
                meanwhile()
            except BaseException:
                self.close()
                raise
        if self.proc.stdout.readline().strip() != b"ready":
            with open(log, "rb") as errors:
                last = (errors.read().decode("utf-8", "replace").strip().splitlines() or ["no output"])[-1]
            self.close()
            raise ZygoteFailed(f"the sandbox zygote failed to start: {last}")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.wait()
        remove_tree(self.dir)
        os.close(self._lock)


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


class _Over(Exception):
    """The scratch directory grew past its limit."""


class _OverBudget(Exception):
    """The worker spent its CPU budget."""


class _Clock:
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
            raise _OverBudget()
        now = time.monotonic()
        if state in IDLE_STATES and cpu == self.last_cpu:
            self.asleep_since = self.asleep_since or now
            if now - self.asleep_since > ASLEEP_LIMIT:
                raise _OverBudget()
        else:
            self.asleep_since = None
        self.last_cpu = cpu


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
    def _watch(self, clock: _Clock):
        def on_wait():
            clock.check()
            if not self.enforced.get("private_scratch"):  # a tmpfs of its own caps itself
                used, files = scratch_usage(self.scratch)
                if used > SCRATCH_LIMIT or files > SCRATCH_FILES:
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
        whole = _Clock(self.pid, LOAD_CELLS_LIMIT * self.config.load_timeout)
        clock = _Clock(self.pid, self.config.load_timeout)
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
                    clock = _Clock(self.pid, self.config.load_timeout)  # each cell its budget, the load a few
                elif event.get("event") == "refused" and isinstance(event.get("name"), str) and isinstance(event.get("defines"), list):
                    for name in event["defines"]:
                        if isinstance(name, str):
                            self.refused.setdefault(name, event["name"])
                elif event.get("event") == "loaded":
                    return True
                else:
                    raise plaindata.DecodeError("unexpected event")
        except (protocol.ChannelClosed, protocol.ChannelTimeout, plaindata.DecodeError, OSError, _Over, _OverBudget):
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
        clock = _Clock(self.pid, max(cpu_budget, 0.01))
        try:
            if memory is not None:
                _reset_peak_memory(self.pid)
            protocol.send(self.to_worker, {"probe": probe, "params": plaindata.to_plain(params)})
            reply = protocol.receive(self.from_worker, clock.deadline, self._watch(clock))
            if memory is not None:
                memory.append(max(0, _memory_kib(self.pid, "VmHWM") - self.resting_kib) * 1024)
        except (protocol.ChannelTimeout, _OverBudget):
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


def remove_tree(path: str) -> None:
    """Remove ``path`` whatever modes the worker gave its contents (chmod 0 included). Only
    folders inside ``path`` (and ``path`` itself) are ever opened up, never its parent."""
    import shutil

    def open_up():
        for folder in [path] + [os.path.join(root, d) for root, dirs, _ in os.walk(path) for d in dirs]:
            if not os.path.islink(folder):  # a link could point anywhere: never follow one
                try:
                    os.chmod(folder, 0o700)
                except OSError:
                    pass

    for _ in range(3):  # each pass opens up what the previous one could not list
        if not os.path.lexists(path):
            return
        open_up()
        shutil.rmtree(path, ignore_errors=True)
