"""What keeps the worker's own code honest once student code shares its process.

The probes run in the same interpreter as the student's code, so everything they compute
could be changed by that code. Three measures, applied after the OS confinement and before
the first student cell, make a probe's facts trustworthy:

* ``purge_ctypes``: no way to read or write arbitrary memory (ctypes calls through existing
  function pointers are not audited, so the modules and every reference to them go);
* ``arm``: a PEP 578 audit hook, which cannot be removed, refuses what would reach the
  grader's objects or rewrite its code: frames (``sys._getframe``, ``tb_frame``,
  ``gi_frame``...), ``gc`` referrer walks, trace/profile hooks, ``ctypes``, building functions
  or code objects, patching the attributes of functions and classes that existed before,
  importing memory-access modules, processes, sockets, signals to others, /proc;
* ``Integrity``: a snapshot of every module the probes depend on (needle, numpy, the
  grader, builtins: each name's object, and the classes' attributes) compared before and
  after every probe; any change makes the worker say "tampered" instead of answering.

Threads and signal handlers (which would let student code run during that comparison) are
refused by seccomp on x86_64 Linux; elsewhere ``neuter_threads_and_signals`` removes the
functions that start them. What is and is not guaranteed is stated in the README.
"""
from __future__ import annotations

import builtins
import copyreg
import sys
import types

PROTECTED_PACKAGES = ("needle", "numpy", "autograder", "builtins", "json", "base64", "math", "hashlib", "_hashlib",
                      "_blake2", "operator", "itertools", "functools", "types", "gc")
# Globals that legitimately change while needle runs (mode switches, the live-tensor counter).
MUTABLE_GLOBALS = {("needle.autograd", "LAZY_MODE"), ("needle.autograd", "_GRAD_ENABLED"), ("needle.autograd", "TENSOR_COUNTER")}
FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_back"})
REFUSED_EVENTS = frozenset({
    "sys._getframe", "sys._current_frames", "sys._current_exceptions", "sys.settrace", "sys.setprofile",
    "sys.addaudithook", "gc.get_objects", "gc.get_referrers", "gc.get_referents", "function.__new__",
    "code.__new__", "marshal.loads", "marshal.load", "builtins.breakpoint", "os.system", "os.exec",
    "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "subprocess.Popen", "os.kill", "os.killpg",
    "signal.pthread_kill", "resource.setrlimit", "resource.prlimit", "socket.__new__", "mmap.__new__",
})
REFUSED_IMPORTS = frozenset({"ctypes", "_ctypes", "_testcapi", "_testinternalcapi", "_testbuffer", "_ctypes_test",
                             "_xxsubinterpreters", "_xxinterpchannels", "cffi", "_cffi_backend"})


class Refused(RuntimeError):
    """Raised by the audit hook: the grading sandbox does not allow this."""


def purge_ctypes() -> None:
    """Forget ctypes: the modules, and every module-level reference to them or their objects."""
    for name in [n for n in sys.modules if n.split(".")[0] in ("ctypes", "_ctypes") or n == "numpy.ctypeslib"]:
        del sys.modules[name]
    for module in list(sys.modules.values()):
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        for key, value in list(namespace.items()):
            kind = type(value)
            origin = value.__name__ if kind is types.ModuleType else getattr(kind, "__module__", "")
            if isinstance(origin, str) and origin.split(".")[0] in ("ctypes", "_ctypes") or origin == "numpy.ctypeslib":
                namespace[key] = None


def neuter_threads_and_signals() -> None:
    """Remove the functions that start threads or install signal handlers (a handler is given
    the interrupted frame). seccomp refuses both anyway where it runs."""
    import _signal
    import _thread
    import signal
    import threading

    def refused(*args, **kwargs):
        raise Refused("threads and signal handlers are not available while grading")

    for module, name in ((_thread, "start_new_thread"), (_thread, "start_new"), (threading, "_start_new_thread"),
                         (signal, "signal"), (_signal, "signal"), (signal, "setitimer"), (_signal, "setitimer")):
        if hasattr(module, name):
            setattr(module, name, refused)


def _protected_modules() -> list[types.ModuleType]:
    return [m for name, m in sorted(sys.modules.items())
            if isinstance(m, types.ModuleType) and name.split(".")[0] in PROTECTED_PACKAGES]


class Integrity:
    """A snapshot of the modules (and their classes) the grader's code depends on.

    ``changed()`` names the first thing that differs from the snapshot, or returns "". Each
    module's names must still refer to the same objects (a new submodule attribute is allowed:
    importing one adds it); each class of those modules must keep its attributes; the
    containers at module level of needle and the grader must keep their contents."""

    def __init__(self, extra_modules=()):
        self.modules = []
        self.classes = []
        self.containers = []
        for module in [*_protected_modules(), *extra_modules]:
            namespace = module.__dict__
            items = tuple((k, v) for k, v in namespace.items() if (module.__name__, k) not in MUTABLE_GLOBALS and k != "__warningregistry__")
            registered = sys.modules.get(module.__name__) is module  # the probes module is not
            self.modules.append((module.__name__, module, namespace, type(module), items, registered))
            top = module.__name__.split(".")[0]
            for key, value in items:
                if isinstance(value, type) and getattr(value, "__module__", None) == module.__name__ and not _is_static(value):
                    copyreg._slotnames(value)  # copy.copy caches __slotnames__ on the class: do it now
                    self.classes.append((f"{module.__name__}.{value.__qualname__}", value, tuple(value.__dict__.items())))
                if top in ("needle", "autograder") and type(value) in (dict, list, set):
                    self.containers.append((f"{module.__name__}.{key}", value, tuple(value.items()) if type(value) is dict else tuple(value)))

    def protected_ids(self) -> frozenset:
        """ids of every function and class in the snapshot (their attributes may not be set)."""
        ids = set()
        for _, _, _, _, items, _ in self.modules:
            for _, value in items:
                if isinstance(value, (types.FunctionType, type)):
                    ids.add(id(value))
        for _, cls, items in self.classes:
            ids.add(id(cls))
            for _, value in items:
                for fn in (value, getattr(value, "__func__", None), getattr(value, "fget", None), getattr(value, "fset", None)):
                    if isinstance(fn, types.FunctionType):
                        ids.add(id(fn))
                        ids.add(id(fn.__code__))
        return frozenset(ids)

    def changed(self, _is=lambda a, b: a is b, _len=len, _type=type, _tuple=tuple, _dict=dict, _str=str,
                _module=types.ModuleType, _frozenset=frozenset, _all=all, _map=map, _modules=sys.modules,
                _mutable=frozenset(MUTABLE_GLOBALS), _pair_is=lambda a, b: a[0] is b[0] and a[1] is b[1]) -> str:
        """The first name that differs from the snapshot, or "". Reads only: no method of an
        object the student could have made is ever called (keys are checked to be exact
        strings before any lookup, values are compared by identity)."""
        modules = _modules
        for key in modules:
            if _type(key) is not _str:
                return "sys.modules"
        for name, module, namespace, kind, items, registered in self.modules:
            if _type(module) is not kind or (registered and modules.get(name) is not module):
                return name
            for key in namespace:
                if _type(key) is not _str:
                    return name
        for name, module, namespace, kind, items, _ in self.modules:
            for key, value in items:
                if not _is(namespace.get(key, namespace), value):
                    return f"{name}.{key}"
            if _len(namespace) != _len(items):
                known = _frozenset(k for k, _ in items)
                for key, value in namespace.items():  # additions: only submodules may appear
                    if key not in known and _type(value) is not _module and (name, key) not in _mutable \
                            and key != "__warningregistry__":
                        return f"{name}.{key}"
        for name, cls, items in self.classes:
            current = cls.__dict__
            if _len(current) != _len(items):
                return name
            for key, value in items:
                if not _is(current.get(key, current), value):
                    return f"{name}.{key}"
        for name, container, items in self.containers:
            now = _tuple(container.items()) if _type(container) is _dict else _tuple(container)
            if _len(now) != _len(items) or not _all(_map(_pair_is, now, items) if _type(container) is _dict else _map(_is, now, items)):
                return name
        return ""


def _is_static(cls: type) -> bool:
    """A built-in or extension type: its attributes cannot be set anyway."""
    return not cls.__flags__ & (1 << 9)  # Py_TPFLAGS_HEAPTYPE


def arm(protected: frozenset) -> None:
    """Install the audit hook; from now on it refuses the events above, for good."""

    def hook(event, args, _refused=REFUSED_EVENTS, _frames=FRAME_ATTRIBUTES, _imports=REFUSED_IMPORTS,
             _protected=protected, _error=Refused, _str=str, _len=len, _id=id):
        if event in _refused or event.startswith("ctypes."):
            raise _error(f"{event} is not available while grading")
        if event == "object.__getattr__":
            if args[1] in _frames:
                raise _error("frames are not available while grading")
        elif event == "object.__setattr__" or event == "object.__delattr__":
            if _id(args[0]) in _protected:
                raise _error("changing the grader's or needle's functions and classes is not allowed while grading")
        elif event == "import":
            if args[0] in _imports:
                raise _error(f"module {args[0]} is not available while grading")
        elif event == "exec":
            if _id(args[0]) in _protected:
                raise _error("running needle's own code objects directly is not allowed while grading")
        elif event == "open":
            path = args[0]
            if type(path) is _str and path.startswith("/proc"):
                raise _error("/proc is not available while grading")

    sys.addaudithook(hook)


def pristine_builtin_exceptions() -> dict:
    """The built-in exception classes as they are now (student code may rebind the names)."""
    return {name: obj for name, obj in vars(builtins).items() if isinstance(obj, type) and issubclass(obj, BaseException)}
