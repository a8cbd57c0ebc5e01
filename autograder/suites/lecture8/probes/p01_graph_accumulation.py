"""Probes for 01_graph_accumulation: graphs put together from plain-data descriptions that
the trusted side chooses (it derives the expected counts and depths from the same descriptions),
handed to the student's count_graph_nodes / graph_depth.

A probe returns what the student's function returned, and, where it matters, what a second call
returned on the same graph with one node added on top: a walk that edited the graph (emptied the
inputs it had read, say) finds another graph the second time, and an answer cached on the first
call's node does not serve. No walk of the grader's is in this process: a digest taken
before and after would be one, and a frame walk from the student's code reached it to count the
nodes with it (red team, round 9). While the student's function runs, the probe holds only the
graph's output: no list of its nodes, whose length or order would be the answer (the process is
the student's to read). The work limits
below (reads of ``.inputs``, CPU seconds) only ever stop a walk early, so they can cost a point
but never earn one: a fast answer still has to come within the time limit the grader measures
from outside."""
import gc
import time

import numpy as np

import needle as ndl
from autograder.probing import SLOT_SETTERS, allocate, fill_node, need, probe
from needle.autograd import Value
from needle.ops.arithmetic import AddScalar, EWiseAdd, EWiseMul, MulScalar

_INPUTS = Value.__dict__["inputs"]  # needle's slot: where a node keeps its inputs (read without counting)
_DATA = Value.__dict__["cached_data"]


def _over(v):
    """A new node whose only input is ``v`` (a negation): v's graph and one node more, one level
    deeper. A later call on it, not on v again, meets no answer a first call could have cached on v."""
    return fill_node(allocate(ndl.Tensor), ndl.ops.Negate(), (v,), -_DATA.__get__(v), True)

# --- graphs, from plain data -------------------------------------------------------------------
# {"nodes": [[kind, *inputs], ...]}: node i is "leaf" (a Tensor that requires grad), "const" (one
#     that does not), "one" (a leaf holding 1.0: several are distinct nodes of equal value),
#     "detach" i (another node holding the very same array), "add" i j, "mul" i j, "scale" i
#     (x * 1.5) or "shift" i (x + 1.0); the last node is the one handed to the student. In eager
#     mode an op none of whose inputs requires grad gives a detached leaf: modelled here as on the
#     trusted side.
# {"naive_loop": n}: the lecture's loop w = w + (-lr) * grad, n times (1 + 2n nodes, n adds deep).
# {"ladder": n}: x_{k+1} = x_k + x_{k-1} from two leaves, n adds (n + 2 nodes, ~1.6^n paths).
#
# A graph is first a table (each node's op, inputs, value and requires_grad, in a topological
# order, values computed with numpy's operators), then its nodes are made and filled in an order
# drawn at random, with needle's slots and the allocator (probing.fill_node): no needle
# constructor, op or compute runs, so code hooked on them (by a cell) sees no node made after its
# inputs. Such a hook recorded each node's depth and the nodes below it as needle made them, and
# answered Tasks 1.1 and 1.2 with no walk (red team, round 11). What is called while the nodes are
# made was taken when this module loaded, before any cell.
_NEW_RNG, _ACCUMULATE, _ARRAY = np.random.default_rng, np.add.accumulate, np.array
_SET = object.__setattr__
_len, _zip, _tuple, _any, _float, _range = len, zip, tuple, any, float, range  # builtins a cell could replace
_TENSOR = ndl.Tensor
_OPS = {"add": (EWiseAdd, None), "mul": (EWiseMul, None), "scale": (MulScalar, 1.5), "shift": (AddScalar, 1.0)}
_F32 = np.float32


def _value(kind: str, a, b=None):
    if kind == "add":
        return a + b
    if kind == "mul":
        return a * b
    return a * _F32(1.5) if kind == "scale" else a + _F32(1.0)


def _table_of_nodes(nodes) -> list:
    rows = []  # [op kind or None, input positions, value, requires_grad]
    for kind, *args in nodes:
        if kind == "one":
            rows.append([None, (), _ARRAY([1.0], _F32), True])
        elif kind in ("leaf", "const"):
            rows.append([None, (), _ARRAY([_float(_len(rows) % 7) - 3.0], _F32), kind == "leaf"])
        elif kind == "detach":
            rows.append([None, (), rows[args[0]][2], False])
        else:
            value = _value(kind, *(rows[i][2] for i in args))
            needs = _any([rows[i][3] for i in args])
            rows.append([kind, _tuple(args), value, True] if needs else [None, (), value, False])
    return rows


def _naive_loop_values(n: int) -> tuple:
    """The loop's constants (-lr) * grad (after w's own row) and the values of w, float32, one
    addition after another, as the loop adds."""
    steps = _ARRAY([[1.0, 2.0]] + [[0.5, 0.5]] * n, _F32)
    steps[1:] *= _F32(-0.1)
    return steps, _ACCUMULATE(steps, axis=0)


def _table_of_naive_loop(n: int) -> list:
    """w, then for each step the detached constant (-lr) * grad and the add."""
    steps, values = _naive_loop_values(n)
    rows = [[None, (), values[0], True]]
    append = rows.append
    for k in _range(1, n + 1):
        append([None, (), steps[k], False])
        append(["add", (2 * k - 2, 2 * k - 1), values[k], True])
    return rows


def _table_of_ladder(n: int) -> list:
    rows = [[None, (), _ARRAY([1.0], _F32), True], [None, (), _ARRAY([1.0], _F32), True]]
    for k in _range(n):
        rows.append(["add", (k + 1, k), rows[k + 1][2] + rows[k][2], True])
    return rows


def table(graph: dict) -> list:
    """The graph's nodes as rows [op kind or None, input positions, value, requires_grad], inputs
    before users, the output last (the trusted side reads the values too)."""
    if "nodes" in graph:
        return _table_of_nodes(graph["nodes"])
    (kind, n), = graph.items()
    return {"naive_loop": _table_of_naive_loop, "ladder": _table_of_ladder}[kind](n)


def build(graph: dict) -> tuple:
    """(the graph's output, every node of it in an order drawn at random). The nodes and their ops
    are allocated in that order (the order in which the collector lists objects, and their
    addresses); the slots are then filled in the table's order, by calls no cell can replace.

    Except the naive loop's chain, made in its own order (``_chain``): its count and depth are
    functions of its length, which the probe's arguments hold anyway, and its 200,000 nodes made in
    a random order took 0.30-0.46 s instead of 0.19 s (each node a cache miss), at every deep-chain
    test."""
    if "naive_loop" in graph:
        return _chain(graph["naive_loop"])
    collecting = gc.isenabled()
    gc.disable()
    try:
        rows = table(graph)
        order = _NEW_RNG().permutation(_len(rows)).tolist()
        nodes, ops = [None] * _len(rows), [None] * _len(rows)
        for i in order:
            nodes[i] = allocate(_TENSOR)
            kind = rows[i][0]
            if kind is not None:
                cls, scalar = _OPS[kind]
                ops[i] = op = allocate(cls)
                if scalar is not None:
                    _SET(op, "scalar", scalar)
        for node, op, (_, inputs, value, requires) in _zip(nodes, ops, rows):
            fill_node(node, op, _tuple([nodes[j] for j in inputs]), value, requires)
        output = nodes[-1]
        shuffled = [nodes[i] for i in order]
        del nodes, ops, rows
    finally:
        if collecting:
            gc.enable()
    return output, shuffled


def _chain(n: int) -> tuple:
    """build({"naive_loop": n}): _table_of_naive_loop's nodes, made one after another."""
    steps, values = _naive_loop_values(n)
    set_op, set_inputs, set_data, set_requires, set_grad = SLOT_SETTERS  # fill_node's, written out: 200,000 nodes
    collecting = gc.isenabled()
    gc.disable()  # 200,000 new objects: no collector pass over them while they are made
    try:
        w = fill_node(allocate(_TENSOR), None, (), values[0], True)
        built = [w]
        for k in _range(1, n + 1):
            step, added = allocate(_TENSOR), allocate(_TENSOR)
            set_op(step, None), set_inputs(step, ()), set_data(step, steps[k]), set_requires(step, False), set_grad(step, None)
            set_op(added, allocate(EWiseAdd)), set_inputs(added, (w, step)), set_data(added, values[k])
            set_requires(added, True), set_grad(added, None)
            built += (step, added)
            w = added
    finally:
        if collecting:
            gc.enable()
    if n >= 10_000:
        # Out of the collector's generations: otherwise every full collection the student's walk
        # triggers (its dict or stack of 200,000 entries) traverses the 200,000 nodes again, 0.2 s of
        # an honest graph_depth's 0.5 s. The same for every submission; the walk itself is untouched.
        gc.freeze()
    return w, built


# --- limits on a walk: reads of .inputs and CPU seconds ------------------------------------------
class _Stopped(BaseException):
    """Raised inside the student's walk once it has read .inputs far more often than a walk that
    visits each node a few times would, or run out of its CPU seconds. A BaseException:
    ``except Exception`` does not hide it."""


_limit = {"reads": 0, "budget": 1 << 62, "clock_every": 32, "until": float("inf"), "why": ""}
SPARSE_EVERY = 64  # on the big chain, one node in this many checks the clock


class _Counted(ndl.Tensor):
    """A needle Tensor whose .inputs counts its reads and checks the CPU clock (same layout:
    the graph's nodes are re-classed for the walk, and back afterwards)."""

    __slots__ = ()

    @property
    def inputs(self):
        reads = _limit["reads"] = _limit["reads"] + 1
        if reads > _limit["budget"]:
            _limit["why"] = "reads"
            raise _Stopped()
        if reads % _limit["clock_every"] == 0 and time.process_time() > _limit["until"]:  # a system call
            _limit["why"] = "time"
            raise _Stopped()
        return _INPUTS.__get__(self)

    @inputs.setter
    def inputs(self, value):
        _INPUTS.__set__(self, value)


_Counted.__name__ = _Counted.__qualname__ = "Tensor"  # what an error in the student's code names, as in their kernel


def _limited(fn, output, built: list, reads_per_node: int, cpu_seconds: float, chain: bool, calls: int = 1) -> dict:
    """fn(output), then ``calls - 1`` times fn of a new node over the previous one (``_over``: one node
    more, one level deeper), stopped once it reads .inputs more than about ``reads_per_node`` times
    per node and call or uses more than ``cpu_seconds``: {"value" (the first call's), "again" (the
    later calls'), "stopped": "" | "reads" | "time"}. ``built`` (the
    graph's nodes, in a random order) is emptied first: while the student's code runs this process holds
    no list of the nodes (its length is Task 1.1's answer, its order a topological one), and the
    budget of reads is rounded up to a power of two (a figure of the count to within a factor 2).

    A ``chain`` (the naive loop's graph: one path to each node, so no walk reads too often) has
    only one node in SPARSE_EVERY counted, each read of it checking the clock: the time limit
    without a Python call per node. The graph is the probe's own and dies with it: no node is
    re-classed back."""
    for v in built[::SPARSE_EVERY] if chain else built:
        v.__class__ = _Counted
    nodes = len(built)
    built.clear()
    _limit.update(reads=0, budget=1 << 62 if chain else calls * reads_per_node * (1 << (nodes - 1).bit_length()),
                  clock_every=1 if chain else 32, until=time.process_time() + calls * cpu_seconds, why="")
    del nodes
    try:
        values = [_number_or_not(fn(output))]
        for _ in range(calls - 1):
            output = _over(output)
            values.append(_number_or_not(fn(output)))
        return {"value": values[0], "again": values[1:], "stopped": ""}
    except _Stopped:
        return {"value": None, "stopped": _limit["why"]}
    finally:
        _limit.update(budget=1 << 62, until=float("inf"))


def _number_or_not(value):
    """The value a walk returned when it is a number (or None); else a marker, so that a set or a
    list of Tensors returned by mistake is named as "not an int" rather than a reply that cannot
    be encoded."""
    if value is None or isinstance(value, (bool, int, float, np.integer, np.floating)):
        return value
    return "not a number"


# --- probes ----------------------------------------------------------------------------------------
_KEPT = []  # the chains walked: freeing 300,000 objects takes 30 ms, and a worker ends without freeing anything


@probe("count_graph_nodes", "graph_depth")
def walk(ns, name: str, graph: dict, reads_per_node: int = 1_000, cpu_seconds: float = 5.0, calls: int = 1):
    """name(output of graph), ``calls`` times on the same graph, within the limits."""
    fn = need(ns, name)
    output, built = build(graph)
    if "naive_loop" in graph:
        _KEPT.append(output)
    return _limited(fn, output, built, reads_per_node, cpu_seconds, chain="naive_loop" in graph, calls=calls)


@probe("count_graph_nodes", "graph_depth")
def walks(ns, name: str, graphs: list):
    """name(output) for each of several small graphs (to tell one mistake from another); an
    exception gives None there."""
    fn = need(ns, name)
    out = []
    for graph in graphs:
        try:
            out.append(_number_or_not(fn(build(graph)[0])))
        except Exception:
            out.append(None)
    return out


@probe("count_graph_nodes", "graph_depth")
def seconds(ns, name: str, sizes: list):
    """CPU seconds name takes on the naive loop's graph of each size (to tell a quadratic walk
    from a slow one: a hint only, never a point). The best of two runs, each after a collection:
    a collector pass or a cold cache inside the small run would hide a quadratic ratio."""
    fn = need(ns, name)
    out = []
    for n in sizes:
        t = build({"naive_loop": n})[0]
        runs = []
        for _ in range(2):
            gc.collect()
            start = time.process_time()
            fn(t)
            runs.append(time.process_time() - start)
        out.append(min(runs))
    return out
