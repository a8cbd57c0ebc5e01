"""How 10_op_gradients's hidden rungs read the probes' reports, on the trusted side."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.suite import HYPOTHESIS, StudentCodeError, load_probes
from needle.gradcheck import central_differences

P = load_probes(__file__)

SETTINGS = settings(max_examples=20, **HYPOTHESIS)
RTOL, ATOL = 1e-6, 1e-8


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def close(got, want, rtol=RTOL, atol=ATOL) -> bool:
    return (not isinstance(got, str) and np.shape(got) == np.shape(want)
            and bool(np.allclose(got, want, rtol=rtol, atol=atol)))


def numeric(forward, arrays: list, out_grad, which: int) -> np.ndarray:
    """float64 central differences of sum(forward(*arrays) * out_grad) w.r.t. arrays[which]."""
    def loss(x):
        args = list(arrays)
        args[which] = x
        return float(np.sum(forward(*args) * out_grad))

    return central_differences(loss, arrays[which])


KIND = {
    "none": "your gradient returned None: return the adjoint, a needle Tensor of the input's shape built with needle ops",
    "ndarray": "your gradient returned a numpy array: build the adjoint with needle ops on out_grad, a needle Tensor",
    "tuple": "your gradient returned several adjoints: this op has one input, and gradient returns its one adjoint",
    "count": "your gradient must return one adjoint per input: a pair (grad_a, grad_b) for matmul's two inputs",
    "broadcast_error": ("your gradient broadcasts a tensor to a shape it cannot reach (numpy's rule: shapes align from "
                        "the right, each axis must match or be 1, new axes go in front)"),
    "reshape_error": "your gradient reshapes a tensor into a shape with another number of elements",
    "matmul_error": ("your gradient multiplies matrices whose shapes do not align: for a batch of matrices the transpose "
                     "swaps the last two axes only (ops.transpose's default)"),
    "dtype_mismatch": "your gradient mixes float32 and float64 tensors: build it from out_grad, whose dtype it keeps",
    "shape_mismatch": "your gradient combines tensors of different shapes (needle never broadcasts implicitly)",
}
SHAPE = "your gradient's result does not have the input's shape: an adjoint always has its input's shape"


# --- Task 10.1: BroadcastTo -------------------------------------------------------------------
B_LEAD = ("your gradient leaves the new leading axes in: broadcasting adds axes in front, and the input is repeated "
          "along each of them, so its adjoint sums over them too")
B_STRETCHED = ("your gradient sums over the new leading axes only: an axis of size 1 stretched to a larger size repeats "
               "the input along it as well, and its adjoint sums over it (keeping it as size 1)")
B_NO_RESHAPE = ("your gradient sums over the right axes but drops the stretched size-1 axes: summation removes the axes "
                "it sums; reshape the result back to the input's shape")
B_MEAN = ("your gradient averages over the repeated axes: each copy is one use of the input element, and the adjoint of "
          "a value used several times is the sum of its uses' adjoints, not their mean")
B_ALIGNED_LEFT = ("your gradient sums over the trailing axes: broadcasting aligns shapes from the right and adds new "
                  "axes in front, so the repeated axes are the leading ones")
B_UNREDUCED = ("your gradient returns out_grad unreduced (the output's shape): sum it over every axis along which "
               "the input was repeated, the new leading axes and the stretched size-1 axes")
B_GENERIC = ("wrong adjoint of the input: each input element is copied to several output elements, and its adjoint is "
             "the sum of theirs")


def repeated_axes(in_shape, shape):
    """The axes of ``shape`` along which broadcasting ``in_shape`` repeats (trusted side)."""
    lead = len(shape) - len(in_shape)
    return tuple(range(lead)), tuple(lead + i for i, n in enumerate(in_shape) if n == 1 and shape[lead + i] != 1)


def broadcast_readings(in_shape, shape, g) -> dict:
    """What each named mistake returns for out_grad ``g``, as arrays (message: array)."""
    lead, stretched = repeated_axes(in_shape, shape)
    count = int(np.prod(shape)) // max(1, int(np.prod(in_shape)))
    right = np.sum(g, axis=lead + stretched).reshape(in_shape)
    readings = []
    if lead:
        readings.append((B_LEAD, np.sum(g, axis=stretched, keepdims=True)))
        trailing = tuple(range(len(in_shape), len(shape)))
        readings.append((B_ALIGNED_LEFT, np.sum(g, axis=trailing)))
    if stretched:
        readings.append((B_STRETCHED, np.sum(g, axis=lead)))
        readings.append((B_NO_RESHAPE, np.sum(g, axis=lead + stretched)))
    readings += [(B_MEAN, right / max(count, 1)), (B_UNREDUCED, g)]
    return {message: value for message, value in readings if count > 1 or message != B_MEAN}


def named(got, readings: dict, generic: str) -> str:
    """The message of the first mistake whose result equals ``got`` (or the word's message)."""
    if isinstance(got, str):
        return KIND.get(got, generic)
    return next((m for m, value in readings.items() if close(got, value)), generic)


def calibrated(observe, readings_of, case, generic: str) -> str | None:
    """The mistake the student's gradient makes on a fixed calibration ``case`` (inputs, out_grad,
    params), where every named mistake gives a different result: one mistake, one message in every
    test. An error raised there propagates (with the student's line); None when it is right there or
    matches no named mistake."""
    inputs, g, params, want = case
    got = observe(P.direct_gradient, inputs=inputs, out_grad=g, **params)
    for k, (result, right) in enumerate(zip(got, want)):
        if not close(result, right):
            message = named(result, readings_of(k), generic)
            return None if message in (generic, B_UNREDUCED) else message
    return None


def broadcast_mistake(observe) -> str | None:
    in_shape, shape = (3, 1), (2, 3, 4)  # new leading and stretched axes both: each mistake its own result
    x, g = np.arange(3.0).reshape(in_shape), np.arange(24.0).reshape(shape) % 7 - 3
    want = [numeric(lambda v: np.broadcast_to(v, shape), [x], g, 0)]
    return calibrated(observe, lambda k: broadcast_readings(in_shape, shape, g),
                      ([x], g, {"task": "10.1", "shape": shape}, want), B_GENERIC)


def judge_broadcast(observe, in_shape, shape, x, g, got=None) -> None:
    """The student's gradient (direct call, unless ``got`` is given) against central differences."""
    x = np.asarray(x, dtype=np.float64).reshape(in_shape)
    want = numeric(lambda v: np.broadcast_to(v, shape), [x], g, 0)
    try:
        if got is None:
            got = observe(P.direct_gradient, task="10.1", inputs=[x], out_grad=g, shape=shape)[0]
    except StudentCodeError:
        if broadcast_mistake(observe) is None:
            raise
        got = "raised"
    if close(got, want):
        return
    message = broadcast_mistake(observe) or named(got, broadcast_readings(in_shape, shape, g), B_GENERIC)
    raise AssertionError(f"{message} (input shape {in_shape}, broadcast to {shape})")


def check_broadcast_gradient_by_hand(observe):
    """the adjoint of broadcast_to in graphs worked out by hand"""
    # y = broadcast_to(x, (3, 2)) * w with out_grad ones, i.e. L = sum(broadcast_to(x, (3, 2)) * w):
    # y_ij = x_j w_ij, so dL/dx_j = sum_i w_ij. w = [[1, 2], [3, 4], [5, 6]]: (9, 12)
    w = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    got = through_graph(observe, broadcast_mistake, task="10.1", graph="weighted", inputs=[np.array([0.5, -1.0])],
                  out_grad=np.ones((3, 2)), w=w, shape=(3, 2))[0]
    if not close(got, [9.0, 12.0]):
        judge_broadcast(observe, (2,), (3, 2), [0.5, -1.0], w)
        raise AssertionError(B_GENERIC + " (input (2,) to (3, 2))")
    # x of shape (2, 1) to (2, 3): y_ij = x_i0 w_ij, dL/dx_i0 = sum_j w_ij = [[6], [15]] for w = [[1, 2, 3], [4, 5, 6]]
    w = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    got = through_graph(observe, broadcast_mistake, task="10.1", graph="weighted", inputs=[np.array([[2.0], [-3.0]])],
                  out_grad=np.ones((2, 3)), w=w, shape=(2, 3))[0]
    if not close(got, [[6.0], [15.0]]):
        judge_broadcast(observe, (2, 1), (2, 3), [[2.0], [-3.0]], w)
        raise AssertionError(B_GENERIC + " (input (2, 1) to (2, 3))")


def check_broadcast_new_leading_axes(observe, submission_seed):
    """new leading axes only: (4,) to (2, 3, 4), (2, 3) to (5, 2, 3)"""
    r = rng(submission_seed + 101)
    for in_shape, shape in [((4,), (2, 3, 4)), ((2, 3), (5, 2, 3))]:
        judge_broadcast(observe, in_shape, shape, r.standard_normal(in_shape), r.standard_normal(shape))


def check_broadcast_stretched_axes(observe, submission_seed):
    """stretched size-1 axes only: (3, 1) to (3, 4), (1, 4) to (3, 4), (2, 1, 1) to (2, 3, 5)"""
    r = rng(submission_seed + 102)
    for in_shape, shape in [((3, 1), (3, 4)), ((1, 4), (3, 4)), ((2, 1, 1), (2, 3, 5))]:
        judge_broadcast(observe, in_shape, shape, r.standard_normal(in_shape), r.standard_normal(shape))


def check_broadcast_size_one_kept_and_equal_shapes(observe, submission_seed):
    """a size-1 axis that stays size 1 is not summed; equal shapes give out_grad back"""
    r = rng(submission_seed + 103)
    for in_shape, shape in [((3, 1), (2, 3, 1)), ((1, 3), (1, 3)), ((1,), (2, 1)), ((2, 2), (2, 2))]:
        judge_broadcast(observe, in_shape, shape, r.standard_normal(in_shape), r.standard_normal(shape))


def check_broadcast_gradient_any_shape(observe, submission_seed):
    """both kinds at once, many shapes (central differences over every element)"""

    @SETTINGS
    @given(in_shape=st.lists(st.integers(1, 3), min_size=1, max_size=3), lead=st.lists(st.integers(1, 3), max_size=2),
           stretch=st.lists(st.integers(2, 3), min_size=3, max_size=3), seed=st.integers(0, 2**16))
    def prop(in_shape, lead, stretch, seed):
        shape = tuple(lead) + tuple(s if n == 1 else n for n, s in zip(in_shape, stretch))
        r = np.random.default_rng(submission_seed + seed)
        judge_broadcast(observe, tuple(in_shape), shape, r.standard_normal(in_shape), r.standard_normal(shape))

    prop()


def check_broadcast_in_a_composed_graph(observe, submission_seed):
    """y = b * b with b = broadcast_to(exp(x / 2), shape): x.grad against central differences"""
    r = rng(submission_seed + 104)
    x, g = r.standard_normal((3, 1)), r.standard_normal((2, 3, 4))
    got = through_graph(observe, broadcast_mistake, task="10.1", graph="composed", inputs=[x], out_grad=g, shape=(2, 3, 4))[0]
    want = central_differences(lambda v: float(np.sum(np.broadcast_to(np.exp(v / 2), (2, 3, 4)) ** 2 * g)), x)
    if close(got, want, 1e-5, 1e-6):
        return
    judge_broadcast(observe, (3, 1), (2, 3, 4), x, g)  # the op alone says what is wrong
    raise AssertionError(B_GENERIC)


# --- Task 10.2: Summation -------------------------------------------------------------------
S_NO_RESHAPE = ("your gradient broadcasts out_grad to the input's shape without putting the summed axes back: "
                "broadcasting aligns shapes from the right and new axes go in front, so first reshape out_grad to "
                "the input's shape with each summed axis of size 1")
S_NO_BROADCAST = ("your gradient returns out_grad reshaped but not copied back: every element of the input was added "
                  "into the sum, so each gets the sum's adjoint (broadcast it to the input's shape)")
S_MEAN = ("your gradient divides by the number of summed elements: that is the gradient of a mean; each element of a "
          "sum's input has derivative 1")
S_WRONG_AXES = ("your gradient copies out_grad along other axes than the summed ones: a summed axis is where out_grad "
                "has size 1 (or no axis), and out_grad is copied along exactly those")
S_GENERIC = ("wrong adjoint of the input: each element of the input is added into one element of the sum, so its "
             "adjoint is that element's adjoint")
NEGATIVE = " (for negative axes, which count from the end as in numpy: -1 is the last axis)"


def summed_axes(axes, ndim: int) -> tuple:
    if axes is None:
        return tuple(range(ndim))
    axes = (axes,) if isinstance(axes, int) else tuple(axes)
    return tuple(sorted(a % ndim for a in axes))


def summation_readings(in_shape, axes, g) -> dict:
    summed = summed_axes(axes, len(in_shape))
    kept = tuple(1 if i in summed else n for i, n in enumerate(in_shape))
    g_kept = np.reshape(g, kept)
    right = np.broadcast_to(g_kept, in_shape)
    count = int(np.prod([in_shape[i] for i in summed]))
    readings = {S_NO_BROADCAST: g_kept, S_MEAN: right / max(count, 1)}
    if count <= 1:
        del readings[S_MEAN]
    try:
        readings[S_NO_RESHAPE] = np.broadcast_to(g, in_shape)
    except ValueError:
        pass
    others = [i for i in range(len(in_shape)) if i not in summed]
    for i in others:  # the same values copied along a kept axis instead (a transposed reading)
        for j in summed:
            if in_shape[i] == in_shape[j]:
                readings.setdefault(S_WRONG_AXES, np.swapaxes(right, i, j))
    return readings


def summation_mistake(observe) -> str | None:
    in_shape, axes = (3, 3), 1  # a square input: copying along the wrong axis gives other values, not an error
    x, g = np.arange(9.0).reshape(in_shape), np.array([1.0, -2.0, 4.0])
    want = [numeric(lambda v: np.sum(v, axis=axes), [x], g, 0)]
    return calibrated(observe, lambda k: summation_readings(in_shape, axes, g),
                      ([x], g, {"task": "10.2", "axes": axes, "keepdims": False}, want), S_GENERIC)


def summation_problem(observe, in_shape, axes, keepdims, x, g) -> str | None:
    x = np.asarray(x, dtype=np.float64)
    want = numeric(lambda v: np.sum(v, axis=axes, keepdims=keepdims), [x], g, 0)
    got = observe(P.direct_gradient, task="10.2", inputs=[x], out_grad=g, axes=axes, keepdims=keepdims)[0]
    if close(got, want):
        return None
    where = f" (input {in_shape}, axes={axes}, keepdims={keepdims})"
    message = summation_mistake(observe) or named(got, summation_readings(in_shape, axes, g), S_GENERIC)
    if not isinstance(got, str) and np.shape(got) != in_shape and message == S_GENERIC:
        message = SHAPE
    return message + where


def judge_summation(observe, in_shape, axes, keepdims, x, g) -> None:
    problem = summation_problem(observe, in_shape, axes, keepdims, x, g)
    assert problem is None, problem


def check_summation_gradient_by_hand(observe):
    """the adjoint of summation in graphs worked out by hand"""
    # y = sum(x, axes=1) * w with out_grad ones: L = sum_i w_i sum_j x_ij, so dL/dx_ij = w_i
    # x of shape (2, 3), w = (2, -1): [[2, 2, 2], [-1, -1, -1]]
    x = np.arange(6.0).reshape(2, 3)
    got = through_graph(observe, summation_mistake, task="10.2", graph="weighted", inputs=[x], out_grad=np.ones(2),
                  w=np.array([2.0, -1.0]), axes=1, keepdims=False)[0]
    if not close(got, [[2.0, 2.0, 2.0], [-1.0, -1.0, -1.0]]):
        judge_summation(observe, (2, 3), 1, False, x, np.array([2.0, -1.0]))
        raise AssertionError(S_GENERIC + " (input (2, 3), axes=1)")
    # axes=0 on the same x, w = (1, 2, 3): dL/dx_ij = w_j, [[1, 2, 3], [1, 2, 3]]
    got = through_graph(observe, summation_mistake, task="10.2", graph="weighted", inputs=[x], out_grad=np.ones(3),
                  w=np.array([1.0, 2.0, 3.0]), axes=0, keepdims=False)[0]
    if not close(got, [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]):
        judge_summation(observe, (2, 3), 0, False, x, np.array([1.0, 2.0, 3.0]))
        raise AssertionError(S_GENERIC + " (input (2, 3), axes=0)")


def check_summation_axes_forms(observe, submission_seed):
    """axes None, one int, a tuple, without keepdims"""
    r = rng(submission_seed + 111)
    in_shape = (2, 3, 4)
    x = r.standard_normal(in_shape)
    for axes in (None, 0, 1, 2, (0, 2), (1, 2), (0, 1, 2)):
        g = r.standard_normal(np.sum(x, axis=axes).shape)
        judge_summation(observe, in_shape, axes, False, x, g)


def check_summation_keepdims(observe, submission_seed):
    """keepdims=True: the summed axes stay of size 1"""
    r = rng(submission_seed + 112)
    in_shape = (3, 2, 4)
    x = r.standard_normal(in_shape)
    for axes in (None, 1, (0, 2), 2):
        g = r.standard_normal(np.sum(x, axis=axes, keepdims=True).shape)
        judge_summation(observe, in_shape, axes, True, x, g)


def check_summation_negative_axes(observe, submission_seed):
    """negative axes count from the end: -1, (-2,), (0, -1), with and without keepdims"""
    r = rng(submission_seed + 113)
    in_shape = (3, 4, 2)
    x = r.standard_normal(in_shape)
    for axes, keepdims in ((-1, False), ((-2,), False), ((0, -1), False), (-2, True)):
        g = r.standard_normal(np.sum(x, axis=axes, keepdims=keepdims).shape)
        try:
            problem = summation_problem(observe, in_shape, axes, keepdims, x, g)
        except StudentCodeError as exc:  # raised on a line of the student's: named for the negative axis
            same = summation_problem(observe, in_shape, summed_axes(axes, 3), keepdims, x, g)
            raise AssertionError(str(exc) + (NEGATIVE if same is None else "")) from None
        if problem:
            same = summation_problem(observe, in_shape, summed_axes(axes, 3), keepdims, x, g)
            raise AssertionError(problem + (NEGATIVE if same is None else ""))


def check_summation_in_a_composed_graph(observe, submission_seed):
    """y = s * s with s = sum(exp(x / 2), axes=(0, 2)): x.grad against central differences"""
    r = rng(submission_seed + 114)
    x, g = r.standard_normal((2, 3, 2)), r.standard_normal(3)
    got = through_graph(observe, summation_mistake, task="10.2", graph="composed", inputs=[x], out_grad=g, axes=(0, 2),
                  keepdims=False)[0]
    want = central_differences(lambda v: float(np.sum(np.sum(np.exp(v / 2), axis=(0, 2)) ** 2 * g)), x)
    if close(got, want, 1e-5, 1e-6):
        return
    judge_summation(observe, (2, 3, 2), (0, 2), False, x, g)
    raise AssertionError(S_GENERIC)


# --- Task 10.3: MatMul ----------------------------------------------------------------------
M_NO_BATCH = ("your gradient leaves the batch axes in the adjoint of an operand that had fewer of them: an operand "
              "shared across the batch was used once per batch element, so its adjoint sums over those axes")
M_SIZE_ONE = ("your gradient sums over the new batch axes only: a batch axis of size 1 stretched to a larger size "
              "shares the operand too, so its adjoint sums over that axis as well (kept as size 1)")
M_NO_RESHAPE = ("your gradient sums over the right batch axes but drops the stretched size-1 ones: reshape the "
                "adjoint back to the operand's shape")
M_SWAPPED = ("your gradient multiplies in the wrong order or transposes the wrong factor: from c_ik = sum_j a_ij b_jk, "
             "the adjoint of a is out_grad times b transposed, and of b is a transposed times out_grad")
M_ALL_AXES = ("your gradient transposes every axis (numpy's .T reverses them all): for a batch of matrices the "
              "transpose swaps the last two axes only (ops.transpose's default)")
M_GENERIC = ("wrong adjoint: c_ik = sum_j a_ij b_jk for each matrix of the batch, and an operand shared across batch "
             "elements collects the adjoints of all its uses")


def swap(m):
    return np.swapaxes(m, -1, -2)


def reduce_readings(full, shape) -> dict:
    """What each batch-reduction mistake makes of the unreduced adjoint ``full`` for an operand of ``shape``."""
    lead, stretched = repeated_axes(shape[:-2], full.shape[:-2])
    readings = {}
    if stretched:  # first: with no new axes, summing over the new ones only leaves all in
        readings[M_SIZE_ONE] = np.sum(full, axis=lead)
        readings[M_NO_RESHAPE] = np.sum(full, axis=lead + stretched)
    if lead or stretched:
        readings[M_NO_BATCH] = full
    return readings


def reduce_to(full, shape):
    lead, stretched = repeated_axes(shape[:-2], full.shape[:-2])
    return np.sum(full, axis=lead + stretched).reshape(shape)


def matmul_readings(a, b, g, k: int) -> dict:
    """What each named mistake returns for operand k (0: a, 1: b)."""
    full = g @ swap(b) if k == 0 else swap(a) @ g
    shape = (a if k == 0 else b).shape
    readings = reduce_readings(full, shape)
    for message, make in ((M_SWAPPED, lambda: swap(g) @ b if k == 0 else a @ swap(g)),
                          (M_ALL_AXES, lambda: reduce_to(g @ b.T, shape) if k == 0 else reduce_to(a.T @ g, shape))):
        try:
            readings[message] = make()
        except ValueError:  # shapes that do not align: that mistake raises instead
            pass
    return readings


def matmul_mistake(observe) -> str | None:
    r = np.random.default_rng(7)  # a batch of square matrices times one: every mistake its own result
    a, b, g = r.standard_normal((2, 2, 2)), r.standard_normal((2, 2)), r.standard_normal((2, 2, 2))
    want = [numeric(np.matmul, [a, b], g, 0), numeric(np.matmul, [a, b], g, 1)]
    return calibrated(observe, lambda k: matmul_readings(a, b, g, k), ([a, b], g, {"task": "10.3"}, want), M_GENERIC)


def matmul_problem(observe, a, b, g) -> str | None:
    want_a = numeric(np.matmul, [a, b], g, 0)
    want_b = numeric(np.matmul, [a, b], g, 1)
    try:
        got_a, got_b = observe(P.direct_gradient, task="10.3", inputs=[a, b], out_grad=g)
    except StudentCodeError:
        mistake = matmul_mistake(observe)
        if mistake is None:
            raise
        return mistake + f" (a of shape {a.shape}, b of shape {b.shape})"
    if close(got_a, want_a) and close(got_b, want_b):
        return None
    where = f" (a of shape {a.shape}, b of shape {b.shape})"
    mistake = matmul_mistake(observe)
    for k, (got, want, shape, name) in enumerate(((got_a, want_a, a.shape, "a"), (got_b, want_b, b.shape, "b"))):
        if close(got, want):
            continue
        if isinstance(got, str):
            return (mistake or KIND.get(got, M_GENERIC)) + where
        message = mistake or named(got, matmul_readings(a, b, g, k), M_GENERIC)
        if message == M_GENERIC and np.shape(got) != shape:
            message = SHAPE
        return f"{message}: the adjoint of {name}" + where
    return M_GENERIC + where


def through_graph(observe, mistake, **params) -> list:
    """graph_gradient's reports; an error raised on the student's line is named by the calibration's
    mistake when it has one (one mistake, one message), else shown as it is."""
    try:
        return observe(P.graph_gradient, **params)
    except StudentCodeError:
        named_mistake = mistake(observe)
        if named_mistake is None:
            raise
        raise AssertionError(named_mistake) from None


def judge_matmul(observe, a, b, g) -> None:
    problem = matmul_problem(observe, a, b, g)
    assert problem is None, problem


def check_matmul_gradient_by_hand(observe):
    """the adjoints of a 2-D and of a batched product, worked out by hand"""
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    b = np.array([[5.0, 6.0], [7.0, 8.0]])
    # out_grad picks c_01 = a_00 b_01 + a_01 b_11: dL/da = [[b_01, b_11], [0, 0]] = [[6, 8], [0, 0]],
    # dL/db = [[0, a_00], [0, a_01]] = [[0, 1], [0, 2]]
    g = np.array([[0.0, 1.0], [0.0, 0.0]])
    got_a, got_b = through_graph(observe, matmul_mistake, task="10.3", graph="alone", inputs=[a, b], out_grad=g)
    if not (close(got_a, [[6.0, 8.0], [0.0, 0.0]]) and close(got_b, [[0.0, 1.0], [0.0, 2.0]])):
        judge_matmul(observe, a, b, g)
        raise AssertionError(M_GENERIC + " (2-D)")
    # a batch of two: a3[k] = a + 10k, b shared. out_grad ones everywhere: L = sum_k sum_ik c[k]_ik, so
    # dL/db_jk = sum over the batch and the rows of a3[.]_ij = (1+3) + (11+13) = 28 for j = 0, (2+4) + (12+14) = 32 for j = 1
    a3 = np.array([a, a + 10.0])
    got_a, got_b = through_graph(observe, matmul_mistake, task="10.3", graph="alone", inputs=[a3, b], out_grad=np.ones((2, 2, 2)))
    if not close(got_b, [[28.0, 28.0], [32.0, 32.0]]):
        judge_matmul(observe, a3, b, np.ones((2, 2, 2)))
        raise AssertionError(M_GENERIC + " (a batch of two times one b)")


def check_matmul_one_operand_batched(observe, submission_seed):
    """one operand batched, the other shared: (2, 3, 4) @ (4, 5), (3, 4) @ (2, 4, 5), (2, 2, 3, 4) @ (4, 2)"""
    r = rng(submission_seed + 121)
    for sa, sb in [((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)), ((2, 2, 3, 4), (4, 2))]:
        a, b = r.standard_normal(sa), r.standard_normal(sb)
        judge_matmul(observe, a, b, r.standard_normal(np.matmul(a, b).shape))


def check_matmul_batch_axes_broadcast(observe, submission_seed):
    """batch axes broadcast both ways, size-1 axes stretched: (2, 1, 3, 4) @ (5, 4, 2), (1, 3, 4) @ (2, 4, 3)"""
    r = rng(submission_seed + 122)
    for sa, sb in [((2, 1, 3, 4), (5, 4, 2)), ((1, 3, 4), (2, 4, 3)), ((3, 1, 2, 2), (1, 4, 2, 3))]:
        a, b = r.standard_normal(sa), r.standard_normal(sb)
        judge_matmul(observe, a, b, r.standard_normal(np.matmul(a, b).shape))


def check_matmul_in_a_composed_graph(observe, submission_seed):
    """y = c * c with c = exp(a / 2) @ exp(b / 2), batched: both leaves' .grad against central differences"""
    r = rng(submission_seed + 123)
    a, b = r.standard_normal((2, 3, 4)) * 0.5, r.standard_normal((4, 2)) * 0.5
    g = r.standard_normal((2, 3, 2))

    def loss(u, v):
        return float(np.sum((np.exp(u / 2) @ np.exp(v / 2)) ** 2 * g))

    got_a, got_b = through_graph(observe, matmul_mistake, task="10.3", graph="composed", inputs=[a, b], out_grad=g)
    want_a, want_b = central_differences(lambda u: loss(u, b), a), central_differences(lambda v: loss(a, v), b)
    if close(got_a, want_a, 1e-5, 1e-6) and close(got_b, want_b, 1e-5, 1e-6):
        return
    judge_matmul(observe, np.exp(a / 2), np.exp(b / 2), 2 * (np.exp(a / 2) @ np.exp(b / 2)) * g)
    raise AssertionError(M_GENERIC)
