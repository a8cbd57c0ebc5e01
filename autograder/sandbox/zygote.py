"""A pre-imported parent for sandboxed workers.

It imports numpy and needle once, then forks one worker per request, so a notebook's worker
starts in milliseconds instead of paying Python's and numpy's start-up each time. It never
runs student code and holds no grading data: only library code and the requests' scratch
paths. Each child becomes its own session, dies with the zygote (PDEATHSIG), keeps only its
two protocol pipes, and confines itself (``confine``) before loading any student code.

Protocol on a UNIX socket: ``{"scratch": path, "env": {...}}`` with two file descriptors
(the worker's input and output pipes) -> ``{"pid": n}``; ``{"reap": pid}`` -> ``{"ok": true}``
after the caller killed that worker.
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


def _preimport() -> None:
    import numpy  # noqa: F401
    import numpy.fft  # noqa: F401
    import numpy.linalg  # noqa: F401
    import numpy.random  # noqa: F401

    import needle  # noqa: F401
    import needle.gradcheck  # noqa: F401

    from .. import plaindata, probing  # noqa: F401
    from . import confine, protocol, worker  # noqa: F401


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
        os.setsid()
        from .confine import die_with_parent

        die_with_parent()
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
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        from . import worker

        code = worker.main(["3", "4"])
    except BaseException:
        code = 1
    os._exit(code or 0)


def serve(path: str) -> None:
    _preimport()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    os.chmod(path, 0o600)
    server.listen(64)
    selector = selectors.DefaultSelector()
    selector.register(server, selectors.EVENT_READ)
    clients: list[socket.socket] = []
    print("ready", flush=True)
    while True:
        for key, _ in selector.select():
            sock = key.fileobj
            if sock is server:
                conn, _ = server.accept()
                clients.append(conn)
                selector.register(conn, selectors.EVENT_READ)
                continue
            try:
                request, fds = _recv(sock)
            except (OSError, ValueError):
                request, fds = None, []
            if request is None:
                selector.unregister(sock)
                clients.remove(sock)
                sock.close()
                for fd in fds:
                    os.close(fd)
                continue
            if "reap" in request:
                try:
                    os.waitpid(int(request["reap"]), 0)
                except ChildProcessError:
                    pass
                sock.sendall(json.dumps({"ok": True}).encode())
                continue
            if len(fds) != 2:
                for fd in fds:
                    os.close(fd)
                sock.sendall(json.dumps({"error": "expected two file descriptors"}).encode())
                continue
            pid = os.fork()
            if pid == 0:
                _child(fds[0], fds[1], request, [server, *clients])
            for fd in fds:
                os.close(fd)
            sock.sendall(json.dumps({"pid": pid}).encode())


if __name__ == "__main__":
    serve(sys.argv[1])
