"""Hidden tests for 01_graph_accumulation (Tasks 1.1 and 1.2).

The graphs are plain-data descriptions (see the probes module). Most are drawn per submission
from ``submission_seed`` (random graphs with shared nodes, loop lengths, branch lengths), and the
expected count or depth is derived here, from the description, with a model of needle's eager
mode; a few fixed graphs keep their derivation by hand in a comment.

Each task is declared once (TASK_1_1, TASK_1_2): its data rungs, the smallest graphs first, are
also the notebook's visible tests; the hidden rungs follow (larger graphs, exponentially many
paths, a chain 100,000 updates long, the graph left unchanged). The first rung a submission fails
gives its message: the graph in one line, the value the contract gives and the code's; a stop
for reading .inputs far too often or for CPU time says which (those stops tell causes apart).
"""
import numpy as np

from autograder.specification import Rung, Task, declare
from autograder.suite import StudentCodeError, load_probes

P = load_probes(__file__)

# Needle's own graph walks: a task answered with any of them scores nothing (and they are absent
# from the worker while the task is graded). _topo_order is the walk behind find_topo_sort,
# graph_node_count and realize_cached_data; compute_gradient_of_variables (behind backward) walks
# the graph with a walk of its own; needle.viz draws and checks graphs with its own walks
# (draw_graph's columns are depths). Everything else of needle (Tensor, .inputs, the ops) stays
# allowed.
GRAPH_WALKS = ["needle.autograd._topo_order", "needle.autograd.find_topo_sort", "needle.autograd.graph_node_count",
               "needle.autograd.compute_gradient_of_variables", "needle.viz"]

LEAF_X = "x = ndl.Tensor([1.0])"
CHAIN = LEAF_X + "; c = ndl.Tensor([0.5], requires_grad=False); t = x\nfor _ in range(20_000): t = t + c"
# Each rung's value by hand: the nodes are the distinct Values reachable from t through .inputs,
# t included; a node's depth is 0 for a leaf, else 1 + the largest depth among its inputs.
TASK_1_1 = Task(
    "1.1", names=["count_graph_nodes"], own_work=GRAPH_WALKS,
    contract="count_graph_nodes(t) is the number of distinct nodes (Values) reachable from t through .inputs, t "
             "included, each counted once however many paths reach it; an int; iterative, so a chain 100,000 ops "
             "deep works, in time linear in the graph; the graph is left as it was",
    rungs=[
        Rung("a leaf", given=LEAF_X + "; t = x", call="count_graph_nodes(t)", expect=1),  # t alone
        Rung("one op", given=LEAF_X + "; t = x * 2.0", call="count_graph_nodes(t)", expect=2),  # x, t
        Rung("an op of two inputs", given="a = ndl.Tensor([1.0]); b = ndl.Tensor([2.0]); t = a + b",
             call="count_graph_nodes(t)", expect=3),  # a, b, t
        Rung("a node used twice", given=LEAF_X + "; t = x + x", call="count_graph_nodes(t)", expect=2),  # x, t (two paths to x)
        # x, 2x, 3x, t: x is reached through 2x and through 3x
        Rung("a diamond", given=LEAF_X + "; t = x * 2.0 + x * 3.0", call="count_graph_nodes(t)", expect=4),
        # a, b, t: a and b hold equal values and are still two nodes
        Rung("two leaves of equal value", given="a = ndl.Tensor([1.0]); b = ndl.Tensor([1.0]); t = a * b",
             call="count_graph_nodes(t)", expect=3),
        # x, its detached copy (another node holding x's very array) and t
        Rung("x and x.detach()", given=LEAF_X + "; t = x + x.detach()", call="count_graph_nodes(t)", expect=3),
        # x, c (one node, used by every add) and 20,000 adds: 20,002 nodes, 20,000 deep
        Rung("a chain 20,000 adds deep", given=CHAIN, call="count_graph_nodes(t)", expect=20_002),
    ])
TASK_1_2 = Task(
    "1.2", names=["graph_depth"], own_work=GRAPH_WALKS,
    # (the contract gives the definition only: how a node's depth follows from its inputs' is the student's to
    # work out; tasks.json, in the release, carries this text)
    contract="graph_depth(t) is the number of ops on the longest path from t down to a leaf through .inputs (a leaf "
             "is 0); an int; iterative and linear in the graph, whatever the number of paths; the graph is left as "
             "it was",
    rungs=[
        Rung("a leaf", given=LEAF_X + "; t = x", call="graph_depth(t)", expect=0),
        Rung("one op", given=LEAF_X + "; t = x * 2.0", call="graph_depth(t)", expect=1),
        Rung("two ops in a row", given=LEAF_X + "; t = x * 2.0 + 1.0", call="graph_depth(t)", expect=2),
        # 2x has depth 1, t = x + 2x depth 2: x is an input of t and of 2x
        Rung("an input of two nodes", given=LEAF_X + "; t = x + x * 2.0", call="graph_depth(t)", expect=2),
        # the long branch x*2*3 (2 ops) then the add: 3; the short branch (x) alone gives 1
        Rung("the longer branch first", given=LEAF_X + "; t = x * 2.0 * 3.0 + x", call="graph_depth(t)", expect=3),
        # a = 2x (1), t = a + a (2): one path, however many uses
        Rung("a node used twice", given=LEAF_X + "; a = x * 2.0; t = a + a", call="graph_depth(t)", expect=2),
        Rung("a chain 20,000 adds deep", given=CHAIN, call="graph_depth(t)", expect=20_000),
    ])
declare(globals(), TASK_1_1, TASK_1_2)

# --- the trusted model of a graph description ------------------------------------------------------
def model(graph: dict) -> list[list[int]]:
    """The inputs each node keeps (eager mode: an op none of whose inputs requires grad returns a
    detached leaf, with no inputs)."""
    requires, inputs = [], []
    for kind, *args in graph["nodes"]:
        if kind in ("leaf", "const", "one", "detach"):
            requires.append(kind not in ("const", "detach"))
            inputs.append([])
        else:
            needs = any(requires[i] for i in args)
            requires.append(needs)
            inputs.append(list(args) if needs else [])
    return inputs


def node_count(graph: dict) -> int:
    if "naive_loop" in graph:
        return 1 + 2 * graph["naive_loop"]  # each step: the detached constant (-lr) * grad and the add
    if "ladder" in graph:
        return 2 + graph["ladder"]  # two leaves and one add per step
    inputs = model(graph)
    seen, stack = set(), [len(inputs) - 1]
    while stack:
        i = stack.pop()
        if i not in seen:
            seen.add(i)
            stack.extend(inputs[i])
    return len(seen)




def depth_of(graph: dict) -> int:
    if "naive_loop" in graph:
        return graph["naive_loop"]  # one add per step on the longest path
    if "ladder" in graph:
        return graph["ladder"]
    depth = []
    for ins in model(graph):  # a node's inputs come before it
        depth.append(1 + max(depth[i] for i in ins) if ins else 0)
    return depth[-1]




def random_graph(rng, leaves: int, ops: int) -> dict:
    """A random graph with shared nodes: each op takes its inputs mostly among the last few nodes
    (so the graph is deep), sometimes anywhere before (so nodes are reached along several paths),
    sometimes the same node twice; a fifth of the leaves need no gradient."""
    while True:
        nodes = [["leaf"]] + [["const"] if rng.random() < 0.2 else ["leaf"] for _ in range(leaves - 1)]
        for _ in range(ops):
            n = len(nodes)

            def pick():
                return int(n - 1 - rng.integers(0, min(n, 3))) if rng.random() < 0.7 else int(rng.integers(0, n))

            kind = str(rng.choice(["add", "mul", "scale", "shift"], p=[0.35, 0.35, 0.15, 0.15]))
            nodes.append([kind, pick(), pick()] if kind in ("add", "mul") else [kind, pick()])
        graph = {"nodes": nodes}
        inputs = model(graph)
        reached = [i for ins in inputs for i in ins]
        if inputs[-1] and node_count(graph) >= ops // 2 and len(reached) > len(set(reached)):
            return graph


def random_graphs(seed: int, k: int, count: int) -> list[dict]:
    rng = np.random.default_rng([seed, k])
    return [random_graph(rng, int(rng.integers(2, 5)), int(rng.integers(8, 25))) for _ in range(count)]


SELF_SUM = {"nodes": [["leaf"], ["scale", 0], ["add", 1, 1]]}              # b = 1.5a, c = b + b: a, b, c = 3 nodes, depth 2
# d = (b + b) * a with b = 1.5a: a, b, b + b, d = 4 distinct nodes (7 counted along paths);
# the longest path d <- (b + b) <- b <- a has 3 ops
DIAMOND = {"nodes": [["leaf"], ["scale", 0], ["add", 1, 1], ["mul", 2, 0]]}
# a branch of 3 ops and one of 1 op from the same leaf, joined by an add: depth 3 + 1 = 4;
# the sum of both branches' depths plus 1 would be 5, the first (short) branch alone 2
UNBALANCED = {"nodes": [["leaf"], ["shift", 0], ["scale", 0], ["scale", 2], ["scale", 3], ["add", 1, 4]]}
# a = 1, b = 1, c = a * b = 1, t = c + a = 2: 4 nodes (two leaves of equal value), depth 2
EQUAL_VALUES = {"nodes": [["one"], ["one"], ["mul", 0, 1], ["add", 2, 0]]}
# x + x.detach(): x, the detached node (another node, holding x's very array) and the sum = 3 nodes,
# depth 1; told apart by their data (id of cached_data), 2
SHARED_DATA = {"nodes": [["leaf"], ["detach", 0], ["add", 0, 1]]}


COUNT_EXPONENTIAL = ("count_graph_nodes follows every path: a graph of a hundred nodes can have about 3.5 x 10^20 of "
                     "them (a ladder, each node adding the two before it); remember the nodes you visited (by "
                     "identity) and visit each once")
COUNT_QUADRATIC = ("count_graph_nodes takes quadratic time: its time grows with the square of the graph's size, so "
                   "something it does for each node costs as much as the nodes visited so far (a lookup that scans "
                   "them, for instance); visit each node in constant time")
COUNT_SLOW = ("count_graph_nodes is too slow on a graph of 200,000 nodes: visit each node once, in constant time per "
              "node")
COUNT_CHANGED = ("count_graph_nodes changed the graph: counted again with one node added on top, it did not give one "
                 "more; walk it without editing .inputs or .op")

DEPTH_EXPONENTIAL = ("graph_depth explores every path: a graph of a hundred nodes can have about 3.5 x 10^20 of them "
                     "(a ladder, each node adding the two before it); compute each node's depth once (remember the "
                     "depths you have computed)")
DEPTH_QUADRATIC = ("graph_depth takes quadratic time: its time grows with the square of the graph's size, so "
                   "something it does for each node costs as much as the nodes done so far (a lookup that scans "
                   "them, for instance); handle each node in constant time")
DEPTH_SLOW = ("graph_depth is too slow on a graph of 200,000 nodes: compute each node's depth once, in constant time "
              "per node")
DEPTH_CHANGED = ("graph_depth changed the graph: measured again with one node added on top, it did not give one "
                 "more; walk it without editing .inputs or .op")


def _is_int(v) -> bool:
    return type(v) is int


def described(graph: dict) -> str:
    """A graph as one line of code: what the message shows as the rung's input."""
    if "naive_loop" in graph:
        return f"the lecture's naive loop of {graph['naive_loop']} steps (w = w + (-lr) * grad, 1 + 2n nodes)"
    if "ladder" in graph:
        return f"a ladder of {graph['ladder']} adds from two leaves (x_k+1 = x_k + x_k-1)"
    lines = []
    for i, (kind, *args) in enumerate(graph["nodes"]):
        name = "t" if i == len(graph["nodes"]) - 1 else f"n{i}"
        a = [f"n{j}" for j in args]
        lines.append(f"{name} = " + {
            "leaf": "leaf", "const": "constant", "one": "leaf holding 1.0", "detach": f"{a[0] if a else ''}.detach()",
            "add": " + ".join(a), "mul": " * ".join(a), "scale": f"{a[0] if a else ''} * 1.5",
            "shift": f"{a[0] if a else ''} + 1.0"}.get(kind, kind))
    return "; ".join(lines)


def wrong(name: str, graph: dict, want: int, got) -> str:
    shown = repr(got) if _is_int(got) else "a value that is not an int"
    return f"on `{described(graph)}`, {name}(t) should be {want}; your code gave {shown}."


def check(observe, name: str, graph: dict, want: int, **limits) -> dict:
    """The student's function on ``graph`` returns ``want``; else a message with the graph, the
    value and the code's; a walk stopped for reading .inputs far too often (every path) or for
    its CPU time says so (those stops tell their causes apart)."""
    count = name == "count_graph_nodes"
    r = observe(P.walk, name=name, graph=graph, **limits)
    if _is_int(r["value"]) and r["value"] == want:
        return r
    if r["stopped"] == "reads":
        raise AssertionError(f"on `{described(graph)}`: {COUNT_EXPONENTIAL if count else DEPTH_EXPONENTIAL}")
    if r["stopped"] == "time":
        raise AssertionError(f"on `{described(graph)}`: {speed_message(observe, name)}")
    raise AssertionError(wrong(name, graph, want, r["value"]))




def speed_message(observe, name: str) -> str:
    """A walk out of CPU time on the big chain: quadratic (from the naive loop's graph of 500
    steps to that of 3,000 its time grows about 36-fold, a linear walk's 6-fold: over 12-fold
    counts, the notebook's visible tests' rule) or only slow. With 1,000 and 3,000 steps (9-fold
    against 3-fold, over 6-fold counting) the list-membership mistakes measured 7-11-fold, and
    under make test's load sometimes under 6: they were called only slow; with 500 and 3,000 they
    measure 26-36-fold beside three CPU hogs. The large run must take over 0.05 s to count (an
    honest walk takes 3 ms, the mistakes 0.3-1.1 s). A hint only: the point was lost to the limit."""
    count = name == "count_graph_nodes"
    try:
        small, large = observe(P.seconds, name=name, sizes=[500, 3000])
    except StudentCodeError:
        return COUNT_SLOW if count else DEPTH_SLOW
    quadratic = isinstance(small, float) and isinstance(large, float) and large > 0.05 and large > 12 * max(small, 1e-3)
    return (COUNT_QUADRATIC if count else DEPTH_QUADRATIC) if quadratic else (COUNT_SLOW if count else DEPTH_SLOW)


def draw(seed: int, k: int, low: int, high: int) -> int:
    return int(np.random.default_rng([seed, k]).integers(low, high))


# --- Task 1.1: count_graph_nodes -------------------------------------------------------------------
COUNT = "count_graph_nodes"


@TASK_1_1.rung("larger graphs: the naive update loop, shared nodes, exponentially many paths", points=5)
def test_count_larger_graphs(observe, submission_seed):
    """count_graph_nodes on the lecture's naive loop and on random graphs with shared nodes, and a ladder of exponentially many paths"""
    for k in range(2):
        n = draw(submission_seed, k, 3, 40)
        check(observe, COUNT, {"naive_loop": n}, 1 + 2 * n)
    check(observe, COUNT, {"nodes": [["leaf"]]}, 1)  # t alone
    check(observe, COUNT, EQUAL_VALUES, 4)
    check(observe, COUNT, DIAMOND, 4)
    check(observe, COUNT, SELF_SUM, 3)
    check(observe, COUNT, SHARED_DATA, 3)
    for graph in random_graphs(submission_seed, 10, 3):
        check(observe, COUNT, graph, node_count(graph))
    n = draw(submission_seed, 20, 80, 96)  # two leaves + n adds; about 1.6^n paths
    check(observe, COUNT, {"ladder": n}, n + 2)


@TASK_1_1.rung("a chain about 100,000 updates long, in linear time", points=3)
def test_count_deep_chain(observe, submission_seed):
    """count_graph_nodes on the graph of about 100,000 naive updates, in linear time"""
    # 1 + 2n nodes, n deep: a recursive walk hits Python's recursion limit (the grader then
    # says "explicit stack" itself), a quadratic one runs out of time
    n = draw(submission_seed, 30, 95_000, 105_000)  # the same chain as Task 1.2's (built once per worker)
    check(observe, COUNT, {"naive_loop": n}, 1 + 2 * n)


@TASK_1_1.rung('counted right twice, once with a node on top: the graph left unchanged', points=1)
def test_count_leaves_graph_unchanged(observe, submission_seed):
    """count_graph_nodes does not modify the graph (and counts it): counted again with one node on top, one more"""
    for graph in random_graphs(submission_seed, 40, 2):
        r = check(observe, COUNT, graph, node_count(graph), calls=2)
        assert r["again"] == [r["value"] + 1], COUNT_CHANGED


# --- Task 1.2: graph_depth -----------------------------------------------------------------------------
DEPTH = "graph_depth"


def unbalanced(long: int, short: int, long_first: bool) -> dict:
    """Two branches from one leaf, of ``long`` muls and ``short`` adds, joined by an add: depth
    long + 1 (a sum of the branches would give long + short + 1)."""
    nodes = [["leaf"]]
    ends = []
    for length, kind in ((long, "scale"), (short, "shift")) if long_first else ((short, "shift"), (long, "scale")):
        nodes.append([kind, 0])
        nodes += [[kind, len(nodes) - 1 + i] for i in range(length - 1)]
        ends.append(len(nodes) - 1)
    nodes.append(["add", *ends])
    return {"nodes": nodes}


@TASK_1_2.rung("larger graphs: the naive loop, long and short branches, shared nodes, exponentially many paths", points=6)
def test_depth_larger_graphs(observe, submission_seed):
    """graph_depth on the lecture's naive loop, on branches of different lengths, on random graphs with shared nodes, and a ladder of exponentially many paths"""
    for k in range(2):
        n = draw(submission_seed, 50 + k, 3, 40)  # w_k = w_{k-1} + c_k: one add per step on the longest path
        check(observe, DEPTH, {"naive_loop": n}, n)
    check(observe, DEPTH, UNBALANCED, 4)
    long, short = draw(submission_seed, 60, 6, 15), draw(submission_seed, 61, 1, 5)
    for long_first in (True, False):
        check(observe, DEPTH, unbalanced(long, short, long_first), long + 1)
    check(observe, DEPTH, {"nodes": [["leaf"]]}, 0)  # t alone
    check(observe, DEPTH, EQUAL_VALUES, 2)
    check(observe, DEPTH, DIAMOND, 3)
    for graph in random_graphs(submission_seed, 70, 3):
        check(observe, DEPTH, graph, depth_of(graph))
    n = draw(submission_seed, 80, 80, 96)  # n adds in a row on the longest path; about 1.6^n paths
    check(observe, DEPTH, {"ladder": n}, n)


@TASK_1_2.rung("a chain about 100,000 updates long, in linear time", points=3)
def test_depth_deep_chain(observe, submission_seed):
    """graph_depth of the graph of about 100,000 naive updates, in linear time"""
    n = draw(submission_seed, 30, 95_000, 105_000)
    check(observe, DEPTH, {"naive_loop": n}, n)


@TASK_1_2.rung('measured right twice, once with a node on top: the graph left unchanged', points=1)
def test_depth_leaves_graph_unchanged(observe, submission_seed):
    """graph_depth does not modify the graph (and measures it): with one node on top, one more"""
    for graph in random_graphs(submission_seed, 100, 2):
        r = check(observe, DEPTH, graph, depth_of(graph), calls=2)
        assert r["again"] == [r["value"] + 1], DEPTH_CHANGED
