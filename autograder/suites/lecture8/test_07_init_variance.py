"""Hidden tests for 07_init_variance (Tasks 6.1, 6.2 and 6.3).

Statistical tolerances. Every probe seeds numpy's generator, so a correct solution gives the
same numbers at every grading; the tolerances are still chosen so that ANY seed (or a correct
solution that draws in another order) passes with overwhelming probability:
* sample std of n i.i.d. draws: relative standard error 1/sqrt(2n) for a normal and
  sqrt((kurtosis - 1) / (4n)) = 0.45/sqrt(n) for a uniform; with n >= 100,000 both are
  <= 0.23 %, so a 3 % relative tolerance is >= 13 standard errors. The mistakes it must catch
  are >= 15 % off (ReLU gain missing: 29 %; Xavier-style fans: >= 15 %; bound sqrt(2/fan_in)
  instead of sqrt(6/fan_in): 42 %).
* sample mean: standard error sigma/sqrt(n) <= 0.0032 sigma; tolerance 0.02 sigma (>= 6 SE).
* a fraction p of n draws: standard error sqrt(p(1-p)/n) <= 0.0016; tolerance 0.01 (>= 6 SE).
* maximum of n uniform draws on (-b, b): P(max |w| < (1 - e) b) = (1 - e)^n; with e = 0.005
  and n >= 100,000 that is below e^-500.
"""
import math

import numpy as np

from autograder.suite import assert_close, graded, load_probes

P = load_probes(__file__)

# Needle's own implementation of each task: a task answered with it scores nothing.
# needle.init's rand / randn (with your own bound or std) stay allowed.
OWN_WORK = {
    "7.1": ("kaiming_normal", ["needle.init.kaiming_normal", "needle.init.kaiming_uniform"]),
    "7.2": ("kaiming_uniform", ["needle.init.kaiming_normal", "needle.init.kaiming_uniform"]),
}

BIG = (500, 240)  # 120,000 draws, fan_in != fan_out so that a fan_out or Xavier formula shows


def _weights(report, fan_in, fan_out, what):
    """The drawn values as float64, after checking they are a float32 Tensor of the right shape."""
    assert isinstance(report, dict) and report["is_tensor"] is True, (
        f"{what} must return a needle Tensor (wrap the numpy array: ndl.Tensor(array, dtype='float32'))"
    )
    assert report["shape"] == [fan_in, fan_out], (
        f"{what}(fan_in, fan_out) must have shape (fan_in, fan_out), the layout of x @ W: check the order of the two sizes"
    )
    assert report["dtype"] == "float32", f"{what} must return float32 values, the dtype of needle's parameters"
    return np.asarray(report["values"], dtype=np.float64)


def _check_std(values, want, what, hint):
    std = float(np.std(values))
    assert abs(np.mean(values)) < 0.02 * want, f"{what}: the weights should have mean 0 (draw symmetrically around 0)"
    assert abs(std / want - 1) < 0.03, f"{what}: the standard deviation of the weights is off: {hint}"


# --- Task 7.1: kaiming_normal ----------------------------------------------------------------


@graded("7.1", points=1)
def test_normal_shape_and_type(observe):
    """kaiming_normal returns a float32 Tensor of shape (fan_in, fan_out)"""
    for fan_in, fan_out in [(3, 7), (9, 2), (1, 1)]:
        _weights(observe(P.draw, name="kaiming_normal", fan_in=fan_in, fan_out=fan_out, seed=11), fan_in, fan_out, "kaiming_normal")


@graded("7.1", points=2)
def test_normal_std(observe):
    """kaiming_normal has mean 0 and std sqrt(2 / fan_in) (large draw)"""
    fan_in, fan_out = BIG
    values = _weights(observe(P.draw, name="kaiming_normal", fan_in=fan_in, fan_out=fan_out, seed=3), fan_in, fan_out, "kaiming_normal")
    # Var(W) = 2 / fan_in: the 2 makes up for ReLU zeroing half of each pre-activation's mass
    _check_std(values, math.sqrt(2.0 / fan_in), "kaiming_normal",
               "use std = sqrt(2 / fan_in), with the ReLU gain sqrt(2) and fan_in only")


@graded("7.1", points=2)
def test_normal_std_uses_fan_in(observe):
    """kaiming_normal's std depends on fan_in, not on fan_out"""
    for fan_in, fan_out in [(100, 1000), (1000, 100)]:
        values = _weights(observe(P.draw, name="kaiming_normal", fan_in=fan_in, fan_out=fan_out, seed=5), fan_in, fan_out, "kaiming_normal")
        _check_std(values, math.sqrt(2.0 / fan_in), "kaiming_normal",
                   "Kaiming keeps the forward variance, which depends on fan_in only (not fan_out, not fan_in + fan_out as Xavier)")


@graded("7.1", points=1)
def test_normal_is_gaussian(observe):
    """kaiming_normal draws from a normal distribution"""
    fan_in, fan_out = BIG
    values = _weights(observe(P.draw, name="kaiming_normal", fan_in=fan_in, fan_out=fan_out, seed=7), fan_in, fan_out, "kaiming_normal")
    # a normal puts 68.27 % of its mass within one std of its mean (a uniform 57.7 %); the
    # sample's own std is used, so this test judges the shape whatever the scale
    within = float(np.mean(np.abs(values - np.mean(values)) < np.std(values)))
    assert abs(within - 0.6827) < 0.01, "kaiming_normal should draw from a normal (Gaussian) distribution: use np.random.randn or np.random.normal"


@graded("7.1", points=1)
def test_normal_draws_differ(observe):
    """two calls of kaiming_normal give different weights"""
    out = observe(P.draw_twice_and_reseed, name="kaiming_normal", fan_in=30, fan_out=20, seed=13)
    assert not np.array_equal(out["first"], out["second"]), (
        "two calls returned the same weights: draw fresh random numbers each call (do not re-seed or reuse a fixed generator)"
    )


@graded("7.1", points=1)
def test_normal_reproducible(observe):
    """kaiming_normal is reproducible under np.random.seed"""
    out = observe(P.draw_twice_and_reseed, name="kaiming_normal", fan_in=30, fan_out=20, seed=17)
    assert np.array_equal(out["first"], out["again"]), (
        "after the same np.random.seed the weights differ: draw from numpy's global generator (np.random.randn), "
        "not from a new np.random.default_rng()"
    )


# --- Task 7.2: kaiming_uniform ---------------------------------------------------------------


@graded("7.2", points=1)
def test_uniform_shape_and_type(observe):
    """kaiming_uniform returns a float32 Tensor of shape (fan_in, fan_out)"""
    for fan_in, fan_out in [(4, 6), (8, 3), (1, 1)]:
        _weights(observe(P.draw, name="kaiming_uniform", fan_in=fan_in, fan_out=fan_out, seed=19), fan_in, fan_out, "kaiming_uniform")


@graded("7.2", points=2)
def test_uniform_bound(observe):
    """kaiming_uniform stays within, and reaches, the bound sqrt(6 / fan_in)"""
    fan_in, fan_out = BIG
    values = _weights(observe(P.draw, name="kaiming_uniform", fan_in=fan_in, fan_out=fan_out, seed=23), fan_in, fan_out, "kaiming_uniform")
    bound = math.sqrt(6.0 / fan_in)  # Var(U(-b, b)) = b^2 / 3 = 2 / fan_in
    biggest = float(np.max(np.abs(values)))
    # 1e-6: a float64 draw just below the bound may round up when cast to float32
    assert biggest <= bound * (1 + 1e-6), (
        "kaiming_uniform has weights beyond the bound b = sqrt(6 / fan_in): draw from U(-b, b) (not a normal)"
    )
    assert biggest >= bound * 0.995, (
        "the largest |weight| stays well below the bound b: use b = gain * sqrt(3 / fan_in) = sqrt(6 / fan_in) "
        "(Var(U(-b, b)) = b^2 / 3, so the factor 3 matters)"
    )


@graded("7.2", points=2)
def test_uniform_std(observe):
    """kaiming_uniform is flat on (-b, b), with mean 0 and std sqrt(2 / fan_in)"""
    fan_in, fan_out = BIG
    values = _weights(observe(P.draw, name="kaiming_uniform", fan_in=fan_in, fan_out=fan_out, seed=29), fan_in, fan_out, "kaiming_uniform")
    _check_std(values, math.sqrt(2.0 / fan_in), "kaiming_uniform",
               "Var(U(-b, b)) = b^2 / 3 must equal 2 / fan_in, so b = sqrt(6 / fan_in)")
    bound = math.sqrt(6.0 / fan_in)
    half = float(np.mean(np.abs(values) < bound / 2))  # 1/2 for a uniform on (-b, b)
    assert abs(half - 0.5) < 0.01, "kaiming_uniform should be uniform on (-b, b): use np.random.uniform(-b, b, size)"


@graded("7.2", points=1)
def test_uniform_std_uses_fan_in(observe):
    """kaiming_uniform's bound depends on fan_in, not on fan_out"""
    for fan_in, fan_out in [(100, 1000), (1000, 100)]:
        values = _weights(observe(P.draw, name="kaiming_uniform", fan_in=fan_in, fan_out=fan_out, seed=31), fan_in, fan_out, "kaiming_uniform")
        _check_std(values, math.sqrt(2.0 / fan_in), "kaiming_uniform",
                   "the bound sqrt(6 / fan_in) depends on fan_in only (not fan_out, not fan_in + fan_out as Xavier)")


@graded("7.2", points=1)
def test_uniform_draws_differ(observe):
    """two calls of kaiming_uniform give different weights"""
    out = observe(P.draw_twice_and_reseed, name="kaiming_uniform", fan_in=30, fan_out=20, seed=37)
    assert not np.array_equal(out["first"], out["second"]), (
        "two calls returned the same weights: draw fresh random numbers each call (do not re-seed or reuse a fixed generator)"
    )


@graded("7.2", points=1)
def test_uniform_reproducible(observe):
    """kaiming_uniform is reproducible under np.random.seed"""
    out = observe(P.draw_twice_and_reseed, name="kaiming_uniform", fan_in=30, fan_out=20, seed=41)
    assert np.array_equal(out["first"], out["again"]), (
        "after the same np.random.seed the weights differ: draw from numpy's global generator (np.random.uniform), "
        "not from a new np.random.default_rng()"
    )


# --- Task 7.3: activation_stds ---------------------------------------------------------------


def _stds(out, depth, what="activation_stds"):
    assert isinstance(out, dict) and out["is_list"] is True, f"{what} must return a list of floats"
    values = out["values"]
    assert len(values) == depth, f"{what} must return one std per layer: `depth` values, without the input's std"
    assert all(v is not None for v in values), f"{what} must return floats (use float(np.std(x.numpy())))"
    return np.asarray(values, dtype=np.float64)


@graded("7.3", points=1)
def test_stds_returns_depth_floats(observe):
    """activation_stds returns one float per layer"""
    for depth in (1, 5):
        _stds(observe(P.stds, init="kaiming_normal_ref", depth=depth, width=16, n_samples=32, seed=43), depth)


@graded("7.3", points=2)
def test_stds_identity_layers_scale_by_c(observe):
    """with W = c I (c > 0) each layer's std is c times the previous one"""
    # x_l = relu(x_{l-1} @ cI) = c relu(x_{l-1}) = c^l relu(x_0) for c > 0, so
    # std_{l+1} / std_l = c exactly, whatever the random x_0 (float32 rounding only: rtol 1e-4)
    for c, depth in [(1.5, 6), (0.5, 5)]:
        values = _stds(observe(P.stds, init="identity", c=c, depth=depth, width=12, n_samples=50, seed=47), depth)
        assert np.all(values > 0), "a layer's std is 0 with W = c I (c > 0): record the std of relu(x @ W), the layer's output"
        assert_close(values[1:] / values[:-1], np.full(depth - 1, c),
                     "with W = c I the std should grow by exactly c per layer: feed each layer's output into the next "
                     "(x = relu(x @ W)) and record the std after the ReLU", rtol=1e-4, atol=0.0)


@graded("7.3", points=2)
def test_stds_first_layer_is_post_relu(observe):
    """the first std is that of relu(x_0) for x_0 = np.random.randn(n_samples, width)"""
    seed, n_samples, width = 53, 40, 9
    values = _stds(observe(P.stds, init="identity", c=1.0, depth=3, width=width, n_samples=n_samples, seed=seed), 3)
    # with W = I every layer's output is relu(x_0): the recorded std must be std(relu(x_0))
    x0 = P.first_input(seed, n_samples, width).astype(np.float64)
    want = np.std(np.maximum(x0, 0.0))
    assert_close(values, np.full(3, want),
                 "with W = I each layer outputs relu(x_0): draw x_0 = np.random.randn(n_samples, width) first, then record "
                 "the std of the ReLU's output (not of x @ W before the ReLU)", rtol=1e-4, atol=0.0)


@graded("7.3", points=1)
def test_stds_relu_after_every_layer(observe):
    """the ReLU is applied after every layer"""
    # W = -I: x_1 = relu(-x_0) >= 0, then x_2 = relu(-x_1) = 0 and every later layer is 0
    values = _stds(observe(P.stds, init="identity", c=-1.0, depth=4, width=10, n_samples=30, seed=59), 4)
    assert values[0] > 0, "with W = -I the first layer's output relu(-x_0) is not constant: record the std of each layer's output"
    assert np.all(np.abs(values[1:]) < 1e-7), "apply the ReLU after every layer (x = relu(x @ W)), and record its output"


@graded("7.3", points=1)
def test_stds_new_weights_per_layer(observe):
    """activation_stds calls init_fn(width, width) once per layer"""
    out = observe(P.stds, init="kaiming_normal_ref", depth=6, width=8, n_samples=20, seed=61)
    _stds(out, 6)
    assert out["calls"] == [[8, 8]] * 6, "draw a fresh weight matrix W = init_fn(width, width) for each of the depth layers"


@graded("7.3", points=2)
def test_stds_kaiming_keeps_scale(observe):
    """with Kaiming init the stds stay level over 20 layers"""
    depth = 20
    values = _stds(observe(P.stds, init="kaiming_normal_ref", depth=depth, width=256, n_samples=500, seed=67), depth)
    assert np.all(np.isfinite(values)) and np.all(values > 0), "with Kaiming init every layer's std is a positive number"
    # Calibrated on 300 seeds: the per-layer growth exp(log(std_20 / std_1) / 19) lies within
    # 1 +- 0.05 (its log has std 0.013, so 0.9..1.1 is 8 standard deviations), and every std
    # within 0.38..2.2 of the first. Xavier init shrinks by 0.71 per layer, no ReLU grows by 1.41.
    growth = math.exp(math.log(values[-1] / values[0]) / (depth - 1))
    assert 0.9 < growth < 1.1 and np.all((values / values[0] > 0.25) & (values / values[0] < 4)), (
        "with Kaiming weights the activations' std should stay roughly level through the layers: apply the ReLU "
        "after each matmul and record the std of its output"
    )


@graded("7.3", points=1)
def test_stds_naive_init_explodes(observe):
    """with N(0, 1) weights the std grows by about sqrt(width / 2) per layer"""
    depth, width = 6, 128
    values = _stds(observe(P.stds, init="naive", depth=depth, width=width, n_samples=500, seed=71), depth)
    assert np.all(np.isfinite(values)) and np.all(values > 0), "with N(0, 1) init every layer's std is a positive number"
    # Var(z_l) = width * 1 * E[x_{l-1}^2] and E[relu(z)^2] = Var(z) / 2: growth sqrt(width / 2) = 8.
    # Calibrated on 300 seeds: measured growth 7.46..8.75 (log std 0.027); 20 % is 7 std devs, and
    # a missing ReLU gives sqrt(width) = 11.3 (41 % more).
    growth = math.exp(math.log(values[-1] / values[0]) / (depth - 1))
    assert abs(growth / math.sqrt(width / 2) - 1) < 0.2, (
        "with N(0, 1) weights the std should grow by about sqrt(width / 2) per layer: each layer is "
        "x = relu(x @ W), and its std is measured after the ReLU"
    )
