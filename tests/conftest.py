import os
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


def notebook_id(pair) -> str:
    assignment, notebook = pair
    return f"{assignment.name}/{notebook}"


def venv_env() -> dict:
    """Environment for subprocesses: the venv's scripts (nbgrader runs alembic) first on PATH."""
    return dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")


@pytest.fixture(scope="session")
def release_of(tmp_path_factory):
    """release_of(assignment): a scratch nbgrader course root with that assignment released
    from solutions/ by nbgrader (made once per session)."""
    from autograder.demo import release

    roots = {}

    def make(assignment):
        if assignment.name not in roots:
            roots[assignment.name] = tmp_path_factory.mktemp(f"course-root-{assignment.name}")
            release(assignment, roots[assignment.name])
        return roots[assignment.name]

    return make


@pytest.fixture(scope="session")
def release_root(release_of):
    return release_of(LECTURE8)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (make test: ``-n auto --dist loadgroup``) the tests of a file whose
    fixtures are module-scoped (a graded batch, a released course) stay on one worker, so each
    such fixture is built once; every other test goes wherever a worker is free."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        defs = (d for name in info.names_closure for d in info.name2fixturedefs.get(name, ()))
        if any(d.scope == "module" for d in defs):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))
