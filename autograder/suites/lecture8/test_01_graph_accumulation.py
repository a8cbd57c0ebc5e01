"""Hidden tests for 01_graph_accumulation (Tasks 1.1 and 1.2)."""
from autograder.suite import expect_int, graded, load_probes
from needle.autograd import graph_node_count

P = load_probes(__file__)

# Needle's own implementation of each task (counting, depth: needle's graph walks): a task
# answered with it scores nothing. Everything else of needle (Tensor, .inputs, ops) is allowed.
OWN_WORK = {
    "1.1": ("count_graph_nodes", ["needle.autograd.graph_node_count", "needle.autograd.find_topo_sort", "needle.autograd._topo_order"]),
    "1.2": ("graph_depth", ["needle.autograd.graph_node_count", "needle.autograd.find_topo_sort", "needle.autograd._topo_order"]),
}

# --- Task 1.1: count_graph_nodes -------------------------------------------------------------


@graded("1.1", points=1)
def test_count_leaf(observe):
    """count_graph_nodes of a single leaf tensor"""
    n = expect_int(observe(P.count_nodes, graph="leaf"), "count_graph_nodes must return an int")
    assert n == 1, "a leaf is one node: count the tensor itself, not only its inputs"


@graded("1.1", points=1)
def test_count_two_leaves(observe):
    """count_graph_nodes with two leaves and a detached constant"""
    # (a * b) + c: nodes a, b, a*b, c, and the sum = 5 (c was detached: it has no inputs)
    n = expect_int(observe(P.count_nodes, graph="two_leaves"), "count_graph_nodes must return an int")
    assert n == 5, "count every distinct tensor reachable through .inputs, the output included"


@graded("1.1", points=1)
def test_count_naive_loop(observe):
    """count_graph_nodes after a few steps of the lecture's naive update loop"""
    # each of 7 steps adds (-lr) * grad (a detached leaf) and the add: 1 + 2 * 7 = 15
    n = expect_int(observe(P.count_nodes, graph="naive_loop", n=7), "count_graph_nodes must return an int")
    assert n == 15 == graph_node_count(P.naive_loop(7)), "each update step adds two nodes to w's graph"


@graded("1.1", points=2)
def test_count_shared_nodes_once(observe):
    """count_graph_nodes counts a node reached by several paths once"""
    # d = (b + b) * a with b = 2a: distinct nodes a, b, b + b, d = 4 (paths would give more)
    n = expect_int(observe(P.count_nodes, graph="diamond"), "count_graph_nodes must return an int")
    assert n == 4, "a node reached along several paths is counted once: remember the nodes you visited (by identity)"


@graded("1.1", points=2)
def test_count_many_paths(observe):
    """count_graph_nodes on a graph with exponentially many paths"""
    # two leaves + 90 adds = 92 nodes; the number of paths is a Fibonacci number ~ 10^18
    n = expect_int(observe(P.count_nodes, graph="ladder", n=90), "count_graph_nodes must return an int")
    assert n == 92 == graph_node_count(P.ladder(90)), "visit each node once (keep a set of visited nodes); do not follow every path"


@graded("1.1", points=2)
def test_count_deep_chain(observe):
    """count_graph_nodes on the graph of 100,000 naive updates"""
    # 1 + 2 * 100,000 nodes, 100,000 deep: a recursive walk hits Python's recursion limit
    n = expect_int(observe(P.count_nodes, graph="naive_loop", n=100_000), "count_graph_nodes must return an int")
    assert n == 200_001, "walk the graph with an explicit stack or queue: recursion fails on deep graphs"


@graded("1.1", points=1)
def test_count_leaves_graph_unchanged(observe):
    """count_graph_nodes does not modify the graph"""
    assert observe(P.leaves_graph_unchanged, name="count_graph_nodes", graph="diamond") is True, (
        "count_graph_nodes changed the graph: walk it without editing .inputs or .op"
    )


# --- Task 1.2: graph_depth -------------------------------------------------------------------


@graded("1.2", points=1)
def test_depth_leaf(observe):
    """graph_depth of a leaf"""
    d = expect_int(observe(P.depth, graph="leaf"), "graph_depth must return an int")
    assert d == 0, "a leaf has depth 0: depth counts ops, not nodes"


@graded("1.2", points=1)
def test_depth_naive_loop(observe):
    """graph_depth after a few naive updates"""
    # w_k = w_{k-1} + c_k: one add per step on the longest path -> 6
    d = expect_int(observe(P.depth, graph="naive_loop", n=6), "graph_depth must return an int")
    assert d == 6, "the depth of the naive loop's w is the number of updates: count ops, not nodes"


@graded("1.2", points=2)
def test_depth_takes_longest_path(observe):
    """graph_depth takes the longest path when branches differ"""
    # a branch of 9 muls and one of 2 adds, joined by one add: 9 + 1 = 10
    d = expect_int(observe(P.depth, graph="unbalanced", long=9, short=2), "graph_depth must return an int")
    assert d == 10, "take the longest path from the output to a leaf (the maximum over inputs), not the first or shortest"
    d = expect_int(observe(P.depth, graph="unbalanced", long=2, short=9), "graph_depth must return an int")
    assert d == 10, "take the maximum over all inputs, whichever input comes first"


@graded("1.2", points=1)
def test_depth_shared_nodes(observe):
    """graph_depth of a graph with shared nodes"""
    # d = (b + b) * a, b = 2a: longest path d <- (b + b) <- b <- a has 3 ops
    d = expect_int(observe(P.depth, graph="diamond"), "graph_depth must return an int")
    assert d == 3, "depth is the number of ops on the longest path to a leaf"


@graded("1.2", points=2)
def test_depth_many_paths(observe):
    """graph_depth on a graph with exponentially many paths"""
    # 90 adds in a row on the longest path
    d = expect_int(observe(P.depth, graph="ladder", n=90), "graph_depth must return an int")
    assert d == 90, "compute each node's depth once (memoize); exploring every path takes exponential time"


@graded("1.2", points=2)
def test_depth_deep_chain(observe):
    """graph_depth of the graph of 100,000 naive updates"""
    d = expect_int(observe(P.depth, graph="naive_loop", n=100_000), "graph_depth must return an int")
    assert d == 100_000, "compute depths iteratively (process nodes in topological order): recursion fails on deep graphs"


@graded("1.2", points=1)
def test_depth_leaves_graph_unchanged(observe):
    """graph_depth does not modify the graph"""
    assert observe(P.leaves_graph_unchanged, name="graph_depth", graph="diamond") is True, (
        "graph_depth changed the graph: walk it without editing .inputs or .op"
    )
