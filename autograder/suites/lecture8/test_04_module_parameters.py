"""Hidden tests for 04_module_parameters (Tasks 4.1 to 4.3), declared as ladders.

Each task's data rungs (its contract, one behaviour at a time, from the smallest input up; every
value derived by hand in the comment beside it) are its visible tests too; the rungs written as
tests below them draw their inputs per submission from ``submission_seed`` and compute the
expected values here (a module tree's Parameters by needle's reference Module, gradients by
float64 central differences)."""
import numpy as np

import needle as ndl
from autograder.specification import Rung, Task, declare
from autograder.suite import assert_close, expect_array, load_probes
from needle.gradcheck import central_differences

P = load_probes(__file__)

# Needle's own implementation of each task: a task answered with it (calling it, an alias,
# a subclass of its class) scores nothing. needle's Tensor and ops, and your own earlier
# tasks, stay allowed.
MODULES = ["needle.nn.Parameter", "needle.nn.Module", "needle.nn._walk", "needle.nn._walk_dict"]

# --- Task 4.1 --------------------------------------------------------------------------------------
# A module is built attribute by attribute (Module() itself, no subclass), each Parameter holding its
# own number, so that the numbers of `m.parameters()` show which Parameters it found, in which order.
M = "m = Module(); "
FOUND = "np.array([p.numpy()[0] for p in m.parameters()])"  # (an array: a message shows a wrong length too)
# forward(a, b=0, *, k=0) = a + 10 b + 100 k: each argument lands in a digit of its own
ECHO = "Echo = type('Echo', (Module,), {'forward': lambda self, a, b=0.0, *, k=0.0: a + 10 * b + 100 * k}); e = Echo()"


def found(name: str, given: str, expect: list) -> Rung:
    """A rung on the numbers of the Parameters m.parameters() lists."""
    return Rung(name, given=M + given, call=FOUND, expect=expect, returns="ndarray")


TASK_4_1 = Task(
    "4.1", names=["Parameter", "Module"], own_work=MODULES, label="Parameter and Module",
    contract="m.parameters() is a list of every Parameter object the module holds, wherever a model keeps one "
             "(its attributes, its sub-modules and theirs, lists, tuples and dicts of them, to any depth), nothing "
             "else, each object once, in attribute order (depth first); module(*args, **kwargs) returns "
             "forward(*args, **kwargs)",
    rungs=[
        found("the Parameters in attributes", "m.a = Parameter([1.0]); m.b = Parameter([2.0])", [1.0, 2.0]),
        # m2 holds its own w only, whatever an earlier call on m1 found
        Rung("a second module",
             given="m1 = Module(); m1.w = Parameter([1.0]); m1.parameters(); m2 = Module(); m2.w = Parameter([2.0])",
             call="np.array([p.numpy()[0] for p in m2.parameters()])", expect=[2.0], returns="ndarray"),
        Rung("a list", given=M + "m.w = Parameter([1.0])", call="isinstance(m.parameters(), list)", expect=True),
        # the very object m.b, not a copy holding its values
        Rung("the module's own Parameter objects", given=M + "m.a = Parameter([1.0]); m.b = Parameter([2.0])",
             call="m.parameters()[1] is m.b", expect=True),
        # z is set first: attribute order, not the names' order
        found("attribute order", "m.z = Parameter([1.0]); m.a = Parameter([2.0])", [1.0, 2.0]),
        # the plain Tensor 5, the number, the string and the array are not Parameters
        found("other attributes left out", "m.w = Parameter([1.0]); m.t = ndl.Tensor([5.0]); m.n = 3; m.s = 'name'; "
                                           "m.a = np.ones(1); m.b = Parameter([2.0])", [1.0, 2.0]),
        # p (made first) is held, as m.v; q (made last) is held by nothing: [2, 1]
        Rung("what the module holds, not when it was made",
             given="p = Parameter([1.0]); " + M + "m.w = Parameter([2.0]); m.v = p; q = Parameter([3.0])",
             call=FOUND, expect=[2.0, 1.0], returns="ndarray"),
        # a, then inner's w where inner appears, then c
        found("a sub-module", "m.a = Parameter([1.0]); m.inner = Module(); m.inner.w = Parameter([2.0]); "
                              "m.c = Parameter([3.0])", [1.0, 2.0, 3.0]),
        # w two levels down, then b
        found("a sub-module of a sub-module", "m.inner = Module(); m.inner.deep = Module(); "
                                              "m.inner.deep.w = Parameter([1.0]); m.b = Parameter([2.0])", [1.0, 2.0]),
        found("a list of Parameters", "m.layers = [Parameter([1.0]), Parameter([2.0])]", [1.0, 2.0]),
        found("a tuple", "m.pair = (Parameter([1.0]), Parameter([2.0]))", [1.0, 2.0]),
        # a dict holds its Parameters as values, in insertion order
        found("a dict", "m.heads = {'a': Parameter([1.0]), 'b': Parameter([2.0])}", [1.0, 2.0]),
        # a list holding a tuple and a dict holding a list: 1 then 2
        found("containers inside containers", "m.deep = [(Parameter([1.0]),), {'k': [Parameter([2.0])]}]", [1.0, 2.0]),
        # w under a second name: one object, listed once, at its first place
        found("a Parameter under two names", "m.w = Parameter([1.0]); m.tied = m.w; m.b = Parameter([2.0])",
              [1.0, 2.0]),
        # the sub-module stored twice: its w once
        found("a sub-module stored twice", "m.inner = Module(); m.inner.w = Parameter([1.0]); m.again = m.inner; "
                                           "m.b = Parameter([2.0])", [1.0, 2.0]),
        # two different objects that hold equal values: both listed
        found("two Parameters of equal value", "m.w = Parameter([1.0]); m.v = Parameter([1.0])", [1.0, 1.0]),
        # forward(1) = 1
        Rung("module(x) returns forward(x)", given=ECHO, call="e(1.0)", expect=1.0),
        # forward(1, 2, k=3) = 1 + 20 + 300
        Rung("every argument passed on", given=ECHO, call="e(1.0, 2.0, k=3.0)", expect=321.0),
        # hidden: w replaced and b added after a first call: the module holds the new w (3), then b (2)
        Rung("attributes set after a first call",
             given=M + "m.w = Parameter([1.0]); m.parameters(); m.b = Parameter([2.0]); m.w = Parameter([3.0])",
             call=FOUND, expect=[3.0, 2.0], returns="ndarray", visible=False, points=2),
        # hidden: forward counts what it receives, 3 positional and 1 keyword argument of any type: 3 + 10 * 1
        Rung("arguments of any type",
             given="Count = type('Count', (Module,), {'forward': lambda self, *a, **k: len(a) + 10 * len(k)}); "
                   "e = Count()",
             call="e('two', [0.5], None, mode=4)", expect=13, visible=False, points=2),
    ])

# --- Task 4.2 --------------------------------------------------------------------------------------
X4 = "x = ndl.Tensor([4.0], requires_grad=False)"
X3 = "x = ndl.Tensor([3.0], requires_grad=False)"
TASK_4_2 = Task(
    "4.2", names=["ScaleAdd", "MultiPathScaleAdd", "Parameter"], own_work=["needle.models"],
    uses=["4.1"],  # built on your Module and Parameter
    label="ScaleAdd and MultiPathScaleAdd",
    contract="ScaleAdd(init_s=1, init_b=0) holds Parameters s and b of shape (1,), float32, starting at init_s and "
             "init_b; its output f(x) moves by x per unit of s, by 1 per unit of b, and is 0 when s = b = 0. "
             "MultiPathScaleAdd holds two separate ScaleAdd() modules path0 and path1, applies both to x and joins "
             "them so that each receives the output's adjoint whole (dh/df0 = dh/df1 = 1; h = 0 when both give 0)",
    rungs=[
        Rung("s and b are Parameters", given="sa = ScaleAdd(2.0, 3.0)",
             call="isinstance(sa.s, Parameter) and isinstance(sa.b, Parameter)", expect=True),
        # s starts at init_s = 2, b at init_b = 3, each of shape (1,)
        Rung("their initial values", given="sa = ScaleAdd(2.0, 3.0)", call="np.array([sa.s.numpy(), sa.b.numpy()])",
             expect=[[2.0], [3.0]], returns="ndarray"),
        Rung("float32", given="sa = ScaleAdd(2.0, 3.0)",
             call="sa.s.dtype == np.float32 and sa.b.dtype == np.float32", expect=True),
        # f = 0 at s = b = 0; df/ds = x, df/db = 1: f = 0 + 2 * 4 + 3 * 1 = 11
        Rung("the value at one point", given="sa = ScaleAdd(2.0, 3.0); " + X4, call="sa(x)", expect=[11.0],
             returns="Tensor"),
        # the contract's own numbers: df/ds = x = 4, df/db = 1
        Rung("the gradients of s and b", given="sa = ScaleAdd(2.0, 3.0); " + X4 + "; sa(x).backward()",
             call="[sa.s.grad, sa.b.grad]", expect=[[4.0], [1.0]]),
        Rung("two ScaleAdd paths", given="mp = MultiPathScaleAdd()",
             call="isinstance(mp.path0, ScaleAdd) and isinstance(mp.path1, ScaleAdd)", expect=True),
        Rung("two separate paths", given="mp = MultiPathScaleAdd()", call="mp.path0 is not mp.path1", expect=True),
        # each default path gives 1 * 3 + 0 = 3; h is 0 when both give 0 and passes each adjoint whole: 3 + 3
        Rung("the value with the default paths", given="mp = MultiPathScaleAdd(); " + X3, call="mp(x)",
             expect=[6.0], returns="Tensor"),
        # dh/df_i = 1, so each path gets df_i/ds_i = x = 3 and df_i/db_i = 1
        Rung("each path's gradients", given="mp = MultiPathScaleAdd(); " + X3 + "; mp(x).backward()",
             call="[mp.path0.s.grad, mp.path0.b.grad, mp.path1.s.grad, mp.path1.b.grad]",
             expect=[[3.0], [1.0], [3.0], [1.0]]),
    ])

# --- Task 4.3 --------------------------------------------------------------------------------------
XY = "x = ndl.Tensor([[4.0, 0.0, -1.0]]); y = ndl.Tensor([[3.0, 2.0, 1.0]])"  # a batch of one row
TASK_4_3 = Task(
    "4.3", names=["L2Loss"], own_work=["needle.nn.L2Loss"], label="L2Loss",
    uses=["4.1"],  # a Module: called through your Module.__call__
    contract="L2Loss()(x, y) is a Module's output, element-wise with the shape of x: zero where x = y, and its "
             "gradient with respect to x is 2 (x - y); built from needle operations so that backward() reaches x and y",
    rungs=[
        # zero wherever x = y
        Rung("zero where x = y", given="x = ndl.Tensor([2.0]); y = ndl.Tensor([2.0])", call="L2Loss()(x, y)",
             expect=[0.0], returns="Tensor"),
        # zero at x = y with derivative 2 (x - y): (x - y)^2 = 3^2
        Rung("one element", given="x = ndl.Tensor([5.0]); y = ndl.Tensor([2.0])", call="L2Loss()(x, y)",
             expect=[9.0], returns="Tensor"),
        # a batch of one row: x - y = [1, -2, -2], one loss per element [1, 4, 4], nothing summed or divided
        Rung("element-wise, with the shape of x", given=XY, call="L2Loss()(x, y)", expect=[[1.0, 4.0, 4.0]],
             returns="Tensor"),
        # d/dx = 2 (x - y) = [2, -4, -4] (out_grad ones)
        Rung("the gradient with respect to x", given=XY + "; L2Loss()(x, y).backward(ndl.Tensor([[1.0, 1.0, 1.0]]))",
             call="x.grad", expect=[[2.0, -4.0, -4.0]], returns="Tensor"),
        # d/dy = -2 (x - y) = [-2, 4, 4]
        Rung("the gradient with respect to y", given=XY + "; L2Loss()(x, y).backward(ndl.Tensor([[1.0, 1.0, 1.0]]))",
             call="y.grad", expect=[[-2.0, 4.0, 4.0]], returns="Tensor"),
    ])
declare(globals(), TASK_4_1, TASK_4_2, TASK_4_3)


# --- Task 4.1's rungs drawn per submission: module trees (plain data, see the probes module) ---------
def Par(label):
    return ["param", label]


def Ref(label):
    return ["ref", label]


def Mod(label, *attrs):
    return ["module", label, [list(a) for a in attrs]]


def Lst(*items):
    return ["list", list(items)]


def Tup(*items):
    return ["tuple", list(items)]


def Dct(*items):
    return ["dict", [list(i) for i in items]]


def Val(v):
    return ["value", v]


def reference_labels(tree, early=()):
    """The labels needle's reference nn.Module.parameters() returns for the same tree."""
    objects = {label: ndl.nn.Parameter(np.zeros(2, dtype=np.float32)) for label in early}
    root = P.build_tree(tree, ndl.nn.Module, ndl.nn.Parameter, objects)
    return P.labels_of(root.parameters(), P.label_names(objects.items()))


def f32(v):
    """What a float becomes in a float32 Tensor (the probes build float32 inputs)."""
    return np.asarray(v, dtype=np.float32).astype(np.float64)


def shown_tree(node) -> str:
    """A probe tree in one line: Parameters by label (p0, p1, ...), modules as Module{attr: ...}."""
    kind = node[0]
    if kind == "param":
        return node[1]
    if kind == "ref":
        return f"{node[1]} (again)"
    if kind == "module":
        return "Module{" + ", ".join(f"{a}: {shown_tree(v)}" for a, v in node[2]) + "}"
    if kind == "list":
        return "[" + ", ".join(shown_tree(v) for v in node[1]) + "]"
    if kind == "tuple":
        return "(" + "".join(shown_tree(v) + ", " for v in node[1]).rstrip() + ")"
    if kind == "dict":
        return "{" + ", ".join(f"{k!r}: {shown_tree(v)}" for k, v in node[1]) + "}"
    if kind == "value":
        return repr(node[1])
    return {"tensor": "a plain Tensor", "array": "an array"}.get(kind, kind)


def shown_labels(labels) -> str:
    plain = {"?plain": "a plain Tensor", "?stray": "a Parameter it does not hold", "?earlier":
             "a Parameter of an earlier module", "?copy": "a copy of a Parameter", "?other": "an object that is not a Parameter"}
    return "[" + ", ".join(plain.get(label, label) for label in labels) + "]"


LEAF_KINDS = ("param", "param", "ref", "tensor", "value", "array")
VALUES = (3, 0.5, "name", None, True)
CONTAINERS = ("list", "tuple", "dict", "module")


def raw_tree(rng, leaves: int):
    """A raw tree (see ``finalize``): a leaf (kind, int) or a container (kind, [children]) with
    up to ``leaves`` leaves, containers nested at random."""
    if leaves <= 1 or rng.random() < 0.35:
        return str(rng.choice(LEAF_KINDS)), int(rng.integers(0, 10))
    children, left = [], leaves
    for _ in range(int(rng.integers(0, 4))):
        share = int(rng.integers(1, left + 1))
        children.append(raw_tree(rng, share))
        left -= share
        if left <= 0:
            break
    return str(rng.choice(CONTAINERS)), children


def random_trees(seed: int, count: int) -> list:
    """``count`` random module trees holding at least one Parameter."""
    rng = np.random.default_rng([seed, 4])
    trees = []
    while len(trees) < count:
        raw = [raw_tree(rng, int(rng.integers(1, 8))) for _ in range(int(rng.integers(1, 6)))]
        if "param" in str(raw):
            trees.append(finalize(raw))
    return trees


def finalize(raw_attrs):
    """Turn a raw tree (see ``raw_tree``) into a probe tree: labels, attribute names, resolved refs."""
    made = {"params": [], "done": []}

    def name(i):
        return f"k{(3 * i + 2) % 5}"  # distinct, and not in sorted order

    def node(raw):
        kind, arg = raw
        if kind == "ref" and made["params"] + made["done"]:
            pool = made["params"] + made["done"]
            return Ref(pool[arg % len(pool)])
        if kind in ("param", "ref"):
            label = f"p{len(made['params'])}"
            made["params"].append(label)
            return Par(label)
        if kind == "tensor":
            return ["tensor"]
        if kind == "array":
            return ["array"]
        if kind == "value":
            return Val(VALUES[arg % len(VALUES)])
        children = [node(c) for c in arg]
        if kind == "list":
            return Lst(*children)
        if kind == "tuple":
            return Tup(*children)
        if kind == "dict":
            return Dct(*[[name(i), c] for i, c in enumerate(children)])
        label = f"m{len(made['done'])}"
        made["done"].append(label)  # a module can be referenced once it is complete
        return Mod(label, *[[name(i), c] for i, c in enumerate(children)])

    children = [node(c) for c in raw_attrs]
    return Mod("root", *[[name(i), c] for i, c in enumerate(children)])




@TASK_4_1.rung("random module trees drawn per submission", points=8)
def test_parameters_random_trees(observe, submission_seed):
    """parameters() matches the reference on random module trees"""
    for tree in random_trees(submission_seed, 30):
        r = observe(P.tree_parameters, tree=tree)
        want = reference_labels(tree)
        assert r["is_list"], f"on the module {shown_tree(tree)}, parameters() must return a list"
        assert r["labels"] == want, (f"on the module {shown_tree(tree)}, parameters() should be {shown_labels(want)} "
                                     f"(the Parameters by label); your code gave {shown_labels(r['labels'])}")


# --- Task 4.2's rung drawn per submission: ScaleAdd and the two-path model --------------------------
def scale_add_message(observe, s, b, x) -> str:
    """"" when ScaleAdd(s, b) at x gives the contract's value and gradients (float32), else what differs."""
    r = observe(P.scale_add_grad, s=s, b=b, x=x)
    out, ds, db = r.get("out"), r.get("ds"), r.get("db")
    # f = 0 at s = b = 0, df/ds = x, df/db = 1: f = s x + b; its gradients by float64 central differences
    want = f32(s) * f32(x) + f32(b)
    num = central_differences(lambda t: t[0] * f32(x) + t[1], [f32(s), f32(b)])
    on = f"on ScaleAdd({s:g}, {b:g}) at x = {x:g}"
    if out is None or np.shape(out) != (1,) or not np.allclose(out, [want], rtol=1e-5, atol=1e-5):
        return f"{on}, the output should be [{want:.6g}]; your code gave {None if out is None else np.ravel(out).tolist()}"
    for name, got, exact in (("s", ds, num[0]), ("b", db, num[1])):
        if got is None or np.shape(got) != (1,) or not np.allclose(got, [exact], rtol=1e-4, atol=1e-4):
            return (f"{on}, the gradient of {name} should be [{exact:.6g}]; your code gave "
                    f"{None if got is None else np.ravel(got).tolist()}")
    return ""


@TASK_4_2.rung("ScaleAdd and the two-path model at values drawn per submission", points=6)
def test_scale_add_and_multipath(observe, submission_seed):
    """ScaleAdd's value and gradients, and the two-path model's gradients under a squared error, at values drawn
    per submission, against float64 central differences"""
    rng = np.random.default_rng([submission_seed, 21])
    for _ in range(2):
        s, b, x = (round(float(v), 3) for v in rng.uniform(-3, 3, size=3))
        message = scale_add_message(observe, s, b, x)
        assert not message, message
    assert observe(P.scale_add_grad, s=1.0, b=0.0, x=1.0).get("parameters") is True, (
        "ScaleAdd's s and b must be Parameters (a plain Tensor is not one: parameters() does not find it)")
    # L = (h - y)^2, h = (s0 x + b0) + (s1 x + b1): dL/ds_i = 2 (h - y) x, dL/db_i = 2 (h - y)
    for _ in range(2):
        paths = [[round(v, 3) for v in pair] for pair in rng.uniform(-2, 2, size=(2, 2)).tolist()]
        x, y = (round(float(v), 3) for v in rng.uniform(-2, 2, size=2))
        r = observe(P.multipath_grad, x=x, y=y, paths=paths)
        assert r.get("separate") is True, ("MultiPathScaleAdd() made one ScaleAdd for both paths (path0 is path1): "
                                           "two paths are two ScaleAdd modules, each with its own s and b")
        theta = f32(np.array(paths).reshape(-1))  # s0, b0, s1, b1
        num = central_differences(lambda t: (t[0] * f32(x) + t[1] + t[2] * f32(x) + t[3] - f32(y)) ** 2, theta)
        grads = r.get("grads") or []
        got = [None if g is None else round(float(np.ravel(g)[0]), 4) for g in grads]
        ok = len(grads) == 4 and all(g is not None and np.shape(g) == (1,) for g in grads)
        assert ok and np.allclose(np.concatenate(grads), num, rtol=1e-4, atol=1e-4), (
            f"on MultiPathScaleAdd with path0 = ScaleAdd({paths[0][0]:g}, {paths[0][1]:g}) and path1 = "
            f"ScaleAdd({paths[1][0]:g}, {paths[1][1]:g}) at x = {x:g}, under L = (h - {y:g})^2: the gradients of "
            f"path0.s, path0.b, path1.s, path1.b should be {np.round(num, 4).tolist()}; your code gave {got}")


# --- Task 4.3's rung drawn per submission --------------------------------------------------------------
@TASK_4_3.rung("batches of shapes drawn per submission", points=4)
def test_l2_loss_gradient(observe, submission_seed):
    """L2Loss's value and gradients on a batch of a shape drawn per submission, against float64 central differences"""
    rng = np.random.default_rng([submission_seed, 31])
    shape = (int(rng.integers(2, 5)), int(rng.integers(1, 4)))  # a batch of several rows
    x, y, w = (f32(np.round(rng.standard_normal(shape), 3)) for _ in range(3))
    r = observe(P.l2_loss, x=x, y=y, w=w)
    on = f"on L2Loss()(x, y) with x of shape {shape}, then backward(w) (x = {x.tolist()}, y = {y.tolist()}, w = {w.tolist()})"
    out = expect_array(r["out"], f"{on}: L2Loss.forward must return a Tensor")
    want = (x - y) ** 2  # zero at x = y, with derivative 2 (x - y): checked against the differences below
    assert out.shape == shape and np.allclose(out, want, rtol=1e-5, atol=1e-5), (
        f"{on}: the loss should be {np.round(want, 4).tolist()}; your code gave {np.round(out, 4).tolist()}")
    assert r["gx"] is not None and r["gy"] is not None, f"{on}: x.grad and y.grad should be set; your code left None"
    n = x.size
    theta = np.concatenate([x.ravel(), y.ravel()])
    num = central_differences(lambda t: np.sum(w.ravel() * (t[:n] - t[n:]) ** 2), theta)
    for name, got, want in (("x", r["gx"], num[:n]), ("y", r["gy"], num[n:])):
        assert_close(got.ravel(), want, f"{on}: {name}.grad should be {np.round(want, 4).tolist()} (float64 central "
                                        f"differences); your code gave {np.round(got.ravel(), 4).tolist()}",
                     rtol=1e-4, atol=1e-4)
