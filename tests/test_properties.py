"""Property tests (hypothesis): invariants that must hold for any input."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

import needle as ndl
from needle import ops
from needle.gradcheck import gradcheck

finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False, width=64)
matrices = arrays(np.float64, array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=5), elements=finite)


@settings(max_examples=60, deadline=None)
@given(matrices, st.floats(-1e4, 1e4, allow_nan=False))
def test_logsumexp_shift_invariance(x, c):
    lse = ops.logsumexp(ndl.Tensor(x, dtype="float64"), axes=(1,)).numpy()
    shifted = ops.logsumexp(ndl.Tensor(x + c, dtype="float64"), axes=(1,)).numpy()
    np.testing.assert_allclose(shifted, lse + c, rtol=1e-9, atol=1e-9 * (1 + abs(c)))


@settings(max_examples=60, deadline=None)
@given(matrices)
def test_logsumexp_bounds(x):
    # max <= lse <= max + log(n)
    lse = ops.logsumexp(ndl.Tensor(x, dtype="float64"), axes=(1,)).numpy()
    m = x.max(axis=1)
    assert np.all(lse >= m - 1e-9) and np.all(lse <= m + np.log(x.shape[1]) + 1e-9)


@settings(max_examples=60, deadline=None)
@given(matrices)
def test_softmax_from_logsoftmax_sums_to_one(x):
    p = np.exp(ops.logsoftmax(ndl.Tensor(x, dtype="float64")).numpy())
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=1e-12)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.integers(1, 3), min_size=1, max_size=3).flatmap(
        lambda shape: st.tuples(st.just(tuple(shape)), st.lists(st.booleans(), min_size=len(shape), max_size=len(shape)), st.integers(0, 2))
    ),
    st.integers(0, 2**31 - 1),
)
def test_broadcast_then_sum_gradients_have_the_right_layout(spec, seed):
    """broadcast_to from a shape with some size-1 axes and new leading axes, then reduce."""
    target, squeeze, lead = spec
    src = tuple(1 if s else n for n, s in zip(target, squeeze))
    full = (2,) * lead + target
    x = np.random.default_rng(seed).standard_normal(src)
    gradcheck(lambda a: ops.summation(ops.broadcast_to(a, full) * ops.broadcast_to(a, full), (0,)), x, seed=seed)


@settings(max_examples=25, deadline=None)
@given(arrays(np.float64, (3, 2), elements=st.floats(0.5, 3, width=64)), arrays(np.float64, (3, 2), elements=finite.map(lambda v: v / 25)))
def test_random_elementwise_composition_gradients(a, b):
    gradcheck(lambda a, b: ops.log(a * a + ops.exp(b)) / a - b**2 + (2 - a) / (a + 1), a, b)
