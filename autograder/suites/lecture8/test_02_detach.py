"""Hidden tests for 02_detach (Tasks 2.1, 2.2 and 2.3).

Inputs (shapes, values, learning rates, training problems) are drawn per submission from
``submission_seed``; the expected values are computed here. Each test first checks the basics of
its task with one message per symptom (detach returned t itself or a copy; w is unchanged; the
training loop's losses differ, or the memory it holds grows with the batches), so a trivial answer
loses every test with one hint and a basic mistake reads the same everywhere, then checks its own
property.

Task 2.3's leak is judged by memory measured from outside the student's process
(``observe.memory``: the worker's peak resident memory during the call above its memory before
any student code ran, both read by the grader from /proc; tracemalloc in a kernel): train_fixed
runs a model whose every batch makes megabytes of activations, on 2 batches and on 2 epochs of
8. A loop that keeps any batch's graph holds 6 or more batches' worth more on the larger run (24
MiB and up), a fixed loop the same; and the larger run's peak stays under HELD_BYTES (a fixed
loop about 19 MiB, one keeping an epoch's graphs about 60): memory a cell holds between calls (a
ballast freed when train_fixed starts and taken again after) is above that floor too, so it
cannot make room for a leak unseen.
"""
import numpy as np

import needle as ndl
from autograder.suite import assert_close, expect_array, graded, load_probes

P = load_probes(__file__)

# Needle's own implementation of each task: a task answered with it scores nothing.
# Tensor.make_const, realize_cached_data and the .data setter stay allowed; Task 2.3 (a
# training loop to repair, using needle.optim as given) may use anything of needle.
OWN_WORK = {
    "2.1": ("detach", ["needle.autograd.Tensor.detach", "needle.autograd.TensorTuple.detach", "needle.autograd.Tensor.data"]),
    "2.2": ("sgd_update", ["needle.optim"]),
}


def rng_of(seed: int, k: int):
    return np.random.default_rng([seed, k])


def shape_of(rng, max_dims: int = 3) -> tuple:
    return tuple(int(n) for n in rng.integers(1, 5, size=int(rng.integers(1, max_dims + 1))))


# --- Task 2.1: detach -------------------------------------------------------------------------
NOT_TENSOR = "detach must return a needle Tensor"
RETURNED_T = "detach returned t itself: it must return a NEW Tensor and leave t as it is"
COPY = ("detach holds a copy of the data: its cached_data must be the very same array object as t's "
        "(ndl.Tensor(...) always makes a copy)")
HAS_OP = "the detached tensor still has an op: it must be a leaf (op is None)"
HAS_INPUTS = "the detached tensor still has inputs: a leaf has inputs == () (an empty tuple)"
INPUTS_NOT_TUPLE = ("the detached tensor's inputs are not a tuple (an empty list, say): a leaf has inputs == (), the "
                    "empty tuple, as every needle leaf has")
KEEPS_GRAD = ("the detached tensor carries t's .grad: a fresh leaf starts with grad None (a copy of t, such as "
              "copy.copy(t), keeps every attribute of t, .grad included)")
REQUIRES_GRAD = ("the detached tensor has requires_grad True (or not a bool): a detached tensor is a constant, so its "
                 "requires_grad must be False whatever t's was")
LAZY_NO_DATA = ("in lazy mode the detached tensor has no data: there t.cached_data is None until it is computed, and "
                "the detached tensor must hold t's computed array")


def detach_reference(kind, shape, seed, dtype="float32"):
    """The values detach(t) must show: those of t itself (x, or 3x + 1), built here."""
    t, _ = P.make_tensor(kind, shape, seed, dtype)
    return t.numpy().copy()


def check_new_tensor(f: dict) -> None:
    """What every detach test needs first: a Tensor, and not t itself, with every field set."""
    assert f["is_tensor"], NOT_TENSOR
    assert not f["same_object"], RETURNED_T
    unset = [name for name in P.FIELDS if name in (f.get("unset") or ())]
    assert not unset, (
        f"the detached tensor has no {', no '.join(unset)}: a Tensor made with Tensor.__new__ starts with no fields "
        "at all; give it every one (op, inputs, cached_data, requires_grad, grad)")


def detach_cases(seed: int, k: int, kinds=("leaf", "nonleaf", "const")):
    rng = rng_of(seed, k)
    return [(kind, shape_of(rng), int(rng.integers(0, 2**31))) for kind in kinds]


@graded("2.1", points=2)
def test_detach_shares_cached_data(observe, submission_seed):
    """detach shares the very same cached_data array (no copy)"""
    for kind, shape, seed in detach_cases(submission_seed, 1):
        f = observe(P.detach_facts, kind=kind, shape=shape, seed=seed)
        check_new_tensor(f)
        assert f["shares"], COPY


@graded("2.1", points=2)
def test_detach_returns_new_leaf(observe, submission_seed):
    """detach returns a new leaf: op None, no inputs, no grad (even when t has one)"""
    for kind, shape, seed in detach_cases(submission_seed, 2, ("leaf", "nonleaf")):
        f = observe(P.detach_facts, kind=kind, shape=shape, seed=seed)
        check_new_tensor(f)
        assert f["op"] is None, HAS_OP
        assert f["inputs"] != -1, INPUTS_NOT_TUPLE
        assert f["inputs"] == 0, HAS_INPUTS
        assert not f["has_grad"], KEEPS_GRAD


@graded("2.1", points=1)
def test_detach_requires_no_grad(observe, submission_seed):
    """detach's result has requires_grad False"""
    for kind, shape, seed in detach_cases(submission_seed, 3, ("leaf", "nonleaf")):
        f = observe(P.detach_facts, kind=kind, shape=shape, seed=seed)
        check_new_tensor(f)
        assert f["requires_grad"] is False, REQUIRES_GRAD


@graded("2.1", points=1)
def test_detach_leaves_original_untouched(observe, submission_seed):
    """detach leaves t unchanged: its graph, requires_grad and data"""
    # t = 3x + 1: after detach, t.sum().backward() still gives x.grad = 3 everywhere
    # (d(3x+1)/dx = 3); for a leaf t = x, d(sum x)/dx = 1.
    for kind, shape, seed in detach_cases(submission_seed, 4, ("nonleaf", "leaf")):
        slope = 3.0 if kind == "nonleaf" else 1.0
        f = observe(P.detach_facts, kind=kind, shape=shape, seed=seed)
        check_new_tensor(f)
        assert f["t_op_same"] and f["t_inputs_same"], (
            "detach changed t's op or inputs: t must keep its graph (build a new Tensor, do not cut t loose)"
        )
        assert f["t_requires_grad"] is True, "detach changed t.requires_grad: only the new tensor has requires_grad False"
        assert f["t_array_same"], "detach replaced t's cached_data: t must keep its own array"
        assert_close(f["t_value"], detach_reference(kind, shape, seed), "detach changed the values of t")
        assert f["x_grad"] is not None, "after detach, backward() through t no longer works: t must keep its graph"
        assert_close(f["x_grad"], np.full(shape, slope), "after detach, backward() through t gives wrong gradients")


@graded("2.1", points=1)
def test_detach_values_and_dtype(observe, submission_seed):
    """detach keeps the values, shape and dtype (float32 and float64)"""
    rng = rng_of(submission_seed, 5)
    for i in range(8):
        kind, dtype = ("leaf", "nonleaf", "const")[i % 3], ("float32", "float64")[i % 2]
        shape, seed = shape_of(rng), int(rng.integers(0, 2**31))
        f = observe(P.detach_facts, kind=kind, shape=shape, seed=seed, dtype=dtype)
        check_new_tensor(f)
        assert f["shares"], COPY  # a copy explains a changed dtype too (ndl.Tensor makes float32)
        value = expect_array(f["value"], "the detached tensor has no numpy array in cached_data", shape=shape)
        assert value.dtype == np.dtype(dtype), "detach changed the dtype: the detached tensor must hold t's own array"
        assert_close(value, detach_reference(kind, shape, seed, dtype), "the detached tensor's values differ from t's")


@graded("2.1", points=1)
def test_detach_realizes_lazy_tensor(observe, submission_seed):
    """detach of a lazily built tensor computes and shares its data"""
    (_, shape, seed), = detach_cases(submission_seed, 6, ("nonleaf",))
    f = observe(P.detach_lazy, shape=shape, seed=seed)
    check_new_tensor(f)
    assert f["op"] is None, HAS_OP
    assert f["has_array"], LAZY_NO_DATA
    assert f["shares"], COPY
    assert_close(f["value"], detach_reference("nonleaf", shape, seed), "the detached lazy tensor has wrong values")


STOP_GRADIENT = ("backward() went through the detached tensor: inside an expression it is a constant, so for "
                 "y = sum(detach(t) * t) the gradient reaches x through the second factor only")
RECORDS_GRAPH = ("an expression on the detached tensor records a graph (detach(t) * 3 + 1 has an op): eager mode drops "
                 "the graph only when no input needs a gradient, so the detached tensor's requires_grad must be False "
                 "whatever t's was")


@graded("2.1", points=1)
def test_detach_is_a_constant_in_expressions(observe, submission_seed):
    """detach is a stop-gradient: d/dx sum(detach(t) * t) by hand; an expression on it records no graph"""
    # y = sum(c * t) with c = t's value held constant. t = x (leaf): dy/dx = c = x.
    # t = 3x + 1 (non-leaf): dy/dx = 3 c = 3 (3x + 1). Not 2 t dt/dx, which a detach that
    # kept the graph would give.
    for kind, shape, seed in detach_cases(submission_seed, 7, ("leaf", "nonleaf")):
        slope = 3.0 if kind == "nonleaf" else 1.0
        f = observe(P.detach_in_expressions, kind=kind, shape=shape, seed=seed)
        check_new_tensor(f)
        assert f["op"] is None, HAS_OP
        assert f["t_requires_grad"] is True, "detach changed t.requires_grad: only the new tensor has requires_grad False"
        assert not f["records_graph"], RECORDS_GRAPH
        want = slope * detach_reference(kind, shape, seed)
        grad = expect_array(f["x_grad"], STOP_GRADIENT, shape=shape)
        assert_close(grad, want, f"{STOP_GRADIENT} (expected dy/dx = {slope:g} t, got another gradient)")


# --- Task 2.2: sgd_update ---------------------------------------------------------------------
SETTER = ("sgd_update raised ValueError: the .data setter refuses a value whose shape or dtype differs from w's; "
          "keep w's dtype and shape (ndl.Tensor(...) makes float32 unless told otherwise)")
WROTE_GRAD = "sgd_update changed grad: read grad, never write to it (nor to its array)"
UNCHANGED = ("w is unchanged after sgd_update: `w = ...` inside the function rebinds only a local name; change "
             "the tensor object itself (its .data), so that every reference to it sees the step")
ASCENDS = "w moved along the gradient: a descent step subtracts lr * grad"
WRONG_STEP = "w does not hold w - lr * grad after sgd_update"
RETURNS = "sgd_update returned something: it updates w in place and returns None (like optimizer.step())"
NOT_LEAF = "w.op is not None after sgd_update: w must stay a leaf, its new values computed without a graph"
NOT_TRAINABLE = ("w.requires_grad is no longer True after sgd_update: the parameter must stay trainable "
                 "(change only its data)")
GRAD_NODES = {"const": {"op": None, "inputs": 0, "requires_grad": False},
              "leaf": {"op": None, "inputs": 0, "requires_grad": True},
              "nonleaf": {"op": "MulScalar", "inputs": 1, "requires_grad": True}}


def update_case(seed: int, k: int, max_dims: int = 3) -> tuple:
    """(shape, seed of the arrays, lr) drawn for one update test."""
    rng = rng_of(seed, k)
    return shape_of(rng, max_dims), int(rng.integers(0, 2**31)), float(rng.choice([0.05, 0.1, 0.25, 0.5, 1.5]))


def update_reference(shape, seed, lr, dtype="float32", grad_kind="const", steps=1):
    """w - steps * lr * grad in float64, from the same inputs the probe builds."""
    w = P.array(shape, seed, dtype).astype(np.float64)
    g = P.grad_values(grad_kind, shape, seed + 1, dtype).astype(np.float64)
    return w - steps * lr * g


NO_ARRAY = ("after sgd_update, w has no numpy array in its data: a tensor's data is a numpy array (w.data = t takes the "
            "array of the Tensor t; w.cached_data = ... stores what it is given, as it is)")


def check_update(f: dict, value, shape, seed, lr, dtype="float32", grad_kind="const", steps=1) -> None:
    """What every sgd_update test needs first, one message per symptom: no exception from the
    .data setter, grad left alone, and ``value`` (w after the calls) = w - steps * lr * grad."""
    assert not f["value_error"], SETTER
    grad = P.grad_values(grad_kind, shape, seed + 1, dtype)
    same_grad = (isinstance(f["grad_value"], np.ndarray) and np.array_equal(f["grad_value"], grad)
                 and np.array_equal(f["grad_array_now"], grad) and f["grad_node"] == GRAD_NODES[grad_kind])
    assert same_grad, WROTE_GRAD
    value = expect_array(value, NO_ARRAY, shape=shape)
    start = P.array(shape, seed, dtype)
    assert not np.array_equal(value, start), UNCHANGED
    # float32 rounding accumulates over many steps: a looser tolerance then
    rtol, atol = (1e-12, 1e-12) if dtype == "float64" and steps == 1 else (1e-5, 1e-6) if steps == 1 else (1e-3, 1e-3)
    assert not np.allclose(value, start.astype(np.float64) + steps * lr * grad.astype(np.float64), rtol=rtol, atol=atol), (
        ASCENDS)
    assert_close(value, update_reference(shape, seed, lr, dtype, grad_kind, steps), WRONG_STEP,
                 rtol=rtol, atol=atol)


@graded("2.2", points=2)
def test_sgd_update_value(observe, submission_seed):
    """sgd_update computes w - lr * grad (float32, several shapes)"""
    for k in range(4):
        shape, seed, lr = update_case(submission_seed, 10 + k)
        f = observe(P.update_once, shape=shape, seed=seed, lr=lr)
        check_update(f, f.get("value"), shape, seed, lr)
        assert f["value"].dtype == np.float32, "sgd_update changed w's dtype: keep float32 (multiply by a Python float)"


@graded("2.2", points=1)
def test_sgd_update_keeps_float64(observe, submission_seed):
    """sgd_update keeps a float64 weight float64"""
    shape, seed, lr = update_case(submission_seed, 20)
    f = observe(P.update_once, shape=shape, seed=seed, lr=lr, dtype="float64")
    check_update(f, f.get("value"), shape, seed, lr, dtype="float64")
    assert f["value"].dtype == np.float64, (
        "a float64 weight came back with another dtype: keep w's dtype (compute from w's and grad's own values; "
        "ndl.Tensor(...) makes float32 unless told otherwise)"
    )


@graded("2.2", points=1)
def test_sgd_update_returns_none(observe, submission_seed):
    """sgd_update returns None (it works in place)"""
    shape, seed, lr = update_case(submission_seed, 30)
    f = observe(P.update_once, shape=shape, seed=seed, lr=lr)
    check_update(f, f.get("value"), shape, seed, lr)
    assert f["returned_none"] is True, RETURNS
    shape, seed, lr = update_case(submission_seed, 31)
    g = observe(P.update_references, shape=shape, seed=seed, lr=lr)
    check_update(g, g.get("list_value"), shape, seed, lr)
    assert g["returned_none"] is True, RETURNS


@graded("2.2", points=2)
def test_sgd_update_keeps_references(observe, submission_seed):
    """a list, a dict and a Module holding w see the update"""
    shape, seed, lr = update_case(submission_seed, 40)
    f = observe(P.update_references, shape=shape, seed=seed, lr=lr)
    for where in ("list", "dict", "model"):
        check_update(f, f.get(f"{where}_value"), shape, seed, lr)
    assert f["list_same_object"] and f["dict_same_object"] and f["model_same_object"], (
        "after sgd_update the list, dict or Module no longer holds the same parameter object"
    )


@graded("2.2", points=1)
def test_sgd_update_leaf_stays_leaf(observe, submission_seed):
    """after sgd_update, w is still a leaf (op None, no inputs)"""
    shape, seed, lr = update_case(submission_seed, 50)
    f = observe(P.update_once, shape=shape, seed=seed, lr=lr)
    check_update(f, f.get("value"), shape, seed, lr)
    assert f["same_object"], "sgd_update must not replace w"
    assert f["op"] is None, NOT_LEAF
    assert f["inputs"] == 0, "w.inputs is not empty after sgd_update: w must stay a leaf (inputs == ())"


@graded("2.2", points=2)
def test_sgd_update_no_graph_after_many_steps(observe, submission_seed):
    """w's graph stays one node after 10,000 updates"""
    shape, seed, _ = update_case(submission_seed, 60)
    steps, lr = 10_000, 1e-4
    f = observe(P.update_many, steps=steps, shape=shape, seed=seed, lr=lr)
    check_update(f, f.get("value"), shape, seed, lr, steps=steps)
    assert f["op"] is None and f["inputs"] == 0, (
        "w's graph grew over many updates: each update must replace w's data, not chain new ops onto w"
    )
    assert f["held"], "after many updates, a dict holding w no longer holds the same object"


@graded("2.2", points=1)
def test_sgd_update_keeps_requires_grad(observe, submission_seed):
    """w still requires grad after sgd_update"""
    shape, seed, lr = update_case(submission_seed, 70)
    f = observe(P.update_once, shape=shape, seed=seed, lr=lr)
    check_update(f, f.get("value"), shape, seed, lr)
    assert f["requires_grad"] is True, NOT_TRAINABLE
    shape, seed, lr = update_case(submission_seed, 71)
    f = observe(P.update_many, steps=20, shape=shape, seed=seed, lr=lr)
    check_update(f, f.get("value"), shape, seed, lr, steps=20)
    assert f["requires_grad"] is True, NOT_TRAINABLE


@graded("2.2", points=1)
def test_sgd_update_leaves_grad_unchanged(observe, submission_seed):
    """sgd_update does not modify grad (a constant, or one with a graph)"""
    for k, grad_kind in enumerate(("const", "nonleaf")):
        shape, seed, lr = update_case(submission_seed, 80 + k)
        f = observe(P.update_once, shape=shape, seed=seed, lr=lr, grad_kind=grad_kind)
        check_update(f, f.get("value"), shape, seed, lr, grad_kind=grad_kind)


@graded("2.2", points=1)
def test_sgd_update_grad_requires_grad(observe, submission_seed):
    """sgd_update with a grad that requires grad still builds no graph"""
    for k, grad_kind in enumerate(("leaf", "nonleaf")):
        shape, seed, lr = update_case(submission_seed, 90 + k)
        f = observe(P.update_once, shape=shape, seed=seed, lr=lr, grad_kind=grad_kind)
        check_update(f, f.get("value"), shape, seed, lr, grad_kind=grad_kind)
        assert f["op"] is None and f["inputs"] == 0, (
            "w got a graph when grad requires grad: the new value must be computed without a graph even then "
            "(grad's values, not grad itself)"
        )
        assert f["requires_grad"] is True, NOT_TRAINABLE
        m = observe(P.update_many, steps=50, shape=shape, seed=seed, lr=lr / 10, grad_kind=grad_kind)
        check_update(m, m.get("value"), shape, seed, lr / 10, grad_kind=grad_kind, steps=50)
        assert m["op"] is None and m["inputs"] == 0, "w's graph grew over updates with a grad that requires grad"


# --- Task 2.3: train_fixed --------------------------------------------------------------------
LEAK = ("the memory train_fixed holds grows with the number of batches: each iteration's graph stays alive through "
        "something the loop keeps (an accumulator, a list, the history); keep only values that hold no graph")
# A model whose every batch makes 256 x 2048 float32 activations (2 MiB each, about 4 of them
# kept per batch by a leak): run on 2 batches, then on 2 epochs of 8 batches.
BIG = dict(n_batches=2, batch_size=256, features=4, epochs=1, lr=0.01, hidden=2048)
BIGGER = BIG | dict(n_batches=8, epochs=2)
LEAK_BYTES = 12 * 2**20  # a leak holds 6 batches (24 MiB) more, or 14 (56 MiB); a fixed loop about 0
# the larger run's peak above the worker's memory before any student code: a fixed loop about 19
# MiB (the model, a batch's activations, what earlier calls left to the allocator), a loop keeping
# an epoch's graphs about 60, every epoch's about 108 (measured as root, 2026-12-07)
HELD_BYTES = 40 * 2**20
HELD = ("while train_fixed trained on 2 epochs of 8 batches, your notebook's process held over 40 MiB more than "
        "before your code ran (a loop that keeps no graph needs about 20): each iteration's graph stays alive through "
        "something the loop keeps, or your cells hold large data of their own; keep only values that hold no graph")
MEAN_SUM = ("train_fixed's history holds each epoch's total loss: train_leaky's holds the mean over the epoch's "
            "batches (the total divided by the number of batches)")
OVERWRITTEN = ("train_fixed's loss for an epoch is its last batch's loss divided by the number of batches: the total is "
               "replaced at each batch (=) instead of added to (+=), so the earlier batches' losses are lost")
CARRIED = ("train_fixed's total loss carries over from one epoch to the next: start each epoch's total at 0, as "
           "train_leaky does, so that each entry is the mean over that epoch's batches only")
MEAN_EPOCHS = ("train_fixed divides each epoch's total loss by the number of epochs: the mean is over the epoch's "
               "batches (their number, len(batches)), as in train_leaky")


def reference_training(seed, n_batches, batch_size, features, epochs, lr, hidden=0):
    """What train_fixed must give: the leaky loop's training, each loss kept as a Python float;
    also each epoch's batch losses (to name the mistakes that add them up wrongly)."""
    model, batches = P.make_problem(seed, n_batches, batch_size, features, hidden)
    opt = ndl.optim.SGD(model.parameters(), lr=lr)
    history, batch_losses = [], []
    for _ in range(epochs):
        losses = []
        for x, y in batches:
            loss = ((model(x) - y) ** 2).sum() / x.shape[0]
            opt.reset_grad()
            loss.backward()
            opt.step()
            losses.append(float(loss.numpy()))
        history.append(sum(losses) / len(batches))
        batch_losses.append(losses)
    return history, [p.numpy().astype(np.float64) for p in model.parameters()], batch_losses


def check_losses(f: dict, problem: dict) -> list:
    """train_fixed trained like train_leaky on ``problem``: one loss per epoch, the same values."""
    assert not f["backward_without_graph"], (
        "train_fixed called backward() on a loss without a graph (computed under no_grad, or detached first): the "
        "loss needs its graph until backward(); only what the loop keeps afterwards must hold no graph"
    )
    history, weights, batch_losses = reference_training(**problem)
    epochs = problem["epochs"]  # the probe reports one value, kind and graph flag per entry of the history
    assert f["is_list"] and f["length"] == epochs and len(f["values"]) == len(f["kinds"]) == len(f["graphs"]) == epochs, (
        "train_fixed must return a list with one loss per epoch")
    assert all(v is not None for v in f["values"]), "each entry of train_fixed's history must be one number, the epoch's mean loss"
    if not np.allclose(f["values"], history, rtol=1e-4, atol=1e-6):
        assert f["trained"], (
            "train_fixed no longer trains the model (its weights are unchanged): keep backward() and the "
            "optimizer's step on each batch's loss"
        )
        for scale, message in ((problem["n_batches"], MEAN_SUM), (problem["n_batches"] / epochs, MEAN_EPOCHS)):
            assert scale == 1 or not np.allclose(f["values"], np.multiply(history, scale), rtol=1e-4, atol=1e-6), message
        n = problem["n_batches"]
        if n > 1:  # with one batch a replaced total and an added one agree
            assert not np.allclose(f["values"], [losses[-1] / n for losses in batch_losses], rtol=1e-4, atol=1e-6), OVERWRITTEN
        if epochs > 1:  # with one epoch a total carried over and a fresh one agree
            assert not np.allclose(f["values"], np.cumsum([sum(losses) for losses in batch_losses]) / n,
                                   rtol=1e-4, atol=1e-6), CARRIED
        assert False, (
            "train_fixed's per-epoch losses differ from train_leaky's: keep the same computation (the same loss, "
            "backward, step and mean over the batches); change only what the loop keeps"
        )
    return weights


def check_training(observe, once, seed: int) -> dict:
    """What every train_fixed test needs first, one message per symptom: train_leaky's losses
    on a small problem, then memory that stays flat when the batches and epochs grow. Asked of
    the worker once per submission: each test of the task judges the same run."""
    return once("2.3 training", lambda: _check_training(observe, seed))


def _check_training(observe, seed: int) -> dict:
    rng = rng_of(seed, 100)
    problem = dict(seed=int(rng.integers(0, 2**31)), n_batches=int(rng.integers(4, 9)), batch_size=8,
                   features=int(rng.integers(2, 6)), epochs=3, lr=float(rng.choice([0.05, 0.1])))
    f = observe(P.train, **problem)
    weights = check_losses(f, problem)
    big_seed = int(rng.integers(0, 2**31))
    grown = []
    for size in (BIG, BIGGER):
        g, used = observe.memory(P.train, seed=big_seed, **size)
        check_losses(g, dict(seed=big_seed, **size))
        grown.append(used)
    assert grown[1] - grown[0] < LEAK_BYTES, LEAK
    assert grown[1] < HELD_BYTES, HELD
    return f | {"reference_weights": weights}


@graded("2.3", points=2)
def test_fixed_same_losses_as_leaky(observe, once, submission_seed):
    """train_fixed gives train_leaky's per-epoch losses and keeps no graph alive"""
    check_training(observe, once, submission_seed)


@graded("2.3", points=2)
def test_fixed_memory_stays_flat(observe, once, submission_seed):
    """the memory train_fixed holds stays flat over more batches and epochs (measured outside your code)"""
    check_training(observe, once, submission_seed)


@graded("2.3", points=1)
def test_fixed_returns_python_floats(observe, once, submission_seed):
    """train_fixed returns a list of Python floats"""
    f = check_training(observe, once, submission_seed)
    kinds = set(f["kinds"])
    assert not any(f["graphs"]), LEAK
    if "tensor" in kinds:
        why = "needle Tensors, not Python floats: a tensor keeps its arrays alive, and json.dumps refuses it"
    elif "numpy" in kinds:
        why = ("numpy values, not Python floats: json.dumps refuses numpy float32 (np.float64, a subclass of float, "
               "would pass), and a history of losses is plain numbers")
    else:
        why = "values that are not Python floats: a history of losses is plain numbers"
    assert kinds == {"float"}, f"train_fixed's history holds {why}"


@graded("2.3", points=1)
def test_fixed_trains_like_leaky(observe, once, submission_seed):
    """train_fixed leaves the model with train_leaky's weights"""
    f = check_training(observe, once, submission_seed)
    for got, want in zip(f["weights"], f["reference_weights"], strict=True):  # the same model: as many parameters
        assert_close(got, want, "after train_fixed the model's weights differ from train_leaky's: train it the same way",
                     rtol=1e-4, atol=1e-6)
