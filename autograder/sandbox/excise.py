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

A task's declaration also names other libraries' functions that do its job (numpy's
``logaddexp``: a logsumexp in one call). A Python one (scipy's ``logsumexp``) is refused as
needle's are; a compiled one (a ufunc, a built-in) has no code to swap, so every module that
binds it binds a stand-in that raises ``Refused(name)`` instead, and the worker drops the last
reference to the original (numpy's ``logaddexp`` is then freed). A library the zygote did not
import is not in the worker at all.
"""
from __future__ import annotations

import ctypes
import sys
import types

from coursekit.trace import RefusedStandIn, Refused, classes, compiled, declared_object, functions, rebind, refuse_class, stub_code

__all__ = ["Refused", "excise"]


def _scrub(code: types.CodeType) -> None:
    """Overwrite the bytecode of ``code`` and of every code object nested in it with zeros (the
    object is about to be released: its memory must not keep the algorithm)."""
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _scrub(const)
    cached = code.co_code  # 3.11 caches this bytes copy on the code object: scrub it too
    ctypes.memset(id(cached) + sys.getsizeof(b"") - 1, 0, len(cached))
    ctypes.memset(id(code) + type(code).__basicsize__, 0, len(cached))


def excise(names: list[str]) -> list[str]:
    """Remove what ``names`` cover (needle modules, classes, functions, properties; other
    libraries' functions); returns the qualified names of what was removed."""
    removed, stubs = [], {}
    for name in names:
        obj = declared_object(name)
        if compiled(obj):
            if rebind(obj, RefusedStandIn(name)):
                removed.append(name)
            del obj  # the modules' references are gone: the original goes with this one
            continue
        for fn in functions(obj):
            if fn.__code__.co_filename.startswith("<excised"):
                continue  # covered by an earlier name
            qualified = f"{fn.__module__}.{fn.__qualname__}"
            key = (name, fn.__code__.co_freevars)
            if key not in stubs:
                stubs[key] = stub_code(name, fn.__code__.co_freevars)
            original = fn.__code__
            fn.__code__ = stubs[key]
            if sys.getrefcount(original) == 2:  # this frame's reference and the call's: no other holder
                _scrub(original)
            del original
            removed.append(qualified)
        for cls in classes(obj):
            refuse_class(cls, name)
    return removed
