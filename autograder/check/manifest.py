"""The release's tasks.json: each task's public facts, from its declaration in the hidden suite.

``python -m autograder tasks [ASSIGNMENT]`` writes ``solutions/<assignment>/tasks.json``, which
nbgrader's release copies beside the students' notebooks. The visible test cells
(``coursekit.ladder.check``) read their rungs from it, the notebooks' helpers the tasks' names
and own work. Nothing is written here by hand: a test keeps the file equal to what the suites
declare, and the release's copy equal to it.
"""
from __future__ import annotations

import importlib.util
import json

from coursekit.ladder import MANIFEST

from ..course import Assignment


def suite_tasks(assignment: Assignment, notebook: str) -> dict:
    """{task id: Task} the notebook's suite declares (none for a suite that declares no task)."""
    path = assignment.suite(notebook)
    if not path.is_file():
        return {}
    spec = importlib.util.spec_from_file_location(f"_declared_{assignment.name}_{notebook}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return dict(getattr(module, "TASKS", {}))


def ladders(assignment: Assignment, notebook: str) -> dict[str, list[str]]:
    """{task id: ["rung 1 (name)", ...]}: each declared task's ladder, in order."""
    return {task.id: [f"rung {n} ({name})" for n, name in enumerate([r.name for r in task.rungs] + [n for n, _ in task.hidden], 1)]
            for task in suite_tasks(assignment, notebook).values()}


def declared(assignment: Assignment) -> dict:
    """{task id: its public facts} of every task the assignment's suites declare, in task order."""
    tasks: dict = {}
    for notebook in assignment.notebooks():
        for task in suite_tasks(assignment, notebook).values():
            tasks[task.id] = {"notebook": notebook} | task.public()
    return dict(sorted(tasks.items(), key=lambda kv: tuple(int(n) for n in kv[0].split("."))))


def text(assignment: Assignment) -> str:
    return json.dumps(declared(assignment), indent=1, ensure_ascii=False) + "\n"


def write(assignment: Assignment) -> bool:
    """Write the assignment's tasks.json; True when it changed."""
    path = assignment.source_dir / MANIFEST
    new = text(assignment)
    if path.is_file() and path.read_text(encoding="utf-8") == new:
        return False
    path.write_text(new, encoding="utf-8")
    return True
