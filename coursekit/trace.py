"""Which of needle's own functions does a piece of code run?

>>> import needle as ndl
>>> from coursekit.trace import needle_calls
>>> x = ndl.Tensor([1.0, 2.0])
>>> needle_calls(lambda: (x * x).sum().backward(), ["needle.autograd.compute_gradient_of_variables"])
['needle.autograd.compute_gradient_of_variables']

Names are needle's own: a function (``needle.autograd.find_topo_sort``), a class (every
method of it: ``needle.optim.SGD``) or a module (every function in it: ``needle.optim``).
The course's tests use it to check that a task is answered with your own code rather than
needle's implementation of the same thing. ``default_recursion_limit()`` runs code as the grader
does: under Python's default recursion limit, which ``sys.setrecursionlimit`` does not change.
"""
from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import sys
import types


def needle_object(name: str):
    """The needle module, class or function called ``name``."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            # a class's own attribute as it is stored (a classmethod, not the method bound to the class)
            obj = inspect.getattr_static(obj, attr) if isinstance(obj, type) else getattr(obj, attr)
        return obj
    raise ValueError(f"{name!r} is not a needle module, class or function")


def is_needle_name(name: str) -> bool:
    return name.split(".")[0] == "needle"


def declared_object(name: str):
    """What a task's declaration ``name`` covers: needle's module, class or function (imported
    if need be), or another library's function found among the modules already imported (None
    when its module is not: a library nobody imported has nothing to refuse)."""
    if is_needle_name(name):
        return needle_object(name)
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        obj = sys.modules.get(".".join(parts[:cut]))
        if obj is None:
            continue
        for attr in parts[cut:]:
            obj = vars(obj).get(attr) if isinstance(obj, types.ModuleType) else getattr(obj, attr, None)
            if obj is None:
                return None
        return obj
    return None


def compiled(obj) -> bool:
    """A callable with no Python code to swap (a numpy ufunc, a built-in function): refused by
    replacing it wherever a module binds it (``rebind``)."""
    return obj is not None and callable(obj) and not isinstance(obj, (type, types.ModuleType, types.FunctionType,
                                                                      property, staticmethod, classmethod))


class RefusedStandIn:
    """Where a module bound a refused compiled function: calling it or taking any attribute of
    it (``np.logaddexp.reduce``) raises Refused(name)."""

    __slots__ = ("_refused_name",)

    def __init__(self, name: str):
        object.__setattr__(self, "_refused_name", name)

    def _refuse(self, *args, **kwargs):
        raise Refused(object.__getattribute__(self, "_refused_name"))

    __getattr__ = __setattr__ = __call__ = _refuse

    def __repr__(self) -> str:
        return f"<refused {object.__getattribute__(self, '_refused_name')}>"


def rebind(obj, replacement) -> list[tuple[dict, str]]:
    """Bind ``replacement`` in place of ``obj`` under every name of every imported module that
    binds ``obj`` (by identity: ``numpy.logaddexp`` is ``numpy._core.umath.logaddexp``); returns
    those (namespace, name) places."""
    places = []
    for module in list(sys.modules.values()):
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        for key, value in list(namespace.items()):
            if value is obj:
                namespace[key] = replacement
                places.append((namespace, key))
    return places


def functions(obj) -> list[types.FunctionType]:
    """The Python functions ``obj`` (a function, property, class or module) is made of."""
    if isinstance(obj, types.FunctionType):
        return [obj]
    if isinstance(obj, property):
        return [f for f in (obj.fget, obj.fset, obj.fdel) if isinstance(f, types.FunctionType)]
    if isinstance(obj, (staticmethod, classmethod)):
        return functions(obj.__func__)
    if isinstance(obj, type):
        return [f for value in list(vars(obj).values()) for f in functions(value)]
    if isinstance(obj, types.ModuleType):
        return [f for value in _own_members(obj) for f in functions(value)]
    return []


def classes(obj) -> list[type]:
    """The classes ``obj`` (a class or module) covers."""
    if isinstance(obj, type):
        return [obj]
    if isinstance(obj, types.ModuleType):
        return [v for v in _own_members(obj) if isinstance(v, type)]
    return []


def _own_members(module: types.ModuleType) -> list:
    return [v for v in list(vars(module).values()) if getattr(v, "__module__", None) == module.__name__
            and isinstance(v, (type, types.FunctionType))]


def needle_calls(run, names: list[str]) -> list[str]:
    """Call ``run()`` and return which of ``names`` had code running during it, in the order they
    were first called (the first is the one the grader's worker refuses: it raises at its first
    call); ``run``'s result is discarded; its exceptions propagate."""
    targets, codes = {}, []  # by identity: an equal-looking code object of yours is not needle's
    for name in names:
        for fn in functions(declared_object(name)):
            codes.append(fn.__code__)
            targets.setdefault(id(fn.__code__), name)
    seen: dict[str, None] = {}

    def profile(frame, event, arg):
        if event == "call" and id(frame.f_code) in targets:
            seen.setdefault(targets[id(frame.f_code)], None)

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(previous)
    return list(seen)


# --- refusing: needle's implementation made unusable for a while ----------------------------------
PLACEHOLDER = "__needle_refused__"  # in a stub's constants, replaced by the Refused it raises


class Refused(BaseException):
    """needle's implementation of the task being graded was reached. A BaseException, so that a
    student's ``except Exception`` does not turn it into a wrong answer with another message."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


@functools.lru_cache(maxsize=None)
def stub_code(name: str, freevars: tuple[str, ...]) -> types.CodeType:
    """Code of ``def f(*args, **kwargs): raise Refused(name)`` with ``freevars`` (so it fits any
    function of ``name``). The exception is one of the code's constants: the stub looks up no
    name, so a copy of this code in a function with other globals raises the same."""
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
        raise ValueError(f"cannot refuse {name}: free variables {freevars} in another order")
    refused = Refused(name)
    return code.replace(co_consts=tuple(refused if c == PLACEHOLDER else c for c in code.co_consts))


def refuse_class(cls: type, name: str) -> None:
    """``cls(...)`` and ``class X(cls)`` raise Refused(name) from now on."""
    def refuse(*args, **kwargs):
        raise Refused(name)

    cls.__init__ = refuse
    cls.__init_subclass__ = classmethod(refuse)


@contextlib.contextmanager
def refusing(names: list[str]):
    """Inside the block, every function ``names`` cover raises ``Refused(name)`` when called (each
    alias and bound method too: the function objects keep their identity, only their code is
    swapped), and their classes refuse instantiation and subclassing; all is restored after.

    The in-process counterpart of the grader's excision (which is permanent, in a worker that
    will hold student code): costs nothing per call, where tracing every call (needle_calls)
    makes code several times slower."""
    swapped: list = []
    rebound: list = []
    unset = object()
    try:
        for name in names:
            obj = declared_object(name)
            if compiled(obj):
                rebound += [(place, obj) for place in rebind(obj, RefusedStandIn(name))]
            for fn in functions(obj):
                if not fn.__code__.co_filename.startswith("<excised"):
                    swapped.append((fn, "__code__", fn.__code__))
                    fn.__code__ = stub_code(name, fn.__code__.co_freevars)
            for cls in classes(obj):
                for attr in ("__init__", "__init_subclass__"):
                    swapped.append((cls, attr, vars(cls).get(attr, unset)))
                refuse_class(cls, name)
        yield
    finally:
        for (namespace, key), original in reversed(rebound):
            namespace[key] = original
        for owner, attr, original in reversed(swapped):
            if attr == "__code__":  # a raised Refused keeps its last traceback: let its frames go
                for const in owner.__code__.co_consts:
                    if isinstance(const, Refused):
                        const.__traceback__ = const.__context__ = None
            if original is unset:
                delattr(owner, attr)
            else:
                setattr(owner, attr, original)


# The deep-chain tests mean Python's default recursion limit: the grader's worker makes
# sys.setrecursionlimit do nothing, for good; visible tests and the in-kernel route do the same
# inside ``default_recursion_limit()``. A no-op rather than an error: a recursive walk then
# loses what a recursive walk loses, the deep chain, with the same hint.
DEFAULT_RECURSION_LIMIT = 1000


def ignore_recursion_limit_change(limit) -> None:
    return None


@contextlib.contextmanager
def default_recursion_limit():
    """Inside the block: Python's default recursion limit (or the current one, when lower), which
    sys.setrecursionlimit does not change, as in the grader; both are put back after."""
    setter, before = sys.setrecursionlimit, sys.getrecursionlimit()
    setter(min(before, DEFAULT_RECURSION_LIMIT))
    sys.setrecursionlimit = ignore_recursion_limit_change
    try:
        yield
    finally:
        sys.setrecursionlimit = setter
        setter(before)
