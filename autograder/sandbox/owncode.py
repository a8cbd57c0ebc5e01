"""Which of needle's own implementations ran: the sandbox's evidence of delegation.

needle ships to students and holds a working counterpart of most tasks. Before any student
code exists (in the zygote), every function of needle gets a one-line prologue that advances
a counter of its own, ``__needle_runs__[i].__next__()``: the function object stays the same
(its ``__code__`` is replaced in place), so aliases, subclasses, ``super()`` calls, bound
methods and copied references all count. A counter is an ``itertools.count``: it can be
advanced but never reset, so student code can only add evidence against itself. The sandbox
also refuses, after start-up, to build functions or code objects (``function.__new__``,
``code.__new__``, ``marshal.loads``) and to read needle's source files, so needle's code
cannot run except through these functions.

Names are needle's own: ``needle.optim.SGD.step`` (a function), ``needle.optim.SGD`` (every
function of the class), ``needle.optim`` (every function of the module).
"""
from __future__ import annotations

import ast
import inspect
import itertools
import linecache
import sys
import textwrap
import types

COUNTERS = "__needle_runs__"


class Registry:
    """Counters and names of every instrumented needle function."""

    def __init__(self):
        self.names: list[str] = []  # index -> "module.qualname"
        self.counters: list = []
        self.classes: dict[str, type] = {}  # "module.qualname" of each needle class

    def indices(self, name: str) -> list[int]:
        """Counter indices of the function, class or module called ``name``."""
        return [i for i, n in enumerate(self.names) if n == name or n.startswith(name + ".")]

    def read(self, indices) -> list[int]:
        """Current values (``repr`` of a count is "count(n)": reading does not advance it)."""
        return [int(repr(self.counters[i])[6:-1]) for i in indices]


def _functions(module) -> list[tuple[str, types.FunctionType]]:
    """(qualified name, function) of every function defined in ``module``, methods included
    (plain, static, class and property accessors), each function once."""
    found, seen = [], set()

    def add(obj):
        obj = inspect.unwrap(obj) if callable(obj) else obj
        if isinstance(obj, types.FunctionType) and obj.__module__ == module.__name__ and id(obj) not in seen \
                and not obj.__code__.co_filename.startswith("<"):  # generated (dataclass methods): no source
            seen.add(id(obj))
            found.append((f"{module.__name__}.{obj.__qualname__}", obj))

    for value in list(vars(module).values()):
        if isinstance(value, type) and value.__module__ == module.__name__:
            for attr in vars(value).values():
                if isinstance(attr, (staticmethod, classmethod)):
                    attr = attr.__func__
                if isinstance(attr, property):
                    for accessor in (attr.fget, attr.fset, attr.fdel):
                        add(accessor)
                else:
                    add(attr)
        else:
            add(value)
    return found


def _instrumented_code(fn: types.FunctionType, index: int) -> types.CodeType:
    """``fn``'s code, recompiled from its source with the counter prologue first."""
    lines, first = inspect.getsourcelines(fn)
    tree = ast.parse(textwrap.dedent("".join(lines)))
    node = tree.body[0]
    assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == fn.__name__
    node.decorator_list = []  # only the function's own code is wanted
    prologue = ast.parse(f"{COUNTERS}[{index}].__next__()").body[0]
    node.body.insert(0, prologue)
    if fn.__code__.co_freevars == ("__class__",):  # uses super(): compile it inside a class
        tree.body = [ast.ClassDef(name="_Owner", bases=[], keywords=[], body=[node], decorator_list=[])]
    elif fn.__code__.co_freevars:
        raise ValueError(f"{fn.__qualname__} is a closure: cannot instrument it")
    ast.fix_missing_locations(tree)
    ast.increment_lineno(tree, first - 1)
    for n in ast.walk(prologue):
        n.lineno = n.end_lineno = node.lineno
    code = compile(tree, fn.__code__.co_filename, "exec")
    if fn.__code__.co_freevars:
        code = next(c for c in code.co_consts if isinstance(c, types.CodeType) and c.co_name == "_Owner")
    return next(c for c in code.co_consts if isinstance(c, types.CodeType) and c.co_name == fn.__name__)


def instrument(package: str = "needle") -> Registry:
    """Give every function of ``package`` (all of its modules must be imported) a counter."""
    registry = Registry()
    modules = sorted((name, m) for name, m in sys.modules.items()
                     if isinstance(m, types.ModuleType) and (name == package or name.startswith(package + ".")))
    for _, module in modules:
        for name, value in vars(module).items():
            if isinstance(value, type) and value.__module__ == module.__name__:
                registry.classes[f"{module.__name__}.{value.__qualname__}"] = value
        for name, fn in _functions(module):
            index = len(registry.names)
            registry.names.append(name)
            registry.counters.append(itertools.count())
            fn.__code__ = _instrumented_code(fn, index)
    counters = tuple(registry.counters)
    for _, module in modules:
        setattr(module, COUNTERS, counters)
    linecache.clearcache()  # needle's source stays out of the worker's memory
    return registry
