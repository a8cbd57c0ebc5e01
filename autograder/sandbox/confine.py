"""Operating-system confinement the worker applies to itself before running student code.

Layers (Linux; each reported in ``apply``'s result, so the grader can say what held):

* an unprivileged user: a grader running as root starts its workers as ``nobody`` (65534),
  so the user's process limit applies and root's files are out of reach;
* resource limits: address space, CPU time, file size, open files, no core dumps, no new
  processes or threads (``RLIMIT_NPROC`` 0);
* no capabilities and ``no_new_privs``; the worker dies with its parent (``PDEATHSIG``), a
  setting it cannot undo (seccomp refuses ``prctl``);
* Landlock (kernel >= 5.13): read-only access to the standard library (graphlib aside), numpy
  and the system's shared libraries, not to the grader or needle (both are already loaded:
  nothing of them is read again) or any other installed package (scipy, scikit-learn),
  read-write access to the scratch directory, nothing else; no TCP; since
  ABI 6, no signals to and no abstract sockets with processes outside the sandbox. The hidden
  suites, the solutions, needle's source and other students' files are outside, hence
  unreadable;
* a scratch folder of its own: a private mount namespace with a tmpfs on the scratch directory,
  capped in bytes and in files (inodes), gone with the worker; another worker's or the grader's
  files never share its space; an ordinary user's worker makes a user namespace to own it, where
  the kernel allows;
* seccomp (x86_64): an allowlist (``ALLOWED``): reading and writing files and descriptors, memory,
  and the process's own identity, time and signals; anything else gets ENOSYS, so no new
  processes or threads, no exec, no sockets, no ptrace, no signal handlers, no ``prctl``, no
  limits raised, no mounts or namespaces, nothing that sets another process's affinity or
  priority, and nothing every worker shares (System V IPC, message queues, file locks, file
  watches, free memory and space, the page cache's state, files' metadata, the keyring), nor any
  call a later kernel adds. Argument checks on the rest: signals to this process only, fcntl
  without locks, leases, notifications or pipe sizes, madvise without the page cache's advice,
  private futexes only, no other process's CPU clock, ioctl's terminal requests only;
* an empty /proc (in the private mount namespace): stat() of /proc/<pid>/fd told any process's
  count of open files.
"""
from __future__ import annotations

import ctypes
import functools
import os
import platform
import resource
import struct
import sys
import sysconfig
from pathlib import Path

from ..importable import WITHHELD

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

# x86_64 system call numbers: those the filter allows, some with arguments checked, and capset
SYS = dict(
    read=0, write=1, open=2, close=3, stat=4, fstat=5, lstat=6, poll=7, lseek=8, mmap=9, mprotect=10, munmap=11,
    brk=12, rt_sigprocmask=14, rt_sigreturn=15, ioctl=16, pread64=17, pwrite64=18, readv=19, writev=20,
    access=21, pipe=22, select=23, sched_yield=24, mremap=25, msync=26, madvise=28, dup=32, dup2=33, pause=34,
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
    fallocate=285, dup3=292, pipe2=293, renameat2=316, getrandom=318, copy_file_range=326, statx=332,
    close_range=436, faccessat2=439,
)
FUTEX_PRIVATE_FLAG = 128  # a futex of this process's memory only, not keyed by a shared file's page
# madvise's advice that loads or drops a file's pages in the page cache every process shares (the
# rest, as numpy's and malloc's DONTNEED, FREE, HUGEPAGE, concern the process's own memory)
MADV_WILLNEED, MADV_COLD, MADV_PAGEOUT, MADV_POPULATE_READ, MADV_POPULATE_WRITE = 3, 20, 21, 22, 23
SHARED_MADVISE = (MADV_WILLNEED, MADV_COLD, MADV_PAGEOUT, MADV_POPULATE_READ, MADV_POPULATE_WRITE)
# fcntl's commands that touch state other processes see: record locks (POSIX and open file
# description ones), leases and directory notifications. The rest (F_GETFL, F_SETFD, ...) are the
# process's own and stay allowed.
F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW = 5, 6, 7, 36, 37, 38
F_SETLEASE, F_GETLEASE, F_NOTIFY, F_SETPIPE_SZ = 1024, 1025, 1026, 1031
# F_SETPIPE_SZ: the kernel counts pipe pages per user, so how far a worker can grow its own pipes
# read another's usage (red team, round 7)
SHARED_FCNTL = (F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW, F_SETLEASE, F_GETLEASE, F_NOTIFY,
                F_SETPIPE_SZ)
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
# Never readable by a worker: the grader and needle (loaded before confinement), folders that hold
# installed packages, and the standard modules withheld from student code (importable.WITHHELD).
NOT_READABLE = ("autograder", "needle", "needle_course", "__editable__", "_needle_course", "site-packages", "dist-packages",
                *sorted(WITHHELD))
# The installed packages a worker may read, besides the standard library: numpy's own folder and
# its wheel's shared libraries. Not scipy, scikit-learn or anything else installed beside them: a
# library's softmax, logsumexp or topological sort is not the student's own (red team, round 4).
READABLE_PACKAGES = ("numpy",)


def landlock_abi() -> int:
    """The kernel's Landlock ABI version (0: none). Its syscall numbers are the same on every
    Linux architecture."""
    if sys.platform != "linux":
        return 0
    abi = _libc.syscall(LANDLOCK_CREATE, None, 0, 1)  # LANDLOCK_CREATE_RULESET_VERSION
    return max(int(abi), 0)


def _entries(folder: str | None) -> set[Path]:
    """The entries of the standard library's folder, except those in NOT_READABLE (a venv's
    lib/python3.11 holds its site-packages)."""
    if not folder or not os.path.isdir(folder):
        return set()
    return {Path(folder, name).resolve() for name in os.listdir(folder) if not name.startswith(NOT_READABLE)}


def _package_folders(name: str) -> set[Path]:
    """The folder of the installed package ``name`` as imported, and its wheel's ``name.libs``."""
    import importlib.util

    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return set()
    folder = Path(next(iter(spec.submodule_search_locations))).resolve()
    return {folder, folder.with_name(f"{name}.libs")}


@functools.lru_cache(maxsize=1)  # computed once in the zygote: sysconfig reads files lazily
def readable_paths() -> list[Path]:
    """What the worker may read: the standard library, numpy, the system's shared libraries;
    not the grader, needle, or any other installed package."""
    paths = set()
    for key in ("stdlib", "platstdlib"):
        paths |= _entries(sysconfig.get_paths().get(key))
    for name in READABLE_PACKAGES:
        paths |= _package_folders(name)
    # shared libraries that extension modules load (libffi, libssl, ...): public files; the
    # multiarch folder only, not /usr/lib, which holds the system's Python packages
    arch = sysconfig.get_config_var("MULTIARCH") or ""
    libraries = [f"/usr/lib/{arch}", f"/lib/{arch}"] if arch else ["/usr/lib", "/lib"]
    paths |= {Path(p) for p in (*libraries, "/lib64", "/usr/lib64", "/etc/ld.so.cache")}
    paths |= {Path("/dev/null"), Path("/dev/urandom")}
    return sorted(p for p in paths if p.exists())


LIBRARY_FDS_BASE = 2000
# (O_PATH descriptor, is a directory) of every readable path, opened once by the zygote: a worker
# inherits them and only adds its rules (574 paths resolved and stat'ed per worker took 40 ms).
LIBRARY_FDS: list[tuple[int, bool]] = []


def _library_fds_base(count: int) -> int | None:
    """The first descriptor number for ``count`` descriptors under this process's open-files
    limit: LIBRARY_FDS_BASE, raising the soft limit toward the hard one if need be, else lower
    (a limit of 1024, common for ordinary users, made every descriptor fail to open and every
    notebook score 0); None when even that does not fit (each worker then opens the paths)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = LIBRARY_FDS_BASE + count + 16
    if soft != resource.RLIM_INFINITY and soft < want and (hard == resource.RLIM_INFINITY or hard >= want):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY or soft >= want:
        return LIBRARY_FDS_BASE
    base = soft - count - 16
    return base if base >= 64 else None  # above the few descriptors the zygote itself holds


def open_library_paths() -> range:
    """Open ``readable_paths()`` as O_PATH descriptors from a base number up (in the zygote);
    returns the descriptors' range, which the zygote's children keep."""
    import fcntl

    paths = readable_paths()
    base = _library_fds_base(len(paths))
    if base is None:
        return range(0)
    for path in paths:
        fd = os.open(path, os.O_PATH)
        LIBRARY_FDS.append((fcntl.fcntl(fd, fcntl.F_DUPFD, base), path.is_dir()))
        os.close(fd)
    fds = [fd for fd, _ in LIBRARY_FDS]
    return range(min(fds, default=base), max(fds, default=base - 1) + 1)


def _add_rule_fd(ruleset: int, fd: int, is_dir: bool, access: int) -> None:
    if not is_dir:
        access &= FS_READ_FILE | FS_WRITE_FILE | FS_TRUNCATE | FS_EXECUTE | FS_IOCTL_DEV
    attr = struct.pack("=Qi", access, fd)  # struct landlock_path_beneath_attr (packed)
    if _libc.syscall(LANDLOCK_ADD_RULE, ruleset, 1, ctypes.c_char_p(attr), 0) != 0:
        raise OSError(ctypes.get_errno(), "landlock_add_rule")


def _add_rule(ruleset: int, path: Path, access: int) -> None:
    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    try:
        _add_rule_fd(ruleset, fd, path.is_dir(), access)
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
        if LIBRARY_FDS:
            for fd, is_dir in LIBRARY_FDS:
                _add_rule_fd(ruleset, fd, is_dir, READ & handled)
        else:
            for path in readable_paths():
                _add_rule(ruleset, path, READ & handled)
        _add_rule(ruleset, scratch, (READ | WRITE) & handled)
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
_ARCH_X86_64 = 0xC000003E
# An allowlist: the system calls a worker makes, traced over every notebook's solution, mistake
# fixture and threat submission as the grader runs them (docs/security.md: how to trace again), and
# the calls of the same kinds that honest Python code may make beside them (shutil's copies, os.stat
# of any kind). Each reaches only this process, its memory and its descriptors, or files Landlock
# lets it open. Any other call, known or added to a later kernel, gets ENOSYS ("not implemented"), as
# on a kernel without it: glibc then falls back to an older call where it has one (clone3 to clone,
# itself refused). The denylist this replaced was found short three times by the red team (file
# locks, the page cache, the keyring, shared futexes: each a channel between workers).
ALLOWED = (
    # files and descriptors (which files: Landlock's rules)
    "read", "write", "readv", "writev", "pread64", "pwrite64", "lseek", "close", "open", "openat", "creat",
    "stat", "fstat", "lstat", "newfstatat", "statx", "access", "faccessat", "faccessat2", "readlink", "readlinkat",
    "getdents64", "getcwd", "chdir", "fchdir", "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename",
    "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat", "truncate", "ftruncate", "fsync",
    "fdatasync", "fallocate", "sendfile", "copy_file_range", "getxattr", "lgetxattr", "fgetxattr", "listxattr",
    "llistxattr", "flistxattr", "dup", "dup2", "dup3", "pipe", "pipe2", "close_range", "select", "pselect6",
    "poll", "ppoll",
    # memory
    "mmap", "munmap", "mremap", "mprotect", "brk", "msync",
    # the process itself: who it is, its time and its own signals
    "getpid", "gettid", "getppid", "getuid", "geteuid", "getgid", "getegid", "getgroups", "getresuid",
    "getresgid", "getpgrp", "getpgid", "getsid", "getrusage", "times", "uname", "umask", "getrandom",
    "sched_yield", "sched_getaffinity", "nanosleep", "gettimeofday", "time", "alarm", "setitimer", "getitimer",
    "rt_sigprocmask", "rt_sigreturn", "rt_sigpending", "rt_sigtimedwait", "rt_sigsuspend", "pause",
    "sigaltstack", "restart_syscall", "exit", "exit_group", "capget",
)
# Allowed only with some arguments (seccomp_program): kill and tgkill to this process; fcntl but
# SHARED_FCNTL; madvise but SHARED_MADVISE; futex when private; the clocks but another process's CPU
# clock; ioctl's commands in TERMINAL_IOCTL.
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


def _refused_if_in(arg: int, values: tuple) -> list[bytes]:
    """Refused when argument ``arg`` is one of ``values``, else allowed."""
    return [_insn(_LD_W_ABS, _arg(arg))] + _returns(values, _EPERM, _ALLOW)


def seccomp_program(pid: int) -> bytes:
    # x32 system calls carry the x86_64 architecture and their number plus 0x40000000: no such number
    # is allowed below, so they are refused as unlisted calls are
    p = [_insn(_LD_W_ABS, 4), _insn(_JEQ, _ARCH_X86_64, 1, 0), _insn(_RET, _KILL), _insn(_LD_W_ABS, 0)]
    # kill(pid, sig): only this process (or its own group, pid 0)
    p += _on("kill", [_insn(_LD_W_ABS, _arg(0)), _insn(_JEQ, pid, 2, 0), _insn(_JEQ, 0, 1, 0), _insn(_RET, _EPERM),
                      _insn(_RET, _ALLOW)])
    # tgkill(tgid, tid, sig): only this process
    p += _on("tgkill", [_insn(_LD_W_ABS, _arg(0)), _insn(_JEQ, pid, 0, 1), _insn(_RET, _ALLOW), _insn(_RET, _EPERM)])
    # fcntl(fd, cmd, ...): not the commands in SHARED_FCNTL; madvise(addr, length, advice): not SHARED_MADVISE
    p += _on("fcntl", _refused_if_in(1, SHARED_FCNTL))
    p += _on("madvise", _refused_if_in(2, SHARED_MADVISE))
    # futex(uaddr, op, ...): only private ones (FUTEX_PRIVATE_FLAG in op), as glibc and Python's locks use
    p += _on("futex", [_insn(_LD_W_ABS, _arg(1)), _insn(_AND, FUTEX_PRIVATE_FLAG), _insn(_JEQ, FUTEX_PRIVATE_FLAG, 0, 1),
                       _insn(_RET, _ALLOW), _insn(_RET, _EPERM)])
    # clock_gettime, clock_getres, clock_nanosleep(clock, ...): no negative clock, which names another
    # process's CPU clock (read to the nanosecond by any process: a counter between two workers);
    # this process's own are CLOCK_PROCESS_CPUTIME_ID and CLOCK_THREAD_CPUTIME_ID
    for name in ("clock_gettime", "clock_getres", "clock_nanosleep"):
        p += _on(name, [_insn(_LD_W_ABS, _arg(0)), _insn(_JGE, 0x80000000, 0, 1), _insn(_RET, _EPERM), _insn(_RET, _ALLOW)])
    # ioctl(fd, request, ...): the requests in TERMINAL_IOCTL
    p += _on("ioctl", [_insn(_LD_W_ABS, _arg(1))] + _returns(TERMINAL_IOCTL, _ALLOW, _ENOTTY))
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
    for fd, _ in LIBRARY_FDS:  # the zygote's descriptors of the library paths: student code gets none
        os.close(fd)
    LIBRARY_FDS.clear()
    enforced["unprivileged"] = become_unprivileged(NOBODY if worker_uid is None else worker_uid)
    die_with_parent()  # after the change of user, which clears it
    # root's, and those an ordinary user holds in a user namespace of its own (private_scratch)
    enforced["capabilities_dropped"] = drop_capabilities() if os.geteuid() == 0 or _IN_OWN_USER_NAMESPACE else True
    enforced["seccomp"] = apply_seccomp()
    return enforced
