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

import sys
import types

from .. import hints, plaindata
from ..notebook import strip_magics
from ..probing import Missing
from . import confine, excise, protocol


def _compile_cell(index: int, source: str):
    try:
        return compile(strip_magics(source), f"<cell {index}>", "exec")
    except (SyntaxError, ValueError, OverflowError, MemoryError, RecursionError):
        return None  # a cell that does not compile defines nothing, as in a kernel


def _refused_name(exc: BaseException) -> str:
    """The needle name if needle's excised implementation was reached (directly, or by code
    that caught the refusal and raised something else), else ""."""
    seen = 0
    while exc is not None and seen < 20:
        if isinstance(exc, excise.Refused):
            return exc.name if type(exc.name) is str else ""
        exc, seen = exc.__context__, seen + 1
    return ""


def _no_recursion_limit_changes(limit):
    raise excise.Refused("sys.setrecursionlimit")


def main(argv: list[str]) -> int:
    in_fd, out_fd = int(argv[0]), int(argv[1])
    request = protocol.receive(in_fd)
    excise.excise(request.get("excise") or [])  # first: nothing of the student's exists yet
    enforced = confine.apply(request["scratch"], request.get("uid"))
    sys.setrecursionlimit = _no_recursion_limit_changes  # the deep-chain tests mean Python's default
    probes = types.ModuleType("probes")
    exec(compile(request["probes"], "<probes>", "exec"), probes.__dict__)
    handlers = {name: fn for name, fn in vars(probes).items() if callable(fn) and hasattr(fn, "needs")}
    skip = set(request.get("skip", []))
    cells = [(i, _compile_cell(i, source)) for i, source in enumerate(request["cells"]) if i not in skip]
    del request
    serve(lambda message: protocol.send(out_fd, message), in_fd, cells, handlers, enforced)
    return 0


def serve(send, in_fd, cells, handlers, enforced) -> None:
    send({"event": "ready", "enforced": enforced})
    ns = {"__name__": "__main__"}
    for index, code in cells:
        send({"event": "cell", "index": index})
        if code is not None:
            try:
                exec(code, ns)
            except BaseException as exc:  # SystemExit, KeyboardInterrupt included: the cell's definitions so far stay
                refused = _refused_name(exc)
                if refused:
                    send({"event": "refused", "index": index, "name": refused})
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
        return {"raised": type(exc).__name__, "info": hints.classify(exc)}
    return {"ok": plaindata.to_plain(value)}
