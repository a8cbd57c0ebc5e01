"""Hidden tests for 07_init_variance (Tasks 7.1, 7.2 and 7.3): each task's ladder.

Tasks 7.1 and 7.2 draw at random: their data rungs seed numpy's generator in ``given`` and judge a
statistic of a large draw, with a tolerance that every correct answer meets, whatever order it
draws in. The spreads (standard errors) below are derived, and match those measured over 40 seeds
for a correct answer:
* a ReLU layer's factor on E[x^2], mean(relu(x W)^2) / mean(x^2) with x ~ N(0, 1): 1 by the
  contract. Given W, its expectation is fan_in mean(W^2) / 2, so it wanders with mean(W^2)
  (relative standard error sqrt(2 / (fan_in fan_out)) for a normal, sqrt(0.8 / (fan_in fan_out))
  for a uniform) and with the samples of x (the mean of 400,000 values of relu(z)^2, each of
  relative std sqrt(5)): about 0.005 in all (0.0045 measured); rtol 0.05 is 10 standard errors.
  The nearest plausible wrong variance gives a factor 1/2 or 2.
* mean / std of 160,000 draws: standard error 1/sqrt(160,000) = 0.0025; atol 0.02 is 8.
* the fraction of a normal sample within one std of its mean: 0.6827, standard error
  sqrt(p (1 - p) / n) = 0.0012; atol 0.01 is 8 (a uniform gives 0.577).
* the fraction of a uniform sample on (-b, b) with |w| < max |w| / 2: 1/2, standard error 0.00125;
  atol 0.01 is 8 (a normal gives about 0.98).
The hidden rungs draw at the submission's own seed and sizes and judge the values on this side.
"""
import math

import numpy as np

from autograder.specification import Rung, Task, declare
from autograder.suite import load_probes

P = load_probes(__file__)

# What computes each task's answer, so that a task answered with it scores nothing: needle's own
# initializers and other libraries' Kaiming initializers (PyTorch's; none is in the grader's
# worker, which has numpy and needle only). needle.init's rand / randn (with your own bound or
# std) stay allowed.
KAIMING = ["needle.init.kaiming_normal", "needle.init.kaiming_uniform", "torch.nn.init.kaiming_normal_",
           "torch.nn.init.kaiming_uniform_"]

# --- Tasks 7.1 and 7.2: the same ladder on two distributions -------------------------------------
# One ReLU layer multiplies E[x^2] by fan_in Var(W) / 2 (section 2); the contract asks for the
# variance that makes it 1. The rungs measure that factor, not a formula: on a square layer, then
# on one nine times wider than its input (a variance that follows fan_out, or both fans, is off
# there by a factor 0.1 to 0.2).


def factor_given(fn: str, fan_in: int, fan_out: int, samples: int) -> str:
    return (f"np.random.seed(0); W = {fn}({fan_in}, {fan_out}).numpy().astype(np.float64); "
            f"x = np.random.randn({samples}, {fan_in}); gain = np.mean(np.maximum(x @ W, 0) ** 2) / np.mean(x ** 2)")


def initializer_rungs(fn: str, shape_rung: Rung) -> list[Rung]:
    """The ladder of kaiming_normal / kaiming_uniform (``fn``); ``shape_rung`` tells the two
    distributions apart."""
    small = f"np.random.seed(0); W = {fn}(4, 3)"
    large = f"np.random.seed(0); W = {fn}(400, 400).numpy().astype(np.float64)"
    return [
        Rung("a needle Tensor", given=small, call="isinstance(W, ndl.Tensor)", expect=True),
        Rung("shape (fan_in, fan_out)", given=small, call="W.shape", expect=[4, 3]),
        Rung("float32", given=small, call="W.dtype == np.float32", expect=True),
        # a constant (zeros, or every weight at the bound) has no spread at all
        Rung("random values, not all equal", given=large, call="float(W.std()) > 0", expect=True),
        Rung("mean 0", given=large, call="float(W.mean() / W.std())", expect=0.0, rtol=0, atol=0.02),
        shape_rung,
        Rung("a ReLU layer's factor on E[x^2] is 1", given=factor_given(fn, 400, 400, 1000), call="float(gain)",
             expect=1.0, rtol=0.05, atol=0),
        Rung("the factor is 1 on a layer wider than its input", given=factor_given(fn, 100, 900, 2000),
             call="float(gain)", expect=1.0, rtol=0.05, atol=0),
        # numpy's global generator moves on after a draw: a second call gives other numbers
        Rung("new numbers at each call",
             given=f"np.random.seed(1); a = {fn}(5, 4).numpy(); b = {fn}(5, 4).numpy()",
             call="bool(np.array_equal(a, b))", expect=False),
    ]


TASK_7_1 = Task(
    "7.1", names=["kaiming_normal"], own_work=KAIMING,
    contract="kaiming_normal(fan_in, fan_out) returns a float32 needle Tensor of shape (fan_in, fan_out) whose "
             "entries are drawn i.i.d. from a normal with mean 0 and the variance that makes a ReLU layer's factor "
             "on E[x^2] exactly 1; drawn from numpy's global generator: new numbers at each call, the same ones "
             "after the same np.random.seed",
    rungs=initializer_rungs("kaiming_normal", Rung(
        # a normal puts 68.27 % of its mass within one std of its mean (a uniform 57.7 %)
        "a normal distribution", given="np.random.seed(0); W = kaiming_normal(400, 400).numpy().astype(np.float64)",
        call="float(np.mean(np.abs(W - W.mean()) < W.std()))", expect=0.6827, rtol=0, atol=0.01)))
TASK_7_2 = Task(
    "7.2", names=["kaiming_uniform"], own_work=KAIMING,
    contract="kaiming_uniform(fan_in, fan_out) returns a float32 needle Tensor of shape (fan_in, fan_out) whose "
             "entries are drawn i.i.d. from a uniform U(-b, b) with the variance of Task 7.1's weights; drawn from "
             "numpy's global generator: new numbers at each call, the same ones after the same np.random.seed",
    rungs=initializer_rungs("kaiming_uniform", Rung(
        # U(-b, b) puts half its draws within b / 2 of 0 (a normal about 98 % within half its largest draw)
        "flat on (-b, b)", given="np.random.seed(0); W = kaiming_uniform(400, 400).numpy().astype(np.float64)",
        call="float(np.mean(np.abs(W) < np.abs(W).max() / 2))", expect=0.5, rtol=0, atol=0.01)))

# --- Task 7.3: activation_stds ------------------------------------------------------------------
# The data rungs hand activation_stds init functions whose every layer is known: W = c I gives
# x_l = relu(c x_{l-1}), so with c = 1 every layer outputs relu(x_0) and every std is
# std(relu(x_0)); with c = -1, x_1 = relu(-x_0) >= 0 and x_2 = relu(-x_1) = 0. x_0 is redrawn in
# ``given`` from the same seed, so the ratio of each std to the one it must equal is 1.
EYE = 'lambda i, o: ndl.Tensor(np.eye(i, o), dtype="float32")'


def seeded_x0(seed: int) -> str:
    return f"np.random.seed({seed}); x0 = np.random.randn(20, 4).astype(np.float32); np.random.seed({seed}); "


IDENTITY = seeded_x0(0) + f"out = activation_stds({EYE}, 3, 4, 20); ref = float(np.std(np.maximum(x0, 0)))"
TASK_7_3 = Task(
    "7.3", names=["activation_stds"],
    contract="activation_stds(init_fn, depth, width, n_samples) returns a list of depth Python floats, the std of "
             "all the output values of each layer of the network x_l = relu(x_(l-1) W_l), l = 1..depth, where x_0 "
             "= np.random.randn(n_samples, width) (float32) is drawn first from numpy's global generator as the "
             "caller left it and each W_l = init_fn(width, width) is a new matrix, drawn when its layer is reached",
    rungs=[
        Rung("one value per layer", given=IDENTITY, call="len(out)", expect=3),
        Rung("a list of Python floats", given=IDENTITY,
             call="isinstance(out, list) and all(isinstance(s, float) for s in out)", expect=True),
        Rung("one layer: the std of relu(x_0 I)", given=IDENTITY, call="out[0] / ref", expect=1.0, rtol=1e-4),
        # x_2 = relu(x_1 I) = x_1 = relu(x_0), and so on: a layer's input is the previous output
        Rung("each layer's input is the previous layer's output", given=IDENTITY, call="[s / ref for s in out]",
             expect=[1.0, 1.0, 1.0], rtol=1e-4),
        # relu(x_0 (-I)) = relu(-x_0), then relu(relu(-x_0) (-I)) = 0; relu(x) @ W gives -relu(x_0), then 0
        Rung("the ReLU after the matmul (W = -I)",
             given=seeded_x0(0) + 'out = activation_stds(lambda i, o: ndl.Tensor(-np.eye(i, o), dtype="float32"), '
                                  "2, 4, 20); ref = float(np.std(np.maximum(-x0, 0)))",
             call="[out[0] / ref, out[1]]", expect=[1.0, 0.0], rtol=1e-4, atol=1e-6),
        Rung("init_fn(width, width), once per layer",
             given='calls = []; np.random.seed(0); out = activation_stds(lambda i, o: calls.append((i, o)) or '
                   'ndl.Tensor(np.eye(i, o), dtype="float32"), 3, 5, 20)',
             call="np.array(calls, dtype=float)", expect=[[5, 5], [5, 5], [5, 5]]),
        # rung 3 at another seed: x_0 must come from the generator as the caller seeded it
        Rung("x_0 from the caller's seed", given=IDENTITY.replace("seed(0)", "seed(3)"), call="out[0] / ref",
             expect=1.0, rtol=1e-4),
        # init_fn draws W = c I with c = 1 + one uniform draw: c is the first number after x_0 only
        # when x_0 is drawn first (then out[0] = c std(relu(x_0)))
        Rung("x_0 drawn before the weights",
             given="np.random.seed(5); x0 = np.random.randn(20, 4).astype(np.float32); c = 1 + np.random.rand(); "
                   'np.random.seed(5); out = activation_stds(lambda i, o: ndl.Tensor((1 + np.random.rand()) * '
                   'np.eye(i, o), dtype="float32"), 1, 4, 20)',
             call="out[0] / (c * float(np.std(np.maximum(x0, 0))))", expect=1.0, rtol=1e-4),
    ])
declare(globals(), TASK_7_1, TASK_7_2, TASK_7_3)


# --- Tasks 7.1 and 7.2: the hidden rungs (the points) ---------------------------------------------
# The same behaviours as the visible rungs, on sizes and seeds drawn for each submission, judged
# here from the values the probe reports (tolerances: see the module's docstring; the draws are
# >= 100,000 values, so each is >= 6 standard errors wide).


def drawn(submission_seed: int, k: int, low: int, high: int) -> int:
    """The k-th size drawn for this submission, in [low, high]."""
    return int(np.random.RandomState(submission_seed + k).randint(low, high + 1))


def _weights(report, fan_in: int, fan_out: int, call: str) -> np.ndarray:
    """The drawn values as float64, from the probe's report (its own reading of the values),
    after checking they are a float32 Tensor of shape (fan_in, fan_out)."""
    assert isinstance(report, dict) and report["is_tensor"] is True, f"`{call}` should be a needle Tensor; your code gave another type."
    assert report["shape"] == [fan_in, fan_out] and np.shape(report["values"]) == (fan_in, fan_out), (
        f"`{call}.shape` should be {(fan_in, fan_out)}; your code gave {tuple(report['shape'])}.")
    assert report["dtype"] == "float32", f"`{call}.dtype` should be float32; your code gave {report['dtype'] or 'none'}."
    return np.asarray(report["values"], dtype=np.float64)


def _sample(observe, what: str, fan_in: int, fan_out: int, seed: int) -> tuple[np.ndarray, str]:
    call = f"np.random.seed({seed}); {what}({fan_in}, {fan_out})"
    return _weights(observe(P.draw, name=what, fan_in=fan_in, fan_out=fan_out, seed=seed), fan_in, fan_out, call), call


def _check_distribution(observe, what: str, submission_seed: int) -> None:
    """Shape, dtype and type at small sizes; random, mean 0 and the distribution's shape on a large draw."""
    for k, (fan_in, fan_out) in enumerate([(drawn(submission_seed, 1, 1, 9), drawn(submission_seed, 2, 1, 9)), (1, 2)]):
        _sample(observe, what, fan_in, fan_out, submission_seed + 10 + k)
    values, call = _sample(observe, what, drawn(submission_seed, 3, 400, 500), drawn(submission_seed, 4, 400, 500),
                           submission_seed + 12)
    std = float(values.std())
    assert std > 0, f"`{call}` should hold random values; yours are all equal."
    assert abs(values.mean() / std) < 0.02, f"`{call}`: mean / std should be 0 (within 0.02); your code gave {values.mean() / std:.3g}."
    if what == "kaiming_normal":  # a normal: 68.27 % within one std of the mean
        share, want, shape = float(np.mean(np.abs(values - values.mean()) < std)), 0.6827, "within one std of the mean"
    else:  # U(-b, b): half within b / 2 of 0
        share, want, shape = float(np.mean(np.abs(values) < np.abs(values).max() / 2)), 0.5, "within half the largest |w| of 0"
    assert abs(share - want) < 0.01, f"`{call}`: the share of weights {shape} should be {want} (within 0.01); your code gave {share:.4f}."


def _check_factor(observe, what: str, submission_seed: int) -> None:
    """A ReLU layer's factor on E[x^2], fan_in mean(W^2) / 2, is 1 on a narrower and on a wider layer."""
    for k, (fan_in, fan_out) in enumerate([(drawn(submission_seed, 5, 900, 1100), drawn(submission_seed, 6, 90, 110)),
                                           (drawn(submission_seed, 7, 90, 110), drawn(submission_seed, 8, 900, 1100))]):
        values, call = _sample(observe, what, fan_in, fan_out, submission_seed + 20 + k)
        # 100,000 draws: relative standard error of mean(W^2) <= sqrt(2 / 100,000) = 0.0045; 3 % is 6.7 of them
        factor = fan_in * float(np.mean(values ** 2)) / 2
        assert abs(factor - 1) < 0.03, (
            f"`{call}`: a ReLU layer's factor on E[x^2] with these weights, fan_in mean(W^2) / 2, should be 1 "
            f"(within 3 %); your code gave {factor:.3g}.")


def _check_generator(observe, what: str, seed: int) -> None:
    """Two calls give other numbers; after the same seed, the first ones again."""
    out = observe(P.draw_twice_and_reseed, name=what, fan_in=30, fan_out=20, seed=seed)
    second = _weights(out["second"], 30, 20, f"{what}(30, 20)")
    again = _weights(out["again"], 30, 20, f"{what}(30, 20)")
    # the first draw comes as a digest
    assert P.values_digest(second) != out["first"], (
        f"np.random.seed({seed}), then `{what}(30, 20)` twice: the two draws should differ; your code's are equal.")
    assert P.values_digest(again) == out["first"], (
        f"`{what}(30, 20)` after np.random.seed({seed}), and again after the same seed: the two draws should be "
        "equal (numpy's global generator, which np.random.seed seeds); your code's differ.")


@TASK_7_1.rung("at other sizes and seeds: a float32 Tensor, random, mean 0, a normal", points=2)
def test_normal_distribution(observe, submission_seed):
    _check_distribution(observe, "kaiming_normal", submission_seed)


@TASK_7_1.rung("the factor is 1 on narrower and wider layers of other sizes", points=4)
def test_normal_factor(observe, submission_seed):
    _check_factor(observe, "kaiming_normal", submission_seed)


@TASK_7_1.rung("new numbers at each call, the same ones after the same np.random.seed", points=2)
def test_normal_reproducible(observe, submission_seed):
    _check_generator(observe, "kaiming_normal", seed=submission_seed + 17)


@TASK_7_2.rung("at other sizes and seeds: a float32 Tensor, random, mean 0, flat", points=2)
def test_uniform_distribution(observe, submission_seed):
    _check_distribution(observe, "kaiming_uniform", submission_seed)


@TASK_7_2.rung("the factor is 1 on narrower and wider layers of other sizes", points=4)
def test_uniform_factor(observe, submission_seed):
    _check_factor(observe, "kaiming_uniform", submission_seed)


@TASK_7_2.rung("new numbers at each call, the same ones after the same np.random.seed", points=2)
def test_uniform_reproducible(observe, submission_seed):
    _check_generator(observe, "kaiming_uniform", seed=submission_seed + 41)


# --- Task 7.3: the hidden rungs (the points) --------------------------------------------------------
# The probe hands activation_stds an init_fn built here, c I or c N(0, 1) drawn from numpy's
# global generator after a seed chosen here, so x_0 and every weight matrix are known on this side.


def replay(init: str, c: float, seed: int, depth: int, width: int, n_samples: int) -> list[np.ndarray]:
    """x_0 and the layers' weights activation_stds gets after np.random.seed(seed): x_0 first,
    then one matrix per layer (c I, or c N(0, 1)), each float32 as the probe's init_fn makes them."""
    draws = np.random.RandomState(seed)
    x0 = draws.randn(n_samples, width).astype(np.float32).astype(np.float64)

    def weight():
        if init == "identity":
            return (c * np.eye(width)).astype(np.float32).astype(np.float64)
        return (c * draws.randn(width, width)).astype(np.float32).astype(np.float64)

    return [x0] + [weight() for _ in range(depth)]


def right_stds(x0: np.ndarray, weights: list[np.ndarray]) -> np.ndarray:
    x, stds = x0, []
    for W in weights:
        x = np.maximum(x @ W, 0.0)
        stds.append(np.std(x))
    return np.array(stds)


def check_stds(observe, init: str, depth: int, width: int, n_samples: int, seed: int, c: float, rtol: float = 1e-3) -> None:
    """activation_stds with the init_fn ``init``: its stds must be those recomputed here."""
    out = observe(P.stds, init=init, c=c, depth=depth, width=width, n_samples=n_samples, seed=seed)
    weights = f"W = {c:.3g} I" if init == "identity" else f"W = {c:.3g} N(0, 1) from numpy's generator"
    network = (f"np.random.seed({seed}); activation_stds(init_fn, {depth}, {width}, {n_samples}) with init_fn giving "
               f"{weights}")
    values = out["values"]
    assert out["is_list"] is True and len(values) == depth and None not in values, (
        f"`{network}` should be a list of {depth} floats; your code gave another type or {len(values)} values.")
    assert out.get("floats") is True, (
        f"`{network}` should be a list of {depth} Python floats; your code gave numbers of another type (numpy's?).")
    x0, *layers = replay(init, c, seed, depth, width, n_samples)
    want, got = right_stds(x0, layers), np.asarray(values, dtype=np.float64)
    assert np.allclose(got, want, rtol=rtol, atol=1e-7), f"`{network}`: the stds should be {_first(want)}; your code gave {_first(got)}."


def _first(values: np.ndarray) -> str:
    shown = ", ".join(f"{v:.4g}" for v in values[:4])
    return f"[{shown}{', ...' if len(values) > 4 else ''}]"


@TASK_7_3.rung("W = c I at other sizes, seeds and c", points=4)
def test_stds_identity_layers(observe, submission_seed):
    # x_l = relu(x_(l-1) c I): c^l relu(x_0) for c > 0; for c < 0, relu(c x_0) then 0 (float32 rounding only: rtol 1e-4)
    width, n_samples = drawn(submission_seed, 30, 5, 12), drawn(submission_seed, 31, 20, 60)
    for k, (c, depth) in enumerate([(1.5, 6), (0.5, 5), (1.0, 3), (-1.0, 4)]):
        check_stds(observe, "identity", depth, width, n_samples, submission_seed + 47 + k, c, rtol=1e-4)


@TASK_7_3.rung("random weights: other sizes and seeds, 20 Kaiming layers, 6 N(0, 1) layers", points=7)
def test_stds_random_weights(observe, submission_seed):
    check_stds(observe, "scaled", 3, 16, 40, submission_seed + 73, 0.35)
    check_stds(observe, "scaled", 6, 8, 20, submission_seed + 61, math.sqrt(2 / 8))
    # 20 Kaiming layers stay level; 6 N(0, 1) layers of width 128 grow by about sqrt(128 / 2) = 8 each:
    # judged against the stds recomputed here
    check_stds(observe, "scaled", 20, 256, 500, submission_seed + 67, math.sqrt(2 / 256))
    check_stds(observe, "scaled", 6, 128, 500, submission_seed + 71, 1.0)


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
