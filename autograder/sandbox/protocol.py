"""Length-prefixed JSON messages over a pair of pipes (the worker's fds 3 and 4).

Requests (grader -> worker) are plain. Every message from the worker is authenticated: a
keyed BLAKE2b tag over a sequence number and the body, with a key the grader sends in its
first request, before any student code runs, and that only the worker's own code holds. Student
code can write to the worker's output pipe, but what it writes fails the tag: forged replies,
forged progress events and replays are all refused as a broken channel.

Frame: 4-byte big-endian body length, then (worker -> grader only) a 16-byte tag, then the body.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import select
import struct
import time

from .. import plaindata

MAX_MESSAGE = 64 * 1024 * 1024
TAG_BYTES = 16
_HEADER = struct.Struct(">I")


class ChannelClosed(EOFError):
    """The other end went away (the worker exited or was killed)."""


class ChannelTimeout(TimeoutError):
    pass


class Forged(plaindata.DecodeError):
    """A message from the worker without a valid tag: not written by the worker's own code."""


def _write_all(fd: int, data: bytes, _write=os.write, _memoryview=memoryview) -> None:
    view = _memoryview(data)
    while view:
        view = view[_write(fd, view):]


def send(fd: int, message) -> None:
    """A plain message (grader -> worker)."""
    body = plaindata.dumps(message)
    if len(body) > MAX_MESSAGE:
        raise plaindata.EncodeError("message too large")
    _write_all(fd, _HEADER.pack(len(body)) + body)


def tag(key: bytes, seq: int, body: bytes) -> bytes:
    return hashlib.blake2b(seq.to_bytes(8, "big") + body, key=key, digest_size=TAG_BYTES).digest()


def signed_sender(fd: int, key: bytes):
    """The worker's ``send(message)``: each message tagged with the next sequence number.
    Everything it uses is bound now, before student code exists."""
    state = [0]

    def send_signed(message, raw=None, _dumps=plaindata.dumps, _tag=tag, _pack=_HEADER.pack, _write=_write_all, _len=len):
        body = raw if raw is not None else _dumps(message)
        if _len(body) > MAX_MESSAGE:
            raise plaindata.EncodeError("message too large")
        seq = state[0]
        state[0] = seq + 1
        _write(fd, _pack(_len(body)) + _tag(key, seq, body) + body)

    return send_signed


def _read_exact(fd: int, n: int, deadline: float | None, on_wait=None) -> bytes:
    chunks, remaining = [], n
    while remaining:
        if deadline is not None:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ChannelTimeout()
                if select.select([fd], [], [], min(left, 0.1))[0]:
                    break
                if on_wait is not None:
                    on_wait()
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            raise ChannelClosed()
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def receive(fd: int, deadline: float | None = None):
    """The next plain message (worker side: requests)."""
    (size,) = _HEADER.unpack(_read_exact(fd, _HEADER.size, deadline))
    if size > MAX_MESSAGE:
        raise plaindata.DecodeError("message too large")
    return plaindata.loads(_read_exact(fd, size, deadline))


class Verifier:
    """The grader's side of the worker's output pipe: checks each message's tag and order."""

    def __init__(self, fd: int, key: bytes):
        self.fd, self.key, self.seq = fd, key, 0

    def receive(self, deadline: float, on_wait=None):
        """The next authenticated message; ``on_wait()`` is called about every 0.1 s while
        waiting (it may raise to stop waiting)."""
        (size,) = _HEADER.unpack(_read_exact(self.fd, _HEADER.size, deadline, on_wait))
        if size > MAX_MESSAGE:
            raise Forged("message too large")
        received = _read_exact(self.fd, TAG_BYTES, deadline, on_wait)
        body = _read_exact(self.fd, size, deadline, on_wait)
        if not hmac.compare_digest(received, tag(self.key, self.seq, body)):
            raise Forged("message not authenticated")
        self.seq += 1
        return plaindata.loads(body)
