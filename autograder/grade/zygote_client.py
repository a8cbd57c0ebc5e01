"""The grader's side of the zygote (``autograder.sandbox.zygote``): the zygote process a batch
starts (``ZygoteProcess``), the connection that asks it to fork a pre-imported worker
(``ZygoteLauncher``), the worker's clean environment, and the grading folders' lifecycle.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time

def clean_environment(scratch: str) -> dict:
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": scratch,
        "TMPDIR": scratch,
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "MPLBACKEND": "Agg",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }


class WorkerBroken(RuntimeError):
    """The grader could not start a worker: infrastructure, not the student's doing."""


class ZygoteLauncher:
    """Ask a running zygote (``autograder.sandbox.zygote``) to fork a pre-imported worker.
    One launcher (one connection) per trusted grading process: when it goes, so do its workers."""

    def __init__(self, socket_path: str):
        import socket

        self.scratch_root = os.path.join(os.path.dirname(socket_path), "scratch")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.sock.connect(socket_path)
        except OSError as exc:
            raise WorkerBroken(f"the sandbox zygote is not answering ({exc.strerror})") from None

    def _ask(self, message: dict, fds=()) -> dict:
        import array
        import json
        import socket

        anc = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))] if fds else []
        try:
            self.sock.sendmsg([json.dumps(message).encode()], anc)
            reply = json.loads(self.sock.recv(1 << 16).decode())
        except (OSError, ValueError):
            raise WorkerBroken("the sandbox zygote is not answering") from None
        if "error" in reply:
            raise WorkerBroken(f"the sandbox could not start a worker ({reply['error']})")
        return reply

    def start(self, scratch: str) -> tuple[int, int, int]:
        to_worker_r, to_worker_w = os.pipe()
        from_worker_r, from_worker_w = os.pipe()
        try:
            pid = int(self._ask({"scratch": scratch, "env": clean_environment(scratch)}, [to_worker_r, from_worker_w])["pid"])
        except WorkerBroken:
            for fd in (to_worker_w, from_worker_r):
                os.close(fd)
            raise
        finally:
            os.close(to_worker_r)
            os.close(from_worker_w)
        return pid, to_worker_w, from_worker_r

    def reap(self, pid: int) -> None:
        self._ask({"reap": pid})

    def close(self) -> None:
        self.sock.close()


STALE_AFTER = 60.0  # seconds: a grading folder younger than this may still be setting up its lock


def sweep_stale_folders(parent: str) -> None:
    """Remove the ``grading-*`` folders a killed grader left in ``parent`` (its workers' files
    included): those whose lock no live process holds. A running batch holds its lock."""
    import fcntl

    try:
        entries = list(os.scandir(parent))
    except OSError:
        return
    for entry in entries:
        if not entry.name.startswith("grading-") or not entry.is_dir(follow_symlinks=False):
            continue
        lock_path = os.path.join(entry.path, "lock")
        try:
            if time.time() - os.lstat(lock_path).st_mtime < STALE_AFTER:
                continue
            fd = os.open(lock_path, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:  # no lock: not a folder of this grader's, or another user's
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)  # a live batch
            continue
        remove_tree(entry.path)
        os.close(fd)


class ZygoteFailed(RuntimeError):
    """The zygote did not start (the grader retries, then reports the notebooks waiting)."""


class ZygoteProcess:
    """The zygote process of a batch: started once, shared by every notebook's session."""

    def __init__(self, parent: str | None = None, meanwhile=None):
        """Start the zygote and wait until it is ready; ``meanwhile()``, if given, runs while it
        imports (the grader collects its suites then: the two overlap on two cores)."""
        import fcntl

        # The batch's own folder: the zygote's socket (0600) and every notebook's scratch
        # directory (0700, the worker's), removed with the batch whatever happened inside; a
        # grader killed before it could remove it leaves it unlocked, for the next one to sweep.
        if parent is None or len(parent) > 80:  # a socket's path must stay under 108 bytes
            parent = tempfile.gettempdir()
        sweep_stale_folders(parent)
        self.dir = tempfile.mkdtemp(prefix="grading-", dir=parent)
        self._lock = os.open(os.path.join(self.dir, "lock"), os.O_RDONLY | os.O_CREAT | os.O_EXCL, 0o600)
        fcntl.flock(self._lock, fcntl.LOCK_EX)  # held while this process (or a fork of it) lives
        os.chmod(self.dir, 0o711)
        os.mkdir(os.path.join(self.dir, "scratch"), 0o711)
        self.path = os.path.join(self.dir, "sock")
        log = os.path.join(self.dir, "zygote.log")  # its own errors (workers write nothing there)
        with open(log, "wb") as errors:
            self.proc = subprocess.Popen(
                [sys.executable, "-I", "-m", "autograder.sandbox.zygote", self.path, str(os.getpid())],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors,
                env=clean_environment(self.dir), start_new_session=True,  # it dies with this process
            )
        if meanwhile is not None:
            try:
                meanwhile()
            except BaseException:
                self.close()
                raise
        if self.proc.stdout.readline().strip() != b"ready":
            with open(log, "rb") as errors:
                last = (errors.read().decode("utf-8", "replace").strip().splitlines() or ["no output"])[-1]
            self.close()
            raise ZygoteFailed(f"the sandbox zygote failed to start: {last}")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.wait()
        remove_tree(self.dir)
        os.close(self._lock)


def remove_tree(path: str) -> None:
    """Remove ``path`` whatever modes the worker gave its contents (chmod 0 included). Only
    folders inside ``path`` (and ``path`` itself) are ever opened up, never its parent."""
    import shutil

    def open_up():
        for folder in [path] + [os.path.join(root, d) for root, dirs, _ in os.walk(path) for d in dirs]:
            if not os.path.islink(folder):  # a link could point anywhere: never follow one
                try:
                    os.chmod(folder, 0o700)
                except OSError:
                    pass

    for _ in range(3):  # each pass opens up what the previous one could not list
        if not os.path.lexists(path):
            return
        open_up()
        shutil.rmtree(path, ignore_errors=True)
