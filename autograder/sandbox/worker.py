"""The sandboxed worker: loads one student's notebook code and answers probe requests.

Forked from the zygote (``zygote.py``), which has imported numpy and needle and instrumented
needle's functions (``owncode``). Before any student code runs, the worker confines itself
(``confine``), loads the probes, forgets ctypes, snapshots what its answers depend on and arms
the audit hook (``guard``), and binds every function it will call afterwards to a local name.
Then it runs the notebook's cells and answers requests. Each answer is computed, then
checked: the snapshot must be unchanged and no needle implementation of the task being
tested may have run; only then is it encoded (plain data only, ``plaindata``) and sent,
tagged with a key only this code holds (``protocol``). Its stdout and stderr go nowhere.
"""
from __future__ import annotations

import builtins
import gc
import re
import sys
import types
from json.encoder import c_encode_basestring_ascii as json_string

from .. import plaindata, probing
from . import confine, guard, owncode, protocol
from ..probing import Missing

_MAGIC = re.compile(r"^([ \t]*)[%!].*$", re.MULTILINE)
REGISTRY: owncode.Registry | None = None  # set by the zygote after instrumenting needle


def strip_magics(source: str) -> str:
    """IPython magics and shell escapes are not Python: make them ``pass`` (same line numbers)."""
    return _MAGIC.sub(r"\1pass", source)


def _compile_cell(index: int, source: str):
    try:
        return compile(strip_magics(source), f"<cell {index}>", "exec")
    except (SyntaxError, ValueError, OverflowError, MemoryError, RecursionError):
        return None  # a cell that does not compile defines nothing, as in a kernel


class OwnWork:
    """Evidence, for one request, that the task was answered with needle's own implementation."""

    def __init__(self, registry: owncode.Registry):
        self.registry = registry
        self.names: list[str] = []
        self.indices: list[int] = []
        self.before: list[int] = []
        self.classes: list = []
        self.hits: list[str] = []

    def start(self, names: list[str]) -> None:
        self.names = [n for n in names if type(n) is str]
        self.indices = [i for n in self.names for i in self.registry.indices(n)]
        self.before = self.registry.read(self.indices)
        self.classes = [(n, c) for n in self.names for cn, c in self.registry.classes.items() if cn == n or cn.startswith(n + ".")]
        self.hits = []

    def watch(self, name, value) -> None:
        """A student definition the probe takes: needle's class itself, or a subclass of it?"""
        for needle_name, cls in self.classes:
            try:
                if value is cls or (isinstance(value, type) and issubclass(value, cls)):
                    self.hits.append(needle_name)
            except Exception:
                pass

    def used(self) -> str:
        """The needle name of the first implementation that ran, or ""."""
        if self.hits:
            return self.hits[0]
        for index, old, new in zip(self.indices, self.before, self.registry.read(self.indices)):
            if new != old:
                ran = self.registry.names[index]
                return next((n for n in self.names if ran == n or ran.startswith(n + ".")), ran)
        return ""


def main(argv: list[str]) -> int:
    in_fd, out_fd = int(argv[0]), int(argv[1])
    request = protocol.receive(in_fd)
    signed = protocol.signed_sender(out_fd, bytes.fromhex(request["key"]))
    enforced = confine.apply(request["scratch"], request.get("uid"))
    probes = types.ModuleType("probes")
    exec(compile(request["probes"], "<probes>", "exec"), probes.__dict__)
    handlers = {name: fn for name, fn in vars(probes).items() if callable(fn) and hasattr(fn, "needs")}
    skip = set(request.get("skip", []))
    cells = [(i, _compile_cell(i, source)) for i, source in enumerate(request["cells"]) if i not in skip]
    del request

    guard.purge_ctypes()
    guard.neuter_threads_and_signals()
    # A module imported from now on is compiled from its source: cached bytecode would need
    # marshal.loads, which the guard refuses (it could load needle's code uninstrumented).
    sys.pycache_prefix = "/nonexistent/needle-course-pycache"
    own = OwnWork(REGISTRY) if REGISTRY is not None else None
    if own is not None:
        probing.watchers.append(own.watch)
    integrity = guard.Integrity(extra_modules=[probes])
    send = guarded_sender(signed, integrity.changed)
    guard.arm(integrity.protected_ids())
    enforced["guard"] = True
    serve(send, protocol.receive, in_fd, cells, handlers, own, guard.pristine_builtin_exceptions(), enforced)
    return 0


def guarded_sender(signed, changed, _gc=gc, _encode=json_string):
    """``send(message, keep=None)``: nothing of the student's may run between the check that the
    grader's code is intact and the message leaving (garbage collection is off, and ``keep``
    holds the student's objects until then); if anything was changed, the message sent is
    "tampered" instead, encoded by a C function that nothing can patch."""
    verdict = [""]

    def send(message, keep=None):
        collecting = _gc.isenabled()
        _gc.disable()
        try:
            verdict[0] = verdict[0] or changed()
            if verdict[0]:
                signed(None, raw=b'{"tampered":' + _encode(verdict[0]).encode() + b"}")
            else:
                signed(message)
        finally:
            del keep
            if collecting:
                _gc.enable()
        return verdict[0]

    return send


def serve(send, receive, in_fd, cells, handlers, own, exceptions, enforced,
          _exec=exec, _builtins=builtins, _closed=protocol.ChannelClosed, _encode_error=plaindata.EncodeError) -> None:
    """Everything from here on runs with student code in the process: only locals and
    default arguments bound above are used, never a module global."""
    send({"event": "ready", "enforced": enforced})
    ns = {"__name__": "__main__", "__builtins__": _builtins}
    for index, code in cells:
        if send({"event": "cell", "index": index}):
            break  # tampered: nothing more is loaded or answered
        if code is not None:
            try:
                _exec(code, ns)
            except BaseException:  # SystemExit, KeyboardInterrupt included: the cell's definitions so far stay
                pass
    send({"event": "loaded"})
    while True:
        try:
            request = receive(in_fd)
        except _closed:
            return
        reply, keep = answer(request, ns, handlers, own, exceptions)
        try:
            send(reply, keep)
        except (_encode_error, ValueError):
            send({"unencodable": True})


def answer(request, ns, handlers, own, exceptions, _to_plain=plaindata.to_plain, _from_plain=plaindata.from_plain,
           _missing=Missing, _encode_error=plaindata.EncodeError, _type=type, _str=str, _dict=dict):
    """(reply, the student's objects to keep alive until the reply is sent)."""
    probe = handlers.get(request.get("probe")) if _type(request) is _dict and _type(request.get("probe")) is _str else None
    if probe is None:
        return {"crashed": True}, None
    if own is not None:
        own.start(request.get("own_work") or [])
    outcome = None
    try:
        value = probe(ns, **_from_plain(request.get("params") or {}))
    except _missing as exc:
        value, outcome = None, {"missing": exc.name}
    except BaseException as exc:
        kind = _type(exc)
        value, outcome = exc, {"raised": next((name for name, cls in exceptions.items() if kind is cls), "")}
    used = own.used() if own is not None else ""
    if used:  # needle's own implementation ran: that decides, whatever came of it
        return {"delegated": used}, value
    if outcome is not None:
        return outcome, value
    try:
        return {"ok": _to_plain(value)}, value
    except _encode_error:
        return {"unencodable": True}, value
