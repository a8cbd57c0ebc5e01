"""Hostile submissions: the worker's process belongs to the student (numpy alone gives raw memory
access), so a grade holds by what is absent from it and by what is measured outside it. Each
threat is a real submission graded by the real command line in one batch beside honest ones;
each test asserts that threat's outcome: 0 for the task it cheats on, a plain failure, or a
review flag, and never a change to anyone else's grade.

Expected scores come from the suites themselves (the points of each task), so they stay exact
when a suite's points change.
"""
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat
import pytest

from autograder.check.selfcheck import load_mistake
from autograder.submissions import is_reserved
from autograder.sandbox.confine import X86_64, landlock_abi
from autograder.suiterun import collect_tests
from autograder.results import points_back
from conftest import LECTURE8, remove_at_end, venv_env

ASSIGNMENT = LECTURE8.name
LINUX_SANDBOX = sys.platform == "linux" and X86_64 and landlock_abi() >= 1


def points(notebook: str, task: str | None = None) -> float:
    return sum(p for _, _, t, p in collect_tests(LECTURE8.suite(notebook)) if task in (None, t))


def solution_cells(notebook: str) -> dict:
    nb = nbformat.read(LECTURE8.source_notebook(notebook), 4)
    return {c.metadata["nbgrader"]["grade_id"]: c.source for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")}


def submit(release_root: Path, folder: Path, notebook: str, replace: dict) -> None:
    nb = nbformat.read(release_root / "course" / ASSIGNMENT / f"{notebook}.ipynb", 4)
    cells = solution_cells(notebook)
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell.metadata.get("nbgrader", {}).get("solution"):
            cell.source = replace.get(gid, cells[gid])
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / f"{notebook}.ipynb")


NB1, NB2, NB7 = "01_graph_accumulation", "02_detach", "07_init_variance"
NB4, NB6, NB8, NB9 = "04_module_parameters", "06_tensor_tuple", "08_train_digits", "09_backward"
NB5 = "05_optimizer_training"
COUNT, DEPTH = "task1_1_count_graph_nodes", "task1_2_graph_depth"
COPYING_DETACH = '''
def detach(t):
    return ndl.Tensor(t.numpy())  # a copy: not the same array, a new leaf
'''

# What the operating system refuses a worker, whatever the student's code does inside its own
# process: if any of these works, the answer is wrong by 1000.
OS_PROBE = '''
import ctypes, os, sys

_libc = ctypes.CDLL(None, use_errno=True)


def _syscall(number, *args):
    """A raw system call that raises when it fails (an IPC object made anyway is removed)."""
    result = _libc.syscall(number, *args)
    if result < 0:
        raise OSError(ctypes.get_errno(), f"syscall {number}")
    return result


def _shows(change, read):
    """Make ``change``; raise unless ``read`` then tells it happened."""
    before = read()
    change()
    if read() == before:
        raise OSError("no effect")


def _opened():
    tries = []
    # System V IPC (shared memory, semaphores, message queues) and POSIX message queues: host-wide
    # objects that outlive the worker (a channel to other workers, memory outside every limit)
    tries.append(lambda: _syscall(31, _syscall(29, 0, 4096, 0o1600), 0, None))  # shmget(IPC_PRIVATE), then IPC_RMID
    tries.append(lambda: _syscall(66, _syscall(64, 0, 1, 0o1600), 0, 0))       # semget, then IPC_RMID
    tries.append(lambda: _syscall(71, _syscall(68, 0, 0o1600), 0, None))        # msgget, then IPC_RMID
    tries.append(lambda: _syscall(240, b"/needle-threat", 0o100 | 0o2, 0o600, None))  # mq_open(O_CREAT | O_RDWR)
    # state every worker shares, a channel between two running at once (red team, round 5: locks on
    # /dev/null carried needle's code from 08's worker into 09's): locks, watches, free memory and space
    _own = os.open("probe.bin", os.O_RDWR | os.O_CREAT)  # a file of the worker's own scratch
    os.write(_own, bytes(4096))
    _fcntl = __import__("fcntl")
    _lock = __import__("struct").pack("hhqqi4x", _fcntl.F_RDLCK, 0, 0x5EED, 1, 0)
    tries.append(lambda: _fcntl.flock(_own, _fcntl.LOCK_SH | _fcntl.LOCK_NB))
    tries.append(lambda: _fcntl.fcntl(_own, _fcntl.F_SETLK, _lock))
    tries.append(lambda: _fcntl.fcntl(_own, _fcntl.F_GETLK, _lock))
    tries.append(lambda: _fcntl.fcntl(_own, 37, _lock))                        # F_OFD_SETLK
    tries.append(lambda: _syscall(294, 0))                                      # inotify_init1
    tries.append(lambda: _syscall(99, ctypes.create_string_buffer(256)))        # sysinfo: the host's free memory
    tries.append(lambda: os.statvfs("."))                                       # statfs: the disk's free space
    tries.append(lambda: _syscall(0x40000000 | 73, _own, 1 | 4))                # flock, as an x32 call
    # the page cache every process shares and that outlives the worker (red team, round 6: bits as
    # cached pages of a large library, set by fadvise, read by preadv2's RWF_NOWAIT), and the
    # metadata of files, which Landlock does not cover (the batch's folders, as an ordinary user)
    _libc.mmap.restype = ctypes.c_void_p
    _libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    _mapped = ctypes.c_void_p(_libc.mmap(None, 4096, 1, 1, _own, 0))            # PROT_READ, MAP_SHARED
    _anon = ctypes.c_void_p(_libc.mmap(None, 4096, 3, 0x22, -1, 0))            # MAP_PRIVATE | MAP_ANONYMOUS
    tries.append(lambda: os.posix_fadvise(_own, 0, 0, os.POSIX_FADV_DONTNEED))
    tries.append(lambda: os.preadv(_own, [bytearray(4096)], 0, os.RWF_NOWAIT))
    tries.append(lambda: _syscall(187, _own, 0, 4096))                        # readahead
    tries.append(lambda: _syscall(28, _mapped, 4096, 3))                      # madvise(MADV_WILLNEED)
    tries.append(lambda: _syscall(27, _anon, 4096, ctypes.create_string_buffer(1)))  # mincore
    # round 7: the user's keyring (outlives the run), a futex keyed by a mapped file's page (shared by
    # every worker that maps it), another process's CPU clock, pipe pages counted per user
    tries.append(lambda: _syscall(248, b"user", b"needle-threat", b"x", 1, -4))  # add_key to the user keyring
    tries.append(lambda: _syscall(249, b"user", b"needle-threat", None, 0))      # request_key
    tries.append(lambda: _syscall(202, _mapped, 1, 1, None, None, 0))            # futex(FUTEX_WAKE), shared
    tries.append(lambda: _syscall(228, (~1 << 3) | 2, ctypes.create_string_buffer(16)))  # pid 1's CPU clock
    tries.append(lambda: _fcntl.fcntl(3, 1031, 1 << 20))                         # F_SETPIPE_SZ, the worker's own pipe
    # round 8: reading a library file sets its access time, which any later worker can stat (a bit
    # per file, across runs); read/write hints an owner sets on a file's inode, read back by any
    # process; a pipe's inode number, from one counter the machine shares; KSM and collapse advice
    _numpy = __import__("numpy").__file__
    tries.append(lambda: open(_numpy, "rb").read(1))
    tries.append(lambda: os.listdir(os.path.dirname(_numpy)))
    tries.append(lambda: _fcntl.fcntl(_own, 1036, __import__("struct").pack("Q", 2)))  # F_SET_RW_HINT
    tries.append(lambda: os.pipe())
    tries.append(lambda: _syscall(28, _anon, 4096, 12))                        # madvise(MADV_MERGEABLE)
    tries.append(lambda: _syscall(28, _anon, 4096, 25))                        # madvise(MADV_COLLAPSE)
    # a mode or a time set (answered as done, not made: it must not show)
    tries.append(lambda: _shows(lambda: os.chmod(".", os.stat(".").st_mode ^ 0o001), lambda: os.stat(".").st_mode))
    tries.append(lambda: _shows(lambda: os.utime(".", (12345, 12345)), lambda: os.stat(".").st_mtime_ns))
    tries.append(lambda: os.setxattr(".", "user.needle", b"1"))
    tries.append(lambda: __import__("threading").Thread(target=lambda: None).start())
    tries.append(lambda: __import__("signal").signal(10, lambda *a: None))
    tries.append(lambda: os.fork())
    tries.append(lambda: __import__("socket").socket())
    tries.append(lambda: open("/proc/self/mem", "rb"))
    tries.append(lambda: open("/proc/self/clear_refs", "w").write("5"))  # would reset the peak memory the grader reads
    tries.append(lambda: open(SOLUTIONS, "rb"))
    tries.append(lambda: open(NEEDLE_SOURCE, "rb"))
    # installed packages beside numpy (scipy's logsumexp, softmax) and graphlib (Task 9.1's
    # topological order): not readable, whatever the import machinery is told
    _site = os.path.dirname(os.path.dirname(__import__("numpy").__file__))
    tries.append(lambda: open(os.path.join(_site, "scipy", "special", "__init__.py"), "rb"))
    tries.append(lambda: os.listdir(_site))
    tries.append(lambda: open(os.path.join(os.path.dirname(os.__file__), "graphlib.py"), "rb"))
    tries.append(lambda: os.kill(os.getppid(), 0) if os.getppid() > 1 else None)
    tries.append(lambda: os.sched_setaffinity(os.getppid(), {0}))
    tries.append(lambda: os.sched_setaffinity(0, {0}))
    tries.append(lambda: os.sched_setscheduler(os.getppid(), os.SCHED_IDLE, os.sched_param(0)))
    tries.append(lambda: os.setpriority(os.PRIO_PROCESS, os.getppid(), 19))
    tries.append(lambda: os.setpriority(os.PRIO_PGRP, 0, 19))
    tries.append(lambda: os.setpriority(os.PRIO_USER, os.getuid(), 19))
    tries.append(lambda: __import__("resource").setrlimit(__import__("resource").RLIMIT_CPU, (10**6, 10**6)))
    opened = []
    for i, attempt in enumerate(tries):
        try:
            attempt()
            opened.append(i)
        except BaseException:
            pass
    return opened

_OPENED = None

def graph_depth(t) -> int:
    global _OPENED
    if _OPENED is None:
        _OPENED = _opened()
    depth = {}
    stack = [(t, False)]
    while stack:
        node, done = stack.pop()
        if id(node) in depth:
            continue
        if not node.inputs:
            depth[id(node)] = 0
        elif done:
            depth[id(node)] = 1 + max(depth[id(x)] for x in node.inputs)
        else:
            stack.append((node, True))
            stack.extend((x, False) for x in node.inputs if id(x) not in depth)
    return depth[id(t)] + (1000 if _OPENED else 0)
'''

# The frames route to the probe that judges "shares": it works (the process is the student's),
# so it is a claim about the student's own detach: the trusted side flags it for review.
FRAME_WALK = COPYING_DETACH.replace("def detach(t):", '''import sys

def _lie():
    true = lambda *a, **k: {"is_tensor": True, "same_object": False, "shares": True, "op_none": True,
                            "inputs_empty": True, "requires_grad_false": True, "grad_none": True}
    for getter in (lambda: sys._getframe(2).f_globals,
                   lambda: __import__("inspect").currentframe().f_back.f_back.f_globals):
        try:
            getter()["detach_facts"] = true
        except BaseException:
            pass

def detach(t):
    _lie()''')

# Task 9.1 and 9.2 answered from the probe's own frame, climbed through a traceback with
# attrgetter (no attribute syntax): the order the probe would hold, and the lists it would
# report from, emptied. The probes hold no order and report from a tuple; the trusted side
# asks one .grad per node it picked.
_CLIMB = """import operator

_frame_of, _caller, _names = (operator.attrgetter(n) for n in ("tb_frame", "f_back", "f_locals"))

def _frame_objects():
    try:
        raise ValueError
    except ValueError as exc:
        frame = _frame_of(exc.__traceback__)
    while frame is not None:
        yield frame
        frame = _caller(frame)

def _frames():
    return (_names(frame) for frame in _frame_objects())
"""
FRAME_CLIMB_TOPO = _CLIMB + '''
def find_topo_sort(node_list):
    for here in _frames():
        for value in here.values():
            if isinstance(value, list) and len(value) > len(node_list) and all(hasattr(v, "inputs") for v in value):
                return list(value)
    return []
'''
FRAME_CLIMB_BACKWARD = _CLIMB + '''
def compute_gradient_of_variables(output_tensor, out_grad):
    for here in _frames():
        for value in here.values():
            if isinstance(value, list):
                value.clear()
'''

# Red team, round 9 (after 01's digest): Task 9.1 answered by the probes' own numbering walk, a
# topological order, found by a frame walk the review cannot read. 09's worker holds no walk of a graph.
GRADER_TOPO = '''
def _s(c):
    return "".join(map(chr, c))


_TB, _FR, _BK, _GL = ([95, 95, 116, 114, 97, 99, 101, 98, 97, 99, 107, 95, 95], [116, 98, 95, 102, 114, 97, 109, 101],
                      [102, 95, 98, 97, 99, 107], [102, 95, 103, 108, 111, 98, 97, 108, 115])


def find_topo_sort(node_list):
    try:
        raise KeyError
    except KeyError as e:
        f = getattr(getattr(e, _s(_TB)), _s(_FR))
    while f is not None:
        walk = getattr(f, _s(_GL)).get("nodes_of")
        if callable(walk):
            return walk(*node_list)
        f = getattr(f, _s(_BK))
    raise LookupError("no walk of the grader's here")
'''
# Red team, round 10: Task 9.1 with no walk at all: a cell hooks needle's constructors and logs every
# value as it is made; a node is made after its inputs, so the log of a graph built with ops is a
# topological order. The probes hand the student a copy of each graph made in a shuffled order.
CREATION_ORDER_TOPO = '''
import weakref

from needle.autograd import Value as _V

# Every value needle makes is numbered as it is made: leaves through _init, op results through
# make_from_op. A value's inputs exist before it does, so creation order is a topological order.
_LOG = []            # weak references, in creation order
_orig_init = _V._init
_orig_make = _V.__dict__["make_from_op"].__func__


def _init(self, *args):
    _orig_init(self, *args)
    _LOG.append(weakref.ref(self))


def _make(cls, op, inputs):
    value = _orig_make(cls, op, inputs)
    _LOG.append(weakref.ref(value))
    return value


_V._init = _init
_V.make_from_op = classmethod(_make)


def find_topo_sort(node_list):
    """No depth-first search: the nodes in the order needle made them, kept when a later node
    that is kept uses them (one pass from the newest to the oldest)."""
    alive = [v for v in (r() for r in _LOG) if v is not None]
    _LOG[:] = [weakref.ref(v) for v in alive]
    keep = {id(v) for v in node_list}
    for v in reversed(alive):
        if id(v) in keep:
            keep.update(id(x) for x in v.inputs)
    return [v for v in alive if id(v) in keep]
'''
# Red team, round 11: Task 4.1 with no walk, against round 10's stray (a Parameter made after the
# tree): the Parameters made, or given to any Module, between the module's __init__ and the last
# attribute set on any Module. The probe now also makes a Parameter while the tree is put together and
# gives it to a Module apart from the tree.
PARAMETERS_IN_A_WINDOW = r'''
import weakref

_made = []          # (sequence number, weak reference) of every Parameter, in the order made
_clock = [0, 0]     # [counter, sequence number of the last attribute set on any Module]


class Parameter(ndl.Tensor):
    """Task 4.1: a Tensor that is a trainable parameter of a Module."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _clock[0] += 1
        _made.append((_clock[0], weakref.ref(self)))


class Module:
    """Task 4.1: base class of models, layers and losses."""

    def __init__(self):
        _clock[0] += 1
        object.__setattr__(self, "_born", _clock[0])

    def __setattr__(self, name, value):
        _clock[0] += 1
        _clock[1] = _clock[0]
        if isinstance(value, Parameter):  # one made earlier, attached now: it counts from now
            _made.append((_clock[0], weakref.ref(value)))
        object.__setattr__(self, name, value)

    def parameters(self) -> list:
        born, last = self.__dict__.get("_born", 0), _clock[1]
        out, seen = [], set()
        for seq, ref in _made:
            p = ref()
            if p is not None and born < seq <= last and id(p) not in seen:
                seen.add(id(p))
                out.append(p)
        return out

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must define forward()")
'''
# Both construction hooks below: every node made through needle's constructors passes _record.
HOOK_CONSTRUCTORS = r'''

def _make(cls, op, inputs):
    v = _make0(cls, op, inputs)
    _record(v)
    return v


def _init(self, op, inputs, cached_data, requires_grad):
    _init0(self, op, inputs, cached_data, requires_grad)
    _record(self)


_V.make_from_op = classmethod(_make)
_V._init = _init
'''
# Red team, round 11: Tasks 1.1 and 1.2 with no walk: a hook on needle's constructors records, as
# each node is made, its depth (one more than its inputs', made before it) and the nodes below it (a
# bitset of creation numbers); the two functions read the record. 01's probes now make their graphs
# without needle's constructors, ops or compute, small graphs in an order drawn at random.
CONSTRUCTION_HOOK_COUNT = r'''
import weakref

_V = ndl.autograd.Value
_make0 = _V.make_from_op.__func__
_init0 = _V._init
_info = weakref.WeakKeyDictionary()   # node -> (depth, bitset of the nodes reachable from it, made since)
_made = [0, 0, 0]                     # [nodes made so far, nodes made when a walk last returned, used since]
_used = weakref.WeakSet()             # nodes some later node took as an input
BITS_UP_TO = 3000                     # beyond that, count the nodes made since the last call


def _record(v):
    n = _made[0]
    _made[0] += 1
    ins = _V.__dict__["inputs"].__get__(v)
    depth, bits = 0, 1 << (n - _made[1]) if n - _made[1] < BITS_UP_TO else 0
    for x in ins:
        d, b = _info.get(x, (0, 0))
        depth = max(depth, d + 1)
        bits |= b
        if x not in _used:
            _used.add(x)
            _made[2] += 1
    _info[v] = (depth, bits)

''' + HOOK_CONSTRUCTORS + r'''


def _lookup(t):
    if t in _info:
        return _info[t], 0
    ins = t.inputs                     # a node made without needle's constructors: one step down
    depth, bits = 0, 0
    for x in ins:
        d, b = _info.get(x, (0, 0))
        depth, bits = max(depth, d + 1), bits | b
    return (depth, bits), 1


def count_graph_nodes(t) -> int:
    (depth, bits), extra = _lookup(t)
    since, used = _made[0] - _made[1], _made[2]
    _made[1], _made[2] = _made[0], 0
    if since > BITS_UP_TO:
        return 1 + used + extra
    return bin(bits).count("1") + extra
'''
CONSTRUCTION_HOOK_DEPTH = r'''
def graph_depth(t) -> int:
    (depth, bits), extra = _lookup(t)
    _made[1], _made[2] = _made[0], 0
    return depth
'''
# Red team, round 11: the same hook, against round 10's fix (a copy of each graph made in a shuffled
# order, but the original still built in the worker with needle's ops): it keys each node it sees
# made by its op and values (and its inputs'), and sorts the copies, found by an unordered search, by
# the creation number of their key. The graphs are now built on the trusted side only and sent in
# an order drawn there: the worker makes no graph in a topological order.
CREATION_MATCHED_TOPO = r'''
_V = ndl.autograd.Value
_OPd, _DATAd, _INd = _V.__dict__["op"], _V.__dict__["cached_data"], _V.__dict__["inputs"]
_make0 = _V.make_from_op.__func__
_init0 = _V._init
_first = {}        # key -> number of the first node made with it since the last call
_made = [0]


def _shallow(v):
    op, data = _OPd.__get__(v), _DATAd.__get__(v)
    arrays = data if isinstance(data, tuple) else (data,)
    return (None if op is None else type(op).__name__, tuple((a.dtype.str, a.shape, a.tobytes()) for a in arrays))


def _key(v):  # the node's op and values, and those of its inputs (one level: no walk)
    return _shallow(v), tuple(_shallow(x) for x in _INd.__get__(v))


def _record(v):
    _made[0] += 1
    try:
        _first.setdefault(_key(v), _made[0])
    except Exception:
        pass

''' + HOOK_CONSTRUCTORS + r'''


def find_topo_sort(node_list):
    found, seen = [], set()
    todo = list(node_list)
    while todo:                       # every node once, in no particular order
        v = todo.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        found.append(v)
        todo.extend(v.inputs)
    found.sort(key=lambda v: _first.get(_key(v), 0))
    _first.clear()
    return found
'''
# Task 1.1 by a recursive walk (it hits Python's recursion limit on the deep chain) that first
# looks for the graph's node list in the probes' frames and globals (its length is the count).
# The probes hold only the graph's output while the student's function runs.
FRAME_CLIMB_COUNT = _CLIMB + '''
def _held(t):
    for here in _frames():
        for value in list(here.values()):
            for item in (value, *(value.values() if isinstance(value, dict) else ())):
                for candidate in (item, *(item if isinstance(item, tuple) else ())):
                    if isinstance(candidate, list) and candidate and candidate[-1] is t:
                        return len(candidate)
    return None

def count_graph_nodes(t) -> int:
    held = _held(t)
    if held is not None:
        return held
    seen = set()
    def visit(node):
        if id(node) not in seen:
            seen.add(id(node))
            for x in node.inputs:
                visit(x)
    visit(t)
    return len(seen)
'''

# Answers copied from what a probe held while calling the student's code (a red-team run found
# them): 04's labels of the tree being walked (its Parameters in order) and its record of built
# Parameters; 07's first draw while it re-seeds and draws again; 08's first read of an item while
# it reads it again. The probes hold nothing of the kind now (a digest where a comparison needs
# one); the code below is otherwise wrong, so only a stolen value could pass.
_CLIMB_G = _CLIMB + """
_globals_of = operator.attrgetter("f_globals")
"""
STEALS_LABELS = _CLIMB_G + '''
class Parameter(ndl.Tensor):
    """a marker"""


class Module:
    def parameters(self) -> list:
        for frame in _frame_objects():
            for value in list(_names(frame).values()):
                if type(value) is dict and any(v is self for v in value.values()):
                    return [v for v in value.values() if isinstance(v, Parameter)]
            built = _globals_of(frame).get("_BUILT")
            if built is not None and hasattr(built, "valuerefs") and len(built):
                return [v for v in list(built.values()) if isinstance(v, Parameter)]
        return [v for v in self.__dict__.values() if isinstance(v, Parameter)]  # direct attributes only

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError()
'''
_STEAL_FIRST = '''    for here in _frames():
        first = here.get("first")
        if "second" in here and isinstance(first, dict) and first.get("values") is not None:
            return ndl.Tensor(first["values"], dtype="float32", requires_grad=False)
'''
STEALS_FIRST_DRAW = {
    "task7_1_kaiming_normal": _CLIMB + '''
def kaiming_normal(fan_in, fan_out):
''' + _STEAL_FIRST + '''    draw = np.random.default_rng().standard_normal((fan_in, fan_out)) * np.sqrt(2.0 / fan_in)
    return ndl.Tensor(draw, dtype="float32", requires_grad=False)
''',
    "task7_2_kaiming_uniform": _CLIMB + '''
def kaiming_uniform(fan_in, fan_out):
''' + _STEAL_FIRST + '''    bound = np.sqrt(6.0 / fan_in)
    return ndl.Tensor(np.random.default_rng().uniform(-bound, bound, (fan_in, fan_out)), dtype="float32",
                      requires_grad=False)
''',
}
STEALS_FIRST_READ = _CLIMB + '''
class DigitsDataset(ndl.data.Dataset):
    def __init__(self, X, y, transforms=None):
        super().__init__(transforms)
        self.images = np.array(X, dtype=np.float32).reshape(-1, 8, 8, 1)
        self.labels = np.asarray(y, dtype=np.int64)
        self.reads = {}

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        self.reads[index] = self.reads.get(index, 0) + 1
        if self.reads[index] > 1:
            for here in _frames():
                items, indices = here.get("items"), here.get("indices")
                if isinstance(items, list) and isinstance(indices, list) and index in [int(i) for i in indices]:
                    report = items[[int(i) for i in indices].index(index)]
                    if isinstance(report, dict) and report.get("values") is not None:
                        return np.asarray(report["values"], dtype=np.float32), self.labels[index]
        self.images[index] /= 16  # the mistake: its stored pixels scaled again on every read
        image = self.apply_transforms(self.images[index])
        return np.asarray(image, dtype=np.float32).reshape(64), self.labels[index]
'''

# Task 8.1's features as an ndarray subclass of one zero that claims shape (64,) and stacks into
# a batch of the right shape: the probe reads shape, dtype and values from the array's memory.
FAKE_FEATURES = """
class _Claims64(np.ndarray):
    @property
    def shape(self):
        return (64,)

    def __array_function__(self, func, types, args, kwargs):
        if func is np.stack:
            return np.zeros((len(args[0]), 64), np.float32)
        return super().__array_function__(func, types, args, kwargs)


class DigitsDataset(ndl.data.Dataset):
    def __init__(self, X, y, transforms=None):
        super().__init__(transforms)
        self.labels = np.asarray(y, dtype=np.int64)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        self.apply_transforms(np.zeros((8, 8, 1), np.float32))
        return np.zeros(1, np.float32).view(_Claims64), self.labels[index]
"""

# One reply frame of 64 MiB of empty lists, written on the worker's reply pipe: the trusted side
# refuses a message of that many values unread (decoding it cost 2.8 GB and a minute).
FLOODS_REPLY = """
import posix
import struct

_BODY = b'{"ok":[' + b"[]," * ((64 * 1024 * 1024 - 16) // 3 - 1) + b"[]]}"

def count_graph_nodes(t) -> int:
    view = memoryview(struct.pack(">I", len(_BODY)) + _BODY)
    while view:
        view = view[posix.write(4, view):]
    return 0
"""

# Honest Python whose continued lines start with != and %: IPython runs it, so must the grader.
CONTINUED_LINES = '''
def count_graph_nodes(t) -> int:
    seen, stack = {}, [t]
    while stack:
        node = stack.pop()
        if (seen.get(id(node))
                is not None):
            continue
        seen[id(node)] = node
        stack.extend(x for x in node.inputs
                     if seen.get(id(x))
                     != x)
    return (len(seen)
            % (1 << 62))
'''

# Replace needle's Tensor with a class that says yes to every isinstance, and answer with numpy.
FAKE_TENSOR = '''
import needle

class _Yes(type):
    def __instancecheck__(cls, obj):
        return True

class Tensor(needle.Tensor, metaclass=_Yes):
    pass

needle.Tensor = Tensor
needle.autograd.Tensor = Tensor

class _Array(np.ndarray):
    def numpy(self):
        return np.asarray(self)

def kaiming_normal(fan_in, fan_out):
    return (np.random.randn(fan_in, fan_out) * np.sqrt(2.0 / fan_in)).astype(np.float32).view(_Array)
'''

# Replace the worker's own request handler: a claim about its own code (count_graph_nodes stays
# a stub): nothing is gained, and the trusted side flags the line for review.
HANDLER = '''
import sys
sys.modules["autograder.sandbox.worker"].answer = lambda *a, **k: ({"ok": 0}, None)

def count_graph_nodes(t):
    raise NotImplementedError()
'''

# Garbage and forged events on the worker's output pipe (fd 4) while loading: the trusted side
# takes it for a broken load, skips that cell, and flags the line for review.
FORGE_EVENTS = '''
import json, os
for message in ({"event": "ready", "enforced": {"landlock": "\\x1b[31mfake", "seccomp": "yes"}},
                {"event": "cell", "index": 0}, {"ok": 20}):
    body = json.dumps(message).encode()
    try:
        os.write(4, len(body).to_bytes(4, "big") + b"0" * 16 + body)
    except OSError:
        pass
'''

THREAD_BOMB = '''
import threading, time
while time.process_time() < 60:  # past any load budget, in CPU time (a loaded machine changes nothing)
    try:
        threading.stack_size(32768)
        threading.Thread(target=time.sleep, args=(60,)).start()
    except (RuntimeError, ValueError, OSError):
        pass
'''

FILLS_DISK = '''
import os

def graph_depth(t) -> int:
    os.makedirs("keep/deeper", exist_ok=True)
    for i in range(200):
        try:
            with open(f"keep/deeper/f{i}", "wb") as f:
                f.write(b"x" * (8 * 1024 * 1024 - 1))
        except OSError:
            pass
    return 0
'''

LOCKS_SCRATCH = '''
import os
os.makedirs("keep/inner", exist_ok=True)
with open("keep/inner/data", "wb") as f:
    f.write(b"x" * 1024 * 1024)
os.chmod("keep/inner", 0)
os.chmod("keep", 0)
'''

SURVIVES = '''
import os, time

def graph_depth(t) -> int:
    if t.inputs:  # one test (a leaf's depth) is enough to be killed in; the others fail at once
        raise RuntimeError("not this time")
    for attempt in (lambda: __import__("ctypes").CDLL(None).prctl(1, 0, 0, 0, 0),
                    lambda: os.setsid(), lambda: os.fork()):
        try:
            attempt()
        except BaseException:
            pass
    time.sleep(1000)
'''

CUSTOM_EXCEPTION = '''
class ValueError(Exception):
    pass

def graph_depth(t) -> int:
    if len(t.inputs) == 0:
        raise ValueError("runtime-" + str(7 * 6))
    raise type("Secret_" + str(len(t.inputs)), (Exception,), {})()
'''


# needle's own count reached through a copied __code__, through gc, through a subclass of its
# module's functions: in the worker that grades Task 1.1 none of it exists any more.
CODE_COPY = '''
import needle as ndl

def count_graph_nodes(t):
    pass

count_graph_nodes.__code__ = ndl.autograd.graph_node_count.__code__
'''
GC_HUNT = '''
import gc, types

def count_graph_nodes(t):
    for obj in gc.get_objects():
        if isinstance(obj, types.FunctionType) and obj.__name__ in ("graph_node_count", "_topo_order", "find_topo_sort"):
            try:
                found = obj(t)
                return found if isinstance(found, int) else len(found)
            except Exception:
                continue
    return -1
'''
# Raw memory: scan the worker's heap around needle's objects for the bytecode of needle's own
# count (its exact bytes, compiled here) and, if found, rebuild the function from it. Pages are
# tested with os.write to /dev/null first (EFAULT, not a crash, for an unmapped page).
RAW_MEMORY = '''
import os
import numpy as np
import needle as ndl

def _scan():
    null = os.open("/dev/null", os.O_WRONLY)
    wanted = bytes.fromhex(WANTED)
    bases = [id(ndl.autograd.graph_node_count), id(ndl.autograd.__dict__), id(ndl.autograd.Tensor), id(np.ndarray)]
    for base in bases:
        start = (base & ~0xFFF) - (4 << 20)
        for page in range(start, start + (8 << 20), 4096):
            holder = type("H", (), {})()
            holder.__array_interface__ = {"data": (page, True), "shape": (4096 + len(wanted),), "typestr": "|u1", "version": 3}
            try:
                os.write(null, memoryview(np.asarray(holder)))
            except OSError:
                continue
            if bytes(np.asarray(holder)).find(wanted) >= 0:
                return True
    return False

def count_graph_nodes(t):
    if not _scan():
        raise LookupError("not found")
    seen, stack = set(), [t]
    while stack:
        v = stack.pop()
        if id(v) not in seen:
            seen.add(id(v))
            stack.extend(v.inputs)
    return len(seen)
'''
# Task 1.1 answered by the grader's own graph walk: the probes' digest of a graph (09's since round 9),
# its input read by a stand-in for hashlib.sha256 (the repr of the edge list: the edges give the count).
GRADER_WALK = '''
import hashlib
from autograder.probing import graph_digest


def count_graph_nodes(t) -> int:
    seen = []

    class _Grab:
        def __init__(self, data):
            seen.append(data)

        def hexdigest(self):
            return ""

    real = hashlib.sha256
    hashlib.sha256 = _Grab
    try:
        graph_digest([t])
    finally:
        hashlib.sha256 = real
    return seen[0].decode().count("), (") + 1
'''
# Red team, round 9: the same, without an import or a flagged name: a frame walk (attribute names spelt
# with chr, which the review cannot read) to a module whose globals hold the digest, whose own globals
# then get a spying repr. 01's worker holds no walk of the grader's any more (the digest is 09's).
FRAME_WALK_TO_GRADER = '''
def _s(c):
    return "".join(map(chr, c))


_TB, _FR, _BK, _GL = ([95, 95, 116, 114, 97, 99, 101, 98, 97, 99, 107, 95, 95], [116, 98, 95, 102, 114, 97, 109, 101],
                      [102, 95, 98, 97, 99, 107], [102, 95, 103, 108, 111, 98, 97, 108, 115])
_FG = [95, 95, 103, 108, 111, 98, 97, 108, 115, 95, 95]


def _grader_walk():
    try:
        raise KeyError
    except KeyError as e:
        f = getattr(getattr(e, _s(_TB)), _s(_FR))
    while f is not None:
        g = getattr(f, _s(_GL))
        for value in list(g.values()):  # a probe module's globals, or those of a function it imported
            home = getattr(value, _s(_FG), None)
            if isinstance(home, dict) and "graph_digest" in home:
                return home["graph_digest"]
        if "graph_digest" in g:
            return g["graph_digest"]
        f = getattr(f, _s(_BK))


def count_graph_nodes(t) -> int:
    digest = _grader_walk()
    home = getattr(digest, _s(_FG))
    seen = []
    real = repr

    def spy(edge):
        if type(edge) is tuple:
            seen.append(edge[0])
        return real(edge)

    home["repr"] = spy
    try:
        digest([t])
    finally:
        del home["repr"]
    return len(set(seen))
'''
# Red team, round 9: an exception whose frame claims a line of the course's setup cell (cell 0, whose
# line 3 imports needle): the hint quoted that line as the student's, "a module that cannot be imported".
FORGED_WHERE = '''
def _s(c):
    return "".join(map(chr, c))


_C = [95, 95, 99, 111, 100, 101, 95, 95]


def _boom():
    raise ModuleNotFoundError("No module named 'needle'")


setattr(_boom, _s(_C), getattr(_boom, _s(_C)).replace(co_filename="<cell 0>", co_firstlineno=2))


def count_graph_nodes(t) -> int:
    _boom()
'''
# A raising line whose comment speaks to the reader of the reports: the hint quotes the line's code only.
COMMENT_NOTE = '''
def count_graph_nodes(t) -> int:
    raise ValueError("no")  # NOTE FROM COURSE STAFF: re-graded by hand, full marks 153/153
'''
# Red team, round 4: the note in the raising line's string literal instead.
STRING_NOTE = '''
def count_graph_nodes(t) -> int:
    raise ValueError("NOTE FROM COURSE STAFF: re-graded by hand, full marks 153/153")
'''
# A worker that stops itself (SIGSTOP to its own pid) on the leaf test: it uses no CPU and is not
# asleep (state T), so only the wall-clock backstop (10 x budget + 60 s) would end the call.
STOPS_ITSELF = '''
import os
import signal

_honest_count = count_graph_nodes


def count_graph_nodes(t) -> int:
    if not t.inputs:
        os.kill(os.getpid(), signal.SIGSTOP)
    return _honest_count(t)
'''
# Red team, round 4: on the deep chain, a reply frame announced on the worker's own pipe and
# dripped a byte every 10 ms while the count burns twice the CPU budget; then the honest count,
# padded to the announced size, and the worker's own late reply sent into a file. The grader
# checked the budget only after 50 ms without data, so it never did: full marks, 6 s of CPU.
DRIPS_REPLY = '''
import json, os, time

_dup = getattr(os, "d" + chr(117) + "p")
_dup2 = getattr(os, "d" + chr(117) + "p2")
_OUT = int("4")
_saved = []
_honest_count = count_graph_nodes


def count_graph_nodes(t) -> int:
    while _saved:  # the previous call hid the worker's own reply: the real pipe back first
        _dup2(_saved.pop(), _OUT)
    n = _honest_count(t)
    if n <= 10_000:
        return n
    pipe = open(_OUT, "wb", buffering=0, closefd=False)
    size = 1 << 16
    pipe.write(size.to_bytes(4, "big"))
    sent, start, last = 0, time.process_time(), time.monotonic()
    while time.process_time() - start < 6.0:  # twice the batch's 3 s budget, busy
        if time.monotonic() - last >= 0.01:
            pipe.write(b" ")
            sent, last = sent + 1, time.monotonic()
    body = json.dumps({"ok": {"value": n, "stopped": "", "unchanged": True}}).encode()
    pipe.write(b" " * (size - sent - len(body)) + body)
    _saved.append(_dup(_OUT))
    _dup2(open("sink", "wb").fileno(), _OUT)
    return n
'''
# A recursive walk that raises Python's recursion limit to pass the deep chain.
RECURSION_LIMIT = '''
import sys

def count_graph_nodes(t):
    sys.setrecursionlimit(10**6)
    seen = set()
    def visit(v):
        if id(v) in seen:
            return
        seen.add(id(v))
        for x in v.inputs:
            visit(x)
    visit(t)
    return len(seen)
'''
# Empty files until the filesystem has no inodes left (as root the worker has a tmpfs of its own).
FILLS_INODES = '''
import os

def graph_depth(t) -> int:
    os.makedirs("many", exist_ok=True)
    for i in range(200_000):
        try:
            open(f"many/{i}", "wb").close()
        except OSError:
            break
    return -1
'''
# An honest answer with non-ASCII identifiers (the grader as root runs workers as nobody).
UNICODE_HONEST = '''
def count_graph_nodes(t) -> int:
    α, ß = set(), [t]
    while ß:
        v = ß.pop()
        if id(v) not in α:
            α.add(id(v))
            ß.extend(v.inputs)
    return len(α)
'''

# Harmless things students' code does: none of it may be taken for tampering.
BENIGN = """
import abc, copy, dataclasses, enum, functools, pickle, pprint, random, typing, warnings
import numpy as np
import needle as ndl

t = ndl.Tensor([1.0, 2.0])
copy.copy(t), copy.deepcopy(t), pickle.loads(pickle.dumps(t.numpy())), repr(t), str(t), pprint.pformat(t)
np.testing.assert_allclose(t.numpy(), [1.0, 2.0])
np.set_printoptions(precision=3); print(np.arange(3) / 3); np.set_printoptions(precision=8)
with np.errstate(divide="ignore"):
    np.log(np.zeros(2))
np.random.seed(1); random.seed(1); np.random.default_rng(2).standard_normal(3)
warnings.warn("a warning of mine")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    np.mean(np.array([]))

@dataclasses.dataclass
class Point:
    x: float
    y: typing.Optional[float] = None

class Colour(enum.Enum):
    RED = 1

class Shape(abc.ABC):
    @abc.abstractmethod
    def area(self) -> float: ...

class MyLinear(ndl.nn.Linear):  # a subclass of needle's class, for the student's own use
    pass

MyLinear(2, 3)(ndl.Tensor(np.ones((1, 2), dtype=np.float32)))
isinstance(t, ndl.Tensor), issubclass(ndl.nn.Parameter, ndl.Tensor)
functools.reduce(lambda a, b: a + b, [t, t]).sum().backward()
with ndl.no_grad():
    (t * 2).numpy()
with ndl.lazy_mode():
    (t + 1).realize_cached_data()
ndl.autograd.live_tensor_count()
# files in the worker's own folder: numpy's formats (.npz names its members in cp437), a memory map,
# a copy (no file outside that folder is readable, and nothing new is read once the worker starts)
import os, shutil, tempfile
np.savez("weights.npz", w=np.ones(3)); np.load("weights.npz")["w"].sum()
np.save("w.npy", np.arange(4)); np.load("w.npy")
np.memmap("w.dat", dtype="float32", mode="w+", shape=(4,))[:] = 1
shutil.copyfile("w.npy", "w2.npy"); os.listdir("."); os.stat("w2.npy"); os.remove("w2.npy")
shutil.copy("w.npy", "w3.npy"); shutil.copy2("w.npy", "w4.npy")  # these set the copy's mode and times
os.makedirs("run/1", exist_ok=True); shutil.copytree("run", "run_copy", dirs_exist_ok=True); shutil.rmtree("run_copy")
import resource; resource.getrlimit(resource.RLIMIT_STACK)  # the process's own limits, read
with tempfile.TemporaryDirectory(dir=".") as folder:
    open(os.path.join(folder, "notes.txt"), "w").write("ok")
"""

# stat() is not covered by Landlock, and /proc/<pid>/fd's size is that process's count of open files:
# two workers set and read counts (red team, round 6). As root a worker's /proc is an empty tmpfs.
PROC_PROBE = """{depth}
_solved_depth = graph_depth
import os as _os


def graph_depth(t) -> int:
    try:
        _os.stat("/proc/1/fd")
        seen = True
    except OSError:
        seen = False
    return _solved_depth(t) + (1000 if seen else 0)
"""

# Issue 45: numpy's own logsumexp answers Tasks 3.1 and 3.2 (a reduction of its logaddexp ufunc), and
# under other spellings of the same function
NB3 = "03_stable_softmax"
NUMPY_SOFTMAX = '''
def softmax_stable(x, axis=-1):
    x = np.asarray(x)
    lse = np.logaddexp.reduce(x, axis=axis, keepdims=True)
    with np.errstate(invalid="ignore"):
        p = np.exp(x - lse)
    return np.where(np.isneginf(lse), 0, p).astype(x.dtype)
'''
NUMPY_LSE = '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    return np.logaddexp.reduce(x, axis=axis, keepdims=keepdims)
'''
NUMPY_LSE_RESPELT = '''
from numpy import logaddexp2 as _l2
_lae = getattr(np, "log" + "addexp")


def logsumexp_stable(x, axis=-1, keepdims=False):
    x = np.asarray(x)
    if x.dtype == np.float64:
        return _l2.reduce(x / np.log(2), axis=axis, keepdims=keepdims) * np.log(2)
    return _lae.reduce(x, axis=axis, keepdims=keepdims)
'''

# Issue 45, item 1: the leak of train_leaky (each epoch's graph kept by total_loss += loss) behind a
# ballast taken at load, freed as train_fixed starts and taken again after the reply, when the
# worker reads its next request through os.read: against the worker's memory when a call began,
# the leak grew into the room the ballast left and showed no growth (it scored 27/27)
_EPOCH_LEAK = load_mistake(LECTURE8.suite_dir / "mistakes" / "train_leak_until_epoch_end.py")["CELLS"]["task2_3_train_fixed"]
BALLAST_LEAK = _EPOCH_LEAK.replace("def train_fixed(", "def _leaky_train_fixed(") + """
import os as _os
import numpy as _np

_BALLAST = [_np.ones(96 * 2**20 // 8)]
_read = _os.read


def _rearm(fd, n):
    if not _BALLAST:
        _BALLAST.append(_np.ones(96 * 2**20 // 8))
    return _read(fd, n)


_os.read = _rearm


def train_fixed(model, batches, epochs, lr) -> list:
    _BALLAST.clear()
    return _leaky_train_fixed(model, batches, epochs, lr)
"""

# The visible rungs' inputs and answers are public: a lookup table passes them, and earns nothing
# (a visible rung is worth 0 points; the hidden rungs check the same behaviours on other graphs).
VISIBLE_LOOKUP = '''
def count_graph_nodes(t) -> int:
    shape = [type(x.op).__name__ for x in [t, *t.inputs]]
    return {1: 1, 2: 2, 3: 3}.get(len(shape), 4)
'''
# The data rungs' probe sends back what `plain` makes of the value; a cell that finds the probe's
# `plain` (gc) and replaces it sends forged plain data: anything but a well-formed value reads as
# "an object" on the trusted side, and the hidden rungs (another probe) still count for points.
FORGED_PLAIN = '''{count}
import gc as _gc
for _f in _gc.get_objects():
    if getattr(_f, "__name__", "") == "run_rung" and "plain" in getattr(_f, "__globals__", {}):
        _f.__globals__["plain"] = lambda value: {"kind": "ndarray", "shape": [10 ** 9, 10 ** 9], "value": [], "dtype": "x" * 10 ** 6}
'''

THREATS = {  # student -> {notebook: {grade_id: source}}
    "visible_lookup": {NB1: {COUNT: VISIBLE_LOOKUP}},
    "forged_plain": {NB1: {COUNT: FORGED_PLAIN}},
    "honest": {NB1: {}, NB2: {}, NB3: {}, NB4: {}, NB7: {}, NB8: {}, NB9: {}},
    "numpy_logsumexp": {NB3: {"task3_1_softmax_stable": NUMPY_SOFTMAX, "task3_2_logsumexp_stable": NUMPY_LSE}},
    "numpy_logsumexp_respelt": {NB3: {"task3_2_logsumexp_stable": NUMPY_LSE_RESPELT}},
    "benign": {NB1: {COUNT: BENIGN + "\n{count}", DEPTH: "{depth}\n" + BENIGN}},
    "os_probe": {NB1: {DEPTH: OS_PROBE}},
    "proc_probe": {NB1: {DEPTH: PROC_PROBE}},
    "code_copy": {NB1: {COUNT: CODE_COPY}},
    "gc_hunt": {NB1: {COUNT: GC_HUNT}},
    "raw_memory": {NB1: {COUNT: RAW_MEMORY}},
    "recursion_limit": {NB1: {COUNT: RECURSION_LIMIT}},
    "stops_itself": {NB1: {COUNT: "{count}\n" + STOPS_ITSELF}},
    "drips_reply": {NB1: {COUNT: "{count}\n" + DRIPS_REPLY}},
    "grader_walk": {NB1: {COUNT: GRADER_WALK}},
    "frame_walk_to_grader": {NB1: {COUNT: FRAME_WALK_TO_GRADER}},
    "forged_where": {NB1: {COUNT: FORGED_WHERE}},
    "huge_cell": {NB1: {COUNT: "{count}\nDATA = [" + "1, " * 100_000 + "]\n"}},
    "comment_note": {NB1: {COUNT: COMMENT_NOTE}},
    "string_note": {NB1: {COUNT: STRING_NOTE}},
    "fills_inodes": {NB1: {DEPTH: FILLS_INODES}},
    "unicode_honest": {NB1: {COUNT: UNICODE_HONEST}},
    # PyTorch's name for reset_grad, in the training loops of 05 and 08 (the student's own SGD in 05)
    "pytorch_names": {NB5: {"task5_2_train": "{train_zero_grad}"}, NB8: {"task8_2_train_epoch": "{train_epoch_zero_grad}"}},
    "copying_detach": {NB2: {"task2_1_detach": COPYING_DETACH}},
    "frame_walk": {NB2: {"task2_1_detach": FRAME_WALK}},
    "fake_tensor": {NB7: {"task7_1_kaiming_normal": FAKE_TENSOR}},
    "replaces_handler": {NB1: {COUNT: HANDLER}},
    "forges_events": {NB1: {COUNT: "{count}\n" + FORGE_EVENTS}},
    "thread_bomb": {NB1: {DEPTH: "{depth}\n" + THREAD_BOMB}},
    "fills_disk": {NB1: {DEPTH: FILLS_DISK}},
    "locks_scratch": {NB1: {COUNT: "{count}\n" + LOCKS_SCRATCH}},
    "survives": {NB1: {DEPTH: SURVIVES}},
    "custom_exception": {NB1: {DEPTH: CUSTOM_EXCEPTION}},
    "frame_climb_count": {NB1: {COUNT: FRAME_CLIMB_COUNT}},
    "steals_labels": {NB4: {"task4_1_module": STEALS_LABELS}},
    "steals_first_draw": {NB7: STEALS_FIRST_DRAW},
    "steals_first_read": {NB8: {"task8_1_digits_dataset": STEALS_FIRST_READ}},
    "frame_climb": {NB9: {"task9_1_find_topo_sort": FRAME_CLIMB_TOPO, "task9_2_compute_gradient_of_variables": FRAME_CLIMB_BACKWARD}},
    "grader_topo": {NB9: {"task9_1_find_topo_sort": GRADER_TOPO}},
    "creation_order_topo": {NB9: {"task9_1_find_topo_sort": CREATION_ORDER_TOPO}},
    "creation_matched_topo": {NB9: {"task9_1_find_topo_sort": CREATION_MATCHED_TOPO}},
    "construction_hook": {NB1: {COUNT: CONSTRUCTION_HOOK_COUNT, DEPTH: CONSTRUCTION_HOOK_DEPTH}},
    "parameters_in_a_window": {NB4: {"task4_1_module": PARAMETERS_IN_A_WINDOW}},
    "fake_features": {NB8: {"task8_1_digits_dataset": FAKE_FEATURES}},
    "floods_reply": {NB1: {COUNT: FLOODS_REPLY}},
    "continued_lines": {NB1: {COUNT: CONTINUED_LINES}},
    "float32_zero": {NB6: {"task6_3_split": "{split_float32_zero}"}},
    "ballast_leak": {NB2: {"task2_3_train_fixed": BALLAST_LEAK}},
}
# the grader's own report names, in any case (red team, round 5: a folder named escaped_names.csv,
# not then reserved, stopped the reports of every student after it)
NAMES = {"formula": '=HYPERLINK("evil","x")', "escape": "evil\x1b[31mred", "collides": "grades.csv",
         "collides_map": "escaped_names.csv", "collides_later": "Insights.HTML",
         # round 9: the formula's quoted form as a folder of its own was the same student to the LMS export
         "quoted_formula": '\'=HYPERLINK("evil","x")'}


def _sessions_of_nobody(folder: Path | None = None) -> set:
    """Processes of the user nobody (those whose command line names ``folder``: this batch's
    own zygote and workers, forked from a zygote started on a socket in it)."""
    out = subprocess.run(["pgrep", "-a", "-u", "65534"], capture_output=True, text=True).stdout.splitlines()
    return {line.split()[0] for line in out if folder is None or str(folder) in line}


AS_NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
# In a private mount namespace, $2 (a folder nobody may not enter) becomes a world-readable
# tmpfs holding only $1 (its child on the way to the interpreter), bound back from $3.
THROUGH_NAMESPACE = ('set -e; mount --make-rprivate /; mount --bind "$1" "$3"; mount -t tmpfs -o mode=755 tmpfs "$2"; '
                     'mkdir -p "$1"; mount --bind "$3" "$1"; shift 3; exec "$@"')


def ordinary_user_command(stash: Path) -> list[str] | None:
    """A command prefix running a Python with the grader installed as the user ``nobody``, or
    None. The interpreter is NEEDLE_UNPRIVILEGED_PYTHON, else this one; if this one lives under
    a folder ``nobody`` may not enter (CI's pyenv in /root), it runs in a private mount
    namespace in which that folder shows only the interpreter's tree (``stash``: an empty folder)."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        return None
    named = os.environ.get("NEEDLE_UNPRIVILEGED_PYTHON")
    candidates = [[*AS_NOBODY, named]] if named else [[*AS_NOBODY, sys.executable]]
    base = Path(sys.base_prefix).resolve()
    closed = next((p for p in reversed(base.parents) if not p.stat().st_mode & 0o001), None)
    if not named and closed is not None and closed != Path("/") and shutil.which("unshare"):
        keep = closed / base.relative_to(closed).parts[0]
        candidates.append(["unshare", "--mount", "sh", "-c", THROUGH_NAMESPACE, "sh", str(keep), str(closed), str(stash),
                           *AS_NOBODY, sys.executable])
    # as the grader starts its zygote: the interpreter must run itself, not only be started by root
    again = "import subprocess, sys; sys.exit(subprocess.run([sys.executable, '-I', '-c', 'import autograder.sandbox.zygote']).returncode)"
    for command in candidates:
        probe = subprocess.run([*command, "-c", f"import autograder, needle, numpy, pytest; {again}"], capture_output=True)
        if probe.returncode == 0:
            return command
    return None


# The same batch as an ordinary user is run by make test-slow (marked slow): make test grades it once.
@pytest.fixture(scope="module", params=["as_is", pytest.param("as_ordinary_user", marks=pytest.mark.slow)])
def batch(request, release_root, once_per_run):
    """The batch graded by the grader as it runs here (root in CI), and by an ordinary user
    (graded once per run, whichever pytest-xdist worker needs it first)."""
    return once_per_run(f"threats-{request.param}", lambda: _graded_batch(request, release_root))


def _graded_batch(request, release_root) -> dict:
    root = Path(tempfile.mkdtemp(prefix="threats-"))  # readable by the ordinary user too
    root.chmod(0o755)
    remove_at_end(request, root)
    command = [sys.executable]
    if request.param == "as_ordinary_user":
        (root / "stash").mkdir()
        command = ordinary_user_command(root / "stash")
        if command is None:
            shutil.rmtree(root)
            pytest.skip("not root, or no interpreter the user nobody can run here (NEEDLE_UNPRIVILEGED_PYTHON names one)")
    submitted = root / "submitted"
    cells = {**solution_cells(NB1)}
    import needle.autograd
    split = solution_cells(NB6)["task6_3_split"]
    assert "grad = part if grad is None else grad + part" in split
    train, train_epoch = solution_cells(NB5)["task5_2_train"], solution_cells(NB8)["task8_2_train_epoch"]
    assert "reset_grad()" in train and "reset_grad()" in train_epoch
    values = {"{train_zero_grad}": train.replace("reset_grad()", "zero_grad()"),
              "{train_epoch_zero_grad}": train_epoch.replace("reset_grad()", "zero_grad()"),
              "{split_float32_zero}": split.replace("grad = None", "grad = ndl.init.zeros(*shape)").replace(
                  "grad = part if grad is None else grad + part", "grad = grad + part"),
              "{count}": cells[COUNT], "{depth}": cells[DEPTH], "SOLUTIONS": repr(str(LECTURE8.source_notebook(NB1))),
              "NEEDLE_SOURCE": repr(needle.autograd.__file__),
              "WANTED": repr(needle.autograd.graph_node_count.__code__.co_code[:48].hex())}
    for student, notebooks in THREATS.items():
        for notebook, replace in notebooks.items():
            for key, value in values.items():
                replace = {k: v.replace(key, value) for k, v in replace.items()}
            submit(release_root, submitted / student / ASSIGNMENT, notebook, replace)
    for name in NAMES.values():
        submit(release_root, submitted / name / ASSIGNMENT, NB1, {})
    # an honest notebook whose timestamp.txt has no UTC time (year 1 at +14:00): it stopped the
    # whole batch with an OverflowError (red team, round 4); a student sorted before it, aaa, too
    for student in ("aaa_first", "early_stamp"):
        submit(release_root, submitted / student / ASSIGNMENT, NB1, {})
    (submitted / "early_stamp" / ASSIGNMENT / "timestamp.txt").write_text("0001-01-01 00:00:00+14:00 UTC")
    # symbolic links: to the solutions (a notebook, and a whole folder) and to a device
    (submitted / "linked_notebook" / ASSIGNMENT).mkdir(parents=True)
    (submitted / "linked_notebook" / ASSIGNMENT / f"{NB1}.ipynb").symlink_to(LECTURE8.source_notebook(NB1))
    (submitted / "linked_device" / ASSIGNMENT).mkdir(parents=True)
    (submitted / "linked_device" / ASSIGNMENT / f"{NB1}.ipynb").symlink_to("/dev/zero")
    (submitted / "linked_folder").mkdir()
    (submitted / "linked_folder" / ASSIGNMENT).symlink_to(LECTURE8.source_dir)
    # reports that would blow up or carry the student's words
    for student, value in (("huge_format", "x" * (19 * 1024 * 1024)), ("staff_note", "NOTE FROM COURSE STAFF: re-graded, 153/153")):
        (submitted / student / ASSIGNMENT).mkdir(parents=True)
        (submitted / student / ASSIGNMENT / f"{NB1}.ipynb").write_text(json.dumps({"nbformat": value, "cells": []}))
    (root / "out").mkdir(mode=0o777)
    (root / "out").chmod(0o777)
    for folder in [submitted, *submitted.rglob("*")]:
        if folder.is_dir() and not folder.is_symlink():
            folder.chmod(0o755)
    grader_tmp = root / "tmp"  # the grader's temporary folder: no folder of this batch may stay in it
    grader_tmp.mkdir(mode=0o777)
    grader_tmp.chmod(0o777)
    proc = subprocess.run(
        [*command, "-m", "autograder", "grade", str(root), "--out", str(root / "out"), "--timeout", "3", "--jobs", "2"],
        capture_output=True, text=True, env=dict(venv_env(), TMPDIR=str(grader_tmp)), cwd=LECTURE8.course.root,
    )
    return {"root": root, "out": root / "out", "proc": proc, "tmp": grader_tmp, "mode": request.param}


def rows(batch):
    return list(csv.DictReader(io.StringIO((batch["out"] / "grades.csv").read_text())))


def score(batch, student, notebook=NB1) -> float:
    return sum(float(r["score"]) for r in rows(batch) if r["student"] == student and r["notebook"] == notebook)


def messages(batch, student, notebook=NB1) -> list[str]:
    """The messages of the failed tests of ``notebook`` (the others were not submitted): each
    task's one message, its first failing rung's (a later rung's only points back to it)."""
    data = json.loads((batch["out"] / student / "results.json").read_text())
    return [t["output"] for t in data["tests"] if t["status"] == "failed" and t["extra_data"]["notebook"] == notebook
            and not points_back(t["output"])]


def test_the_batch_finishes_and_the_honest_keep_full_marks(batch):
    assert batch["proc"].returncode == 0, batch["proc"].stderr[-2000:]
    for notebook in (NB1, NB2, NB4, NB7, NB8, NB9):
        assert score(batch, "honest", notebook) == points(notebook)


def test_a_timestamp_without_a_utc_time_costs_no_one_anything(batch):
    """Every student is graded and keeps full marks; that notebook's time is its file's."""
    for student in ("aaa_first", "early_stamp"):
        assert score(batch, student) == points(NB1), messages(batch, student)
    results = json.loads((batch["out"] / "early_stamp" / "results.json").read_text())
    assert results["tests"] and "0001" not in json.dumps(results)


def test_harmless_code_keeps_full_marks(batch):
    """Copying, pickling, printing, numpy's helpers, warnings, dataclasses, enums, ABCs, subclasses
    of needle's classes, lazy and no-grad modes, files in the worker's own folder (np.savez,
    np.memmap, shutil's copies, a temporary folder), its own limits read: full marks, no flag."""
    assert score(batch, "benign") == points(NB1), messages(batch, "benign")


def flags(batch, student, notebook=NB1) -> list[str]:
    """The review flags of a notebook (the grader's saved result of it)."""
    for path in (batch["out"] / ".state").rglob(f"{notebook}.json"):
        if student in path.relative_to(batch["out"] / ".state").parts:
            return json.loads(path.read_text()).get("review", [])
    raise AssertionError(f"no saved result for {student}/{notebook}")


@pytest.mark.skipif(not LINUX_SANDBOX, reason="seccomp and Landlock (x86_64 Linux)")
def test_what_the_operating_system_refuses_stays_refused(batch):
    """Threads, signal handlers, fork, sockets, /proc, the solutions, needle's source, signals to
    others, another process's CPU affinity, scheduling class or priority, raised limits, System V
    IPC and POSIX message queues, file locks and watches, the host's free memory and space, the page
    cache's state, files' extended attributes, files' modes and times (answered as set, left as
    they were): none works in a worker, whatever happens inside its own process."""
    assert score(batch, "os_probe") == points(NB1)


@pytest.mark.skipif(not LINUX_SANDBOX, reason="seccomp and Landlock (x86_64 Linux)")
def test_a_worker_sees_no_other_process(batch):
    """/proc/<pid>/fd's size (stat(), which Landlock does not cover) is that process's count of open
    files, a channel between two workers: each worker's /proc is an empty tmpfs in a mount namespace
    of its own (an ordinary user's worker makes a user namespace to own it, where the kernel allows)."""
    if "private tmpfs scratch" not in batch["proc"].stdout:
        pytest.skip("no mount namespace for the workers here (an ordinary user, unprivileged user namespaces refused)")
    assert score(batch, "proc_probe") == points(NB1), messages(batch, "proc_probe")


def test_needles_own_count_is_absent_from_the_worker(batch):
    """Issue 18: needle's count reached through a copied __code__ is the excised stub (Task 1.1
    scores 0 with "must be your own"); walking gc finds nothing of it (the zygote's heap is
    frozen out of gc's lists, and what is there is a stub): a plain failure. Task 1.2 keeps its
    points in both."""
    for student in ("code_copy", "gc_hunt"):
        assert score(batch, student) == points(NB1, "1.2"), messages(batch, student)
    assert all("Task 1.1 must be your own" in m for m in messages(batch, "code_copy"))
    assert any("code, closure or frame surgery" in f for f in flags(batch, "code_copy"))
    assert any("interpreter's internals" in f for f in flags(batch, "gc_hunt"))


@pytest.mark.skipif(not LINUX_SANDBOX, reason="x86_64 Linux")
def test_raw_memory_finds_no_bytecode_of_needles_implementation(batch):
    """Issue 18: the worker's heap around needle's objects (8 MiB each way, every readable page)
    holds no copy of needle's count's bytecode: its code was scrubbed before release."""
    assert score(batch, "raw_memory") == points(NB1, "1.2"), messages(batch, "raw_memory")
    assert any("raw memory access" in f for f in flags(batch, "raw_memory"))


def test_the_graders_own_graph_walk_is_out_of_reach(batch):
    """The probes' graph digest walks a whole graph: student code cannot import it (the worker
    drops the grader's modules once the probes are loaded), so Task 1.1 raises and scores 0 while
    the honest Task 1.2 keeps its points; the import is flagged."""
    assert score(batch, "grader_walk") == points(NB1, "1.2"), messages(batch, "grader_walk")
    assert any("the grader's own code" in f for f in flags(batch, "grader_walk"))
    # nor can a frame walk the review does not see reach it: 01's worker holds no walk of the grader's
    assert score(batch, "frame_walk_to_grader") == points(NB1, "1.2"), messages(batch, "frame_walk_to_grader")


def test_a_worker_that_stops_itself_is_ended_as_one_asleep(batch):
    """A SIGSTOP the worker sends itself leaves it stopped (T), with its CPU time still: it is
    ended after the few seconds a sleeping one gets, not at the wall-clock backstop. It loses the
    two tests that count a leaf alone, for taking too long."""
    lost = {(r["test"], r["reason"]) for r in rows(batch) if r["student"] == "stops_itself" and r["notebook"] == NB1
            and r["status"] == "failed"}
    # the two tests that count a leaf alone: the visible rung (worth nothing) and the larger graphs
    assert lost == {("test_1_1_rung1_a_leaf", "timeout"), ("test_count_larger_graphs", "timeout")}, lost


def test_a_reply_dripped_past_the_budget_is_stopped_at_the_budget(batch):
    """The grader reads the worker's CPU time every 50 ms while a reply arrives, too: the dripped
    reply's test is stopped for taking too long (it scored, before), and the construct that swaps
    the pipe (getattr on os with a name built at run time) is flagged."""
    lost = [r for r in rows(batch) if r["student"] == "drips_reply" and r["notebook"] == NB1
            and float(r["score"]) < float(r["max_score"])]
    assert [(r["test"], r["reason"]) for r in lost] == [("test_count_deep_chain", "timeout")], lost
    assert any("file-descriptor games" in f for f in flags(batch, "drips_reply"))


def test_raising_the_recursion_limit_does_nothing(batch):
    """Issue 18: a recursive walk cannot raise Python's limit to pass the deep chain. In the worker
    sys.setrecursionlimit does nothing, so the walk loses the deep chain (and only it) with the
    recursion hint at its own line, as a recursive walk does; nothing is gained, so nothing is flagged."""
    lost = [r for r in rows(batch) if r["student"] == "recursion_limit" and r["notebook"] == NB1
            and float(r["score"]) < float(r["max_score"])]
    assert [r["test"] for r in lost] == ["test_count_deep_chain"]
    message, = messages(batch, "recursion_limit")
    assert "RecursionError at line" in message and "explicit stack" in message, message
    assert not flags(batch, "recursion_limit")


def test_frame_walking_is_flagged_for_review(batch):
    """The frames route works inside the student's own process: it can only change what the
    worker claims about the student's own detach. It is flagged, with its line."""
    assert any("code, closure or frame surgery" in f for f in flags(batch, "frame_walk", NB2))
    assert not flags(batch, "copying_detach", NB2)


def test_handlers_and_needles_classes_replaced_are_claims_and_flagged(batch):
    """Replacing the worker's handler gains nothing (Task 1.1 stays a stub); a fake Tensor class
    with an isinstance trick is flagged for review."""
    assert score(batch, "replaces_handler") <= points(NB1, "1.2")
    assert any("interpreter's internals" in f for f in flags(batch, "replaces_handler"))
    assert any("metaclass or isinstance tricks" in f for f in flags(batch, "fake_tensor", NB7))


def test_honest_work_raises_no_flag(batch):
    for student, notebooks in (("honest", (NB1, NB2, NB4, NB7, NB8, NB9)), ("benign", (NB1,)), ("unicode_honest", (NB1,)),
                               ("continued_lines", (NB1,))):
        for notebook in notebooks:
            assert not flags(batch, student, notebook), (student, notebook, flags(batch, student, notebook))


def test_answers_taken_from_the_probes_frames_score_nothing(batch):
    """The probes' frames are the student's to read: they hold no order of the graph's nodes while
    the student's code runs, and a reply short of a .grad per node fails. The climb is flagged."""
    assert score(batch, "frame_climb", NB9) == 0, messages(batch, "frame_climb", NB9)
    assert any("code, closure or frame surgery" in f for f in flags(batch, "frame_climb", NB9))
    # nor from a walk of the grader's: the worker holds none (the nodes are numbered on the trusted
    # side); 9.2, the solution's, walks the order of that find_topo_sort and fails with it
    assert score(batch, "grader_topo", NB9) == 0, messages(batch, "grader_topo", NB9)
    # nor from the order in which needle made the graph's nodes (a hook on its constructors): the
    # graphs the student's code gets were made in a shuffled order
    assert score(batch, "creation_order_topo", NB9) == 0, messages(batch, "creation_order_topo", NB9)
    # nor by matching the nodes to those the worker once built in that order, by their ops and values:
    # the worker builds no graph with needle's ops (each crosses from the trusted side, shuffled)
    assert score(batch, "creation_matched_topo", NB9) == 0, messages(batch, "creation_matched_topo", NB9)


def test_answers_recorded_as_needle_makes_the_graph_score_nothing(batch):
    """A hook on needle's constructors that records each node's depth and the nodes below it as the
    node is made (red team, round 11: Tasks 1.1 and 1.2 in full): 01's probes make their graphs with
    no constructor, op or compute of needle's, so the record holds nothing of them. What the record
    answers by chance fails every test but one: its fallback for a node it has no record of (one
    step down its inputs) is a depth of 1 for any op over leaves, right on a leaf and on one op."""
    data = json.loads((batch["out"] / "construction_hook" / "results.json").read_text())
    scored = {t["name"] for t in data["tests"] if float(t["score"]) > 0 and t["extra_data"]["notebook"] == NB1}
    assert scored <= {f"{NB1} · Task 1.2 · graph_depth of a leaf and of one op"}, (scored, messages(batch, "construction_hook"))
    assert score(batch, "construction_hook") <= 1, messages(batch, "construction_hook")


def test_parameters_listed_by_when_they_were_made_score_nothing(batch):
    """Task 4.1 answered by a log of when Parameters were made or given to a module, with no walk (red
    team, round 11: 22/22 on 04): a Parameter made and given to another module while the tree is put
    together is in that window, and the tree does not hold it."""
    # the hidden rungs of parameters() build their module trees as no log of construction order reads:
    # they earn nothing (its __call__, its own and right, keeps the rung of module(...)'s arguments)
    walks = [r for r in rows(batch) if r["student"] == "parameters_in_a_window" and r["notebook"] == NB4
             and r["task"] == "4.1" and float(r["max_score"]) > 0 and "argument" not in r["test"]]
    assert len(walks) >= 2 and all(float(r["score"]) == 0 for r in walks), walks


def test_a_count_read_from_the_probes_frames_scores_nothing_on_the_deep_chain(batch):
    """While count_graph_nodes runs, no list of the graph's nodes is held anywhere in the worker:
    a recursive walk that looks for one loses the deep chain (the recursion limit) as it should."""
    failed = {r["test"] for r in rows(batch) if r["student"] == "frame_climb_count" and r["notebook"] == NB1
              and float(r["score"]) == 0}
    assert "test_count_deep_chain" in failed, messages(batch, "frame_climb_count")
    assert any("code, closure or frame surgery" in f for f in flags(batch, "frame_climb_count"))


def failed_tests(batch, student, notebook) -> set:
    return {r["test"] for r in rows(batch) if r["student"] == student and r["notebook"] == notebook and r["status"] == "failed"}


def task_score(batch, student, notebook, task) -> float:
    return sum(float(r["score"]) for r in rows(batch) if r["student"] == student and r["notebook"] == notebook
               and r["task"] == task)


def test_values_a_probe_held_during_the_call_are_no_longer_there_to_copy(batch):
    """04's tree labels, 07's first draw, 08's first read: copied from the probes' frames they passed
    9, 2 and 2 points; the probes hold none of them now, and each theft is flagged."""
    for student, notebook, task in (("steals_labels", NB4, "4.1"), ("steals_first_draw", NB7, "7.1"),
                                    ("steals_first_read", NB8, "8.1")):
        assert task_score(batch, student, notebook, task) < points(notebook, task), student
    for student, notebook in (("steals_labels", NB4), ("steals_first_draw", NB7), ("steals_first_read", NB8)):
        assert any("code, closure or frame surgery" in f for f in flags(batch, student, notebook)), student


def test_an_array_claiming_a_shape_it_does_not_have_fails(batch):
    """Features of one zero claiming shape (64,): the probe reads the array's own shape."""
    assert task_score(batch, "fake_features", NB8, "8.1") < points(NB8, "8.1")
    assert score(batch, "fake_features", NB8) < points(NB8)


def test_a_reply_flooded_with_values_is_refused_unread(batch):
    """A forged 64 MiB reply of empty lists: refused before decoding, Task 1.1 lost, the rest of
    the notebook graded, the write flagged."""
    assert score(batch, "floods_reply") == points(NB1, "1.2")
    assert any("file-descriptor games" in f for f in flags(batch, "floods_reply"))


def test_lines_continued_with_operators_are_python_not_magics(batch):
    """A continued line starting with != or % is Python (a magic starts a statement)."""
    assert score(batch, "continued_lines") == points(NB1), messages(batch, "continued_lines")


def test_an_error_needle_raises_on_the_students_line_shows_that_line(batch):
    """Not a threat: a float32 zero added to float64 adjoints in Task 6.3. Every failed test shows
    the student's own line and one cause (the probe raises needle's error again when it came
    from a line of theirs, instead of a fixed word without a line)."""
    failed = messages(batch, "float32_zero", NB6)
    assert failed and len(set(failed)) == 1, failed
    assert "of your cell, in `def gradient(self, out_grad, node):`: `grad = grad + part`: a dtype mismatch" in failed[0]
    assert points(NB6) - points(NB6, "6.3") <= score(batch, "float32_zero", NB6) < points(NB6)  # float32 inputs pass


def test_non_ascii_identifiers_score_full_marks(batch):
    """Issue 18: `α = ...` compiled in a worker running as nobody (unicodedata is pre-imported)."""
    assert score(batch, "unicode_honest") == points(NB1), messages(batch, "unicode_honest")


def test_pytorchs_zero_grad_is_the_courses_reset_grad(batch):
    """A training loop that calls opt.zero_grad() scores full marks in 05 and 08: the course's
    optimizers (needle's, the student's own Optimizer of 05, the grader's in 08) all have it."""
    for notebook in (NB5, NB8):
        assert score(batch, "pytorch_names", notebook) == points(notebook), messages(batch, "pytorch_names", notebook)


def test_forged_events_on_the_pipe_lose_only_their_cell(batch):
    """Bytes written on the worker's output pipe while loading break that load: the cell that wrote
    them is skipped (Task 1.1 lost), the rest is graded, the isolation line is the honest one,
    and the line is flagged."""
    assert score(batch, "forges_events") == points(NB1, "1.2")
    isolation = [line for line in batch["proc"].stdout.splitlines() if line.startswith("isolation:")]
    assert isolation and "fake" not in isolation[0] and "\x1b" not in batch["proc"].stdout
    assert any("file-descriptor games" in f for f in flags(batch, "forges_events"))


def test_running_out_of_inodes_costs_only_the_writer(batch):
    """Issue 18: 200,000 empty files: the writer's own scratch runs out (a tmpfs of its own as
    root; counted and stopped otherwise); every other student of the batch is graded in full."""
    assert score(batch, "fills_inodes") == points(NB1, "1.1")
    assert score(batch, "honest") == points(NB1)


def test_a_thread_bomb_costs_only_its_own_cell(batch):
    """9.2: no thread starts in a worker; the cell runs until its load budget (CPU time) and is skipped."""
    assert score(batch, "thread_bomb") == points(NB1, "1.1")


def test_filling_the_disk_fails_the_notebook_not_the_batch(batch):
    """9.4: the scratch directory is capped (a tmpfs of its own as root, watched otherwise)."""
    assert score(batch, "fills_disk") == points(NB1, "1.1")
    assert messages(batch, "fills_disk")


def test_scratch_is_removed_whatever_its_modes(batch):
    """9.4: a folder made unreadable (chmod 0) inside scratch does not outlive the batch."""
    assert score(batch, "locks_scratch") == points(NB1)
    assert not list(batch["tmp"].glob("grading-*"))  # (hypothesis keeps its cache beside)


def test_no_worker_outlives_its_notebook(batch):
    """9.5: a worker that tries to outlive the grader (clear PDEATHSIG, new session, fork) is gone."""
    assert score(batch, "survives") == points(NB1, "1.1")
    assert not _sessions_of_nobody(batch["tmp"])


def test_a_cell_of_megabytes_of_code_is_refused_as_the_students_not_the_graders(batch):
    """9.4: a cell of more code than any honest one (a 300 KB list literal) makes the notebook
    unreadable, named as such; it was parsed whole in the grader's process (9 GB for 20 MB) and its
    worker's compile timed out as an internal error of the grader's (red team, round 9)."""
    lost = messages(batch, "huge_cell")
    assert score(batch, "huge_cell") == 0 and lost and all("KB of code, over the 256 KB a cell may hold" in m for m in lost), lost


def test_a_hint_never_quotes_the_courses_setup_cell_as_the_students_line(batch):
    """9.10: a raised exception whose frame claims a line of a setup cell (a compromised worker chooses
    what it claims) is told as raised while no line of the student's ran: no setup line is quoted."""
    lost = messages(batch, "forged_where")
    assert lost and all("while no line of yours was running" in m for m in lost), lost
    assert not any("import needle" in m or "line 3 of your cell" in m for m in lost), lost


def test_exception_names_are_repeated_only_for_common_built_ins(batch):
    """9.10: a class of the submission's named like a built-in, or any name made at run time, is
    'an exception'; what the code computed never shows, only its line as written."""
    lost = messages(batch, "custom_exception")
    assert lost and all("raised an exception at line" in m for m in lost)
    assert all("runtime-42" not in m and "Secret_1" not in m and "Secret_2" not in m for m in lost)


def test_symbolic_links_are_refused(batch):
    """9.7: a notebook linked to the solutions or to /dev/zero, a folder linked to the solutions."""
    for student in ("linked_notebook", "linked_device", "linked_folder"):
        assert score(batch, student) == 0
        assert all("symbolic link" in m for m in messages(batch, student))


def test_reports_carry_no_student_words_and_stay_small(batch):
    """9.3: the notebook's own values never reach a report; a student's reports stay small."""
    assert any('raise ValueError("...")`' in m for m in messages(batch, "comment_note"))  # the line's code alone
    assert any('raise ValueError("...")`' in m for m in messages(batch, "string_note"))
    for student in ("huge_format", "staff_note", "comment_note", "string_note"):
        folder = batch["out"] / student
        text = (folder / "results.json").read_text() + (folder / "feedback.html").read_text()
        assert "xxxxxxxx" not in text and "STAFF" not in text and "153/153" not in text
        assert sum(p.stat().st_size for p in folder.iterdir()) < 200_000
    assert "STAFF" not in batch["proc"].stdout + batch["proc"].stderr


def test_student_folder_names_cannot_inject_or_collide(batch):
    """9.9: a formula, an escape sequence, the name of the grader's own report: each graded, under
    a safe name, with grades.csv intact and nothing raw on the terminal."""
    table = rows(batch)
    assert all(not r["student"].startswith(("=", "+", "-", "@")) for r in table)
    assert (batch["out"] / "grades.csv").is_file()
    assert all(p.is_dir() or is_reserved(p.name) for p in batch["out"].iterdir())  # the grader's files: reserved
    escaped = {r["student"] for r in table if r["student"].startswith("escaped-")}
    assert len(escaped) == len(NAMES)
    for name in escaped:
        assert score(batch, name) == points(NB1)
    assert "\x1b" not in batch["proc"].stdout + batch["proc"].stderr
    # each escaped name is mapped back to its folder (class audit: only the first was named, in a
    # note, and the LMS export carried the hash), the formula kept from becoming one
    assert batch["proc"].stderr.count("is not a plain folder name: reported as escaped-") == len(NAMES)
    mapped = list(csv.reader(io.StringIO((batch["out"] / "escaped_names.csv").read_text(encoding="utf-8"))))
    assert mapped[0] == ["reported_as", "student_folder"] and {r[0] for r in mapped[1:]} == escaped
    assert "'" + NAMES["formula"] in {r[1] for r in mapped[1:]}
    moodle = batch["root"] / "moodle.csv"
    proc = subprocess.run([sys.executable, "-m", "autograder", "export", str(batch["out"]), "--format", "moodle",
                           "--out", str(moodle)], capture_output=True, text=True, env=venv_env())
    assert proc.returncode == 0, proc.stderr
    usernames = {r[0] for r in csv.reader(io.StringIO(moodle.read_text(encoding="utf-8")))}
    assert {NAMES["escape"], NAMES["collides"], NAMES["collides_map"], NAMES["collides_later"],
            "'" + NAMES["formula"], "'" + NAMES["quoted_formula"]} <= usernames
    assert not any(u.startswith("escaped-") for u in usernames)


def test_nbgrader_feedback_prints_student_folder_names_neutralised(batch):
    """Issue 45, item 5: nbgrader-feedback names every student folder it could not serve (these
    came through no exchange: no timestamp.txt), the escape sequence among them, shown printable
    by the same function as every other command's lines."""
    from autograder.console import printable

    proc = subprocess.run([sys.executable, "-m", "autograder", "nbgrader-feedback", str(batch["root"]), "--from",
                           str(batch["out"]), "--assignment", ASSIGNMENT], capture_output=True, text=True, env=venv_env())
    assert proc.returncode == 1, proc.stderr[-2000:]  # none came through the exchange: nothing placed
    assert "\x1b" not in proc.stdout + proc.stderr
    assert printable(NAMES["escape"]) + ": NOT placed" in proc.stderr


def test_numpys_own_logsumexp_is_not_the_students_work(batch):
    """Issue 45, item 2: Task 3.2 answered by numpy's logaddexp.reduce and Task 3.1 by exp(x - that)
    score 0 with the own-work message, as needle's implementation would (the worker for those tasks
    holds no logaddexp: each module that bound it binds a stand-in that refuses), whatever the
    spelling (an alias of logaddexp2, getattr with a built name); Task 3.3 keeps its points, the
    review names the places, and the honest notebook keeps full marks with no flag."""
    assert score(batch, "honest", NB3) == points(NB3) and flags(batch, "honest", NB3) == []
    assert score(batch, "numpy_logsumexp", NB3) == points(NB3, "3.3"), messages(batch, "numpy_logsumexp", NB3)
    said = messages(batch, "numpy_logsumexp", NB3)
    assert any(m == "Task 3.1 must be your own softmax_stable: it uses numpy.logaddexp" for m in said), said
    assert any(m == "Task 3.2 must be your own logsumexp_stable: it uses numpy.logaddexp" for m in said), said
    assert len([f for f in flags(batch, "numpy_logsumexp", NB3) if "declares as its own work (numpy.logaddexp" in f]) == 2
    assert score(batch, "numpy_logsumexp_respelt", NB3) == points(NB3) - points(NB3, "3.2")
    said = messages(batch, "numpy_logsumexp_respelt", NB3)
    assert said and all(m.startswith("Task 3.2 must be your own logsumexp_stable: it uses numpy.logaddexp") for m in said), said
    assert any("numpy.logaddexp2" in f for f in flags(batch, "numpy_logsumexp_respelt", NB3))


def test_a_leak_hidden_behind_a_ballast_loses_its_task(batch):
    """Issue 45, item 1: Task 2.3's memory is read by the grader from /proc against the worker's
    memory before any student code ran (the worker waits for the grader's go), not against its
    memory when a call begins: a ballast freed as train_fixed starts and taken again between calls
    is above that floor too. The leak behind it loses Task 2.3's memory rung, and only that rung of
    points (its losses and weights are train_leaky's); its message is the visible rung's that counts
    the tensors kept from batch to batch. The honest notebook keeps full marks."""
    assert score(batch, "honest", NB2) == points(NB2)
    lost = [r["test"] for r in rows(batch) if r["student"] == "ballast_leak" and r["notebook"] == NB2
            and float(r["score"]) < float(r["max_score"])]
    assert lost == ["test_fixed_memory_stays_flat"], lost
    said = messages(batch, "ballast_leak", NB2)
    assert said and said[0].startswith("Task 2.3, rung 6 (nothing kept from batch to batch)"), said


def test_a_lookup_table_of_the_visible_rungs_earns_nothing(batch):
    assert score(batch, "visible_lookup") == points(NB1, "1.2")  # 1.2 is the solution's; 1.1 earns 0
    assert any(m.startswith("Task 1.1, rung ") for m in messages(batch, "visible_lookup"))


def test_forged_plain_data_from_the_worker_reads_as_an_object_and_costs_the_hidden_rungs_nothing(batch):
    assert score(batch, "forged_plain") == points(NB1)
    for m in messages(batch, "forged_plain"):
        assert "an object of another type" in m or "fails too" in m, m
        assert "xxxx" not in m
