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
        p = Parameter(np.full((2,), float(len(objects)), dtype=np.float32))
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


@probe("Module", "Parameter")
def trees_parameters(ns, trees):
    """tree_parameters of several small trees at once (to tell what a walk misses)."""
    Module, Parameter = need(ns, "Module"), need(ns, "Parameter")
    return [_parameters_of(tree, Module, Parameter) for tree in trees]


def _echo_class(Module, seen: dict):
    """A Module subclass whose forward returns what it received, ["echo", args, kwargs] (a
    value the trusted side checks), and notes in ``seen`` that it ran (for a hint only)."""

    class Echo(Module):
        def forward(self, *a, **k):
            seen["ran"] = True
            seen["same_self"] = self is seen.get("module")
            return ["echo", list(a), dict(k)]

    return Echo


def _call(Module, args, kwargs) -> dict:
    """module(*args, **kwargs) for an Echo module: what it returned (plain data), and whether
    forward ran and on the module itself (a hint only)."""
    call = getattr(Module, "__dict__", {}).get("__call__")
    if call is not None and call is Module.__dict__.get("forward"):  # `__call__ = forward` in the class body
        return {"type_error": False, "base_forward": True}
    seen: dict = {}
    m = _echo_class(Module, seen)()
    seen["module"] = m
    try:
        result = m(*args, **kwargs)
    except TypeError:  # e.g. a __call__ that takes one argument only
        return {"type_error": True}
    echoed = isinstance(result, list) and len(result) == 3 and result[0] == "echo"
    return {
        "type_error": False,
        "returned": result if echoed else ("none" if result is None else "other"),
        "forward_ran": seen.get("ran", False),
        "same_self": seen.get("same_self", False),
    }


@probe("Parameter")
def parameter_arguments(ns):
    """Parameter(value, dtype=..., requires_grad=...), as a Tensor is made: whether the student's
    class takes those arguments (an __init__ of its own that drops them does not), and keeps them."""
    try:
        p = need(ns, "Parameter")([1.0, 2.0], dtype="float64", requires_grad=False)
    except TypeError:
        return {"takes": False}
    return {"takes": True, "is_tensor": isinstance(p, ndl.Tensor), "dtype": str(p.dtype),
            "requires_grad": p.requires_grad is True}


@probe("Module")
def call_forward(ns, args, kwargs):
    """Call a Module subclass whose forward echoes its arguments, with these arguments and with
    one positional argument (to tell a __call__ that takes only one)."""
    Module = need(ns, "Module")
    return {"call": _call(Module, args, kwargs), "one": _call(Module, [0.5], {})}


# --- ScaleAdd / MultiPathScaleAdd (Task 4.2) ------------------------------------------------
def _grad(p):
    if not isinstance(p, ndl.Tensor) or p.grad is None:
        return None
    return np.asarray(p.grad.numpy(), dtype=np.float64)


def _param_facts(p, Parameter) -> dict:
    if not isinstance(p, ndl.Tensor):
        return {"is_parameter": False, "is_tensor": False, "missing": p is None}
    return {
        "missing": False,
        "is_tensor": True,
        "is_parameter": isinstance(p, Parameter),
        "value": np.asarray(p.numpy(), dtype=np.float64),
        "dtype": str(p.dtype),
        "requires_grad": p.requires_grad is True,
        "leaf": p.op is None,
    }


def _holds_parameters(m, Parameter, Module) -> bool:
    """Does the module hold a Parameter as an attribute, or as an attribute of a sub-module it holds
    (ScaleAdd's s and b, MultiPathScaleAdd's paths')? Two levels, read here, not with the student's
    parameters(), and no walk of a tree (one would be Task 4.1's answer, red team round 9)."""
    if not isinstance(m, Module):
        return False
    for v in vars(m).values():
        if isinstance(v, Parameter):
            return True
        if isinstance(v, Module) and any(isinstance(w, Parameter) for w in vars(v).values()):
            return True
    return False


def _basics(ns) -> dict:
    """What every Task 4.2 result rests on: module(x) returns forward(x) (Task 4.1's __call__),
    ScaleAdd() holds Parameters s and b (their shapes), ScaleAdd(2.5, -0.75) starts from its
    arguments, and its forward value at x = 2."""
    ScaleAdd, Parameter, Module = need(ns, "ScaleAdd"), need(ns, "Parameter"), need(ns, "Module")
    m = ScaleAdd()
    params = (getattr(m, "s", None), getattr(m, "b", None))
    shapes = [list(p.shape) if isinstance(p, ndl.Tensor) else None for p in params]
    facts = {
        "call": _call(Module, [0.5], {}),
        "holds_parameters": _holds_parameters(m, Parameter, Module),
        "shapes": shapes,
        "dtypes": [str(p.dtype) if isinstance(p, ndl.Tensor) else None for p in params],
        "init": None,
        "forward": None,
    }
    if shapes == [[1], [1]] and facts["dtypes"] == ["float32", "float32"]:
        m = ScaleAdd(2.5, -0.75)
        facts["init"] = [np.asarray(p.numpy(), dtype=np.float64) if isinstance(p, ndl.Tensor) else None
                         for p in (getattr(m, "s", None), getattr(m, "b", None))]
        try:  # judged only by the tests that need it (the Parameters' test does not)
            out = m.forward(ndl.Tensor([2.0], requires_grad=False))
        except Exception:
            facts["forward_raised"] = True
        else:
            facts["forward"] = np.asarray(out.numpy(), dtype=np.float64) if isinstance(out, ndl.Tensor) else None
    return facts


@probe("ScaleAdd", "Parameter", "Module")
def scale_add_facts(ns, init=None):
    """ScaleAdd() (init None), ScaleAdd(*init) (a list) or ScaleAdd(**init) (a dict): s and b."""
    ScaleAdd, Parameter = need(ns, "ScaleAdd"), need(ns, "Parameter")
    if init is None:
        m = ScaleAdd()
    elif isinstance(init, list):
        m = ScaleAdd(*init)
    else:
        m = ScaleAdd(**init)
    s, b = getattr(m, "s", None), getattr(m, "b", None)
    return {"basics": _basics(ns), "s": _param_facts(s, Parameter), "b": _param_facts(b, Parameter),
            "distinct": s is not b}


@probe("ScaleAdd", "Parameter", "Module")
def scale_add_grad(ns, s, b, x):
    """out = ScaleAdd(s, b).forward(x) for a one-element x, then out.backward()."""
    facts = {"basics": _basics(ns)}
    if facts["basics"]["init"] is None:  # no Parameters, or of the wrong shape or dtype: nothing to run
        return facts
    m = need(ns, "ScaleAdd")(s, b)
    ps, pb = getattr(m, "s", None), getattr(m, "b", None)
    xt = ndl.Tensor([x], requires_grad=False)
    out = m.forward(xt)
    facts["is_tensor"] = isinstance(out, ndl.Tensor)
    facts["out"] = np.asarray(out.numpy(), dtype=np.float64) if facts["is_tensor"] else None
    facts["returned_input"] = out is xt
    facts["has_graph"] = facts["is_tensor"] and out.op is not None
    if facts["is_tensor"] and out.requires_grad and out.shape == (1,):
        out.backward()
    facts["ds"], facts["db"] = _grad(ps), _grad(pb)
    return facts


def _multipath(ns):
    MultiPath, ScaleAdd = need(ns, "MultiPathScaleAdd"), need(ns, "ScaleAdd")
    Parameter, Module = need(ns, "Parameter"), need(ns, "Module")
    facts = {"basics": _basics(ns)}
    m = MultiPath()
    p0, p1 = getattr(m, "path0", None), getattr(m, "path1", None)
    facts |= {
        "holds_parameters": _holds_parameters(m, Parameter, Module),
        "paths_are_scale_add": isinstance(p0, ScaleAdd) and isinstance(p1, ScaleAdd),
        "distinct_paths": p0 is not p1,
    }
    ready = (facts["basics"]["call"].get("returned") == ["echo", [0.5], {}]
             and facts["basics"]["init"] is not None and facts["paths_are_scale_add"])
    return m, ScaleAdd, facts, ready


@probe("MultiPathScaleAdd", "ScaleAdd", "Parameter", "Module")
def multipath_facts(ns, x):
    """Structure of MultiPathScaleAdd() and its forward value at x."""
    m, _, facts, ready = _multipath(ns)
    if not ready:
        return facts
    params = [getattr(m.path0, "s", None), getattr(m.path0, "b", None),
              getattr(m.path1, "s", None), getattr(m.path1, "b", None)]
    facts["distinct_params"] = len({id(p) for p in params})
    facts["values"] = [np.asarray(p.numpy(), dtype=np.float64) if isinstance(p, ndl.Tensor) else None
                       for p in params]
    out = m.forward(ndl.Tensor([x], requires_grad=False))
    facts["out"] = np.asarray(out.numpy(), dtype=np.float64) if isinstance(out, ndl.Tensor) else None
    return facts


@probe("MultiPathScaleAdd", "ScaleAdd", "Parameter", "Module")
def multipath_grad(ns, x, y, paths=None):
    """L = (h - y)^2 with h = MultiPathScaleAdd().forward(x), written with needle ops; L.backward().

    ``paths`` = [[s0, b0], [s1, b1]] replaces path0 / path1 by ScaleAdd(s0, b0) / ScaleAdd(s1, b1);
    None keeps the model's own paths. Returns h, L and the gradients of path0.s, path0.b,
    path1.s, path1.b."""
    m, ScaleAdd, facts, ready = _multipath(ns)
    if not ready:
        return facts
    if paths is not None:
        m.path0 = ScaleAdd(*paths[0])
        m.path1 = ScaleAdd(*paths[1])
    h = m.forward(ndl.Tensor([x], requires_grad=False))
    if not isinstance(h, ndl.Tensor):
        return facts | {"h": None}
    z = h - ndl.Tensor([y], requires_grad=False)
    loss = z * z
    if loss.requires_grad and loss.shape == (1,):
        loss.backward()
    return facts | {
        "h": np.asarray(h.numpy(), dtype=np.float64),
        "grads": [_grad(getattr(path, name, None)) for path in (m.path0, m.path1) for name in ("s", "b")],
    }


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
