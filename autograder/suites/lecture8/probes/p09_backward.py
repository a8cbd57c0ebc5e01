"""Probes for 09_backward: graphs built with needle, handed to the student's find_topo_sort and
compute_gradient_of_variables. What comes back is plain data: the student's order as node ids,
what each node's .grad holds, and the graph as built (each node's id, op and inputs' ids), from
which the trusted side numbers the nodes by matching them to the same graph built on its side.

No walk of a graph is in this process: a topological walk here (this module numbered the nodes
with one) was Task 9.1's answer within reach of the student's code, as the graph digest taken in
01's worker was Task 1.1's (red team, round 9). Nor is a graph built here with needle's ops: the
trusted side builds it and sends its nodes in an order drawn there at random, and the probe puts
them together in that order (``_assembled``), so no order in which this process made nodes is a
topological one (rounds 10 and 11). The nodes are kept as a set and read one by one, never
followed through .inputs."""
import itertools
import math

import needle as ndl
import numpy as np
from autograder.probing import allocate, fill_node, need, probe
from needle import models, nn, ops
from needle.autograd import Op, TensorTuple, Value

_INPUTS = Value.__dict__["inputs"]  # needle's slots: where a node keeps its inputs and op (read without counting)
_OP = Value.__dict__["op"]
_DATA, _REQUIRES = Value.__dict__["cached_data"], Value.__dict__["requires_grad"]


# --- graph builders (also used by the trusted side to number nodes and compute references) ---
def two_path_named(x=2.0, y=2.0):
    """The lecture's model, L = (h - y)^2 with h = MultiPathScaleAdd()(x) = (x s0 + b0) + (x s1 + b1),
    and its named nodes."""
    model, xt = models.MultiPathScaleAdd(), ndl.Tensor([x], requires_grad=False)
    f0, f1 = model.path0(xt), model.path1(xt)
    h = f0 + f1
    loss = nn.L2Loss()(h, ndl.Tensor([y], requires_grad=False))
    return loss, {"loss": loss, "h": h, "f0": f0, "f1": f1, "s0": model.path0.s, "b0": model.path0.b,
                  "s1": model.path1.s, "b1": model.path1.b}


def two_path(x=2.0, y=2.0):
    return two_path_named(x, y)[0]


def shared(s=3.0):
    """y = s * s + s: s is used three times (twice by one op)."""
    s = ndl.Tensor([s], dtype="float64")
    return s * s + s


def scaled_chain():
    """z = (3x) * 5 at x = 1: two scalar multiplies in a row."""
    x = ndl.Tensor([1.0], dtype="float64")
    return (x * 3.0) * 5.0


def diamond(a=1.5):
    """a -> b = 2a -> c = b + b -> d = c * a: b and a are each used twice."""
    a = ndl.Tensor([a], dtype="float64")
    b = a * 2.0
    c = b + b
    return c * a


def ladder_values(n: int) -> list:
    """x_0, x_1 (leaves) and x_{k+1} = x_k + x_{k-1} up to x_{n+1}: n adds, about 1.6^n paths."""
    xs = [ndl.Tensor([1.0], dtype="float64"), ndl.Tensor([1.0], dtype="float64")]
    for _ in range(n):
        xs.append(xs[-1] + xs[-2])
    return xs


def ladder(n: int):
    return ladder_values(n)[-1]


def naive_loop(n: int):
    """The lecture's loop w = w + (-lr) * grad: n adds, each with a detached constant."""
    w, step = ndl.Tensor([1.0, 2.0], requires_grad=True), ndl.Tensor([0.5, 0.5], requires_grad=False)
    for _ in range(n):
        w = w + (-0.1) * step
    return w


def tuple_graph():
    """t = fused_add_scalars(a, 1, 2); out = t[0] * t[1] + t[0]: the tuple node is used three times."""
    a = ndl.Tensor([1.0, 2.0], dtype="float64")
    pair = ops.fused_add_scalars(a, 1.0, 2.0)
    return pair[0] * pair[1] + pair[0]


def input_used_below(mirrored: bool = False):
    """y = x + 2x (or 2x + x): x is an input of y and of 2x. A walk that marks a node visited when
    it first pushes it skips x when 2x reaches it, and so lists 2x before x (for one of the two
    orders of y's inputs, by the order in which it pushes them)."""
    x = ndl.Tensor([1.0], dtype="float64")
    return x * 2.0 + x if mirrored else x + x * 2.0


def product(constant: bool = True):
    """y = x * c, c a constant (or not): EWiseMul's gradient gives None for an input that needs no
    gradient, so c receives no partial adjoint at all."""
    x = ndl.Tensor([2.0], dtype="float64")
    return x * ndl.Tensor([3.0], dtype="float64", requires_grad=not constant)


def two_outputs():
    """Two roots sharing nodes: u = a * b and v = u + a (for find_topo_sort's node_list)."""
    a, b = ndl.Tensor([1.0]), ndl.Tensor([2.0])
    u = a * b
    return u + a, u * 3.0


def leaf():
    return ndl.Tensor([1.0])


def _step(kind: str, x: list, p: float):
    """One step of a random graph (see recipe): an op, or a small composite of ops."""
    if kind == "add":
        return x[0] + x[1]
    if kind == "sub":
        return x[0] - x[1]
    if kind == "mul":
        return x[0] * x[1]
    if kind == "scale":
        return x[0] * p
    if kind == "shift":
        return x[0] + p
    if kind == "div":
        return x[0] / (x[1] * x[1] + 1.0)
    if kind == "exp":
        return ops.exp(x[0] * p)
    if kind == "log":
        return ops.log(x[0] * x[0] + 1.0)
    if kind == "square":
        return x[0] ** 2
    if kind == "neg":
        return -x[0]
    if kind == "rowsum":
        return ops.broadcast_to(ops.summation(x[0], (1,)).reshape((2, 1)), (2, 3))
    if kind == "matmul":
        return ops.matmul(ops.matmul(x[0], ops.transpose(x[1])), x[2]) * p
    if kind == "lse":
        return ops.broadcast_to(ops.logsumexp(x[0], (0,)).reshape((1, 3)), (2, 3))
    if kind == "tuple":
        t = ops.fused_add_scalars(x[0], p, -p)
        return t[0] * t[1]
    raise ValueError(f"unknown step {kind!r}")


ARITY = {"add": 2, "sub": 2, "mul": 2, "scale": 1, "shift": 1, "div": 2, "exp": 1, "log": 1, "square": 1,
         "neg": 1, "rowsum": 1, "matmul": 3, "lse": 1, "tuple": 1}


def recipe(leaves: list, constant: list, steps: list):
    """A graph drawn on the trusted side: float64 leaves of shape (2, 3) (those flagged in
    ``constant`` need no gradient), then each step [kind, [input numbers], p] applied to earlier
    values; the output adds up every value that nothing else used, so every value is in it."""
    pool = [ndl.Tensor(a, dtype="float64", requires_grad=not c) for a, c in zip(leaves, constant)]
    used = set()
    for kind, picks, p in steps:
        pool.append(_step(kind, [pool[i] for i in picks], p))
        used.update(picks)
    unused = [v for i, v in enumerate(pool) if i not in used and v.requires_grad]
    out = unused[0]
    for v in unused[1:]:
        out = out + v
    return out


BUILDERS = {
    "two_path": two_path, "shared": shared, "diamond": diamond, "ladder": ladder, "naive_loop": naive_loop,
    "tuple": tuple_graph, "two_outputs": two_outputs, "input_used_below": input_used_below,
    "product": product, "leaf": leaf, "recipe": recipe, "scaled_chain": scaled_chain,
}


def build(graph: str, **kwargs) -> list:
    """The roots of a graph, as a list."""
    roots = BUILDERS[graph](**kwargs)
    return list(roots) if isinstance(roots, tuple) else [roots]


# --- a graph crossing from the trusted side: its nodes in a shuffled order -----------------------
# The trusted side builds each graph and sends it described node by node in an order drawn there
# at random (``describe``); the probe puts the nodes together in that order (``_assembled``), with
# needle's slots and the allocator (probing.fill_node) and no op call, constructor or compute.
# Nothing in this process makes a graph's nodes in their topological order, the order in which
# needle's ops make them: code hooked on needle's constructors (or on an op's compute) would log
# that order, and match it to the graph handed to the student by the values (red team, rounds 10
# and 11). Op classes and node classes are taken when this module loads, before any cell.
_CLASSES = {"Tensor": ndl.Tensor, "TensorTuple": TensorTuple, "Parameter": nn.Parameter}
_OP_CLASSES = {name: cls for name, cls in vars(ops).items() if isinstance(cls, type) and issubclass(cls, Op)}


def _plain_vars(op) -> list:
    """An op's attributes as [name, value, is a tuple] (its axes, shape, scalar, index, ...)."""
    out = []
    for key, value in vars(op).items():
        if not (value is None or type(value) in (bool, int, float, tuple)):
            raise TypeError(f"{type(op).__name__}.{key} = {value!r} does not cross as plain data")
        out.append([key, list(value) if type(value) is tuple else value, type(value) is tuple])
    return out


def pack_arrays(arrays: list) -> dict:
    """Arrays in a few: each one's number of axes, the axes in a row, the values in a row as float64."""
    return {"ndims": np.array([a.ndim for a in arrays], dtype=np.int64),
            "dims": np.array([n for a in arrays for n in a.shape], dtype=np.int64),
            "values": np.concatenate([a.ravel() for a in arrays], dtype=np.float64) if arrays else np.zeros(0)}


def unpack_arrays(packed: dict) -> list | None:
    """pack_arrays's arrays again (float64: views into one array); None if ``packed`` is not of that
    form (a worker's report is read with it too)."""
    ndims, dims, values = as_ints(packed.get("ndims")), as_ints(packed.get("dims")), packed.get("values")
    if ndims is None or dims is None or not isinstance(values, np.ndarray) or values.ndim != 1 \
            or sum(ndims) != len(dims) or min(ndims + dims, default=0) < 0:
        return None
    values = values.astype(np.float64)
    arrays, d, v = [], 0, 0
    for n in ndims:
        shape = tuple(dims[d:d + n])
        size = math.prod(shape)
        if v + size > len(values):
            return None
        arrays.append(values[v:v + size].reshape(shape))
        d, v = d + n, v + size
    return arrays


def as_ints(a) -> list | None:
    """A one-axis integer array as a list of Python ints, else None."""
    if not (isinstance(a, np.ndarray) and a.ndim == 1 and a.dtype.kind in "iu"):
        return None
    return a.tolist()


def describe(roots: list, nodes: list, order: list) -> dict:
    """(The trusted side.) ``nodes``, every node of the graph of ``roots``, listed in ``order`` (a
    permutation of their numbers, drawn there): each one's class, op, inputs (positions in that
    list), requires_grad and value, in a few arrays (a graph 5,000 ops deep crosses in milliseconds):
    classes, ops (class name and attributes) and dtypes as numbers into short lists of those that
    occur; the values as float64 numbers in a row, with each array's shape, and which nodes hold
    one array object between them."""
    position = {id(nodes[k]): j for j, k in enumerate(order)}
    kinds: dict = {}  # (class, op class, op attributes) -> (its number, [their names, the attributes as plain data])
    d = {"kind": [], "counts": [], "inputs": [], "requires": [], "held": [], "dtype": []}
    dtypes: dict = {}
    held = []  # every node's arrays, in a row
    first: dict = {}  # id of an array -> its first place in held (two TupleGetItems of one slot share it)
    same = []  # for each array of held: the place of the same array object earlier in held, else -1
    for k in order:
        v = nodes[k]
        op = _OP.__get__(v)
        key = (type(v), None) if op is None else (type(v), type(op), *vars(op).items())  # attributes: plain, hashable
        if key not in kinds:
            kinds[key] = (len(kinds), [type(v).__name__, None if op is None else type(op).__name__,
                                       None if op is None else _plain_vars(op)])
        d["kind"].append(kinds[key][0])
        inputs = _INPUTS.__get__(v)
        d["counts"].append(len(inputs))
        d["inputs"].extend(position[id(x)] for x in inputs)
        d["requires"].append(bool(_REQUIRES.__get__(v)))
        data = _DATA.__get__(v)
        arrays = list(data) if isinstance(data, tuple) else [data]
        d["held"].append(len(arrays))
        d["dtype"].extend(dtypes.setdefault(a.dtype, len(dtypes)) for a in arrays)  # by the dtype itself: .name is slow
        for a in arrays:
            same.append(first.get(id(a), -1))
            first.setdefault(id(a), len(held))
            held.append(a)
    out = {key: np.array(d[key], dtype=np.int64) for key in ("kind", "counts", "inputs", "held", "dtype")}
    out["same"] = np.array(same, dtype=np.int64)
    out["requires"] = np.array(d["requires"], dtype=bool)
    out["arrays"] = pack_arrays(held)
    out["kinds"] = [kind for _, kind in kinds.values()]  # in the order of their numbers
    out["dtypes"] = [dtype.name for dtype in dtypes]
    out["roots"] = [position[id(r)] for r in roots]
    return out


def _assembled(d: dict) -> tuple[list, set]:
    """(roots, the set of nodes) of the graph ``d`` describes, its nodes made in ``d``'s order."""
    kinds = [(_CLASSES[c], None if op is None else _OP_CLASSES[op], attrs) for c, op, attrs in d["kinds"]]
    kind, counts, inputs, held = (d[k].tolist() for k in ("kind", "counts", "inputs", "held"))
    dtypes = [np.dtype(name) for name in d["dtypes"]]
    arrays = [a.astype(dtypes[t]) for a, t in zip(unpack_arrays(d["arrays"]), d["dtype"].tolist())]
    for i, j in enumerate(d["same"].tolist() if "same" in d else []):
        if 0 <= j < i:
            arrays[i] = arrays[j]  # one array object held by two nodes, as in the graph described
    requires = d["requires"].tolist()
    nodes = [allocate(kinds[k][0]) for k in kind]
    at = a = 0
    for j, node in enumerate(nodes):
        cls, op_cls, attrs = kinds[kind[j]]
        op = None
        if op_cls is not None:
            op = allocate(op_cls)
            for key, value, is_tuple in attrs:
                setattr(op, key, tuple(value) if is_tuple else value)
        data = tuple(arrays[a:a + held[j]]) if cls is TensorTuple else arrays[a]
        fill_node(node, op, tuple([nodes[i] for i in inputs[at:at + counts[j]]]), data, requires[j])
        at, a = at + counts[j], a + held[j]
    return [nodes[i] for i in d["roots"]], set(nodes)


def _structure(nodes: set) -> tuple:
    """(ids, op class names (None: a leaf), inputs' ids) of the nodes of ``nodes``, read through
    needle's slots, in the set's order: equal before and after code that changed nothing."""
    return (list(map(id, nodes)), [None if op is None else type(op).__name__ for op in map(_OP.__get__, nodes)],
            [tuple(map(id, inputs)) for inputs in map(_INPUTS.__get__, nodes)])


def _packed_structure(structure: tuple) -> dict:
    """``structure`` in a few arrays, for a graph of thousands of nodes to cross quickly: the ids,
    the op names (one string each), the number of inputs of each, and the inputs' ids in a row."""
    ids, ops, inputs = structure
    return {"ids": np.array(ids, dtype=np.int64), "ops": ops,
            "counts": np.fromiter(map(len, inputs), dtype=np.int64, count=len(inputs)),
            "inputs": np.fromiter(itertools.chain.from_iterable(inputs), dtype=np.int64)}


def _packed_grads(grads: list) -> dict:
    """_grad of each of ``grads``, in a few arrays: each one's kind, how many arrays it holds (a
    tuple's several), and those arrays (pack_arrays)."""
    kinds, counts, held = [], [], []
    for g in grads:
        d = _grad(g)
        kinds.append(d["kind"])
        arrays = d["value"] if d["kind"] == "tuple" else [d["value"]] if "value" in d else []
        counts.append(len(arrays))
        held.extend(arrays)
    return {"kinds": kinds, "counts": np.array(counts, dtype=np.int64), "arrays": pack_arrays(held)}


# --- measuring work: how often the student's code reads .inputs ------------------------------
class _TooMuchWork(BaseException):
    """Raised inside the student's code once it has read far more .inputs than a walk that
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


_Counted.__name__ = _Counted.__qualname__ = "Tensor"  # what an error in the student's code names, as in their kernel


def _recount(nodes: set) -> int:
    """Make every plain Tensor of ``nodes`` count its .inputs reads; their number."""
    for v in nodes:
        if type(v) is _CLASSES["Tensor"]:
            v.__class__ = _Counted
    return len(nodes)


def _bounded(run, nodes: set, reads_per_node: int | None):
    """run(), stopped once .inputs has been read more than reads_per_node times per node of
    ``nodes``; (result, aborted)."""
    if reads_per_node is None:
        return run(), False
    _reads[0], _reads[1] = 0, reads_per_node * _recount(nodes)
    try:
        return run(), False
    except _TooMuchWork:
        return None, True
    finally:
        _reads[1] = 1 << 62


# --- what the student's code returned, as plain data -----------------------------------------
def _numbers(a):
    """A numeric numpy array as float64, else None."""
    if type(a) is np.ndarray and a.dtype.kind in "biuf":
        return a.astype(np.float64)
    return None


def _grad(g) -> dict:
    """What a node's .grad holds: its kind and, when it has them, its numbers."""
    if g is None:
        return {"kind": "none"}
    if isinstance(g, TensorTuple):
        data = g.realize_cached_data()
        items = [_numbers(a) for a in data] if type(data) is tuple else [None]
        return {"kind": "tuple", "value": items} if all(a is not None for a in items) else {"kind": "other"}
    if isinstance(g, ndl.Tensor):
        value = _numbers(g.realize_cached_data())
        return {"kind": "tensor", "value": value} if value is not None else {"kind": "other"}
    if type(g) is np.ndarray:
        value = _numbers(g)
        return {"kind": "ndarray", "value": value} if value is not None else {"kind": "other"}
    return {"kind": "other"}


# --- probes ----------------------------------------------------------------------------------
@probe("find_topo_sort")
def topo_sort(ns, graph: dict, reads_per_node: int | None = None):
    """The student's find_topo_sort(roots) as node ids, with the graph as built (its roots' ids and
    its structure) for the trusted side to number them; whether the graph is unchanged, and whether
    the list it was given (node_list, the caller's) still holds the same nodes, by identity, in the
    same order."""
    fn = need(ns, "find_topo_sort")
    roots, nodes = _assembled(graph)
    before = _structure(nodes)
    given, kept = list(roots), tuple(roots)  # node_list, and what it held (a tuple: nothing can edit it)
    order, aborted = _bounded(lambda: fn(given), nodes, reads_per_node)
    if aborted:
        return {"aborted": True}
    # list's own length and identity (``is``): nothing the student's objects define is called
    node_list = "kept" if list.__len__(given) == len(kept) and all(a is b for a, b in zip(given, kept)) else (
        "emptied" if list.__len__(given) == 0 else "changed")
    out = {"aborted": False, "kind": type(order).__name__ if type(order) in (list, tuple) else "other",
           "unchanged": _structure(nodes) == before, "node_list": node_list,
           "roots": [id(v) for v in kept], "structure": _packed_structure(before)}
    if out["kind"] != "other" and out["unchanged"]:
        out["order"] = np.array([id(v) for v in order], dtype=np.int64)
    return out


@probe("compute_gradient_of_variables")
def backward(ns, graph: dict, out_grad, reads_per_node: int | None = None, calls: int = 1):
    """compute_gradient_of_variables(output, out_grad), ``calls`` times on the same graph; then what
    .grad holds in each node, by node id, with the graph as built (for the trusted side to number
    the nodes), or "changed" when it edited the graph."""
    fn = need(ns, "compute_gradient_of_variables")
    [output], nodes = _assembled(graph)
    before = _structure(nodes)
    g = ndl.Tensor(out_grad, dtype=output.dtype, requires_grad=False)
    given = []  # for the hint only: what this backward handed the notebook's find_topo_sort
    topo = ns.get("find_topo_sort")
    if callable(topo):
        ns["find_topo_sort"] = lambda *args, **kw: given.append(args[0] if args else None) or topo(*args, **kw)
    try:
        for _ in range(calls):
            _, aborted = _bounded(lambda: fn(output, g), nodes, reads_per_node)
            if aborted:
                return {"aborted": True}
    except Exception:
        if any(isinstance(a, Value) for a in given):  # find_topo_sort(output) for find_topo_sort([output])
            return {"aborted": False, "changed": False, "topo_of_a_node": True}
        raise
    finally:
        if callable(topo):
            ns["find_topo_sort"] = topo
    if _structure(nodes) != before:
        return {"aborted": False, "changed": True}
    listed = list(nodes)
    return {"aborted": False, "changed": False, "roots": [id(output)], "structure": _packed_structure(before),
            "ids": np.array([id(v) for v in listed], dtype=np.int64), "grads": _packed_grads([v.grad for v in listed])}
