"""Length-prefixed JSON messages over a pair of pipes (the worker's fds 3 and 4).

Frame: 4-byte big-endian body length, then the body (``plaindata``). Nothing is signed: every
message from the worker is a claim about the student's own code, made by a process the student
controls. The trusted side never takes a verdict, a deadline or a string for a report from it:
it reads values, judges them itself and words every message itself.
"""
from __future__ import annotations

import os
import select
import struct
import time

from .. import plaindata

MAX_MESSAGE = 64 * 1024 * 1024
_HEADER = struct.Struct(">I")
WAIT_STEP = 0.05  # seconds between the waiting side's checks (on_wait)


class ChannelClosed(EOFError):
    """The other end went away (the worker exited or was killed)."""


class ChannelTimeout(TimeoutError):
    pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def send(fd: int, message) -> None:
    body = plaindata.dumps(message)
    if len(body) > MAX_MESSAGE:
        raise plaindata.EncodeError("message too large")
    _write_all(fd, _HEADER.pack(len(body)) + body)


def _read_exact(fd: int, n: int, deadline: float | None, on_wait=None) -> bytes:
    chunks, remaining = [], n
    checked = time.monotonic()
    while remaining:
        if deadline is not None:
            while True:
                now = time.monotonic()
                if now >= deadline:
                    raise ChannelTimeout()
                # every 50 ms whether or not bytes arrive: a reply dripped a byte at a time (red
                # team, round 4) kept the budget's check from ever running
                if on_wait is not None and now - checked >= WAIT_STEP:
                    on_wait()
                    checked = now
                if select.select([fd], [], [], min(deadline - now, WAIT_STEP))[0]:
                    break
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            raise ChannelClosed()
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def receive(fd: int, deadline: float | None = None, on_wait=None):
    """The next message; ``on_wait()`` is called about every 50 ms while waiting (it may raise
    to stop waiting)."""
    (size,) = _HEADER.unpack(_read_exact(fd, _HEADER.size, deadline, on_wait))
    if size > MAX_MESSAGE:
        raise plaindata.DecodeError("message too large")
    return plaindata.loads(_read_exact(fd, size, deadline, on_wait))
