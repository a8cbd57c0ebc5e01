"""Running a hidden suite file with pytest, in this process, with the grader's settings only.

Used alike by the grader (``runner``: probes in a sandbox), the nbgrader route (``inkernel``:
probes in the notebook's kernel) and ``selfcheck``; nothing here knows about sandboxes.
"""
from __future__ import annotations

import contextlib
import functools
import io
import os
import sys
import tempfile
from pathlib import Path

import pytest

from .plugin import GradingPlugin


class SuiteBroken(RuntimeError):
    """A hidden suite failed to import, holds no test or a test without @graded: the instructor's
    problem, never a 0/0."""


@functools.lru_cache(maxsize=None)
def _prepare_hypothesis() -> None:
    """Hypothesis writes a .hypothesis/ cache into the current directory (a student's
    notebook folder, or nbgrader's source folder, which it would then release): not there.
    And the first test it runs in a process registers its own random generator, with a full
    garbage collection: done here, once, before the grader forks a child per notebook (which
    then starts with it done), not in each child."""
    try:
        from hypothesis.configuration import set_hypothesis_home_dir
    except ImportError:
        return
    set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "needle-course-hypothesis")
    try:
        from hypothesis.internal.entropy import deterministic_PRNG  # internal: a speed-up only, if it is there
    except ImportError:
        return
    with deterministic_PRNG():
        pass


def _pytest(suite: Path, plugin: GradingPlugin, *extra: str) -> int:
    """pytest on one suite file: quiet, no caches, no configuration file (never the project's
    or the course's), no plugin that happens to be installed, imported by path, and plain
    asserts everywhere: a module once imported with pytest's assertion rewriting keeps it,
    and rewritten asserts would show students expected values in their messages."""
    args = [
        str(suite), *extra, "--assert=plain", "-c", os.devnull, "--rootdir", str(Path(suite).parent),
        "--import-mode=importlib", "--disable-plugin-autoload", "-p", "no:cacheprovider", "-p", "no:terminal",
        # these plugins force full garbage collections after the session: 0.1 s per notebook
        "-p", "no:unraisableexception", "-p", "no:threadexception",
    ]
    _forget_other_suite_of_that_name(Path(suite))
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return pytest.main(args, plugins=[plugin])


def _forget_other_suite_of_that_name(suite: Path) -> None:
    """pytest's importlib mode names a suite's module after its file (rootdir is its folder) and
    reuses a module of that name already imported, wherever it came from: in a long-lived
    process (a Dask worker's forker) a new version of a course, in a folder of its own, would be
    graded with the old version's tests. A module of that name from another file is dropped."""
    module = sys.modules.get(suite.stem)
    file = getattr(module, "__file__", None)
    if module is not None and (file is None or Path(file).resolve() != suite.resolve()):
        del sys.modules[suite.stem]


def run_suite(suite: Path, plugin: GradingPlugin) -> None:
    """Run a suite file with ``plugin`` (which provides ``observe`` and collects results)."""
    _prepare_hypothesis()
    _exists(suite)
    code = _pytest(suite, plugin)
    _check(suite, plugin)
    if code in (pytest.ExitCode.INTERNAL_ERROR, pytest.ExitCode.USAGE_ERROR):  # no result of it can be trusted
        raise SuiteBroken(f"pytest stopped on the hidden suite {suite} ({code.name.lower().replace('_', ' ')})")


@functools.lru_cache(maxsize=None)
def collect_tests(suite: Path) -> list[tuple[str, str, str, float]]:
    """(test, name, task, points) of every test in a suite, without running any."""
    _prepare_hypothesis()
    _exists(suite)
    plugin = GradingPlugin(observer=None)
    _pytest(suite, plugin, "--collect-only")
    _check(suite, plugin)
    return plugin.collected


def _exists(suite: Path) -> None:
    """A suite named otherwise than test_<notebook>.py beside the others is not found: say where it was expected."""
    suite = Path(suite)
    if not suite.is_file():
        others = sorted(p.name for p in suite.parent.glob("*.py")) if suite.parent.is_dir() else []
        raise SuiteBroken(f"no hidden suite {suite}: a notebook NAME.ipynb is graded by test_NAME.py in {suite.parent}"
                          + (f" (there: {', '.join(others)})" if others else " (the folder has no .py file)"))


def _check(suite: Path, plugin: GradingPlugin) -> None:
    if plugin.collection_errors:
        raise SuiteBroken(f"the hidden suite {suite} failed to import ({', '.join(plugin.collection_errors)})")
    if plugin.ungraded:
        raise SuiteBroken(f"the hidden suite {suite} has tests without @graded(task, points): {', '.join(plugin.ungraded)}")
    if not plugin.collected:
        raise SuiteBroken(f"the hidden suite {suite} has no @graded tests")
