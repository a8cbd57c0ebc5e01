"""The sandboxed worker: loads one student's notebook code and answers probe requests.

Run as ``python -I -m autograder.sandbox.worker IN_FD OUT_FD``. Everything it executes after
start-up is untrusted; it can only ever answer with plain data (``codec``), which the trusted
side compares. Its stdout and stderr go nowhere a student or the grader reads.
"""
from __future__ import annotations

import builtins
import re
import sys
import types

from .. import plaindata
from . import protocol
from ..probing import Missing

_MAGIC = re.compile(r"^([ \t]*)[%!].*$", re.MULTILINE)


def _strip_magics(source: str) -> str:
    """IPython magics and shell escapes are not Python: make them ``pass`` (same line numbers)."""
    return _MAGIC.sub(r"\1pass", source)


def _describe(exc: BaseException) -> str:
    return type(exc).__name__  # the trusted side shows only names it recognises


def _load(request: dict, out_fd: int, enforced: dict) -> tuple[dict, types.ModuleType]:
    probes = types.ModuleType("probes")
    exec(compile(request["probes"], "<probes>", "exec"), probes.__dict__)
    ns = {"__name__": "__main__", "__builtins__": builtins}
    skip = set(request.get("skip", []))
    for index, source in enumerate(request["cells"]):
        if index in skip:
            continue
        protocol.send(out_fd, {"event": "cell", "index": index})
        try:
            exec(compile(_strip_magics(source), f"<cell {index}>", "exec"), ns)
        except BaseException:  # SystemExit, KeyboardInterrupt included: the cell's definitions so far stay
            pass
    protocol.send(out_fd, {"event": "loaded", "enforced": enforced})
    return ns, probes


def _answer(ns: dict, probes: types.ModuleType, request: dict) -> dict:
    try:
        fn = getattr(probes, request["probe"])
        value = fn(ns, **plaindata.from_plain(request["params"]))
        return {"ok": plaindata.to_plain(value)}
    except Missing as exc:
        return {"missing": str(exc.name)}
    except plaindata.EncodeError:
        return {"unencodable": True}
    except BaseException as exc:
        return {"raised": _describe(exc)}


def main(argv: list[str]) -> int:
    in_fd, out_fd = int(argv[0]), int(argv[1])
    request = protocol.receive(in_fd)
    import needle  # noqa: F401  (before confinement: imports need no file access later)

    from . import confine

    enforced = confine.apply(request.get("policy", {}))
    ns, probes = _load(request, out_fd, enforced)
    while True:
        try:
            request = protocol.receive(in_fd)
        except protocol.ChannelClosed:
            return 0
        reply = _answer(ns, probes, request)
        try:
            protocol.send(out_fd, reply)
        except (plaindata.EncodeError, ValueError):
            protocol.send(out_fd, {"unencodable": True})


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
