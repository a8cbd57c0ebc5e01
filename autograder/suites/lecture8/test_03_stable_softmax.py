"""Hidden tests for 03_stable_softmax (Tasks 3.1 softmax_stable, 3.2 logsumexp_stable,
3.3 the LogSumExp op), each task declared once with its ladder.

A task's ladder climbs its contract one behaviour at a time: first the data rungs (fixed, small
inputs whose values are derived by hand in a comment; the notebook's visible test cells climb the
same rungs), then the rungs written as tests below, on inputs drawn per submission from
``submission_seed`` and judged against float64 references computed here. The first rung a
submission fails gives its one message: the input, the value the contract gives, what the code
gave. Every rung checks values, so a constant or uniform answer loses all of them.

PYTEST_DONT_REWRITE: the student reads only the assert messages, never pytest's assertion
introspection, whichever way the suite was imported.
"""
import math

import numpy as np
from autograder.specification import Rung, Task, declare
from autograder.suite import Delegated, StudentCodeError, load_probes
from coursekit.ladder import plain, shown
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

# The rungs' inputs, as the student reads them in a message (float32, as the notebook's arrays).
F32 = "dtype=np.float32"
ONE_SLICE = f"x = np.array([0.0, math.log(2), math.log(3)], {F32})"  # e^x = (1, 2, 3), their sum 6
FAR_APART = f"x = np.array([300.0, 0.0, -300.0], {F32})"
TWO_ROWS = f"x = np.array([[0.0, math.log(3)], [0.0, 0.0]], {F32})"  # e^x rows (1, 3) and (1, 1)
TWO_SCALES = f"x = np.array([[0.0, math.log(3)], [1000.0, 1000.0]], {F32})"
MASKED = f"x = np.array([[-np.inf, 0.0, math.log(3)], [-np.inf, -np.inf, -np.inf]], {F32})"
COLUMNS = f"x = np.array([[0.0, math.log(2)], [math.log(3), math.log(2)]], {F32})"  # e^x columns (1, 3), (2, 2)
HUGE_PAIR = f"x = np.array([1000.0, 1000.0], {F32})"
DTYPES = f"x32 = np.array([0.0, 1.0], {F32}); x64 = np.array([0.0, 1.0])"
OVERFLOW = "e^x overflows float32 for x above 88.72 (section 1)."
LN2, LN3, LN4 = math.log(2), math.log(3), math.log(4)
NEG_INF = -np.inf


# Two behaviours checked on fixed inputs only, for points (the hidden rungs judge values in any
# dtype): rungs the notebook names but does not run. Each is judged with the values, so that an
# answer right about dtypes or inputs but not about values earns nothing here.
def keeps_dtype(name: str, values: list) -> Rung:
    return Rung("keeps the dtype", given=DTYPES, call=f"[{name}(x32), {name}(x64)]", expect=[values, values],
                dtype=["float32", "float64"], points=1, visible=False)


def leaves_input(name: str, before: list, value: list) -> Rung:
    """The caller's x after the call, then the result: x must be as it was."""
    return Rung("leaves its input as it was", given=f"x = np.array({before}, {F32}); result = {name}(x)",
                call="[*x, *np.ravel(result)]", expect=before + value, points=1, visible=False)


TASK_3_1 = Task(
    "3.1", names=["softmax_stable"], own_work=LOGSUMEXP,
    contract="softmax_stable(x, axis=-1) is a numpy array of x's shape and dtype: along `axis`, e^x_i / sum_j e^x_j, "
             "finite for any finite logits (however large), 0 for an entry of -inf and zeros on a slice that is all "
             "-inf; x is left as it was",
    rungs=[
        Rung("one slice", given=ONE_SLICE, call="softmax_stable(x)", expect=[1 / 6, 2 / 6, 3 / 6], returns="ndarray"),  # (1, 2, 3) / 6
        # the max 300 shifts the exponents to (0, -300, -600): (1, e^-300, e^-600) / (1 + ...) = (1, 0, 0) to 1e-130
        Rung("logits far apart", given=FAR_APART, call="softmax_stable(x)", expect=[1.0, 0.0, 0.0], returns="ndarray",
             cause=OVERFLOW),
        # each row alone: (1, 3) / 4 and (1, 1) / 2
        Rung("rows of a matrix", given=TWO_ROWS, call="softmax_stable(x)",
             expect=[[0.25, 0.75], [0.5, 0.5]], returns="ndarray"),
        # row 0 as above; row 1: two equal logits share the mass. rtol 1e-4: the exact answer
        # exp(x - lse(x)) is off by up to ~3e-5 there (lse = 1000.69 is stored to float32's spacing 6e-5)
        Rung("rows at very different scales", given=TWO_SCALES, call="softmax_stable(x)",
             expect=[[0.25, 0.75], [0.5, 0.5]], returns="ndarray", rtol=1e-4),
        # row 0: e^x = (0, 1, 3) -> (0, 1/4, 3/4); row 1 has no mass: zeros
        Rung("-inf entries and a row all -inf", given=MASKED, call="softmax_stable(x)",
             expect=[[0.0, 0.25, 0.75], [0.0, 0.0, 0.0]], returns="ndarray"),
        # columns: (1, 3) / 4 and (2, 2) / 4
        Rung("along axis 0", given=COLUMNS, call="softmax_stable(x, axis=0)", expect=[[0.25, 0.5], [0.75, 0.5]],
             returns="ndarray"),
        # softmax([0, 1]) = (1, e) / (1 + e) = (0.2689414, 0.7310586), in float32 and in float64
        keeps_dtype("softmax_stable", [0.2689414, 0.7310586]),
        leaves_input("softmax_stable", [0.0, 1.0], [0.2689414, 0.7310586]),
    ])
TASK_3_2 = Task(
    "3.2", names=["logsumexp_stable"], own_work=LOGSUMEXP,
    contract="logsumexp_stable(x, axis=-1, keepdims=False) is log(sum(e^x)) over `axis` (an int or a tuple of ints), "
             "the reduced axes dropped unless keepdims; finite for any finite logits, -inf for a slice that is all "
             "-inf; x's dtype kept; x left as it was",
    rungs=[
        Rung("one slice", given=ONE_SLICE, call="np.ravel(logsumexp_stable(x))", expect=[math.log(6)]),  # log 6
        Rung("a vector gives a single number", given=ONE_SLICE, call="np.ndim(logsumexp_stable(x))", expect=0,
             cause="With keepdims=False (the default) the reduced axis is dropped."),
        # 1000 + log(e^0 + e^0)
        Rung("logits far beyond exp's range", given=HUGE_PAIR, call="float(logsumexp_stable(x))",
             expect=1000 + LN2, cause=OVERFLOW),
        Rung("rows of a matrix", given=TWO_ROWS, call="logsumexp_stable(x)", expect=[LN4, LN2]),  # log 4, log 2
        Rung("rows at very different scales", given=TWO_SCALES, call="logsumexp_stable(x)", expect=[LN4, 1000 + LN2]),  # log 4; 1000 + log 2
        # log(0 + 1 + 3); log 0
        Rung("-inf entries and a row all -inf", given=MASKED, call="logsumexp_stable(x)", expect=[LN4, NEG_INF]),
        Rung("along axis 0", given=COLUMNS, call="logsumexp_stable(x, axis=0)", expect=[LN4, LN4]),
        Rung("a tuple of axes", given=COLUMNS, call="logsumexp_stable(x, axis=(0, 1))", expect=math.log(8)),  # log(1 + 2 + 3 + 2)
        Rung("keepdims=True", given=TWO_ROWS, call="logsumexp_stable(x, keepdims=True)", expect=[[LN4], [LN2]]),
        # one row of (1, 1): log 2, and the row axis, not reduced, stays
        Rung("an axis of size 1 not reduced", given=f"x = np.zeros((1, 2), {F32})", call="logsumexp_stable(x)",
             expect=[LN2]),
        # lse([0, 1]) = log(1 + e) = 1.3132617, in float32 and in float64
        keeps_dtype("logsumexp_stable", 1.3132617),
        leaves_input("logsumexp_stable", [0.0, 1.0], [1.3132617]),
    ])

# Task 3.3's rungs: the same inputs as needle Tensors (float32, needle's default).
T_ONE_SLICE = "a = ndl.Tensor([0.0, math.log(2), math.log(3)])"
T_TWO_ROWS = "a = ndl.Tensor([[0.0, math.log(3)], [0.0, 0.0]])"
T_TWO_SCALES = "a = ndl.Tensor([[0.0, math.log(3)], [1000.0, 1000.0]])"
T_MASKED = "a = ndl.Tensor([[-np.inf, 0.0, math.log(3)], [-np.inf, -np.inf, -np.inf]])"
TASK_3_3 = Task(
    "3.3", names=["logsumexp", "LogSumExp"], own_work=["needle.ops.logsumexp"], label="LogSumExp op",
    uses=["3.2"],  # its compute may call your logsumexp_stable
    contract="logsumexp(a, axes=None) is the Tensor a LogSumExp op makes: log(sum(e^a)) over axes (None, an int or a "
             "tuple), the reduced axes dropped, stable as Task 3.2; its gradient(out_grad, node) is the adjoint of a, the "
             "gradient of sum(out_grad * lse(a)) with respect to a, of a's shape and dtype (finite for any finite "
             "logits, 0 on a slice that is all -inf), built from needle ops so that it can be differentiated again",
    rungs=[
        Rung("a Tensor made by your op", given=T_ONE_SLICE + "; y = logsumexp(a)",
             call="isinstance(y, ndl.Tensor) and isinstance(y.op, LogSumExp)", expect=True,
             cause="logsumexp returns the Tensor that a LogSumExp op makes, as ops.summation returns the one a "
                   "Summation makes."),
        Rung("forward on one slice", given=T_ONE_SLICE, call="logsumexp(a)", expect=math.log(6), returns="Tensor"),  # log(1 + 2 + 3)
        Rung("forward over axes=1", given=T_TWO_ROWS, call="logsumexp(a, axes=1)", expect=[LN4, LN2],
             returns="Tensor"),  # log(1 + 3), log(1 + 1)
        Rung("forward on rows at very different scales", given=T_TWO_SCALES, call="logsumexp(a, axes=1)",
             expect=[LN4, 1000 + LN2], returns="Tensor"),  # log 4; 1000 + log 2
        Rung("forward on -inf entries and a row all -inf", given=T_MASKED, call="logsumexp(a, axes=1)",
             expect=[LN4, NEG_INF], returns="Tensor"),  # log(0 + 1 + 3); log 0
        # d lse / d a_i = e^a_i / sum_j e^a_j = (1, 2, 3) / 6
        Rung("gradient on one slice", given=T_ONE_SLICE + "; logsumexp(a).backward()", call="a.grad",
             expect=[1 / 6, 2 / 6, 3 / 6], returns="Tensor"),
        Rung("gradient with out_grad 2", given=T_ONE_SLICE + "; logsumexp(a).backward(ndl.Tensor(2.0))",
             call="a.grad", expect=[2 / 6, 4 / 6, 6 / 6], returns="Tensor"),  # 2 * (1, 2, 3) / 6
        # row 0: 1 * (1, 3) / 4; row 1: 2 * (1, 1) / 2
        Rung("gradient over axes=1", given=T_TWO_ROWS + "; logsumexp(a, axes=1).backward(ndl.Tensor([1.0, 2.0]))",
             call="a.grad", expect=[[0.25, 0.75], [1.0, 1.0]], returns="Tensor"),
        Rung("gradient on logits far beyond exp's range", given="a = ndl.Tensor([1000.0, 1000.0]); "
             "logsumexp(a).backward()", call="a.grad", expect=[0.5, 0.5], returns="Tensor",
             rtol=1e-3),  # (1, 1) / 2; rtol: PyTorch's exp(a - lse(a)) is right to float32's spacing 6e-5 at 1000
        # row 0: (0, 1, 3) / 4; row 1 has no mass: 0
        Rung("gradient on -inf entries and a row all -inf",
             given=T_MASKED + "; logsumexp(a, axes=1).backward(ndl.Tensor([1.0, 1.0]))", call="a.grad",
             expect=[[0.0, 0.25, 0.75], [0.0, 0.0, 0.0]], returns="Tensor"),
        Rung("a gradient that can be differentiated",
             given="a = ndl.Tensor([0.0, math.log(3)], dtype='float64'); logsumexp(a).backward(create_graph=True)",
             call="a.grad.requires_grad", expect=True,
             cause="With create_graph=True the gradient must itself be a node of the graph: built by needle ops from "
                   "node.inputs[0], not from numpy arrays made into constants."),
    ])
declare(globals(), TASK_3_1, TASK_3_2, TASK_3_3)


# Right answers other than the instructor's, which must keep full marks in the hidden and the
# visible tests: {name: {grade_id: cell source}}. (PyTorch's gradient, out_grad * exp(a - lse(a))
# with the op's own output, is right too except on a slice that is all -inf, where needle has no
# op to avoid -inf - (-inf): the fixture logsumexp_grad_exp_minus_lse_nan stops at that rung.)
ACCEPTED = {
    "grad_exp_of_own_log_softmax": {"task3_3_logsumexp_op": '''
from needle.ops.shape import kept_shape


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
    # |x| * eps32 accurate (relative) on huge logits; float_rtol allows for that
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


# --- a hidden rung's message: its input, the call, the value the contract gives, what came back ----
def inputs_shown(inputs: dict) -> str:
    return ", ".join(f"{name} = {shown(plain(np.asarray(value)))}" for name, value in inputs.items())


def observed(observe, probe, call: str, inputs: dict, **params):
    """``observe(probe, **params)``; when the student's code raises, the message names the input."""
    try:
        return observe(probe, **params)
    except Delegated:
        raise
    except StudentCodeError as exc:
        raise StudentCodeError(f"on {inputs_shown(inputs)}, `{call}`: {exc}", exc.reason) from None


def judge(got, want, call: str, inputs: dict, rtol=1e-5, atol=1e-6, dtype=None) -> None:
    """``got`` (from a probe) is ``want``, in ``dtype`` when given; else the rung's message."""
    on = f"on {inputs_shown(inputs)}, `{call}`"
    if not close(got, want, rtol, atol):
        gave = shown(plain(got)) if isinstance(got, np.ndarray) else "something that is not an array of numbers"
        assert False, f"{on} should be {shown(plain(np.asarray(want, dtype=np.float64)))}; your code gave {gave}."
    if dtype is not None and got.dtype != dtype:
        assert False, f"{on} should keep the dtype {np.dtype(dtype).name}; your code gave {got.dtype.name}."


def call_text(name: str, axis_name: str, axis, **more) -> str:
    args = ["x"] + ([] if axis == "default" else [f"{axis_name}={tuple(axis) if isinstance(axis, list) else axis!r}"])
    args += [f"{k}={v!r}" for k, v in more.items()]
    return f"{name}({', '.join(args)})"


def check_softmax(observe, x, *, axis="default", rtol=1e-5, atol=1e-7):
    """softmax_stable(x) (along ``axis``) equals the float64 reference, in x's dtype."""
    call = call_text("softmax_stable", "axis", axis)
    kw = {} if axis == "default" else {"axis": axis}
    got = observed(observe, P.softmax, call, {"x": x}, x=x, **kw)["out"]
    judge(got, ref_softmax(x, axis=-1 if axis == "default" else axis), call, {"x": x}, float_rtol(x, rtol), atol)


def check_lse(observe, x, *, rtol=1e-5, atol=1e-5, axis="default", keepdims="default"):
    """logsumexp_stable(x, axis, keepdims) equals the float64 reference, in x's dtype."""
    more = {} if keepdims == "default" else {"keepdims": keepdims}
    call = call_text("logsumexp_stable", "axis", axis, **more)
    kw = {k: v for k, v in (("axis", axis), ("keepdims", keepdims)) if v != "default"}
    got = observed(observe, P.lse, call, {"x": x}, x=x, **kw)["out"]
    np_axis = -1 if axis == "default" else tuple(axis) if isinstance(axis, list) else axis
    judge(got, ref_lse(x, axis=np_axis, keepdims=keepdims is True), call, {"x": x}, rtol, atol)


def hidden(seed: int, k: int, shape, scale=3.0, dtype=np.float32):
    """A submission's hidden input number k."""
    return (scale * np.random.default_rng([seed, k]).standard_normal(shape)).astype(dtype)


def hidden_shape(seed: int, k: int, low: int = 2, high: int = 9, dims: int = 2) -> tuple:
    return tuple(int(n) for n in np.random.default_rng([seed, k, 1]).integers(low, high, size=dims))


# --- Task 3.1: softmax_stable, the rungs drawn per submission -----------------------------------
HUGE_ROWS = [[1000.0, 10000.0, 100.0], [100.0, 100.0, 101.0], [88.0, 89.0, 90.0], [-1000.0, -1001.0, -1003.0],
             [3e4, -3e4, 3e4 - 1.0]]


def masked(x, seed: int, k: int, keep: float):
    """x with about 40% of its entries -inf (drawn per submission), its first column ``keep``."""
    x[np.random.default_rng([seed, k]).random(x.shape) < 0.4] = NEG_INF
    x[:, 0] = keep
    return x


def with_dead_row(x, seed: int, k: int):
    """x with one row (drawn per submission) all -inf."""
    x[int(np.random.default_rng([seed, k]).integers(0, x.shape[0]))] = NEG_INF
    return x


@TASK_3_1.rung("hidden logits at every scale, masked or not", points=6)
def test_softmax_hidden_logits(observe, submission_seed):
    seed = submission_seed
    for k in range(2):  # ordinary logits
        check_softmax(observe, hidden(seed, k, hidden_shape(seed, k)))
    for k, scale in enumerate([0.1, 10.0, 300.0, 5000.0]):  # every row a probability vector at every scale
        check_softmax(observe, hidden(seed, 10 + k, hidden_shape(seed, 10 + k), scale=scale))
    for row in HUGE_ROWS:  # far beyond exp's range, above and below
        check_softmax(observe, np.array(row, dtype=np.float32))
    check_softmax(observe, np.array(HUGE_ROWS, dtype=np.float32))  # each row shifted by its own max
    offsets = np.random.default_rng([seed, 20]).uniform(-2e4, 2e4, size=(4, 1)).astype(np.float32)
    check_softmax(observe, hidden(seed, 21, (4, 6)) + offsets)  # rows around hidden offsets of thousands
    rng = np.random.default_rng([seed, 30])
    for c in [1000.0, -1000.0, *rng.uniform(-1e4, 1e4, size=4)]:  # softmax(x + c) = softmax(x), in float64
        x = rng.uniform(-20, 20, size=int(rng.integers(1, 9)))
        check_softmax(observe, x, rtol=1e-7, atol=1e-9)
        check_softmax(observe, x + c, rtol=1e-7, atol=1e-9)
    check_softmax(observe, masked(hidden(seed, 40, (4, 6)), seed, 41, keep=0.0))
    check_softmax(observe, with_dead_row(hidden(seed, 50, (4, 5)), seed, 51))


@TASK_3_1.rung("every axis, negative ones too", points=2)
def test_softmax_any_axis(observe, submission_seed):
    x = hidden(submission_seed, 60, (3, 4, 5), scale=50.0)
    for axis in (0, 1, 2, -1, -2, -3):
        check_softmax(observe, x, axis=axis)
    square = hidden(submission_seed, 61, (4, 4))
    check_softmax(observe, square, axis=-1)
    check_softmax(observe, square, axis=0)


# --- Task 3.2: logsumexp_stable, the rungs drawn per submission ---------------------------------
@TASK_3_2.rung("hidden logits at every scale, masked or not", points=5)
def test_lse_hidden_logits(observe, submission_seed):
    seed = submission_seed
    check_lse(observe, hidden(seed, 100, hidden_shape(seed, 100)))
    check_lse(observe, hidden(seed, 101, (int(np.random.default_rng([seed, 102]).integers(1, 9)),)))
    x = np.array([[1000.0, 10000.0, 100.0], [100.0, 100.0, 101.0], [-1000.0, -1000.0, -1000.0],
                  [3e4, 3e4, -3e4]], dtype=np.float32)
    # row 0: 10000 + log(1 + e^-9000 + e^-9900) = 10000;  row 1: 101 + log(1 + 2/e)
    # row 2: -1000 + log 3 (exp underflows to 0 without the shift);  row 3: 3e4 + log 2
    check_lse(observe, x, rtol=1e-6, atol=1e-3)
    offsets = np.random.default_rng([seed, 110]).uniform(-2e4, 2e4, size=(4, 1)).astype(np.float32)
    check_lse(observe, hidden(seed, 111, (4, 6)) + offsets, rtol=1e-6, atol=1e-2)
    rng = np.random.default_rng([seed, 120])
    for c in [1000.0, -1000.0, *rng.uniform(-1e4, 1e4, size=4)]:  # lse(x + c) = lse(x) + c, in float64
        x = rng.uniform(-20, 20, size=int(rng.integers(1, 9)))
        check_lse(observe, x, rtol=1e-9, atol=1e-9)
        check_lse(observe, x + c, rtol=1e-9, atol=1e-8)
    check_lse(observe, masked(hidden(seed, 130, (4, 6)), seed, 131, keep=1.0), rtol=1e-6, atol=1e-6)
    check_lse(observe, with_dead_row(hidden(seed, 140, (3, 4)), seed, 141))


@TASK_3_2.rung("every axis and tuple, with and without keepdims", points=3)
def test_lse_axis_and_keepdims(observe, submission_seed):
    x = hidden(submission_seed, 150, (3, 4, 5), scale=40.0)
    for axis in (0, 1, -1, -3, [0, 2]):
        for keepdims in (False, True):
            check_lse(observe, x, axis=axis, keepdims=keepdims, atol=1e-4)
    check_lse(observe, x, axis=1)
    check_lse(observe, hidden(submission_seed, 151, (1, 6)))


# --- Task 3.3: the LogSumExp op, the rungs drawn per submission ---------------------------------
def forward(observe, x, *, axes="default", rtol=1e-5, atol=1e-5):
    """The student's logsumexp(Tensor(x), axes): a Tensor made by their op, equal to the float64
    reference, in x's dtype."""
    call = call_text("logsumexp", "axes", axes).replace("(x", "(ndl.Tensor(x)", 1)
    out = observed(observe, P.op_forward, call, {"x": x}, x=x, axes=axes)
    assert out["is_tensor"] and out["made_by_op"], f"`{call}` should be a Tensor made by your LogSumExp op; it is not."
    np_axis = None if axes in ("default", None) else tuple(axes) if isinstance(axes, list) else axes
    judge(out["value"], ref_lse(x, axis=np_axis), call, {"x": x}, rtol, atol)


@TASK_3_3.rung("forward on hidden logits, every kind of axes", points=4)
def test_op_forward(observe, submission_seed):
    x = hidden(submission_seed, 200, (2, 3, 4))
    for axes in ("default", None, 0, 1, -1, [0, 2], [1, 2]):
        forward(observe, x, axes=axes)
    x = np.array([[1000.0, 10000.0, 100.0], [-1000.0, -1000.0, -1001.0], [NEG_INF, NEG_INF, NEG_INF]], dtype=np.float32)
    forward(observe, x, axes=1, rtol=1e-6, atol=1e-3)
    offsets = np.random.default_rng([submission_seed, 210]).uniform(-2e4, 2e4, size=(3, 1)).astype(np.float32)
    forward(observe, hidden(submission_seed, 211, (3, 5)) + offsets, axes=1, rtol=1e-6, atol=1e-2)


def check_gradient(observe, x, axes, out_grad, want, rtol=1e-5, atol=1e-6):
    """The adjoint the student's LogSumExp.gradient returns for ``out_grad`` (a Tensor of x's
    shape, the same through backward) equals ``want``; returns it."""
    axes_text = tuple(axes) if isinstance(axes, list) else axes
    call = f"LogSumExp({axes_text!r}).gradient(out_grad, node) for node = logsumexp(ndl.Tensor(x), axes={axes_text!r})"
    inputs = {"x": x, "out_grad": out_grad}
    out = observed(observe, P.op_gradient, call, inputs, x=x, axes=axes, out_grad=out_grad)
    assert out["has_op"], f"on {inputs_shown(inputs)}, logsumexp(ndl.Tensor(x)) is not a Tensor made by your LogSumExp op."
    assert out["is_tensor"], f"on {inputs_shown(inputs)}, `{call}` should be a needle Tensor; your code gave another type."
    judge(out["grad"], want, call, inputs, rtol, atol)
    judge(out["backward_grad"], want, "x.grad after backward(out_grad)", inputs, rtol, atol)
    return out["grad"]


def numeric_gradient(x, axes, out_grad):
    """Central differences of L(x) = sum(out_grad * lse(x, axes)) in float64, every element."""
    return central_differences(lambda v: np.sum(out_grad * ref_lse(v, axis=axes)), x)


@TASK_3_3.rung("gradient on hidden logits, every kind of axes", points=7)
def test_op_gradient(observe, submission_seed):
    rng = np.random.default_rng([submission_seed, 220])
    for shape, axes in (((3, 4), 1), ((3, 4), 0), ((2, 3, 4), [0, 2]), ((2, 3, 4), -2), ((5,), None)):
        x = rng.standard_normal(shape) * 2.0
        np_axis = tuple(axes) if isinstance(axes, list) else axes
        out_grad = rng.standard_normal(np.shape(ref_lse(x, axis=np_axis)))
        check_gradient(observe, x, axes, out_grad, numeric_gradient(x, np_axis, out_grad))
    offsets = np.random.default_rng([submission_seed, 230]).uniform(500, 2e4, size=(2, 1)) * [[1.0], [-1.0]]
    x = (np.array([[0.0, 1.0, -1.0], [0.0, 2.0, -1.0]]) + offsets).astype(np.float32)
    # rtol 2e-3: near 1000 float32 values are 6e-5 apart, so a correct exp(a - lse(a)) (PyTorch's
    # formula) is only that accurate; the shifted softmax is exact to float32 rounding.
    out_grad = np.array([1.0, -2.0], dtype=np.float32)
    got = check_gradient(observe, x, 1, out_grad, out_grad[:, None].astype(np.float64) * ref_softmax(x, axis=1),
                         rtol=2e-3, atol=1e-6)
    assert got.dtype == np.float32, (f"on {inputs_shown({'x': x})}, LogSumExp.gradient should keep the dtype float32; "
                                     f"your code gave {got.dtype.name}.")
    x = hidden(submission_seed, 240, (3, 4))
    x[0] = NEG_INF
    x[2, int(np.random.default_rng([submission_seed, 241]).integers(0, 4))] = NEG_INF
    out_grad = np.array([1.5, -1.0, 2.0], dtype=np.float32)
    check_gradient(observe, x, 1, out_grad, out_grad[:, None].astype(np.float64) * ref_softmax(x, axis=1))


@TASK_3_3.rung("the second derivative", points=1)
def test_op_gradient_is_differentiable(observe, submission_seed):
    rng = np.random.default_rng([submission_seed, 250])
    x = rng.standard_normal(4)
    v = rng.standard_normal(4)
    inputs = {"x": x, "v": v}
    call = "x.grad after logsumexp(x).backward(1.5, create_graph=True)"
    out = observed(observe, P.op_second_order, call, inputs, x=x, axes=None, out_grad=np.array(1.5), v=v)
    p = ref_softmax(x)
    judge(out["grad"], 1.5 * p, call, inputs)
    assert out["differentiable"], f"on {inputs_shown(inputs)}, `{call}` should require grad (a node of the graph); it does not."
    # g = 1.5 * softmax(x); d(sum(g * v))/dx = 1.5 * (diag(p) - p p^T) v = 1.5 * (p * v - p * (p . v))
    judge(out.get("hvp"), 1.5 * (p * v - p * np.dot(p, v)), "x.grad after g.backward() for g * v summed", inputs,
          rtol=1e-5, atol=1e-8)
