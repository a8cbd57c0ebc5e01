"""The trusted grading children of a Dask worker, forked from a process with a single thread.

A Dask worker runs its tasks on threads beside its event loop, and a child forked from a threaded
process starts with every lock another thread held at that instant locked for good: a grading
child forked there could hang, and its notebook be stopped at its deadline through no fault of
the student's. So each Dask worker starts one ``ChildForker``: a fresh interpreter (exec'd, no
threads) that imports what a grading child needs, collects each notebook's suite once, and forks
one child per notebook on request, as ``batch`` forks them from the single-threaded grader.

The worker sends (job, assignment, timeout, zygote socket) over a socket pair; the forker answers
with the child's pid and the notebook's deadline, and passes the read end of the child's result
pipe along (SCM_RIGHTS). The worker keeps the deadline and kills the child if it overruns. Both
ends are the grader's own: the student's code runs only in the sandboxed workers the child starts.
"""
from __future__ import annotations

import os
import pickle
import signal
import socket
import struct
import subprocess
import sys
import threading
from multiprocessing.connection import Connection

_LENGTH = struct.Struct("!I")


class ForkerBroken(RuntimeError):
    """The forker is gone or cannot fork (the notebook is retried as an infrastructure error)."""


def _send(sock: socket.socket, message, fds: list[int] = ()) -> None:
    data = pickle.dumps(message)
    data = _LENGTH.pack(len(data)) + data
    sent = socket.send_fds(sock, [data], list(fds))  # the descriptors travel with the first bytes
    if sent < len(data):
        sock.sendall(data[sent:])


def _recv(sock: socket.socket):
    """(message, fds), or (None, []) when the other end has closed."""
    head, fds, _, _ = socket.recv_fds(sock, _LENGTH.size, 4)
    data = bytearray(head)
    for need in (_LENGTH.size, None):  # the length, then the message
        if need is None:
            need = _LENGTH.size + _LENGTH.unpack_from(data)[0]
        while len(data) < need:
            chunk = sock.recv(need - len(data))
            if not chunk:  # closed, possibly mid-message
                for fd in fds:
                    os.close(fd)
                return None, []
            data += chunk
    return pickle.loads(data[_LENGTH.size:]), fds


class ChildForker:
    """The worker's side: start the forker, ask it for grading children."""

    def __init__(self):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.proc = subprocess.Popen([sys.executable, "-m", "autograder.grade.child_forker", str(theirs.fileno())],
                                         pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL)
        except OSError:
            ours.close()
            raise
        finally:
            theirs.close()
        self.sock = ours
        self.lock = threading.Lock()  # the worker's task threads share one socket

    def alive(self) -> bool:
        return self.proc.poll() is None

    def fork(self, job, assignment, timeout: float, zygote: str) -> tuple[int, float, Connection]:
        """A grading child for ``job``: its pid, the notebook's deadline in seconds and the
        connection its result arrives on."""
        with self.lock:
            try:
                _send(self.sock, (job, assignment, timeout, zygote))
                reply, fds = _recv(self.sock)
            except OSError as exc:
                raise ForkerBroken(f"the grading process forker is not answering ({exc.strerror})") from None
        if reply is None:
            raise ForkerBroken("the grading process forker has stopped")
        if reply[0] != "started" or len(fds) != 1:
            for fd in fds:
                os.close(fd)
            raise ForkerBroken(reply[1] if reply[0] == "error" else f"unexpected reply {reply[0]!r}")
        _, pid, deadline = reply
        return pid, deadline, Connection(fds[0], writable=False)

    def close(self) -> None:
        self.sock.close()  # the forker stops at end of file; its children die with it
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def serve(sock: socket.socket) -> None:
    """The forker's loop: one grading child per request, until the worker closes the socket."""
    from . import batch

    while True:
        request, _ = _recv(sock)
        if request is None:
            return
        job, assignment, timeout, zygote = request
        try:
            deadline = batch.notebook_deadline(assignment, job.notebook, timeout)  # collects the suite, once
            read, write = os.pipe()
        except Exception as exc:  # noqa: BLE001  (an error of the grader's own: the notebook is retried)
            _send(sock, ("error", f"{type(exc).__name__}: {exc}"))
            continue
        try:
            pid = os.fork()
        except OSError as exc:
            os.close(read)
            os.close(write)
            _send(sock, ("error", f"could not start a grading process ({exc.strerror})"))
            continue
        if pid == 0:
            try:
                sock.close()
                os.close(read)
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the child waits for its own children
                batch._child(Connection(write, readable=False), job, assignment, timeout, zygote)
            finally:
                os._exit(0)
        os.close(write)
        try:
            _send(sock, ("started", pid, deadline), [read])
        finally:
            os.close(read)


def main(fd: int) -> None:
    from ..sandbox.confine import die_with_parent

    die_with_parent()  # goes with its Dask worker, and its children with it
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # finished children are reaped by the kernel
    import autograder.grade.runner  # noqa: F401  (pytest, numpy, needle: each forked child starts with them)

    sock = socket.socket(fileno=fd)
    try:
        serve(sock)
    finally:
        sock.close()


if __name__ == "__main__":
    main(int(sys.argv[1]))
