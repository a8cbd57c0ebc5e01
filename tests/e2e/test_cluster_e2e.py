"""Grading on a real Dask cluster on 127.0.0.1: one ``dask scheduler`` and two ``dask worker``
processes (one thread each), started from this venv's ``dask`` command and stopped at the end,
even on failure.

1. A class (solved, untouched, with mistakes, and every adversarial submission of
   tests/test_adversarial.py) graded with ``--scheduler`` while one worker is SIGKILLed in the
   middle of a notebook: Dask grades that notebook again on another worker, every notebook is
   reported exactly once, nothing of the killed worker (grading child, zygote, sandbox) survives
   it, and every report equals a local ``--jobs 2`` run's, byte for byte.
2. A notebook whose worker is killed every time it lands on one is reported as an internal
   error after the scheduler's ``allowed-failures`` + 1 tries; the rest of the batch is graded.

Run with ``make test-cluster`` (``pytest -m cluster``); a plain ``pytest`` skips them.
"""
from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed", reason='the cluster extra is not installed: pip install -e ".[cluster]"')
import psutil  # noqa: E402  (a dependency of distributed)

from autograder import demo  # noqa: E402
from conftest import LECTURE8, venv_env  # noqa: E402
from test_adversarial import CANARY, CELL_EDITS, SUITE, THREATS, _cell_edit, _write_submission  # noqa: E402

pytestmark = [
    pytest.mark.cluster,
    pytest.mark.skipif("'cluster' not in (config.getoption('markexpr') or '')",
                       reason="end to end on a Dask cluster (minutes): run with make test-cluster"),
]

ASSIGNMENT = LECTURE8.name
NB = "01_graph_accumulation"
TIMEOUT = "6"  # seconds per test, as tests/test_adversarial.py: honest 100,000-node tests keep headroom
ALLOWED_FAILURES = 2  # the scheduler's distributed.scheduler.allowed-failures here
SLOW_STUDENT = "sleep_at_import"  # its notebook takes over 12 s (load timeout): long enough to be killed inside
START_TIMEOUT = 120  # seconds for the scheduler and the workers to come up on a loaded machine
RUN_TIMEOUT = 600  # seconds for one grading run, kills and retries included


@dataclass
class Cluster:
    address: str
    client: distributed.Client  # the test's own view: which worker grades what, and its pid
    folder: Path


def _start(command: list, log: Path, env: dict) -> subprocess.Popen:
    with open(log, "wb") as f:
        return subprocess.Popen([str(c) for c in command], stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT,
                                env=env, start_new_session=True)


def _stop(processes: list[subprocess.Popen]) -> None:
    """SIGTERM each process group, SIGKILL what is left; then any descendant still running (a
    zygote has a session of its own) is killed too."""
    descendants = []
    for p in processes:
        try:
            descendants += psutil.Process(p.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            pass
    for sig, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
        for p in processes:
            if p.poll() is None:
                try:
                    os.killpg(p.pid, sig)
                except ProcessLookupError:
                    pass
        for p in processes:
            try:
                p.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                pass
    for d in descendants:
        try:
            d.kill()
        except psutil.NoSuchProcess:
            pass


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dask")
    dask = Path(sys.executable).parent / "dask"
    scheduler_file = folder / "scheduler.json"
    # worker-saturation 1.0: a single-threaded worker holds only the notebook it is grading, so a
    # killed worker costs a try to that notebook alone (docs/scale.md, "Grading on a cluster").
    env = dict(venv_env(), DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES=str(ALLOWED_FAILURES),
               DASK_DISTRIBUTED__SCHEDULER__WORKER_SATURATION="1.0")
    # --dashboard-address: the HTTP endpoints a scheduler and a worker serve even without a dashboard
    local = ["--host", "127.0.0.1", "--no-dashboard", "--dashboard-address", "127.0.0.1:0"]
    processes = [_start([dask, "scheduler", *local, "--port", "0", "--scheduler-file", scheduler_file],
                        folder / "scheduler.log", env)]
    client = None
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not scheduler_file.exists():
            assert processes[0].poll() is None, (folder / "scheduler.log").read_text()
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.2)
        for i in range(2):
            processes.append(_start([dask, "worker", *local, "--scheduler-file", scheduler_file, "--nthreads", "1",
                                     "--nworkers", "1", "--local-directory", folder / f"worker{i}"],
                                    folder / f"worker{i}.log", env))
        address = json.loads(scheduler_file.read_text())["address"]
        client = distributed.Client(address, set_as_default=False, timeout=START_TIMEOUT)
        client.wait_for_workers(2, timeout=START_TIMEOUT)
        yield Cluster(address, client, folder)
    finally:
        if client is not None:
            client.close()
        _stop(processes)


@pytest.fixture(scope="module")
def klass(release_root, tmp_path_factory):
    """A course root: solved, untouched, mistakes (every notebook) and one student per threat
    of tests/test_adversarial.py (01 only: their other notebooks are 'not submitted')."""
    root = tmp_path_factory.mktemp("class")
    shutil.copytree(release_root, root, dirs_exist_ok=True)
    release_dir = root / "course" / ASSIGNMENT
    demo.make_submissions(LECTURE8, root, release_dir, demo.DEMO_MISTAKES, say=lambda _: None)
    submitted = root / "submitted"
    paths = {"OUT": str(root / "cluster-out"), "SUBMITTED": str(submitted), "SUITE": str(SUITE), "CANARY": str(CANARY)}
    for student, (cells, _) in THREATS.items():
        _write_submission(release_dir / f"{NB}.ipynb", submitted / student / ASSIGNMENT, cells, paths)
    for kind in CELL_EDITS:
        _write_submission(release_dir / f"{NB}.ipynb", submitted / kind / ASSIGNMENT, {}, paths)
        _cell_edit(kind, submitted / kind / ASSIGNMENT)
    return root


def _grade_command(path: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "autograder", "grade", str(path), "--out", str(out), "--timeout", TIMEOUT, *extra]


@pytest.fixture(scope="module")
def local_out(klass):
    out = klass / "local-out"
    started = time.monotonic()
    proc = subprocess.run(_grade_command(klass, out, "--jobs", "2"), capture_output=True, text=True, env=venv_env(),
                          timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    print(f"local run: {time.monotonic() - started:.0f} s")
    return out


def _worker_grading(cluster: Cluster, student: str, notebook: str) -> str | None:
    """The address of the worker grading ``student``'s ``notebook`` now, if any (task keys are
    ("grade", student, notebook, digest))."""
    for address, keys in cluster.client.processing().items():
        if any(list(key)[1:3] == [student, notebook] for key in keys if not isinstance(key, str)):
            return address
    return None


def _kill_worker(cluster: Cluster, address: str) -> dict[psutil.Process, str]:
    """SIGKILL the worker process at ``address``; returns what it had started, with their
    command lines (to check that they die with it)."""
    pid = cluster.client.run(os.getpid, workers=[address])[address]
    worker = psutil.Process(pid)
    descendants = {p: " ".join(p.cmdline()) for p in worker.children(recursive=True)}
    worker.send_signal(signal.SIGKILL)
    return descendants


def _progress_lines(stderr: str) -> list[tuple[str, str]]:
    lines = [m.groups() for m in re.finditer(r"^\[\d+/\d+\] ([^/\s]+)/(\S+): ", stderr, re.M)]
    return lines


def _expected_jobs(root: Path) -> set[tuple[str, str]]:
    students = [p.name for p in (root / "submitted").iterdir()]
    return {(s, n) for s in students for n in LECTURE8.notebooks()}


def test_cluster_grades_as_local_grading_with_a_worker_killed_mid_notebook(cluster, klass, local_out):
    out = klass / "cluster-out"
    log = cluster.folder / "grade-1.err"
    started = time.monotonic()
    with open(log, "w") as err:
        proc = subprocess.Popen(_grade_command(klass, out, "--scheduler", cluster.address), stdout=subprocess.PIPE,
                                stderr=err, text=True, env=venv_env())
    try:
        address = None
        while address is None:  # the slow notebook on a worker, and grading in there for a while
            assert proc.poll() is None, "the run ended before the slow notebook was seen on a worker"
            assert time.monotonic() - started < RUN_TIMEOUT
            address = _worker_grading(cluster, SLOW_STUDENT, NB)
            time.sleep(0.2)
        time.sleep(3)
        assert _worker_grading(cluster, SLOW_STUDENT, NB) == address, "the slow notebook finished too soon to be interrupted"
        left_behind = _kill_worker(cluster, address)
        stdout, _ = proc.communicate(timeout=RUN_TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    stderr = log.read_text()
    assert proc.returncode == 0, stderr[-3000:]
    print(f"cluster run: {time.monotonic() - started:.0f} s")

    # the grading child (a fork: the worker's command line), the zygote and the sandboxed worker
    assert len(left_behind) >= 3 and any("autograder.sandbox.zygote" in c for c in left_behind.values()), left_behind
    time.sleep(1)
    survivors = [c for p, c in left_behind.items() if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert not survivors, "a grading child, zygote or sandbox outlived its killed worker"

    graded = _progress_lines(stderr)
    assert sorted(graded) == sorted(_expected_jobs(klass)), "every notebook is reported exactly once"
    assert (out / "grades.csv").read_bytes() == (local_out / "grades.csv").read_bytes()
    for student_dir in sorted(p for p in local_out.iterdir() if p.is_dir() and not p.name.startswith(".")):
        for report in ("results.json", "feedback.html"):
            assert (out / student_dir.name / report).read_bytes() == (student_dir / report).read_bytes(), (student_dir.name, report)
    assert re.search(r"^isolation: Landlock ABI \d+, seccomp", stdout, re.M) or os.uname().sysname != "Linux", stdout
    assert re.search(r"^worker \S+: isolation: ", stderr, re.M), "each worker machine says what isolation held there"


def test_a_notebook_that_kills_every_worker_it_lands_on_is_failed_after_bounded_tries(cluster, klass, local_out, tmp_path):
    cluster.client.wait_for_workers(2, timeout=START_TIMEOUT)  # the nanny restarts the worker killed above
    folder = tmp_path / "poison" / ASSIGNMENT
    folder.mkdir(parents=True)
    shutil.copy(klass / "submitted" / SLOW_STUDENT / ASSIGNMENT / f"{NB}.ipynb", folder)
    shutil.copy(klass / "submitted" / "solved" / ASSIGNMENT / "02_detach.ipynb", folder)
    out = tmp_path / "out"
    with open(tmp_path / "grade.err", "w") as err, open(tmp_path / "grade.out", "w") as said:
        proc = subprocess.Popen(_grade_command(folder, out, "--scheduler", cluster.address), stdout=said,
                                stderr=err, env=venv_env())
    kills, started = 0, time.monotonic()
    try:
        while proc.poll() is None:
            assert time.monotonic() - started < RUN_TIMEOUT
            address = _worker_grading(cluster, "poison", NB)
            if address is not None:
                time.sleep(1)  # inside the notebook
                if _worker_grading(cluster, "poison", NB) == address:
                    _kill_worker(cluster, address)
                    kills += 1
                    while _worker_grading(cluster, "poison", NB) == address:  # until the scheduler notices
                        time.sleep(0.1)
            time.sleep(0.1)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    stderr = (tmp_path / "grade.err").read_text()
    # exit 1 and NOT GRADED: its zeros are the grader's failure, not a grade (kept out of a gradebook)
    assert proc.returncode == 1, stderr[-3000:]
    assert f"NOT GRADED (an error of the grader's own" in (tmp_path / "grade.out").read_text() and f"poison/{NB}" in \
        (tmp_path / "grade.out").read_text()
    assert kills == ALLOWED_FAILURES + 1

    rows = list(csv.DictReader(io.StringIO((out / "grades.csv").read_text())))
    poisoned = [r for r in rows if r["notebook"] == NB]
    assert poisoned and all(r["score"] == "0" and r["status"] == "failed" for r in poisoned)
    assert f"the grading machine died while grading this notebook, each of the {ALLOWED_FAILURES + 1} times it was tried" in \
        (out / "poison" / "feedback.html").read_text()
    local_rows = list(csv.DictReader(io.StringIO((local_out / "grades.csv").read_text())))

    def detach_rows(rs, student):
        return [(r["test"], r["score"], r["max_score"], r["status"]) for r in rs if r["student"] == student and r["notebook"] == "02_detach"]

    assert detach_rows(rows, "poison") == detach_rows(local_rows, "solved"), "the rest of the batch is graded as usual"
