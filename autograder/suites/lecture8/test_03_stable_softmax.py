"""Hidden tests for 03_stable_softmax (Tasks 3.1 softmax_stable, 3.2 logsumexp_stable,
3.3 the LogSumExp op). References are computed here, in float64.

The tested inputs are drawn per submission from ``submission_seed`` (besides a few fixed cases
derived by hand in a comment); the references are computed here.

One mistake, one hint: a test whose result is wrong asks ``softmax_symptom``, ``lse_symptom``,
``op_symptom`` or ``grad_symptom`` which misconception fits. Each runs the student's code once
more on a few fixed diagnostic inputs (a huge row, rows of very different magnitudes, a small
square matrix and its rows one by one, ...) and returns the message of the first symptom it
recognises; failing that, the message of the first rung of a ladder of fixed checks (ordinary
input, mixed scales, huge inputs, -inf entries, an all -inf slice, another axis) that the code
fails. So a mistake gets the same hint in every test it fails, and the most basic one first; a
test's own message is the last fallback. Every test checks values, so a constant or uniform
answer loses all of them.

PYTEST_DONT_REWRITE: the student reads only the assert messages, never pytest's assertion
introspection (which would show hidden values), whichever way the suite was imported.
"""
import math

import numpy as np
from autograder.suite import Delegated, StudentCodeError, graded, load_probes
from needle.gradcheck import central_differences

P = load_probes(__file__)

# What computes each task's answer, so that a task answered with it scores nothing: needle's own
# implementation (everything in needle/ops/logsumexp.py) and other libraries' functions that do
# the job in one call: numpy's logaddexp and logaddexp2 (their .reduce is a logsumexp, and
# exp(x - lse) a softmax), scipy's and PyTorch's logsumexp and softmax. numpy's other functions
# (max, exp, log, sum, ...) and needle's other ops stay allowed.
LOGSUMEXP = ["needle.ops.logsumexp", "numpy.logaddexp", "numpy.logaddexp2", "scipy.special.logsumexp",
             "scipy.special.softmax", "scipy.special.log_softmax", "torch.logsumexp", "torch.softmax", "torch.log_softmax",
             "torch.nn.functional.softmax", "torch.nn.functional.log_softmax", "sklearn.utils.extmath.softmax"]
OWN_WORK = {
    "3.1": ("softmax_stable", LOGSUMEXP),
    "3.2": ("logsumexp_stable", LOGSUMEXP),
    "3.3": ("LogSumExp op", ["needle.ops.logsumexp"]),
}

# Right answers other than the instructor's, which must keep full marks in the hidden and the
# visible tests: {name: {grade_id: cell source}}. (PyTorch's gradient, out_grad * exp(a - lse(a))
# with the op's own output, is right too except on a slice that is all -inf, where needle has no
# op to avoid -inf - (-inf): the fixture logsumexp_grad_exp_minus_lse_nan, whose hint in every
# failed message proves that it loses that test only, float32 rounding on huge inputs included.)
ACCEPTED = {
    "grad_exp_of_own_log_softmax": {"task3_3_logsumexp_op": '''
class LogSumExp(TensorOp):
    """Task 3.3, the gradient as exp(log-softmax), the log-softmax (a - m) - log(sum) from needle ops."""

    def __init__(self, axes=None):
        self.axes = axes

    def compute(self, a):
        return logsumexp_stable(a, axis=reduced_axes(self.axes, a.ndim))

    def gradient(self, out_grad, node):
        a = node.inputs[0]
        shape = a.shape
        kept = kept_shape(shape, self.axes)
        m = np.max(a.realize_cached_data(), axis=reduced_axes(self.axes, len(shape)), keepdims=True)
        dead = np.isneginf(m)
        m = np.where(dead, 0, m)
        shifted = a - ops.broadcast_to(Tensor.make_const(m), shape)
        total = ops.reshape(ops.summation(ops.exp(shifted), self.axes), kept) + Tensor.make_const(dead.astype(a.dtype))
        log_softmax = shifted - ops.broadcast_to(ops.log(total), shape)
        return ops.broadcast_to(ops.reshape(out_grad, kept), shape) * ops.exp(log_softmax)


def logsumexp(a, axes=None):
    return LogSumExp(axes)(a)
'''},
    "nan_to_num": {"task3_1_softmax_stable": '''
def softmax_stable(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return np.nan_to_num(e / e.sum(axis=axis, keepdims=True))
'''},
    # exp(x - lse(x)), PyTorch's form: right, but float32 rounding of x - lse makes it only about
    # |x| * eps32 accurate (relative) on huge logits; check_softmax allows for that
    "softmax_exp_minus_lse": {"task3_1_softmax_stable": '''
def softmax_stable(x, axis=-1):
    x = np.asarray(x)
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    with np.errstate(divide="ignore"):
        lse = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    with np.errstate(invalid="ignore"):
        p = np.exp(x - lse)
    return np.where(np.isneginf(lse), 0, p).astype(x.dtype)
'''},
    "softmax_via_own_lse": {"task3_1_softmax_stable": '''
def softmax_stable(x, axis=-1):
    x = np.asarray(x)
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    s = np.sum(np.exp(x - m), axis=axis, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.exp((x - m) - np.log(s))
    return np.where(s > 0, out, 0).astype(x.dtype)
'''},
}

NEG_INF = -np.inf
LN2, LN3 = math.log(2.0), math.log(3.0)


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
    """Fixed diagnostic values (``seed`` an int) or a submission's hidden ones ([seed, k])."""
    return (scale * np.random.default_rng(seed).standard_normal(shape)).astype(dtype)


def close(got, want, rtol=1e-5, atol=1e-6) -> bool:
    """``got`` (plain data from a probe) is a numeric array equal to ``want`` up to tolerance:
    same shape, nan and inf at the same places."""
    if not isinstance(got, np.ndarray) or got.dtype.kind not in "biuf":
        return False
    want = np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        return False
    got = got.astype(np.float64)
    same = (np.isnan(got) == np.isnan(want)) & (np.isposinf(got) == np.isposinf(want)) & (np.isneginf(got) == np.isneginf(want))
    finite = np.isfinite(want)
    return bool(same.all() and np.allclose(got[finite], want[finite], rtol=rtol, atol=atol))


def float_rtol(x, rtol: float) -> float:
    """``rtol``, or more for logits of large magnitude: an input of size |x| is known to about
    |x| * eps of its dtype, and a right exp(x - c) turns that rounding of the exponent (x - lse
    rounded to float32, PyTorch's exp(x - lse(x))) into the same relative error of the result;
    measured at most 1.5 |x| eps, so 4 |x| eps is a safe floor. A mistake (no shift, a shift by
    the min, a wrong axis, ...) is off by far more, or gives nan."""
    x = np.asarray(x)
    if x.dtype.kind != "f":
        return rtol
    values = np.abs(x[np.isfinite(x)].astype(np.float64))
    return max(rtol, 4 * float(np.finfo(x.dtype).eps) * float(values.max(initial=0.0)))


def finite(got) -> bool:
    return isinstance(got, np.ndarray) and got.dtype.kind in "biuf" and bool(np.all(np.isfinite(got)))


def nonfinite(got) -> bool:
    """A numeric result with nan or inf in it (an exception or a non-array is neither)."""
    return isinstance(got, np.ndarray) and got.dtype.kind in "biuf" and not bool(np.all(np.isfinite(got)))


def same_array(a, b) -> bool:
    """The same values, nan and inf included (a probe's copy of an input against the original)."""
    return isinstance(a, np.ndarray) and a.shape == np.shape(b) and bool(np.array_equal(a, b, equal_nan=True))


# --- what the student reads: one message per misconception ---------------------------------------
# (each names the mistake; none gives a line of the solution, a hidden input or a hidden value)
SM_TRIVIAL = ("softmax_stable gives every entry of a slice the same probability: its result does not depend on the "
              "input's values (a larger logit must get a larger probability)")
SM_LOG = ("softmax_stable returns log-probabilities, x - max - log(sum(exp(x - max))) (all <= 0): softmax is their "
          "exp, exp(x - max) / sum(exp(x - max))")
SM_NORMALIZE = ("softmax_stable's probabilities do not sum to 1: after exponentiating the shifted logits, divide by "
                "their sum along the axis")
SM_SHIFT = ("softmax_stable gave nan or inf: exp overflows float32 above about 88.72 and underflows to 0 below about "
            "-103.97, so exp(x) / sum(exp(x)) breaks on large logits; subtract the max before exp")
SM_SPREAD = ("softmax_stable gave nan or inf on a row whose logits lie far apart (such as 300 and -300): its shift "
             "leaves exponents above about 88.72, where exp overflows float32 (a shift by the min leaves exponents as "
             "large as the row's range); the shift must make every exponent <= 0: subtract the max")
SM_OWN_MAX = ("softmax_stable is wrong on the rows of a matrix whose values are far below the largest value of the "
              "whole array: shift each slice by its own max (along `axis`), not by the max of the whole array")
SM_WHOLE_SUM = ("softmax_stable divides by the sum over the whole array: each slice is normalized by its own sum "
                "along `axis`, so that each slice sums to 1")
SM_KEEPDIMS = ("softmax_stable is right on each row alone but wrong (or raises) on a matrix: the max and the sum of a "
               "slice must line up with that slice; reduce them with keepdims=True so they broadcast back along `axis`")
SM_ALL_NEG_INF = ("softmax_stable gave nan on a slice that is all -inf: its max is -inf and -inf - (-inf) = nan; shift "
                  "such a slice by 0 instead, and return zeros there (it has no mass to share)")
SM_AXIS = "softmax_stable ignores its `axis` argument: normalize along `axis` (the last one only by default)"
SM_DTYPE = ("softmax_stable changed the dtype: keep the input's dtype (float32 stays float32, float64 stays float64): "
            "no casts (astype, np.float32(...), dtype=...)")
SM_IN_PLACE = ("softmax_stable changed the caller's array: `x -= ...` (or x[...] = ...) writes into the array it was "
               "given; compute new arrays instead (x - m)")

LSE_TRIVIAL = "logsumexp_stable returns the same value for different inputs: its result does not depend on the input"
LSE_ADD_BACK = ("logsumexp_stable is off by exactly the max: log(sum(exp(x - m))) is lse(x) - m; add the max back "
                "after the log")
LSE_SOFT_MAX = ("logsumexp_stable returns the max itself: log-sum-exp is a soft maximum, the max plus the log of the "
                "sum of the shifted exponentials (between 0 and log n)")
LSE_SHIFT = ("logsumexp_stable gave inf or -inf on large (or very negative) inputs: exp overflows (or underflows to 0) "
             "first; subtract the max before exp, then add it back after the log")
LSE_OWN_MAX = ("logsumexp_stable gave -inf on the rows of a matrix whose values are far below the largest value of "
               "the whole array: shift each slice by its own max (along `axis`), not by the max of the whole array")
LSE_WHOLE_SUM = ("logsumexp_stable sums over the whole array: each slice has its own log-sum-exp, a sum along "
                 "`axis` only")
LSE_KEEPDIMS = ("logsumexp_stable is right on each row alone but wrong (or raises) on a matrix: compute the max with "
                "keepdims=True so it lines up with its slice when you subtract it and add it back")
LSE_KEEPDIMS_ARG = ("logsumexp_stable ignores its keepdims argument: with keepdims=True the reduced axes stay as size 1, "
                    "with keepdims=False (the default) they are dropped")
LSE_MAX_KEPT = ("logsumexp_stable adds the max, kept with keepdims=True, to a sum whose axis was dropped: numpy "
                "broadcasts the two into every max plus every log-sum (3 rows give a 3 x 3 result); the max must "
                "keep or drop the reduced axes as the sum does before it is added back")
LSE_SQUEEZE = ("logsumexp_stable dropped an axis it did not reduce (an input axis of size 1): drop only the reduced "
               "axes")
LSE_ALL_NEG_INF = ("logsumexp_stable gave nan on a slice that is all -inf: -inf - (-inf) = nan; shift such a slice by "
                   "0, so its result is log(0) = -inf")
LSE_AXIS = "logsumexp_stable ignores its `axis` argument: reduce along `axis` (the last one only by default)"
LSE_DTYPE = ("logsumexp_stable changed the dtype: keep the input's dtype (float32 stays float32, float64 stays "
             "float64): no casts (astype, np.float32(...), dtype=...)")
LSE_IN_PLACE = ("logsumexp_stable changed the caller's array: `x -= ...` (or x[...] = ...) writes into the array it "
                "was given; compute new arrays instead (x - m)")

OP_NOT_OP = ("logsumexp(a, axes) must return a needle Tensor made by your LogSumExp op (its .op is a LogSumExp), the "
             "way needle's summation returns a Tensor made by Summation")
OP_TRIVIAL = "LogSumExp's forward returns the same value for different inputs: its result does not depend on the input"
OP_ADD_BACK = ("LogSumExp's forward is off by exactly the max: log(sum(exp(a - m))) is lse(a) - m; add the max back "
               "after the log (in your logsumexp_stable, if compute uses it)")
OP_SOFT_MAX = ("LogSumExp's forward returns the max itself: log-sum-exp is a soft maximum, the max plus the log of "
               "the sum of the shifted exponentials")
OP_SHIFT = ("LogSumExp's forward gave inf or -inf on large (or very negative) inputs: compute must subtract the max "
            "before exp and add it back after the log")
OP_OWN_MAX = ("LogSumExp's forward gave -inf on slices whose values are far below the largest value of the whole "
              "array: shift each slice by its own max over the reduced axes (in your logsumexp_stable, if compute "
              "uses it)")
OP_KEEPDIMS = ("LogSumExp's forward is right on each row alone but wrong (or raises) on a matrix: compute the max "
               "with keepdims=True so it lines up with its slice (in your logsumexp_stable, if compute uses it)")
OP_WHOLE_SUM = ("LogSumExp's forward sums over the whole array: each slice has its own log-sum-exp, a sum over the "
                "reduced axes only (in your logsumexp_stable, if compute uses it)")
OP_DROP = ("LogSumExp's forward keeps the reduced axes: like summation, it drops them (axes=None reduces all of "
           "them to a single number; in your logsumexp_stable too, if compute uses it)")
OP_MAX_KEPT = ("LogSumExp's forward adds the max, kept with keepdims=True, to a sum whose axes were dropped: numpy "
               "broadcasts the two into every max plus every log-sum; the max must drop the reduced axes as the sum "
               "does before it is added back (in your logsumexp_stable, if compute uses it)")
OP_WRAPPER_AXES = ("logsumexp(a, axes) ignores its axes: it reduces every axis whatever axes says; make the op with "
                   "them, LogSumExp(axes)")
OP_COMPUTE_AXES = ("LogSumExp.compute ignores self.axes: it reduces every axis whatever the op was made with; reduce "
                   "over reduced_axes(self.axes, a.ndim)")
OP_ALL_NEG_INF = ("LogSumExp gave nan on a slice that is all -inf: its result is log(0) = -inf; shift such a slice "
                  "by 0, not by its max (-inf - (-inf) = nan)")
OP_DTYPE = "LogSumExp changed the dtype: float32 in, float32 out (and float64 stays float64)"

GRAD_NOT_TENSOR = "LogSumExp.gradient must return a needle Tensor built from needle ops (not a numpy array)"
GRAD_TRIVIAL = ("LogSumExp.gradient gives every entry the same adjoint: its result does not depend on the input "
                "(d lse / da_i is the share of e^(a_i) in the sum)")
GRAD_EXP = ("LogSumExp.gradient uses exp(a), the derivative of exp alone: the derivative of log(s) is (ds) / s, "
            "so the chain rule divides by the sum of exponentials, which makes it softmax(a)")
GRAD_OUT_GRAD = ("LogSumExp.gradient returns softmax(a) alone: the chain rule needs the adjoint of the output too; "
                 "multiply by out_grad (broadcast back to a's shape)")
GRAD_AXES_KINDS = ("LogSumExp.gradient raises unless self.axes is a tuple: self.axes may also be None (every axis) "
                   "or a single int; turn it into a tuple of axes before you loop over it or index with it "
                   "(reduced_axes(self.axes, ndim) does; kept_shape(a.shape, self.axes) takes all three forms)")
GRAD_KEPT_SHAPE = ("LogSumExp.gradient mixes up shapes (it raises, or is wrong once an axis is reduced): a reduced "
                   "tensor (out_grad, or the op's own output) has the reduced axes dropped; give them back as size-1 "
                   "axes (the kept shape) before broadcasting it to a's shape")
GRAD_AXES = ("LogSumExp.gradient normalizes over every axis whatever self.axes is: the softmax of the gradient runs "
             "over the reduced axes only (sum over self.axes, then reshape to the kept shape)")
GRAD_SHIFT = ("LogSumExp.gradient gave nan or inf on large inputs: exp(a) overflows before you divide; compute the "
              "softmax with a shift by the max (a constant)")
GRAD_NO_MASS = ("LogSumExp.gradient gave nan on a slice that is all -inf: that slice has no mass, so its gradient is 0 "
                "(there -inf - (-inf) and 0 / 0 are nan)")
GRAD_NEEDLE_OPS = ("the gradient from backward(create_graph=True) is not differentiable: build it from needle ops on "
                   "node.inputs[0] itself (exp, summation, broadcast_to, ...), not from a detached input or from numpy "
                   "arrays wrapped as constants")
GRAD_DTYPE = "LogSumExp.gradient must keep float32 inputs float32"


def fail(message: str, symptom) -> None:
    """Fail with the diagnosed symptom's message, or else the test's own."""
    try:
        hint = symptom()
    except StudentCodeError:
        raise
    except Exception:  # a result too odd for the diagnosis: the test's own message
        hint = None
    assert False, hint or message


def diagnosed(observe, probe, symptom, **params):
    """``observe(probe, **params)``; if the student's code raised, the message says which
    misconception the diagnostic inputs point to (a shape mismatch from a missing keepdims, ...)."""
    try:
        return observe(probe, **params)
    except Delegated:
        raise
    except StudentCodeError as exc:
        if not str(exc).startswith("your code raised") or "NotImplementedError" in str(exc):
            raise
        try:
            hint = symptom()
        except Delegated:
            raise
        except Exception:
            hint = None
        if hint is None:
            raise
        raise AssertionError(f"{exc}: {hint}") from None


def ladder(results, rungs, inputs=None) -> str | None:
    """The message of the first rung (basic to advanced) whose diagnostic result is wrong: a
    mistake no misconception above recognises still reads the same in every test it fails.
    ``inputs`` (one per rung): the rtol grows with their magnitude (``float_rtol``)."""
    inputs = inputs or [None] * len(rungs)
    for got, (message, want), x in zip(results, rungs, inputs):
        rtol = 1e-5 if x is None else float_rtol(x, 1e-5)
        if not close(got, want, rtol=rtol, atol=1e-5):
            return message
    return None


# --- diagnostic inputs (fixed; never shown to the student) ----------------------------------------
SQUARE = np.array([[0.0, 1.0, 2.0], [2.0, 0.0, 1.0], [0.0, 0.0, 3.0]], dtype=np.float32)
SMALL = np.array([0.0, LN2, LN3], dtype=np.float32)          # lse = ln 6, softmax = (1, 2, 3) / 6
HUGE = np.array([1000.0, 1001.0, 999.0], dtype=np.float32)   # exp overflows float32
TINY = np.array([-1000.0, -1000.0, -1001.0], dtype=np.float32)  # exp underflows to 0
MIXED = np.array([[0.0, 1.0, 2.0], [1000.0, 1001.0, 1002.0], [500.0, 501.0, 502.0]], dtype=np.float32)
DEAD = np.array([[0.0, 1.0, NEG_INF], [NEG_INF, NEG_INF, NEG_INF]], dtype=np.float32)
RECT = rng_array(7, (3, 4))
ORDINARY = rng_array(31, (5, 7))
SPREAD = np.array([300.0, 250.0, -300.0], dtype=np.float32)  # a shift by anything but the max overflows
SCALES = np.array([[0.1, -0.2, 0.3], [30.0, -20.0, 10.0], [300.0, 250.0, -300.0]], dtype=np.float32)
MASKED = np.array([[NEG_INF, 0.0, LN3], [2.0, NEG_INF, NEG_INF]], dtype=np.float32)
SM_RUNGS = [  # (message, case, reference): basic to advanced
    ("softmax_stable(x) should be exp(x) / sum(exp(x)) along the last axis (by default)", {"x": ORDINARY}, ref_softmax(ORDINARY)),
    ("softmax_stable is wrong on a matrix of logits: each row is its own probability vector", {"x": SCALES}, ref_softmax(SCALES)),
    ("softmax_stable is wrong on large inputs", {"x": MIXED}, ref_softmax(MIXED)),
    ("an entry equal to -inf must get probability exactly 0, the others share the mass", {"x": MASKED}, ref_softmax(MASKED)),
    ("a row that is all -inf gets zeros (no mass to share); the other rows are unaffected", {"x": DEAD}, ref_softmax(DEAD)),
    ("softmax_stable(x, axis) must normalize along `axis`", {"x": RECT, "axis": 0}, ref_softmax(RECT, axis=0)),
]


def softmax_symptom(observe):
    """The message of the first misconception the student's softmax_stable shows on the
    diagnostic inputs (then of the first rung of the ladder it fails), or None."""
    cases = [{"x": SQUARE}, {"x": SQUARE[0]}, {"x": SQUARE[1]}, {"x": SQUARE[2]}, {"x": SMALL}, {"x": HUGE}, {"x": TINY},
             {"x": MIXED}, {"x": DEAD}, {"x": RECT, "axis": 0}, {"x": SQUARE.astype(np.float64)}, {"x": SPREAD}]
    results = observe(P.softmax_cases, cases=cases + [case for _, case, _ in SM_RUNGS])
    sq, r0, r1, r2, small, huge, tiny, mixed, dead, axis0, sq64, spread = results[:len(cases)]
    if finite(sq) and sq.shape == SQUARE.shape and np.allclose(np.ptp(sq, axis=-1), 0):
        return SM_TRIVIAL
    shifted = SQUARE - SQUARE.max(axis=-1, keepdims=True)
    if close(sq, np.log(ref_softmax(SQUARE))) or close(small, np.log(ref_softmax(SMALL))):
        return SM_LOG
    if close(sq, np.exp(shifted)) or close(sq, np.exp(SQUARE)) or close(small, np.exp(SMALL - SMALL.max())):
        return SM_NORMALIZE
    if nonfinite(huge) or nonfinite(tiny):
        return SM_SHIFT
    # HUGE and TINY span 2: a shift by the min (or the mean) is fine there, not on a row spanning 600
    if nonfinite(spread):
        return SM_SPREAD
    # [0, 1, 2] alone is right, and so is the row [1000, 1001, 1002] in MIXED, but [0, 1, 2] there is not
    if close(r0, ref_softmax(SQUARE[0])) and isinstance(mixed, np.ndarray) and mixed.shape == MIXED.shape \
            and close(mixed[1], ref_softmax(MIXED[1])) and not close(mixed[0], ref_softmax(MIXED[0])):
        return SM_OWN_MAX
    rows_right = all(close(r, ref_softmax(row)) for r, row in zip((r0, r1, r2), SQUARE))
    e = np.exp(shifted)
    if rows_right and (close(sq, e / e.sum()) or close(sq, np.exp(SQUARE - SQUARE.max()) / np.exp(SQUARE - SQUARE.max()).sum())):
        return SM_WHOLE_SUM
    if rows_right and not close(sq, ref_softmax(SQUARE)):
        return SM_KEEPDIMS
    if isinstance(dead, np.ndarray) and dead.shape == DEAD.shape and np.isnan(dead[1]).any() \
            and close(dead[0], ref_softmax(DEAD[0])):
        return SM_ALL_NEG_INF
    if close(axis0, ref_softmax(RECT, axis=-1)):
        return SM_AXIS
    if any(isinstance(r, np.ndarray) and r.dtype != want for r, want in ((sq, np.float32), (sq64, np.float64))):
        return SM_DTYPE
    return ladder(results[len(cases):], [(message, want) for message, _, want in SM_RUNGS],
                  [case["x"] for _, case, _ in SM_RUNGS])


def check_softmax(observe, x, message, *, axis=None, rtol=1e-5, atol=1e-7):
    """softmax_stable(x) (along ``axis``; None: the default) equals the float64 reference; else
    the message of its symptom. Returns the student's result (and, in place of the second value,
    the probe's copy of x afterwards)."""
    symptom = lambda: softmax_symptom(observe)  # noqa: E731
    kw = {} if axis is None else {"axis": axis}
    r = diagnosed(observe, P.softmax, symptom, x=x, **kw)
    got = r["out"]
    if not isinstance(got, np.ndarray) or got.dtype.kind not in "biuf":
        fail("softmax_stable must return a numpy array", symptom)
    if got.dtype != np.asarray(x).dtype:
        fail(SM_DTYPE, symptom)
    if not close(got, ref_softmax(x, axis=-1 if axis is None else axis), float_rtol(x, rtol), atol):
        fail(message, symptom)
    return got, r["x_after"]


def sums_whole_array(got) -> bool:
    """``got``, a log-sum-exp of each row of SQUARE, minus each row's max is the same number for
    every row: the sum ran over the whole array, log(sum of every row's shifted exponentials)."""
    row_max = SQUARE.max(axis=-1).astype(np.float64)
    return isinstance(got, np.ndarray) and got.shape == (3,) and finite(got) and np.ptp(got - row_max) < 1e-5


ONE_ROW = np.zeros((1, 3), dtype=np.float32)
LSE_RUNGS = [  # (message, case, reference): basic to advanced
    ("logsumexp_stable(x) should be log(sum(exp(x))) over the last axis (by default), that axis dropped",
     {"x": ORDINARY}, ref_lse(ORDINARY)),
    ("logsumexp_stable is wrong on large inputs", {"x": MIXED}, ref_lse(MIXED)),
    ("-inf entries contribute exp(-inf) = 0 to the sum; the result stays finite", {"x": MASKED}, ref_lse(MASKED)),
    ("log(sum(exp(x))) of a row that is all -inf is log(0) = -inf; the other rows are unaffected", {"x": DEAD}, ref_lse(DEAD)),
    ("logsumexp_stable(x, axis, keepdims) is wrong along a non-default axis: reduce over `axis`, dropping it unless "
     "keepdims=True", {"x": RECT, "axis": 0}, ref_lse(RECT, axis=0)),
    ("logsumexp_stable(x, axis, keepdims) is wrong along a non-default axis: reduce over `axis`, dropping it unless "
     "keepdims=True", {"x": RECT, "axis": [0, 1], "keepdims": True}, ref_lse(RECT, axis=(0, 1), keepdims=True)),
]


def max_kept(result) -> bool:
    """Whether a row-wise log-sum-exp of SQUARE came out as every row's max plus every row's log-sum
    (the max kept as a column, the sum's axis dropped, added: a 3 x 3 table)."""
    m = SQUARE.max(-1).astype(np.float64)
    return isinstance(result, np.ndarray) and result.shape == (3, 3) and close(result, m[:, None] + (ref_lse(SQUARE) - m)[None, :])


def lse_symptom(observe):
    """The message of the first misconception the student's logsumexp_stable shows on the
    diagnostic inputs (then of the first rung of the ladder it fails), or None."""
    cases = [{"x": SMALL}, {"x": HUGE}, {"x": TINY}, {"x": MIXED}, {"x": SQUARE}, {"x": SQUARE[0]}, {"x": SQUARE[1]},
             {"x": SQUARE[2]}, {"x": SQUARE, "keepdims": True}, {"x": ONE_ROW}, {"x": DEAD}, {"x": SQUARE, "axis": 0},
             {"x": SQUARE.astype(np.float64)}]
    results = observe(P.lse_cases, cases=cases + [case for _, case, _ in LSE_RUNGS])
    small, huge, tiny, mixed, sq, r0, r1, r2, sq_kept, one_row, dead, axis0, sq64 = results[:len(cases)]
    if finite(small) and finite(tiny) and small.size == tiny.size == 1 and small.item() == tiny.item():
        return LSE_TRIVIAL
    if close(small, ref_lse(SMALL) - LN3) and (close(huge, ref_lse(HUGE) - 1001.0, atol=1e-3) or close(sq, ref_lse(SQUARE) - SQUARE.max(-1))):
        return LSE_ADD_BACK
    if close(small, np.float64(SMALL.max())) and close(sq, SQUARE.max(-1)):
        return LSE_SOFT_MAX
    if nonfinite(huge) or nonfinite(tiny):
        return LSE_SHIFT
    if max_kept(sq):
        return LSE_MAX_KEPT
    if isinstance(sq, np.ndarray) and sq.shape != (3,) and sq.size == 3 and close(sq.reshape(3), ref_lse(SQUARE)):
        return LSE_KEEPDIMS_ARG  # the reduced axis kept although keepdims=False
    if isinstance(mixed, np.ndarray) and mixed.shape == (3,) and close(mixed[1:2], ref_lse(MIXED[1:2]), atol=1e-3) \
            and not np.isfinite(mixed[0]):
        return LSE_OWN_MAX
    rows_right = all(close(r, ref_lse(row)) for r, row in zip((r0, r1, r2), SQUARE))
    if rows_right and sums_whole_array(sq):
        return LSE_WHOLE_SUM
    if rows_right and not close(sq, ref_lse(SQUARE)):
        return LSE_KEEPDIMS
    if isinstance(dead, np.ndarray) and dead.shape == (2,) and np.isnan(dead[1]) and close(dead[:1], ref_lse(DEAD[:1])):
        return LSE_ALL_NEG_INF
    if close(axis0, ref_lse(SQUARE, axis=-1)):
        return LSE_AXIS
    if close(sq, ref_lse(SQUARE)) and close(sq_kept.reshape(-1) if isinstance(sq_kept, np.ndarray) else None, ref_lse(SQUARE)) \
            and not close(sq_kept, ref_lse(SQUARE, keepdims=True)):
        return LSE_KEEPDIMS_ARG
    if close(sq, ref_lse(SQUARE)) and isinstance(one_row, np.ndarray) and one_row.shape != (1,) and one_row.size == 1:
        return LSE_SQUEEZE
    if any(isinstance(r, np.ndarray) and r.dtype != want for r, want in ((sq, np.float32), (sq64, np.float64))):
        return LSE_DTYPE
    return ladder(results[len(cases):], [(message, want) for message, _, want in LSE_RUNGS])


def check_lse(observe, x, message, *, rtol=1e-5, atol=1e-5, **kw):
    """logsumexp_stable(x, **kw) equals the float64 reference; else the message of its symptom.
    Returns the student's result and the probe's copy of x afterwards."""
    symptom = lambda: lse_symptom(observe)  # noqa: E731
    r = diagnosed(observe, P.lse, symptom, x=x, **kw)
    got = r["out"]
    if not isinstance(got, np.ndarray) or got.dtype.kind not in "biuf":
        fail("logsumexp_stable must return a numpy array (or numpy scalar)", symptom)
    if got.dtype != np.asarray(x).dtype:
        fail(LSE_DTYPE, symptom)
    axis = kw.get("axis", -1)
    axis = tuple(axis) if isinstance(axis, list) else axis
    if not close(got, ref_lse(x, axis=axis, keepdims=kw.get("keepdims", False)), rtol, atol):
        fail(message, symptom)
    return got, r["x_after"]


def hidden(seed: int, k: int, shape, scale=3.0, dtype=np.float32):
    """A submission's hidden input number k."""
    return rng_array([seed, k], shape, scale, dtype)


def hidden_shape(seed: int, k: int, low: int = 2, high: int = 9, dims: int = 2) -> tuple:
    return tuple(int(n) for n in np.random.default_rng([seed, k, 1]).integers(low, high, size=dims))


# --- Task 3.1: softmax_stable ------------------------------------------------------------------
@graded("3.1", points=1)
def test_softmax_matches_reference(observe, submission_seed):
    """softmax_stable matches a float64 reference on ordinary inputs"""
    for k in range(2):
        x = hidden(submission_seed, k, hidden_shape(submission_seed, k))
        check_softmax(observe, x, "softmax_stable(x) should be exp(x) / sum(exp(x)) along the last axis (by default)")


@graded("3.1", points=1)
def test_softmax_rows_sum_to_one(observe, submission_seed):
    """softmax_stable: every row is a probability vector, at every input scale"""
    for k, scale in enumerate([0.1, 10.0, 300.0, 5000.0]):
        x = hidden(submission_seed, 10 + k, hidden_shape(submission_seed, 10 + k), scale=scale)
        check_softmax(observe, x, "softmax_stable is wrong on a matrix of logits: each row is its own probability vector")


@graded("3.1", points=2)
def test_softmax_huge_inputs(observe, submission_seed):
    """softmax_stable stays finite and right on huge positive and negative inputs"""
    rows = [[1000.0, 10000.0, 100.0], [100.0, 100.0, 101.0], [88.0, 89.0, 90.0],
            [-1000.0, -1001.0, -1003.0], [3e4, -3e4, 3e4 - 1.0]]
    for row in rows:
        check_softmax(observe, np.array(row, dtype=np.float32), "softmax_stable is wrong on large inputs")
    # the same rows as one matrix: each is shifted by its own max
    check_softmax(observe, np.array(rows, dtype=np.float32), "softmax_stable is wrong on a matrix of large inputs")
    # and rows around a hidden offset of thousands, positive or negative
    offsets = np.random.default_rng([submission_seed, 20]).uniform(-2e4, 2e4, size=(4, 1)).astype(np.float32)
    check_softmax(observe, hidden(submission_seed, 21, (4, 6), scale=3.0) + offsets, "softmax_stable is wrong on large inputs")


@graded("3.1", points=1)
def test_softmax_shift_invariance(observe, submission_seed):
    """softmax_stable(x + c) equals softmax_stable(x) for any constant c (values checked too)"""
    rng = np.random.default_rng([submission_seed, 30])
    for c in [1000.0, -1000.0, *rng.uniform(-1e4, 1e4, size=4)]:
        x = rng.uniform(-20, 20, size=int(rng.integers(1, 9)))
        check_softmax(observe, x, "softmax_stable(x) should be exp(x) / sum(exp(x))", rtol=1e-7, atol=1e-9)
        check_softmax(observe, x + c, "softmax_stable(x + c) must equal softmax_stable(x): softmax is shift invariant",
                      rtol=1e-7, atol=1e-9)


@graded("3.1", points=1)
def test_softmax_neg_inf_entries(observe, submission_seed):
    """softmax_stable gives -inf entries probability 0 (masked logits)"""
    # row 0: exp = (0, 1, 3) -> (0, 1/4, 3/4); row 1: only one finite entry -> (1, 0, 0)
    assert np.allclose(ref_softmax(MASKED), [[0.0, 0.25, 0.75], [1.0, 0.0, 0.0]])
    check_softmax(observe, MASKED, "an entry equal to -inf must get probability exactly 0, the others share the mass")
    x = hidden(submission_seed, 40, (4, 6))
    x[np.random.default_rng([submission_seed, 41]).random((4, 6)) < 0.4] = NEG_INF
    x[:, 0] = 0.0  # every row keeps a finite entry
    check_softmax(observe, x, "an entry equal to -inf must get probability exactly 0, the others share the mass")


@graded("3.1", points=1)
def test_softmax_all_neg_inf_row(observe, submission_seed):
    """softmax_stable returns zeros (not nan) on a row that is all -inf"""
    x = hidden(submission_seed, 50, (4, 5))
    x[int(np.random.default_rng([submission_seed, 51]).integers(0, 4))] = NEG_INF
    check_softmax(observe, x, "a row that is all -inf gets zeros (no mass to share); the other rows are unaffected")


@graded("3.1", points=1)
def test_softmax_any_axis(observe, submission_seed):
    """softmax_stable works along any axis, negative ones included, and defaults to the last"""
    x = hidden(submission_seed, 60, (3, 4, 5), scale=50.0)
    for axis in (0, 1, 2, -1, -2, -3):
        check_softmax(observe, x, axis=axis, message="softmax_stable(x, axis) must normalize along `axis`")
    square = hidden(submission_seed, 61, (4, 4))
    check_softmax(observe, square, axis=-1, message="softmax_stable is wrong on a square matrix: each row is its own distribution")
    check_softmax(observe, square, axis=0, message="softmax_stable(x, axis=0) must normalize each column")


@graded("3.1", points=1)
def test_softmax_keeps_dtype(observe, submission_seed):
    """softmax_stable returns float32 for float32 input and float64 for float64 (values checked too)"""
    for dtype in (np.float32, np.float64):
        check_softmax(observe, hidden(submission_seed, 70, (3, 6), dtype=dtype), "softmax_stable is wrong on an ordinary matrix")


@graded("3.1", points=1)
def test_softmax_leaves_input_unchanged(observe, submission_seed):
    """softmax_stable leaves the caller's array as it was"""
    for k, dtype in enumerate((np.float32, np.float64)):
        x = hidden(submission_seed, 80 + k, hidden_shape(submission_seed, 80 + k), dtype=dtype)
        _, after = check_softmax(observe, x, "softmax_stable is wrong on an ordinary matrix")
        assert same_array(after, x), SM_IN_PLACE


# --- Task 3.2: logsumexp_stable ----------------------------------------------------------------
@graded("3.2", points=1)
def test_lse_matches_reference(observe, submission_seed):
    """logsumexp_stable matches a float64 reference on ordinary inputs"""
    check_lse(observe, hidden(submission_seed, 100, hidden_shape(submission_seed, 100)),
              "logsumexp_stable(x) should be log(sum(exp(x))) over the last axis (by default), that axis dropped")
    check_lse(observe, hidden(submission_seed, 101, (int(np.random.default_rng([submission_seed, 102]).integers(1, 9)),)),
              "logsumexp_stable of a vector is a single number, log(sum(exp(x)))")


@graded("3.2", points=2)
def test_lse_huge_inputs(observe, submission_seed):
    """logsumexp_stable stays finite and right on huge positive and negative inputs"""
    x = np.array([[1000.0, 10000.0, 100.0], [100.0, 100.0, 101.0], [-1000.0, -1000.0, -1000.0],
                  [3e4, 3e4, -3e4]], dtype=np.float32)
    # row 0: 10000 + log(1 + e^-9000 + e^-9900) = 10000;  row 1: 101 + log(1 + 2/e)
    # row 2: -1000 + log 3 (exp underflows to 0 without the shift);  row 3: 3e4 + log 2
    check_lse(observe, x, "logsumexp_stable is wrong on large inputs", rtol=1e-6, atol=1e-3)
    offsets = np.random.default_rng([submission_seed, 110]).uniform(-2e4, 2e4, size=(4, 1)).astype(np.float32)
    check_lse(observe, hidden(submission_seed, 111, (4, 6)) + offsets, "logsumexp_stable is wrong on large inputs",
              rtol=1e-6, atol=1e-2)


@graded("3.2", points=1)
def test_lse_shift_invariance(observe, submission_seed):
    """logsumexp_stable(x + c) equals logsumexp_stable(x) + c (values checked too)"""
    rng = np.random.default_rng([submission_seed, 120])
    for c in [1000.0, -1000.0, *rng.uniform(-1e4, 1e4, size=4)]:
        x = rng.uniform(-20, 20, size=int(rng.integers(1, 9)))
        check_lse(observe, x, "logsumexp_stable(x) should be log(sum(exp(x)))", rtol=1e-9, atol=1e-9)
        check_lse(observe, x + c, "logsumexp_stable(x + c) must equal logsumexp_stable(x) + c", rtol=1e-9, atol=1e-8)


@graded("3.2", points=1)
def test_lse_neg_inf_entries(observe, submission_seed):
    """logsumexp_stable ignores -inf entries (they contribute exp(-inf) = 0)"""
    x = np.array([[NEG_INF, 0.0, 0.0], [NEG_INF, NEG_INF, 5.0]], dtype=np.float32)
    # log(0 + 1 + 1) = log 2;  log(e^5) = 5
    assert np.allclose(ref_lse(x), [LN2, 5.0])
    check_lse(observe, x, "-inf entries contribute exp(-inf) = 0 to the sum; the result stays finite", rtol=1e-6, atol=1e-6)
    y = hidden(submission_seed, 130, (4, 6))
    y[np.random.default_rng([submission_seed, 131]).random((4, 6)) < 0.4] = NEG_INF
    y[:, 0] = 1.0
    check_lse(observe, y, "-inf entries contribute exp(-inf) = 0 to the sum; the result stays finite", rtol=1e-6, atol=1e-6)


@graded("3.2", points=1)
def test_lse_all_neg_inf(observe, submission_seed):
    """logsumexp_stable of a slice that is all -inf is -inf (not nan)"""
    x = hidden(submission_seed, 140, (3, 4))
    x[int(np.random.default_rng([submission_seed, 141]).integers(0, 3))] = NEG_INF
    check_lse(observe, x, "log(sum(exp(x))) of a row that is all -inf is log(0) = -inf; the other rows are unaffected")


@graded("3.2", points=2)
def test_lse_axis_and_keepdims(observe, submission_seed):
    """logsumexp_stable works along any axis (negative, tuple) with and without keepdims"""
    x = hidden(submission_seed, 150, (3, 4, 5), scale=40.0)
    for axis in (0, 1, -1, -3, [0, 2]):
        for keepdims in (False, True):
            check_lse(observe, x, axis=axis, keepdims=keepdims, atol=1e-4, message=(
                "logsumexp_stable(x, axis, keepdims) is wrong along a non-default axis: reduce over `axis`, dropping "
                "it unless keepdims=True"))
    check_lse(observe, x, axis=1, message="keepdims defaults to False: the reduced axis is dropped")
    check_lse(observe, hidden(submission_seed, 151, (1, 6)), message="logsumexp_stable is wrong on a one-row matrix")


@graded("3.2", points=1)
def test_lse_keeps_dtype(observe, submission_seed):
    """logsumexp_stable returns float32 for float32 input and float64 for float64 (values checked too)"""
    for dtype in (np.float32, np.float64):
        check_lse(observe, hidden(submission_seed, 160, (4, 5), dtype=dtype), "logsumexp_stable is wrong on an ordinary matrix")


@graded("3.2", points=1)
def test_lse_leaves_input_unchanged(observe, submission_seed):
    """logsumexp_stable leaves the caller's array as it was"""
    for k, dtype in enumerate((np.float32, np.float64)):
        x = hidden(submission_seed, 170 + k, hidden_shape(submission_seed, 170 + k), dtype=dtype)
        _, after = check_lse(observe, x, "logsumexp_stable is wrong on an ordinary matrix")
        assert same_array(after, x), LSE_IN_PLACE


# --- Task 3.3: the LogSumExp op -----------------------------------------------------------------
OP_RUNGS = [  # (message, case, reference): basic to advanced
    ("LogSumExp.compute should be log(sum(exp(a))) over self.axes, those axes dropped", {"x": ORDINARY, "axes": 1}, ref_lse(ORDINARY, axis=1)),
    ("LogSumExp.compute should be log(sum(exp(a))) over self.axes, those axes dropped", {"x": ORDINARY, "axes": None}, ref_lse(ORDINARY, axis=None)),
    ("LogSumExp.compute is wrong on huge inputs", {"x": MIXED, "axes": 1}, ref_lse(MIXED, axis=1)),
    ("LogSumExp.compute is wrong on a slice that is all -inf: its log-sum-exp is log(0) = -inf", {"x": DEAD, "axes": 1}, ref_lse(DEAD, axis=1)),
]


def op_symptom(observe):
    """The message of the first misconception the forward of the student's op shows on the
    diagnostic inputs (then of the first rung of the ladder it fails), or None."""
    cases = [{"x": SMALL, "axes": None}, {"x": TINY, "axes": None}, {"x": HUGE, "axes": None}, {"x": MIXED, "axes": 1},
             {"x": SQUARE, "axes": 1}, {"x": SQUARE[0], "axes": None}, {"x": SQUARE[1], "axes": None},
             {"x": SQUARE[2], "axes": None}, {"x": DEAD, "axes": 1}, {"x": SQUARE.astype(np.float64), "axes": 1}]
    results = observe(P.op_cases, cases=cases + [case for _, case, _ in OP_RUNGS])
    small, tiny, huge, mixed, sq, r0, r1, r2, dead, sq64 = results[:len(cases)]
    if any(isinstance(r, dict) and r.get("not_op") for r in results):
        return OP_NOT_OP
    if finite(small) and finite(tiny) and small.size == tiny.size == 1 and small.item() == tiny.item():
        return OP_TRIVIAL
    if close(small, ref_lse(SMALL) - LN3) and close(huge, ref_lse(HUGE) - 1001.0, atol=1e-3):
        return OP_ADD_BACK
    if close(small, np.float64(SMALL.max())) and close(huge, np.float64(1001.0)):
        return OP_SOFT_MAX
    if nonfinite(huge) or nonfinite(tiny):
        return OP_SHIFT
    if isinstance(mixed, np.ndarray) and mixed.size == 3 and close(mixed.reshape(3)[1:2], ref_lse(MIXED[1:2]), atol=1e-3) \
            and not np.isfinite(mixed.reshape(3)[0]):
        return OP_OWN_MAX
    want = ref_lse(SQUARE)
    if max_kept(sq):
        return OP_MAX_KEPT
    if isinstance(sq, np.ndarray) and sq.shape != want.shape and close(sq.reshape(-1), want):
        return OP_DROP
    if isinstance(small, np.ndarray) and small.shape != () and close(small.reshape(()), ref_lse(SMALL)):
        return OP_DROP
    if isinstance(sq, np.ndarray) and sq.size == 1 and close(sq.reshape(()), ref_lse(SQUARE, axis=None)):
        return OP_WRAPPER_AXES if observe(P.op_axes, x=SQUARE, axes=1) is None else OP_COMPUTE_AXES
    rows_right = all(close(r, ref_lse(row)) for r, row in zip((r0, r1, r2), SQUARE))
    if rows_right and sums_whole_array(sq):
        return OP_WHOLE_SUM
    if rows_right and not close(sq, want):
        return OP_KEEPDIMS
    if isinstance(dead, np.ndarray) and dead.shape == (2,) and np.isnan(dead[1]) and close(dead[:1], ref_lse(DEAD[:1])):
        return OP_ALL_NEG_INF
    if any(isinstance(r, np.ndarray) and r.dtype != dt for r, dt in ((sq, np.float32), (sq64, np.float64))):
        return OP_DTYPE
    return ladder(results[len(cases):], [(message, want) for message, _, want in OP_RUNGS])


def forward(observe, x, message, *, axes="default", rtol=1e-5, atol=1e-5):
    """The student's logsumexp(Tensor(x), axes) checked against the float64 reference."""
    symptom = lambda: op_symptom(observe)  # noqa: E731
    out = diagnosed(observe, P.op_forward, symptom, x=x, axes=axes)
    if not (out["is_tensor"] and out["made_by_op"]):
        fail(OP_NOT_OP, symptom)
    got = out["value"]
    if not isinstance(got, np.ndarray) or got.dtype.kind not in "biuf":
        fail("LogSumExp.compute must return a numpy array", symptom)
    if got.dtype != np.asarray(x).dtype:
        fail(OP_DTYPE, symptom)
    np_axis = None if axes in ("default", None) else tuple(axes) if isinstance(axes, list) else axes
    if not close(got, ref_lse(x, axis=np_axis), rtol, atol):
        fail(message, symptom)
    return got


@graded("3.3", points=2)
def test_op_forward_axes(observe, submission_seed):
    """logsumexp(a, axes) matches numpy for axes None, an int, a negative int and a tuple"""
    x = hidden(submission_seed, 200, (2, 3, 4))
    for axes in ("default", None, 1, -1, [0, 2], [1, 2]):
        forward(observe, x, axes=axes, message="LogSumExp.compute should be log(sum(exp(a))) over self.axes, those axes dropped")


@graded("3.3", points=2)
def test_op_forward_stable(observe, submission_seed):
    """LogSumExp forward: huge inputs stay finite, an all -inf slice gives -inf, float32 stays float32"""
    x = np.array([[1000.0, 10000.0, 100.0], [-1000.0, -1000.0, -1001.0], [NEG_INF, NEG_INF, NEG_INF]], dtype=np.float32)
    forward(observe, x, axes=1, message="LogSumExp.compute is wrong on huge inputs", rtol=1e-6, atol=1e-3)
    offsets = np.random.default_rng([submission_seed, 210]).uniform(-2e4, 2e4, size=(3, 1)).astype(np.float32)
    forward(observe, hidden(submission_seed, 211, (3, 5)) + offsets, axes=1, message="LogSumExp.compute is wrong on huge inputs",
            rtol=1e-6, atol=1e-2)


GRAD_RUNG_ROWS = np.array([[0.0, LN2, LN3], [2.0, 0.0, 1.0]], dtype=np.float32)


def grad_symptom(observe):
    """The message of the first misconception the student's LogSumExp.gradient shows on the
    diagnostic inputs, or None (the forward is checked first: a wrong forward is named)."""
    forward_problem = op_symptom(observe)
    if forward_problem:
        return forward_problem
    rows = GRAD_RUNG_ROWS
    small, wide, square, huge, dead, whole, wide_tuple = observe(P.grad_cases, cases=[
        {"x": SMALL, "axes": None, "out_grad": np.array(2.0, dtype=np.float32)},
        {"x": rows, "axes": 1, "out_grad": np.array([1.0, 3.0], dtype=np.float32)},
        {"x": SQUARE, "axes": 1, "out_grad": np.array([1.0, 2.0, 3.0], dtype=np.float32)},
        {"x": HUGE[None, :], "axes": 1, "out_grad": np.array([1.0], dtype=np.float32)},
        {"x": DEAD, "axes": 1, "out_grad": np.array([1.0, 1.0], dtype=np.float32)},
        {"x": rows, "axes": None, "out_grad": np.array(1.5, dtype=np.float32)},
        {"x": rows, "axes": [1], "out_grad": np.array([1.0, 3.0], dtype=np.float32)},
    ])
    if any(isinstance(r, dict) and r.get("not_tensor") for r in (small, wide, square, huge, dead, whole, wide_tuple)):
        return GRAD_NOT_TENSOR
    # axes=(1,) right, but axes=None or axes=1 raise TypeError (`for ax in self.axes`, self.axes[0], ...)
    want_wide = np.array([[1.0], [3.0]]) * ref_softmax(rows)
    if close(wide_tuple, want_wide) and any(isinstance(r, dict) and r.get("raised") == "TypeError" for r in (small, wide, whole)):
        return GRAD_AXES_KINDS
    p = ref_softmax(SMALL)
    if finite(small) and small.shape == SMALL.shape and np.ptp(small) == 0:
        return GRAD_TRIVIAL
    if close(small, 2.0 * np.exp(SMALL.astype(np.float64))):
        return GRAD_EXP
    if close(small, p):
        return GRAD_OUT_GRAD
    right_small = close(small, 2.0 * p)
    if right_small and close(wide, np.array([[1.0], [3.0]]) * ref_softmax(rows.reshape(-1)).reshape(2, 3)):
        return GRAD_AXES
    shape_error = any(isinstance(r, dict) and r.get("raised") == "ValueError" for r in (small, wide, square))
    if shape_error or (right_small and (not close(wide, want_wide)
                                        or not close(square, np.array([[1.0], [2.0], [3.0]]) * ref_softmax(SQUARE)))):
        return GRAD_KEPT_SHAPE
    if right_small and nonfinite(huge):
        return GRAD_SHIFT
    if right_small and isinstance(dead, np.ndarray) and dead.shape == DEAD.shape and np.isnan(dead[1]).any():
        return GRAD_NO_MASS
    rungs = [("LogSumExp.gradient should be out_grad (broadcast back to a's shape) times softmax(a)", small, 2.0 * p),
             ("LogSumExp.gradient over axes=1: each row's out_grad times that row's softmax", wide, want_wide),
             ("LogSumExp.gradient over axes=None: out_grad times the softmax of the whole array", whole,
              1.5 * ref_softmax(rows.reshape(-1)).reshape(2, 3))]
    return ladder([got for _, got, _ in rungs], [(message, want) for message, _, want in rungs])


def gradient(observe, x, axes, out_grad):
    """The adjoint the student's LogSumExp.gradient returns (checked for form, not value), and
    the symptom finder to fail with."""
    symptom = lambda: grad_symptom(observe)  # noqa: E731
    out = diagnosed(observe, P.op_gradient, symptom, x=x, axes=axes, out_grad=out_grad)
    if not out["has_op"]:
        fail(OP_NOT_OP, symptom)
    if not out["is_tensor"]:
        fail(GRAD_NOT_TENSOR, symptom)
    got = out["grad"]
    if not isinstance(got, np.ndarray) or got.shape != np.shape(x):
        fail("LogSumExp.gradient must return a Tensor of a's shape", symptom)
    if out["backward_grad"] is None:
        fail("after backward, the input's .grad is missing", symptom)
    return got, symptom


def check_gradient(observe, x, axes, out_grad, want, message, rtol=1e-5, atol=1e-6):
    """The student's adjoint equals ``want``; else the message of its symptom."""
    got, symptom = gradient(observe, x, axes, out_grad)
    if close(got, want, rtol, atol):
        return got
    fail(message, symptom)


@graded("3.3", points=2)
def test_op_gradient_hand_derived(observe):
    """LogSumExp gradient equals the hand-derived softmax times out_grad"""
    # lse(x) = log(e^0 + e^ln2 + e^ln3) = log(1 + 2 + 3) = ln 6, and
    # d lse / d x_i = e^{x_i} / sum_j e^{x_j} = (1, 2, 3) / 6.  With out_grad = 2 (a scalar,
    # axes=None) the adjoint is 2 * (1/6, 2/6, 3/6) = (1/3, 2/3, 1).
    x = np.array([0.0, LN2, LN3], dtype=np.float32)
    forward(observe, x, message="logsumexp of (0, ln 2, ln 3) should be ln 6", rtol=1e-6)
    check_gradient(observe, x, None, np.array(2.0, dtype=np.float32), np.array([1 / 3, 2 / 3, 1.0]),
                   "LogSumExp.gradient should be out_grad (broadcast back to a's shape) times softmax(a)")
    # Rows reduced separately (axes=1): row 0 as above with out_grad 1 -> (1/6, 2/6, 3/6);
    # row 1 = (ln 4, ln 4, -inf): e^x = (4, 4, 0), softmax = (1/2, 1/2, 0), out_grad 3 -> (3/2, 3/2, 0).
    x2 = np.array([[0.0, LN2, LN3], [math.log(4.0), math.log(4.0), NEG_INF]], dtype=np.float32)
    check_gradient(observe, x2, 1, np.array([1.0, 3.0], dtype=np.float32), np.array([[1 / 6, 2 / 6, 3 / 6], [1.5, 1.5, 0.0]]),
                   "LogSumExp.gradient over axes=1: each row's out_grad times that row's softmax")


def numeric_gradient(x, axes, out_grad):
    """Central differences of L(x) = sum(out_grad * lse(x, axes)) in float64, every element."""
    return central_differences(lambda v: np.sum(out_grad * ref_lse(v, axis=axes)), x)


@graded("3.3", points=2)
def test_op_gradient_central_differences(observe, submission_seed):
    """LogSumExp gradient matches float64 central differences for several axes"""
    rng = np.random.default_rng([submission_seed, 220])
    for shape, axes in (((3, 4), 1), ((3, 4), 0), ((2, 3, 4), [0, 2]), ((2, 3, 4), -2), ((5,), None)):
        x = rng.standard_normal(shape) * 2.0
        np_axis = tuple(axes) if isinstance(axes, list) else axes
        out_grad = rng.standard_normal(np.shape(ref_lse(x, axis=np_axis)))
        check_gradient(observe, x, axes, out_grad, numeric_gradient(x, np_axis, out_grad),
                       "LogSumExp.gradient disagrees with central differences (float64) for some axes")


@graded("3.3", points=1)
def test_op_gradient_huge_inputs(observe, submission_seed):
    """LogSumExp gradient stays finite on huge inputs and keeps float32"""
    offsets = np.random.default_rng([submission_seed, 230]).uniform(500, 2e4, size=(2, 1)) * [[1.0], [-1.0]]
    x = (np.array([[0.0, 1.0, -1.0], [0.0, 2.0, -1.0]]) + offsets).astype(np.float32)
    # rtol 1e-3: near 1000 float32 values are 6e-5 apart, so a correct exp(a - lse(a)) (PyTorch's
    # formula) is only that accurate; the shifted softmax is exact to float32 rounding.
    got = check_gradient(observe, x, 1, np.array([1.0, -2.0], dtype=np.float32),
                         np.array([1.0, -2.0])[:, None] * ref_softmax(x, axis=1),
                         "LogSumExp.gradient is wrong on large inputs", rtol=2e-3, atol=1e-6)
    assert got.dtype == np.float32, GRAD_DTYPE


@graded("3.3", points=2)
def test_op_gradient_all_neg_inf_slice(observe, submission_seed):
    """LogSumExp gradient of a slice that is all -inf is 0 (not nan)"""
    x = hidden(submission_seed, 240, (3, 4))
    x[0] = NEG_INF
    x[2, int(np.random.default_rng([submission_seed, 241]).integers(0, 4))] = NEG_INF
    out_grad = np.array([1.5, -1.0, 2.0], dtype=np.float32)
    want = out_grad[:, None].astype(np.float64) * ref_softmax(x, axis=1)
    got, symptom = gradient(observe, x, 1, out_grad)
    if not close(got, want):
        fail("LogSumExp.gradient: an all -inf slice gets 0, a -inf entry gets 0, the rest out_grad * softmax", symptom)


@graded("3.3", points=1)
def test_op_gradient_is_differentiable(observe, submission_seed):
    """LogSumExp gradient is built from needle ops: a second backward gives the Hessian"""
    rng = np.random.default_rng([submission_seed, 250])
    x = rng.standard_normal(4)
    v = rng.standard_normal(4)
    symptom = lambda: grad_symptom(observe)  # noqa: E731
    out = diagnosed(observe, P.op_second_order, symptom, x=x, axes=None, out_grad=np.array(1.5), v=v)
    p = ref_softmax(x)
    if not close(out["grad"], 1.5 * p):
        fail("backward through logsumexp gives the wrong gradient", symptom)
    assert out["differentiable"], GRAD_NEEDLE_OPS
    # g = 1.5 * softmax(x); d(sum(g * v))/dx = 1.5 * (diag(p) - p p^T) v = 1.5 * (p * v - p * (p . v))
    want = 1.5 * (p * v - p * np.dot(p, v))
    if not close(out.get("hvp"), want, rtol=1e-5, atol=1e-8):
        fail("differentiating LogSumExp.gradient again gives the wrong second derivative", symptom)
