"""Hidden tests for 01_graph_accumulation (Tasks 1.1 and 1.2).

The graphs are plain-data descriptions (see the probes module). Most are drawn per submission
from ``submission_seed`` (random graphs with shared nodes, loop lengths, branch lengths), and the
expected count or depth is derived here, from the description, with a model of needle's eager
mode; a few fixed graphs keep their derivation by hand in a comment.

One mistake, one hint: a failing test asks ``count_hint`` / ``depth_hint`` which mistake the
student's function shows on a few small fixed graphs (t itself left out, nodes counted once per
path, only the first input followed, nodes counted instead of ops, ...) and fails with that
message, so a mistake reads the same in every test it fails; a test's own message is the
fallback. Every test checks a value, so a constant answer loses all of them.
"""
import numpy as np

from autograder.suite import StudentCodeError, graded, load_probes

P = load_probes(__file__)

# Needle's own graph walks: a task answered with any of them scores nothing (and they are absent
# from the worker while the task is graded). _topo_order is the walk behind find_topo_sort,
# graph_node_count and realize_cached_data; compute_gradient_of_variables (behind backward) walks
# the graph with a walk of its own; needle.viz draws and checks graphs with its own walks
# (draw_graph's columns are depths). Everything else of needle (Tensor, .inputs, the ops) stays
# allowed.
GRAPH_WALKS = ["needle.autograd._topo_order", "needle.autograd.find_topo_sort", "needle.autograd.graph_node_count",
               "needle.autograd.compute_gradient_of_variables", "needle.viz"]
OWN_WORK = {"1.1": ("count_graph_nodes", GRAPH_WALKS), "1.2": ("graph_depth", GRAPH_WALKS)}

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


def value_count(graph: dict) -> int:
    """The distinct values among the reachable nodes (what a walk that tells nodes apart by value counts)."""
    rows = P.table(graph)  # [op, inputs, value, requires_grad] per node, the output last
    seen, values, stack = set(), set(), [len(rows) - 1]
    while stack:
        i = stack.pop()
        if i not in seen:
            seen.add(i)
            values.add(tuple(rows[i][2].ravel().tolist()))
            stack.extend(rows[i][1])
    return len(values)


def depth_of(graph: dict) -> int:
    if "naive_loop" in graph:
        return graph["naive_loop"]  # one add per step on the longest path
    if "ladder" in graph:
        return graph["ladder"]
    depth = []
    for ins in model(graph):  # a node's inputs come before it
        depth.append(1 + max(depth[i] for i in ins) if ins else 0)
    return depth[-1]


def op_count(graph: dict) -> int:
    """The nodes made by ops among those reachable (what a count of op nodes alone gives)."""
    if "naive_loop" in graph:
        return graph["naive_loop"]  # the sums (the constants are leaves)
    if "ladder" in graph:
        return graph["ladder"]
    inputs = model(graph)
    seen, stack = set(), [len(inputs) - 1]
    while stack:
        i = stack.pop()
        if i not in seen:
            seen.add(i)
            stack.extend(inputs[i])
    return sum(1 for i in seen if inputs[i])


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


# Fixed graphs (their counts and depths derived by hand):
LEAF = {"nodes": [["leaf"]]}                                               # 1 node, depth 0
ONE_OP = {"nodes": [["leaf"], ["scale", 0]]}                               # x * 1.5: 2 nodes, depth 1
SELF_SUM = {"nodes": [["leaf"], ["scale", 0], ["add", 1, 1]]}              # b = 1.5a, c = b + b: a, b, c = 3 nodes, depth 2
# d = (b + b) * a with b = 1.5a: a, b, b + b, d = 4 distinct nodes (7 counted along paths);
# the longest path d <- (b + b) <- b <- a has 3 ops
DIAMOND = {"nodes": [["leaf"], ["scale", 0], ["add", 1, 1], ["mul", 2, 0]]}
# (a * b) + c with c = 3 * 2 made of constants only (eager mode detaches it: one leaf):
# a, b, a * b, c and the sum = 5 nodes, depth 2
TWO_LEAVES = {"nodes": [["leaf"], ["leaf"], ["const"], ["scale", 2], ["mul", 0, 1], ["add", 4, 3]]}
# a branch of 3 ops and one of 1 op from the same leaf, joined by an add: depth 3 + 1 = 4;
# the sum of both branches' depths plus 1 would be 5, the first (short) branch alone 2
UNBALANCED = {"nodes": [["leaf"], ["shift", 0], ["scale", 0], ["scale", 2], ["scale", 3], ["add", 1, 4]]}
CHAIN3 = {"naive_loop": 3}                                                 # 1 + 2 * 3 = 7 nodes, 3 adds deep
# a = 1, b = 1, c = a * b = 1, d = c + a = 2: 4 nodes, depth 2; told apart by value, 2 (the values 1 and 2),
# where following only first inputs gives 3
EQUAL_VALUES = {"nodes": [["one"], ["one"], ["mul", 0, 1], ["add", 2, 0]]}
# x + x.detach(): x, the detached node (another node, holding x's very array) and the sum = 3 nodes,
# depth 1; told apart by their data (id of cached_data), 2
SHARED_DATA = {"nodes": [["leaf"], ["detach", 0], ["add", 0, 1]]}
DIAGNOSTIC = [LEAF, ONE_OP, SELF_SUM, DIAMOND, TWO_LEAVES, UNBALANCED, CHAIN3, EQUAL_VALUES, SHARED_DATA]  # new ones at the end


# --- what the student reads: one message per mistake ------------------------------------------------
COUNT_INT = "count_graph_nodes must return an int (the number of distinct nodes)"
COUNT_ZERO = "count_graph_nodes returned 0: every graph has at least one node, t itself"
COUNT_T_ITSELF = "count_graph_nodes is one node short: count t itself too, not only the nodes below it"
COUNT_ONE_MORE = ("count_graph_nodes counts one node too many: a lone leaf is a graph of one node; count each distinct "
                  "node once, t included, and add nothing")
COUNT_BY_DATA = ("count_graph_nodes merged distinct nodes that share one array (x and x.detach() hold the same "
                 "cached_data): tell nodes apart by the node itself, not by its data")
COUNT_LEAVES = ("count_graph_nodes counts only the nodes made by ops: leaves and constants are nodes too (a lone leaf "
                "is a graph of one node)")
COUNT_PATHS = ("count_graph_nodes counts a node once per path that reaches it: a node reached along several paths "
               "counts once; remember the nodes you visited (by identity)")
COUNT_BY_VALUE = ("count_graph_nodes merged distinct nodes that hold equal values: two tensors of the same value are "
                  "two nodes; tell nodes apart by identity (id(node)), not by their values")
COUNT_FOLLOW = ("count_graph_nodes finds fewer nodes than the graph has: follow every input of every node (not only "
                "the first) down to the leaves, and count the leaves and constants too")
COUNT_EXPONENTIAL = ("count_graph_nodes follows every path: a graph of a hundred nodes can have about 3.5 x 10^20 of "
                     "them (a ladder, each node adding the two before it); remember the nodes you visited (by "
                     "identity) and visit each once")
COUNT_QUADRATIC = ("count_graph_nodes takes quadratic time: `node in visited` on a list compares node with every node "
                   "visited so far; keep the visited ids in a set (or a dict), where a lookup takes constant time")
COUNT_SLOW = ("count_graph_nodes is too slow on a graph of 200,000 nodes: visit each node once, in constant time per "
              "node (a set of visited ids and an explicit stack)")
COUNT_CHANGED = ("count_graph_nodes changed the graph: counted again with one node added on top, it did not give one "
                 "more; walk it without editing .inputs or .op")

DEPTH_INT = "graph_depth must return an int (the number of ops on the longest path)"
DEPTH_ZERO = ("graph_depth returned 0 for a tensor made by an op: a node made by an op has depth 1 + the largest depth "
              "of its inputs")
DEPTH_NODES = "graph_depth is one too high: depth counts ops, not nodes (a leaf has depth 0)"
DEPTH_ADDS = ("graph_depth is longer than the longest path: it adds up the depths of several inputs; add 1 per op along "
              "one path, taking the maximum over the inputs")
DEPTH_FIRST = ("graph_depth is shorter than the longest path: take the maximum over all inputs (not the first input, "
               "not the shortest branch: a node first reached along a short path can lie deeper along another)")
DEPTH_BEFORE = ("graph_depth gave t a depth of 1, as if its inputs had depth 0: t's depth was computed before its "
                "inputs' depths were known (a depth not yet computed read as 0, as .get(id(x), 0) reads it); compute "
                "a node's depth only once the depths of all its inputs are (inputs first: a post-order)")
DEPTH_PUSHED = ("graph_depth marks a node visited when it pushes it, before its depth is known: an input that a later "
                "node also uses (y = x + 2x: x is an input of y and of 2x) is then skipped there, and that node's depth "
                "is computed before its input's (the missing depth raised KeyError). Mark a node done when its depth "
                "is set, and compute a node only once all its inputs are done")
# y = x + 1.5x and y = 1.5x + x: a walk that marks nodes when it pushes them raises on one of the two,
# whichever order it pushes inputs in
PUSHED = [{"nodes": [["leaf"], ["scale", 0], ["add", 0, 1]]}, {"nodes": [["leaf"], ["scale", 0], ["add", 1, 0]]}]
DEPTH_COUNTS = ("graph_depth counts the nodes below t, not the ops along one path: depth follows a single path, the "
                "longest, adding 1 per op (a node's depth is 1 + the largest depth of its inputs)")
DEPTH_EXPONENTIAL = ("graph_depth explores every path: a graph of a hundred nodes can have about 3.5 x 10^20 of them "
                     "(a ladder, each node adding the two before it); compute each node's depth once (remember the "
                     "depths you have computed)")
DEPTH_QUADRATIC = ("graph_depth takes quadratic time: `node in done` on a list compares node with every node done so "
                   "far; keep the depths in a dict keyed by id(node), where a lookup takes constant time")
DEPTH_SLOW = ("graph_depth is too slow on a graph of 200,000 nodes: compute each node's depth once, in constant time "
              "per node (a dict of depths by id and an explicit stack)")
DEPTH_CHANGED = ("graph_depth changed the graph: measured again with one node added on top, it did not give one "
                 "more; walk it without editing .inputs or .op")


def _is_int(v) -> bool:
    return type(v) is int


def count_hint(observe) -> str | None:
    """The message of the first mistake the student's count shows on the fixed graphs, or None."""
    got = observe(P.walks, name="count_graph_nodes", graphs=DIAGNOSTIC)
    want = [node_count(g) for g in DIAGNOSTIC]
    if not all(_is_int(v) for v in got):
        return COUNT_INT
    if all(v == 0 for v in got):
        return COUNT_ZERO
    if all(v == w - 1 for v, w in zip(got, want)):
        return COUNT_T_ITSELF
    if all(v == w + 1 for v, w in zip(got, want)):
        return COUNT_ONE_MORE
    if got == [op_count(g) for g in DIAGNOSTIC]:
        return COUNT_LEAVES
    if got[0] == 0:
        return COUNT_T_ITSELF
    if got == want:
        return None
    if got == [value_count(g) for g in DIAGNOSTIC]:  # EQUAL_VALUES tells it from every other mistake
        return COUNT_BY_VALUE
    if got[-1] == 2 and got[:-1] == want[:-1]:  # right but on SHARED_DATA: nodes told apart by their array
        return COUNT_BY_DATA
    paths = {2: 5, 3: 7}  # the self-sum and the diamond counted along paths (b twice; b, a and b + b's inputs)
    if any(got[i] == n for i, n in paths.items()) or any(v > w for v, w in zip(got, want)):
        return COUNT_PATHS
    return COUNT_FOLLOW


def depth_hint(observe) -> str | None:
    """The message of the first mistake the student's depth shows on the fixed graphs, or None."""
    got = observe(P.walks, name="graph_depth", graphs=DIAGNOSTIC)
    want = [depth_of(g) for g in DIAGNOSTIC]
    if not all(_is_int(v) for v in got):
        return DEPTH_INT
    if all(v == 0 for v in got):
        return DEPTH_ZERO
    if all(v == w + 1 for v, w in zip(got, want)):
        return DEPTH_NODES
    if got == want:
        return None
    if got in ([node_count(g) - 1 for g in DIAGNOSTIC], [node_count(g) for g in DIAGNOSTIC]):
        return DEPTH_COUNTS
    if any(v > w for v, w in zip(got, want)):
        return DEPTH_ADDS
    if got == [min(w, 1) for w in want]:  # every graph with an op gets 1: its root was done first
        return DEPTH_BEFORE
    return DEPTH_FIRST


def fail(message: str, hint) -> None:
    """Fail with the diagnosed mistake's message (a mistake reads the same in every test), or
    else the test's own."""
    try:
        diagnosed = hint()
    except StudentCodeError:
        diagnosed = None
    assert False, diagnosed or message


def check(observe, name: str, graph: dict, want: int, message: str, **limits) -> dict:
    """The student's function on ``graph`` returns ``want``; else the message of its mistake: a
    mistake in the values on the fixed graphs first, then a walk stopped for reading .inputs far
    too often (every path) or for its CPU time, then the test's own message."""
    count = name == "count_graph_nodes"
    try:
        r = observe(P.walk, name=name, graph=graph, **limits)
    except StudentCodeError:
        if not count and _pushed(observe):
            raise AssertionError(DEPTH_PUSHED) from None
        raise
    if _is_int(r["value"]) and r["value"] == want:
        return r
    if r["stopped"] == "reads":  # unless a mistake in the values explains it (counting paths)
        message = COUNT_EXPONENTIAL if count else DEPTH_EXPONENTIAL
    elif r["stopped"] == "time":
        message = speed_message(observe, name)
    fail(message, (lambda: count_hint(observe)) if count else (lambda: depth_hint(observe)))


def _pushed(observe) -> bool:
    """Does graph_depth raise on exactly one of y = x + 1.5x and y = 1.5x + x (a node marked when pushed)?"""
    try:
        results = observe(P.walks, name="graph_depth", graphs=PUSHED)
    except StudentCodeError:
        return False
    return sum(v is None for v in results) == 1


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


@graded("1.1", points=1)
def test_count_leaf_and_small_graph(observe):
    """count_graph_nodes of a leaf and of a small graph with a constant"""
    check(observe, COUNT, LEAF, 1, COUNT_T_ITSELF)  # a leaf is one node: t itself
    check(observe, COUNT, TWO_LEAVES, 5, COUNT_FOLLOW)


@graded("1.1", points=1)
def test_count_naive_loop(observe, submission_seed):
    """count_graph_nodes after a few steps of the lecture's naive update loop"""
    for k in range(2):
        n = draw(submission_seed, k, 3, 40)
        check(observe, COUNT, {"naive_loop": n}, 1 + 2 * n, COUNT_FOLLOW)


@graded("1.1", points=2)
def test_count_shared_nodes_once(observe, submission_seed):
    """count_graph_nodes counts a node reached by several paths once"""
    check(observe, COUNT, DIAMOND, 4, COUNT_PATHS)
    check(observe, COUNT, SELF_SUM, 3, COUNT_PATHS)
    check(observe, COUNT, SHARED_DATA, 3, COUNT_BY_DATA)
    for graph in random_graphs(submission_seed, 10, 3):
        check(observe, COUNT, graph, node_count(graph), "count_graph_nodes is wrong on a graph with shared nodes")


@graded("1.1", points=2)
def test_count_many_paths(observe, submission_seed):
    """count_graph_nodes on a graph with exponentially many paths"""
    n = draw(submission_seed, 20, 80, 96)  # two leaves + n adds; about 1.6^n paths
    check(observe, COUNT, {"ladder": n}, n + 2, "count_graph_nodes is wrong on a graph with many paths")


@graded("1.1", points=2)
def test_count_deep_chain(observe, submission_seed):
    """count_graph_nodes on the graph of about 100,000 naive updates, in linear time"""
    # 1 + 2n nodes, n deep: a recursive walk hits Python's recursion limit (the grader then
    # says "explicit stack" itself), a quadratic one runs out of time
    n = draw(submission_seed, 30, 95_000, 105_000)  # the same chain as Task 1.2's (built once per worker)
    check(observe, COUNT, {"naive_loop": n}, 1 + 2 * n, "count_graph_nodes is wrong on a long chain")


@graded("1.1", points=1)
def test_count_leaves_graph_unchanged(observe, submission_seed):
    """count_graph_nodes does not modify the graph (and counts it): counted again with one node on top, one more"""
    for graph in random_graphs(submission_seed, 40, 2):
        r = check(observe, COUNT, graph, node_count(graph), "count_graph_nodes is wrong on a graph with shared nodes",
                  calls=2)
        assert r["again"] == [r["value"] + 1], COUNT_CHANGED


# --- Task 1.2: graph_depth -----------------------------------------------------------------------------
DEPTH = "graph_depth"


@graded("1.2", points=1)
def test_depth_leaf_and_one_op(observe):
    """graph_depth of a leaf and of one op"""
    check(observe, DEPTH, LEAF, 0, DEPTH_NODES)
    check(observe, DEPTH, ONE_OP, 1, DEPTH_ZERO)


@graded("1.2", points=1)
def test_depth_naive_loop(observe, submission_seed):
    """graph_depth after a few naive updates"""
    for k in range(2):
        n = draw(submission_seed, 50 + k, 3, 40)  # w_k = w_{k-1} + c_k: one add per step on the longest path
        check(observe, DEPTH, {"naive_loop": n}, n, DEPTH_FIRST)


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


@graded("1.2", points=2)
def test_depth_takes_longest_path(observe, submission_seed):
    """graph_depth takes the longest path when branches differ"""
    check(observe, DEPTH, UNBALANCED, 4, DEPTH_FIRST)
    long, short = draw(submission_seed, 60, 6, 15), draw(submission_seed, 61, 1, 5)
    for long_first in (True, False):
        check(observe, DEPTH, unbalanced(long, short, long_first), long + 1, DEPTH_FIRST)


@graded("1.2", points=1)
def test_depth_shared_nodes(observe, submission_seed):
    """graph_depth of graphs with shared nodes"""
    check(observe, DEPTH, DIAMOND, 3, DEPTH_FIRST)
    for graph in random_graphs(submission_seed, 70, 3):
        check(observe, DEPTH, graph, depth_of(graph), "graph_depth is wrong on a graph with shared nodes")


@graded("1.2", points=2)
def test_depth_many_paths(observe, submission_seed):
    """graph_depth on a graph with exponentially many paths"""
    n = draw(submission_seed, 80, 80, 96)  # n adds in a row on the longest path; about 1.6^n paths
    check(observe, DEPTH, {"ladder": n}, n, "graph_depth is wrong on a graph with many paths")


@graded("1.2", points=2)
def test_depth_deep_chain(observe, submission_seed):
    """graph_depth of the graph of about 100,000 naive updates, in linear time"""
    n = draw(submission_seed, 30, 95_000, 105_000)
    check(observe, DEPTH, {"naive_loop": n}, n, "graph_depth is wrong on a long chain")


@graded("1.2", points=1)
def test_depth_leaves_graph_unchanged(observe, submission_seed):
    """graph_depth does not modify the graph (and measures it): with one node on top, one more"""
    for graph in random_graphs(submission_seed, 100, 2):
        r = check(observe, DEPTH, graph, depth_of(graph), "graph_depth is wrong on a graph with shared nodes", calls=2)
        assert r["again"] == [r["value"] + 1], DEPTH_CHANGED
