"""A pre-imported parent for sandboxed workers.

It imports numpy, needle, coursekit and the modules students commonly use once, then forks one worker per
request, so a worker starts in milliseconds instead of paying Python's and numpy's start-up
each time, and never needs to read a file of needle or the grader. It never runs student code
and holds no grading data. Each worker serves one task group of one notebook and removes
needle's implementation of that task from itself (``excise``) before loading student code.
Each child becomes its own session, keeps only its two protocol pipes, and confines itself
(``confine``) before loading any student code.

Protocol on a UNIX socket, one connection per trusted grading process:
``{"scratch": path, "env": {...}}`` with two file descriptors (the worker's input and output
pipes) -> ``{"pid": n}`` or ``{"error": why}``; ``{"reap": pid}`` -> ``{"ok": true}`` after the
caller killed that worker. When a connection closes (its grading process finished or was
killed), every worker started through it that is still alive is killed: no worker outlives
the notebook it was started for.
"""
from __future__ import annotations

import array
import fcntl
import json
import os
import selectors
import signal
import socket
import sys


def _preimport():
    import importlib

    import numpy  # noqa: F401
    import numpy.fft  # noqa: F401
    import numpy.linalg  # noqa: F401
    import numpy.random  # noqa: F401

    import pkgutil

    import coursekit
    import needle

    for package in (needle, coursekit):  # the worker cannot read their files: the notebooks import both
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(module.name)

    from coursekit import hints

    from .. import plaindata, probing  # noqa: F401
    from ..importable import COMMON_MODULES
    from . import confine, excise, protocol, worker  # noqa: F401

    for name in COMMON_MODULES:  # what student code may import (importable.py)
        importlib.import_module(name)
    hints.needle_op_names()
    # Every worker forks from this heap: no collector pass copies its pages, and freed memory
    # (the bytecode files import read) goes back to the system rather than into the workers.
    import gc

    gc.collect()
    gc.freeze()
    confine.release_free_memory()


def _recv(conn: socket.socket):
    fds = array.array("i")
    data, ancdata, _, _ = conn.recvmsg(1 << 16, socket.CMSG_SPACE(2 * fds.itemsize))
    for level, kind, payload in ancdata:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
    return (json.loads(data.decode()) if data else None), list(fds)


def _child(in_fd: int, out_fd: int, request: dict, keep_out: list) -> None:
    """In the forked child: become a clean, separate worker process, then serve."""
    try:
        from .confine import die_with_parent

        die_with_parent()  # with the zygote (set again after the change of user, which clears it)
        os.setsid()
        for sock in keep_out:
            sock.close()
        high_in = fcntl.fcntl(in_fd, fcntl.F_DUPFD, 100)
        high_out = fcntl.fcntl(out_fd, fcntl.F_DUPFD, 100)
        os.dup2(high_in, 3)
        os.dup2(high_out, 4)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.closerange(5, 65536)
        os.chdir(request["scratch"])
        os.environ.clear()
        os.environ.update({str(k): str(v) for k, v in request.get("env", {}).items()})
        for sig in (signal.SIGCHLD, signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.SIG_DFL)
        from . import worker

        code = worker.main(["3", "4"])
    except BaseException:
        code = 1
    os._exit(code or 0)


def _kill(pid: int) -> None:
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def serve(path: str, parent: int) -> None:
    # Die with the grader that started this zygote (and its workers die with it). Set here, not
    # in a preexec_fn: running Python between fork and exec can hang when the grader has threads
    # (a Dask worker does). A grader that died before this line is seen as a changed parent.
    from .confine import die_with_parent

    die_with_parent()
    if os.getppid() != parent:
        sys.exit("autograder zygote: the grader that started it is gone")
    _preimport()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    os.chmod(path, 0o600)
    server.listen(64)
    selector = selectors.DefaultSelector()
    selector.register(server, selectors.EVENT_READ)
    owned: dict[socket.socket, set[int]] = {}  # connection -> workers started through it
    print("ready", flush=True)
    while True:
        for key, _ in selector.select():
            sock = key.fileobj
            if sock is server:
                conn, _ = server.accept()
                owned[conn] = set()
                selector.register(conn, selectors.EVENT_READ)
                continue
            try:
                request, fds = _recv(sock)
            except (OSError, ValueError):
                request, fds = None, []
            if request is None:  # the grading process is gone: so are its workers
                selector.unregister(sock)
                for pid in owned.pop(sock, set()):
                    _kill(pid)
                sock.close()
                for fd in fds:
                    os.close(fd)
                continue
            if "reap" in request:
                pid = int(request["reap"])
                if pid in owned[sock]:
                    owned[sock].discard(pid)
                    _kill(pid)
                sock.sendall(json.dumps({"ok": True}).encode())
                continue
            if len(fds) != 2:
                for fd in fds:
                    os.close(fd)
                sock.sendall(json.dumps({"error": "expected two file descriptors"}).encode())
                continue
            try:
                pid = os.fork()
            except OSError as exc:  # no processes left: this request fails, the zygote stays
                for fd in fds:
                    os.close(fd)
                sock.sendall(json.dumps({"error": f"fork failed ({exc.strerror})"}).encode())
                continue
            if pid == 0:
                _child(fds[0], fds[1], request, [server, *owned])
            owned[sock].add(pid)
            for fd in fds:
                os.close(fd)
            sock.sendall(json.dumps({"pid": pid}).encode())


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]))
