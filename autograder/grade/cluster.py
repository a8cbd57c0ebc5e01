"""Grading on a Dask cluster (``grade --scheduler tcp://HOST:PORT``): each notebook is a Dask
task, graded on a worker as ``batch`` grades it on this machine.

Workers need no shared filesystem and no copy of the course, only this package installed at
the same version: a task carries the submission's bytes (read here with ``read_bytes_safely``,
so a symlink or an oversized file is refused on this side), and the assignment's grading files
reach every worker once, as a worker plugin (``CourseOnWorker``). The hidden suites therefore
run on the worker machines, which must be the grader's own, as trusted as this one; a
student's code still runs only in the sandboxed worker process there.

On each Dask worker process, ``WorkerGrader`` holds what a local batch holds: one sandbox
zygote. Each notebook is graded in a fresh child process forked for it, under the deadline
``batch`` uses, and the grader's own failures are retried as ``batch`` retries them. The child is
forked by the worker's ``ChildForker``, a single-threaded helper (the worker itself is threaded),
which has collected the notebook's suite: each child starts with it imported. A worker
that dies mid-notebook is Dask's to handle: the scheduler runs the task on another worker and,
after ``distributed.scheduler.allowed-failures`` deaths, gives up (``KilledWorker``), which is
reported here as an internal error for that notebook alone.

Results stream back as they finish and go to ``on_done`` (the caller saves each at once), so an
interrupted run keeps what finished; running the same command again grades everything again.
"""
from __future__ import annotations

import functools
import hashlib
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from collections import defaultdict
from concurrent.futures import CancelledError
from contextlib import contextmanager
from pathlib import Path

from distributed import Client, KilledWorker, WorkerPlugin, as_completed, get_worker

from ..course import Assignment, Course
from ..results import INFRASTRUCTURE, isolation_summary
from ..notebook import UnreadableNotebook, read_bytes_safely
from . import batch
from .child_forker import ChildForker, ForkerBroken
from .zygote_client import ZygoteProcess
from ..submissions import Job, UsageProblem

CONNECT_TIMEOUT = 10  # seconds to reach the scheduler before calling the address wrong


# --- on a Dask worker ----------------------------------------------------------------------------
class CourseOnWorker(WorkerPlugin):
    """An assignment's grading files (instructor notebooks, hidden suites, probes), shipped once.

    Registered as a worker plugin named after their content, the scheduler keeps them and
    installs them on every worker that joins, a restarted one included, before it grades; tasks
    then carry no course and depend on nothing, so Dask places them by load alone. A changed
    suite is a new name, never a stale copy. Each version stays registered (a few hundred kB on
    the scheduler) so that concurrent runs never remove each other's.
    """

    idempotent = True

    def __init__(self, assignment: Assignment):
        root = assignment.course.root
        paths = sorted(assignment.source_dir.glob("*.ipynb"))
        paths += sorted(p for p in assignment.suite_dir.rglob("*") if p.is_file()
                        and not any(part.startswith((".", "__pycache__")) for part in p.relative_to(root).parts))
        self.assignment = assignment.name
        self.files = [(str(p.relative_to(root)), p.read_bytes()) for p in paths]
        digest = hashlib.sha256()
        for path, data in self.files:
            digest.update(hashlib.sha256(path.encode()).digest() + hashlib.sha256(data).digest())
        self.name = f"needle-course-{digest.hexdigest()[:32]}"

    def setup(self, worker) -> None:
        # 0700 (solutions and hidden suites), in the worker's own folder, which Dask removes even
        # after the worker was killed
        self.root = Path(tempfile.mkdtemp(prefix="needle-course-", dir=worker.local_directory))
        for path, data in self.files:
            (self.root / path).parent.mkdir(parents=True, exist_ok=True)
            (self.root / path).write_bytes(data)

    def teardown(self, worker) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


class WorkerGrader(WorkerPlugin):
    """One Dask worker process's grading equipment, as a local batch has: a sandbox zygote, a
    single-threaded process that forks the grading children (``child_forker``: this process is
    threaded), and a private folder for the submissions it grades."""

    name = "needle-course-grader"
    idempotent = True  # a second grading run keeps the zygote the first one is using

    def setup(self, worker) -> None:
        self.lock = threading.Lock()
        self.worker_directory = worker.local_directory
        self.dir = Path(tempfile.mkdtemp(prefix="needle-course-submissions-", dir=worker.local_directory))
        self._zygote = self._forker = None
        # both started from the worker's main thread, so they live as long as the worker
        self.zygote()
        self.forker()

    def teardown(self, worker) -> None:
        for helper in (self._forker, self._zygote):
            if helper is not None:
                helper.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def forker(self) -> ChildForker | None:
        """The running grading-child forker, restarted if it died; None if it cannot start."""
        return self._running("_forker", ChildForker, OSError)

    def zygote(self) -> ZygoteProcess | None:
        """The running zygote, restarted if it died; None if it cannot start (retried later)."""
        # in the worker's folder: it goes with it if the worker is killed
        return self._running("_zygote", lambda: ZygoteProcess(self.worker_directory), (OSError, RuntimeError))

    def _running(self, attribute: str, start, failures):
        """The helper in ``attribute``, started anew (``start()``) if it is not running; None when
        starting it raises one of ``failures`` (the notebook waiting for it is retried)."""
        with self.lock:
            helper = getattr(self, attribute)
            if helper is None or not helper.alive():
                if helper is not None:
                    helper.close()
                try:
                    helper = start()
                except failures:
                    helper = None
                setattr(self, attribute, helper)
            return helper

    @contextmanager
    def submission(self, data: bytes):
        fd, path = tempfile.mkstemp(dir=self.dir, suffix=".ipynb")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            yield Path(path)
        finally:
            os.unlink(path)


@functools.lru_cache(maxsize=None)
def grading_code() -> str:
    """A digest of what decides a grade besides the course: Python, numpy, pytest, hypothesis,
    and the sources of needle, coursekit (the worker's hints and tracing) and of this package. A
    worker must match this machine exactly."""
    import hypothesis
    import numpy
    import pytest

    import coursekit
    import needle

    digest = hashlib.sha256(repr((sys.version_info[:2], numpy.__version__, pytest.__version__, hypothesis.__version__)).encode())
    for package in (Path(needle.__file__).parent, Path(coursekit.__file__).parent, Path(__file__).parent):
        for path in sorted(p for p in package.rglob("*.py") if "suites" not in p.relative_to(package).parts):
            digest.update(str(path.relative_to(package)).encode() + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def grade_on_worker(course: str, code: str, student: str, notebook: str, submission: bytes,
                    timeout: float) -> tuple[str, object, str]:
    """The Dask task: ("graded", NotebookResult), ("failed", why) or ("mismatch", None) when
    this worker's grading code differs from the client's, and this machine's name."""
    if code != grading_code():
        return "mismatch", None, socket.gethostname()
    worker = get_worker()
    grader: WorkerGrader = worker.plugins[WorkerGrader.name]
    files: CourseOnWorker = worker.plugins[course]
    assignment = Course(files.root).assignment(files.assignment)
    with grader.submission(submission) as path:
        job = Job(student, notebook, path)
        for tries in range(1, batch.MAX_TRIES + 1):
            kind, payload = _grade_in_child(job, assignment, timeout, grader.zygote(), grader.forker())
            if kind in ("graded", "failed"):
                return kind, payload, socket.gethostname()
            time.sleep(0.2 * tries)  # an error of the grader's own: retried, as batch does
    message = payload if payload.startswith(INFRASTRUCTURE) else f"{INFRASTRUCTURE}: {payload}"
    return "failed", f"{message} (tried {tries} times; tell your instructor)", socket.gethostname()


def _grade_in_child(job: Job, assignment: Assignment, timeout: float, zygote, forker) -> tuple[str, object]:
    """Grade in a fresh child (forked by the worker's single-threaded forker, as batch's children
    are forked from the grader): a notebook gets a clean interpreter and nothing it leaves behind
    outlives it."""
    if zygote is None:
        return "retry", "the sandbox could not be started"
    if forker is None:
        return "retry", "the grading process forker could not be started"
    try:
        pid, deadline, receive = forker.fork(job, assignment, timeout, zygote.path)
    except ForkerBroken as exc:
        return "retry", str(exc)
    try:
        if not receive.poll(deadline):
            os.kill(pid, signal.SIGKILL)  # the zygote then kills this child's workers, as in batch
            return "failed", "grading this notebook took too long and was stopped"
        kind, payload = receive.recv()
    except (EOFError, OSError):
        kind, payload = "error", f"{INFRASTRUCTURE} (the grading process ended unexpectedly)"
    finally:
        receive.close()
    if kind == "ok" and not payload.error.startswith(INFRASTRUCTURE):
        return "graded", payload
    return "retry", payload if kind != "ok" else payload.error


# --- on the grader's machine ---------------------------------------------------------------------
def run_jobs(jobs: list[Job], assignment: Assignment, timeout: float, scheduler: str, on_done) -> None:
    """Grade every job on the Dask cluster at ``scheduler``; ``on_done(result)`` is called here,
    once per job, as results arrive."""
    # A suite that cannot be imported is the instructor's to fix, said once here (as a local run
    # says it), not discovered by every worker and retried as an error of each notebook.
    batch.collect_suites(assignment, [job for job in jobs if job.path is not None])
    course = CourseOnWorker(assignment)
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, ValueError, TypeError) as exc:
        raise UsageProblem(f"cannot reach a Dask scheduler at {scheduler} ({exc}); "
                           "expected --scheduler tcp://HOST:PORT of a running `dask scheduler`") from None
    try:
        for plugin in (WorkerGrader(), course):
            _register(client, plugin, scheduler)
        if not client.scheduler_info()["workers"]:
            print(f"autograder: no Dask worker has joined {scheduler} yet; grading starts when one does", file=sys.stderr)
        _grade(client, course.name, jobs, assignment, timeout, on_done)
    except CancelledError:
        raise ConnectionError(f"the Dask scheduler at {scheduler} dropped this grading run (stopped or restarted)") from None
    finally:
        client.close()


REGISTER_TRIES = 5


def _register(client: Client, plugin, scheduler: str) -> None:
    """Register a worker plugin; a worker lost meanwhile (its connection closed, a timeout) costs
    a retry, not the run: the scheduler keeps the plugin and gives it to every worker that joins."""
    from distributed.comm.core import CommClosedError

    for tries in range(1, REGISTER_TRIES + 1):
        try:
            client.register_plugin(plugin)
            return
        except (CommClosedError, OSError, TimeoutError) as exc:
            if tries == REGISTER_TRIES:
                raise ConnectionError(f"the Dask cluster at {scheduler} kept losing its connections while the grader "
                                      f"registered with it ({type(exc).__name__}, {tries} tries)") from None
            time.sleep(0.5 * tries)
        except Exception as exc:  # raised on a worker: this package is missing or broken there
            raise UsageProblem(f"a Dask worker of {scheduler} cannot grade ({type(exc).__name__}: {exc}); "
                               "install this package, at this version, on every worker") from None


def _grade(client: Client, course: str, jobs: list[Job], assignment: Assignment, timeout: float, on_done) -> None:
    code = grading_code()
    futures = {}
    for job in jobs:
        if job.path is None:
            on_done(batch.failed(job, assignment, job.problem or "notebook not submitted", "not submitted"))
            continue
        try:
            data = read_bytes_safely(job.path)
        except UnreadableNotebook as exc:  # refused here, with the message runner.grade_notebook gives
            on_done(batch.failed(job, assignment, f"could not read the notebook: {exc}"))
            continue
        token = hashlib.sha256(f"{course} {code} {timeout!r}".encode() + data).hexdigest()
        future = client.submit(grade_on_worker, course, code, job.student, job.notebook, data, timeout,
                               key=("grade", job.student, job.notebook, token))
        futures[future] = job
    isolation = defaultdict(list)  # machine -> its results whose sandbox started: what held there
    for future in as_completed(futures, loop=client.loop):
        job = futures.pop(future)
        try:
            kind, payload, host = future.result()
        except KilledWorker as exc:
            kind, payload = "failed", (f"{INFRASTRUCTURE}: the grading machine died while grading this notebook, "
                                       f"each of the {exc.allowed_failures + 1} times it was tried (tell your instructor)")
        except CancelledError:
            raise
        except Exception as exc:  # an error of the grader's own on the worker: this notebook only
            kind, payload = "failed", f"{INFRASTRUCTURE} ({type(exc).__name__}: {exc})"
        finally:
            future.release()
        if kind == "mismatch":
            raise UsageProblem(f"the Dask worker on {host} grades with other code than this machine: install the same "
                               "needle-course (and Python, numpy, pytest, hypothesis) on every worker, then run this again")
        if kind == "graded":
            if payload.isolation:
                isolation[host].append(payload)
            on_done(payload)
        else:
            on_done(batch.failed(job, assignment, payload))
    for host, results in sorted(isolation.items()):
        print(f"worker {host}: {isolation_summary(results)}", file=sys.stderr)
