"""The trusted side's own work on a submission's code, bounded: parsing, choosing the cells to
run and reviewing them cost time and memory in proportion to what the student wrote, so above a
size an honest notebook never reaches (``LARGE_CODE``) that work runs in a forked child with a
CPU-time and an address-space limit of its own. Going over them is the submission's doing (its
code is too large to grade), never the grader's: no retry, no "internal error".

Below that size the work is done in the calling process: forking for every notebook would cost
each one a process for nothing (the course's largest notebook holds 40 KB of code).
"""
from __future__ import annotations

import os
import pickle
import resource
import signal

from ..notebook import CodeTooLarge

LARGE_CODE = 128 * 1024  # bytes of code above which the work runs in a bounded child
CPU_SECONDS = 4  # the child's CPU budget (1 MB of list literals parses in about 1 s)
EXTRA_MEMORY = 1 << 30  # bytes of address space the child may add to what it inherits
TOO_LARGE = ("your notebook's code is too large to grade: reading it took more than the {cpu} CPU seconds or "
             "{memory} GB of memory the grader gives a notebook's code (the course's largest takes a fraction of "
             "a second); keep data out of the code (load it, or compute it) and submit again")


def over_budget_message() -> str:
    return TOO_LARGE.format(cpu=CPU_SECONDS, memory=EXTRA_MEMORY >> 30)


def within_budget(code_bytes: int, work, *args):
    """``work(*args)``: here if ``code_bytes`` is small, else in a forked child with CPU_SECONDS
    of CPU and EXTRA_MEMORY of address space; CodeTooLarge when the child goes over either
    (or ``work`` raised it). ``work``'s result must pickle."""
    if code_bytes <= LARGE_CODE:
        return work(*args)
    return in_bounded_child(work, *args)


def _address_space() -> int:
    """This process's virtual memory size in bytes (its limit is set above it)."""
    with open("/proc/self/status", "rb") as status:
        for line in status:
            if line.startswith(b"VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def in_bounded_child(work, *args):
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: limits first, then the work; it never returns into the caller
        try:
            os.close(reader)
            signal.signal(signal.SIGXCPU, signal.SIG_DFL)  # over the soft limit: ended
            resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 1))
            resource.setrlimit(resource.RLIMIT_AS, (_address_space() + EXTRA_MEMORY,) * 2)
            try:
                reply = ("ok", work(*args))
            except (CodeTooLarge, MemoryError, RecursionError) as exc:
                reply = ("too large", str(exc) if isinstance(exc, CodeTooLarge) else "")
            except BaseException as exc:  # noqa: BLE001 - the grader's own error: reported as such
                reply = ("error", f"{type(exc).__name__}: {exc}")
            with os.fdopen(writer, "wb") as out:
                out.write(pickle.dumps(reply))
        finally:
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    try:
        kind, value = pickle.loads(data)
    except Exception:  # noqa: BLE001 - killed over its CPU limit, or out of memory mid-reply
        raise CodeTooLarge(over_budget_message()) from None
    if kind == "ok":
        return value
    if kind == "too large":
        raise CodeTooLarge(value or over_budget_message())
    raise RuntimeError(value)
