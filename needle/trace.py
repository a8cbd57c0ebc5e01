"""Which of needle's own functions does a piece of code run?

>>> import needle as ndl
>>> from needle.trace import needle_calls
>>> x = ndl.Tensor([1.0, 2.0])
>>> needle_calls(lambda: (x * x).sum().backward(), ["needle.autograd.compute_gradient_of_variables"])
['needle.autograd.compute_gradient_of_variables']

Names are needle's own: a function (``needle.autograd.find_topo_sort``), a class (every
method of it: ``needle.optim.SGD``) or a module (every function in it: ``needle.optim``).
The course's tests use it to check that a task is answered with your own code rather than
needle's implementation of the same thing.
"""
from __future__ import annotations

import importlib
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
            obj = getattr(obj, attr)
        return obj
    raise ValueError(f"{name!r} is not a needle module, class or function")


def _functions(obj) -> list[types.FunctionType]:
    if isinstance(obj, types.FunctionType):
        return [obj]
    if isinstance(obj, property):
        return [f for f in (obj.fget, obj.fset, obj.fdel) if f is not None]
    if isinstance(obj, (staticmethod, classmethod)):
        return [obj.__func__]
    if isinstance(obj, type):
        return [f for value in vars(obj).values() for f in _functions(value)]
    if isinstance(obj, types.ModuleType):
        own = [v for v in vars(obj).values() if getattr(v, "__module__", None) == obj.__name__]
        return [f for value in own for f in _functions(value)]
    return []


def needle_calls(run, names: list[str]) -> list[str]:
    """Call ``run()`` and return which of ``names`` had code running during it, in the order
    given (``run``'s result is discarded; its exceptions propagate)."""
    targets, codes = {}, []  # by identity: an equal-looking code object of yours is not needle's
    for name in names:
        for fn in _functions(needle_object(name)):
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
    return [name for name in names if name in seen]
