"""How 06_tensor_tuple's hidden rungs read the probes' reports, on the trusted side.

One mistake, one hint: the probes report what the student's code returned and, for the
gradients, every call of the student's ``gradient`` (the slot adjoints it received and what it
returned). Each check first names what is wrong with those results (``_fused_problem``,
``_split_problem``: zero, one slot only, multiplied, added, wrong axis, reversed, ...: the one
reading that all of them and a calibration call share), then judges the final gradient against
a value derived by hand or float64 central differences.
"""
import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from autograder.suite import HYPOTHESIS, StudentCodeError, load_probes
from needle.gradcheck import central_differences

P = load_probes(__file__)


SETTINGS = settings(max_examples=25, **HYPOTHESIS)


def rng(seed: int) -> np.random.Generator:
    """A generator per test, seeded from the submission's seed plus a fixed offset: results do
    not depend on which tests run, and another submission gets other numbers."""
    return np.random.default_rng(seed)


def close(got, want, rtol=1e-6, atol=1e-8) -> bool:
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    return got.shape == want.shape and bool(np.allclose(got, want, rtol=rtol, atol=atol))


# --- Task 6.1: compute and fused_add_scalars ------------------------------------------------------
FUSED_VALUES = "the two outputs must hold a + c0 and a + c1, in that order"
FUSED_KIND = {
    "iterator": ("compute returned a generator or iterator (a comprehension in parentheses, or map): it is used up once "
                 "read and has no length; a TensorTuple's value is a Python tuple of numpy arrays"),
    "list": "compute returned a list: a TensorTuple's value is a Python tuple of numpy arrays",
    "ndarray": "compute returned one (stacked) array: a TensorTuple's value is a Python tuple of numpy arrays, one per output",
    "none": "compute returned None: it must return the values of the op's outputs",
    "tensortuple": "compute returned a needle value: compute works on numpy arrays and returns a Python tuple of arrays",
    "tensor": "compute returned a needle value: compute works on numpy arrays and returns a Python tuple of arrays",
}
FUSED_DTYPE = "the outputs changed the dtype of the data (float32 must stay float32): add the constants as Python numbers, not as float64 arrays or numpy float64 scalars"
FUSED_DTYPE_FORCED = ("the outputs changed float64 data to float32: keep the data's dtype, whatever it is (add the "
                      "constants as Python numbers, without forcing a dtype)")


def fused_dtype_problem(items, a) -> str | None:
    """The dtype message, by the direction of the change (float64 made float32 is a forced dtype)."""
    if all(item.dtype == a.dtype for item in items):
        return None
    return FUSED_DTYPE_FORCED if a.dtype == np.float64 else FUSED_DTYPE


def _fused_values_problem(items, a, c0, c1) -> str | None:
    """What is wrong with the two output values (None: nothing)."""
    if items is None or len(items) != 2:
        return "the op must have exactly two outputs, whose values hold a + c0 and a + c1"
    a = a.astype(np.float64)
    if close(items[0], a + c0) and close(items[1], a + c1):
        return None
    if c0 != c1 and close(items[0], a + c1) and close(items[1], a + c0):
        return "the two outputs are swapped: " + FUSED_VALUES
    return FUSED_VALUES


COMPUTE_ARRAYS = "each output of compute must be a numpy array (compute works on numpy, not on Tensors)"


def _compute_problem(out, a, c0, c1) -> str | None:
    """What is wrong with compute's result, container, values, then dtype (None: nothing)."""
    if out["kind"] != "tuple":
        return FUSED_KIND.get(out["kind"], "compute must return a Python tuple of two numpy arrays")
    if not out["all_arrays"]:
        return COMPUTE_ARRAYS
    problem = _fused_values_problem(out["items"], a, c0, c1)
    if problem:
        return problem
    if not out["input_unchanged"]:
        return "compute changed its input array: return new arrays, do not add in place"
    return fused_dtype_problem(out["items"], a)


SHAPES_AND_CONSTANTS = [((3,), 1.5, -2.0), ((2, 3), 0.0, 10.0), ((2, 3, 4), -0.25, 0.75), ((1,), 3.0, 3.0)]


def compute_values(observe, submission_seed):
    """compute returns a + c0 and a + c1 for several shapes and constants"""
    r = rng(submission_seed + 51)
    for shape, c0, c1 in SHAPES_AND_CONSTANTS:
        a = r.standard_normal(shape)
        out = observe(P.compute_result, a=a, c0=c0, c1=c1)
        problem = _compute_problem(out, a, c0, c1)
        assert problem is None, problem


def compute_returns_tuple_of_arrays(observe):
    """compute returns a Python tuple of two numpy arrays"""
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = observe(P.compute_result, a=a, c0=1.0, c1=-1.0)
    problem = _compute_problem(out, a, 1.0, -1.0)
    assert problem is None, problem


def compute_keeps_dtype(observe):
    """compute keeps the input's dtype (float32 stays float32, float64 stays float64)"""
    for dtype in (np.float32, np.float64):
        a = np.linspace(-1, 1, 5).astype(dtype)
        out = observe(P.compute_result, a=a, c0=0.1, c1=2.5)
        problem = _compute_problem(out, a, 0.1, 2.5)
        assert problem is None, problem


def _fused_node_problem(out, a, c0, c1) -> str | None:
    """What is wrong with fused_add_scalars' result: the node, its values, its op and input."""
    if out["kind"] in ("tuple", "list") and out["tuple_items"] == "arrays":
        return ("fused_add_scalars returned numpy arrays (compute's values): call your op on the Tensor a, which makes "
                "the TensorTuple graph node and calls compute for you")
    if out["kind"] in ("tuple", "list"):
        return ("fused_add_scalars returned a Python tuple of Tensors (separate nodes): it must return one "
                "TensorTuple node, made by applying your FusedAddScalars op to a")
    if out["kind"] == "none":
        return "fused_add_scalars returned None: it must return the TensorTuple node made by applying your op to a"
    if out["kind"] != "tensortuple":
        return "fused_add_scalars must return a needle TensorTuple, the node made by applying your op to a"
    if not out["input_unchanged"]:
        return "compute changed its input array: return new arrays, do not add in place"
    if out["cached_kind"] == "iterator":  # the op's node holds what compute returned: no len, no items
        return FUSED_KIND["iterator"]
    if out.get("items_not_arrays"):
        return COMPUTE_ARRAYS
    problem = _fused_values_problem(out["items"], a, c0, c1)
    if problem:
        return problem
    if not out["op_is_own"]:
        if out["op_is_make_tuple"]:
            return ("fused_add_scalars packed separate results with make_tuple: the TensorTuple must be made by "
                    "your FusedAddScalars op applied to a (one node)")
        return "the TensorTuple's op must be an instance of your FusedAddScalars class, applied to a"
    if not out["input_is_a"]:
        return "the TensorTuple's only input must be a itself: apply your op to a"
    if not out["items_are_getitem"]:
        return "indexing the result must go through needle's TupleGetItem: return a needle TensorTuple"
    return fused_dtype_problem(out["items"], a)


def fused_add_scalars_makes_one_tensortuple_node(observe):
    """fused_add_scalars returns one TensorTuple node made by your FusedAddScalars"""
    a = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    out = observe(P.fused_result, a=a, c0=0.5, c1=-4.0)
    problem = _fused_node_problem(out, a, 0.5, -4.0)
    assert problem is None, problem


def fused_add_scalars_values_by_indexing(observe, submission_seed):
    """t[0] and t[1] of fused_add_scalars(a, c0, c1) hold a + c0 and a + c1"""
    r = rng(submission_seed + 52)
    for shape, c0, c1 in SHAPES_AND_CONSTANTS[:3]:
        a = r.standard_normal(shape).astype(np.float32)
        out = observe(P.fused_result, a=a, c0=c0, c1=c1)
        problem = _fused_node_problem(out, a, c0, c1)
        assert problem is None, problem


# --- Task 6.2: gradient -----------------------------------------------------------------------------
ONE_ADJOINT = ("your gradient returned several adjoints: gradient returns one adjoint per input, and FusedAddScalars "
               "has one input, a, so it returns one Tensor of a's shape")
FUSED_GRAD_KIND = {
    "tensortuple": ("your gradient returned a TensorTuple (the slot adjoints as they came in): FusedAddScalars has one "
                    "input, a, whose adjoint is one Tensor of a's shape"),
    "tuple": ONE_ADJOINT,
    "list": ONE_ADJOINT,
    "adjoint_count": ONE_ADJOINT,
    "none": "your gradient returned None: return the adjoint of a, a needle Tensor",
    "ndarray": ("your gradient returned a numpy array: build the adjoint with needle ops on the Tensors in out_grad, "
                "so that it is a needle Tensor"),
    "dtype_mismatch": ("your gradient mixes float32 and float64 tensors (needle does not promote dtypes): build it from "
                       "out_grad with needle ops, which keep its dtype"),
    "shape_mismatch": "your gradient combines tensors of different shapes: the adjoint of a has a's shape",
}
FUSED_ZERO = ("your gradient is zero: a feeds both outputs, and each output's adjoint reaches a through the chain rule "
              "(d(a + c)/da is the identity, not zero)")
FUSED_ONE_SLOT = ("your gradient keeps the adjoint of only one slot: a feeds both outputs, so the chain rule collects a "
                  "contribution from each of them")
FUSED_MULTIPLIES = ("your gradient multiplies the slot adjoints: the chain rule adds the contributions of the outputs "
                    "(a product of two adjoints is not a derivative)")
FUSED_AVERAGES = "your gradient averages the slot adjoints: the chain rule adds the contributions of the outputs, it does not average them"
FUSED_SCALES = ("your gradient scales each slot's adjoint by its constant c_k: that is how a * c_k would move with a; "
                "adding a constant shifts an output without changing how it moves with a, so c0 and c1 do not appear "
                "in the adjoint of a")
FUSED_GENERIC = ("wrong adjoint of a: apply the chain rule to both outputs, each with its own Jacobian d(a + c_k)/da, "
                 "and combine their contributions")
FUSED_DETACHED = ("your gradient has no graph: it was computed outside needle's ops (in numpy) and wrapped in a new "
                  "Tensor, so backward(create_graph=True) cannot differentiate it: build it with needle ops on out_grad")
FUSED_GRAD_DTYPE = "the gradient's dtype differs from the data's (float32 must stay float32, float64 float64): build it with needle ops on out_grad, which keep its dtype"


# The calibration input: generic slot adjoints, so that a mistake hidden in a test's own graph
# (where a slot's adjoint is zero, zero and "only one slot" and "multiplies" look alike) is named.
CAL_A, CAL_G0, CAL_G1 = np.array([[0.5, -1.0, 2.0]]), np.array([[1.5, -0.5, 2.5]]), np.array([[-2.0, 3.0, 0.25]])
FUSED_PRIORITY = [("zero", FUSED_ZERO), ("slot0", FUSED_ONE_SLOT), ("slot1", FUSED_ONE_SLOT),
                  ("multiplies", FUSED_MULTIPLIES), ("averages", FUSED_AVERAGES), ("scales", FUSED_SCALES)]
CAL_C = (0.5, -1.0)  # the calibration call's constants


def _fused_hypotheses(out, g0, g1, consts=()):
    """A message when the result alone says what is wrong (its type or shape), else the set of
    readings of the result: "correct", "zero", "slot0", "slot1", "multiplies", "averages", and,
    when the op's constants are known, "scales" (c0 g0 + c1 g1: the Jacobian of a * c_k)."""
    if isinstance(out, str):
        return FUSED_GRAD_KIND.get(out, "your gradient must return a needle Tensor, the adjoint of a")
    g0, g1 = np.asarray(g0, dtype=np.float64), np.asarray(g1, dtype=np.float64)
    if np.shape(out) != g0.shape:
        return "your gradient's result does not have a's shape: the adjoint of a is one Tensor of a's shape"
    readings = {"correct": g0 + g1, "zero": 0.0 * g0, "slot0": g0, "slot1": g1, "multiplies": g0 * g1, "averages": (g0 + g1) / 2}
    if consts:
        readings["scales"] = consts[0] * g0 + consts[1] * g1
    return {name: None for name, want in readings.items() if close(out, want, rtol=1e-5, atol=1e-7)}


def _fused_problem(observe, calls) -> str | None:
    """What is wrong with the student's gradient, from its calls [(out, g0, g1, consts)]: None
    when every result is right; else the one reading all results (and a calibration call) share."""
    readings = []
    for out, g0, g1, consts in calls:
        got = _fused_hypotheses(out, g0, g1, consts)
        if isinstance(got, str):
            return got
        readings.append(got)
    if all("correct" in r for r in readings):
        return None
    cal = _fused_hypotheses(observe(P.direct_gradient, a=CAL_A, g0=CAL_G0, g1=CAL_G1, c0=CAL_C[0], c1=CAL_C[1]),
                            CAL_G0, CAL_G1, CAL_C)
    if isinstance(cal, str):
        return cal
    common = set(cal).intersection(*readings)
    return next((message for name, message in FUSED_PRIORITY if name in common), FUSED_GENERIC)


def _recorded(report) -> list:
    """The (out, g0, g1, consts) of every call of the student's FusedAddScalars.gradient in a probe."""
    return [(c["out"], *c["slots"], tuple(c.get("consts", ()))) for c in report["calls"] if len(c["slots"]) == 2]


def _right(grad, want, dtype, rtol, atol) -> bool:
    """Is x.grad (a value the probe read after backward) the expected array, dtype included?"""
    return (not isinstance(grad, str) and np.shape(grad) == np.shape(want) and grad.dtype == np.dtype(dtype)
            and bool(np.allclose(grad, want, rtol=rtol, atol=atol)))


def numpy_route(message: str, dtype_messages: tuple, no_graph: str, second_order) -> str:
    """``message``, unless it is about the dtype and the gradient has no graph: one computed in numpy
    and wrapped in a new Tensor (float32 by default) also changes the dtype, and is named as the
    numpy route (``no_graph``) in every test. ``second_order()`` runs the create_graph probe."""
    if message not in dtype_messages:
        return message
    result = second_order()["result"]
    return no_graph if isinstance(result, str) and result == "detached" else message


def _unless_built_in_numpy(observe, message: str) -> str:
    return numpy_route(message, (FUSED_GRAD_DTYPE, FUSED_GRAD_KIND["dtype_mismatch"]), FUSED_DETACHED,
                       lambda: observe(P.second_order, x=np.array([0.5, -1.0, 2.0, 0.0]), c0=1.0, c1=-3.0))


def _fused_judged(observe, cases, dtype="float64", rtol=1e-6, atol=1e-6) -> None:
    """Each case (report, want): x.grad after backward must be ``want``. That decides; the
    records of the student's gradient calls (kept in the worker) only name what is wrong."""
    wrong = [(report, want) for report, want in cases if not _right(report["grad"], want, dtype, rtol, atol)]
    if not wrong:
        return
    problem = _fused_problem(observe, [call for report, _ in cases for call in _recorded(report)])
    if problem:
        raise AssertionError(_unless_built_in_numpy(observe, problem))
    grad, want = wrong[0][0]["grad"], wrong[0][1]
    if isinstance(grad, str):
        raise AssertionError(_unless_built_in_numpy(observe, FUSED_GRAD_KIND.get(grad, FUSED_GENERIC)))
    assert np.shape(grad) == np.shape(want), "the gradient of a must have a's shape"
    assert grad.dtype == np.dtype(dtype), _unless_built_in_numpy(observe, FUSED_GRAD_DTYPE)
    raise AssertionError(FUSED_GENERIC)


def gradient_returns_one_tensor(observe, submission_seed):
    """gradient returns one Tensor of a's shape (the adjoint of the single input)"""
    r = rng(submission_seed + 50)
    a, g0, g1 = (r.standard_normal((3, 4)) for _ in range(3))
    problem = _fused_problem(observe, [(observe(P.direct_gradient, a=a, g0=g0, g1=g1, c0=1.0, c1=2.0), g0, g1, (1.0, 2.0))])
    assert problem is None, problem


def gradient_of_given_slot_adjoints(observe, submission_seed):
    """gradient of given slot adjoints (g0, g1), many shapes and values"""

    @SETTINGS
    @given(
        shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4),
        seed=st.integers(0, 2**16),
        c0=st.floats(-5, 5), c1=st.floats(-5, 5),
    )
    def prop(shape, seed, c0, c1):
        r = np.random.default_rng(submission_seed + seed)
        a, g0, g1 = (r.standard_normal(shape) for _ in range(3))
        # d(a + c0)/da = d(a + c1)/da = identity: each slot's adjoint reaches a unchanged, g0 + g1
        problem = _fused_problem(observe, [(observe(P.direct_gradient, a=a, g0=g0, g1=g1, c0=c0, c1=c1), g0, g1, (c0, c1))])
        assert problem is None, problem

    prop()


def gradient_of_product_by_hand(observe):
    """gradient of sum(t[0] * t[1]) checked by hand, in float64 and float32"""
    # L = sum(t0 * t1) = sum((a + c0)(a + c1))
    # dL/da = (a + c1) + (a + c0) = 2a + c0 + c1   (product rule; both slots contribute)
    # a = (1, -2, 0.5), c0 = 3, c1 = -1:  2a + 2 = (4, -2, 3)
    for dtype in ("float64", "float32"):
        report = observe(P.loss_gradient, graph="product", x=np.array([1.0, -2.0, 0.5]), c0=3.0, c1=-1.0, dtype=dtype)
        _fused_judged(observe, [(report, np.array([4.0, -2.0, 3.0]))], dtype)


def gradient_through_one_slot_only(observe, submission_seed):
    """gradient when only t[0] or only t[1] is used (the other slot's adjoint is zeros)"""
    r = rng(submission_seed + 53)
    x = r.standard_normal((2, 3))
    w = r.standard_normal((2, 3))
    # L = sum(w * t1) = sum(w * (a + c1)): dL/da = w (TupleGetItem put zeros in slot 0); same for t0
    reports = [observe(P.loss_gradient, graph="weighted", x=x, c0=0.5, c1=-1.5, **{slot: w}) for slot in ("w1", "w0")]
    _fused_judged(observe, [(report, w) for report in reports], rtol=1e-9, atol=1e-9)


def gradient_slots_used_several_times(observe, submission_seed):
    """gradient when the slots are used several times (checked by central differences)"""
    r = rng(submission_seed + 54)
    x = r.standard_normal((3, 2))
    w0, w1 = r.standard_normal((3, 2)), r.standard_normal((3, 2))
    c0, c1 = 0.7, -1.2

    def loss(a):  # the math of P.build_loss("reuse"): u = t0 used twice, t0 indexed again, t1 twice
        p, q = a + c0, a + c1
        return np.sum(p * p * w0) + np.sum(p * q) + np.sum(q * w1)

    want = central_differences(loss, x)
    report = observe(P.loss_gradient, graph="reuse", x=x, c0=c0, c1=c1, w0=w0, w1=w1)
    _fused_judged(observe, [(report, want)], rtol=1e-5, atol=1e-6)


def gradient_composed_with_other_ops(observe, submission_seed):
    """gradient through a chain: matmul, exp, two fused ops, log (central differences)"""
    r = rng(submission_seed + 55)
    x = r.standard_normal((2, 3)) * 0.5
    W = r.standard_normal((3, 4)) * 0.5
    w0 = r.standard_normal((2, 4))
    c0, c1, c2, c3 = -0.3, 0.4, 1.1, -0.6

    def loss(xv):  # the math of P.build_loss("composed")
        h = xv @ W
        a = np.exp(0.5 * h)
        p, q = a + c0, a + c1
        s0, s1 = p + c2, p + c3
        return np.sum(s0 * s1 * w0) + np.sum(np.log(q)) + np.sum(h * h)

    want = central_differences(loss, x)
    report = observe(P.loss_gradient, graph="composed", x=x, c0=c0, c1=c1, c2=c2, c3=c3, w0=w0, w1=W)
    _fused_judged(observe, [(report, want)], rtol=1e-5, atol=1e-6)


def gradient_is_differentiable(observe):
    """the gradient is built from needle ops (backward(create_graph=True) can differentiate it)"""
    # g = dL/da for L = sum(t0 * t1) is 2a + c0 + c1, so d(sum g)/da = 2 everywhere
    out = observe(P.second_order, x=np.array([0.5, -1.0, 2.0, 0.0]), c0=1.0, c1=-3.0)
    result = out["result"]
    if not isinstance(result, str) and close(result, np.full(4, 2.0), rtol=1e-9, atol=1e-9):
        return
    if isinstance(result, str) and result == "detached":  # built in numpy (its dtype may be off too: this is the one message)
        raise AssertionError(FUSED_DETACHED)
    problem = _fused_problem(observe, _recorded(out))  # the gradient's calls name what is wrong
    if problem:
        raise AssertionError(problem)
    if isinstance(result, str):
        raise AssertionError(FUSED_GRAD_KIND.get(result, FUSED_GENERIC))
    raise AssertionError(FUSED_GENERIC)


# --- Task 6.3: Split and split ---------------------------------------------------------------------
NEGATIVE = " (for a negative axis, which counts from the end as in numpy)"
SPLIT_KIND = {
    "iterator": ("compute returned a generator or iterator (a comprehension in parentheses, or map): it is used up once "
                 "read and has no length; a TensorTuple's value is a Python tuple of numpy arrays"),
    "list": "compute returned a list: a TensorTuple's value is a Python tuple of numpy arrays",
    "ndarray": "compute returned one array: a TensorTuple's value is a Python tuple of numpy arrays, one per slice",
    "none": "compute returned None: it must return the values of the slices",
    "tensortuple": "compute returned a needle value: compute works on numpy arrays and returns a Python tuple of arrays",
    "tensor": "compute returned a needle value: compute works on numpy arrays and returns a Python tuple of arrays",
    "raised": "compute raised an exception",
    "index_error": ("compute raised IndexError (an index out of range): slot i is the slice at index i along axis, "
                    "check which axis your code indexes"),
}
SPLIT_VALUES = "slot i must hold the slice of a at index i along axis"
SPLIT_DTYPE = "the slices changed the dtype of the data: each slice keeps the input's dtype (float32 stays float32, float64 float64)"


def _slices(a, axis):
    return [np.take(a, i, axis=axis) for i in range(a.shape[axis])]


def _split_values_problem(items, a, axis) -> str | None:
    """What is wrong with the slice values (None: nothing). ``axis`` is non-negative."""
    want = _slices(a, axis)
    if items is None or any(item is None for item in items):
        return "each slice must be a numpy array (compute works on numpy, not on Tensors)"
    if len(items) == len(want) and all(close(g, w, 0, 0) for g, w in zip(items, want)):
        return None
    for k in range(a.ndim):
        if k != axis and 0 < len(items) <= a.shape[k] and all(close(g, w, 0, 0) for g, w in zip(items, _slices(a, k))):
            return "your slices are cut along another axis: split along the given axis (slot i is the slice at index i along axis)"
    if len(items) == len(want) and all(g.ndim == a.ndim and g.shape[axis] == 1 and close(np.squeeze(g, axis), w, 0, 0)
                                       for g, w in zip(items, want)):
        return "your slices keep the split axis (with size 1): each slice drops it, so slot i has a's shape without that axis"
    if len(items) == len(want) and all(g.size == w.size and g.shape != w.shape and close(g, w.reshape(g.shape), 0, 0)
                                       for g, w in zip(items, want)):
        return ("your slices have the right values but the wrong shape: drop only the split axis (np.squeeze also "
                "drops every other axis of size 1)")
    if len(items) == len(want) and all(g.shape != w.shape and any(close(g, np.transpose(w, order), 0, 0)
                                                                   for order in itertools.permutations(range(w.ndim)))
                                       for g, w in zip(items, want)):
        return ("your slices have their remaining axes in another order (transposed): slot i is a's slice at index i "
                "along axis, with a's other axes kept in their order (np.swapaxes reorders them)")
    if len(items) != len(want):
        return "there must be one slice per index along axis: a.shape[axis] slots, each a slice of a"
    if len(want) > 1 and all(close(g, w, 0, 0) for g, w in zip(items, want[::-1])):
        return "your slices are in reverse order: " + SPLIT_VALUES
    return SPLIT_VALUES


def _split_compute_problem(out, a, axis) -> str | None:
    if out["kind"] != "tuple":
        return SPLIT_KIND.get(out["kind"], "compute must return a Python tuple of numpy arrays, one per slice")
    problem = _split_values_problem(out["items"], a, axis % a.ndim)
    if problem:
        return problem
    if not out["input_unchanged"]:
        return "compute changed its input array: do not modify a"
    if any(item.dtype != a.dtype for item in out["items"]):
        return SPLIT_DTYPE
    return None


SPLIT_CASES = [((3, 2), 0), ((3, 2), 1), ((2, 3, 4), 0), ((2, 3, 4), 1), ((2, 3, 4), 2), ((4, 1, 3), 0), ((2, 2), 1)]


def split_compute_slices(observe, submission_seed):
    """compute returns the slices along axis for several shapes and axes"""
    r = rng(submission_seed + 61)
    for shape, axis in SPLIT_CASES:
        a = r.standard_normal(shape)
        problem = _split_compute_problem(observe(P.split_compute, a=a, axis=axis), a, axis)
        assert problem is None, problem


def split_compute_returns_tuple_of_arrays(observe):
    """compute returns a Python tuple of numpy arrays and leaves its input alone"""
    a = np.arange(24.0).reshape(4, 3, 2)
    problem = _split_compute_problem(observe(P.split_compute, a=a, axis=1), a, 1)
    assert problem is None, problem


def split_compute_keeps_dtype(observe):
    """compute keeps the input's dtype (float32 stays float32, float64 stays float64)"""
    for dtype in (np.float32, np.float64):
        a = np.linspace(-1, 1, 12).reshape(3, 4).astype(dtype)
        problem = _split_compute_problem(observe(P.split_compute, a=a, axis=1), a, 1)
        assert problem is None, problem


def _split_function_problem(out, a, axis) -> str | None:
    if out["kind"] in ("tuple", "list") and out["tuple_items"] == "arrays":
        return ("split returned numpy arrays (compute's values): call your Split op on the Tensor a, which makes the "
                "TensorTuple graph node and calls compute for you")
    if out["kind"] in ("tuple", "list"):
        return ("split returned a Python tuple of Tensors (separate nodes): it must return one TensorTuple node, "
                "your Split op applied to a")
    if out["kind"] == "none":
        return "split returned None: it must return the TensorTuple node made by applying your Split op to a"
    if out["kind"] == "type_error":
        return ("split raised TypeError: split receives a needle Tensor, not a numpy array; apply your Split op to it "
                "(calling the op makes the node and calls compute with the numpy array)")
    if out["kind"] != "tensortuple":
        return "split must return a needle TensorTuple, the node made by applying your Split op to a"
    if out["cached_kind"] != "tuple":
        return SPLIT_KIND.get(out["cached_kind"], "compute must return a Python tuple of numpy arrays, one per slice")
    problem = _split_values_problem(out["items"], a, axis % a.ndim)
    if problem:
        return problem
    if not out["op_is_own"]:
        return "the TensorTuple's op must be an instance of your Split class (apply your op to a)"
    if not out["input_is_a"]:
        return "the TensorTuple's only input must be a itself: apply your Split op to a"
    if any(item.dtype != a.dtype for item in out["items"]):
        return SPLIT_DTYPE
    return None


def split_function(observe, submission_seed):
    """split(a, axis) returns one TensorTuple node made by your Split, whose slots are the slices"""
    r = rng(submission_seed + 62)
    for shape, axis in [((3, 2), 1), ((2, 3, 2), 0)]:
        a = r.standard_normal(shape).astype(np.float32)
        problem = _split_function_problem(observe(P.split_function, a=a, axis=axis), a, axis)
        assert problem is None, problem


ONE_ADJOINT_SPLIT = ("your gradient returned one adjoint per slot: gradient returns one adjoint per input, and Split "
                     "has one input, a, so it returns one Tensor of a's shape assembled from the slots' adjoints")
SPLIT_GRAD_KIND = {
    "tensortuple": ("your gradient returned a TensorTuple (the slot adjoints as they came in): Split has one input, a, "
                    "whose adjoint is one Tensor of a's shape assembled from the slots' adjoints"),
    "tuple": ONE_ADJOINT_SPLIT,
    "list": ONE_ADJOINT_SPLIT,
    "adjoint_count": ONE_ADJOINT_SPLIT,
    "none": "your gradient returned None: return the adjoint of a, a needle Tensor of a's shape",
    "ndarray": ("your gradient returned a numpy array: build the adjoint with needle ops on the Tensors in out_grad, "
                "so that it is a needle Tensor"),
    "dtype_mismatch": ("your gradient mixes float32 and float64 tensors (needle does not promote dtypes): give every "
                       "constant you build the dtype of out_grad"),
    "shape_mismatch": ("your gradient combines tensors of different shapes (needle never broadcasts implicitly): make "
                       "the shapes agree explicitly (reshape, broadcast_to)"),
    "broadcast_error": ("your gradient broadcasts a tensor to a shape it cannot reach (each axis must match or be 1, new "
                        "axes go in front): a slot's adjoint lacks the split axis, give it back with size 1 first"),
    "reshape_error": "your gradient reshapes a tensor into a shape with another number of elements",
    "raised": "your gradient raised an exception",
}
SPLIT_ADDED = ("your gradient adds the slot adjoints together (as for FusedAddScalars): here each slot is a different "
               "part of a, so slot i's adjoint belongs only at index i along the axis")
SPLIT_OTHER_AXIS = ("your gradient puts the slot adjoints back along another axis: slot i is the slice at index i along "
                    "the split axis, so its adjoint goes back there")
SPLIT_SHAPE = "your gradient's result does not have a's shape: the adjoint of a has a's shape, the split axis included"
SPLIT_ORDER = "your gradient puts the slot adjoints in reverse order: slot i's adjoint belongs at index i along the axis"
SPLIT_ZERO = "your gradient is zero: every slot's adjoint must reach the part of a it came from"
SPLIT_MISSING = ("your gradient leaves some slots out: every slot's adjoint must appear at its own index along the axis "
                 "(out_grad already holds zeros for the slots nobody used)")
SPLIT_GENERIC = ("wrong adjoint of a: each element of a lives in exactly one slice, so its adjoint is that slice's "
                 "adjoint at the same position")
SPLIT_DETACHED = ("your gradient has no graph: it was computed outside needle's ops (in numpy) and wrapped in a new "
                  "Tensor, so backward(create_graph=True) cannot differentiate it: build it with needle ops on out_grad")
SPLIT_GRAD_DTYPE = "the gradient's dtype differs from the data's (float32 must stay float32, float64 float64): give every constant you build the dtype of out_grad"


SPLIT_PRIORITY = [("added", SPLIT_ADDED), ("other_axis", SPLIT_OTHER_AXIS), ("reversed", SPLIT_ORDER),
                  ("zero", SPLIT_ZERO), ("missing", SPLIT_MISSING), ("shape", SPLIT_SHAPE)]
SPLIT_CAL = (np.arange(12.0).reshape(3, 4), 1)  # calibration: a, axis (a generic split into 4 slots)


def _split_hypotheses(out, slots, axis: int):
    """A message when the result's type says what is wrong, else the set of readings of the
    result: "correct", "added", "other_axis", "reversed", "zero", "missing", "shape"."""
    if isinstance(out, str):
        return SPLIT_GRAD_KIND.get(out, "your gradient must return a needle Tensor, the adjoint of a")
    slots = [np.asarray(s, dtype=np.float64) for s in slots]
    want = np.stack(slots, axis)
    readings = set()
    if close(out, want, rtol=1e-5, atol=1e-7):
        readings.add("correct")
    if len(slots) > 1 and close(out, sum(slots)):
        readings.add("added")
    if any(k != axis and close(out, np.stack(slots, k)) for k in range(want.ndim)):
        readings.add("other_axis")
    if np.shape(out) != want.shape:
        return readings | {"shape"}
    if len(slots) > 1 and close(out, np.stack(slots[::-1], axis)):
        readings.add("reversed")
    if close(out, 0.0 * want):
        readings.add("zero")
    pieces = [np.take(out, i, axis=axis) for i in range(len(slots))]
    if all(close(p, s) or close(p, 0.0 * s) for p, s in zip(pieces, slots)):
        readings.add("missing")  # every slice is its slot's adjoint or zeros
    return readings


def _split_problem(observe, calls) -> str | None:
    """What is wrong with the student's Split.gradient, from its calls [(out, slots, axis)]:
    None when every result is right; else the one reading all results and a calibration share."""
    readings = []
    for out, slots, axis in calls:
        got = _split_hypotheses(out, slots, axis)
        if isinstance(got, str):
            return got
        readings.append(got)
    if all("correct" in r for r in readings):
        return None
    a, axis = SPLIT_CAL
    slots = [np.take(a, i, axis=axis) * (i + 1) - 3.0 for i in range(a.shape[axis])]
    cal = _split_hypotheses(observe(P.split_direct_gradient, a=a, axis=axis, slots=slots), slots, axis)
    if isinstance(cal, str):
        return cal
    common = set(cal).intersection(*readings)
    return next((message for name, message in SPLIT_PRIORITY if name in common), SPLIT_GENERIC)


def _split_recorded(report, axes) -> list:
    """(out, slots, axis) of every call of the student's Split.gradient in a probe; ``axes`` gives
    each call's (non-negative) axis, in the order backward visits the Split nodes (last first)."""
    return [(c["out"], c["slots"], axis) for c, axis in zip(report["calls"], axes)]


def _split_unless_built_in_numpy(observe, message: str) -> str:
    x = np.array([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5], [2.0, 1.0, -1.0]])
    return numpy_route(message, (SPLIT_GRAD_DTYPE, SPLIT_GRAD_KIND["dtype_mismatch"]), SPLIT_DETACHED,
                       lambda: observe(P.split_second_order, x=x, axis=0, v=np.ones_like(x)))


def _split_judged(observe, report, want, axes, dtype="float64", rtol=1e-6, atol=1e-6) -> None:
    """x.grad after backward must be ``want``: that decides; the records of the student's
    gradient calls only name what is wrong."""
    grad = report["grad"]
    if _right(grad, want, dtype, rtol, atol):
        return
    problem = _split_problem(observe, _split_recorded(report, axes))
    if problem:
        raise AssertionError(_split_unless_built_in_numpy(observe, problem))
    if isinstance(grad, str):
        raise AssertionError(_split_unless_built_in_numpy(observe, SPLIT_GRAD_KIND.get(grad, SPLIT_GENERIC)))
    assert np.shape(grad) == np.shape(want), SPLIT_SHAPE
    assert grad.dtype == np.dtype(dtype), _split_unless_built_in_numpy(observe, SPLIT_GRAD_DTYPE)
    raise AssertionError(SPLIT_GENERIC)


def split_gradient_of_given_slot_adjoints(observe, submission_seed):
    """gradient of given slot adjoints, many shapes and axes"""

    @SETTINGS
    @given(
        shape=hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=4),
        axis_seed=st.integers(0, 2),
        seed=st.integers(0, 2**16),
    )
    def prop(shape, axis_seed, seed):
        axis = axis_seed % len(shape)
        shape = shape[:axis] + (max(2, shape[axis]),) + shape[axis + 1:]
        r = np.random.default_rng(submission_seed + seed)
        a = r.standard_normal(shape)
        slots = [r.standard_normal(s.shape) for s in _slices(a, axis)]
        # each element of a is in exactly one slice, with Jacobian 1: slot i's adjoint goes back to index i
        problem = _split_problem(observe, [(observe(P.split_direct_gradient, a=a, axis=axis, slots=slots), slots, axis)])
        assert problem is None, problem

    prop()


def split_gradient_by_hand(observe):
    """gradient of sum(t[0] * t[1]) checked by hand for both axes of a 2x2 matrix, float64 and float32"""
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    # axis 0: t0 = (1, 2), t1 = (3, 4); L = sum(t0 * t1) = 1*3 + 2*4
    #   dL/dt0 = t1, dL/dt1 = t0, so dL/da = [[3, 4], [1, 2]] (the rows swapped)
    # axis 1: t0 = (1, 3), t1 = (2, 4); L = 1*2 + 3*4: dL/da = [[2, 1], [4, 3]] (the columns swapped)
    for axis, want in [(0, [[3.0, 4.0], [1.0, 2.0]]), (1, [[2.0, 1.0], [4.0, 3.0]])]:
        for dtype in ("float64", "float32"):
            report = observe(P.split_loss_gradient, graph="product", x=a, axis=axis, dtype=dtype)
            _split_judged(observe, report, np.array(want), [axis], dtype)


def split_gradient_unused_slots(observe, submission_seed):
    """gradient when one slot only is used: the other slices of a get zeros"""
    r = rng(submission_seed + 63)
    x = r.standard_normal((3, 2))
    w = r.standard_normal(2)
    # L = sum(w * t[2]) with t = split(x, 0): dL/dx = [0, 0, w] (rows 0 and 1 unused)
    report = observe(P.split_loss_gradient, graph="one_slot", x=x, axis=0, w0=w, slot=2)
    want = np.stack([np.zeros(2), np.zeros(2), w])
    _split_judged(observe, report, want, [0], rtol=1e-9, atol=1e-9)


def split_gradient_central_differences(observe, submission_seed):
    """gradient in larger graphs (slots reused, split of a split) against float64 central differences"""
    r = rng(submission_seed + 64)
    x = r.standard_normal((2, 3, 4)) * 0.5
    w0, w1 = r.standard_normal((2, 4)), r.standard_normal(4)

    def reuse(xv):  # the math of P.build_split_loss("reuse") with axis 1
        t0, t1, t2 = (xv[:, i, :] for i in range(3))
        return np.sum(t0 * t2 * w0) + np.sum(t2 * t2) + np.sum(t1 * t0) + np.sum(t2)

    report = observe(P.split_loss_gradient, graph="reuse", x=x, axis=1, w0=w0)
    _split_judged(observe, report, central_differences(reuse, x), [1], rtol=1e-5, atol=1e-6)

    def composed(xv):  # the math of P.build_split_loss("composed"): h = exp(x / 2), split along 1, t2 split along 0
        h = np.exp(0.5 * xv)
        t0, t1, t2 = (h[:, i, :] for i in range(3))
        u0, u1 = t2[0], t2[1]
        return np.sum(t0 * t1 * w0) + np.sum(np.log(t2)) + np.sum(u0 * u1) + np.sum(u1 * w1)

    report = observe(P.split_loss_gradient, graph="composed", x=x, axis=1, w0=w0, w1=w1)
    # backward visits the inner split (of t[2], axis 0) before the outer one (axis 1)
    _split_judged(observe, report, central_differences(composed, x), [0, 1], rtol=1e-5, atol=1e-6)


def split_gradient_is_differentiable(observe):
    """the gradient is built from needle ops: its own derivative, by hand"""
    x = np.array([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5], [2.0, 1.0, -1.0]])
    v = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0], [0.25, -2.0, 1.0]])
    # L = sum(t0 * t1) with t = split(x, 0), three rows: g = dL/dx = [x1; x0; 0]
    # S = sum(g * v) = sum(x1 * v0) + sum(x0 * v1), so dS/dx = [v1; v0; 0]
    # (three rows, not two: with two, slots placed in reverse order would be reversed twice and
    # give this right by accident)
    out = observe(P.split_second_order, x=x, axis=0, v=v)
    result = out["result"]
    if not isinstance(result, str) and close(result, np.stack([v[1], v[0], np.zeros(3)]), rtol=1e-9, atol=1e-9):
        return
    if isinstance(result, str) and result == "detached":  # built in numpy (its dtype may be off too: one message)
        raise AssertionError(SPLIT_DETACHED)
    problem = _split_problem(observe, _split_recorded(out, [0]))  # the gradient's calls name what is wrong
    if problem:
        raise AssertionError(problem)
    if isinstance(result, str):
        raise AssertionError(SPLIT_GRAD_KIND.get(result, SPLIT_GENERIC))
    raise AssertionError(SPLIT_GENERIC)


def split_negative_axis(observe, submission_seed):
    """a negative axis counts from the end, in compute and in gradient"""
    r = rng(submission_seed + 65)
    a = r.standard_normal((2, 3, 4))
    for axis in (-1, -2):
        problem = _split_compute_problem(observe(P.split_compute, a=a, axis=axis, catch=True), a, axis)
        if problem:  # said as such only when the same axis counted from the front is right
            same = _split_compute_problem(observe(P.split_compute, a=a, axis=axis % a.ndim, catch=True), a, axis)
            raise AssertionError(problem if same == problem else problem + NEGATIVE)
    slots = [r.standard_normal((2, 3)) for _ in range(4)]

    def gradient_problem(axis, catch=True):
        got = _split_hypotheses(observe(P.split_direct_gradient, a=a, axis=axis, slots=slots, catch=catch), slots, 2)
        if isinstance(got, str) or "correct" in got:
            return None if not isinstance(got, str) else got
        return next((m for n, m in SPLIT_PRIORITY if n in got), SPLIT_GENERIC)

    try:
        problem = gradient_problem(-1)
    except StudentCodeError as exc:  # raised on a line of the student's: shown with that line, and the axis named
        if gradient_problem(2, catch=False) is None:  # when the same axis counted from the front is right
            raise AssertionError(str(exc) + NEGATIVE) from None
        raise
    if problem:
        # the same axis counted from the front, uncaught: an error raised there too is shown with its line
        raise AssertionError(problem if gradient_problem(2, catch=False) == problem else problem + NEGATIVE)
