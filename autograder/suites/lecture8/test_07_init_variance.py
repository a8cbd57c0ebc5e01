"""Hidden tests for 07_init_variance (Tasks 7.1, 7.2 and 7.3).

Statistical tolerances. Every probe seeds numpy's generator, so a correct solution gives the
same numbers at every grading; the tolerances are still chosen so that ANY seed (or a correct
solution that draws in another order) passes with overwhelming probability:
* sample std of n i.i.d. draws: relative standard error 1/sqrt(2n) for a normal and
  sqrt((kurtosis - 1) / (4n)) = 0.45/sqrt(n) for a uniform; with n >= 100,000 both are
  <= 0.23 %, so a 3 % relative tolerance is >= 13 standard errors. The mistakes it must catch
  are >= 4.7 % off (Xavier's std on a layer with fan_in = 10 fan_out; the others >= 15 %).
* naming a mistake: the measured std (or bound) is matched to what each plausible wrong formula
  gives within 2 % (>= 8 standard errors); at the sizes used, any two formulas are >= 4.7 %
  apart, so at most one matches.
* sample mean: standard error sigma/sqrt(n) <= 0.0032 sigma; tolerance 0.02 sigma (>= 6 SE).
* a fraction p of n draws: standard error sqrt(p(1-p)/n) <= 0.0016; tolerance 0.01 (>= 6 SE).
* maximum of n uniform draws on (-b, b): P(max |w| < (1 - e) b) = (1 - e)^n; with e = 0.005
  and n >= 100,000 that is below e^-500.
"""
import math

import numpy as np

from autograder.suite import assert_close, graded, load_probes

P = load_probes(__file__)

# What computes each task's answer, so that a task answered with it scores nothing: needle's own
# initializers and other libraries' Kaiming initializers (PyTorch's; none is in the grader's
# worker, which has numpy and needle only). needle.init's rand / randn (with your own bound or
# std) stay allowed.
KAIMING = ["needle.init.kaiming_normal", "needle.init.kaiming_uniform", "torch.nn.init.kaiming_normal_",
           "torch.nn.init.kaiming_uniform_"]
OWN_WORK = {"7.1": ("kaiming_normal", KAIMING), "7.2": ("kaiming_uniform", KAIMING)}

BIG = (400, 250)  # 100,000 draws, fan_in != fan_out so that a fan_out or Xavier formula shows

# Plausible wrong formulas, as (what is wrong, the std of a normal / the bound of a uniform it
# gives for (fan_in, fan_out)). The right ones follow from the variance condition: one ReLU layer multiplies
# E[x^2] by fan_in Var(W) / 2 (Var(z) = fan_in Var(W) E[x^2], and the ReLU keeps half of E[z^2]); that factor
# is 1 for Var(W) = 2 / fan_in, so the normal's std is sqrt(2 / fan_in) and, as Var(U(-b, b)) = b^2 / 3, the
# uniform's bound is sqrt(3 * 2 / fan_in) = sqrt(6 / fan_in). The messages name the student's formula and what
# it does to a layer, never the right one (the student derives it).
GAIN = ("with it each ReLU layer halves E[x^2] (the ReLU zeroes half of E[z^2], section 2): the variance must "
        "make up for what the ReLU takes")
NORMAL_STD_MISTAKES = [
    ("your std is sqrt(1 / fan_in): " + GAIN, lambda n, m: math.sqrt(1 / n)),
    ("your std is 2 / fan_in: with it each ReLU layer multiplies E[x^2] by 2 / fan_in, which vanishes in wide "
     "layers (a variance used as the standard deviation? numpy's normal takes the std)",
     lambda n, m: 2 / n),
    ("your std is sqrt(2 / fan_out): fan_out is in the formula, but the forward variance depends on fan_in only",
     lambda n, m: math.sqrt(2 / m)),
    ("your std is sqrt(4 / (fan_in + fan_out)): Xavier's fans are in the formula, but Kaiming keeps the forward "
     "variance, which depends on fan_in only", lambda n, m: math.sqrt(4 / (n + m))),
    ("your std is Xavier's, sqrt(2 / (fan_in + fan_out)): Kaiming keeps the forward variance through a ReLU, "
     "which depends on fan_in only",
     lambda n, m: math.sqrt(2 / (n + m))),
    ("your std is 2 / sqrt(fan_in): with it each ReLU layer doubles E[x^2]; the square root must cover the 2 too "
     "(2 / fan_in ** 0.5 takes the root of fan_in alone: ** binds tighter than /)", lambda n, m: 2 / math.sqrt(n)),
    ("your std is sqrt(6 / fan_in): with it each ReLU layer triples E[x^2]",
     lambda n, m: math.sqrt(6 / n)),
    ("your std is sqrt(2) / fan_in: it shrinks as 1 / fan_in, so E[x^2] would shrink more in wider layers; the "
     "square root must cover fan_in too",
     lambda n, m: math.sqrt(2) / n),
    # the variance condition solved upside down: fan_in Var(W) / 2 = 1 read as Var(W) = fan_in / 2
    ("your std is sqrt(fan_in / 2): the variance condition is solved upside down, so E[x^2] grows with the width",
     lambda n, m: math.sqrt(n / 2)),
]
UNIFORM_BOUND_MISTAKES = [
    ("your bound is sqrt(2 / fan_in): with it each ReLU layer multiplies E[x^2] by 1 / 3 (Var(U(-b, b)) = b^2 / 3: "
     "a uniform's bound is not its std)",
     lambda n, m: math.sqrt(2 / n)),
    ("your bound is sqrt(3 / fan_in): " + GAIN, lambda n, m: math.sqrt(3 / n)),
    ("your bound is 2 / fan_in: with it each ReLU layer multiplies E[x^2] by 2 / (3 fan_in), which vanishes in wide "
     "layers (a variance used as the bound?)", lambda n, m: 2 / n),
    ("your bound is sqrt(6 / fan_out): fan_out is in the formula, but the forward variance depends on fan_in only",
     lambda n, m: math.sqrt(6 / m)),
    ("your bound is sqrt(12 / (fan_in + fan_out)): Xavier's fans are in the formula, but Kaiming keeps the forward "
     "variance, which depends on fan_in only", lambda n, m: math.sqrt(12 / (n + m))),
    ("your bound is Xavier's, sqrt(6 / (fan_in + fan_out)): Kaiming keeps the forward variance through a ReLU, "
     "which depends on fan_in only",
     lambda n, m: math.sqrt(6 / (n + m))),
    ("your bound is sqrt(12 / fan_in): with it each ReLU layer doubles E[x^2] (what the ReLU takes is made up twice)",
     lambda n, m: math.sqrt(12 / n)),
    ("your bound is sqrt(6) / fan_in: it shrinks as 1 / fan_in, so E[x^2] would shrink more in wider layers; the "
     "square root must cover fan_in too",
     lambda n, m: math.sqrt(6) / n),
    # b^2 / 3 = Var(W) read as b / 3 = std: b = 3 sqrt(2 / fan_in), the factor per layer 18 / 3 / 2 = 3
    ("your bound is sqrt(18 / fan_in): with it each ReLU layer triples E[x^2] (Var(U(-b, b)) = b^2 / 3 relates b^2, "
     "not b, to the variance)", lambda n, m: math.sqrt(18 / n)),
    # b^2 / 3 = Var(W) solved as b^2 = Var(W) / 3: b = sqrt(2 / (3 fan_in)), the factor (2 / 9) / 2 = 1 / 9
    ("your bound is sqrt(2 / (3 fan_in)): with it each ReLU layer multiplies E[x^2] by 1 / 9 (b^2 / 3 = Var(W) "
     "multiplies the variance by 3 to give b^2, it does not divide)", lambda n, m: math.sqrt(2 / (3 * n))),
    ("your bound is 6 / sqrt(fan_in): with it each ReLU layer multiplies E[x^2] by 6; the square root must cover the "
     "6 too",
     lambda n, m: 6 / math.sqrt(n)),
]
NOT_UNIFORM = ("kaiming_uniform's weights are not spread evenly over (-b, b) (a normal draw?): the task asks for the "
               "uniform distribution U(-b, b), every value in it equally likely")


def off_variance(what, std, want, fan_in):
    """The fallback message for a std that matches no named mistake: expected, got, and the factor
    by which a ReLU layer of that fan-in multiplies E[x^2] with it (fan_in std^2 / 2, 1 for Kaiming)."""
    return (f"{what}({fan_in}, ...): the weights' std is {std:.4g}, expected {want:.4g}: with yours a ReLU layer "
            f"multiplies E[x^2] by about {fan_in * std ** 2 / 2:.3g}, where the Kaiming variance keeps it (factor 1)")


def _named(measured, fan_in, fan_out, mistakes, fallback):
    """The message of the one wrong formula ``measured`` matches (within 2 %), else ``fallback``."""
    for message, formula in mistakes:
        if abs(measured / formula(fan_in, fan_out) - 1) < 0.02:
            return message
    return fallback


def _weights(report, fan_in, fan_out, what):
    """The drawn values as float64, after checking they are a float32 Tensor of the right shape
    and not all equal (a constant is no initialization)."""
    assert isinstance(report, dict) and report["is_tensor"] is True, (
        f"{what} must return a needle Tensor (wrap the numpy array: ndl.Tensor(array, dtype='float32'))"
    )
    assert report["shape"] != [], (
        f"{what} returned a single number (shape ()): numpy's random functions draw one number unless they are given "
        "the size, (fan_in, fan_out)"
    )
    assert report["shape"] != [fan_out, fan_in] or fan_in == fan_out, (
        f"{what}(fan_in, fan_out) returned shape (fan_out, fan_in): the layout of x @ W is (fan_in, fan_out), check "
        "the order of the two sizes"
    )
    # the values themselves too (the probe reports their own shape): an empty array is all equal and
    # all equal to another empty one
    assert report["shape"] == [fan_in, fan_out] and np.shape(report["values"]) == (fan_in, fan_out), (
        f"{what}(fan_in, fan_out) must have shape (fan_in, fan_out), the layout of x @ W")
    assert report["dtype"] == "float32", f"{what} must return float32 values, the dtype of needle's parameters"
    values = np.asarray(report["values"], dtype=np.float64)
    _not_constant(values, what)
    assert values.size < 20 or values.min() < 0, f"{what}'s weights are all >= 0: " + (
        "np.random.rand draws from U(0, 1); a normal draw, symmetric around 0, is np.random.randn"
        if what == "kaiming_normal" else "draw them from (-b, b), symmetric around 0, not from (0, b)")
    return values


def _not_constant(values, what):
    values = np.asarray(values, dtype=np.float64)
    assert values.size <= 1 or np.ptp(values) > 0, f"{what} returned constant weights (all equal): draw them at random"


def _check_normal_std(values, fan_in, fan_out):
    want = math.sqrt(2.0 / fan_in)
    std = float(np.std(values))
    # the mean's tolerance scales with the draw's own spread: a wrong (wider) std keeps its own hint
    assert abs(np.mean(values)) < 0.02 * max(want, std), "kaiming_normal: the weights should have mean 0 (draw symmetrically around 0)"
    assert abs(std / want - 1) < 0.03, _named(std, fan_in, fan_out, NORMAL_STD_MISTAKES, off_variance("kaiming_normal", std, want, fan_in))


def _check_uniform(values, fan_in, fan_out):
    """Mean 0, evenly spread over (-B, B) for B = the largest |weight|, and the Kaiming std (see the mistakes above)."""
    want = math.sqrt(2.0 / fan_in)
    # the mean's tolerance scales with the draw's own spread: a wrong (wider) bound keeps its own hint
    assert abs(np.mean(values)) < 0.02 * max(want, float(np.std(values))), (
        "kaiming_uniform: the weights should have mean 0 (draw from (-b, b), symmetric around 0)")
    biggest = float(np.max(np.abs(values)))
    half = float(np.mean(np.abs(values) < biggest / 2))  # 1/2 for a uniform on (-B, B); ~0.98 for a normal
    assert abs(half - 0.5) < 0.01, NOT_UNIFORM
    std = float(np.std(values))
    assert abs(std / want - 1) < 0.03, _named(
        std * math.sqrt(3), fan_in, fan_out, UNIFORM_BOUND_MISTAKES, off_variance("kaiming_uniform", std, want, fan_in))


def _check_draws_differ(observe, name: str, seed: int) -> None:
    out = observe(P.draw_twice_and_reseed, name=name, fan_in=30, fan_out=20, seed=seed)
    second = _weights(out["second"], 30, 20, name)
    assert P.values_digest(second) != out["first"], (  # the first draw comes as a digest
        "two calls returned the same weights: draw fresh random numbers each call (do not re-seed or reuse a fixed generator)"
    )


def _check_reproducible(observe, name: str, seed: int, draw: str) -> None:
    out = observe(P.draw_twice_and_reseed, name=name, fan_in=30, fan_out=20, seed=seed)
    again = _weights(out["again"], 30, 20, name)
    assert P.values_digest(again) == out["first"], (  # the first draw comes as a digest
        f"after the same np.random.seed the weights differ: draw from numpy's global generator ({draw}), "
        "not from a new np.random.default_rng()"
    )


# --- Task 7.1: kaiming_normal ----------------------------------------------------------------


@graded("7.1", points=1)
def test_normal_shape_and_type(observe, submission_seed):
    """kaiming_normal returns a float32 Tensor of shape (fan_in, fan_out)"""
    for fan_in, fan_out in [(3, 7), (9, 2), (1, 2)]:
        _weights(observe(P.draw, name="kaiming_normal", fan_in=fan_in, fan_out=fan_out, seed=submission_seed + 11), fan_in, fan_out, "kaiming_normal")


@graded("7.1", points=2)
def test_normal_std(observe, submission_seed):
    """kaiming_normal has mean 0 and the std that keeps E[x^2] through a ReLU layer (large draw)"""
    fan_in, fan_out = BIG
    values = _weights(observe(P.draw, name="kaiming_normal", fan_in=fan_in, fan_out=fan_out, seed=submission_seed + 3), fan_in, fan_out, "kaiming_normal")
    # Var(W) = 2 / fan_in: the 2 makes up for ReLU zeroing half of each pre-activation's mass
    _check_normal_std(values, fan_in, fan_out)


@graded("7.1", points=2)
def test_normal_std_uses_fan_in(observe, submission_seed):
    """kaiming_normal's std depends on fan_in, not on fan_out"""
    for fan_in, fan_out in [(100, 1000), (1000, 100)]:
        values = _weights(observe(P.draw, name="kaiming_normal", fan_in=fan_in, fan_out=fan_out, seed=submission_seed + 5), fan_in, fan_out, "kaiming_normal")
        _check_normal_std(values, fan_in, fan_out)


@graded("7.1", points=1)
def test_normal_is_gaussian(observe, submission_seed):
    """kaiming_normal draws from a normal distribution"""
    fan_in, fan_out = BIG
    values = _weights(observe(P.draw, name="kaiming_normal", fan_in=fan_in, fan_out=fan_out, seed=submission_seed + 7), fan_in, fan_out, "kaiming_normal")
    # a normal puts 68.27 % of its mass within one std of its mean (a uniform 57.7 %); the
    # sample's own std is used, so this test judges the shape whatever the scale
    within = float(np.mean(np.abs(values - np.mean(values)) < np.std(values)))
    assert abs(within - 0.6827) < 0.01, "kaiming_normal should draw from a normal (Gaussian) distribution: use np.random.randn or np.random.normal"


@graded("7.1", points=1)
def test_normal_draws_differ(observe, submission_seed):
    """two calls of kaiming_normal give different weights"""
    _check_draws_differ(observe, "kaiming_normal", seed=submission_seed + 13)


@graded("7.1", points=1)
def test_normal_reproducible(observe, submission_seed):
    """kaiming_normal is reproducible under np.random.seed"""
    _check_reproducible(observe, "kaiming_normal", seed=submission_seed + 17, draw="np.random.randn")


# --- Task 7.2: kaiming_uniform ---------------------------------------------------------------


@graded("7.2", points=1)
def test_uniform_shape_and_type(observe, submission_seed):
    """kaiming_uniform returns a float32 Tensor of shape (fan_in, fan_out)"""
    for fan_in, fan_out in [(4, 6), (8, 3), (1, 2)]:
        _weights(observe(P.draw, name="kaiming_uniform", fan_in=fan_in, fan_out=fan_out, seed=submission_seed + 19), fan_in, fan_out, "kaiming_uniform")


@graded("7.2", points=2)
def test_uniform_bound(observe, submission_seed):
    """kaiming_uniform stays within, and reaches, the bound b whose U(-b, b) has the Kaiming variance"""
    fan_in, fan_out = BIG
    values = _weights(observe(P.draw, name="kaiming_uniform", fan_in=fan_in, fan_out=fan_out, seed=submission_seed + 23), fan_in, fan_out, "kaiming_uniform")
    bound = math.sqrt(6.0 / fan_in)  # Var(U(-b, b)) = b^2 / 3 = 2 / fan_in
    biggest = float(np.max(np.abs(values)))
    half = float(np.mean(np.abs(values) < biggest / 2))  # 1/2 for a uniform on (-B, B)
    assert abs(half - 0.5) < 0.01, NOT_UNIFORM
    # 1e-6: a float64 draw just below the bound may round up when cast to float32
    assert bound * 0.995 <= biggest <= bound * (1 + 1e-6), _named(
        biggest, fan_in, fan_out, UNIFORM_BOUND_MISTAKES,
        f"kaiming_uniform({fan_in}, {fan_out}): the largest |weight| is {biggest:.4g}, expected the bound b = {bound:.4g}, "
        "the one whose U(-b, b) has the variance of Task 7.1 (Var(U(-b, b)) = b^2 / 3)")


@graded("7.2", points=2)
def test_uniform_std(observe, submission_seed):
    """kaiming_uniform is flat on (-b, b), with mean 0 and the std of Task 7.1's weights"""
    fan_in, fan_out = BIG
    values = _weights(observe(P.draw, name="kaiming_uniform", fan_in=fan_in, fan_out=fan_out, seed=submission_seed + 29), fan_in, fan_out, "kaiming_uniform")
    _check_uniform(values, fan_in, fan_out)


@graded("7.2", points=1)
def test_uniform_std_uses_fan_in(observe, submission_seed):
    """kaiming_uniform's bound depends on fan_in, not on fan_out"""
    for fan_in, fan_out in [(100, 1000), (1000, 100)]:
        values = _weights(observe(P.draw, name="kaiming_uniform", fan_in=fan_in, fan_out=fan_out, seed=submission_seed + 31), fan_in, fan_out, "kaiming_uniform")
        _check_uniform(values, fan_in, fan_out)


@graded("7.2", points=1)
def test_uniform_draws_differ(observe, submission_seed):
    """two calls of kaiming_uniform give different weights"""
    _check_draws_differ(observe, "kaiming_uniform", seed=submission_seed + 37)


@graded("7.2", points=1)
def test_uniform_reproducible(observe, submission_seed):
    """kaiming_uniform is reproducible under np.random.seed"""
    _check_reproducible(observe, "kaiming_uniform", seed=submission_seed + 41, draw="np.random.uniform")


# --- Task 7.3: activation_stds ---------------------------------------------------------------
# No needle function does Task 7.3's work (needle has no such measurement): nothing to excise.
# Points come from the stds activation_stds returned, compared with the stds recomputed here:
# the probe hands it an init_fn that draws from numpy's global generator after a seed chosen
# here, so x_0 and every weight matrix are known on this side. The init_fn's call record (kept
# in the worker) only helps name a mistake.
NO_RELU = "your layers apply no ReLU: each layer's output is the ReLU of its matmul, and its std is measured on that output"
BEFORE_RELU = "you record the std before the ReLU (of x @ W): record it after, on the layer's output relu(x @ W)"
RELU_FIRST = "you apply the ReLU before the matmul (relu(x) @ W): a layer is relu(x @ W), the ReLU on the matmul's output"
OF_WEIGHTS = "you record the std of the weights W: record the std of each layer's output relu(x @ W)"
WEIGHTS_FIRST = ("you draw the weights before the input: draw x_0 = np.random.randn(n_samples, width) first, then each "
                 "layer's weights as you reach it")
ONCE_PER_LAYER = ("activation_stds must call init_fn(width, width) exactly once per layer: every layer gets a fresh "
                  "weight matrix of its own")
NEVER_CALLED = "activation_stds never called init_fn: every layer draws its own weight matrix with init_fn(width, width)"
SIZES = "activation_stds must call init_fn(width, width): the layers are width x width, fan-in and fan-out both width"
MEAN = "you record the mean of the activations: record their standard deviation, np.std"
VARIANCE = ("you record the variance of the activations (np.var): record their standard deviation, np.std, the square "
            "root of the variance")
RMS = ("you record the root mean square, sqrt(mean(x**2)), not the standard deviation: ReLU outputs have a nonzero "
       "mean, which the standard deviation subtracts first (np.std)")
PER_UNIT = ("you average the stds of the single units (np.std along one axis, then the mean): record the std of all of "
            "the layer's activations together")
UNIFORM_INPUT = ("your input x_0 is uniform on [0, 1) (np.random.rand): draw it from the standard normal, "
                 "x_0 = np.random.randn(n_samples, width), first, before any weight")
FLOATS = "activation_stds must return Python floats"
FLOAT32 = ("activation_stds returned numpy float32 numbers (np.std of a float32 array gives one): return Python "
           "floats, float(...) of each std")


def _stds(out, depth):
    """The returned stds as an array, after checking a list of `depth` Python floats."""
    assert isinstance(out, dict) and out["is_list"] is True, "activation_stds must return a list of floats"
    assert len(out["values"]) == depth, "activation_stds must return one std per layer: `depth` values, without the input's std"
    assert all(v is not None for v in out["values"]), FLOATS + ", one per layer"
    assert len(out["kinds"]) == depth and all(k == "float" for k in out["kinds"]), (  # one kind per value
        FLOAT32 if "numpy" in out["kinds"] else FLOATS)
    return np.asarray(out["values"], dtype=np.float64)


def replay(init, c, seed, depth, width, n_samples, order="input_first"):
    """x_0 and the layers' weights activation_stds gets after np.random.seed(seed) from the
    probe's init_fn (c I, or c N(0, 1) drawn from the global generator, float32), drawn in the
    task's order (x_0 first, then one matrix per layer), or in a mistaken one: "weights_first"
    (every matrix, then x_0), "tied" (x_0, then one matrix used by every layer), "uniform_input"
    (x_0 drawn with np.random.rand, uniform on [0, 1), instead of randn)."""
    draws = np.random.RandomState(seed)

    def weight():
        if init == "identity":
            return (c * np.eye(width)).astype(np.float32).astype(np.float64)
        return (c * draws.randn(width, width)).astype(np.float32).astype(np.float64)

    def first_input():
        x0 = draws.rand(n_samples, width) if order == "uniform_input" else draws.randn(n_samples, width)
        return x0.astype(np.float32).astype(np.float64)

    if order == "weights_first":
        weights = [weight() for _ in range(depth)]
        return first_input(), weights
    x0 = first_input()
    if order == "tied":
        return x0, [weight()] * depth
    return x0, [weight() for _ in range(depth)]


def redrawn_stds(init, c, seed, depth, width, n_samples) -> np.ndarray:
    """The stds of a network that draws a new input before every layer (x, then W, per layer)
    instead of x_0 once: relu(x_l W_l) with every x_l fresh from np.random.randn."""
    draws, stds = np.random.RandomState(seed), []
    for _ in range(depth):
        x = draws.randn(n_samples, width).astype(np.float32).astype(np.float64)
        W = np.eye(width) * c if init == "identity" else c * draws.randn(width, width)
        stds.append(np.std(np.maximum(x @ W.astype(np.float32).astype(np.float64), 0.0)))
    return np.array(stds)


def right_stds(x0, weights) -> np.ndarray:
    """The stds of the task's computation alone (``readings``' "right"): all an honest answer needs."""
    x, stds = x0, []
    for W in weights:
        x = np.maximum(x @ W, 0.0)
        stds.append(np.std(x))
    return np.array(stds)


def readings(x0, weights) -> dict:
    """The stds of the right computation ("right") and of each mistaken one (keyed by its
    message), for input x0 and the layers' weights, in float64."""
    right, linear, before, relu_first, of_weights, mean, per_unit, rms, var = [], [], [], [], [], [], [], [], []
    x = y = u = x0
    for W in weights:
        z = x @ W
        before.append(np.std(z))
        x = np.maximum(z, 0.0)
        right.append(np.std(x))
        mean.append(np.mean(x))
        var.append(np.var(x))
        rms.append(np.sqrt(np.mean(x ** 2)))
        per_unit.append(np.mean(np.std(x, axis=0)))
        y = y @ W
        linear.append(np.std(y))
        u = np.maximum(u, 0.0) @ W
        relu_first.append(np.std(u))
        of_weights.append(np.std(W))
    return {"right": np.array(right), NO_RELU: np.array(linear), BEFORE_RELU: np.array(before),
            RELU_FIRST: np.array(relu_first), OF_WEIGHTS: np.array(of_weights), MEAN: np.array(mean),
            PER_UNIT: np.array(per_unit), RMS: np.array(rms), VARIANCE: np.array(var)}


def check_stds(observe, init, depth, width, n_samples, seed, c, rtol=1e-3):
    """Run activation_stds through the probe; its stds must be those recomputed here. A wrong
    result gets the message of the one mistake it matches (values first, then the call record)."""
    out = observe(P.stds, init=init, c=c, depth=depth, width=width, n_samples=n_samples, seed=seed)
    values = _stds(out, depth)
    x0, weights = replay(init, c, seed, depth, width, n_samples)

    def same(a, b):
        return a.shape == b.shape and bool(np.allclose(a, b, rtol=rtol, atol=1e-7))

    if same(values, right_stds(x0, weights)):
        return values
    known = readings(x0, weights)  # the mistakes' stds, only for an answer that is not right
    known[UNIFORM_INPUT] = right_stds(*replay(init, c, seed, depth, width, n_samples, "uniform_input"))
    if init != "identity":  # with c I every matrix is the same, whatever the order of the draws
        known[WEIGHTS_FIRST] = right_stds(*replay(init, c, seed, depth, width, n_samples, "weights_first"))
        known[ONCE_PER_LAYER] = right_stds(*replay(init, c, seed, depth, width, n_samples, "tied"))
    n = n_samples * width  # entries of a layer's output: np.std divides by n, ddof=1 by n - 1
    known[DDOF1] = known["right"] * np.sqrt(n / (n - 1))
    known[REDRAWN] = redrawn_stds(init, c, seed, depth, width, n_samples)
    for own in (s for s in (0, 1, 42, 1234) if s != seed):  # the draws of a seed the student's code set itself
        if same(values, right_stds(*replay(init, c, own, depth, width, n_samples))):
            raise AssertionError(RESEEDED)
    for message, want in known.items():
        if message != "right" and same(values, want):
            raise AssertionError(message)
    calls = out["calls"]
    if not calls:
        raise AssertionError(NEVER_CALLED)
    if len(calls) != depth:
        raise AssertionError(ONCE_PER_LAYER)
    if any(call != [width, width] for call in calls):
        raise AssertionError(SIZES)
    raise AssertionError(GENERIC)


RESEEDED = ("activation_stds seeds numpy's generator itself (np.random.seed): draw from it as the caller left it (the "
            "caller seeds it, for reproducible runs), so that the input and the weights are those of the caller's seed")
REDRAWN = ("activation_stds draws a new input at every layer: draw x_0 once, before the loop; each later layer's "
           "input is the previous layer's output")
DDOF1 = ("your stds divide by the number of entries minus 1 (ddof=1, as torch.std does by default): the std of a "
         "layer's output here is np.std's default, which divides by the number of entries")
GENERIC = ("the stds differ from those of the task's network: draw the input first (np.random.randn(n_samples, width)), "
           "then for each layer a new weight matrix from init_fn(width, width), the layer's output relu(x W) as the next "
           "layer's input, and the std of all of that output")


@graded("7.3", points=1)
def test_stds_returns_depth_floats(observe, submission_seed):
    """activation_stds returns one Python float per layer, the std of that layer's output"""
    for depth in (5, 1):  # five layers first: with one, the std before the ReLU and without any ReLU coincide
        check_stds(observe, "scaled", depth, 16, 32, submission_seed + 43, np.sqrt(2 / 16))


@graded("7.3", points=2)
def test_stds_identity_layers_scale_by_c(observe, submission_seed):
    """with W = c I (c > 0) each layer's std is c times the previous one"""
    # x_l = relu(x_{l-1} @ cI) = c relu(x_{l-1}) = c^l relu(x_0) for c > 0, so
    # std_{l+1} / std_l = c exactly, whatever the random x_0 (float32 rounding only: rtol 1e-4)
    for c, depth in [(1.5, 6), (0.5, 5)]:
        check_stds(observe, "identity", depth, 12, 50, submission_seed + 47, c, rtol=1e-4)


@graded("7.3", points=2)
def test_stds_first_layer_is_post_relu(observe, submission_seed):
    """the first std is that of relu(x_0) for x_0 = np.random.randn(n_samples, width)"""
    # with W = I every layer's output is relu(x_0): every recorded std is std(relu(x_0))
    check_stds(observe, "identity", 3, 9, 40, submission_seed + 53, 1.0, rtol=1e-4)


@graded("7.3", points=1)
def test_stds_relu_after_every_layer(observe, submission_seed):
    """the ReLU is applied after every layer"""
    # W = -I: x_1 = relu(-x_0) >= 0, then x_2 = relu(-x_1) = 0 and every later layer is 0
    check_stds(observe, "identity", 4, 10, 30, submission_seed + 59, -1.0, rtol=1e-4)


@graded("7.3", points=1)
def test_stds_draws_the_input_first(observe, submission_seed):
    """with random weights, the stds are those of x_0 drawn first, then each layer's W in turn"""
    check_stds(observe, "scaled", 3, 16, 40, submission_seed + 73, 0.35)


@graded("7.3", points=1)
def test_stds_new_weights_per_layer(observe, submission_seed):
    """activation_stds calls init_fn(width, width) once per layer (a new matrix each)"""
    check_stds(observe, "scaled", 6, 8, 20, submission_seed + 61, np.sqrt(2 / 8))


@graded("7.3", points=2)
def test_stds_kaiming_keeps_scale(observe, submission_seed):
    """with Kaiming init the stds stay level over 20 layers"""
    depth, width = 20, 256
    # the recomputed stds stay level: calibrated on 300 seeds, the per-layer growth
    # exp(log(std_20 / std_1) / 19) lies within 1 +- 0.05 (its log has std 0.013)
    check_stds(observe, "scaled", depth, width, 500, submission_seed + 67, math.sqrt(2 / width))


@graded("7.3", points=1)
def test_stds_naive_init_explodes(observe, submission_seed):
    """with N(0, 1) weights the std grows by about sqrt(width / 2) per layer"""
    depth, width = 6, 128
    # Var(z_l) = width * 1 * E[x_{l-1}^2] and E[relu(z)^2] = Var(z) / 2: growth sqrt(width / 2) = 8
    # (calibrated on 300 seeds: 7.46..8.75); the values are judged against the recomputed stds
    check_stds(observe, "scaled", depth, width, 500, submission_seed + 71, 1.0)


# Right answers other than the instructor's: each must get full marks and pass the visible tests.
ACCEPTED = {
    "normal_with_needle_randn": {"task7_1_kaiming_normal": '''
import math


def kaiming_normal(fan_in, fan_out):
    gain = math.sqrt(2.0)
    return ndl.init.randn(fan_in, fan_out, std=gain / math.sqrt(fan_in))
'''},
    "normal_with_np_random_normal": {"task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    w = np.random.normal(0.0, np.sqrt(2.0 / fan_in), size=(fan_in, fan_out)).astype(np.float32)
    return ndl.Tensor(w, dtype="float32")
'''},
    "uniform_with_needle_rand": {"task7_2_kaiming_uniform": '''
def kaiming_uniform(fan_in, fan_out):
    b = np.sqrt(2.0) * np.sqrt(3.0 / fan_in)
    return ndl.init.rand(fan_in, fan_out, low=-b, high=b)
'''},
    "uniform_from_rand_rescaled": {"task7_2_kaiming_uniform": '''
def kaiming_uniform(fan_in, fan_out):
    b = np.sqrt(6.0 / fan_in)
    return ndl.Tensor((2.0 * np.random.rand(fan_in, fan_out) - 1.0) * b, dtype="float32")
'''},
    "stds_with_methods_and_numpy_floats": {"task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    x = ndl.Tensor(np.random.randn(n_samples, width).astype(np.float32))
    out = []
    for layer in range(depth):
        x = ndl.ops.matmul(x, init_fn(width, width)).relu()
        out.append(np.std(x.numpy(), dtype=np.float64))
    return out
'''},
}
