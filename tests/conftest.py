import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "lecture8"
SOLUTIONS = ROOT / "solutions" / ASSIGNMENT
RELEASE = ROOT / "course" / ASSIGNMENT
NOTEBOOKS = sorted(p.stem for p in SOLUTIONS.glob("*.ipynb"))


def venv_env() -> dict:
    """Environment for subprocesses: the venv's scripts (nbgrader runs alembic) first on PATH."""
    return dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")


@pytest.fixture(scope="session")
def release_root(tmp_path_factory):
    """A scratch nbgrader course root with the release generated from solutions/ (once)."""
    from autograder.demo import release

    root = tmp_path_factory.mktemp("course-root")
    release(root)
    return root
