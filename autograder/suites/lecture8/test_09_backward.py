"""Hidden tests for 09_backward (Tasks 9.1 find_topo_sort and 9.2 compute_gradient_of_variables):
each task's declaration and ladder.

The probes hand needle graphs to the student's functions and report the order returned and what
each node's .grad holds, by node id, with the graph as they built it; the nodes are numbered on
the trusted side (judges/j09_backward.py), by matching that graph to the same one built there: the
worker holds no walk of a graph (one would be Task 9.1's answer). Every expected value is computed
on the trusted side: by hand (the derivation beside it) for the lecture's graphs, and by float64
central differences of the ops' compute (needle.gradcheck.node_adjoints, which trusts no
gradient) for random graphs drawn from the submission's seed.
"""
import numpy as np

from autograder.specification import Rung, Task, declare
from autograder.suite import load_judges, load_probes

P = load_probes(__file__)
J = load_judges(__file__)

# needle's own backward and every graph walk it has: a task answered with one scores nothing.
# needle.viz and needle.gradcheck walk graphs too (and compute adjoints numerically).
# (In this order: the first one found is named, and backward() calls compute_gradient_of_variables,
# find_topo_sort calls _topo_order.)
NEEDLE_WALKS = [
    "needle.autograd.Tensor.backward", "needle.autograd.compute_gradient_of_variables",
    "needle.autograd.find_topo_sort", "needle.autograd._topo_order", "needle.autograd.graph_node_count",
    "needle.viz", "needle.gradcheck",
]

# Task 9.1's data rungs: each node's value is distinct, so an order reads as the array of values.
# (An array, not a list: coursekit.ladder.message reads a shape only from an array's plain form.)
ORDER = "np.array([v.numpy().item() for v in order])"
TASK_9_1 = Task(
    "9.1", names=["find_topo_sort"], own_work=NEEDLE_WALKS,
    contract="find_topo_sort(node_list) is a list of every node reachable from the nodes of node_list through "
             ".inputs, each once (by identity), each after all of its inputs; iterative, so a graph 5,000 ops deep "
             "works, and linear in the graph; node_list is left as it was",
    rungs=[
        # a leaf alone: [x]
        Rung("a leaf", given="x = ndl.Tensor([1.0]); order = find_topo_sort([x])", call=ORDER, expect=[1.0]),
        # x = 1, 2x = 2, 2x + 1 = 3: the only order is x, 2x, y (each after its input)
        Rung("a chain", given="x = ndl.Tensor([1.0]); y = x * 2.0 + 1.0; order = find_topo_sort([y])", call=ORDER,
             expect=[1.0, 2.0, 3.0]),
        # x = 1.5 used twice by one op: [x, y], x once
        Rung("a node used twice", given="x = ndl.Tensor([1.5]); y = x + x; order = find_topo_sort([y])", call=ORDER,
             expect=[1.5, 3.0]),
        # y = x + 2x: x is an input of y and of 2x; the only order is x (1), 2x (2), y (3)
        Rung("an input used again below", given="x = ndl.Tensor([1.0]); y = x + x * 2.0; order = find_topo_sort([y])",
             call=ORDER, expect=[1.0, 2.0, 3.0]),
        # the same, the inputs the other way round: y = 2x + x
        Rung("the same, inputs swapped", given="x = ndl.Tensor([1.0]); y = x * 2.0 + x; order = find_topo_sort([y])",
             call=ORDER, expect=[1.0, 2.0, 3.0]),
        # two roots sharing a = 1 and u = 2a = 2: p = u + a = 3, q = 3u = 6; either root may come first,
        # so the values are judged sorted: 1, 2, 3, 6, each once
        Rung("several nodes in node_list",
             given="a = ndl.Tensor([1.0]); u = a * 2.0; p = u + a; q = u * 3.0; order = find_topo_sort([p, q])",
             call="np.sort(" + ORDER + ")", expect=[1.0, 2.0, 3.0, 6.0]),
        # the caller's list is its own: [p, q] = [3, 6] as it was
        Rung("node_list left as it was",
             given="a = ndl.Tensor([1.0]); u = a * 2.0; node_list = [u + a, u * 3.0]; order = find_topo_sort(node_list)",
             call="np.array([v.numpy().item() for v in node_list])", expect=[3.0, 6.0]),
        # a, t = (a + 1, a + 2), the two nodes t[0] (one per use), t[1], their product and the sum: 7 nodes.
        # Visible, worth nothing: built by needle's ops where the code runs, in an order a hook on
        # needle's constructors could replay (the hidden rungs' graphs, tuple nodes included, are not)
        Rung("a tuple node", given="a = ndl.Tensor([1.0, 2.0]); t = ndl.ops.fused_add_scalars(a, 1.0, 2.0); "
                                   "y = t[0] * t[1] + t[0]; order = find_topo_sort([y])",
             call="len(order)", expect=7),
    ])

# Task 9.2's data rungs: the student's backward runs in `given`, and a node's .grad is judged.
BACKWARD = "compute_gradient_of_variables"
TASK_9_2 = Task(
    "9.2", names=[BACKWARD], own_work=NEEDLE_WALKS, uses=["9.1"],  # it walks in your find_topo_sort's order
    contract="compute_gradient_of_variables(output_tensor, out_grad) stores in every node reachable from the output "
             "that requires a gradient its adjoint (the sum of the partial adjoints of all its uses, out_grad for the "
             "output) as a needle Tensor in .grad, the inner nodes too; each op's gradient called at most once per "
             "node, iteratively (a graph 5,000 ops deep works); a second call gives the same adjoints whatever .grad "
             "held; out_grad is left as it was; returns None",
    rungs=[
        # y = 3x: dy/dx = 3, times out_grad 1
        Rung("one op", given=f"x = ndl.Tensor([2.0]); y = x * 3.0; {BACKWARD}(y, ndl.Tensor([1.0]))", call="x.grad",
             expect=[3.0], returns="Tensor"),
        # the same with out_grad 2: 3 * 2
        Rung("out_grad other than one", given=f"x = ndl.Tensor([2.0]); y = x * 3.0; {BACKWARD}(y, ndl.Tensor([2.0]))",
             call="x.grad", expect=[6.0], returns="Tensor"),
        # y = (3x) + 1: the add passes 1 on to a = 3x (a's adjoint), which sends 3 to x
        Rung("a chain, every node's adjoint",
             given=f"x = ndl.Tensor([2.0]); a = x * 3.0; y = a + 1.0; {BACKWARD}(y, ndl.Tensor([1.0]))",
             call="[x.grad, a.grad]", expect=[[3.0], [1.0]]),
        # y = (x * c) * c with c a constant 3: each EWiseMul sends None to c (twice: nothing to add up), and
        # x gets c * c = 9
        Rung("a constant used twice (no partial adjoints)",
             given=f"x = ndl.Tensor([2.0]); c = ndl.Tensor([3.0], requires_grad=False); y = (x * c) * c; "
                   f"{BACKWARD}(y, ndl.Tensor([1.0]))", call="x.grad", expect=[9.0], returns="Tensor"),
        # y = x + x: each slot sends 1: 1 + 1
        Rung("a node used twice", given=f"x = ndl.Tensor([2.0]); y = x + x; {BACKWARD}(y, ndl.Tensor([1.0]))",
             call="x.grad", expect=[2.0], returns="Tensor"),
        # a = 2x, y = a + 3a: a gets 1 from y and 3 from 3a (deeper: it must wait for it), 4; x gets 2 * 4 = 8
        Rung("a node used at two depths",
             given=f"x = ndl.Tensor([2.0]); a = x * 2.0; y = a + a * 3.0; {BACKWARD}(y, ndl.Tensor([1.0]))",
             call="x.grad", expect=[8.0], returns="Tensor"),
        # y = s * s + s at s = 3, out_grad 2: the product sends 3 * 2 twice, the sum 2: 6 + 6 + 2 = 14
        Rung("a node used three times",
             given=f"s = ndl.Tensor([3.0]); y = s * s + s; {BACKWARD}(y, ndl.Tensor([2.0]))",
             call="s.grad", expect=[14.0], returns="Tensor"),
        # y = x + x with out_grad 1, then again with out_grad 5: the second call's adjoint alone, 5 + 5
        Rung("called twice",
             given=f"x = ndl.Tensor([2.0]); y = x + x; {BACKWARD}(y, ndl.Tensor([1.0])); {BACKWARD}(y, ndl.Tensor([5.0]))",
             call="x.grad", expect=[10.0], returns="Tensor"),
        # y = x + x with out_grad g = 1: g itself still holds 1 afterwards
        Rung("out_grad left as it was",
             given=f"x = ndl.Tensor([2.0]); y = x + x; g = ndl.Tensor([1.0]); {BACKWARD}(y, g)",
             call="g", expect=[1.0], returns="Tensor"),
        # a = (1, 2), t = (a + 1, a + 2), y = t0 * t1 + t0, out_grad (1, -2): t0 is used twice, t once per slot
        # use; a gets the derivative of (a + 1)(a + 2) + (a + 1), 2a + 4 = (6, 8), times out_grad: (6, -16)
        Rung("a tuple node",
             given=f"a = ndl.Tensor([1.0, 2.0]); t = ndl.ops.fused_add_scalars(a, 1.0, 2.0); y = t[0] * t[1] + t[0]; "
                   f"{BACKWARD}(y, ndl.Tensor([1.0, -2.0]))", call="a.grad", expect=[6.0, -16.0], returns="Tensor"),
        # (visible, worth nothing, as 9.1's: its graph is made in creation order where the code runs)
    ])
declare(globals(), TASK_9_1, TASK_9_2)


@TASK_9_1.rung("a diamond, shared nodes, a tuple node, two outputs, random graphs", points=4)
def test_topo_inputs_before_users(observe, submission_seed):
    """find_topo_sort lists every node once, after all of its inputs, on more graphs"""
    J.check_shared_nodes_once(observe)
    J.check_topo(observe, "two_path")
    for mirrored in (False, True):  # y = x + 2x and 2x + x: a node pushed before it is listed, either way
        J.check_topo(observe, "input_used_below", mirrored=mirrored)
    for k in range(2):
        recipe = J.random_graph(submission_seed + 100 * k)
        recipe.pop("out_grad")
        J.check_topo(observe, "recipe", **recipe)


@TASK_9_1.rung("a ladder of 90 adds (10^18 paths)", points=3)
def test_topo_many_paths(observe):
    """find_topo_sort on a graph with exponentially many paths"""
    # two leaves + 90 adds = 92 nodes; the number of paths is a Fibonacci number, F(92), about 7.5 x 10^18
    J.check_topo(observe, "ladder", n=90, reads_per_node=J.READS_PER_NODE)


@TASK_9_1.rung("a chain of 5,000 naive updates", points=3)
def test_topo_deep_chain(observe):
    """find_topo_sort of the graph of 5,000 naive updates"""
    # 1 + 2 * 5,000 nodes, 5,000 deep: a recursive walk hits Python's recursion limit (the
    # grader then says "explicit stack" itself)
    J.check_topo(observe, "naive_loop", n=J.DEEP)


@TASK_9_2.rung("graphs by hand (the lecture's model, three uses, called twice, a diamond, a tuple node), random graphs", points=10)
def test_backward_random_graphs(observe, submission_seed):
    """the graphs worked out by hand; every node's adjoint on random graphs, checked by central differences"""
    for check in (J.check_lecture_model, J.check_shared_node, J.check_diamond, J.check_tensor_tuple_graph):
        check(observe)
    for k in range(3):
        recipe = J.random_graph(submission_seed + 1_000 + 100 * k)
        out_grad = recipe.pop("out_grad")
        J.check_backward(observe, "recipe", out_grad, J.reference("recipe", out_grad, **recipe), **recipe)


@TASK_9_2.rung("a ladder of 60 adds (10^12 paths)", points=3)
def test_backward_many_paths(observe):
    """the adjoints of a ladder of 60 adds: each node's gradient called once, not once per path"""
    # x_{k+1} = x_k + x_{k-1} up to x_61 with out_grad 1. Node x_j is used by x_{j+1} and x_{j+2}:
    # a_j = a_{j+1} + a_{j+2}, a_61 = a_60 = 1: a_j = F(62 - j) (Fibonacci, F(1) = F(2) = 1), so
    # x_1 gets F(61) = 2,504,730,781,961 and x_0, used once, a_2 = F(60) = 1,548,008,755,920.
    n = 60
    fib = [0, 1]
    while len(fib) < n + 3:
        fib.append(fib[-2] + fib[-1])
    xs = P.ladder_values(n)
    number = {id(v): i for i, v in enumerate(J.nodes_of(xs[-1]))}
    adjoint = {number[id(x)]: float(fib[n + 2 - j]) for j, x in enumerate(xs)}
    adjoint[number[id(xs[0])]] = float(fib[n])  # x_0 is used once, by x_2
    picked = sorted(adjoint)
    J.check_backward(observe, "ladder", [1.0], [np.array([adjoint[i]]) for i in picked], picked, n=n,
                     reads_per_node=J.READS_PER_NODE)


@TASK_9_2.rung("a chain of 5,000 naive updates", points=3)
def test_backward_deep_chain(observe):
    """the adjoints of the graph of 5,000 naive updates"""
    # w_k = w_{k-1} + c_k: each add passes its adjoint on unchanged, so the starting w and
    # every sum get out_grad (the constants c_k need none). Nodes: w_0, then c_k, w_k for each k.
    out_grad = [0.5, -2.0]
    picked = [0, 2, J.DEEP, 2 * J.DEEP]  # w_0, w_1, w_{DEEP/2}, the output
    J.check_backward(observe, "naive_loop", out_grad, [np.array(out_grad)] * len(picked), picked, n=J.DEEP)
