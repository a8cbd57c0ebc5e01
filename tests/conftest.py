import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.course import Course

# tests/fixtures/ holds course material (a second lecture's hidden suites among it), not tests.
collect_ignore = ["fixtures"]

ROOT = Path(__file__).resolve().parents[1]
COURSE = Course.locate(ROOT)
ASSIGNMENTS = [COURSE.assignment(name) for name in COURSE.assignments()]
# (assignment, notebook) pairs of every discovered assignment: generic checks run on all.
NOTEBOOKS = [(a, nb) for a in ASSIGNMENTS for nb in a.notebooks()]
# lecture8 is the course's own assignment: tests that need its particular notebooks use it.
LECTURE8 = COURSE.assignment("lecture8")



def course_copy(root: Path, assignment=None) -> Course:
    """A course root at ``root`` holding a copy of ``assignment``'s (default lecture8's) solutions,
    hidden suites and nbgrader config: for tests that edit a suite (the original stays as it is)."""
    assignment = assignment or LECTURE8
    shutil.copytree(assignment.source_dir, root / "solutions" / assignment.name)
    shutil.copytree(assignment.suite_dir, root / "autograder" / "suites" / assignment.name,
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(assignment.course.nbgrader_config, root)
    return Course(root)

# A pytest-xdist worker is threaded (execnet's I/O thread): a child forked from it can inherit a
# lock another thread held and hang forever. Tests that fork the test process itself are marked
# `forks` and run in make test's serial phase; a fork from an unmarked test under xdist fails that
# test, naming the rule. subprocess's fork+exec runs no Python in the child and is not counted.
_FORKS = [0]
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.register_at_fork(before=lambda: _FORKS.__setitem__(0, _FORKS[0] + 1))


def _forbid_unmarked_forks(item):
    before = _FORKS[0]
    result = yield
    if _FORKS[0] != before and item.get_closest_marker("forks") is None:
        pytest.fail("this test forked the pytest-xdist worker it runs in (threaded: the child can hang on an "
                    "inherited lock); grade through a subprocess, or mark the test `forks` (make test runs "
                    "those serially)", pytrace=False)
    return result


pytest_runtest_setup = pytest.hookimpl(wrapper=True)(_forbid_unmarked_forks)
pytest_runtest_call = pytest.hookimpl(wrapper=True)(_forbid_unmarked_forks)


def notebook_id(pair) -> str:
    assignment, notebook = pair
    return f"{assignment.name}/{notebook}"


def venv_env() -> dict:
    """Environment for subprocesses: the venv's scripts (nbgrader runs alembic) first on PATH."""
    return dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")


def grade_cli(*args, **env) -> subprocess.CompletedProcess:
    """``python -m autograder grade ARGS`` as a grader runs it: in a process of its own (a test
    that graded in its own process would fork it, and a fork of a pytest-xdist worker can hang),
    from the course root, with the venv's tools on PATH and ``env`` added."""
    return subprocess.run([sys.executable, "-m", "autograder", "grade", *map(str, args)], capture_output=True,
                          text=True, env=dict(venv_env(), **env), cwd=ROOT)


def _worker_name(config) -> str:
    """pytest-xdist's worker name ("gw0", ...), or "master" in the controller or without xdist."""
    workerinput = getattr(config, "workerinput", None)
    return "master" if workerinput is None else workerinput["workerid"]


def _run_folder(tmp_path_factory, worker_id: str) -> Path:
    """The run's own temporary folder, shared by all pytest-xdist workers (each worker's basetemp
    is a folder in it)."""
    base = tmp_path_factory.getbasetemp()
    return base if worker_id == "master" else base.parent


@pytest.fixture(scope="session")
def once_per_run(tmp_path_factory, worker_id):
    """once_per_run(key, build): ``build()`` once per test run, by whichever pytest-xdist worker
    asks first (the others wait on a lock), and its (pickled) value to every worker. For the
    module fixtures that grade a whole batch through the real command line: tests only read
    what the batch left. (A failed build is not kept: the next worker tries, and fails, again.)"""
    import fcntl
    import pickle

    shared = _run_folder(tmp_path_factory, worker_id)

    def once(key: str, build):
        kept = shared / f"once-{key}.pickle"
        with open(shared / f"once-{key}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if kept.exists():
                return pickle.loads(kept.read_bytes())
            value = build()
            kept.write_bytes(pickle.dumps(value))
            return value

    return once


def remove_at_end(request, path: Path) -> None:
    """Remove ``path`` when the whole run ends (not when this worker's module does: another
    worker may still be reading it)."""
    shared = _run_folder(request.config._tmp_path_factory, _worker_name(request.config))
    with open(shared / "remove-at-end.txt", "a") as f:
        f.write(f"{path}\n")


def pytest_sessionfinish(session):
    if _worker_name(session.config) != "master":  # a worker: the controller cleans up
        return
    factory = getattr(session.config, "_tmp_path_factory", None)
    listed = factory.getbasetemp() / "remove-at-end.txt" if factory is not None else None
    if listed is not None and listed.exists():
        for line in listed.read_text().splitlines():
            shutil.rmtree(line, ignore_errors=True)


@pytest.fixture(scope="session")
def release_of(tmp_path_factory, once_per_run):
    """release_of(assignment): a scratch nbgrader course root with that assignment released
    from solutions/ by nbgrader (made once per run, by whichever pytest-xdist worker asks first).
    Read-only for the tests: copy it to change it."""
    from autograder.demo import release

    def make(assignment):
        def build():
            root = tmp_path_factory.mktemp(f"course-root-{assignment.name}")
            release(assignment, root)
            return root

        return once_per_run(f"release-{assignment.name}", build)

    return make


@pytest.fixture(scope="session")
def worker_id(request) -> str:
    """pytest-xdist's worker name ("gw0", ...), or "master" without it (xdist's own fixture when
    it is installed)."""
    return _worker_name(request.config)


@pytest.fixture(scope="session")
def release_root(release_of):
    return release_of(LECTURE8)
