"""How 09_backward's hidden rungs read the probes' reports, on the trusted side.

One mistake, one hint: a wrong adjoint is named by its symptom, judged in the order backward
visits the nodes (the first wrong node has right adjoints in every node that uses it):
.grad left None (on the inner nodes only: leaves only; everywhere but the output: the
adjoint never travelled, the order was not reverse topological), a numpy array, the output's
adjoint not out_grad, a node used once or several times with the wrong values. The adjoints
alone do not tell a missing sum from a node visited too early (both leave some partial adjoints
out of .grad), so such a hint says which partials .grad holds and names both; a cause is named
alone only when it is certain: the chain rule applied twice (values no other mistake gives), or,
when the student's find_topo_sort gives a wrong order on the same graph, that order's problem.
"""
import numpy as np

from autograder.suite import StudentCodeError, load_probes
from needle.adjoint_causes import matching_uses, partial_adjoint, uses_of
from needle.autograd import Value
from needle.gradcheck import node_adjoints

P = load_probes(__file__)

# A walk that visits each node a few times reads .inputs a few times per node; one that follows
# every path reads it once per path: about 7.5 x 10^18 times on the 90-step ladder, 4 x 10^12 on 60 steps.
READS_PER_NODE = 1_000
DEEP = 5_000  # naive updates: a graph 5,000 adds deep, 5 times Python's recursion limit
RTOL, ATOL = 1e-5, 1e-6


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


_INPUTS = Value.__dict__["inputs"]


def nodes_of(*roots) -> list:
    """Every node reachable from ``roots``, each once (by identity), inputs before users: an
    iterative post-order walk, inputs in order. The nodes' numbering. (Here, on the trusted side
    only: in the worker it would be Task 9.1's answer.)"""
    order, placed = [], set()
    for root in roots:
        stack = [(root, False)]
        while stack:
            v, inputs_done = stack.pop()
            if id(v) in placed:
                continue
            if inputs_done:
                placed.add(id(v))
                order.append(v)
            else:
                stack.append((v, True))
                stack.extend((x, False) for x in reversed(_INPUTS.__get__(v)) if id(x) not in placed)
    return order


_BUILT: dict = {}  # the graphs built here: [roots, numbered nodes, description], by what they were built from
KEEP_BUILT = 64  # graphs kept, the oldest dropped first: the deep chain, 0.2 s to build, number and describe, serves
# both its tests (the tests between them build more than 8 graphs, the number kept before)


def _built(graph: str, **kwargs) -> list:
    key = repr((graph, sorted(kwargs.items())))
    if key not in _BUILT:
        if len(_BUILT) >= KEEP_BUILT:
            del _BUILT[next(iter(_BUILT))]
        roots = P.build(graph, **kwargs)
        _BUILT[key] = [roots, nodes_of(*roots), None]
    return _BUILT[key]


def built_here(graph: str, **kwargs) -> tuple[list, list]:
    """(roots, nodes numbered) of a graph built on this side; a test asks for the same graph a few
    times (to judge, to number a report, for a hint), and the deep chain has 10,001 nodes."""
    roots, nodes, _ = _built(graph, **kwargs)
    return roots, nodes


def described(graph: str, **kwargs) -> dict:
    """The graph built here, described for the probe (P.describe) in an order drawn at random on
    this side: the worker puts it together in that order and never builds it with needle's ops (in
    the order in which they make nodes, a topological one; red team, rounds 10 and 11). The seed is
    not the worker's to know: with it, the order would give the numbering back."""
    entry = _built(graph, **kwargs)
    if entry[2] is None:
        roots, nodes, _ = entry
        order = np.random.default_rng().permutation(len(nodes)).tolist()  # seeded from the OS's entropy, here
        entry[2] = P.describe(roots, nodes, order)
    return entry[2]


def numbered(graph: str, **kwargs) -> list:
    """The graph's nodes, numbered."""
    return built_here(graph, **kwargs)[1]


def renumbered(f: dict, graph: str, **kwargs) -> dict | None:
    """{node id in the worker: node number} for the graph a probe reported (``f``'s roots and
    structure: each node's id, op and inputs' ids), matched from the roots down, input by input,
    to the same graph built here; None when the report is not that graph (a changed graph, or a
    forged claim)."""
    roots, nodes = built_here(graph, **kwargs)
    number = {id(v): i for i, v in enumerate(nodes)}
    structure = _unpacked_structure(f.get("structure"))
    if structure is None:
        return None
    if not isinstance(f.get("roots"), list) or len(f["roots"]) != len(roots) or not all(type(i) is int for i in f["roots"]):
        return None
    mapping: dict = {}
    stack = list(zip(f["roots"], roots))
    while stack:
        rid, node = stack.pop()
        if rid in mapping:
            if mapping[rid] != number[id(node)]:
                return None
            continue
        op, inputs = structure.get(rid, (False, None))
        if op != (None if node.op is None else type(node.op).__name__) or inputs is None or len(inputs) != len(node.inputs):
            return None
        mapping[rid] = number[id(node)]
        stack.extend(zip(inputs, node.inputs))
    return mapping if len(mapping) == len(set(mapping.values())) == len(number) else None


def _unpacked_structure(packed) -> dict | None:
    """{node id: (op name, [input ids])} from a probe's packed structure; None if it is not of that form."""
    if not isinstance(packed, dict):
        return None
    ids, counts, inputs, ops = P.as_ints(packed.get("ids")), P.as_ints(packed.get("counts")), P.as_ints(packed.get("inputs")), packed.get("ops")
    if ids is None or counts is None or inputs is None or not isinstance(ops, list) \
            or not len(ids) == len(counts) == len(ops) or sum(counts) != len(inputs) or min(counts, default=0) < 0:
        return None
    structure, at = {}, 0
    for node, op, n in zip(ids, ops, counts):
        structure[node] = (op, inputs[at:at + n])
        at += n
    return structure


def _unpacked_grads(packed) -> list | None:
    """The _grad dicts a probe packed (kinds, how many arrays each holds, the arrays: P.pack_arrays);
    None if the report is not of that form."""
    if not isinstance(packed, dict) or not isinstance(packed.get("kinds"), list) or not isinstance(packed.get("arrays"), dict):
        return None
    counts, arrays = P.as_ints(packed.get("counts")), P.unpack_arrays(packed["arrays"])
    if counts is None or arrays is None or len(counts) != len(packed["kinds"]) or sum(counts) != len(arrays) \
            or min(counts, default=0) < 0:
        return None
    grads, a = [], 0
    for kind, n in zip(packed["kinds"], counts):
        held, a = arrays[a:a + n], a + n
        if kind == "tuple":
            grads.append({"kind": "tuple", "value": held})
        elif kind in ("tensor", "ndarray") and n == 1:
            grads.append({"kind": kind, "value": held[0]})
        else:
            grads.append({"kind": kind if kind in ("none", "other") else "other"})
    return grads


def observe_topo(observe, graph: str, reads_per_node: int | None = None, **kwargs) -> dict:
    """The topo_sort probe's report, its order as node numbers (-1: not a node of the graph)."""
    f = observe(P.topo_sort, graph=described(graph, **kwargs), reads_per_node=reads_per_node)
    if f["aborted"] or not f["unchanged"]:
        return f
    mapping = renumbered(f, graph, **kwargs)
    if mapping is None:
        return f | {"unchanged": False}
    if "order" in f:
        order = P.as_ints(f["order"]) or []
        f["order"] = [mapping.get(i, -1) for i in order]
    return f


def observe_backward(observe, graph: str, out_grad, picked: list | None = None, **kwargs) -> dict:
    """The backward probe's report, its grads those of the nodes numbered ``picked`` (all by default)."""
    work = {k: kwargs.pop(k) for k in ("reads_per_node", "calls") if k in kwargs}
    f = observe(P.backward, graph=described(graph, **kwargs), out_grad=out_grad, **work)
    if f["aborted"] or f["changed"] or f.get("topo_of_a_node"):
        return f
    mapping = renumbered(f, graph, **kwargs)
    ids, grads = P.as_ints(f.get("ids")), _unpacked_grads(f.get("grads"))
    if mapping is None or ids is None or grads is None or len(ids) != len(grads):
        return f | {"changed": True}
    by_number = {mapping[i]: g for i, g in zip(ids, grads) if i in mapping}
    picked = range(len(mapping)) if picked is None else picked  # every node of the graph by default
    if any(i not in by_number for i in picked):
        return f | {"changed": True}
    return f | {"grads": [by_number[i] for i in picked]}


# --- Task 9.1: judging an order ----------------------------------------------------------------
VISITED = "remember the nodes you visited (by identity)"
TOPO_PROBLEMS = {
    "kind": "find_topo_sort must return a list of the graph's nodes",
    "stranger": "find_topo_sort returned something that is not a node of the graph: list the nodes themselves",
    "duplicate": f"find_topo_sort lists a node more than once: a node reached along several paths is listed once; {VISITED}",
    "missing": ("find_topo_sort misses nodes: list every node reachable from the nodes of node_list through .inputs "
                "(every input of every node, every node of node_list, the leaves too)"),
    "order": ("find_topo_sort lists a node before one of its inputs: append a node only after all of its inputs are "
              "listed (post-order), so that every node comes after all of its inputs"),
    "reversed": ("find_topo_sort lists every node before its inputs, the reverse of the order asked for: append a node "
                 "only after all of its inputs are listed (post-order), and return that order as it is (what backward "
                 "makes of it is Task 9.2's part)"),
    "aborted": (f"find_topo_sort follows every path: a graph of a few dozen nodes can have 10^12 of them or more; {VISITED} "
                "and visit each once"),
    "pushed": ("find_topo_sort marks a node visited when it pushes it, before it is listed: a node that a later node "
               "also uses is then skipped there, and that later node gets listed before it. Mark a node when it is "
               "listed (or check, before listing a node, that its inputs are all listed)"),
    "changed": "find_topo_sort changed the graph: walk it without editing .inputs or .op",
    "emptied": "find_topo_sort emptied node_list, its caller's list: work on a copy (the caller still needs its list)",
    "list changed": ("find_topo_sort changed node_list, its caller's list: work on a copy (the caller still needs its "
                     "list as it gave it)"),
}


def topo_problem(f: dict, nodes: list, node_list: bool = True) -> str | None:
    """What is wrong with the student's order ``f`` of the graph ``nodes`` (None: nothing);
    with ``node_list``, an edit of the list it was given counts too."""
    if f["aborted"]:
        return "aborted"
    if not f["unchanged"]:  # numbered only when unchanged
        return "changed"
    if node_list and f["node_list"] != "kept":
        return "emptied" if f["node_list"] == "emptied" else "list changed"
    if f["kind"] == "other":
        return "kind"
    order = f["order"]
    if any(i < 0 for i in order):
        return "stranger"
    if len(set(order)) != len(order):
        return "duplicate"
    if len(order) != len(nodes):
        return "missing"
    if not _inputs_first(order, nodes):
        if _inputs_first(order[::-1], nodes):
            return "reversed"
        return "pushed" if order in (_pushed_order(nodes, False), _pushed_order(nodes, True)) else "order"
    return None


def _pushed_order(nodes: list, reverse: bool) -> list:
    """The order (node numbers) of a depth-first walk from the graph's roots that marks a node visited
    when it pushes it, pushing each node's inputs in order (or in reverse): the mistake "pushed"."""
    number = {id(v): i for i, v in enumerate(nodes)}
    used = {id(x) for v in nodes for x in v.inputs}
    order, visited = [], set()
    for root in (v for v in nodes if id(v) not in used):  # the roots, in node_list's order (the numbering's)
        if id(root) in visited:
            continue
        visited.add(id(root))
        stack = [(root, False)]
        while stack:
            v, done = stack.pop()
            if done:
                order.append(number[id(v)])
                continue
            stack.append((v, True))
            for x in (reversed(v.inputs) if reverse else v.inputs):
                if id(x) not in visited:
                    visited.add(id(x))
                    stack.append((x, False))
    return order


def _inputs_first(order: list, nodes: list) -> bool:
    """Does ``order`` (node numbers) list every node of ``nodes`` after all of its inputs?"""
    position = {i: k for k, i in enumerate(order)}
    number = {id(v): i for i, v in enumerate(nodes)}
    return all(position[number[id(x)]] < position[i] for i, v in enumerate(nodes) for x in v.inputs)


def check_topo(observe, graph: str, reads_per_node: int | None = None, **kwargs) -> None:
    f = observe_topo(observe, graph, reads_per_node, **kwargs)
    problem = topo_problem(f, numbered(graph, **kwargs))
    assert problem is None, TOPO_PROBLEMS[problem]


# --- Task 9.2: judging adjoints ----------------------------------------------------------------
ADJOINT_PROBLEMS = {
    "leaves only": ("compute_gradient_of_variables stored adjoints on the leaves only: store the adjoint of every node, "
                    "not only of the leaves, in its .grad"),
    "output none": ("the output's .grad is None: store each node's adjoint in its .grad (the output's own adjoint is "
                    "out_grad)"),
    "only output": ("only the output's .grad is set: its adjoint never reached its inputs. Process the nodes in reverse "
                    "topological order (the output first), passing each node's partial adjoints on to its inputs"),
    "none": "a node that requires grad has no .grad: store each node's adjoint (the sum of its partial adjoints) in its .grad",
    "ndarray": "a node's .grad is a numpy array: store a needle Tensor (build adjoints with needle ops)",
    "other": "a node's .grad is not a needle value: store a needle Tensor (a TensorTuple for a tuple node)",
    "tuple": "a TensorTuple node's .grad must be a TensorTuple (its adjoint has one slot per output), a Tensor node's a Tensor",
    "shape": "a node's .grad has the wrong shape: a node's adjoint has the node's own shape",
    "output": "the output's .grad must be out_grad itself: start from out_grad (not ones)",
    # wrong values: filled in by wrong_values_hint (what .grad holds), both possible causes named
    "shared": ("a node used {uses} times got the wrong adjoint, though every node that uses it has the right one{held}. "
               "Its adjoint is the sum of the partial adjoints from every use, all of them sent before it is visited: "
               "either some are not summed in, or it is visited before one of its users has sent its partial (visit the "
               "nodes in reverse topological order, each after all of its users)"),
    "single": ("a node used once got the wrong adjoint, though the node using it has the right one{held}. Either that "
               "user passed on an adjoint other than its own (it was visited before all of its partial adjoints had "
               "arrived: visit the nodes in reverse topological order), or the partial adjoint its op.gradient returned "
               "changed on the way to .grad (store exactly that partial)"),
    "aborted": ("compute_gradient_of_variables calls the ops' gradients once per path: a graph of 62 nodes has about "
                "4 x 10^12 of them, where the contract allows one call of each op's gradient per node"),
    "changed": "compute_gradient_of_variables changed the graph: read each node's .inputs and .op, write only .grad",
}
CHAIN_TWICE = ("each partial adjoint was multiplied by its node's adjoint once more: op.gradient(adjoint, node) "
               "already applies the chain rule (it returns adjoint times the local derivative); hand its result to the "
               "input as it is")
NO_PARTIAL = ("compute_gradient_of_variables looked up the adjoint of a node that received none: an op's gradient "
              "gives None for an input that needs no gradient (a constant), so nothing was stored for that input; "
              "skip a node with no adjoint (it keeps .grad None)")
TOPO_OF_A_NODE = ("compute_gradient_of_variables handed find_topo_sort a single node, and the walk failed on it: "
                  "find_topo_sort takes a list of nodes, node_list (the output in a list of one)")
CALLED_TWICE = ("a second call of compute_gradient_of_variables on the same graph gave other adjoints than the first: "
                "the partial adjoints were added onto what .grad already held. Each call's adjoints must be those of "
                "that call alone, whatever .grad held before")


def _same(got, want) -> bool:
    return got.shape == want.shape and bool(np.all(np.isfinite(got))) and bool(np.allclose(got, want, rtol=RTOL, atol=ATOL))


def _judge(grad: dict, want) -> str | None:
    """What is wrong with one node's .grad (None: right), before looking at the graph."""
    kind = grad["kind"]
    if kind in ("none", "ndarray", "other"):
        return kind
    if (kind == "tuple") != isinstance(want, tuple):
        return "tuple"
    got = grad["value"]
    if isinstance(want, tuple):
        if len(got) != len(want) or any(g.shape != w.shape for g, w in zip(got, want)):
            return "shape"
        return None if all(_same(g, w) for g, w in zip(got, want)) else "values"
    if got.shape != np.shape(want):
        return "shape"
    return None if _same(got, np.asarray(want)) else "values"


def adjoint_problem(grads: list, nodes: list, picked: list, expected: list) -> str | None:
    """The problem of the first wrong adjoint in reverse topological order, named by its
    symptom. ``grads`` is what the probe found in the nodes numbered ``picked`` (from the graph
    ``nodes``), ``expected`` their adjoints (None for a node not checked: a constant)."""
    return first_wrong(grads, nodes, picked, expected)[0]


def first_wrong(grads: list, nodes: list, picked: list, expected: list) -> tuple:
    """(adjoint_problem's problem, the node's number, what its .grad holds) of the first wrong
    adjoint in reverse topological order; (None, None, None) when every adjoint is right."""
    output = nodes[-1]
    uses = {}
    for v in nodes:
        for x in v.inputs:
            uses[id(x)] = uses.get(id(x), 0) + 1
    # numbers follow a topological order: from the highest down is the order backward visits them.
    # strict: a reply missing some nodes (a worker's forged claim) fails the test, not passes it
    checked = sorted(((i, nodes[i], g, want) for i, g, want in zip(picked, grads, expected, strict=True)
                      if want is not None and nodes[i].requires_grad), key=lambda c: -c[0])
    has_grad = [v for _, v, g, _ in checked if g["kind"] != "none"]
    for i, v, g, want in checked:
        problem = _judge(g, want)
        if problem is None:
            continue
        if problem == "none":
            if v.op is not None and any(u.op is None for u in has_grad):
                return "leaves only", i, g
            if v is output:
                return "output none", i, g
            if len(has_grad) == 1 and has_grad[0] is output:
                return "only output", i, g
            return "none", i, g
        if problem == "values":
            return ("output" if v is output else "shared" if uses.get(id(v), 0) > 1 else "single"), i, g
        return problem, i, g
    return None, None, None


def wrong_values_hint(problem: str, number: int, grad: dict, graph: str, out_grad, **kwargs) -> str:
    """The hint "shared" or "single" for node ``number``, whose .grad holds ``grad``: which of the
    partial adjoints its uses send (each computed here from its user's adjoint, by central
    differences) add up to what it holds."""
    nodes = numbered(graph, **kwargs)
    v = nodes[number]
    uses = uses_of(v, nodes)
    held = ""
    if grad["kind"] == "tensor" and not isinstance(grad["value"], tuple):
        adjoints = {id(u): a for u, a in zip(nodes, reference(graph, out_grad, **kwargs))}
        reached = matching_uses(grad["value"], [partial_adjoint(u, adjoints) for u in uses], RTOL, ATOL)
        if reached is None:
            held = " (its .grad is no sum of the partial adjoints its uses send)"
        elif len(uses) > 1:
            held = f" (its .grad holds the partial adjoints of {len(reached)} of its {len(uses)} uses)"
    return ADJOINT_PROBLEMS[problem].format(uses=len(uses), held=held)


def check_backward(observe, graph: str, out_grad, expected: list, picked: list | None = None,
                   reads_per_node: int | None = None, **kwargs) -> None:
    """Run the student's backward on the graph and judge the adjoints of the nodes numbered
    ``picked`` (all by default) against ``expected``."""
    nodes = numbered(graph, **kwargs)
    picked = list(range(len(nodes))) if picked is None else picked
    try:
        f = observe_backward(observe, graph, out_grad, picked, reads_per_node=reads_per_node, **kwargs)
    except StudentCodeError:
        assert not chains_twice(observe), CHAIN_TWICE  # its products of adjoints fail on shapes and tuples
        assert not fails_on_a_constant(observe), NO_PARTIAL
        raise
    assert not f.get("topo_of_a_node"), TOPO_OF_A_NODE
    problem = backward_problem(f, nodes, picked, expected)
    if problem is None:
        return
    walk = _topo_problem_of_student(observe, graph, reads_per_node, **kwargs)
    assert walk is None, "compute_gradient_of_variables uses your find_topo_sort, whose order is wrong here: " + TOPO_PROBLEMS[walk]
    assert problem not in ("single", "shared") or not chains_twice(observe), CHAIN_TWICE
    if problem in ("single", "shared"):
        _, i, grad = first_wrong(f["grads"], nodes, picked, expected)
        assert False, wrong_values_hint(problem, i, grad, graph, out_grad, **kwargs)
    assert False, ADJOINT_PROBLEMS[problem]


def backward_problem(f: dict, nodes: list, picked: list, expected: list) -> str | None:
    """The problem of a backward run the probe reported as ``f`` (None: every adjoint right)."""
    if f["aborted"] or f["changed"]:
        return "aborted" if f["aborted"] else "changed"
    return adjoint_problem(f["grads"], nodes, picked, expected)


def fails_on_a_constant(observe) -> bool:
    """Does the student's backward raise on y = x * c with c a constant (which receives no partial
    adjoint: None from EWiseMul's gradient), and not with c a variable?"""
    def raises(constant: bool) -> bool:
        try:
            observe(P.backward, graph=described("product", constant=constant), out_grad=[1.0])
        except StudentCodeError:
            return True
        return False

    return raises(True) and not raises(False)


def chains_twice(observe) -> bool:
    """Does the student's backward multiply each partial adjoint by its node's adjoint once more?
    On z = (3x) * 5 with out_grad 2 the adjoints are z 2, 3x 10, x 30; with the chain rule applied
    twice, 3x gets 5 * 2 * 2 = 20 and x gets (3 * 20) * 20 = 1200, values no other mistake gives."""
    try:
        f = observe_backward(observe, "scaled_chain", [2.0], [0, 1, 2])
    except StudentCodeError:
        return False
    if f["aborted"] or f["changed"] or f.get("topo_of_a_node"):
        return False
    got = sorted(g["value"].item() for g in f["grads"] if g["kind"] == "tensor" and np.size(g["value"]) == 1)
    return len(got) == 3 and bool(np.allclose(got, [2.0, 20.0, 1200.0]))


def _topo_problem_of_student(observe, graph: str, reads_per_node: int | None, **kwargs) -> str | None:
    """The problem of the student's find_topo_sort on this graph, if it has one (it shapes the
    hint only: compute_gradient_of_variables need not use it)."""
    try:
        f = observe_topo(observe, graph, reads_per_node, **kwargs)
    except StudentCodeError:
        return None
    # its order only: compute_gradient_of_variables gives it a list of its own, edits of which harm nothing
    return topo_problem(f, numbered(graph, **kwargs), node_list=False)


def reference(graph: str, out_grad, **kwargs) -> list:
    """Every node's adjoint by float64 central differences of the ops' compute (no gradient
    trusted); None for a node that needs no gradient."""
    nodes = numbered(graph, **kwargs)
    return [want if v.requires_grad else None for v, want in zip(nodes, node_adjoints(nodes, np.asarray(out_grad)))]


def random_graph(seed: int) -> dict:
    """A random graph's recipe (float64 leaves of shape (2, 3), one of them a constant, then 10
    steps of ops picked from P.ARITY on earlier values) with values of moderate size, and an
    out_grad: the probe and this side build the same graph from it."""
    for k in range(100):
        r = rng(seed + k)
        kinds = sorted(P.ARITY)
        steps, n = [], 4
        for _ in range(10):
            kind = kinds[int(r.integers(len(kinds)))]
            steps.append([kind, [int(r.integers(n)) for _ in range(P.ARITY[kind])], float(np.round(r.uniform(0.3, 0.9), 3))])
            n += 1
        params = dict(leaves=[r.uniform(-1.5, 1.5, (2, 3)) for _ in range(4)], constant=[False, False, False, True], steps=steps)
        try:
            values = [v.realize_cached_data() for v in numbered("recipe", **params)]
        except (IndexError, ValueError, FloatingPointError):
            continue  # no value needing a gradient is left unused, or a value out of range
        flat = np.concatenate([np.ravel(a) for v in values for a in (v if isinstance(v, tuple) else (v,))])
        if np.all(np.isfinite(flat)) and np.abs(flat).max() < 100:
            return params | {"out_grad": r.standard_normal(values[-1].shape)}
    raise RuntimeError("no random graph of moderate values found")  # never reached: most draws qualify


# --- Task 9.1: find_topo_sort ------------------------------------------------------------------


def check_shared_nodes_once(observe):
    """find_topo_sort lists a node reached along several paths once"""
    check_topo(observe, "diamond")  # a, b = 2a, c = b + b, d = c * a: a before b before c before d
    check_topo(observe, "shared")  # s, s * s, s * s + s: s is reached three times
    check_topo(observe, "tuple")  # the tuple node is reached through three TupleGetItems
    check_topo(observe, "two_outputs")  # u + a and u * 3 share u and a: 5 nodes, each once; node_list kept


# --- Task 9.2: compute_gradient_of_variables ---------------------------------------------------


def check_lecture_model(observe):
    check_backward(observe, "two_path", [1.0], reference("two_path", [1.0]))
    # x = y = 2, every s = 1 and b = 0: h = (2 + 0) + (2 + 0) = 4, L = (h - y)^2 = 4.
    # dL/dL = 1 (out_grad); dL/dh = 2 (h - y) = 4; each path's output f_i = x s_i + b_i gets
    # dL/df_i = dL/dh = 4; so dL/ds_i = 4 x = 8 and dL/db_i = 4 * 1 = 4.
    loss, names = P.two_path_named()
    number = {id(v): i for i, v in enumerate(nodes_of(loss))}
    hand = {"loss": 1.0, "h": 4.0, "f0": 4.0, "f1": 4.0, "s0": 8.0, "b0": 4.0, "s1": 8.0, "b1": 4.0}
    picked = [number[id(names[name])] for name in hand]
    check_backward(observe, "two_path", [1.0], [np.array([hand[n]]) for n in hand], picked)


def check_shared_node(observe):
    """the adjoint of a node used three times is the sum of its three partial adjoints, the same
    when a second call finds the first call's .grad in place"""
    # y = s * s + s at s = 3 with out_grad 2: the product sends s twice s * 2 = 6 (once per
    # slot), the sum sends 2: s's adjoint is 6 + 6 + 2 = 14 = (2s + 1) * 2; s * s gets 2, y gets 2
    expected = [np.array([14.0]), np.array([2.0]), np.array([2.0])]
    check_backward(observe, "shared", [2.0], expected)
    f = observe_backward(observe, "shared", [2.0], list(range(len(expected))), calls=2)
    again = backward_problem(f, numbered("shared"), list(range(len(expected))), expected)
    if again is not None:  # passing partials on down every path adds into .grad too: that mistake first
        f = observe(P.backward, graph=described("ladder", n=60), out_grad=[1.0], reads_per_node=READS_PER_NODE)
        assert not f["aborted"], ADJOINT_PROBLEMS["aborted"]
    assert again is None, CALLED_TWICE

def check_diamond(observe):
    """the adjoints of a diamond: b = 2a, c = b + b, d = c * a"""
    # at a = 1.5, out_grad 1: d gets 1; c gets a = 1.5; b gets 1.5 + 1.5 = 3 (used twice by
    # c); a gets c = 4a = 6 from d plus 2 * 3 = 6 from b: 12 (= dd/da = 8a)
    check_backward(observe, "diamond", [1.0], [np.array([12.0]), np.array([3.0]), np.array([1.5]), np.array([1.0])])

def check_tensor_tuple_graph(observe):
    """the adjoints of a graph with a TensorTuple node used three times"""
    # a = (1, 2), t = (t0, t1) = (a + 1, a + 2) = ((2, 3), (3, 4)), out = t0 * t1 + t0, out_grad
    # g = (1, -2). out gets g; t0 * t1 gets g; t[1] gets g * t0 = (2, -6); the two t[0] nodes get
    # g * t1 = (3, -8) and g = (1, -2); t's adjoint is the slot-wise sum of the three tuples they
    # send: ((3, -8) + (1, -2), (2, -6)) = ((4, -10), (2, -6)); a gets the sum of its slots,
    # (6, -16) = g (2a + 4), the derivative of (a + 1)(a + 2) + (a + 1) times g.
    nodes = numbered("tuple")
    want = {0: [6.0, -16.0], 1: ([4.0, -10.0], [2.0, -6.0]), len(nodes) - 1: [1.0, -2.0]}
    picked = sorted(want)
    expected = [tuple(map(np.array, want[i])) if isinstance(want[i], tuple) else np.array(want[i]) for i in picked]
    check_backward(observe, "tuple", [1.0, -2.0], expected, picked)
    check_backward(observe, "tuple", [1.0, -2.0], reference("tuple", [1.0, -2.0]))
