"""Hidden tests for 03_stable_softmax (Tasks 3.1 softmax_stable, 3.2 logsumexp_stable,
3.3 the LogSumExp op). References are computed here, in float64.

PYTEST_DONT_REWRITE: the student reads only the assert messages, never pytest's assertion
introspection (which would show hidden values), whichever way the suite was imported.
"""
import math

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from autograder.suite import HYPOTHESIS, assert_close, expect_array, graded, load_probes
from needle.gradcheck import central_differences

P = load_probes(__file__)

# Needle's own implementation of each task (everything in needle/ops/logsumexp.py): a task
# answered with it scores nothing. numpy, and needle's other ops (exp, log, summation,
# broadcast_to, reshape, ...) stay allowed.
OWN_WORK = {
    "3.1": ("softmax_stable", ["needle.ops.logsumexp"]),
    "3.2": ("logsumexp_stable", ["needle.ops.logsumexp"]),
    "3.3": ("LogSumExp op", ["needle.ops.logsumexp"]),
}

SETTINGS = settings(max_examples=30, **HYPOTHESIS)
NEG_INF = -np.inf


# --- float64 references (trusted) ---------------------------------------------------------------
def ref_lse(x, axis=-1, keepdims=False):
    x = np.asarray(x, dtype=np.float64)
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isneginf(m), 0.0, m)
    s = np.sum(np.exp(x - m), axis=axis, keepdims=True)
    with np.errstate(divide="ignore"):
        out = np.log(s) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def ref_softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isneginf(m), 0.0, m)
    e = np.exp(x - m)
    s = np.sum(e, axis=axis, keepdims=True)
    return np.divide(e, s, out=np.zeros_like(e), where=s > 0)  # an all -inf slice: zeros


def rng_array(seed, shape, scale=3.0, dtype=np.float32):
    return (scale * np.random.default_rng(seed).standard_normal(shape)).astype(dtype)


def softmax_of(observe, x, **kw):
    return expect_array(observe(P.softmax, x=x, **kw), "softmax_stable must return a numpy array")


def lse_of(observe, x, **kw):
    return expect_array(observe(P.lse, x=x, **kw), "logsumexp_stable must return a numpy array (or numpy scalar)")


# --- Task 3.1: softmax_stable ------------------------------------------------------------------
@graded("3.1", points=1)
def test_softmax_matches_reference(observe):
    """softmax_stable matches a float64 reference on ordinary inputs"""
    x = rng_array(31, (5, 7))
    got = softmax_of(observe, x)
    assert_close(got, ref_softmax(x), "softmax_stable(x) should be exp(x) / sum(exp(x)) along the last axis (by default)", rtol=1e-5, atol=1e-7)


@graded("3.1", points=1)
def test_softmax_rows_sum_to_one(observe):
    """softmax_stable: every row is a probability vector, at every input scale"""
    for seed, scale in enumerate([0.1, 10.0, 300.0, 5000.0]):
        x = rng_array(100 + seed, (6, 9), scale=scale)
        got = softmax_of(observe, x)
        assert got.shape == x.shape, "softmax_stable must return an array of the input's shape"
        assert np.all(np.isfinite(got)), "softmax_stable produced nan or inf: subtract the row's max before exp"
        assert np.all((got >= 0) & (got <= 1)), "softmax outputs are probabilities: each between 0 and 1"
        assert np.allclose(got.sum(axis=-1), 1.0, atol=1e-5), "each row of softmax_stable must sum to 1"


@graded("3.1", points=2)
def test_softmax_huge_inputs(observe):
    """softmax_stable stays finite and right on huge positive and negative inputs"""
    for row in ([1000.0, 10000.0, 100.0], [100.0, 100.0, 101.0], [88.0, 89.0, 90.0],
                [-1000.0, -1001.0, -1003.0], [3e4, -3e4, 3e4 - 1.0]):
        x = np.array(row, dtype=np.float32)
        got = softmax_of(observe, x)
        assert np.all(np.isfinite(got)), (
            "softmax_stable gave nan or inf on large inputs: exp overflows float32 above about 88.7 "
            "(and underflows to 0 below about -103); subtract the max first"
        )
        assert_close(got, ref_softmax(x), "softmax_stable is wrong on large inputs: exp(x - max) / sum(exp(x - max))", rtol=1e-5, atol=1e-7)


@graded("3.1", points=1)
@SETTINGS
@example(x=[1.0, 2.0, 3.0], c=1000.0)
@example(x=[-5.0, 0.0], c=-1000.0)
@given(
    x=st.lists(st.floats(-20, 20, allow_nan=False, allow_infinity=False), min_size=1, max_size=8),
    c=st.floats(-1e4, 1e4, allow_nan=False, allow_infinity=False),
)
def test_softmax_shift_invariance(observe, x, c):
    """softmax_stable(x + c) equals softmax_stable(x) for any constant c (property test)"""
    x = np.array(x, dtype=np.float64)
    base = softmax_of(observe, x)
    shifted = softmax_of(observe, x + c)
    assert np.all(np.isfinite(shifted)), "softmax_stable(x + c) gave nan or inf for a large constant c: subtract the max before exp"
    assert_close(shifted, base, "softmax_stable(x + c) must equal softmax_stable(x): softmax is shift invariant", rtol=1e-7, atol=1e-9)


@graded("3.1", points=1)
def test_softmax_neg_inf_entries(observe):
    """softmax_stable gives -inf entries probability 0 (masked logits)"""
    x = np.array([[NEG_INF, 0.0, math.log(3.0)], [2.0, NEG_INF, NEG_INF]], dtype=np.float32)
    got = softmax_of(observe, x)
    # row 0: exp = (0, 1, 3) -> (0, 1/4, 3/4); row 1: only one finite entry -> (1, 0, 0)
    want = np.array([[0.0, 0.25, 0.75], [1.0, 0.0, 0.0]])
    assert not np.any(np.isnan(got)), "softmax_stable gave nan on a row with -inf entries: exp(-inf) = 0 is fine, only the max shift must stay finite"
    assert_close(got, want, "an entry equal to -inf must get probability exactly 0, the others share the mass", rtol=1e-5, atol=1e-7)


@graded("3.1", points=1)
def test_softmax_all_neg_inf_row(observe):
    """softmax_stable returns zeros (not nan) on a row that is all -inf"""
    x = rng_array(37, (4, 5))
    x[2] = NEG_INF
    got = softmax_of(observe, x)
    assert not np.any(np.isnan(got)), (
        "softmax_stable gave nan on a row that is all -inf: its max is -inf and -inf - (-inf) = nan; "
        "shift such a row by 0 instead, and return zeros there (no mass to share)"
    )
    assert_close(got, ref_softmax(x), "a row that is all -inf gets zeros; the other rows are unaffected", rtol=1e-5, atol=1e-7)


@graded("3.1", points=1)
def test_softmax_any_axis(observe):
    """softmax_stable works along any axis, negative ones included, and defaults to the last"""
    x = rng_array(41, (3, 4, 5), scale=50.0)
    for axis in (0, 1, 2, -1, -2, -3):
        got = softmax_of(observe, x, axis=axis)
        assert_close(got, ref_softmax(x, axis=axis), "softmax_stable(x, axis) must normalize along `axis` (keep the reduced axis, keepdims=True, when subtracting the max and dividing by the sum)", rtol=1e-5, atol=1e-7)
    square = rng_array(43, (4, 4))
    assert_close(softmax_of(observe, square, axis=-1), ref_softmax(square, axis=-1),
                 "softmax_stable is wrong on a square matrix: the max and the sum need keepdims=True to broadcast along the right axis", rtol=1e-5, atol=1e-7)
    assert_close(softmax_of(observe, square, axis=0), ref_softmax(square, axis=0),
                 "softmax_stable(x, axis=0) must normalize each column", rtol=1e-5, atol=1e-7)


@graded("3.1", points=1)
def test_softmax_keeps_dtype(observe):
    """softmax_stable returns float32 for float32 input and float64 for float64"""
    for dtype in (np.float32, np.float64):
        x = rng_array(47, (3, 6), dtype=dtype)
        got = softmax_of(observe, x)
        assert got.dtype == dtype, f"softmax_stable turned {np.dtype(dtype).name} input into {got.dtype.name}: keep the input's dtype (no float64 constants or casts)"


# --- Task 3.2: logsumexp_stable ----------------------------------------------------------------
@graded("3.2", points=1)
def test_lse_matches_reference(observe):
    """logsumexp_stable matches a float64 reference on ordinary inputs"""
    x = rng_array(53, (6, 8))
    got = lse_of(observe, x)
    assert_close(got, ref_lse(x), "logsumexp_stable(x) should be log(sum(exp(x))) over the last axis (by default), that axis dropped", rtol=1e-5, atol=1e-5)
    v = rng_array(59, (7,))
    assert_close(lse_of(observe, v), ref_lse(v), "logsumexp_stable of a vector is a single number log(sum(exp(x)))", rtol=1e-5, atol=1e-5)


@graded("3.2", points=2)
def test_lse_huge_inputs(observe):
    """logsumexp_stable stays finite and right on huge positive and negative inputs"""
    x = np.array([[1000.0, 10000.0, 100.0], [100.0, 100.0, 101.0], [-1000.0, -1000.0, -1000.0],
                  [3e4, 3e4, -3e4]], dtype=np.float32)
    # row 0: 10000 + log(1 + e^-9000 + e^-9900) = 10000;  row 1: 101 + log(1 + 2/e)
    # row 2: -1000 + log 3 (exp underflows to 0 without the shift);  row 3: 3e4 + log 2
    got = lse_of(observe, x)
    assert np.all(np.isfinite(got)), (
        "logsumexp_stable gave inf or -inf on large inputs: subtract the max m before exp, then add it back: m + log(sum(exp(x - m)))"
    )
    assert_close(got, ref_lse(x), "logsumexp_stable is wrong on large inputs: did you add the max back after the log?", rtol=1e-6, atol=1e-3)


@graded("3.2", points=1)
@SETTINGS
@example(x=[1.0, 2.0, 3.0], c=1000.0)
@example(x=[0.0], c=-1000.0)
@given(
    x=st.lists(st.floats(-20, 20, allow_nan=False, allow_infinity=False), min_size=1, max_size=8),
    c=st.floats(-1e4, 1e4, allow_nan=False, allow_infinity=False),
)
def test_lse_shift_invariance(observe, x, c):
    """logsumexp_stable(x + c) equals logsumexp_stable(x) + c, and lies in [max, max + log n] (property test)"""
    x = np.array(x, dtype=np.float64)
    base = float(lse_of(observe, x))
    shifted = float(lse_of(observe, x + c))
    assert math.isfinite(shifted), "logsumexp_stable(x + c) is not finite for a large constant c: subtract the max before exp"
    assert math.isclose(shifted, base + c, rel_tol=1e-9, abs_tol=1e-8), "logsumexp_stable(x + c) must equal logsumexp_stable(x) + c"
    top = float(np.max(x))
    assert top - 1e-9 <= base <= top + math.log(len(x)) + 1e-9, "log(sum(exp(x))) always lies between max(x) and max(x) + log(n)"


@graded("3.2", points=1)
def test_lse_neg_inf_entries(observe):
    """logsumexp_stable ignores -inf entries (they contribute exp(-inf) = 0)"""
    x = np.array([[NEG_INF, 0.0, 0.0], [NEG_INF, NEG_INF, 5.0]], dtype=np.float32)
    got = lse_of(observe, x)
    # log(0 + 1 + 1) = log 2;  log(e^5) = 5
    assert_close(got, np.array([math.log(2.0), 5.0]), "-inf entries contribute exp(-inf) = 0 to the sum; the result stays finite", rtol=1e-6, atol=1e-6)


@graded("3.2", points=1)
def test_lse_all_neg_inf(observe):
    """logsumexp_stable of a slice that is all -inf is -inf (not nan)"""
    x = rng_array(61, (3, 4))
    x[1] = NEG_INF
    got = lse_of(observe, x)
    assert not np.any(np.isnan(got)), (
        "logsumexp_stable gave nan on a row that is all -inf: -inf - (-inf) = nan; shift such a row by 0, "
        "so the result is log(0) + 0 = -inf"
    )
    assert_close(got, ref_lse(x), "log(sum(exp(x))) of a row that is all -inf is log(0) = -inf; the other rows are unaffected", rtol=1e-5, atol=1e-5)


@graded("3.2", points=2)
def test_lse_axis_and_keepdims(observe):
    """logsumexp_stable works along any axis (negative, tuple) with and without keepdims"""
    x = rng_array(67, (3, 4, 5), scale=40.0)
    for axis in (0, 1, -1, -3, [0, 2]):
        np_axis = tuple(axis) if isinstance(axis, list) else axis
        for keepdims in (False, True):
            want = ref_lse(x, axis=np_axis, keepdims=keepdims)
            got = lse_of(observe, x, axis=axis, keepdims=keepdims)
            assert got.shape == want.shape, (
                "logsumexp_stable has the wrong shape: the reduced axis is dropped, or kept as size 1 with keepdims=True"
            )
            assert_close(got, want, "logsumexp_stable(x, axis, keepdims) is wrong along a non-default axis (keep the max with keepdims=True while you compute)", rtol=1e-5, atol=1e-4)
    got = lse_of(observe, x, axis=1)
    assert got.shape == (3, 5), "keepdims defaults to False: the reduced axis is dropped"


@graded("3.2", points=1)
def test_lse_keeps_dtype(observe):
    """logsumexp_stable returns float32 for float32 input and float64 for float64"""
    for dtype in (np.float32, np.float64):
        x = rng_array(71, (4, 5), dtype=dtype)
        got = lse_of(observe, x)
        assert got.dtype == dtype, f"logsumexp_stable turned {np.dtype(dtype).name} input into {got.dtype.name}: keep the input's dtype"


# --- Task 3.3: the LogSumExp op -----------------------------------------------------------------
def forward(observe, x, **kw):
    out = observe(P.op_forward, x=x, **kw)
    assert out["is_tensor"], "logsumexp(a, axes) must return a needle Tensor: LogSumExp(axes)(a)"
    assert out["made_by_op"], "logsumexp(a, axes) must return LogSumExp(axes)(a), a tensor made by your op (its .op is a LogSumExp)"
    return expect_array(out["value"], "LogSumExp.compute must return a numpy array")


def gradient(observe, x, axes, out_grad):
    out = observe(P.op_gradient, x=x, axes=axes, out_grad=out_grad)
    assert out["has_op"], "logsumexp(a, axes) must return LogSumExp(axes)(a), a tensor with an op (so backward can reach a)"
    assert out["is_tensor"], "LogSumExp.gradient must return a needle Tensor built from needle ops (not a numpy array)"
    grad = expect_array(out["grad"], "LogSumExp.gradient must return a Tensor", shape=np.shape(x))
    assert out["backward_grad"] is not None, "after backward, the input's .grad is missing"
    return grad


@graded("3.3", points=2)
def test_op_forward_axes(observe):
    """logsumexp(a, axes) matches numpy for axes None, an int, a negative int and a tuple"""
    x = rng_array(73, (2, 3, 4))
    for axes in ("default", None, 1, -1, [0, 2], [1, 2]):
        np_axis = None if axes in ("default", None) else tuple(axes) if isinstance(axes, list) else axes
        got = forward(observe, x, axes=axes)
        want = ref_lse(x, axis=np_axis)
        assert got.shape == want.shape, "LogSumExp drops the reduced axes (like summation); axes=None (the default) reduces all of them"
        assert_close(got, want, "LogSumExp.compute should be log(sum(exp(a))) over self.axes", rtol=1e-5, atol=1e-5)


@graded("3.3", points=2)
def test_op_forward_stable(observe):
    """LogSumExp forward: huge inputs stay finite, an all -inf slice gives -inf, float32 stays float32"""
    x = np.array([[1000.0, 10000.0, 100.0], [-1000.0, -1000.0, -1001.0], [NEG_INF, NEG_INF, NEG_INF]], dtype=np.float32)
    got = forward(observe, x, axes=1)
    assert got.dtype == np.float32, "LogSumExp.compute must keep float32 input float32"
    assert not np.any(np.isnan(got)), "LogSumExp gave nan: an all -inf slice must give -inf (shift it by 0, not by its max)"
    assert_close(got, ref_lse(x, axis=1), "LogSumExp.compute is not stable: m + log(sum(exp(a - m))) with m the max over the axes", rtol=1e-6, atol=1e-3)


@graded("3.3", points=2)
def test_op_gradient_hand_derived(observe):
    """LogSumExp gradient equals the hand-derived softmax times out_grad"""
    # lse(x) = log(e^0 + e^ln2 + e^ln3) = log(1 + 2 + 3) = ln 6, and
    # d lse / d x_i = e^{x_i} / sum_j e^{x_j} = (1, 2, 3) / 6.  With out_grad = 2 (a scalar,
    # axes=None) the adjoint is 2 * (1/6, 2/6, 3/6) = (1/3, 2/3, 1).
    x = np.array([0.0, math.log(2.0), math.log(3.0)], dtype=np.float32)
    assert_close(forward(observe, x), np.array(math.log(6.0)), "logsumexp of (0, ln 2, ln 3) is wrong", rtol=1e-6)
    got = gradient(observe, x, axes=None, out_grad=np.array(2.0, dtype=np.float32))
    assert_close(got, np.array([1 / 3, 2 / 3, 1.0]), (
        "LogSumExp.gradient should be out_grad (broadcast back to a's shape) times softmax(a); "
        "did you forget out_grad, or use exp(a) instead of softmax(a)?"
    ), rtol=1e-5, atol=1e-6)
    # Rows reduced separately (axes=1): row 0 as above with out_grad 1 -> (1/6, 2/6, 3/6);
    # row 1 = (ln 4, ln 4, -inf): e^x = (4, 4, 0), softmax = (1/2, 1/2, 0), out_grad 3 -> (3/2, 3/2, 0).
    x2 = np.array([[0.0, math.log(2.0), math.log(3.0)], [math.log(4.0), math.log(4.0), NEG_INF]], dtype=np.float32)
    got = gradient(observe, x2, axes=1, out_grad=np.array([1.0, 3.0], dtype=np.float32))
    assert_close(got, np.array([[1 / 6, 2 / 6, 3 / 6], [1.5, 1.5, 0.0]]), (
        "LogSumExp.gradient over axes=1: each row's out_grad must be broadcast along the reduced axis "
        "(reshape to the kept shape, then broadcast_to), times that row's softmax"
    ), rtol=1e-5, atol=1e-6)


def numeric_gradient(x, axes, out_grad):
    """Central differences of L(x) = sum(out_grad * lse(x, axes)) in float64, every element."""
    return central_differences(lambda v: np.sum(out_grad * ref_lse(v, axis=axes)), x)


@graded("3.3", points=2)
def test_op_gradient_central_differences(observe):
    """LogSumExp gradient matches float64 central differences for several axes"""
    rng = np.random.default_rng(79)
    for shape, axes in (((3, 4), 1), ((3, 4), 0), ((2, 3, 4), [0, 2]), ((2, 3, 4), -2), ((5,), None)):
        x = rng.standard_normal(shape) * 2.0
        np_axis = tuple(axes) if isinstance(axes, list) else axes
        out_grad = rng.standard_normal(np.shape(ref_lse(x, axis=np_axis)))
        got = gradient(observe, x, axes=axes, out_grad=out_grad)
        assert_close(got, numeric_gradient(x, np_axis, out_grad), (
            "LogSumExp.gradient disagrees with central differences: the adjoint is "
            "broadcast_to(reshape(out_grad, kept shape), a.shape) * softmax(a over the reduced axes)"
        ), rtol=1e-5, atol=1e-7)


@graded("3.3", points=1)
def test_op_gradient_huge_inputs(observe):
    """LogSumExp gradient stays finite on huge inputs and keeps float32"""
    x = np.array([[1000.0, 1001.0, 999.0], [-1000.0, -998.0, -1001.0]], dtype=np.float32)
    got = gradient(observe, x, axes=1, out_grad=np.array([1.0, -2.0], dtype=np.float32))
    assert got.dtype == np.float32, "LogSumExp.gradient must keep float32 inputs float32"
    # rtol 1e-3: near 1000 float32 values are 6e-5 apart, so exp(a - lse(a)) is only that accurate
    assert np.all(np.isfinite(got)), "LogSumExp.gradient gave nan or inf on large inputs: compute softmax stably (shift by the max)"
    assert_close(got, np.array([1.0, -2.0])[:, None] * ref_softmax(x, axis=1), "LogSumExp.gradient is wrong on large inputs", rtol=1e-3, atol=1e-6)


@graded("3.3", points=2)
def test_op_gradient_all_neg_inf_slice(observe):
    """LogSumExp gradient of a slice that is all -inf is 0 (not nan)"""
    x = rng_array(83, (3, 4))
    x[0] = NEG_INF
    x[2, 1] = NEG_INF
    out_grad = np.array([1.5, -1.0, 2.0], dtype=np.float32)
    got = gradient(observe, x, axes=1, out_grad=out_grad)
    assert not np.any(np.isnan(got)), (
        "LogSumExp.gradient gave nan on a slice that is all -inf: exp(a - lse) is -inf - (-inf) = nan "
        "there; that slice has no mass, so its gradient is 0"
    )
    assert_close(got, out_grad[:, None].astype(np.float64) * ref_softmax(x, axis=1), (
        "LogSumExp.gradient: an all -inf slice gets 0, a -inf entry gets 0, the rest out_grad * softmax"
    ), rtol=1e-5, atol=1e-6)


@graded("3.3", points=1)
def test_op_gradient_is_differentiable(observe):
    """LogSumExp gradient is built from needle ops: a second backward gives the Hessian"""
    rng = np.random.default_rng(89)
    x = rng.standard_normal(4)
    v = rng.standard_normal(4)
    out = observe(P.op_second_order, x=x, axes=None, out_grad=np.array(1.5), v=v)
    assert out["differentiable"], (
        "the gradient from backward(create_graph=True) is not differentiable: build it from needle ops "
        "on node.inputs[0] (exp, summation, broadcast_to, ...), not from numpy constants"
    )
    p = ref_softmax(x)
    # g = 1.5 * softmax(x); d(sum(g * v))/dx = 1.5 * (diag(p) - p p^T) v = 1.5 * (p * v - p * (p . v))
    want = 1.5 * (p * v - p * np.dot(p, v))
    got = expect_array(out["hvp"], "the second backward left no gradient", shape=x.shape)
    assert_close(got, want, "differentiating LogSumExp.gradient again gives the wrong second derivative", rtol=1e-5, atol=1e-8)
