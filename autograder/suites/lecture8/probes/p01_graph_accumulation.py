"""Probes for 01_graph_accumulation: graphs built with needle from plain-data descriptions that
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
from autograder.probing import allocate, fill_node, need, probe
from needle.autograd import Value
from needle.ops.arithmetic import EWiseAdd

_INPUTS = Value.__dict__["inputs"]  # needle's slot: where a node keeps its inputs (read without counting)
_DATA = Value.__dict__["cached_data"]


def _over(v):
    """A new node whose only input is ``v`` (a negation): v's graph and one node more, one level
    deeper. A later call on it, not on v again, meets no answer a first call could have cached on v."""
    return fill_node(allocate(ndl.Tensor), ndl.ops.Negate(), (v,), -_DATA.__get__(v), True)

# --- graphs, from plain data -------------------------------------------------------------------
# {"nodes": [[kind, *inputs], ...]}: node i is "leaf" (a Tensor that requires grad), "const" (one
#     that does not), "add" i j, "mul" i j, "scale" i (x * 1.5) or "shift" i (x + 1.0); the last
#     node is the one handed to the student. (In eager mode an op none of whose inputs requires
#     grad returns a detached leaf: the trusted side models that too.)
# {"naive_loop": n}: the lecture's loop w = w + (-lr) * grad, n times (1 + 2n nodes, n adds deep).
# {"ladder": n}: x_{k+1} = x_k + x_{k-1} from two leaves, n adds (n + 2 nodes, ~1.6^n paths).
_OPS = {
    "add": lambda a, b: a + b,
    "mul": lambda a, b: a * b,
    "scale": lambda a: a * 1.5,
    "shift": lambda a: a + 1.0,
}


def _from_nodes(nodes) -> list:
    built = []
    for kind, *args in nodes:
        if kind == "one":  # a leaf holding 1.0: several of them are distinct nodes of equal value
            built.append(ndl.Tensor([1.0]))
        elif kind in ("leaf", "const"):
            built.append(ndl.Tensor([float(len(built) % 7) - 3.0], requires_grad=kind == "leaf"))
        elif kind == "detach":  # another node holding the very same array
            built.append(built[args[0]].detach())
        else:
            built.append(_OPS[kind](*(built[i] for i in args)))
    return built


def _naive_loop(n: int) -> list:
    w = ndl.Tensor([1.0, 2.0])
    grad = ndl.Tensor([0.5, 0.5], requires_grad=False)
    built = [w]
    for _ in range(n):
        step = (-0.1) * grad  # a detached constant (nothing in it requires grad)
        w = w + step
        built += (step, w)
    return built


def _naive_loop_assembled(n: int) -> list:
    """The same graph as _naive_loop(n), node for node (types, ops, inputs, float32 values), put
    together directly: the loop's op calls and the collector's passes over a growing heap cost
    three times as much, for nothing the student's walk can see (tests/test_suites.py compares the
    two)."""
    w = ndl.Tensor([1.0, 2.0])
    step_value = ((-0.1) * ndl.Tensor([0.5, 0.5], requires_grad=False)).numpy()
    rows = np.empty((n + 1, 2), np.float32)
    rows[0], rows[1:] = w.numpy(), step_value
    values = np.add.accumulate(rows, axis=0)  # float32, one addition after another, as the loop adds
    built = [w]
    make_const, new, init = ndl.Tensor.make_const, ndl.Tensor.__new__, ndl.Tensor._init
    collecting = gc.isenabled()
    gc.disable()
    try:
        for k in range(1, n + 1):
            step = make_const(rows[k])
            w_next = new(ndl.Tensor)
            init(w_next, EWiseAdd(), (w, step), values[k], True)
            w = w_next
            built += (step, w)
    finally:
        if collecting:
            gc.enable()
    return built


def _ladder(n: int) -> list:
    prev, cur = ndl.Tensor([1.0]), ndl.Tensor([1.0])
    built = [prev, cur]
    for _ in range(n):
        prev, cur = cur, cur + prev
        built.append(cur)
    return built


def build(graph: dict) -> list:
    """Every node of ``graph`` as built, constants included (the last one is its output)."""
    if "nodes" in graph:
        return _from_nodes(graph["nodes"])
    (kind, n), = graph.items()
    if n < 10_000:
        return {"naive_loop": _naive_loop, "ladder": _ladder}[kind](n)
    built = {"naive_loop": _naive_loop_assembled, "ladder": _ladder}[kind](n)
    # Out of the collector's generations: otherwise every full collection the student's walk
    # triggers (its dict or stack of 200,000 entries) traverses the 200,000 nodes again, 0.2 s of
    # an honest graph_depth's 0.5 s. The same for every submission; the walk itself is untouched.
    gc.freeze()
    return built


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


def _limited(fn, built: list, reads_per_node: int, cpu_seconds: float, chain: bool, calls: int = 1) -> dict:
    """fn(output), then ``calls - 1`` times fn of a new node over the previous one (``_over``: one node
    more, one level deeper), stopped once it reads .inputs more than about ``reads_per_node`` times
    per node and call or uses more than ``cpu_seconds``: {"value" (the first call's), "again" (the
    later calls'), "stopped": "" | "reads" | "time"}. ``built`` (the
    graph's nodes, output last) is emptied first: while the student's code runs this process holds
    no list of the nodes (its length is Task 1.1's answer, its order a topological one), and the
    budget of reads is rounded up to a power of two (a figure of the count to within a factor 2).

    A ``chain`` (the naive loop's graph: one path to each node, so no walk reads too often) has
    only every SPARSE_EVERY-th node counted, each read of it checking the clock: the time limit
    without a Python call per node. The graph is the probe's own and dies with it: no node is
    re-classed back."""
    for v in built[::SPARSE_EVERY] if chain else built:
        v.__class__ = _Counted
    nodes, output = len(built), built[-1]
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
@probe("count_graph_nodes", "graph_depth")
def walk(ns, name: str, graph: dict, reads_per_node: int = 1_000, cpu_seconds: float = 5.0, calls: int = 1):
    """name(output of graph), ``calls`` times on the same graph, within the limits."""
    fn = need(ns, name)
    built = build(graph)
    return _limited(fn, built, reads_per_node, cpu_seconds, chain="naive_loop" in graph, calls=calls)


@probe("count_graph_nodes", "graph_depth")
def walks(ns, name: str, graphs: list):
    """name(output) for each of several small graphs (to tell one mistake from another); an
    exception gives None there."""
    fn = need(ns, name)
    out = []
    for graph in graphs:
        try:
            out.append(_number_or_not(fn(build(graph)[-1])))
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
        t = build({"naive_loop": n})[-1]
        runs = []
        for _ in range(2):
            gc.collect()
            start = time.process_time()
            fn(t)
            runs.append(time.process_time() - start)
        out.append(min(runs))
    return out
