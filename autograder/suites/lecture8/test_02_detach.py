"""Hidden tests for 02_detach (Tasks 2.1, 2.2 and 2.3).

Each test first checks the basics of its task with one message per symptom (detach returned
t itself; w is unchanged; the training loop's losses differ or its graphs stay alive), so a
trivial answer loses every test with one hint, then checks its own property.
"""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import needle as ndl
from autograder.suite import HYPOTHESIS, assert_close, expect_array, graded, load_probes

P = load_probes(__file__)

# Needle's own implementation of each task: a task answered with it scores nothing.
# Tensor.make_const, realize_cached_data and the .data setter stay allowed; Task 2.3 (a
# training loop to repair, using needle.optim as given) may use anything of needle.
OWN_WORK = {
    "2.1": ("detach", ["needle.autograd.Tensor.detach", "needle.autograd.TensorTuple.detach", "needle.autograd.Tensor.data"]),
    "2.2": ("sgd_update", ["needle.optim"]),
}


KINDS = ("leaf", "nonleaf", "const")


def detach_reference(kind, shape, seed, dtype="float32"):
    """The values detach(t) must show: those of t itself (x, or 3x + 1)."""
    t, _ = P.make_tensor(kind, shape, seed, dtype)
    return t.numpy().copy()


# --- Task 2.1: detach -------------------------------------------------------------------------


def check_new_tensor(f: dict) -> None:
    """What every detach test needs first: a Tensor, and not t itself."""
    assert f["is_tensor"], "detach must return a needle Tensor"
    assert not f["same_object"], "detach returned t itself: it must return a NEW Tensor and leave t as it is"



@graded("2.1", points=2)
def test_detach_shares_cached_data(observe):
    """detach shares the very same cached_data array (no copy)"""
    for kind, shape, seed in (("leaf", (4,), 11), ("nonleaf", (2, 3), 12), ("const", (3, 1), 13)):
        f = observe(P.detach_facts, kind=kind, shape=shape, seed=seed)
        check_new_tensor(f)
        assert f["shares"], (
            f"detach of a {kind.replace('nonleaf', 'non-leaf')} tensor holds a copy of the data: its cached_data must "
            "be the very same array object as t's (ndl.Tensor(...) always makes a copy)"
        )


@graded("2.1", points=2)
def test_detach_returns_new_leaf(observe):
    """detach returns a new leaf: op None, no inputs, no grad"""
    for kind, shape, seed in (("leaf", (3,), 21), ("nonleaf", (2, 2), 22)):
        f = observe(P.detach_facts, kind=kind, shape=shape, seed=seed)
        check_new_tensor(f)
        assert f["op_none"], "the detached tensor still has an op: it must be a leaf (op is None)"
        assert f["inputs_empty"], "the detached tensor still has inputs: a leaf has inputs == () (an empty tuple)"
        assert f["grad_none"], "the detached tensor carries a .grad: a fresh leaf starts with grad None"


@graded("2.1", points=1)
def test_detach_requires_no_grad(observe):
    """detach's result has requires_grad False"""
    for kind, shape, seed in (("leaf", (5,), 31), ("nonleaf", (3,), 32)):
        f = observe(P.detach_facts, kind=kind, shape=shape, seed=seed)
        check_new_tensor(f)
        assert f["requires_grad_false"], (
            "the detached tensor has requires_grad True (or not a bool): a detached tensor is a constant, so its "
            "requires_grad must be False whatever t's was"
        )


@graded("2.1", points=2)
def test_detach_leaves_original_untouched(observe):
    """detach leaves t unchanged: its graph, requires_grad and data"""
    # t = 3x + 1: after detach, t.sum().backward() still gives x.grad = 3 everywhere
    # (d(3x+1)/dx = 3); for a leaf t = x, d(sum x)/dx = 1.
    for kind, shape, seed, slope in (("nonleaf", (2, 3), 41, 3.0), ("leaf", (4,), 42, 1.0)):
        f = observe(P.detach_facts, kind=kind, shape=shape, seed=seed)
        check_new_tensor(f)
        assert f["t_op_same"] and f["t_inputs_same"], (
            "detach changed t's op or inputs: t must keep its graph (build a new Tensor, do not cut t loose)"
        )
        assert f["t_requires_grad_same"], "detach changed t.requires_grad: only the new tensor has requires_grad False"
        assert f["t_array_same"], "detach replaced t's cached_data: t must keep its own array"
        assert_close(f["t_value"], detach_reference(kind, shape, seed), "detach changed the values of t")
        assert f["x_grad"] is not None, "after detach, backward() through t no longer works: t must keep its graph"
        assert_close(f["x_grad"], np.full(shape, slope), "after detach, backward() through t gives wrong gradients")


@graded("2.1", points=1)
@settings(max_examples=20, **HYPOTHESIS)
@given(
    kind=st.sampled_from(KINDS),
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=3),
    seed=st.integers(0, 10_000),
    dtype=st.sampled_from(["float32", "float64"]),
)
def test_detach_values_and_dtype(observe, kind, shape, seed, dtype):
    """detach keeps the values, shape and dtype"""
    f = observe(P.detach_facts, kind=kind, shape=shape, seed=seed, dtype=dtype)
    check_new_tensor(f)
    value = expect_array(f["value"], "the detached tensor has no numpy array in cached_data", shape=shape)
    assert value.dtype == np.dtype(dtype), (
        "detach changed the dtype: the detached tensor must share t's own array, not hold a copy "
        "(ndl.Tensor(...) makes a float32 copy unless told otherwise)"
    )
    assert_close(value, detach_reference(kind, shape, seed, dtype), "the detached tensor's values differ from t's")


@graded("2.1", points=1)
def test_detach_realizes_lazy_tensor(observe):
    """detach of a lazily built tensor computes and shares its data"""
    f = observe(P.detach_lazy, shape=(3, 2), seed=51)
    check_new_tensor(f)
    assert f["op_none"], "in lazy mode too, detach must return a new leaf Tensor (op None)"
    assert f["has_array"], (
        "in lazy mode the detached tensor has no data: there t.cached_data is None until it is computed, "
        "and the detached tensor must hold t's computed array"
    )
    assert f["shares"], "in lazy mode the detached tensor must share t's (computed) array, not hold a copy"
    assert_close(f["value"], detach_reference("nonleaf", (3, 2), 51), "the detached lazy tensor has wrong values")


# --- Task 2.2: sgd_update ---------------------------------------------------------------------


def update_reference(shape, seed, lr, dtype="float32", grad_kind="const", steps=1):
    """w - steps * lr * grad in float64, from the same inputs the probe builds."""
    w = P.array(shape, seed, dtype).astype(np.float64)
    g = P.grad_values(grad_kind, shape, seed + 1, dtype).astype(np.float64)
    return w - steps * lr * g


def check_update(f: dict, value, shape, seed, lr, dtype="float32", grad_kind="const", steps=1, seen="") -> None:
    """What every sgd_update test needs first, one message per symptom: no exception from the
    .data setter, grad left alone, and ``value`` (w after the calls) = w - steps * lr * grad."""
    assert not f["value_error"], (
        "sgd_update raised ValueError: the .data setter refuses a value whose shape or dtype differs from w's; "
        "keep w's dtype and shape (ndl.Tensor(...) makes float32 unless told otherwise)"
    )
    assert not f["grad_changed"], "sgd_update changed grad: read grad, never write to it (nor to its array)"
    value = expect_array(value, f"after sgd_update, w has no numpy array in its data{seen}", shape=shape)
    start = P.array(shape, seed, dtype)
    assert not np.array_equal(value, start), (
        f"w is unchanged after sgd_update{seen}: `w = ...` inside the function rebinds only a local name; change "
        "the tensor object itself (its .data), so that every reference to it sees the step"
    )
    # float32 rounding accumulates over many steps: a looser tolerance then
    rtol, atol = (1e-12, 1e-12) if dtype == "float64" and steps == 1 else (1e-5, 1e-6) if steps == 1 else (1e-3, 1e-3)
    g = P.grad_values(grad_kind, shape, seed + 1, dtype).astype(np.float64)
    assert not np.allclose(value, start.astype(np.float64) + steps * lr * g, rtol=rtol, atol=atol), (
        f"w moved along the gradient{seen}: a descent step subtracts lr * grad"
    )
    assert_close(value, update_reference(shape, seed, lr, dtype, grad_kind, steps),
                 f"w does not hold w - lr * grad after sgd_update{seen}", rtol=rtol, atol=atol)


@graded("2.2", points=2)
def test_sgd_update_value(observe):
    """sgd_update computes w - lr * grad (float32, several shapes)"""
    for shape, seed, lr in (((3,), 101, 0.1), ((2, 4), 102, 0.5), ((3, 1, 2), 103, 1e-3), ((1,), 104, 2.0)):
        f = observe(P.update_once, shape=shape, seed=seed, lr=lr)
        check_update(f, f.get("value"), shape, seed, lr)
        assert f["value"].dtype == np.float32, "sgd_update changed w's dtype: keep float32 (multiply by a Python float)"


@graded("2.2", points=1)
def test_sgd_update_keeps_float64(observe):
    """sgd_update keeps a float64 weight float64"""
    f = observe(P.update_once, shape=(2, 3), seed=111, lr=0.25, dtype="float64")
    check_update(f, f.get("value"), (2, 3), 111, 0.25, dtype="float64")
    assert f["value"].dtype == np.float64, (
        "a float64 weight came back with another dtype: keep w's dtype (compute from w's and grad's own values; "
        "ndl.Tensor(...) makes float32 unless told otherwise)"
    )


@graded("2.2", points=1)
def test_sgd_update_returns_none(observe):
    """sgd_update returns None (it works in place)"""
    f = observe(P.update_once, shape=(4,), seed=121, lr=0.1)
    check_update(f, f.get("value"), (4,), 121, 0.1)
    assert f["returned_none"] is True, (
        "sgd_update returned something: it updates w in place and returns None (like optimizer.step())"
    )
    g = observe(P.update_references, shape=(2, 2), seed=122, lr=0.1)
    check_update(g, g.get("list_value"), (2, 2), 122, 0.1, seen=" (seen through the list holding it)")
    assert g["returned_none"] is True, "sgd_update returned something: it updates w in place and returns None"


@graded("2.2", points=2)
def test_sgd_update_keeps_references(observe):
    """a list, a dict and a Module holding w see the update"""
    shape, seed, lr = (3, 2), 131, 0.3
    f = observe(P.update_references, shape=shape, seed=seed, lr=lr)
    for where in ("list", "dict", "model"):
        check_update(f, f.get(f"{where}_value"), shape, seed, lr, seen=f" (seen through the {where} holding it)")
    assert f["list_same_object"] and f["dict_same_object"] and f["model_same_object"], (
        "after sgd_update the list, dict or Module no longer holds the same parameter object"
    )


@graded("2.2", points=1)
def test_sgd_update_leaf_stays_leaf(observe):
    """after sgd_update, w is still a leaf (op None, no inputs)"""
    f = observe(P.update_once, shape=(5,), seed=141, lr=0.1)
    check_update(f, f.get("value"), (5,), 141, 0.1)
    assert f["same_object"], "sgd_update must not replace w"
    assert f["op_none"], "w.op is not None after sgd_update: w must stay a leaf, its new values computed without a graph"
    assert f["inputs_empty"], "w.inputs is not empty after sgd_update: w must stay a leaf (inputs == ())"
    assert f["node_count"] == 1, "w's graph has more than one node after sgd_update: the update must build no graph"


@graded("2.2", points=2)
def test_sgd_update_no_graph_after_many_steps(observe):
    """w's graph stays one node after 10,000 updates"""
    steps, shape, seed, lr = 10_000, (2, 3), 151, 1e-4
    f = observe(P.update_many, steps=steps, shape=shape, seed=seed, lr=lr)
    check_update(f, f.get("value"), shape, seed, lr, steps=steps)
    assert f["node_count"] == 1 and f["op_none"], (
        "w's graph grew over many updates: each update must replace w's data, not chain new ops onto w"
    )
    assert f["same_object"], "after many updates, a dict holding w no longer holds the same object"


@graded("2.2", points=1)
def test_sgd_update_keeps_requires_grad(observe):
    """w still requires grad after sgd_update"""
    f = observe(P.update_once, shape=(2, 2), seed=161, lr=0.1)
    check_update(f, f.get("value"), (2, 2), 161, 0.1)
    assert f["requires_grad_true"], (
        "w.requires_grad is no longer True after sgd_update: the parameter must stay trainable "
        "(change only its data)"
    )
    f = observe(P.update_many, steps=20, shape=(3,), seed=162, lr=0.1)
    check_update(f, f.get("value"), (3,), 162, 0.1, steps=20)
    assert f["requires_grad_true"], "w.requires_grad is no longer True after several updates"


@graded("2.2", points=1)
def test_sgd_update_leaves_grad_unchanged(observe):
    """sgd_update does not modify grad"""
    for grad_kind, seed in (("const", 171), ("nonleaf", 172)):
        shape = (2, 3)
        f = observe(P.update_once, shape=shape, seed=seed, lr=0.5, grad_kind=grad_kind)
        check_update(f, f.get("value"), shape, seed, 0.5, grad_kind=grad_kind)
        assert f["grad_graph_same"], "sgd_update changed grad's op, inputs or requires_grad: read grad, never write to it"


@graded("2.2", points=1)
def test_sgd_update_grad_requires_grad(observe):
    """sgd_update with a grad that requires grad still builds no graph"""
    for grad_kind, seed in (("leaf", 181), ("nonleaf", 182)):
        shape, lr = (4, 2), 0.2
        f = observe(P.update_once, shape=shape, seed=seed, lr=lr, grad_kind=grad_kind)
        check_update(f, f.get("value"), shape, seed, lr, grad_kind=grad_kind)
        assert f["op_none"] and f["node_count"] == 1, (
            "w got a graph when grad requires grad: the new value must be computed without a graph even then "
            "(grad's values, not grad itself)"
        )
        assert f["requires_grad_true"], "w.requires_grad is no longer True after sgd_update"
        m = observe(P.update_many, steps=50, shape=shape, seed=seed, lr=lr, grad_kind=grad_kind)
        check_update(m, m.get("value"), shape, seed, lr, grad_kind=grad_kind, steps=50)
        assert m["node_count"] == 1, "w's graph grew over updates with a grad that requires grad"


# --- Task 2.3: train_fixed --------------------------------------------------------------------


def reference_training(seed, n_batches, batch_size, features, epochs, lr):
    """What train_fixed must give: the leaky loop's training, each loss kept as a Python float."""
    model, batches = P.make_problem(seed, n_batches, batch_size, features)
    opt = ndl.optim.SGD(model.parameters(), lr=lr)
    history = []
    for _ in range(epochs):
        total = 0.0
        for x, y in batches:
            loss = ((model(x) - y) ** 2).sum() / x.shape[0]
            opt.reset_grad()
            loss.backward()
            opt.step()
            total += float(loss.numpy())
        history.append(total / len(batches))
    return history, [p.numpy().astype(np.float64) for p in model.parameters()]


def check_training(observe, **problem) -> dict:
    """What every train_fixed test needs first, one message per symptom: one loss per epoch,
    the leaky loop's losses (the same training), and no graph kept alive from batch to batch."""
    f = observe(P.train_facts, **problem)
    assert not f["backward_without_graph"], (
        "train_fixed called backward() on a loss without a graph (computed under no_grad, or detached first): the "
        "loss needs its graph until backward(); only what the loop keeps afterwards must hold no graph"
    )
    history, weights = reference_training(**problem)
    assert f["is_list"] and f["length"] == problem["epochs"], "train_fixed must return a list with one loss per epoch"
    assert all(v is not None for v in f["values"]), "each entry of train_fixed's history must be one number, the epoch's mean loss"
    if not np.allclose(f["values"], history, rtol=1e-4, atol=1e-6):
        assert f["trained"], (
            "train_fixed no longer trains the model (its weights are unchanged): keep backward() and the "
            "optimizer's step on each batch's loss"
        )
        assert False, (
            "train_fixed's per-epoch losses differ from train_leaky's: keep the same computation (the same loss, "
            "backward, step and mean over the batches); change only what the loop keeps"
        )
    # Live tensors when the model is called for each batch: flat when nothing carries a graph
    # from one iteration to the next (the first call comes before any gradient exists). One
    # kept graph-free value per epoch is tolerated here; the float test judges those.
    counts = f["counts"]
    assert len(counts) == problem["epochs"] * problem["n_batches"], "train_fixed must call the model once per batch"
    assert max(counts[1:]) - counts[1] <= problem["epochs"], (
        "the number of live tensors grows from batch to batch: each iteration's graph stays alive through "
        "something the loop keeps (an accumulator, a list, the history); keep only values that hold no graph"
    )
    return f | {"reference_weights": weights}


SMALL = dict(seed=3, n_batches=6, batch_size=8, features=3, epochs=3, lr=0.1)
LARGE = dict(seed=4, n_batches=40, batch_size=4, features=5, epochs=4, lr=0.05)


@graded("2.3", points=2)
def test_fixed_same_losses_as_leaky(observe):
    """train_fixed gives train_leaky's per-epoch losses and keeps no graph alive"""
    check_training(observe, **SMALL)


@graded("2.3", points=2)
def test_fixed_flat_over_many_batches(observe):
    """live tensors stay flat over many batches and epochs"""
    check_training(observe, **LARGE)


@graded("2.3", points=1)
def test_fixed_returns_python_floats(observe):
    """train_fixed returns a list of Python floats"""
    f = check_training(observe, **SMALL)
    kinds = set(f["kinds"])
    if "tensor" in kinds:
        why = "needle Tensors, not Python floats: a tensor keeps its arrays (and any graph) alive, and json.dumps refuses it"
    elif "numpy" in kinds:
        why = "numpy values, not Python floats: json.dumps refuses numpy float32, and a history of losses is plain numbers"
    else:
        why = "values that are not Python floats: a history of losses is plain numbers"
    assert kinds == {"float"}, f"train_fixed's history holds {why}"


@graded("2.3", points=1)
def test_fixed_trains_like_leaky(observe):
    """train_fixed leaves the model with train_leaky's weights"""
    f = check_training(observe, **SMALL)
    for got, want in zip(f["weights"], f["reference_weights"]):
        assert_close(got, want, "after train_fixed the model's weights differ from train_leaky's: train it the same way",
                     rtol=1e-4, atol=1e-6)
