"""Find submissions and grade them in parallel, each notebook in a fresh process.

Layouts accepted for PATH:
* an nbgrader course root: every ``submitted/<student>/<assignment>/*.ipynb``;
* one student's folder of notebooks (the student is the folder's name, or its parent's
  when the folder is named after the assignment, as in nbgrader's layout);
* one notebook.
"""
from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .runner import NotebookResult, collect_tests, grade_notebook, zero_results
from .session import Zygote, die_with_parent


class UsageProblem(Exception):
    """Bad arguments: the message says what was wrong and what was expected (exit 2)."""


@dataclass
class Job:
    student: str
    notebook: str  # stem, e.g. 01_graph_accumulation
    path: Path | None  # None: the student did not submit this notebook


def _student_of(folder: Path, assignment: str) -> str:
    folder = folder.resolve()
    return folder.parent.name if folder.name == assignment else folder.name


def discover(path: Path, assignment: str, known: list[str]) -> list[Job]:
    if not path.exists():
        raise UsageProblem(f"{path} does not exist; expected an nbgrader course root, a student's folder or a notebook")
    if path.is_file():
        if path.suffix != ".ipynb":
            raise UsageProblem(f"{path} is not a notebook (.ipynb)")
        if path.stem not in known:
            raise UsageProblem(f"{path.name} is not a notebook of {assignment}; expected one of: {', '.join(known)}")
        return [Job(_student_of(path.parent, assignment), path.stem, path)]
    if (path / "submitted").is_dir():
        folders = sorted(p / assignment for p in (path / "submitted").iterdir() if (p / assignment).is_dir())
        if not folders:
            raise UsageProblem(f"{path / 'submitted'} has no <student>/{assignment}/ folders: nothing to grade")
        return [job for folder in folders for job in _folder_jobs(folder, folder.parent.name, known, all_notebooks=True)]
    jobs = _folder_jobs(path, _student_of(path, assignment), known, all_notebooks=False)
    if not jobs:
        raise UsageProblem(f"{path} holds no notebook of {assignment} (expected files named like {known[0]}.ipynb)")
    return jobs


def _folder_jobs(folder: Path, student: str, known: list[str], all_notebooks: bool) -> list[Job]:
    present = {p.stem: p for p in folder.glob("*.ipynb")}
    names = known if all_notebooks else [n for n in known if n in present]
    return [Job(student, n, present.get(n)) for n in names]


# --- running ------------------------------------------------------------------------------------
def _child(conn, job: Job, instructor: Path, assignment: str, timeout: float, zygote: str) -> None:
    die_with_parent()
    try:
        result = grade_notebook(job.student, job.path, instructor, assignment, timeout, zygote=zygote)
        conn.send(("ok", result))
    except BaseException as exc:  # an error of the grader's own: reported, never fatal to the batch
        conn.send(("error", f"internal grading error ({type(exc).__name__}: {exc})"))
    finally:
        conn.close()


def _failed(job: Job, assignment: str, message: str) -> NotebookResult:
    return NotebookResult(job.student, job.notebook, zero_results(assignment, job.notebook, message), message)


def run_jobs(jobs: list[Job], source: Path, assignment: str, timeout: float, n_jobs: int, on_done) -> None:
    """Grade every job, at most ``n_jobs`` at once; ``on_done(result)`` is called in this process."""
    zygote = Zygote()  # workers for every notebook fork from it: start-up paid once
    try:
        _run(jobs, source, assignment, timeout, n_jobs, on_done, zygote.path)
    finally:
        zygote.close()


def _run(jobs, source, assignment, timeout, n_jobs, on_done, zygote_path) -> None:
    ctx = multiprocessing.get_context("fork")
    pending = list(jobs)
    running: dict = {}  # connection -> (process, job, deadline)
    while pending or running:
        while pending and len(running) < n_jobs:
            job = pending.pop(0)
            if job.path is None:
                on_done(_failed(job, assignment, "notebook not submitted"))
                continue
            tests = len(collect_tests(assignment, job.notebook))
            parent, child = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_child, args=(child, job, source / f"{job.notebook}.ipynb", assignment, timeout, zygote_path), daemon=True)
            proc.start()
            child.close()
            # Generous: loading, plus every test at its full time limit, plus restarts.
            running[parent] = (proc, job, time.monotonic() + 120 + 2 * timeout * max(tests, 1))
        ready = multiprocessing.connection.wait(list(running), timeout=0.5)
        for conn in ready:
            proc, job, _ = running.pop(conn)
            try:
                kind, payload = conn.recv()
            except (EOFError, OSError):
                kind, payload = "error", "the grading process ended unexpectedly"
            proc.join()
            on_done(payload if kind == "ok" else _failed(job, assignment, payload))
        now = time.monotonic()
        for conn, (proc, job, deadline) in list(running.items()):
            if now > deadline:
                running.pop(conn)
                _kill_tree(proc)
                on_done(_failed(job, assignment, "grading this notebook took too long and was stopped"))


def _kill_tree(proc) -> None:
    try:
        os.kill(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.join()


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


class Progress:
    """tqdm on a terminal, plain lines otherwise."""

    def __init__(self, total: int):
        self.bar = None
        if sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit="notebook", desc="grading")
        self.total, self.done = total, 0

    def update(self, result: NotebookResult) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.update(1)
        else:
            note = f" ({result.error})" if result.error else ""
            print(f"[{self.done}/{self.total}] {result.student}/{result.notebook}: {result.score:g}/{result.max_score:g}{note}", file=sys.stderr)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
