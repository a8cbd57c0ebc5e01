"""The seccomp filter's argument checks, command by command: each fcntl command and madvise advice
it must refuse gets EPERM, each it must allow reaches the kernel (which then answers for itself,
EBADF or EINVAL on the bad arguments used here). A jump off by one in the filter's program would
refuse an allowed command or let a refused one through; the threat batch tries only a few."""
from __future__ import annotations

import ctypes
import errno
import os
import sys

import pytest

from autograder.sandbox import confine

pytestmark = [pytest.mark.skipif(not (sys.platform == "linux" and confine.X86_64), reason="seccomp on x86_64 Linux"),
              pytest.mark.forks]

ALLOWED_FCNTL = (0, 1, 2, 3, 4, 8, 9, 1030, 1032, 1033)  # F_DUPFD ... F_GETFL, F_SETFL, F_SETOWN, F_DUPFD_CLOEXEC, ...
ALLOWED_MADVISE = (0, 1, 2, 4, 8, 14)  # NORMAL, RANDOM, SEQUENTIAL, DONTNEED, FREE, HUGEPAGE


def errors_under_the_filter(calls: list[tuple[str, int, tuple]]) -> list[int]:
    """The errno of each raw system call (name, number, arguments; "self" stands for the child's
    pid), made in a child confined by the filter alone."""
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            os.close(read)
            libc = ctypes.CDLL(None, use_errno=True)
            libc.syscall.restype = ctypes.c_long
            assert confine.apply_seccomp()
            out = []
            for _, number, args in calls:
                args = tuple(os.getpid() if a == "self" else a for a in args)
                ctypes.set_errno(0)
                result = libc.syscall(number, *args)
                out.append(ctypes.get_errno() if result < 0 else 0)
            os.write(write, ",".join(map(str, out)).encode())
        finally:
            os._exit(0)
    os.close(write)
    text = os.read(read, 65536).decode()
    os.close(read)
    os.waitpid(child, 0)
    return [int(x) for x in text.split(",")]


def test_fcntl_commands_and_madvise_advice_are_refused_exactly_as_listed():
    bad_fd, bad_address = -1, ctypes.c_void_p(1)  # the kernel refuses both itself, when asked
    calls = [(f"fcntl {cmd}", confine.SYS["fcntl"], (bad_fd, cmd, 0)) for cmd in confine.SHARED_FCNTL + ALLOWED_FCNTL]
    calls += [(f"madvise {advice}", confine.SYS["madvise"], (bad_address, 4096, advice))
              for advice in confine.SHARED_MADVISE + ALLOWED_MADVISE]
    got = dict(zip((name for name, _, _ in calls), errors_under_the_filter(calls)))
    refused = [f"fcntl {c}" for c in confine.SHARED_FCNTL] + [f"madvise {a}" for a in confine.SHARED_MADVISE]
    assert all(got[name] == errno.EPERM for name in refused), got
    allowed = [f"fcntl {c}" for c in ALLOWED_FCNTL] + [f"madvise {a}" for a in ALLOWED_MADVISE]
    assert all(got[name] not in (0, errno.EPERM) for name in allowed), got  # the kernel's own answer


def test_every_denied_call_and_its_x32_twin_are_refused():
    # each with arguments the kernel would refuse as EBADF, EFAULT or EINVAL if it were asked
    calls = [(name, confine.SYS[name], (-1, 0, 0, 0)) for name in confine.DENIED if name not in ("kill", "tgkill")]
    calls += [(f"x32 {name}", confine.X32_SYSCALL_BIT | confine.SYS[name], (-1, 0, 0, 0)) for name in ("flock", "fadvise64", "chmod")]
    got = dict(zip((name for name, _, _ in calls), errors_under_the_filter(calls)))
    assert all(code == errno.EPERM for code in got.values()), {k: v for k, v in got.items() if v != errno.EPERM}


def test_futexes_private_only_clocks_own_only_signals_to_itself_only():
    """The argument checks after the lists: a shared futex (keyed by a mapped file's page, which
    every worker maps: red team, round 7) is refused, a private one reaches the kernel; another
    process's CPU clock (a negative clock id) is refused, the monotonic clock is not; tgkill
    reaches this process only. Each call's other arguments are ones the kernel refuses itself."""
    futex, bad = confine.SYS["futex"], ctypes.c_void_p(1)
    calls = [("shared futex wait", futex, (bad, 0, 0, 0)), ("private futex wait", futex, (bad, 128, 0, 0)),
             ("shared futex wake", futex, (bad, 1, 1, 0)), ("private futex wake", futex, (bad, 129, 1, 0))]
    for name in ("clock_gettime", "clock_getres", "clock_nanosleep"):
        calls += [(f"{name} of pid 1's CPU clock", confine.SYS[name], ((~1 << 3) | 2, 0, 0, 0)),
                  (f"{name} monotonic", confine.SYS[name], (1, 1, bad, bad))]
    calls += [("tgkill pid 1", confine.SYS["tgkill"], (1, 1, 0)), ("tgkill itself", confine.SYS["tgkill"], ("self", "self", 0)),
              ("kill pid 1", confine.SYS["kill"], (1, 0)), ("kill itself", confine.SYS["kill"], ("self", 0))]
    got = dict(zip((name for name, _, _ in calls), errors_under_the_filter(calls)))
    refused = [n for n in got if n.startswith(("shared", "tgkill pid", "kill pid")) or n.endswith("CPU clock")]
    assert all(got[n] == errno.EPERM for n in refused), got
    assert all(got[n] != errno.EPERM for n in got if n not in refused), got
