"""The seccomp filter: its program read instruction by instruction for every system call number
(an interpreter of the few classic BPF instructions it uses), and, in a child confined by it, the
argument checks command by command: each fcntl command and madvise advice it must refuse gets EPERM,
each it must allow reaches the kernel (which then answers for itself, EBADF or EINVAL on the bad
arguments used here), and every call the red team used gets ENOSYS. A jump off by one in the
filter's program would refuse an allowed call or let a refused one through; the threat batch tries
only a few."""
from __future__ import annotations

import ctypes
import errno
import os
import re
import resource
import select
import signal
import struct
import sys
from pathlib import Path

import pytest

from autograder.sandbox import confine

pytestmark = [pytest.mark.skipif(not (sys.platform == "linux" and confine.X86_64), reason="seccomp on x86_64 Linux"),
              pytest.mark.forks]

X32_SYSCALL_BIT = 0x40000000
# Every call the red team used or the denylist before the allowlist refused (x86_64 numbers): each a
# new process or thread, exec, a socket, ptrace, a signal handler, prctl, a limit, a mount or
# namespace, another process's scheduling, or state every worker shares (IPC, locks, watches, free
# memory and space, the page cache, files' owners and extended attributes, the keyring, futex2, the
# mounts' list, a pipe's inode number: round 8). Files' modes and times: confine.IGNORED, answered as
# done and not made.
RED_TEAM_CALLS = dict(
    socket=41, socketpair=53, connect=42, bind=49, clone=56, fork=57, vfork=58, execve=59, execveat=322, ptrace=101,
    process_vm_readv=310, process_vm_writev=311, setrlimit=160, mount=165, umount2=166, chroot=161,
    pivot_root=155, unshare=272, setns=308, keyctl=250, bpf=321, userfaultfd=323, perf_event_open=298,
    init_module=175, finit_module=313, tkill=200, io_uring_setup=425, open_tree=428, move_mount=429, fsopen=430,
    rt_sigaction=13, prctl=157, rt_sigqueueinfo=129, rt_tgsigqueueinfo=297, pidfd_send_signal=424, pidfd_open=434,
    pidfd_getfd=438, seccomp=317, setpriority=141, sched_setparam=142, sched_setscheduler=144,
    sched_setaffinity=203, ioprio_set=251, sched_setattr=314, migrate_pages=256, move_pages=279, kcmp=312,
    process_madvise=440, shmget=29, shmat=30, shmctl=31, shmdt=67, semget=64, semop=65, semctl=66,
    semtimedop=220, msgget=68, msgsnd=69, msgrcv=70, msgctl=71, mq_open=240, mq_unlink=241, mq_timedsend=242,
    mq_timedreceive=243, mq_notify=244, mq_getsetattr=245, flock=73, inotify_init=253, inotify_init1=294,
    inotify_add_watch=254, fanotify_init=300, fanotify_mark=301, sysinfo=99, statfs=137, fstatfs=138, ustat=136,
    fadvise64=221, readahead=187, cachestat=451, preadv2=327, pwritev2=328, mincore=27, chown=92, fchown=93,
    lchown=94, fchownat=260, setxattr=188, lsetxattr=189, fsetxattr=190, removexattr=197, lremovexattr=198,
    fremovexattr=199, setxattrat=463, removexattrat=466, file_getattr=468, file_setattr=469, open_tree_attr=467,
    add_key=248, request_key=249, futex_waitv=449, futex_wake=454, futex_wait=455, futex_requeue=456,
    statmount=457, listmount=458, clone3=435, pipe=22, pipe2=293,
)
ARGUMENTS_CHECKED = {"kill", "tgkill", "prlimit64", "fcntl", "madvise", "futex", "clock_gettime", "clock_getres", "clock_nanosleep", "ioctl"}


def run_filter(program: bytes, nr: int, args=(0,) * 6, arch: int = 0xC000003E) -> int:
    """The action the filter returns for a call: classic BPF as seccomp runs it, for the instructions
    seccomp_program uses (load a word of seccomp_data, jump if equal / greater or equal, and, return)."""
    args = (tuple(args) + (0,) * 6)[:6]
    data = struct.pack("=IIQ6Q", nr, arch, 0, *(a & 0xFFFFFFFFFFFFFFFF for a in args))
    insns = [struct.unpack("HBBI", program[i:i + 8]) for i in range(0, len(program), 8)]
    pc, acc = 0, 0
    while True:
        code, jt, jf, k = insns[pc]
        if code == 0x20:
            acc = struct.unpack_from("=I", data, k)[0]
        elif code == 0x54:
            acc &= k
        elif code in (0x15, 0x35):
            taken = acc == k if code == 0x15 else acc >= k
            pc += jt if taken else jf
        elif code == 0x06:
            return k
        else:
            raise AssertionError(f"instruction {code:#x} at {pc}: not one seccomp_program uses")
        pc += 1


def test_the_program_allows_exactly_the_listed_calls_and_refuses_the_rest_as_not_implemented():
    program = confine.seccomp_program(4242)
    allowed = {confine.SYS[name] for name in confine.ALLOWED}
    ignored = {confine.SYS[name] for name in confine.IGNORED}  # answered with 0 (errno 0), not made
    checked = {confine.SYS[name] for name in ARGUMENTS_CHECKED}
    for nr in range(1024):
        if nr in checked:
            continue
        action = run_filter(program, nr)
        expected = 0x7FFF0000 if nr in allowed else 0x00050000 if nr in ignored else 0x00050000 | errno.ENOSYS
        assert action == expected, (nr, hex(action))
        assert run_filter(program, nr | X32_SYSCALL_BIT) == 0x00050000 | errno.ENOSYS, f"x32 twin of {nr}"
    assert run_filter(program, confine.SYS["read"], arch=0x40000003) == 0x80000000  # i386: killed
    assert not (allowed | ignored) & set(RED_TEAM_CALLS.values()) and not allowed & ignored
    ioctl = confine.SYS["ioctl"]
    assert {request: run_filter(program, ioctl, (0, request)) for request in (*confine.TERMINAL_IOCTL, 0x5412, 0x40049409)} == {
        **{request: 0x7FFF0000 for request in confine.TERMINAL_IOCTL}, 0x5412: 0x00050000 | errno.ENOTTY,
        0x40049409: 0x00050000 | errno.ENOTTY}  # TIOCSTI (type into a terminal), FICLONE


def test_system_call_numbers_match_the_kernel_headers():
    header = Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h")
    if not header.is_file():
        pytest.skip("no kernel headers (apt-get install linux-libc-dev)")
    numbers = {m[1]: int(m[2]) for m in re.finditer(r"#define __NR_(\w+) (\d+)", header.read_text())}
    known = {**confine.SYS, **RED_TEAM_CALLS}
    assert {name: nr for name, nr in known.items() if name in numbers and numbers[name] != nr} == {}

# Commands and advice a worker must not give, each a channel the red teams used or state another
# process sees: record locks, OFD locks, leases, notifications, F_SETOWN/F_SETSIG, pipe resizing,
# read/write hints (on the inode: round 8), seals; the page cache's advice, KSM, collapse.
REFUSED_FCNTL = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026, 8, 9, 10, 11, 15, 16, 1031, 1033, 1034, 1035, 1036, 1037, 1038)
REFUSED_MADVISE = (3, 9, 12, 13, 20, 21, 22, 23, 25, 100, 101, 102, 103)


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
    ready, _, _ = select.select([read], [], [], 60)  # a filter that refuses write or exit hangs the child
    text = os.read(read, 65536).decode() if ready else ""
    os.close(read)
    if not ready:
        os.kill(child, signal.SIGKILL)
    os.waitpid(child, 0)
    assert text, "the confined child reported nothing (the filter refused its write or its exit?)"
    return [int(x) for x in text.split(",")]


def test_fcntl_commands_and_madvise_advice_are_allowed_exactly_as_listed():
    bad_fd, bad_address = -1, ctypes.c_void_p(1)  # the kernel refuses both itself, when asked
    calls = [(f"fcntl {cmd}", confine.SYS["fcntl"], (bad_fd, cmd, 0)) for cmd in REFUSED_FCNTL + confine.OWN_FCNTL]
    calls += [(f"madvise {advice}", confine.SYS["madvise"], (bad_address, 4096, advice))
              for advice in REFUSED_MADVISE + confine.OWN_MADVISE]
    got = dict(zip((name for name, _, _ in calls), errors_under_the_filter(calls)))
    refused = [f"fcntl {c}" for c in REFUSED_FCNTL] + [f"madvise {a}" for a in REFUSED_MADVISE]
    assert all(got[name] == errno.EPERM for name in refused), got
    allowed = [f"fcntl {c}" for c in confine.OWN_FCNTL] + [f"madvise {a}" for a in confine.OWN_MADVISE]
    assert all(got[name] not in (0, errno.EPERM) for name in allowed), got  # the kernel's own answer
    assert not set(REFUSED_FCNTL) & set(confine.OWN_FCNTL) and not set(REFUSED_MADVISE) & set(confine.OWN_MADVISE)
    program = confine.seccomp_program(4242)  # and every other command or advice, up to 2,047
    for cmd in range(2048):
        expected = 0x7FFF0000 if cmd in confine.OWN_FCNTL else 0x00050000 | errno.EPERM
        assert run_filter(program, confine.SYS["fcntl"], (0, cmd)) == expected, f"fcntl {cmd}"
        expected = 0x7FFF0000 if cmd in confine.OWN_MADVISE else 0x00050000 | errno.EPERM
        assert run_filter(program, confine.SYS["madvise"], (0, 4096, cmd)) == expected, f"madvise {cmd}"


def test_every_call_the_red_team_used_and_its_x32_twin_are_not_implemented():
    # each with arguments the kernel would refuse as EBADF, EFAULT or EINVAL if it were asked
    calls = [(name, nr, (-1, 0, 0, 0)) for name, nr in RED_TEAM_CALLS.items()]
    calls += [(f"x32 {name}", X32_SYSCALL_BIT | confine.SYS[name], (-1, 0, 0, 0)) for name in ("read", "fcntl", "openat")]
    got = dict(zip((name for name, _, _ in calls), errors_under_the_filter(calls)))
    assert all(code == errno.ENOSYS for code in got.values()), {k: v for k, v in got.items() if v != errno.ENOSYS}


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


def test_modes_and_times_are_answered_as_set_and_left_as_they_were(tmp_path):
    """chmod and utime (and every call of their families, confine.IGNORED) return 0 under the filter
    but change nothing, so shutil's copies, which set both, work (honest code failed with them
    refused), and no worker can write a mode or a time that another one stats (red team, round 6)."""
    source = tmp_path / "a.txt"
    source.write_text("x")
    os.chmod(source, 0o644)
    os.utime(source, ns=(10**18, 10**18))
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            os.close(read)
            import shutil
            assert confine.apply_seccomp()
            os.chdir(tmp_path)
            os.chmod("a.txt", 0o600)
            os.utime("a.txt", (1, 1))
            shutil.copy("a.txt", "b.txt")
            shutil.copy2("a.txt", "c.txt")
            shutil.copytree(".", "tree")
            st = os.stat("a.txt")
            os.write(write, f"{st.st_mode & 0o777:o} {st.st_mtime_ns} {sorted(os.listdir('tree'))}".encode())
        except BaseException as exc:
            os.write(write, f"raised {exc!r}".encode())
        finally:
            os._exit(0)
    os.close(write)
    ready, _, _ = select.select([read], [], [], 60)
    text = os.read(read, 65536).decode() if ready else ""
    os.close(read)
    if not ready:
        os.kill(child, signal.SIGKILL)
    os.waitpid(child, 0)
    assert text == f"644 {10**18} ['a.txt', 'b.txt', 'c.txt']", text


def test_limits_are_read_never_set():
    """prlimit64 reads this process's own limits (resource.getrlimit, which honest code may call);
    setting one (resource.setrlimit: a raised CPU or memory limit), or reading another process's,
    is refused, and so is a new_limit pointer whose low half alone is 0 (the filter reads both)."""
    prlimit, cpu = confine.SYS["prlimit64"], resource.RLIMIT_CPU
    old, new = ctypes.create_string_buffer(16), ctypes.create_string_buffer(bytes(16))
    calls = [("read own (pid 0)", prlimit, (0, cpu, None, old)), ("read own (pid)", prlimit, ("self", cpu, None, old)),
             ("read pid 1's", prlimit, (1, cpu, None, old)), ("set own", prlimit, (0, cpu, new, None)),
             ("getrlimit", confine.SYS["getrlimit"], (cpu, old))]
    got = dict(zip((name for name, _, _ in calls), errors_under_the_filter(calls)))
    assert got == {"read own (pid 0)": 0, "read own (pid)": 0, "read pid 1's": errno.EPERM, "set own": errno.EPERM,
                   "getrlimit": 0}, got
    program = confine.seccomp_program(4242)
    for pid, new_limit, expected in ((0, 0, 0x7FFF0000), (4242, 0, 0x7FFF0000), (4243, 0, 0x00050000 | errno.EPERM),
                                     (0, 1 << 32, 0x00050000 | errno.EPERM), (0, 0x7F0000001000, 0x00050000 | errno.EPERM),
                                     (1 << 32, 0, 0x7FFF0000)):  # a pid is an int: its low half is all the kernel reads
        assert run_filter(program, prlimit, (pid, cpu, new_limit, 0)) == expected, (pid, hex(new_limit))
