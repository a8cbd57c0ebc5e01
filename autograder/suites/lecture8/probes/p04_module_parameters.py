"""Probes for 04_module_parameters: module trees built with the student's Module and
Parameter, ScaleAdd / MultiPathScaleAdd / L2Loss values and gradients.

Everything a probe returns is plain data; the trusted suite holds the expected values. The
builders below are also imported by the suite, to compute references with needle's
``nn.Module`` class. What only the inside can see is returned as such (which of the tree's own
objects parameters() returned, as labels; whether s is a Parameter; whether a module holds any
Parameter): each can only fail a test. What earns a point is a value the student's code
returned, judged on the trusted side: the labels in order, what module(...) returned (a forward
that echoes its arguments), forward values and gradients."""
import random
import weakref

import numpy as np

import needle as ndl
from autograder.probing import need, probe

# --- module trees (Task 4.1) ----------------------------------------------------------------
# A tree is plain data, one list per node:
#   ["param", label]                        a new Parameter
#   ["ref", label]                          an object built earlier (a shared Parameter or Module)
#   ["module", label, [[attr, node], ...]]  a Module whose attributes are set in this order
#   ["list", [node, ...]], ["tuple", [node, ...]], ["dict", [[key, node], ...]]
#   ["tensor"]                              a plain Tensor (requires_grad=True), not a Parameter
#   ["array"]                               a numpy array
#   ["value", v]                            a number, a string or None

_BOXES: dict = {}
PLAIN = "?plain"  # the label of the tree's plain Tensors (never Parameters)
STRAY = "?stray"  # the label of Parameters made with the tree that nothing of it holds


def box_class(Module):
    """A Module subclass with no behaviour of its own (attributes are set by build_tree)."""
    key = id(Module)
    if key not in _BOXES:
        class Box(Module):
            def __init__(self):
                super().__init__()

            def forward(self, x):
                return x

        _BOXES[key] = (Module, Box)  # keep Module alive so its id is not reused
    return _BOXES[key][1]


def build_tree(node, Module, Parameter, objects: dict, between=None):
    """Build ``node`` with the given Module / Parameter classes; record labelled objects
    (and the plain Tensors, under keys starting with PLAIN). ``between``: called before each
    attribute is set (the probe's outsider, below)."""
    kind = node[0]
    if kind == "param":
        p = Parameter(np.full((2,), float(len(objects) % 2), dtype=np.float32))  # values repeat: identity counts
        objects[node[1]] = p
        return p
    if kind == "ref":
        return objects[node[1]]
    if kind == "module":
        m = box_class(Module)()
        for attr, child in node[2]:
            value = build_tree(child, Module, Parameter, objects, between)
            if between is not None:
                between()
            setattr(m, attr, value)
        objects[node[1]] = m  # labelled once complete: a module never contains itself
        return m
    if kind == "list":
        return [build_tree(c, Module, Parameter, objects, between) for c in node[1]]
    if kind == "tuple":
        return tuple(build_tree(c, Module, Parameter, objects, between) for c in node[1])
    if kind == "dict":
        return {key: build_tree(c, Module, Parameter, objects, between) for key, c in node[1]}
    if kind == "tensor":
        t = ndl.Tensor([1.0, 2.0])
        objects[f"{PLAIN}#{len(objects)}"] = t
        return t
    if kind == "array":
        return np.array([1.0, 2.0], dtype=np.float32)
    if kind == "value":
        return node[1]
    raise ValueError(f"unknown tree node {kind!r}")


# Every Parameter the probes built, while it lives: one of an earlier tree in a later tree's
# answer was kept from an earlier call (a list shared by every call, such as a default argument).
_BUILT: "weakref.WeakValueDictionary[int, object]" = weakref.WeakValueDictionary()


def label_names(pairs) -> dict:
    """{id: label} of (label, object) pairs, as ``build_tree`` records them (plain Tensors' labels
    carry a "#n" of their own: all are PLAIN)."""
    return {id(o): label.split("#")[0] for label, o in pairs}


def labels_of(found, names: dict) -> list:
    """The label of each returned object (``names``: id -> label of the tree's objects): a tree
    label, '?plain' for the tree's plain Tensors, '?earlier' for a Parameter of a tree built before,
    '?copy' for any other Tensor (a copy of a Parameter), '?other' for anything else."""
    out = []
    for item in found:
        if id(item) in names:
            out.append(names[id(item)])
        elif _BUILT.get(id(item)) is item:
            out.append("?earlier")
        elif isinstance(item, ndl.Tensor):
            out.append("?copy")
        else:
            out.append("?other")
    return out


def _parameters_of(tree, Module, Parameter, early=()) -> dict:
    # While parameters() runs, no record of the tree's objects in their order is kept (its Parameters
    # in order are the answer, and the student's code can read this process), nor any walk of a tree
    # (one would be Task 4.1's answer, red team round 9): the labels are kept by id, in a shuffled order.
    # Parameters that the tree does not hold are made around it: ``early`` ones, made before it, which
    # Refs in it attach; one made while the tree is put together (before its first attribute is set)
    # and given to a Module apart from it; one made after it that nothing holds. Which Parameters a
    # module holds is not which were made, or given to any module, while or since it was (red team,
    # round 10: a parameters() that returned the Parameters made since the module's __init__; round
    # 11: those made or given to a module until its last attribute was set).
    objects: dict = {label: Parameter(np.full((2,), -1.0, dtype=np.float32)) for label in early}
    outsider, given = box_class(Module)(), []

    def between():
        if not given:
            given.append(Parameter(np.full((2,), -2.0, dtype=np.float32)))
            setattr(outsider, "w", given[0])

    root = build_tree(tree, Module, Parameter, objects, between)
    between()  # a tree with no attribute set: given now
    stray = Parameter(np.zeros(2, dtype=np.float32))
    named = list(objects.items()) + [(STRAY, stray), (STRAY, given[0])]
    objects.clear()  # the same dict: a constructor of the student's may have kept a reference to it
    random.SystemRandom().shuffle(named)
    names = label_names(named)
    kept = [o for label, o in named if isinstance(o, ndl.Tensor) and not label.startswith(PLAIN) and label != STRAY]
    del named, given
    found = root.parameters()
    is_list = isinstance(found, list)
    items = list(found) if isinstance(found, (list, tuple)) or hasattr(found, "__next__") else []
    labels = labels_of(items, names)
    for o in kept:  # this tree's Parameters: "?earlier" in a later tree's answer
        _BUILT[id(o)] = o
    del outsider
    return {"is_list": is_list, "labels": labels}


@probe("Module", "Parameter")
def tree_parameters(ns, tree, early=()):
    """root.parameters() of a tree, as labels (the order kept); ``early``: labels of Parameters made
    before the tree (Refs attach them)."""
    return _parameters_of(tree, need(ns, "Module"), need(ns, "Parameter"), early)


# --- ScaleAdd / MultiPathScaleAdd (Task 4.2) ------------------------------------------------
def _grad(p):
    if not isinstance(p, ndl.Tensor) or p.grad is None:
        return None
    return np.asarray(p.grad.numpy(), dtype=np.float64)


def _array(t):
    return np.asarray(t.numpy(), dtype=np.float64) if isinstance(t, ndl.Tensor) else None


@probe("ScaleAdd", "Parameter")
def scale_add_grad(ns, s, b, x):
    """out = ScaleAdd(s, b)(x) for a one-element x, then out.backward(): the output, the gradients of s
    and b, and whether both are the notebook's Parameters."""
    m = need(ns, "ScaleAdd")(s, b)
    out = m(ndl.Tensor([x], requires_grad=False))
    if isinstance(out, ndl.Tensor) and out.requires_grad and out.shape == (1,):
        out.backward()
    parameter = need(ns, "Parameter")
    return {"out": _array(out), "ds": _grad(getattr(m, "s", None)), "db": _grad(getattr(m, "b", None)),
            "parameters": all(isinstance(getattr(m, name, None), parameter) for name in ("s", "b"))}


@probe("MultiPathScaleAdd", "ScaleAdd")
def multipath_grad(ns, x, y, paths):
    """L = (h - y)^2 with h = MultiPathScaleAdd()(x), its paths replaced by ScaleAdd(s0, b0) and ScaleAdd(s1, b1)
    (``paths`` = [[s0, b0], [s1, b1]]), written with needle ops; L.backward(). Returns h and the gradients of
    path0.s, path0.b, path1.s, path1.b, and whether the constructor made two separate paths."""
    ScaleAdd = need(ns, "ScaleAdd")
    m = need(ns, "MultiPathScaleAdd")()
    separate = getattr(m, "path0", None) is not getattr(m, "path1", None)  # as the constructor made them
    m.path0, m.path1 = ScaleAdd(*paths[0]), ScaleAdd(*paths[1])
    h = m(ndl.Tensor([x], requires_grad=False))
    if isinstance(h, ndl.Tensor) and h.requires_grad and h.shape == (1,):
        z = h - ndl.Tensor([y], requires_grad=False)
        (z * z).backward()
    return {"h": _array(h), "separate": separate,
            "grads": [_grad(getattr(path, name, None)) for path in (m.path0, m.path1) for name in ("s", "b")]}


# --- L2Loss (Task 4.3) ----------------------------------------------------------------------
@probe("L2Loss", "Module")
def l2_loss(ns, x, y, w, y_requires_grad=True):
    """out = L2Loss().forward(x, y); then out.backward(w) when out has x's shape."""
    L2Loss, Module = need(ns, "L2Loss"), need(ns, "Module")
    loss_fn = L2Loss()
    xt = ndl.Tensor(np.asarray(x, dtype=np.float32))
    yt = ndl.Tensor(np.asarray(y, dtype=np.float32), requires_grad=y_requires_grad)
    out = loss_fn.forward(xt, yt)
    is_tensor = isinstance(out, ndl.Tensor)
    facts = {
        "is_module": isinstance(loss_fn, Module),
        "is_tensor": is_tensor,
        "out": np.asarray(out.numpy(), dtype=np.float64) if is_tensor else None,
        "returned_input": out is xt,
        "connected": is_tensor and out.requires_grad and out.op is not None,
        "gx": None,
        "gy": None,
    }
    if facts["connected"] and out.shape == xt.shape:
        out.backward(ndl.Tensor(np.asarray(w, dtype=np.float32), requires_grad=False))
        facts["gx"], facts["gy"] = _grad(xt), _grad(yt)
    return facts
