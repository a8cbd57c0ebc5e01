"""Operating-system confinement the worker applies to itself before running student code.

Layers (Linux; each reported in ``apply``'s result, so the grader can say what held):

* an unprivileged user: a grader running as root starts its workers as ``nobody`` (65534),
  so the user's process limit applies and root's files are out of reach;
* resource limits: address space, CPU time, file size, open files, no core dumps, no new
  processes or threads (``RLIMIT_NPROC`` 0);
* no capabilities and ``no_new_privs``; the worker dies with its parent (``PDEATHSIG``), a
  setting it cannot undo (seccomp refuses ``prctl``);
* Landlock (kernel >= 5.13): read-write access to the scratch directory and nothing else: no
  file outside it is readable (numpy, the standard library and needle were loaded by the zygote
  and are not read again; a worker reading a shared library file set its access time, a bit any
  later worker could stat: red team, round 8), so neither are the hidden suites, the solutions,
  needle's source or other students' files; no TCP; since ABI 6, no signals to and no abstract
  sockets with processes outside the sandbox;
* a scratch folder of its own: a private mount namespace with a tmpfs on the scratch directory,
  capped in bytes and in files (inodes), gone with the worker; another worker's or the grader's
  files never share its space; an ordinary user's worker makes a user namespace to own it, where
  the kernel allows;
* seccomp (x86_64): an allowlist (``ALLOWED``): reading and writing files and descriptors, memory,
  and the process's own identity, time and signals; anything else gets ENOSYS, so no new
  processes or threads, no exec, no sockets, no ptrace, no signal handlers, no ``prctl``, no
  limits raised, no mounts or namespaces, nothing that sets another process's affinity or
  priority, and nothing every worker shares (System V IPC, message queues, file locks, file
  watches, free memory and space, the page cache's state, files' owners and extended attributes,
  the keyring), nor any call a later kernel adds. Setting a file's mode or times is answered as
  done and not made (shutil's copies set them). Argument checks on the rest: signals to this
  process only, its own limits read but not set, fcntl's and madvise's commands that concern the process's own descriptors and
  memory only, private futexes only, no other process's CPU clock, ioctl's terminal requests only;
* an empty /proc (in the private mount namespace): stat() of /proc/<pid>/fd told any process's
  count of open files.
"""
from __future__ import annotations

import ctypes
import os
import platform
import resource
import struct
import sys
from pathlib import Path

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
_libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]

PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38
PR_CAPBSET_DROP = 24
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
X86_64 = platform.machine() == "x86_64"
NOBODY = 65534
MEMORY_BYTES = 2 * 1024**3
FILE_BYTES = 8 * 1024**2
CPU_SECONDS = 600

# x86_64 system call numbers: those the filter allows, some with arguments checked, those it answers
# without making them (IGNORED), and capset
SYS = dict(
    read=0, write=1, open=2, close=3, stat=4, fstat=5, lstat=6, poll=7, lseek=8, mmap=9, mprotect=10, munmap=11,
    brk=12, rt_sigprocmask=14, rt_sigreturn=15, ioctl=16, pread64=17, pwrite64=18, readv=19, writev=20,
    access=21, select=23, sched_yield=24, mremap=25, msync=26, madvise=28, dup=32, dup2=33, pause=34,
    nanosleep=35, getitimer=36, alarm=37, setitimer=38, getpid=39, sendfile=40, exit=60, kill=62, uname=63,
    fcntl=72, fsync=74, fdatasync=75, truncate=76, ftruncate=77, getcwd=79, chdir=80, fchdir=81, rename=82,
    mkdir=83, rmdir=84, creat=85, link=86, unlink=87, symlink=88, readlink=89, umask=95, gettimeofday=96,
    getrusage=98, times=100, getuid=102, getgid=104, geteuid=107, getegid=108, getppid=110, getpgrp=111,
    getgroups=115, getresuid=118, getresgid=120, getpgid=121, getsid=124, capget=125, capset=126,
    rt_sigpending=127, rt_sigtimedwait=128, rt_sigsuspend=130, sigaltstack=131, gettid=186, getxattr=191,
    lgetxattr=192, fgetxattr=193, listxattr=194, llistxattr=195, flistxattr=196, time=201, futex=202,
    sched_getaffinity=204, getdents64=217, restart_syscall=219, clock_gettime=228, clock_getres=229,
    clock_nanosleep=230, exit_group=231, tgkill=234, openat=257, mkdirat=258, newfstatat=262, unlinkat=263,
    renameat=264, linkat=265, symlinkat=266, readlinkat=267, faccessat=269, pselect6=270, ppoll=271,
    fallocate=285, dup3=292, renameat2=316, getrandom=318, copy_file_range=326, statx=332,
    close_range=436, faccessat2=439, chmod=90, fchmod=91, fchmodat=268, fchmodat2=452, utime=132, utimes=235,
    futimesat=261, utimensat=280, getrlimit=97, prlimit64=302,
)
FUTEX_PRIVATE_FLAG = 128  # a futex of this process's memory only, not keyed by a shared file's page
# madvise's advice about the process's own memory, as malloc and numpy give it (DONTNEED, FREE,
# HUGEPAGE) and the like. Not the advice that loads, drops or collapses a file's pages in the page
# cache every process shares (WILLNEED, COLD, PAGEOUT, POPULATE_*, COLLAPSE: red team, round 6), nor
# KSM's merging, nor any advice a later kernel adds.
OWN_MADVISE = (0, 1, 2, 4, 8, 10, 11, 14, 15, 16, 17, 18, 19)  # NORMAL .. FREE, DONTFORK .. KEEPONFORK
# fcntl's commands on the process's own descriptors: duplicate, close-on-exec, status flags (Python's
# os.dup, os.set_inheritable, os.set_blocking), a pipe's size. Not record locks, leases or
# notifications (shared with every process that opens the file: round 5), nor a pipe's resizing
# (pipe pages are counted per user: round 7), nor the read/write hints an owner may set on a file's
# inode, which any process reads back (round 8), nor owners, signals or seals.
F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_DUPFD_CLOEXEC, F_GETPIPE_SZ = 0, 1, 2, 3, 4, 1030, 1032
OWN_FCNTL = (F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_DUPFD_CLOEXEC, F_GETPIPE_SZ)
LANDLOCK_CREATE, LANDLOCK_ADD_RULE, LANDLOCK_RESTRICT = 444, 445, 446


def die_with_parent() -> None:
    """Ask the kernel to SIGKILL this process when its parent dies (Linux)."""
    if sys.platform == "linux":
        _libc.prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0)  # 9 = SIGKILL


def _limit(which: int, value: int) -> None:
    soft, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(which, (value, value))


def apply_rlimits() -> None:
    _limit(resource.RLIMIT_AS, MEMORY_BYTES)
    _limit(resource.RLIMIT_FSIZE, FILE_BYTES)
    _limit(resource.RLIMIT_CPU, CPU_SECONDS)
    _limit(resource.RLIMIT_NOFILE, 256)
    _limit(resource.RLIMIT_CORE, 0)


def become_unprivileged(uid: int) -> bool:
    """As root: become ``uid`` (no supplementary groups); True if this process is not root
    afterwards. The new user may start no process or thread at all (RLIMIT_NPROC 0, which
    binds only non-root users)."""
    if os.geteuid() == 0:
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
        except OSError:
            return False
    if os.geteuid() == 0:
        return False
    try:
        _limit(resource.RLIMIT_NPROC, 0)
    except (ValueError, OSError):
        return False
    return True


def drop_capabilities() -> bool:
    """Empty the bounding, effective, permitted and inheritable capability sets (as root:
    uid 0 keeps only an ordinary user's powers over its own files)."""
    for cap in range(64):
        _libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)  # EINVAL past the last capability: ignored
    header = ctypes.create_string_buffer(struct.pack("II", 0x20080522, 0))  # version 3, this process
    data = ctypes.create_string_buffer(bytes(24))  # two zeroed __user_cap_data_struct
    return X86_64 and _libc.syscall(SYS["capset"], header, data) == 0


# --- Landlock --------------------------------------------------------------------------------
FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
FS_REMOVE_DIR, FS_REMOVE_FILE, FS_MAKE_CHAR, FS_MAKE_DIR = 1 << 4, 1 << 5, 1 << 6, 1 << 7
FS_MAKE_REG, FS_MAKE_SOCK, FS_MAKE_FIFO, FS_MAKE_BLOCK, FS_MAKE_SYM = 1 << 8, 1 << 9, 1 << 10, 1 << 11, 1 << 12
FS_REFER, FS_TRUNCATE, FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
READ = FS_READ_FILE | FS_READ_DIR
WRITE = FS_WRITE_FILE | FS_REMOVE_DIR | FS_REMOVE_FILE | FS_MAKE_DIR | FS_MAKE_REG | FS_TRUNCATE


def landlock_abi() -> int:
    """The kernel's Landlock ABI version (0: none). Its syscall numbers are the same on every
    Linux architecture."""
    if sys.platform != "linux":
        return 0
    abi = _libc.syscall(LANDLOCK_CREATE, None, 0, 1)  # LANDLOCK_CREATE_RULESET_VERSION
    return max(int(abi), 0)


def _add_rule(ruleset: int, path: Path, access: int) -> None:
    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    try:
        attr = struct.pack("=Qi", access, fd)  # struct landlock_path_beneath_attr (packed)
        if _libc.syscall(LANDLOCK_ADD_RULE, ruleset, 1, ctypes.c_char_p(attr), 0) != 0:
            raise OSError(ctypes.get_errno(), "landlock_add_rule")
    finally:
        os.close(fd)


def apply_landlock(scratch: Path) -> dict:
    abi = landlock_abi()
    if abi < 1:
        return {"landlock": 0}
    handled = (1 << 13) - 1  # EXECUTE .. MAKE_SYM
    if abi >= 2:
        handled |= FS_REFER
    if abi >= 3:
        handled |= FS_TRUNCATE
    if abi >= 5:
        handled |= FS_IOCTL_DEV
    net = 0b11 if abi >= 4 else 0  # bind and connect TCP: no rule allows either
    scoped = 0b11 if abi >= 6 else 0  # abstract unix sockets and signals
    if abi >= 6:
        attr = struct.pack("QQQ", handled, net, scoped)
    elif abi >= 4:
        attr = struct.pack("QQ", handled, net)
    else:
        attr = struct.pack("Q", handled)
    ruleset = _libc.syscall(LANDLOCK_CREATE, ctypes.c_char_p(attr), len(attr), 0)
    if ruleset < 0:
        return {"landlock": 0}
    try:
        _add_rule(ruleset, scratch, (READ | WRITE) & handled)  # the one rule: nothing else is readable
        if _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "no_new_privs")
        if _libc.syscall(LANDLOCK_RESTRICT, ruleset, 0) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self")
    finally:
        os.close(ruleset)
    return {"landlock": abi, "landlock_net": bool(net), "landlock_signals": bool(scoped)}


# --- seccomp ---------------------------------------------------------------------------------
_LD_W_ABS, _JEQ, _JGE, _AND, _RET = 0x20, 0x15, 0x35, 0x54, 0x06
_ALLOW, _KILL = 0x7FFF0000, 0x80000000
_ERRNO = 0x00050000
_EPERM, _ENOTTY, _ENOSYS = _ERRNO | 1, _ERRNO | 25, _ERRNO | 38
_DONE = _ERRNO | 0  # errno 0: the call returns 0 without being made
_ARCH_X86_64 = 0xC000003E
# An allowlist: the system calls a worker makes, traced over every notebook's solution, mistake
# fixture and threat submission as the grader runs them (docs/security.md: how to trace again), and
# the calls of the same kinds that honest Python code may make beside them (shutil.copyfile, os.stat
# of any kind). Each reaches only this process, its memory and its descriptors, or files Landlock
# lets it open. Any other call, known or added to a later kernel, gets ENOSYS ("not implemented"), as
# on a kernel without it: glibc then falls back to an older call where it has one (clone3 to clone,
# itself refused). The denylist this replaced was found short three times by the red team (file
# locks, the page cache, the keyring, shared futexes: each a channel between workers). Not pipe or
# pipe2, which no worker makes (it inherits its two pipes): a pipe's inode number comes from one
# counter the whole machine shares, read with fstat (a channel between workers: round 8).
ALLOWED = (
    # files and descriptors (which files: Landlock's rules)
    "read", "write", "readv", "writev", "pread64", "pwrite64", "lseek", "close", "open", "openat", "creat",
    "stat", "fstat", "lstat", "newfstatat", "statx", "access", "faccessat", "faccessat2", "readlink", "readlinkat",
    "getdents64", "getcwd", "chdir", "fchdir", "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename",
    "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat", "truncate", "ftruncate", "fsync",
    "fdatasync", "fallocate", "sendfile", "copy_file_range", "getxattr", "lgetxattr", "fgetxattr", "listxattr",
    "llistxattr", "flistxattr", "dup", "dup2", "dup3", "close_range", "select", "pselect6", "poll", "ppoll",
    # memory
    "mmap", "munmap", "mremap", "mprotect", "brk", "msync",
    # the process itself: who it is, its time and its own signals
    "getpid", "gettid", "getppid", "getuid", "geteuid", "getgid", "getegid", "getgroups", "getresuid",
    "getresgid", "getpgrp", "getpgid", "getsid", "getrusage", "getrlimit", "times", "uname", "umask", "getrandom",
    "sched_yield", "sched_getaffinity", "nanosleep", "gettimeofday", "time", "alarm", "setitimer", "getitimer",
    "rt_sigprocmask", "rt_sigreturn", "rt_sigpending", "rt_sigtimedwait", "rt_sigsuspend", "pause",
    "sigaltstack", "restart_syscall", "exit", "exit_group", "capget",
)
# Setting a file's mode or times: answered as done (0) but not made, as a file system without modes
# and times (vfat) answers. Honest code sets them in passing (shutil.copy, copy2 and copytree copy
# them), and failed with them refused; made, they wrote a channel other workers could stat on the
# batch's folders, whose metadata Landlock does not cover (red team, round 6). Owners and extended
# attributes stay refused: Python's copies do not set them on a file of the worker's own folder.
IGNORED = ("chmod", "fchmod", "fchmodat", "fchmodat2", "utime", "utimes", "futimesat", "utimensat")
# Allowed only with some arguments (seccomp_program): kill and tgkill to this process; prlimit64 to
# read this process's limits (resource.getrlimit), not to set any; fcntl's OWN_FCNTL; madvise's
# OWN_MADVISE; futex when private; the clocks but another process's CPU clock; ioctl's TERMINAL_IOCTL.
# ioctl's commands Python itself issues on any descriptor: TCGETS (isatty, open()), TIOCGWINSZ
# (os.get_terminal_size), FIONREAD, FIONBIO, FIONCLEX and FIOCLEX (os.set_inheritable). Any other
# gets ENOTTY, the answer for a descriptor the command does not apply to.
TCGETS, TIOCGWINSZ, FIONREAD, FIONBIO, FIONCLEX, FIOCLEX = 0x5401, 0x5413, 0x541B, 0x5421, 0x5450, 0x5451
TERMINAL_IOCTL = (TCGETS, TIOCGWINSZ, FIONREAD, FIONBIO, FIONCLEX, FIOCLEX)


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k & 0xFFFFFFFF)


def _arg(i: int) -> int:
    """Where the filter reads system call argument ``i``: the low half of it (an int's all)."""
    return 16 + 8 * i


def _on(name: str, block: list[bytes]) -> list[bytes]:
    """``block``, whose every path ends in a return, for the call ``name``; any other call jumps
    past it, the length counted here rather than by hand."""
    return [_insn(_JEQ, SYS[name], 0, len(block))] + block


def _returns(values: tuple, inside: int, otherwise: int) -> list[bytes]:
    """Returns ``inside`` when the accumulator is one of ``values``, else ``otherwise``."""
    n = len(values)
    assert n < 256, "a jump reaches at most 255 instructions"
    return [_insn(_JEQ, v, n - i, 0) for i, v in enumerate(values)] + [_insn(_RET, otherwise), _insn(_RET, inside)]


def _allowed_if_arg_in(i: int, values: tuple, refused: int) -> list[bytes]:
    """Allowed when argument ``i`` is one of ``values``, else ``refused``."""
    return [_insn(_LD_W_ABS, _arg(i))] + _returns(values, _ALLOW, refused)


def seccomp_program(pid: int) -> bytes:
    # x32 system calls carry the x86_64 architecture and their number plus 0x40000000: no such number
    # is allowed below, so they are refused as unlisted calls are
    p = [_insn(_LD_W_ABS, 4), _insn(_JEQ, _ARCH_X86_64, 1, 0), _insn(_RET, _KILL), _insn(_LD_W_ABS, 0)]
    # kill(pid, sig): only this process (or its own group, pid 0)
    p += _on("kill", [_insn(_LD_W_ABS, _arg(0)), _insn(_JEQ, pid, 2, 0), _insn(_JEQ, 0, 1, 0), _insn(_RET, _EPERM),
                      _insn(_RET, _ALLOW)])
    # tgkill(tgid, tid, sig): only this process
    p += _on("tgkill", [_insn(_LD_W_ABS, _arg(0)), _insn(_JEQ, pid, 0, 1), _insn(_RET, _ALLOW), _insn(_RET, _EPERM)])
    # prlimit64(pid, resource, new_limit, old_limit): this process's (pid 0 or its own), new_limit NULL
    # (a pointer: both halves 0), so limits are read, never set
    p += _on("prlimit64", [_insn(_LD_W_ABS, _arg(0)), _insn(_JEQ, pid, 1, 0), _insn(_JEQ, 0, 0, 4),
                           _insn(_LD_W_ABS, _arg(2)), _insn(_JEQ, 0, 0, 2), _insn(_LD_W_ABS, _arg(2) + 4),
                           _insn(_JEQ, 0, 1, 0), _insn(_RET, _EPERM), _insn(_RET, _ALLOW)])
    # fcntl(fd, cmd, ...): the commands in OWN_FCNTL; madvise(addr, length, advice): OWN_MADVISE
    p += _on("fcntl", _allowed_if_arg_in(1, OWN_FCNTL, _EPERM))
    p += _on("madvise", _allowed_if_arg_in(2, OWN_MADVISE, _EPERM))
    # futex(uaddr, op, ...): only private ones (FUTEX_PRIVATE_FLAG in op), as glibc and Python's locks use
    p += _on("futex", [_insn(_LD_W_ABS, _arg(1)), _insn(_AND, FUTEX_PRIVATE_FLAG), _insn(_JEQ, FUTEX_PRIVATE_FLAG, 0, 1),
                       _insn(_RET, _ALLOW), _insn(_RET, _EPERM)])
    # clock_gettime, clock_getres, clock_nanosleep(clock, ...): no negative clock, which names another
    # process's CPU clock (read to the nanosecond by any process: a counter between two workers);
    # this process's own are CLOCK_PROCESS_CPUTIME_ID and CLOCK_THREAD_CPUTIME_ID
    for name in ("clock_gettime", "clock_getres", "clock_nanosleep"):
        p += _on(name, [_insn(_LD_W_ABS, _arg(0)), _insn(_JGE, 0x80000000, 0, 1), _insn(_RET, _EPERM), _insn(_RET, _ALLOW)])
    # ioctl(fd, request, ...): the requests in TERMINAL_IOCTL
    p += _on("ioctl", _allowed_if_arg_in(1, TERMINAL_IOCTL, _ENOTTY))
    for name in IGNORED:
        p += _on(name, [_insn(_RET, _DONE)])
    return b"".join(p + _returns(tuple(SYS[name] for name in ALLOWED), _ALLOW, _ENOSYS))


def apply_seccomp() -> bool:
    if not X86_64:
        return False
    program = seccomp_program(os.getpid())
    buf = ctypes.create_string_buffer(program)
    fprog = struct.pack("HxxxxxxQ", len(program) // 8, ctypes.addressof(buf))
    if _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return False
    fbuf = ctypes.create_string_buffer(fprog)
    return _libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(fbuf), 0, 0) == 0


# --- the scratch folder ----------------------------------------------------------------------
CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 1, 2, 4, 8, 1 << 14, 1 << 18
# What a notebook may leave in its scratch folder, bytes and files: the private tmpfs's size and
# inodes, or, without one, what the grader's session counts (grade/session.py).
SCRATCH_BYTES = 64 * 1024 * 1024
SCRATCH_FILES = 4096


def private_scratch(scratch: str, uid: int) -> bool:
    """A mount namespace of this process's own, with a tmpfs of ``SCRATCH_BYTES`` and
    ``SCRATCH_FILES`` inodes on ``scratch`` owned by ``uid`` (an ordinary user: itself), and an
    empty read-only /proc. It disappears with the process. As root the namespace is the host's
    user namespace's; an ordinary user makes a user namespace of its own to own it, where the
    kernel lets it (``_own_user_namespace``): otherwise there is none, and the grader watches the
    scratch."""
    if sys.platform != "linux":
        return False
    _libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
    if os.geteuid() == 0:
        if _libc.unshare(CLONE_NEWNS) != 0:
            return False
    elif not _own_user_namespace():
        return False
    else:
        uid = os.geteuid()
    if _libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        return False
    options = f"size={SCRATCH_BYTES},nr_inodes={SCRATCH_FILES},mode=0700,uid={uid},gid={uid}".encode()
    if _libc.mount(b"tmpfs", os.fsencode(scratch), b"tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, options) != 0:
        return False
    # An empty /proc: stat() (which Landlock does not cover) of /proc/<pid>/fd gave any process's
    # count of open files, a channel between two workers (red team, round 6). Nothing in a worker
    # reads /proc; the grader reads the worker's from its own namespace.
    return _libc.mount(b"tmpfs", b"/proc", b"tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY,
                       b"size=4k,nr_inodes=1,mode=0555") == 0


_IN_OWN_USER_NAMESPACE = False


def _own_user_namespace() -> bool:
    """As an ordinary user: a user namespace and a mount namespace of this process's own, its user
    and group mapped to themselves (files keep their owners). In it the process holds every
    capability, over that namespace only, until ``apply`` drops them. False where the kernel
    refuses unprivileged user namespaces."""
    global _IN_OWN_USER_NAMESPACE
    uid, gid = os.geteuid(), os.getegid()
    if _libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
        return False
    _IN_OWN_USER_NAMESPACE = True  # from here on it holds capabilities there: apply drops them
    try:
        for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
            with open(f"/proc/self/{name}", "w") as f:
                f.write(text)
    except OSError:
        return False
    return True


def release_free_memory() -> None:
    """Hand freed heap pages back to the system (glibc), so forked workers inherit none of what
    was freed in this process (file contents read at import, for one)."""
    try:
        _libc.malloc_trim(0)
    except AttributeError:  # not glibc
        pass


def apply(scratch: str, worker_uid: int | None) -> dict:
    """Confine this process; returns what is enforced (reported to the grader before any
    student code runs). ``worker_uid``: the user to become when running as root."""
    enforced = {"rlimits": True}
    enforced["private_scratch"] = private_scratch(scratch, NOBODY if worker_uid is None else worker_uid)
    if enforced["private_scratch"]:
        os.chdir(scratch)  # the tmpfs, not the folder under it
    apply_rlimits()
    try:  # first: the rules name files only the current user may be able to open
        enforced.update(apply_landlock(Path(scratch).resolve()))
    except OSError:
        enforced["landlock"] = 0
    enforced["unprivileged"] = become_unprivileged(NOBODY if worker_uid is None else worker_uid)
    die_with_parent()  # after the change of user, which clears it
    # root's, and those an ordinary user holds in a user namespace of its own (private_scratch)
    enforced["capabilities_dropped"] = drop_capabilities() if os.geteuid() == 0 or _IN_OWN_USER_NAMESPACE else True
    enforced["seccomp"] = apply_seccomp()
    return enforced
