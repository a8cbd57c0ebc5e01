"""Hidden tests for 04_module_parameters (Tasks 4.1 to 4.3).

The module trees, argument lists, parameter values and inputs are drawn per submission from
``submission_seed`` (besides the lecture's hand-derived cases, derived in a comment); the
expected values are computed here (the trees' Parameters by needle's reference Module).

One mistake, one hint: every message is chosen by the symptom the probe measured (what
parameters() returned and what it missed, what module(...) returned, what forward returned,
which gradient is absent), and a task's trivial answer (an empty list, None, the input returned)
fails every test of it."""
import functools
from collections import Counter

import numpy as np

import needle as ndl
from autograder.suite import Delegated, StudentCodeError, assert_close, expect_array, graded, load_probes
from needle.gradcheck import central_differences

P = load_probes(__file__)

# Needle's own implementation of each task: a task answered with it (calling it, an alias,
# a subclass of its class) scores nothing. needle's Tensor and ops, and your own earlier
# tasks, stay allowed.
OWN_WORK = {
    "4.1": ("Parameter and Module", ["needle.nn.Parameter", "needle.nn.Module", "needle.nn._walk", "needle.nn._walk_dict"]),
    "4.2": ("ScaleAdd and MultiPathScaleAdd", ["needle.models"]),
    "4.3": ("L2Loss", ["needle.nn.L2Loss"]),
}


# --- tree builders (plain data, see the probes module) -------------------------------------
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


# --- Task 4.1: Parameter and Module ---------------------------------------------------------

# Where a walk can miss Parameters: one small tree per place, its only Parameter there.
WHERE = [
    ("attributes", Mod("root", ["w", Par("p0")])),
    ("sub-modules", Mod("root", ["a", Mod("m0", ["w", Par("p0")])])),
    ("lists", Mod("root", ["a", Lst(Par("p0"))])),
    ("tuples", Mod("root", ["a", Tup(Par("p0"))])),
    ("dicts", Mod("root", ["a", Dct(["k", Par("p0")])])),
]
DEEPER = [  # asked about only when every place above is walked
    ("sub-modules of sub-modules", Mod("root", ["a", Mod("m1", ["b", Mod("m0", ["w", Par("p0")])])])),
    ("containers inside containers", Mod("root", ["a", Lst(Dct(["k", Tup(Par("p0"))]))])),
]


def _missed(observe, places):
    results = observe(P.trees_parameters, trees=[tree for _, tree in places])
    return [name for (name, _), r in zip(places, results) if r["labels"] != ["p0"]]


def walk_message(observe, labels, want):
    """The one message for parameters() returning ``labels`` instead of ``want``, chosen by
    the symptom: nothing found, objects that are not the Parameters, duplicates, Parameters
    missed in some kind of place (found with one small tree per place), or another order."""
    if "?earlier" in labels:
        return ("parameters() returned Parameters of modules it walked in earlier calls: the list it fills outlives "
                "the call. A default argument (found=[]) is made once, when the function is defined, and shared by "
                "every call: make a new list in each call")
    if "?stray" in labels:
        return ("parameters() returned a Parameter the module does not hold (one made with it, which nothing of the "
                "module's refers to, or one given to another module meanwhile): collect the Parameters found in the "
                "module's attributes, whenever they were made")
    if "?plain" in labels:
        return ("parameters() returned plain Tensors that are not Parameters: only Parameter instances are "
                "trainable (a module may keep other Tensors, such as constants)")
    if "?copy" in labels:
        return ("parameters() returned new Tensors (copies) instead of the module's own Parameter objects: "
                "the optimizer must update the very objects the module holds")
    if "?other" in labels:
        return ("parameters() returned objects that are not Parameters (sub-modules, containers or other "
                "values): collect only the Parameters")
    if any(n > 1 for n in Counter(labels).values()):
        return ("parameters() listed the same Parameter twice: it is reachable along two paths (two names, "
                "or a shared sub-module); keep each Parameter once, by identity, over the whole walk")
    if set(labels) < set(want):
        missed = _missed(observe, WHERE)
        if "attributes" in missed and not labels:
            return ("parameters() returned nothing (an empty list), even for a module holding a Parameter "
                    "in an attribute")
        missed = [m for m in missed if m != "attributes"] or _missed(observe, DEEPER)
        if missed:
            places = missed[0] if len(missed) == 1 else f"{', '.join(missed[:-1])} and {missed[-1]}"
            keys = " (in a dict, they are its values; a for loop over a dict gives its keys)" if "dicts" in missed else ""
            return f"parameters() misses the Parameters held in {places}: walk into them too, recursively{keys}"
        return "parameters() misses some Parameters: walk every sub-module, list, tuple and dict, to any depth"
    if sorted(labels) == sorted(want):
        return ("parameters() found the right Parameters in another order: keep attribute order (the order "
                "of self.__dict__), entering a sub-module or container where it appears, depth first")
    return "parameters() returned a wrong list of Parameters"


def check_tree(observe, tree, want=None, early=()):
    r = observe(P.tree_parameters, tree=tree, early=list(early))
    assert r["is_list"], "parameters() must return a list (not a generator, tuple or set)"
    want = reference_labels(tree, early) if want is None else want
    if r["labels"] != want:
        raise AssertionError(walk_message(observe, r["labels"], want))


PARAMETER_ARGUMENTS = ("Parameter must take what a Tensor takes, Parameter(value, dtype=..., requires_grad=...): it is "
                       "a Tensor marked as a parameter, and an __init__ of its own must accept and pass on those arguments")


def check_parameter_arguments(observe):
    """The student's Parameter is made as a Tensor is (Task 4.1)."""
    r = observe(P.parameter_arguments)
    assert r["takes"] and r["is_tensor"] and r["dtype"] == "float64" and r["requires_grad"] is False, PARAMETER_ARGUMENTS


def named_after_parameter_arguments(test):
    """A 4.2 test that fails is failed with 4.1's message when the student's Parameter drops a
    Tensor's arguments (ScaleAdd makes its s and b with dtype=...): one mistake, one message in both
    tasks. Asked only on a failure: a passing test spends no probe on it."""
    @functools.wraps(test)
    def run(observe, *args, **kwargs):
        try:
            return test(observe, *args, **kwargs)
        except Delegated:  # needle's own code reached: that verdict stands
            raise
        except (AssertionError, StudentCodeError):
            check_parameter_arguments(observe)
            raise

    return run


@graded("4.1", points=1)
def test_parameters_direct_attributes(observe):
    """parameters() returns the Parameters held in attributes, as a list; a Parameter is made as a
    Tensor is"""
    check_parameter_arguments(observe)
    check_tree(observe, Mod("root", ["weight", Par("p0")], ["bias", Par("p1")]), ["p0", "p1"])


@graded("4.1", points=1)
def test_parameters_attribute_order(observe):
    """parameters() follows attribute order, depth first"""
    # attributes set in the order z, a, inner (y, b), m: the walk order is p0, p1, p2, p3, p4
    # (self.__dict__ keeps insertion order: no sorting by name)
    tree = Mod("root", ["z", Par("p0")], ["a", Par("p1")],
               ["inner", Mod("m0", ["y", Par("p2")], ["b", Par("p3")])], ["m", Par("p4")])
    check_tree(observe, tree, ["p0", "p1", "p2", "p3", "p4"])
    # a Parameter made before the module (p0, attached second), and one made after it that the module
    # does not hold: the attributes decide, not when the Parameters were made
    check_tree(observe, Mod("root", ["w", Par("p1")], ["v", Ref("p0")], ["b", Par("p2")]), ["p1", "p0", "p2"], early=["p0"])


@graded("4.1", points=2)
def test_parameters_nested_modules(observe):
    """parameters() recurses through nested sub-modules"""
    # three levels: root.enc.l1.{w, b}, root.enc.l2.w, an empty sub-module, then root.head
    tree = Mod("root",
               ["enc", Mod("m2", ["l1", Mod("m0", ["w", Par("p0")], ["b", Par("p1")])],
                           ["l2", Mod("m1", ["w", Par("p2")])])],
               ["empty", Mod("m3")],
               ["head", Par("p3")])
    check_tree(observe, tree, ["p0", "p1", "p2", "p3"])
    r = observe(P.tree_parameters, tree=Mod("root", ["a", Mod("m0", ["b", Mod("m1")])]))
    assert r["is_list"] and r["labels"] == [], "a module tree without Parameters must give an empty list"


@graded("4.1", points=1)
def test_parameters_in_dicts(observe):
    """parameters() looks inside dicts (nested ones too)"""
    # dict values in insertion order: heads.cls (p0), heads.box.w (p1), cfg.inner.deep (p2), bias (p3)
    tree = Mod("root",
               ["heads", Dct(["cls", Par("p0")], ["box", Mod("m0", ["w", Par("p1")])])],
               ["cfg", Dct(["inner", Dct(["deep", Par("p2")])], ["lr", Val(0.1)])],
               ["bias", Par("p3")])
    check_tree(observe, tree, ["p0", "p1", "p2", "p3"])


@graded("4.1", points=2)
def test_parameters_in_lists_and_tuples(observe):
    """parameters() looks inside lists and tuples (nested ones too)"""
    # a Sequential-like list of sub-modules: layers[0].w, layers[1].w, then bias
    check_tree(observe, Mod("root", ["layers", Lst(Mod("m0", ["w", Par("p0")]), Mod("m1", ["w", Par("p1")]))],
                            ["none", Lst()], ["bias", Par("p2")]), ["p0", "p1", "p2"])
    check_tree(observe, Mod("root", ["pair", Tup(Par("p0"), Par("p1"))], ["c", Par("p2")]), ["p0", "p1", "p2"])
    # containers inside containers: a tuple holding a list and a dict holding a tuple
    tree = Mod("root", ["mixed", Tup(Lst(Par("p0"), Mod("m0", ["w", Par("p1")])), Dct(["k", Tup(Par("p2"))]))])
    check_tree(observe, tree, ["p0", "p1", "p2"])


@graded("4.1", points=2)
def test_parameters_shared_once(observe):
    """a shared Parameter (or sub-module) is listed once"""
    # tied weights: the same Parameter object under two names -> listed at its first place only
    check_tree(observe, Mod("root", ["w", Par("p0")], ["w_tied", Ref("p0")], ["b", Par("p1")]), ["p0", "p1"])
    check_tree(observe, Mod("root", ["enc", Mod("m0", ["w", Par("p0")])],
                            ["dec", Mod("m1", ["w_t", Ref("p0")], ["b", Par("p1")])]), ["p0", "p1"])
    check_tree(observe, Mod("root", ["block", Mod("m0", ["w", Par("p0")], ["b", Par("p1")])],
                            ["again", Lst(Ref("m0"), Ref("m0"))], ["c", Par("p2")]), ["p0", "p1", "p2"])


@graded("4.1", points=1)
def test_parameters_ignore_other_attributes(observe):
    """parameters() ignores plain Tensors, numbers, strings, None and arrays"""
    tree = Mod("root", ["t", ["tensor"]], ["w", Par("p0")], ["n", Val(3)], ["lr", Val(0.5)],
               ["name", Val("ScaleAdd")], ["nothing", Val(None)], ["arr", ["array"]],
               ["buffers", Lst(["tensor"], ["tensor"])], ["flag", Val(True)], ["b", Par("p1")])
    check_tree(observe, tree, ["p0", "p1"])
    r = observe(P.tree_parameters, tree=Mod("root", ["t", ["tensor"]], ["s", Val("abc")]))
    assert r["is_list"], "parameters() must return a list (not a generator, tuple or set)"
    if r["labels"]:
        raise AssertionError(walk_message(observe, r["labels"], []))


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


@graded("4.1", points=1)
def test_parameters_random_trees(observe, submission_seed):
    """parameters() matches the reference on random module trees"""
    for tree in random_trees(submission_seed, 30):
        check_tree(observe, tree)


def call_arguments(seed: int) -> tuple[list, dict]:
    """Positional and keyword arguments of several kinds, drawn for one submission."""
    rng = np.random.default_rng([seed, 5])
    args = [int(rng.integers(-9, 10)), ["two", "three", "four"][int(rng.integers(0, 3))], [round(float(rng.normal()), 3)]]
    return args[: int(rng.integers(2, 4))], {["k", "scale", "mode"][int(rng.integers(0, 3))]: int(rng.integers(0, 9))}


@graded("4.1", points=1)
def test_call_runs_forward(observe, submission_seed):
    """module(...) calls forward with the same arguments and returns its result"""
    args, kwargs = call_arguments(submission_seed)
    r = observe(P.call_forward, args=args, kwargs=kwargs)
    if r["call"]["type_error"]:
        one_works = r["one"].get("returned") == ["echo", [0.5], {}]
        raise AssertionError(
            "calling a module with several positional and keyword arguments raised TypeError: __call__ must "
            "accept any arguments and pass all of them on to forward"
            if one_works else "calling a module raised TypeError")
    message = call_message(r["call"], args, kwargs)
    assert not message, message
    r = observe(P.call_forward, args=[], kwargs={})
    message = call_message(r["call"], [], {})
    assert not message, message


# --- Task 4.2: ScaleAdd and MultiPathScaleAdd -----------------------------------------------
NO_SCALE_ADD_PARAMETERS = "ScaleAdd() holds no Parameters: it needs two, s and b"
PLAIN_TENSORS = ("ScaleAdd's s and b are plain Tensors: each must be a Parameter (your class from Task 4.1), the type "
                 "parameters() collects and an optimizer trains")
NO_MULTIPATH_PARAMETERS = "MultiPathScaleAdd() holds no Parameters: its two paths (ScaleAdd modules) hold them"
NOT_FLOAT32 = "ScaleAdd's s and b must be float32, like the inputs: needle does not promote dtypes"
NOT_SHAPE_1 = (
    "ScaleAdd's s and b must have shape (1,), like the input x: needle does not broadcast, so an element-wise op "
    "on x and a parameter needs equal shapes"
)
SEPARATE_PATHS = (
    "path0 and path1 are one ScaleAdd object stored twice: create two separate ScaleAdd() modules, each with "
    "its own Parameters"
)


NO_GRADIENT = "s and b got no gradient: ScaleAdd's output is not computed from self.s and self.b with needle operations"
PASS_ARGUMENTS = "__call__ must pass every positional and keyword argument on to forward unchanged"
SWAPPED = "ScaleAdd's s and b hold each other's initial values: s starts at init_s, b at init_b"
NOT_INITIAL = "ScaleAdd's s and b do not hold their initial values (init_s for s, init_b for b)"
FORWARD = "ScaleAdd.forward gives the wrong value"
JOIN = ("MultiPathScaleAdd joins its paths so that one path's adjoint depends on the other path's output (a product, "
        "say): each path must receive the output's adjoint whole (dh/df0 = dh/df1 = 1), and h = 0 when both give 0")


def call_message(call, args=(0.5,), kwargs=None) -> str:
    """The message for module(*args, **kwargs) not returning forward(*args, **kwargs) (Task 4.1's
    __call__: a forward that echoes its arguments), or ""."""
    if call.get("base_forward"):
        return ("Module's __call__ is Module's own forward (`__call__ = forward` in the class body binds that function "
                "once), so calling any module runs Module.forward, never its subclass's: __call__ must be a method "
                "that looks forward up on the module it is called on")
    if call.get("type_error"):
        return f"calling a module raised TypeError: {PASS_ARGUMENTS}"
    returned = call["returned"]
    if returned == ["echo", list(args), dict(kwargs or {})]:
        return ""
    if isinstance(returned, list):
        return PASS_ARGUMENTS
    if call["forward_ran"]:
        return "__call__ ran forward but did not return what forward returned"
    if returned == "none":
        return "calling a module returned nothing and never ran forward"
    return "calling a module must run its forward method"


def check_scale_add(basics, forward=True):
    """ScaleAdd's Parameters (present, of shape (1,), starting from the arguments) and, with
    ``forward``, its value at one point: what every other Task 4.2 result rests on."""
    assert basics["holds_parameters"] or None in basics["shapes"], PLAIN_TENSORS  # s and b are there, as Tensors
    assert basics["holds_parameters"], NO_SCALE_ADD_PARAMETERS
    assert basics["shapes"] == [[1], [1]], NOT_SHAPE_1
    assert basics["dtypes"] == ["float32", "float32"], NOT_FLOAT32
    s, b = basics["init"]
    assert s is not None and b is not None, "ScaleAdd must store its Parameters as self.s and self.b"
    # one number each (the probe reads them only once ScaleAdd()'s are of shape (1,)): np.allclose
    # of an empty array is vacuously true
    if np.size(s) != 1 or np.size(b) != 1:
        raise ValueError("ScaleAdd(2.5, -0.75)'s s and b are not one number each")
    if np.allclose(s, [-0.75]) and np.allclose(b, [2.5]):
        raise AssertionError(SWAPPED)
    assert np.allclose(s, [2.5]) and np.allclose(b, [-0.75]), NOT_INITIAL
    if forward:
        # ScaleAdd(2.5, -0.75) at x = 2: 2 * 2.5 - 0.75 = 4.25
        assert not basics.get("forward_raised"), "ScaleAdd.forward raised an exception"
        assert basics["forward"] is not None, "ScaleAdd.forward must return a needle Tensor"
        assert basics["forward"].shape == (1,) and np.allclose(basics["forward"], [4.25]), (
            f"{FORWARD}: ScaleAdd(2.5, -0.75) at x = 2 must give 4.25, got {basics['forward']}")


def check_multipath(r):
    """What the multi-path results rest on, one message per cause: Task 4.1's __call__ (the
    paths are called through it), ScaleAdd, then the two separate paths."""
    message = call_message(r["basics"]["call"])
    if message:
        raise AssertionError(f"Task 4.1's Module: {message}; MultiPathScaleAdd calls its paths through it")
    check_scale_add(r["basics"])
    assert r["holds_parameters"], NO_MULTIPATH_PARAMETERS
    assert r["paths_are_scale_add"], "MultiPathScaleAdd needs attributes path0 and path1 that are ScaleAdd modules"
    assert r["distinct_paths"], SEPARATE_PATHS


def check_param(facts, name, value, other):
    assert not facts["missing"], f"ScaleAdd has no attribute {name}: store the Parameter as self.{name}"
    assert facts["is_tensor"] and facts["is_parameter"], (
        f"ScaleAdd.{name} must be a Parameter (your class from Task 4.1), not a plain Tensor or a number"
    )
    assert facts["leaf"] and facts["requires_grad"], f"ScaleAdd.{name} must be a leaf that requires grad"
    assert facts["value"].shape == (1,), NOT_SHAPE_1
    assert facts["dtype"] == "float32", NOT_FLOAT32
    if np.allclose(facts["value"], [other]) and not np.isclose(value, other):
        raise AssertionError(SWAPPED)
    assert_close(facts["value"], [value], NOT_INITIAL)


@graded("4.2", points=1)
@named_after_parameter_arguments
def test_scale_add_parameters(observe, submission_seed):
    """ScaleAdd holds Parameters s and b of shape (1,) with their initial values"""
    s0, b0, b1 = (round(float(v), 2) for v in np.random.default_rng([submission_seed, 20]).uniform(-3, 3, size=3))
    for init, s, b in ((None, 1.0, 0.0),  # defaults: init_s=1, init_b=0
                       ([s0, b0], s0, b0),  # positional: ScaleAdd(init_s, init_b)
                       ({"init_b": b1}, 1.0, b1)):  # keyword, s keeps its default
        f = observe(P.scale_add_facts, init=init)
        assert f["basics"]["holds_parameters"] or None in f["basics"]["shapes"], PLAIN_TENSORS
        assert f["basics"]["holds_parameters"], NO_SCALE_ADD_PARAMETERS
        check_param(f["s"], "s", s, b)
        check_param(f["b"], "b", b, s)
        assert f["distinct"], "s and b must be two different Parameter objects"


@graded("4.2", points=2)
@named_after_parameter_arguments
def test_scale_add_forward_and_gradient(observe, submission_seed):
    """ScaleAdd's value derived from its contract (d/ds = x, d/db = 1, zero at s = b = 0), and its gradients"""
    # out = s x + b;  d out / ds = x;  d out / db = 1
    #   s = 1.5, b = -0.5, x = 3:    out = 4.5 - 0.5 = 4,     ds = 3,    db = 1
    #   s = -2,  b = 0.25, x = -1.5: out = 3 + 0.25 = 3.25,   ds = -1.5, db = 1
    def run(s, b, x, out):
        r = observe(P.scale_add_grad, s=s, b=b, x=x)
        check_scale_add(r["basics"], forward=False)
        assert r["is_tensor"], "ScaleAdd.forward must return a needle Tensor"
        assert not r["returned_input"], "ScaleAdd.forward returned its input x unchanged"
        assert_close(expect_array(r["out"], "ScaleAdd.forward must return a Tensor", shape=(1,)), [out],
                     f"{FORWARD}: ScaleAdd({s:g}, {b:g}) at x = {x:g} must give {out:g}, got {r['out']}")
        assert r["has_graph"] and r["ds"] is not None and r["db"] is not None, NO_GRADIENT
        return r

    for s, b, x, out, ds in ((1.5, -0.5, 3.0, 4.0, 3.0), (-2.0, 0.25, -1.5, 3.25, -1.5)):
        r = run(s, b, x, out)
        assert_close(r["ds"], [ds], f"ScaleAdd's gradient with respect to s is wrong: the scale moves the output by x "
                                    f"per unit (expected {ds:g} at x = {x:g}, got {r['ds']})")
        assert_close(r["db"], [1.0], f"ScaleAdd's gradient with respect to b is wrong: the offset moves the output by 1 "
                                     f"per unit (got {r['db']})")
    # float64 central differences of f(s, b) = s x + b at a point drawn for the submission
    s0, b0, x0 = (float(v) for v in np.random.default_rng([submission_seed, 21]).uniform(-3, 3, size=3))
    s, b, x = f32(s0), f32(b0), f32(x0)
    r = run(s0, b0, x0, s * x + b)
    num = central_differences(lambda t: t[0] * x + t[1], [s, b])
    for got, want in ((r["ds"], num[:1]), (r["db"], num[1:])):  # each of shape (1,), like s and b
        assert_close(got, want, "ScaleAdd's gradients disagree with finite differences", rtol=1e-4, atol=1e-4)


@graded("4.2", points=1)
@named_after_parameter_arguments
def test_multipath_structure(observe, submission_seed):
    """MultiPathScaleAdd has two separate default ScaleAdd paths and combines them as derived"""
    x = round(float(np.random.default_rng([submission_seed, 22]).uniform(-4, 4)), 2)
    r = observe(P.multipath_facts, x=x)
    check_multipath(r)
    assert r["distinct_params"] == 4, "path0 and path1 must have their own Parameters (four in all), not shared ones"
    assert all(v is not None for v in r["values"]), "each path must be a ScaleAdd with its Parameters s and b"
    # path0.s, path0.b, path1.s, path1.b: four Parameters of shape (1,)
    for v, want in zip(r["values"], [1.0, 0.0, 1.0, 0.0], strict=True):
        assert_close(v, [want], "each path must be ScaleAdd() with its defaults (s=1, b=0)")
    # with the defaults h = (1 * x + 0) + (1 * x + 0) = 2x (a product join, f0 f1, gives x^2)
    assert r["out"] is not None, "MultiPathScaleAdd.forward must return a needle Tensor"
    if not np.isclose(x * x, 2 * x) and np.allclose(r["out"], [f32(x) * f32(x)], rtol=1e-5, atol=1e-6):
        raise AssertionError(JOIN)
    assert_close(r["out"], [2 * f32(x)], f"MultiPathScaleAdd.forward gives the wrong value: with the default paths "
                                         f"(each gives x) at x = {x:g} it must give {2 * x:g}, got {r['out']}")


@graded("4.2", points=2)
@named_after_parameter_arguments
def test_multipath_gradient(observe, submission_seed):
    """MultiPathScaleAdd gradients match the hand derivation and finite differences"""
    # L = (h - y)^2, h = (s0 x + b0) + (s1 x + b1):  dL/ds_i = 2 (h - y) x,  dL/db_i = 2 (h - y)
    # (the add passes its adjoint dL/dh to both paths unchanged).
    # The lecture's hand check, s_i = 1, b_i = 0, x = y = 2: h = 2 + 2 = 4, dL/dh = 2 (4 - 2) = 4,
    #   dL/ds_i = 4 * 2 = 8, dL/db_i = 4.
    def grads(r):
        check_multipath(r)
        assert r["h"] is not None, "MultiPathScaleAdd.forward must return a needle Tensor"
        if not any(g is not None for g in r["grads"]):  # ScaleAdd's own fault, or paths forward never used?
            alone = observe(P.scale_add_grad, s=1.0, b=0.0, x=2.0)
            assert alone.get("ds") is None or alone.get("db") is None, (
                "neither path's s and b got a gradient, though a ScaleAdd alone passes one to its own s and b: "
                "MultiPathScaleAdd.forward must compute through self.path0 and self.path1, the modules it holds "
                "(not new ones)")
            raise AssertionError(NO_GRADIENT)
        assert all(g is not None for g in r["grads"]), (
            "one path's s and b got no gradient: forward must use both paths, path0 and path1"
        )
        # path0.s, path0.b, path1.s, path1.b: four gradients of shape (1,)
        if len(r["grads"]) != 4 or any(np.shape(g) != (1,) for g in r["grads"]):
            raise ValueError("the multi-path gradients are not four of shape (1,)")
        return np.concatenate(r["grads"])

    r = observe(P.multipath_grad, x=2.0, y=2.0)
    g = grads(r)
    # a product join h = f0 f1 gives h = 4 here too, but dL/ds_i = 4 x f_other = 16, dL/db_i = 8
    if np.allclose(g, [16.0, 8.0, 16.0, 8.0]):
        raise AssertionError(JOIN)
    assert_close(r["h"], [4.0], f"MultiPathScaleAdd.forward gives the wrong value: with the default paths at x = 2 it "
                                f"must give 4, got {r['h']}")
    assert_close(g, [8.0, 4.0, 8.0, 4.0],
                 "at the lecture's hand check each path must get the gradient derived by hand (one contribution per path)")
    # defaults at x = -1, y = 0.5: h = -2, dL/dh = 2 (-2 - 0.5) = -5: dL/ds_i = -5 * -1 = 5, dL/db_i = -5
    r = observe(P.multipath_grad, x=-1.0, y=0.5)
    assert_close(grads(r), [5.0, -5.0, 5.0, -5.0], "the gradients of the multi-path model are wrong")
    # central differences at non-default paths and points drawn for the submission
    rng = np.random.default_rng([submission_seed, 23])
    for _ in range(2):
        paths, (x, y) = rng.uniform(-2, 2, size=(2, 2)).tolist(), rng.uniform(-2, 2, size=2).tolist()
        r = observe(P.multipath_grad, x=x, y=y, paths=paths)
        xs, ys = f32(x), f32(y)
        theta = f32(np.array(paths).reshape(-1))  # s0, b0, s1, b1
        num = central_differences(lambda t: (t[0] * xs + t[1] + t[2] * xs + t[3] - ys) ** 2, theta)
        assert_close(grads(r), num, "the multi-path gradients disagree with finite differences", rtol=1e-4, atol=1e-4)


# --- Task 4.3: L2Loss -----------------------------------------------------------------------
ELEMENT_WISE = "L2Loss must be element-wise: one loss per element, with the shape of x, not summed or averaged"
SQUARE = ("L2Loss gives the wrong values: the contract's loss is zero where x = y and its gradient with respect to x "
          "is 2 (x - y)")
HALF = ("L2Loss computes half of the lecture's loss: its gradient with respect to x is x - y, and the contract's is "
        "2 (x - y)")
DOUBLED = ("L2Loss computes 2 (x - y), twice the difference: that is the contract's gradient with respect to x, not "
           "the loss whose gradient it is")
NOT_SQUARED = "L2Loss returns the difference x - y (or y - x) itself, whose gradient is 1 or -1, not 2 (x - y): square it"
ABSOLUTE = "L2Loss computes |x - y|, whose gradient with respect to x is the sign of x - y, not 2 (x - y)"
NEGATED = ("L2Loss computes the lecture's loss negated: (x - y) * (y - x) flips the sign, and its gradient with respect "
           "to x is -2 (x - y)")
MEAN = ("L2Loss divides by the number of samples or elements, a mean: the lecture's loss is one loss per element, "
        "with nothing divided; a training loop sums or averages it outside")
NOT_CONNECTED = ("L2Loss's output is not connected to x and y (no gradient reaches them): compute it from the "
                 "Tensors x and y with needle operations, not numpy or detached copies")


def l2_message(out, x, y) -> str:
    """The message for an L2Loss output ``out`` that is not (x - y)^2, by what it is instead (each
    message names the contract, never the formula: it is what the student derives)."""
    d = f32(x) - f32(y)
    for n in sorted({d.shape[0], d.size} - {1, 2}):  # (over 2: halving is HALF's)
        if out.shape == d.shape and np.allclose(out, d ** 2 / n, rtol=1e-4, atol=1e-6):
            return MEAN
    for want, message in ((0.5 * d ** 2, HALF), (2 * d, DOUBLED), (d, NOT_SQUARED), (-d, NOT_SQUARED), (np.abs(d), ABSOLUTE),
                          (-(d ** 2), NEGATED)):
        if out.shape == want.shape and np.allclose(out, want, rtol=1e-4, atol=1e-6):
            return message
    return SQUARE


def check_l2_output(r, x, y):
    """L2Loss(x, y) is (x - y)^2 as a Module's output; else the message of what it is instead."""
    assert r["is_module"], "L2Loss must be a subclass of your Module"
    assert r["is_tensor"], "L2Loss.forward must return a needle Tensor"
    assert not r["returned_input"], "L2Loss.forward returned its input x unchanged"
    out = expect_array(r["out"], "L2Loss.forward must return a Tensor")
    assert out.shape == np.shape(x), ELEMENT_WISE
    if not np.allclose(out, (f32(x) - f32(y)) ** 2, rtol=1e-5, atol=1e-6):
        message = l2_message(out, x, y)
        if message == SQUARE and np.size(x) <= 6:  # the hand case: its input, expected and got
            message += f" (x = {np.ravel(x).tolist()}, y = {np.ravel(y).tolist()}: expected " \
                       f"{np.ravel((f32(x) - f32(y)) ** 2).tolist()}, got {np.ravel(out).tolist()})"
        raise AssertionError(message)
    return out


# The lecture's hand case: x - y = [-2, 0, 1.5], so (x - y)^2 = [4, 0, 2.25]
HAND_X, HAND_Y = [1.0, -2.0, 0.5], [3.0, -2.0, -1.0]


@graded("4.3", points=2)
def test_l2_loss_value(observe, submission_seed):
    """L2Loss is a Module whose element-wise value is the one derived from its contract"""
    r = observe(P.l2_loss, x=HAND_X, y=HAND_Y, w=[1.0, 1.0, 1.0])
    check_l2_output(r, HAND_X, HAND_Y)
    rng = np.random.default_rng([submission_seed, 30])
    shape = tuple(int(n) for n in rng.integers(1, 5, size=2))
    x, y = rng.standard_normal(shape), rng.standard_normal(shape)
    r = observe(P.l2_loss, x=x, y=y, w=np.ones(shape), y_requires_grad=False)
    check_l2_output(r, x, y)


@graded("4.3", points=2)
def test_l2_loss_gradient(observe, submission_seed):
    """L2Loss gradients: 2(x - y) for x and -2(x - y) for y"""
    # d/dx (x - y)^2 = 2 (x - y), d/dy = -2 (x - y); with upstream weights w = [1, 2, -1]
    # and x - y = [-2, 0, 1.5]: dx = 2 (x - y) w = [-4, 0, -3], dy = [4, 0, 3]
    r = observe(P.l2_loss, x=HAND_X, y=HAND_Y, w=[1.0, 2.0, -1.0])
    check_l2_output(r, HAND_X, HAND_Y)
    assert r["connected"] and r["gx"] is not None and r["gy"] is not None, NOT_CONNECTED
    assert_close(r["gx"], [-4.0, 0.0, -3.0], "L2Loss's gradient with respect to x is wrong: the contract's is 2 (x - y)")
    assert_close(r["gy"], [4.0, 0.0, 3.0], "L2Loss's gradient with respect to y is wrong: it is -2 (x - y)")
    # float64 central differences of f(x, y) = sum(w * (x - y)^2), at inputs drawn for the submission
    rng = np.random.default_rng([submission_seed, 31])
    x, y, w = (f32(rng.standard_normal((2, 3))) for _ in range(3))
    r = observe(P.l2_loss, x=x, y=y, w=w)
    check_l2_output(r, x, y)
    assert r["connected"] and r["gx"] is not None and r["gy"] is not None, NOT_CONNECTED
    theta = np.concatenate([x.ravel(), y.ravel()])
    num = central_differences(lambda t: np.sum(w.ravel() * (t[:6] - t[6:]) ** 2), theta)
    for got, want in ((r["gx"], num[:6]), (r["gy"], num[6:])):  # each of x's (and y's) 6 elements
        assert_close(got.ravel(), want, "L2Loss's gradients disagree with finite differences", rtol=1e-4, atol=1e-4)
