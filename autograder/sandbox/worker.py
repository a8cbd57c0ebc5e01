"""The sandboxed worker: loads one student's notebook code and answers probe requests.

Forked from the zygote (``zygote.py``), which has imported numpy and needle. Before any student
code runs, the worker removes needle's implementation of the task being graded (``excise``),
confines itself (``confine``) and loads the probes; then it runs the notebook's cells and
answers requests with plain data (``plaindata``). Its stdout and stderr go nowhere.

Student code shares this process and can read and rewrite all of its memory, so nothing here is
a secret and nothing here decides a point: every reply is a claim about the student's own code,
which the trusted side judges against values it computes itself.
"""
from __future__ import annotations

import ast
import builtins
import sys
import types

from coursekit.hints import classify
from coursekit.trace import ignore_recursion_limit_change

from .. import importable, plaindata, probing
from ..notebook import strip_magics
from ..probing import Missing
from . import confine, excise, protocol


def _defines(statement: ast.stmt) -> list[str]:
    """Names a top-level statement binds (def, class, import, plain assignment)."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [statement.name]
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in statement.names]
    if isinstance(statement, (ast.Assign, ast.AnnAssign)):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    return []


def _imports(statement: ast.stmt) -> list[tuple[str, str]]:
    """(name bound, module imported) of an import statement; [] for any other statement."""
    if isinstance(statement, ast.Import):
        return [(a.asname or a.name.split(".")[0], a.name if a.asname else a.name.split(".")[0]) for a in statement.names]
    if isinstance(statement, ast.ImportFrom) and statement.level == 0 and statement.module:
        return [(a.asname or a.name, statement.module) for a in statement.names]
    return []


def _compile_cell(index: int, source: str):
    """The cell as a list of (code, names it defines, what it imports), one per top-level
    statement, or None when it does not compile (it then defines nothing, as in a kernel)."""
    import __future__

    try:
        tree = ast.parse(strip_magics(source), f"<cell {index}>")
        out, flags = [], 0
        for statement in tree.body:
            if isinstance(statement, ast.ImportFrom) and statement.module == "__future__":  # applies to the rest too
                for alias in statement.names:
                    flags |= getattr(getattr(__future__, alias.name, None), "compiler_flag", 0)
            out.append((compile(ast.Module([statement], []), f"<cell {index}>", "exec", flags=flags, dont_inherit=True),
                        _defines(statement), _imports(statement)))
        return out
    except (SyntaxError, ValueError, OverflowError, MemoryError, RecursionError):
        return None


def _stand_in(ns: dict, defines: list[str], imports: list[tuple[str, str]], missing) -> None:
    """After a statement failed on a module the grader does not provide (matplotlib at the top of
    a cell, a plot before a definition): what it would have bound stands for that module, so the
    cell goes on, as it did in the kernel, and only a use of those names fails, at its line."""
    modules = dict(imports)
    for name in defines:
        module = modules.get(name) or (missing if isinstance(missing, str) and missing else "?")
        bound = ns.get(name)
        if not (isinstance(bound, types.ModuleType) and bound.__name__ == module):  # `import os, scipy` keeps os
            ns[name] = importable.Unavailable(module.partition(".")[0])


def _refused_name(exc: BaseException) -> str:
    """The needle name if needle's excised implementation was reached (directly, or by code
    that caught the refusal and raised something else), else ""."""
    seen = 0
    while exc is not None and seen < 20:
        if isinstance(exc, excise.Refused):
            return exc.name if type(exc.name) is str else ""
        exc, seen = exc.__context__, seen + 1
    return ""


# Taken before any student code runs (a submission may rebind the names in builtins).
_BUILTIN_EXCEPTIONS = {name: value for name, value in vars(builtins).items()
                       if isinstance(value, type) and issubclass(value, BaseException)}


def _forget_the_grader() -> None:
    """Drop the grader's modules from sys.modules once the probes are loaded: what runs keeps its
    references, but student code cannot import them (Landlock refuses reading them again). Its
    graph digest is a complete graph walk, and confine's handle on libc makes raw system calls
    without importing ctypes: neither is the student's to use."""
    for name in [name for name in sys.modules if name == "autograder" or name.startswith("autograder.")]:
        del sys.modules[name]


def main(argv: list[str]) -> int:
    in_fd, out_fd = int(argv[0]), int(argv[1])
    request = protocol.receive(in_fd)
    excise.excise(request.get("excise") or [])  # first: nothing of the student's exists yet
    enforced = confine.apply(request["scratch"], request.get("uid"))
    sys.setrecursionlimit = ignore_recursion_limit_change  # the deep-chain tests mean Python's default
    probes = types.ModuleType("probes")
    exec(compile(request["probes"], "<probes>", "exec"), probes.__dict__)
    handlers = {name: fn for name, fn in vars(probes).items() if callable(fn) and hasattr(fn, "needs")}
    handlers.setdefault("run_rung", probing.run_rung)  # a task's data rungs, served for every suite
    _forget_the_grader()
    importable.refuse_unloaded()  # the same modules whoever runs the grader
    skip = set(request.get("skip", []))
    cells = [(i, source) for i, source in enumerate(request["cells"]) if i not in skip]
    del request
    serve(lambda message: protocol.send(out_fd, message), in_fd, cells, handlers, enforced)
    return 0


def serve(send, in_fd, cells, handlers, enforced) -> None:
    """Say ready, wait for the go (the grader reads this process's resting memory meanwhile,
    before any student code is touched), then compile and run each cell after naming it: from
    that event on, whatever happens (a compile that never ends included) is that cell's."""
    send({"event": "ready", "enforced": enforced})
    protocol.receive(in_fd)
    ns = {"__name__": "__main__"}
    for index, source in cells:
        send({"event": "cell", "index": index})
        for code, defines, imports in _compile_cell(index, source) or ():
            try:
                exec(code, ns)
            except BaseException as exc:  # SystemExit, KeyboardInterrupt included: the cell's definitions so far stay
                refused = _refused_name(exc)
                if not refused:
                    if type(exc) is ModuleNotFoundError:  # a module the kernel had and the grader lacks
                        _stand_in(ns, defines, imports, exc.name)  # that statement alone is lost
                        continue
                    break  # as in a kernel, the rest of the cell does not run
                # A statement that reached for what this worker removed (a demo line calling
                # needle's backward, a class deriving from needle's): that statement alone is
                # lost; the names it would have defined are reported with needle's name.
                send({"event": "refused", "index": index, "name": refused, "defines": defines})
    send({"event": "loaded"})
    while True:
        try:
            request = protocol.receive(in_fd)
        except protocol.ChannelClosed:
            return
        try:
            send(answer(request, ns, handlers))
        except (plaindata.EncodeError, ValueError, TypeError):
            send({"unencodable": True})


def answer(request, ns, handlers) -> dict:
    probe = handlers.get(request.get("probe")) if isinstance(request, dict) else None
    if probe is None:
        return {"crashed": True}
    try:
        value = probe(ns, **plaindata.from_plain(request.get("params") or {}))
    except Missing as exc:
        return {"missing": exc.name}
    except BaseException as exc:
        refused = _refused_name(exc)
        if refused:
            return {"delegated": refused}
        kind = type(exc)
        builtin = kind is _BUILTIN_EXCEPTIONS.get(kind.__name__)  # not a class of the submission's so named
        return {"raised": kind.__name__ if builtin else "", "info": classify(exc)}
    return {"ok": plaindata.to_plain(value)}
