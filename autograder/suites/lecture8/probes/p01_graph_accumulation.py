"""Probes for 01_graph_accumulation: graphs built with needle, handed to the student's
count_graph_nodes / graph_depth."""
import needle as ndl

from autograder.probing import need, probe


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


BUILDERS = {
    "naive_loop": naive_loop, "diamond": diamond, "ladder": ladder,
    "unbalanced": unbalanced, "two_leaves": two_leaves,
}


_BIG: dict = {}  # the 100,000-step graph is built once per worker (it takes most of the time)


def build(graph: str, **kwargs):
    if graph == "leaf":
        return ndl.Tensor([1.0])
    if kwargs.get("n", 0) >= 10_000:
        key = (graph, tuple(sorted(kwargs.items())))
        if key not in _BIG:
            _BIG.clear()
            _BIG[key] = BUILDERS[graph](**kwargs)
        return _BIG[key]
    return BUILDERS[graph](**kwargs)


def _snapshot(t):
    """(id, number of inputs) of every node, walked iteratively: to see the graph unchanged."""
    seen, stack, out = set(), [t], []
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        out.append((id(v), len(v.inputs), v.op is None))
        stack.extend(v.inputs)
    return sorted(out)


# --- probes -------------------------------------------------------------------------------
@probe("count_graph_nodes")
def count_nodes(ns, graph: str, **kwargs):
    return need(ns, "count_graph_nodes")(build(graph, **kwargs))


@probe("graph_depth")
def depth(ns, graph: str, **kwargs):
    return need(ns, "graph_depth")(build(graph, **kwargs))


@probe("count_graph_nodes", "graph_depth")
def leaves_graph_unchanged(ns, name: str, graph: str, **kwargs):
    t = build(graph, **kwargs)
    before = _snapshot(t)
    need(ns, name)(t)
    return before == _snapshot(t)
