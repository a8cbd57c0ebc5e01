"""Hidden tests for 01_graph_accumulation (Tasks 1.1 and 1.2).

Every message is chosen by the symptom the probe measured (one mistake, one hint): a count one
short says "count t itself", a count too high says "remember the nodes you visited", a walk
that reads .inputs exponentially often says so, a RecursionError says "explicit stack" (the
grader's own message). Every test checks a value, so a constant answer loses all of them.
"""
from autograder.suite import expect_int, graded, load_probes

P = load_probes(__file__)

# Needle's own implementation of each task (counting, depth: needle's graph walks): a task
# answered with it scores nothing. Everything else of needle (Tensor, .inputs, ops) is allowed.
OWN_WORK = {
    "1.1": ("count_graph_nodes", ["needle.autograd.graph_node_count", "needle.autograd.find_topo_sort", "needle.autograd._topo_order"]),
    "1.2": ("graph_depth", ["needle.autograd.graph_node_count", "needle.autograd.find_topo_sort", "needle.autograd._topo_order"]),
}

# A walk that visits each node a few times reads .inputs a few times per node; one that follows
# every path reads it once per path, about 10^18 times on the 90-step ladder. Any polynomial
# walk of these small graphs stays far below this budget (92 nodes: 92^2 = 8,464 reads).
READS_PER_NODE = 1_000


def check_count(f: dict, want: int) -> None:
    """The student's count of a graph of ``want`` nodes (``f["value"]``), judged by its symptom;
    ``f["leaf"]`` is their count of a lone leaf (0 means t itself is left out)."""
    n = expect_int(f["value"], "count_graph_nodes must return an int")
    if n == want:
        return
    assert n >= 1, "count_graph_nodes returned 0 or less: every graph has at least one node, t itself"
    assert not (n == want - 1 and f["leaf"] == 0), (
        "count_graph_nodes is one node short: count t itself too, not only the nodes below it"
    )
    assert n < want, (
        "count_graph_nodes counted some nodes more than once: a node reached along several paths counts once; "
        "remember the nodes you visited (by identity)"
    )
    assert False, (
        "count_graph_nodes found fewer nodes than the graph has: follow every input of every node (not only the "
        "first) down to the leaves, and count the leaves and constants too"
    )


def check_depth(f: dict, want: int) -> None:
    """The student's depth of a graph whose longest path has ``want`` ops (``f["value"]``);
    ``f["leaf"]`` is their depth of a lone leaf (1 means they count nodes)."""
    d = expect_int(f["value"], "graph_depth must return an int")
    if d == want:
        return
    assert not (d == 0 and want > 0), (
        "graph_depth returned 0 for a tensor made by an op: a node made by an op has depth 1 + the largest depth "
        "of its inputs"
    )
    assert not (d == want + 1 and f["leaf"] == 1), (
        "graph_depth is one too high: depth counts ops, not nodes (a leaf has depth 0)"
    )
    assert d > want, (
        "graph_depth is shorter than the longest path: take the maximum over all inputs (not the first input, "
        "not the shortest branch)"
    )
    assert False, "graph_depth is longer than the longest path: add 1 per op along one path, do not add up branches"


# --- Task 1.1: count_graph_nodes -------------------------------------------------------------


@graded("1.1", points=1)
def test_count_leaf_and_small_graph(observe):
    """count_graph_nodes of a leaf and of a small graph with a constant"""
    check_count(observe(P.count_nodes, graph="leaf"), 1)
    # (a * b) + c: nodes a, b, a*b, c, and the sum = 5 (c was detached: it has no inputs)
    check_count(observe(P.count_nodes, graph="two_leaves"), 5)


@graded("1.1", points=1)
def test_count_naive_loop(observe):
    """count_graph_nodes after a few steps of the lecture's naive update loop"""
    # each step adds (-lr) * grad (a detached leaf) and the add: 1 + 2n nodes
    for n in (7, 3):
        check_count(observe(P.count_nodes, graph="naive_loop", n=n), 1 + 2 * n)


@graded("1.1", points=2)
def test_count_shared_nodes_once(observe):
    """count_graph_nodes counts a node reached by several paths once"""
    # d = (b + b) * a with b = 2a: distinct nodes a, b, b + b, d = 4 (paths would give 7)
    check_count(observe(P.count_nodes, graph="diamond"), 4)
    # c = b + b, b = 2a: a, b, c = 3
    check_count(observe(P.count_nodes, graph="self_sum"), 3)


@graded("1.1", points=2)
def test_count_many_paths(observe):
    """count_graph_nodes on a graph with exponentially many paths"""
    # two leaves + 90 adds = 92 nodes; the number of paths is a Fibonacci number ~ 10^18
    f = observe(P.bounded_work, name="count_graph_nodes", graph="ladder", n=90, reads_per_node=READS_PER_NODE)
    assert not f["aborted"], (
        "count_graph_nodes follows every path: a graph of 92 nodes has about 10^18 of them; remember the nodes "
        "you visited (by identity) and visit each once"
    )
    check_count(f, 92)


@graded("1.1", points=2)
def test_count_deep_chain(observe):
    """count_graph_nodes on the graph of 100,000 naive updates"""
    # 1 + 2 * 100,000 nodes, 100,000 deep: a recursive walk hits Python's recursion limit
    # (the grader then says "explicit stack" itself)
    check_count(observe(P.count_nodes, graph="naive_loop", n=100_000), 200_001)


@graded("1.1", points=1)
def test_count_leaves_graph_unchanged(observe):
    """count_graph_nodes does not modify the graph (and counts it)"""
    f = observe(P.leaves_graph_unchanged, name="count_graph_nodes", graph="diamond")
    check_count(f, 4)
    assert f["unchanged"] is True, "count_graph_nodes changed the graph: walk it without editing .inputs or .op"


# --- Task 1.2: graph_depth -------------------------------------------------------------------


@graded("1.2", points=1)
def test_depth_leaf_and_one_op(observe):
    """graph_depth of a leaf and of one op"""
    check_depth(observe(P.depth, graph="leaf"), 0)
    check_depth(observe(P.depth, graph="one_op"), 1)  # x * 2: one op above the leaf


@graded("1.2", points=1)
def test_depth_naive_loop(observe):
    """graph_depth after a few naive updates"""
    # w_k = w_{k-1} + c_k: one add per step on the longest path
    for n in (6, 3):
        check_depth(observe(P.depth, graph="naive_loop", n=n), n)


@graded("1.2", points=2)
def test_depth_takes_longest_path(observe):
    """graph_depth takes the longest path when branches differ"""
    # a branch of 9 muls and one of 2 adds, joined by one add: 9 + 1 = 10, whichever comes first
    check_depth(observe(P.depth, graph="unbalanced", long=9, short=2), 10)
    check_depth(observe(P.depth, graph="unbalanced", long=2, short=9), 10)


@graded("1.2", points=1)
def test_depth_shared_nodes(observe):
    """graph_depth of a graph with shared nodes"""
    # d = (b + b) * a, b = 2a: longest path d <- (b + b) <- b <- a has 3 ops
    check_depth(observe(P.depth, graph="diamond"), 3)


@graded("1.2", points=2)
def test_depth_many_paths(observe):
    """graph_depth on a graph with exponentially many paths"""
    # 90 adds in a row on the longest path; about 10^18 paths in all
    f = observe(P.bounded_work, name="graph_depth", graph="ladder", n=90, reads_per_node=READS_PER_NODE)
    assert not f["aborted"], (
        "graph_depth explores every path: a graph of 92 nodes has about 10^18 of them; compute each node's "
        "depth once (remember the depths you have computed)"
    )
    check_depth(f, 90)


@graded("1.2", points=2)
def test_depth_deep_chain(observe):
    """graph_depth of the graph of 100,000 naive updates"""
    check_depth(observe(P.depth, graph="naive_loop", n=100_000), 100_000)


@graded("1.2", points=1)
def test_depth_leaves_graph_unchanged(observe):
    """graph_depth does not modify the graph (and measures it)"""
    f = observe(P.leaves_graph_unchanged, name="graph_depth", graph="diamond")
    check_depth(f, 3)
    assert f["unchanged"] is True, "graph_depth changed the graph: walk it without editing .inputs or .op"
