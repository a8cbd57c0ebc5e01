"""What student code can import while it is graded: numpy, needle and the standard library's
common modules, and nothing else, whoever runs the grader and wherever Python is installed.

The grader's zygote imports ``COMMON_MODULES`` before it forks the workers: a worker that runs
reads no file outside its scratch folder (Landlock), so a module the zygote did not load cannot
be imported in it at all. So that what fails says which module, a worker refuses every
top-level module the zygote did not load (``refuse_unloaded``); and the in-kernel route (nbgrader's
``check_task``, selfcheck) refuses, while a hidden test runs, what is not in
``KERNEL_IMPORTABLE`` (scipy, matplotlib, graphlib), so a student sees there what the grader
will do. graphlib is in no worker: Task 9.1 asks for the topological order itself.
"""
from __future__ import annotations

import sys
import types

COMMON_MODULES = (
    "math", "cmath", "itertools", "functools", "collections", "collections.abc", "operator", "random",
    "statistics", "heapq", "bisect", "copy", "typing", "dataclasses", "numbers", "fractions", "decimal",
    "string", "re", "time", "enum", "abc", "weakref", "array", "contextlib", "types", "warnings", "textwrap",
    "pprint", "struct", "inspect", "traceback", "json", "pickle", "io", "unittest", "difflib", "datetime",
    "os", "pathlib", "shutil", "tempfile", "glob", "csv", "gzip", "zlib", "hashlib", "secrets", "uuid",
    "reprlib", "keyword", "ast", "dis", "tokenize", "logging", "argparse", "threading", "queue", "sched",
    "locale", "calendar", "colorsys", "codecs", "base64", "platform", "linecache", "importlib",
    # a student's timing or debugging lines
    "timeit", "cProfile", "pstats", "profile", "pdb", "doctest", "tracemalloc",
    "numpy.testing", "numpy.polynomial", "numpy.ma", "numpy.lib.stride_tricks", "numpy.typing",
    "unicodedata",  # compiling a non-ASCII identifier normalises it (NFKC) with this module
    "encodings.idna", "encodings.punycode", "encodings.latin_1", "encodings.ascii", "encodings.utf_16", "encodings.utf_32",
    "encodings.cp437", "zipfile", "mmap",  # np.savez names its members in cp437; np.memmap
)

# Not in any worker: Task 9.1 is the topological order itself.
WITHHELD = frozenset({"graphlib"})
# The kernel's rule: the standard library but WITHHELD, and the course's packages (the grader's
# own modules are for the probes). Not the list above: numpy and the probes load standard modules
# lazily (numpy.random loads secrets, binascii), which a worker has loaded before it forks.
KERNEL_IMPORTABLE = (frozenset(sys.stdlib_module_names) - WITHHELD) | {"numpy", "needle", "coursekit", "autograder", "__future__"}


class Unavailable:
    """What a statement would have bound when it failed on a module the grader does not provide
    (``import matplotlib.pyplot as plt``, ``fig = plt.figure()``): using it raises
    ModuleNotFoundError naming that module, at the line that uses it."""

    __slots__ = ("_module",)

    def __init__(self, module: str):
        object.__setattr__(self, "_module", module)

    def _missing(self, *args, **kwargs):
        module = object.__getattribute__(self, "_module")
        raise ModuleNotFoundError(f"No module named {module!r}", name=module)

    __getattr__ = __setattr__ = __call__ = __getitem__ = __iter__ = __len__ = __bool__ = _missing


def foreign_module(value) -> str:
    """The top-level module a namespace's value comes from when the grader does not provide it
    (a module, or a function, class or object of one), else ""."""
    if isinstance(value, types.ModuleType):
        name = value.__name__
    elif isinstance(value, (type, types.FunctionType, types.BuiltinFunctionType)):
        name = value.__dict__.get("__module__") if isinstance(value, type) else value.__module__
    else:
        name = type(value).__module__
    top = name.partition(".")[0] if isinstance(name, str) else ""
    return top if top and top != "__main__" and top not in KERNEL_IMPORTABLE else ""


class _OnlyWhatIsLoaded:
    """A finder first on sys.meta_path: a top-level module not already in sys.modules is not
    found. Python asks finders only for modules it has not loaded."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if path is None:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None  # a submodule of a loaded package: found as usual, where it is readable


def refuse_unloaded() -> None:
    """In the worker, once the probes are loaded: from here on, only modules already loaded
    import (for a worker that cannot read the interpreter's files that is so anyway)."""
    sys.meta_path.insert(0, _OnlyWhatIsLoaded)
