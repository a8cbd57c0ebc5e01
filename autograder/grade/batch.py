"""Grade jobs in parallel on this machine, each notebook in a fresh trusted child process
whose sandboxed workers fork from one zygote per batch.

Nothing a notebook does stops the batch: a child that cannot be started (no processes left),
dies, or overruns its deadline costs only its own notebook, which is retried a few times as an
infrastructure error before it is reported as such.
"""
from __future__ import annotations

import collections
import gc
import itertools
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import time

from ..course import Assignment
from ..results import NotebookResult
from ..sandbox.confine import die_with_parent
from .runner import grade_notebook, zero_results
from .zygote_client import ZygoteFailed, ZygoteProcess
from ..results import INFRASTRUCTURE
from ..submissions import Job

MAX_TRIES = 3  # infrastructure failures (not the student's) are retried this many times in all
terminated: int | None = None  # the signal that asked the grader to stop (set by the CLI's handler)


class Stopped(BaseException):
    """Ctrl-C or SIGTERM asked the grader to stop (a BaseException: no ``except Exception`` of the
    pipeline swallows it)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def failed(job: Job, assignment: Assignment, message: str, reason: str = "error") -> NotebookResult:
    return NotebookResult(job.student, job.notebook, zero_results(assignment, job.notebook, message, reason), message)


def _child(conn, job: Job, assignment: Assignment, timeout: float, zygote: str) -> None:
    die_with_parent()
    gc.freeze()  # the parent's heap is never garbage here: keep this child's collections off it
    try:
        result = grade_notebook(job.student, job.path, assignment, job.notebook, timeout, zygote)
        conn.send(("ok", result))
    except BaseException as exc:  # an error of the grader's own: reported, never fatal to the batch
        conn.send(("error", f"{INFRASTRUCTURE} ({type(exc).__name__}: {exc})"))
    finally:
        conn.close()


def notebook_deadline(assignment: Assignment, notebook: str, timeout: float) -> float:
    """Seconds a notebook may take in all: loading, every test at its limit, restarts."""
    from ..suiterun import collect_tests

    # A backstop only (budgets are CPU time, kept by the session): generous enough that a
    # machine loaded many times over never stops an honest notebook.
    return 300 + 10 * timeout * max(len(collect_tests(assignment.suite(notebook))), 1)


def run_jobs(jobs: list[Job], assignment: Assignment, timeout: float, n_jobs: int, on_done) -> None:
    """Grade every job, at most ``n_jobs`` at once; ``on_done(result)`` is called here."""
    ctx = multiprocessing.get_context("fork")
    pending = Pending((job, 1) for job in jobs)
    running: dict = {}  # connection -> (process, job, tries, deadline, start)
    zygote = None
    if any(job.path is not None for job in jobs):
        # the first zygote imports while the suites are collected (each notebook's deadline needs its own)
        zygote = _start_zygote(meanwhile=lambda: collect_suites(assignment, jobs))
    try:
        while pending or running:
            if terminated is not None:  # also when the signal's exception was swallowed (raised in a finalizer)
                raise Stopped(terminated)
            if pending and (zygote is None or not zygote.alive()):
                if zygote is not None:
                    zygote.close()
                zygote = _start_zygote()
            while pending and len(running) < n_jobs:
                job, tries = pending.pop()
                if job.path is None:
                    on_done(failed(job, assignment, job.problem or "notebook not submitted", "not submitted"))
                    continue
                if zygote is None:
                    _retry_or_report(job, tries, "the sandbox could not be started", pending, assignment, on_done)
                    continue
                try:
                    parent, child = ctx.Pipe(duplex=False)
                    proc = ctx.Process(target=_child, args=(child, job, assignment, timeout, zygote.path), daemon=True)
                    proc.start()
                except OSError as exc:  # e.g. EAGAIN: no processes left for the moment
                    _retry_or_report(job, tries, f"could not start a grading process ({exc.strerror})", pending, assignment, on_done)
                    break
                child.close()
                now = time.monotonic()
                running[parent] = (proc, job, tries, now + notebook_deadline(assignment, job.notebook, timeout), now)
            if not running:
                continue
            for conn in multiprocessing.connection.wait(list(running), timeout=0.5):
                proc, job, tries, _, start = running.pop(conn)
                pending.took(job.notebook, time.monotonic() - start)
                try:
                    kind, payload = conn.recv()
                except (EOFError, OSError):
                    kind, payload = "error", f"{INFRASTRUCTURE} (the grading process ended unexpectedly)"
                conn.close()
                proc.join()
                if kind == "ok" and not payload.error.startswith(INFRASTRUCTURE):
                    on_done(payload)
                else:
                    _retry_or_report(job, tries, payload if kind != "ok" else payload.error, pending, assignment, on_done)
            now = time.monotonic()
            for conn, (proc, job, tries, deadline, _) in list(running.items()):
                if now > deadline:
                    running.pop(conn)
                    conn.close()
                    _kill(proc)  # the zygote kills this child's workers when its connection closes
                    on_done(failed(job, assignment, "grading this notebook took too long and was stopped", "timeout"))
    finally:
        for proc, *_ in running.values():
            _kill(proc)
        if zygote is not None:
            zygote.close()


class Pending:
    """The jobs waiting to start, in queues by notebook. The next one is of a notebook not graded
    yet, else of the notebook whose gradings have taken longest on average (among equals, the one
    queued first): short ones are left for the end, where they fill the workers while the last
    long one finishes. A pick looks at each notebook once, not at each job (a class of a thousand
    students queues 9,000)."""

    def __init__(self, items=()):
        self.queues: dict[str, collections.deque] = {}
        self.seconds: dict[str, list] = {}  # notebook -> [seconds its gradings took, how many]
        self.order = itertools.count()
        for item in items:
            self.append(item)

    def append(self, item: tuple) -> None:
        """Queue (job, tries)."""
        self.queues.setdefault(item[0].notebook, collections.deque()).append((next(self.order), item))

    def __bool__(self) -> bool:
        return any(self.queues.values())

    def took(self, notebook: str, seconds: float) -> None:
        took = self.seconds.setdefault(notebook, [0.0, 0])
        took[0], took[1] = took[0] + seconds, took[1] + 1

    def pop(self) -> tuple:
        """The next (job, tries)."""
        def rank(notebook: str) -> tuple:
            took = self.seconds.get(notebook)
            return float("inf") if took is None else took[0] / took[1], -self.queues[notebook][0][0]

        return self.queues[max((nb for nb, queue in self.queues.items() if queue), key=rank)].popleft()[1]


def collect_suites(assignment: Assignment, jobs: list[Job]) -> None:
    """Collect (and cache) the suites of the notebooks to grade: their deadlines need them, and
    every forked grading child then starts with them imported."""
    from ..suiterun import collect_tests

    for notebook in sorted({job.notebook for job in jobs}):
        collect_tests(assignment.suite(notebook))


def _start_zygote(meanwhile=None):
    try:
        return ZygoteProcess(meanwhile=meanwhile)
    except (OSError, ZygoteFailed) as exc:  # the notebooks waiting for it are retried, then reported
        print(f"autograder: {exc}", file=sys.stderr)
        time.sleep(1.0)
        return None


def _retry_or_report(job: Job, tries: int, message: str, pending: Pending, assignment: Assignment, on_done) -> None:
    if not message.startswith(INFRASTRUCTURE):
        message = f"{INFRASTRUCTURE}: {message}"
    if tries < MAX_TRIES:
        time.sleep(0.2 * tries)
        pending.append((job, tries + 1))
    else:
        on_done(failed(job, assignment, f"{message} (tried {tries} times; tell your instructor)"))


def _kill(proc) -> None:
    try:
        os.kill(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.join()



class Progress:
    """tqdm on a terminal, plain lines otherwise."""

    def __init__(self, total: int):
        self.bar = None
        if sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit="notebook", desc="grading")
        self.total, self.done = total, 0

    def update(self, result: NotebookResult) -> None:
        from ..console import printable

        self.done += 1
        if self.bar is not None:
            self.bar.update(1)
        else:
            note = f" ({printable(result.error, 200)})" if result.error else ""
            print(f"[{self.done}/{self.total}] {result.student}/{result.notebook}: {result.score:g}/{result.max_score:g}{note}", file=sys.stderr)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
