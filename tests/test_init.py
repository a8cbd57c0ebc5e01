"""Initializers: shapes, reproducibility, and the variances the formulas promise."""
import math

import numpy as np
import pytest

import needle as ndl
from needle import init


def test_factories():
    assert init.zeros(2, 3).shape == (2, 3) and not init.zeros(2).numpy().any()
    assert np.all(init.ones(4).numpy() == 1) and init.ones(4).dtype == np.float32
    np.testing.assert_array_equal(init.constant(2, c=7.0).numpy(), [7.0, 7.0])
    assert init.rand(3, 3, low=2, high=3).numpy().min() >= 2
    assert init.randn((2, 5)).shape == (2, 5)
    assert init.randb(100, p=1.0).numpy().all() and not init.randb(100, p=0.0).numpy().any()
    np.testing.assert_array_equal(init.one_hot(3, [2, 0]).numpy(), [[0, 0, 1], [1, 0, 0]])
    np.testing.assert_array_equal(init.one_hot(2, [[1], [0]]).numpy(), [[[0, 1]], [[1, 0]]])  # labels' shape + (n,)
    weights = init.one_hot_array(3, [1, 1], "float64", value=-0.5)  # a loss's -1/N in place of the 1
    assert weights.dtype == np.float64
    np.testing.assert_array_equal(weights, [[0, -0.5, 0], [0, -0.5, 0]])
    t = ndl.Tensor(np.ones((2, 2)), dtype="float64")
    assert init.zeros_like(t).dtype == np.float64 and init.ones_like(t).shape == (2, 2)
    assert init.ones(2, requires_grad=True).requires_grad and not init.ones(2).requires_grad


def test_one_hot_rows_from_the_kept_table_match_the_general_path():
    # up to 256 classes, rows come from a cached table; above, they are written one by one
    labels = np.array([[3, 0], [255, 7]])
    small = init.one_hot_array(256, labels, "float32", value=-0.25)
    large = init.one_hot_array(257, labels, "float32", value=-0.25)
    np.testing.assert_array_equal(small, large[..., :256])
    assert small.shape == (2, 2, 256) and small.flags.writeable and not large[..., 256].any()
    small[0, 0, 3] = 9  # the caller's own array: the next call is not affected
    np.testing.assert_array_equal(init.one_hot_array(3, [1], value=np.array(-0.5)), [[0, -0.5, 0]])  # not a cache key
    assert init.one_hot_array(256, [3], "float32", value=-0.25)[0, 3] == -0.25
    np.testing.assert_array_equal(init.one_hot_array(4, np.array([3, 0], ">i4")), [[0, 0, 0, 1], [1, 0, 0, 0]])
    for dtype in (np.int8, np.int32, np.int64, np.uint8, np.uint64, ">i8"):  # negative or too large, each width
        for bad in ([0, -1], [0, 4]) if np.dtype(dtype).kind == "i" else ([0, 4],):
            with pytest.raises(ValueError, match=r"labels must lie in \[0, 4\)"):
                init.one_hot_array(4, np.array(bad, dtype))


def test_seed_makes_draws_reproducible():
    np.random.seed(5)
    a = init.kaiming_uniform(4, 3).numpy()
    np.random.seed(5)
    b = init.kaiming_uniform(4, 3).numpy()
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    "fn, expected_std",
    [
        (lambda i, o: init.kaiming_normal(i, o), lambda i, o: math.sqrt(2 / i)),
        (lambda i, o: init.kaiming_uniform(i, o), lambda i, o: math.sqrt(2 / i)),
        (lambda i, o: init.kaiming_normal(i, o, nonlinearity="linear"), lambda i, o: math.sqrt(1 / i)),
        (lambda i, o: init.kaiming_uniform(i, o, nonlinearity="tanh"), lambda i, o: 5 / 3 / math.sqrt(i)),
        (lambda i, o: init.xavier_uniform(i, o), lambda i, o: math.sqrt(2 / (i + o))),
        (lambda i, o: init.xavier_normal(i, o, gain=2.0), lambda i, o: 2 * math.sqrt(2 / (i + o))),
    ],
)
def test_initializer_std(fn, expected_std):
    np.random.seed(0)
    fan_in, fan_out = 400, 300  # 120,000 draws: the sample std is within 1% w.h.p.
    w = fn(fan_in, fan_out)
    assert w.shape == (fan_in, fan_out)
    assert abs(w.numpy().mean()) < 0.02 * expected_std(fan_in, fan_out)  # ~7 standard errors
    assert w.numpy().std() == pytest.approx(expected_std(fan_in, fan_out), rel=0.01)


def test_kaiming_uniform_bound():
    # U(-b, b) with b = sqrt(2) * sqrt(3 / fan_in) = sqrt(6 / fan_in)
    np.random.seed(0)
    w = init.kaiming_uniform(24, 1000).numpy()
    bound = math.sqrt(6 / 24)
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.99 * bound


def test_xavier_uniform_bound_scales_with_gain():
    """xavier_uniform(gain=g) is U(-a, a) with a = g * sqrt(6 / (in + out)), reached closely."""
    # 60 x 40 = 2400 draws, a = 3 * sqrt(6 / 100) = 0.735: either end misses 0.99 a w.p. 0.995^2400 ~ 6e-6.
    np.random.seed(0)
    w = init.xavier_uniform(60, 40, gain=3.0, dtype="float64").numpy()
    a = 3.0 * math.sqrt(6 / 100)
    assert np.abs(w).max() <= a and w.max() > 0.99 * a and w.min() < -0.99 * a


def test_xavier_normal_default_gain_is_one():
    """xavier_normal without a gain has std sqrt(2 / (in + out))."""
    np.random.seed(0)
    w = init.xavier_normal(400, 300).numpy()  # 120,000 draws: sample std within 1% w.h.p.
    assert w.std() == pytest.approx(math.sqrt(2 / 700), rel=0.01)


@pytest.mark.parametrize(
    "nonlinearity, gain",
    [
        ("linear", 1.0),
        ("identity", 1.0),
        ("sigmoid", 1.0),
        ("tanh", 5 / 3),
        ("relu", math.sqrt(2.0)),
        ("leaky_relu", math.sqrt(2 / (1 + 0.01**2))),  # PyTorch: sqrt(2 / (1 + slope^2)), slope 0.01
    ],
)
def test_calculate_gain_matches_pytorch_table(nonlinearity, gain):
    """calculate_gain returns torch.nn.init.calculate_gain's recommended gains."""
    assert init.calculate_gain(nonlinearity) == pytest.approx(gain, rel=1e-12)


def test_initializer_errors():
    with pytest.raises(ValueError, match="unknown nonlinearity 'swish'"):
        init.kaiming_normal(3, 3, nonlinearity="swish")
    with pytest.raises(ValueError, match="fan_in must be a positive integer"):
        init.kaiming_uniform(0, 3)
    with pytest.raises(ValueError, match="shape entries must be non-negative integers"):
        init.zeros(2, -1)
    with pytest.raises(ValueError, match=r"labels must lie in \[0, 3\)"):
        init.one_hot(3, [3])
    with pytest.raises(ValueError, match="p must be a probability"):
        init.randb(2, p=1.5)
