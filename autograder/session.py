"""The trusted side of a sandboxed worker: start it, load a notebook's code, ask probes.

A session survives its worker: after a crash or a timeout the worker is killed (with its
whole process group) and the next request starts a fresh one. A cell that hangs or kills
the worker while loading is skipped on the next start, so one bad cell costs only the tests
that need it.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from . import plaindata
from .sandbox import protocol
from .sandbox.confine import die_with_parent


@dataclass
class Outcome:
    """What a probe request came to: ``kind`` is ok, missing, raised, unencodable, timeout or crashed."""

    kind: str
    value: object = None


@dataclass
class SessionConfig:
    cells: list[str]
    probes_source: str
    load_timeout: float = 60.0


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


class ZygoteLauncher:
    """Ask a running zygote (``autograder.sandbox.zygote``) to fork a pre-imported worker."""

    def __init__(self, socket_path: str):
        import socket

        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(socket_path)

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
        finally:
            os.close(to_worker_r)
            os.close(from_worker_w)
        return pid, to_worker_w, from_worker_r

    def reap(self, pid: int) -> None:
        self._ask({"reap": pid})


class Zygote:
    """The zygote process of a batch: started once, shared by every notebook's session."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="zygote-")
        os.chmod(self.dir, 0o700)
        self.path = os.path.join(self.dir, "sock")
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-m", "autograder.sandbox.zygote", self.path],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=clean_environment(self.dir), start_new_session=True,
            preexec_fn=die_with_parent,  # and its workers die with it: nothing outlives a killed grader
        )
        if self.proc.stdout.readline().strip() != b"ready":
            self.close()
            raise RuntimeError("the sandbox zygote failed to start")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.wait()
        _rmtree(self.dir)


class Session:
    def __init__(self, config: SessionConfig, launcher: "ZygoteLauncher"):
        self.config = config
        self.launcher = launcher
        self.skip: set[int] = set()
        self.enforced: dict = {}
        self.pid: int | None = None
        self.scratch = tempfile.mkdtemp(prefix="grade-")
        os.chmod(self.scratch, 0o700)
        self.starts = 0

    # --- lifecycle -----------------------------------------------------------------
    def _spawn(self) -> None:
        self.pid, self.to_worker, self.from_worker = self.launcher.start(self.scratch)
        self.starts += 1

    def _load(self) -> bool:
        """Start a worker and load the code; False if it died or hung (that cell is skipped next)."""
        self._spawn()
        current = None
        deadline = time.monotonic() + self.config.load_timeout
        try:
            protocol.send(self.to_worker, {
                "cells": self.config.cells, "probes": self.config.probes_source,
                "skip": sorted(self.skip), "policy": {"scratch": self.scratch},
            })
            while True:
                event = protocol.receive(self.from_worker, deadline)
                if not isinstance(event, dict):
                    raise plaindata.DecodeError("bad event")
                if event.get("event") == "cell" and isinstance(event.get("index"), int):
                    current = event["index"]
                    deadline = time.monotonic() + self.config.load_timeout
                elif event.get("event") == "loaded":
                    enforced = event.get("enforced")
                    self.enforced = {str(k): v for k, v in enforced.items()} if isinstance(enforced, dict) else {}
                    return True
                else:
                    raise plaindata.DecodeError("unexpected event")
        except (protocol.ChannelClosed, protocol.ChannelTimeout, plaindata.DecodeError, OSError):
            self.kill()
            if current is None:
                raise WorkerBroken("the grading worker failed before running any of your code")
            self.skip.add(current)
            return False

    def ensure_started(self) -> None:
        if self.pid is not None:
            return
        while not self._load():
            if len(self.skip) > len(self.config.cells):  # cannot happen: each retry skips one more cell
                raise WorkerBroken("your notebook's code could not be loaded")

    def kill(self) -> None:
        if self.pid is None:
            return
        for kill in (os.killpg, os.kill):  # the group, and the process if it had no time to setsid
            try:
                kill(self.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self.launcher.reap(self.pid)  # the pid is not reused before this: no stray kills
        for fd in (self.to_worker, self.from_worker):
            try:
                os.close(fd)
            except OSError:
                pass
        self.pid = None

    def close(self) -> None:
        self.kill()
        _rmtree(self.scratch)

    # --- requests ----------------------------------------------------------------------
    def call(self, probe: str, params: dict, timeout: float) -> Outcome:
        self.ensure_started()
        try:
            protocol.send(self.to_worker, {"probe": probe, "params": plaindata.to_plain(params)})
            reply = protocol.receive(self.from_worker, time.monotonic() + timeout)
        except protocol.ChannelTimeout:
            self.kill()
            return Outcome("timeout")
        except (protocol.ChannelClosed, OSError, plaindata.DecodeError):
            self.kill()
            return Outcome("crashed")
        return _interpret(reply)


def _interpret(reply) -> Outcome:
    if not isinstance(reply, dict) or len(reply) != 1:
        return Outcome("crashed")
    (kind, value), = reply.items()
    try:
        if kind == "ok":
            return Outcome("ok", plaindata.from_plain(value))
        if kind in ("missing", "raised") and isinstance(value, str):
            return Outcome(kind, value[:100])
        if kind == "unencodable":
            return Outcome("unencodable")
    except plaindata.DecodeError:
        pass
    return Outcome("crashed")


class WorkerBroken(RuntimeError):
    pass


def _rmtree(path: str) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)
