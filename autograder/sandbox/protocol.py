"""Length-prefixed JSON messages over a pair of pipes (the worker's fds 3 and 4)."""
from __future__ import annotations

import os
import select
import struct
import time

from .. import plaindata

MAX_MESSAGE = 64 * 1024 * 1024
_HEADER = struct.Struct(">I")


class ChannelClosed(EOFError):
    """The other end went away (the worker exited or was killed)."""


class ChannelTimeout(TimeoutError):
    pass


def send(fd: int, message) -> None:
    body = plaindata.dumps(message)
    if len(body) > MAX_MESSAGE:
        raise plaindata.EncodeError("message too large")
    data = _HEADER.pack(len(body)) + body
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _read_exact(fd: int, n: int, deadline: float | None) -> bytes:
    chunks, remaining = [], n
    while remaining:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise ChannelTimeout()
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            raise ChannelClosed()
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def receive(fd: int, deadline: float | None = None):
    """The next message (raw JSON value), waiting at most until ``deadline`` (monotonic)."""
    (size,) = _HEADER.unpack(_read_exact(fd, _HEADER.size, deadline))
    if size > MAX_MESSAGE:
        raise plaindata.DecodeError("message too large")
    return plaindata.loads(_read_exact(fd, size, deadline))
