"""Probes for 01_graph_accumulation: graphs built with needle, handed to the student's
count_graph_nodes / graph_depth."""
import needle as ndl
from autograder.probing import need, probe
from needle.autograd import Value

_INPUTS = Value.__dict__["inputs"]  # needle's slot: where a node keeps its inputs (read without counting)


# --- graph builders (also used by the trusted side to compute references) -----------------
def naive_loop(n: int):
    """The lecture's loop w = w + (-lr) * grad: each step adds a detached constant and an add."""
    w = ndl.Tensor([1.0, 2.0])
    grad = ndl.Tensor([0.5, 0.5], requires_grad=False)
    for _ in range(n):
        w = w + (-0.1) * grad
    return w


def diamond():
    """a -> b = 2a -> c = b + b -> d = c * a: b and a are each reached twice."""
    a = ndl.Tensor([1.0])
    b = a * 2
    c = b + b
    return c * a


def self_sum():
    """c = b + b with b = 2a: b is both inputs of c."""
    b = ndl.Tensor([1.0]) * 2
    return b + b


def ladder(n: int):
    """x_{k+1} = x_k + x_{k-1}: the number of paths grows like Fibonacci, nodes linearly."""
    prev, cur = ndl.Tensor([1.0]), ndl.Tensor([1.0])
    for _ in range(n):
        prev, cur = cur, cur + prev
    return cur


def unbalanced(long: int, short: int):
    """Two branches from one leaf, of ``long`` and ``short`` ops, joined by an add."""
    x = ndl.Tensor([1.0])
    a, b = x, x
    for _ in range(long):
        a = a * 1.5
    for _ in range(short):
        b = b + 1.0
    return a + b


def two_leaves():
    """An op with two distinct leaves, and a constant made by eager auto-detach."""
    a, b = ndl.Tensor([1.0]), ndl.Tensor([2.0])
    c = ndl.Tensor([3.0], requires_grad=False) * 2.0  # detached: a single leaf
    return (a * b) + c


def one_op():
    """x * 2: one op on one leaf."""
    return ndl.Tensor([1.0]) * 2


def leaf():
    return ndl.Tensor([1.0])


BUILDERS = {
    "naive_loop": naive_loop, "diamond": diamond, "self_sum": self_sum, "ladder": ladder,
    "unbalanced": unbalanced, "two_leaves": two_leaves, "one_op": one_op, "leaf": leaf,
}


def _nodes(t) -> list:
    """Every node reachable from t (each once, by identity), in a fixed walk order."""
    seen, stack, out = set(), [t], []
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        out.append(v)
        stack.extend(_INPUTS.__get__(v))
    return out


def _fingerprint(t) -> list:
    """(id, number of inputs, is a leaf) of every node: equal before and after a call exactly
    when the call left the graph's structure alone."""
    return [(id(v), len(_INPUTS.__get__(v)), v.op is None) for v in _nodes(t)]


# The 100,000-step graph takes seconds to build: built once per worker and reused, unless a
# student's function changed it (then it is rebuilt, so one task's bug never reaches another).
_BIG: dict = {}


def build(graph: str, **kwargs):
    if kwargs.get("n", 0) < 10_000:
        return BUILDERS[graph](**kwargs)
    key = (graph, tuple(sorted(kwargs.items())))
    if key in _BIG and _fingerprint(_BIG[key][0]) == _BIG[key][1]:
        return _BIG[key][0]
    _BIG.clear()
    t = BUILDERS[graph](**kwargs)
    _BIG[key] = (t, _fingerprint(t))
    return t


# --- measuring work: how often the student's code reads .inputs ---------------------------
class _TooMuchWork(BaseException):
    """Raised inside the student's walk when it has read far more .inputs than a walk that
    visits each node a few times could. A BaseException: `except Exception` does not hide it."""


_reads = [0, 1 << 62]  # [reads so far, budget]


class _Counted(ndl.Tensor):
    """A needle Tensor whose .inputs counts its reads (same layout: nodes are re-classed)."""

    __slots__ = ()

    @property
    def inputs(self):
        _reads[0] += 1
        if _reads[0] > _reads[1]:
            raise _TooMuchWork()
        return _INPUTS.__get__(self)

    @inputs.setter
    def inputs(self, value):
        _INPUTS.__set__(self, value)


def _counted(t):
    for v in _nodes(t):
        if type(v) is ndl.Tensor:
            v.__class__ = _Counted
    return t


def _bounded(fn, t, budget: int) -> dict:
    """fn(t), stopped once it has read .inputs more than ``budget`` times."""
    _reads[0], _reads[1] = 0, budget
    try:
        return {"value": fn(t), "aborted": False}
    except _TooMuchWork:
        return {"value": None, "aborted": True}
    finally:
        _reads[1] = 1 << 62


# --- probes -------------------------------------------------------------------------------
def _on_leaf(fn):
    """fn of a fresh leaf (what the trusted side needs to tell an off-by-one from other
    mistakes), or None if it raised."""
    try:
        return fn(ndl.Tensor([1.0]))
    except Exception:
        return None


def _run(fn, t) -> dict:
    return {"value": fn(t), "leaf": _on_leaf(fn)}


@probe("count_graph_nodes")
def count_nodes(ns, graph: str, **kwargs):
    return _run(need(ns, "count_graph_nodes"), build(graph, **kwargs))


@probe("graph_depth")
def depth(ns, graph: str, **kwargs):
    return _run(need(ns, "graph_depth"), build(graph, **kwargs))


@probe("count_graph_nodes", "graph_depth")
def bounded_work(ns, name: str, graph: str, reads_per_node: int, **kwargs):
    """name(graph), stopped when it reads .inputs more than reads_per_node times per node."""
    fn = need(ns, name)
    t = _counted(build(graph, **kwargs))
    return _bounded(fn, t, reads_per_node * len(_nodes(t))) | {"leaf": _on_leaf(fn)}


@probe("count_graph_nodes", "graph_depth")
def leaves_graph_unchanged(ns, name: str, graph: str, **kwargs):
    fn = need(ns, name)
    t = build(graph, **kwargs)
    before = _fingerprint(t)
    value = fn(t)
    return {"value": value, "unchanged": before == _fingerprint(t), "leaf": _on_leaf(fn)}
