"""The nbgrader route: run a task's hidden tests inside the notebook's own kernel.

A hidden test block in a solution notebook is one call::

    from autograder.inkernel import check_task
    check_task("lecture8", "01_graph_accumulation", "1.1", globals())

It runs the same suite as ``python -m autograder grade``, with the probes called directly on
the notebook's namespace, and raises AssertionError listing what failed (nbgrader then gives
the cell 0 points). Weaker than the grader: the student's code shares the process with the
tests, so it could tamper with them. Use ``python -m autograder grade`` for grades that count.
"""
from __future__ import annotations

from .plugin import GradingPlugin, LocalObserver
from .runner import run_suite, suite_path


def check_task(assignment: str, notebook: str, task: str, namespace: dict, timeout: float = 120.0) -> None:
    plugin = GradingPlugin(LocalObserver(namespace), tasks={task}, timeout=timeout)
    run_suite(suite_path(assignment, notebook), plugin)
    if plugin.collection_errors or not plugin.results:
        raise RuntimeError(f"Task {task}: the hidden tests could not be run (ask your instructor)")
    failed = [r for r in plugin.results if r.status != "passed"]
    total = sum(r.points for r in plugin.results)
    score = sum(r.score for r in plugin.results)
    print(f"Task {task}: hidden tests {len(plugin.results) - len(failed)}/{len(plugin.results)} passed ({score:g}/{total:g} points)")
    if failed:
        lines = "\n".join(f"  - {r.name}: {r.message}" for r in failed)
        raise AssertionError(f"Task {task}: {len(failed)} hidden test(s) failed:\n{lines}")
