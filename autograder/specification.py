"""A task, declared once in its hidden suite: what the student defines, what needle must not
contribute, the contract as the notebook states it, and the ladder that checks it.

::

    TASK_1_1 = Task("1.1", names=["count_graph_nodes"], own_work=GRAPH_WALKS,
                    contract="the number of distinct nodes reachable from t through .inputs, t included",
                    rungs=[Rung("a leaf", given="t = ndl.Tensor([1.0])", call="count_graph_nodes(t)", expect=1)])
    declare(globals(), TASK_1_1)

    @TASK_1_1.rung("a chain 100,000 ops deep", points=2)
    def test_count_deep_chain(observe): ...

The ladder is the task's rungs in order: its data rungs (``coursekit.ladder.Rung``: public input,
value derived by hand; those marked visible are the notebook's visible tests too), then the
rungs written as test functions, in the order the suite defines them. The first rung that fails
gives the task's one message (``plugin``); a rung after it that fails too points back to it.
Everything else reads this declaration: the plugin (own work, rungs), selfcheck (points against
the grade cells, the rung each mistake stops at), and the release's tasks.json (``manifest``),
from which the visible test cells and the notebook's helpers read what they need.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest

from coursekit.ladder import Rung, message, plain_or_none, problem, raised
from . import probing
from .suite import StudentCodeError, graded


@dataclass
class Task:
    id: str
    names: list[str]
    contract: str
    own_work: list[str] = field(default_factory=list)
    rungs: list[Rung] = field(default_factory=list)
    label: str = ""  # what "must be your own ..." names; the first name by default
    hidden: list[tuple[str, float]] = field(default_factory=list)  # (name, points) of the rungs written as tests
    uses: list[str] = field(default_factory=list)  # the tasks whose answers this one calls (9.2 calls 9.1's)

    def rung(self, name: str, points: float):
        """Mark a test function as the next rung of this task's ladder."""
        number = len(self.rungs) + len(self.hidden) + 1
        if any(name == r.name for r in self.rungs) or any(name == n for n, _ in self.hidden):
            raise ValueError(f"Task {self.id} has two rungs named {name!r}")
        self.hidden.append((name, points))

        def mark(fn):
            fn = graded(self.id, points)(fn)
            fn.__doc__ = name
            return pytest.mark.rung(number, name)(fn)

        return mark

    @property
    def points(self) -> float:
        return sum(r.points for r in self.rungs) + sum(p for _, p in self.hidden)

    def public(self) -> dict:
        """What the release's tasks.json holds of this task."""
        return {"names": list(self.names), "label": self.label or self.names[0], "points": self.points, "own_work": list(self.own_work),
                "contract": self.contract, "rungs": [r.public() for r in self.rungs if r.visible],
                "hidden": [r.name for r in self.rungs if not r.visible] + [n for n, _ in self.hidden],
                "uses": list(self.uses)}


def declare(module: dict, *tasks: Task) -> dict[str, Task]:
    """Put the suite's declarations where the grader reads them: ``TASKS``, ``OWN_WORK`` and one
    test per data rung (before the suite's own tests, so the ladder runs from its foot)."""
    module["TASKS"] = {t.id: t for t in tasks}
    module["OWN_WORK"] = {t.id: (t.public()["label"], list(t.own_work)) for t in tasks if t.own_work}
    for task in tasks:
        for number, rung in enumerate(task.rungs, 1):
            if rung.visible and not all(r.visible for r in task.rungs[:number - 1]):
                # the visible cell numbers the rungs it climbs 1, 2, ...: the grader's numbers must be the same
                raise ValueError(f"Task {task.id}, rung {number} ({rung.name}) is visible after a hidden rung: "
                                 "the visible rungs come first, the hidden ones after them")
            test = _data_rung_test(task, number, rung)
            module[test.__name__] = test
    return module["TASKS"]


def _probe_for(task: Task):
    """The data rungs' probe (the worker serves it as ``run_rung``), naming the task's definitions
    for the message when one is missing."""
    def run_rung(ns, **params):
        return probing.run_rung(ns, **params)

    run_rung.needs = tuple(task.names)
    return run_rung


def _data_rung_test(task: Task, number: int, rung: Rung):
    if rung.visible and rung.points:
        raise ValueError(f"Task {task.id}, rung {number} ({rung.name}) is visible and worth {rung.points:g} points: a "
                         "visible rung's input and answer are public, so it gives feedback only (points=0); check the "
                         "behaviour for points in a hidden rung, on inputs drawn for each submission")
    if not rung.visible and not rung.points > 0:
        raise ValueError(f"Task {task.id}, rung {number} ({rung.name}) is hidden and worth no points")
    run_rung = _probe_for(task)

    def test(observe):
        try:
            got = observe(run_rung, rung=rung.public(), names=list(task.names))
        except StudentCodeError as exc:
            raise StudentCodeError(raised(task.id, number, rung, str(exc)), exc.reason) from None
        got = plain_or_none(got)
        assert not problem(rung, got), message(task.id, number, rung, got)

    test.__name__ = f"test_{task.id.replace('.', '_')}_rung{number}_{re.sub(r'[^a-z0-9]+', '_', rung.name.lower()).strip('_')}"
    test.__doc__ = rung.name
    test = graded(task.id, rung.points, feedback_only=rung.visible)(test)
    return pytest.mark.rung(number, rung.name)(test)
