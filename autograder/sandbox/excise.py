"""Remove needle's own implementation of a task from the worker before student code exists.

While task N.M is graded, the worker that runs the student's code must not hold needle's
implementation of that task (the suite's ``OWN_WORK``): not as a callable, not as code that an
alias, a subclass, a copied ``__code__`` or raw-memory tricks could reach. Detection inside the
student's process can always be defeated; absence cannot. So, in the freshly forked worker and
before the first student cell:

* every function the names cover gets a stub ``__code__`` (same free variables) that raises
  ``Refused(name)``; the function object stays, so every alias and bound method sees the stub;
* the original code objects (and the code objects nested in them) have their bytecode
  overwritten with zeros, then are released: nothing of them is left to resurrect;
* every class the names cover also refuses to be instantiated or subclassed (a class with no
  code of its own, such as a marker subclass, is otherwise still "the implementation").

needle's source files are not readable in the worker (Landlock), and the zygote never read
them explicitly, so no source text waits in its memory either.
"""
from __future__ import annotations

import ctypes
import sys
import types

from needle.trace import needle_object

PLACEHOLDER = "__needle_refused__"  # in the stub's constants, replaced by the Refused it raises


class Refused(BaseException):
    """needle's implementation of the task being graded was reached. A BaseException, so that a
    student's ``except Exception`` does not turn it into a wrong answer with another message."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def _stub_code(name: str, freevars: tuple[str, ...]) -> types.CodeType:
    """Code of ``def f(*args, **kwargs): raise Refused(name)`` with ``freevars``. The exception
    is one of the code's constants: the stub looks up no name, so a copy of this code in a
    function with other globals (a student's) raises the same."""
    body = f"        ({', '.join(freevars)},)\n" if freevars else ""
    source = (
        "def _outer():\n"
        + "".join(f"    {v} = None\n" for v in freevars)
        + "    def stub(*args, **kwargs):\n"
        + body
        + f"        raise {PLACEHOLDER!r}\n"
        + "    return stub\n"
    )
    outer = compile(source, f"<excised {name}>", "exec").co_consts[0]
    code = next(c for c in outer.co_consts if isinstance(c, types.CodeType) and c.co_name == "stub")
    if code.co_freevars != freevars:
        raise ValueError(f"cannot excise {name}: free variables {freevars} in another order")
    refused = Refused(name)
    return code.replace(co_consts=tuple(refused if c == PLACEHOLDER else c for c in code.co_consts))


def _scrub(code: types.CodeType) -> None:
    """Overwrite the bytecode of ``code`` and of every code object nested in it with zeros (the
    object is about to be released: its memory must not keep the algorithm)."""
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _scrub(const)
    cached = code.co_code  # 3.11 caches this bytes copy on the code object: scrub it too
    ctypes.memset(id(cached) + sys.getsizeof(b"") - 1, 0, len(cached))
    ctypes.memset(id(code) + type(code).__basicsize__, 0, len(cached))


def _functions(obj) -> list[types.FunctionType]:
    if isinstance(obj, types.FunctionType):
        return [obj]
    if isinstance(obj, property):
        return [f for f in (obj.fget, obj.fset, obj.fdel) if isinstance(f, types.FunctionType)]
    if isinstance(obj, (staticmethod, classmethod)):
        return _functions(obj.__func__)
    if isinstance(obj, type):
        return [f for value in list(vars(obj).values()) for f in _functions(value)]
    if isinstance(obj, types.ModuleType):
        return [f for value in _own_members(obj) for f in _functions(value)]
    return []


def _own_members(module: types.ModuleType) -> list:
    return [v for v in list(vars(module).values()) if getattr(v, "__module__", None) == module.__name__
            and isinstance(v, (type, types.FunctionType))]


def _classes(obj) -> list[type]:
    if isinstance(obj, type):
        return [obj]
    if isinstance(obj, types.ModuleType):
        return [v for v in _own_members(obj) if isinstance(v, type)]
    return []


def _refusing_class(cls: type, name: str) -> None:
    """``cls(...)`` and ``class X(cls)`` raise Refused from now on."""
    def refuse(*args, **kwargs):
        raise Refused(name)

    cls.__init__ = refuse
    cls.__init_subclass__ = classmethod(refuse)


def excise(names: list[str]) -> list[str]:
    """Remove what ``names`` cover (needle modules, classes, functions, properties); returns
    the qualified names of the functions whose code was removed."""
    removed, stubs = [], {}
    for name in names:
        obj = needle_object(name)
        for fn in _functions(obj):
            if fn.__code__.co_filename.startswith("<excised"):
                continue  # covered by an earlier name
            qualified = f"{fn.__module__}.{fn.__qualname__}"
            key = (name, fn.__code__.co_freevars)
            if key not in stubs:
                stubs[key] = _stub_code(name, fn.__code__.co_freevars)
            original = fn.__code__
            fn.__code__ = stubs[key]
            if sys.getrefcount(original) == 2:  # this frame's reference and the call's: no other holder
                _scrub(original)
            del original
            removed.append(qualified)
        for cls in _classes(obj):
            _refusing_class(cls, name)
    return removed
