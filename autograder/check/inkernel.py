"""The nbgrader route: run a task's hidden tests inside the notebook's own kernel.

A hidden test block in a solution notebook is one call::

    from autograder.check.inkernel import check_task
    check_task("1.1", globals())

It finds the assignment (the folder the notebook runs in, as in nbgrader's layouts) and the
notebook (the suite that declares the task), runs that task's hidden tests with the probes
called directly on the notebook's namespace, and raises AssertionError listing what failed
(nbgrader then gives the cell 0 points). Weaker than the grader: the student's code shares
the process with the tests, so it could tamper with them. Use ``python -m autograder grade``
for grades that count. Nothing of the sandbox is imported here.
"""
from __future__ import annotations

import builtins
import contextlib
import os
import warnings
from pathlib import Path

from .. import plaindata
from ..course import Assignment, Course
from ..importable import KERNEL_IMPORTABLE, Unavailable, foreign_module
from ..plugin import GradingPlugin
from ..probing import Missing
from ..suite import Delegated, StudentCodeError, describe_outcome
from ..suiterun import collect_tests, run_suite


def _needle_classes(names: list[str]) -> list[tuple[str, type]]:
    """(name, class) of every needle class a name covers (itself, or those of a module)."""
    import types

    from coursekit.trace import declared_object

    out = []
    for name in names:
        obj = declared_object(name)
        if isinstance(obj, type):
            out.append((name, obj))
        elif isinstance(obj, types.ModuleType):
            out += [(name, v) for v in vars(obj).values() if isinstance(v, type) and v.__module__ == obj.__name__]
    return out


@contextlib.contextmanager
def grader_imports(namespace: dict | None = None):
    """Inside the block, importing a module the grader's worker could not import (scipy, ...)
    raises ModuleNotFoundError, as there, even when this process has it loaded already; and the
    names of ``namespace`` that hold such a module or something of one (``plt``, a figure) stand
    for it (importable.Unavailable), as the worker binds them when the import fails there."""
    original = builtins.__import__

    def guarded(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name.partition(".")[0] not in KERNEL_IMPORTABLE:
            raise ModuleNotFoundError(f"No module named '{name}'", name=name)
        return original(name, globals, locals, fromlist, level)

    foreign = {}
    for name, value in list((namespace or {}).items()):
        module = foreign_module(value)
        if module:
            foreign[name] = value
            namespace[name] = Unavailable(module)
    builtins.__import__ = guarded
    try:
        yield
    finally:
        builtins.__import__ = original
        if namespace is not None:
            namespace.update(foreign)


class LocalObserver:
    """Runs probes in this process against ``namespace`` (a kernel, or selfcheck). Needle's own
    implementation of the task is refused as in the sandbox, but only while the probe runs
    (``coursekit.trace.refusing``: its code raises, then is put back), and a definition that is,
    or derives from, needle's class is noticed when the probe takes it. Probes run under Python's
    default recursion limit, which sys.setrecursionlimit does not change, and import only what the
    sandbox's worker can (numpy, needle, the standard library's common modules: importable.py)."""

    def __init__(self, namespace: dict):
        self.namespace = namespace

    def __call__(self, probe, deadline: float, own_work: list[str], params: dict):
        from coursekit.trace import Refused, default_recursion_limit, refusing

        from .. import probing

        classes, hits = _needle_classes(own_work), []

        def watch(name, value):
            hits.extend(n for n, cls in classes if value is cls or (isinstance(value, type) and issubclass(value, cls)))

        probing.watchers.append(watch)
        try:
            # warnings as the worker (and a kernel) has them: printed, never raised, whatever filters the
            # caller set (the project's tests make needle's RuntimeWarnings errors)
            with refusing(own_work), default_recursion_limit(), grader_imports(self.namespace), warnings.catch_warnings():
                warnings.simplefilter("default")
                result = self._run(probe, params)
        except Refused as refused:  # needle's own implementation was reached: that decides
            raise Delegated(refused.name) from None
        except StudentCodeError:
            if hits:  # needle's class taken as the answer: that decides, whatever came of it
                raise Delegated(hits[0]) from None
            raise
        finally:
            probing.watchers.remove(watch)
        if hits:
            raise Delegated(hits[0])
        return result

    def memory(self, probe, deadline: float, own_work: list[str], params: dict):
        """(value, peak bytes allocated during the call), by tracemalloc (numpy reports its
        buffers to it): in a kernel the process is shared, so RSS would say little."""
        import tracemalloc

        started = not tracemalloc.is_tracing()
        if started:
            tracemalloc.start()
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        try:
            value = self(probe, deadline, own_work, params)
            return value, max(0, tracemalloc.get_traced_memory()[1] - base)
        finally:
            if started:
                tracemalloc.stop()

    def _run(self, probe, params: dict):
        try:
            value = probe(self.namespace, **plaindata.from_plain(plaindata.to_plain(params)))
            return plaindata.from_plain(plaindata.loads(plaindata.dumps(plaindata.to_plain(value))))
        except Missing as exc:
            raise StudentCodeError(describe_outcome("missing", exc.name, probe.needs)) from None
        except plaindata.EncodeError:
            raise StudentCodeError(describe_outcome("unencodable", None, probe.needs)) from None
        except Exception as exc:
            raise StudentCodeError(_raised(exc), "raised") from None


def _raised(exc: BaseException) -> str:
    """The grader's message for an exception raised in the notebook's own cells."""
    from coursekit.hints import hint_for

    from ..suite import KNOWN_EXCEPTIONS

    text = hint_for(exc)
    kind = type(exc).__name__
    return text if kind in KNOWN_EXCEPTIONS else text.replace(f"raised {kind}", "raised an exception", 1)


def locate_task(task: str, where: Path | None = None) -> tuple[Assignment, str]:
    """The assignment and notebook of ``task``: the assignment is the folder the notebook runs
    in (nbgrader runs it in solutions/<a>/, autograded/<student>/<a>/ ...) or else the only
    assignment declaring the task; the notebook is the one whose suite declares it."""
    where = Path(where or os.getcwd()).resolve()
    course = Course.locate()
    candidates = [where.name] if where.name in course.assignments() else course.assignments()
    found = []
    for name in candidates:
        assignment = course.assignment(name)
        for notebook in assignment.notebooks():
            if any(t == task for _, _, t, _ in collect_tests(assignment.suite(notebook))):
                found.append((assignment, notebook))
    if len(found) != 1:
        raise RuntimeError(f"Task {task}: {'no' if not found else 'more than one'} hidden suite declares it (ask your instructor)")
    return found[0]


def check_task(task: str, namespace: dict, timeout: float = 120.0) -> None:
    assignment, notebook = locate_task(task)
    plugin = GradingPlugin(LocalObserver(namespace), tasks={task}, timeout=timeout)
    run_suite(assignment.suite(notebook), plugin)
    failed = [r for r in plugin.results if r.status != "passed"]
    total = sum(r.points for r in plugin.results)
    score = sum(r.score for r in plugin.results)
    print(f"Task {task}: hidden tests {len(plugin.results) - len(failed)}/{len(plugin.results)} passed ({score:g}/{total:g} points)")
    if failed:
        lines = "\n".join(f"  - {r.name}: {r.message}" for r in failed)
        raise AssertionError(f"Task {task}: {len(failed)} hidden test(s) failed:\n{lines}")
