"""Hidden tests for 02_detach (Tasks 2.1, 2.2 and 2.3).

Each task is declared once, below, with its ladder. Its visible rungs (worth no points: their
inputs and answers are public) are small fixed inputs whose values are derived by hand in a comment
beside each, one behaviour of the contract per rung; the notebook's visible test cells climb them.
The hidden rungs hold the points: a hidden data rung, then tests on inputs drawn per submission
from ``submission_seed`` (shapes, dtypes, learning rates, training problems), whose expected values
are computed here, on the trusted side. Their messages say the input, the value the contract gives
and the code's.

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
from autograder.specification import Rung, Task, declare
from autograder.suite import load_probes

P = load_probes(__file__)

# --- Task 2.1: detach -------------------------------------------------------------------------
# Needle's own detach, and make_const, a leaf made around an array (its one line, with the array
# t holds): a task answered with them scores nothing. backward() makes its default out_grad
# without make_const, so the probes (no init, no ReLU or tuple ops) never need it.
Y = "x = ndl.Tensor([1.0, 2.0]); y = x * 3.0 + 1.0"  # y = 3x + 1 = [4, 7], a non-leaf with a graph
TASK_2_1 = Task(
    "2.1", names=["detach"],
    own_work=["needle.autograd.Tensor.detach", "needle.autograd.TensorTuple.detach", "needle.autograd.Tensor.data",
              "needle.autograd.Value.make_const"],
    contract="detach(t) is a new Tensor (never t itself) whose array is t's very array object (so the same values, "
             "shape and dtype), computed even in lazy mode; a constant with no graph: op None, inputs the empty "
             "tuple, requires_grad False, no grad of its own; t keeps its op, inputs, requires_grad and array",
    rungs=[
        Rung("a Tensor of t's values", given=Y, call="detach(y)", expect=[4.0, 7.0], returns="Tensor"),  # 3 * [1, 2] + 1
        Rung("a new object, not t", given=Y, call="detach(y) is y", expect=False),
        Rung("t's very array", given=Y + "; d = detach(y)", call="d.cached_data is y.cached_data", expect=True),
        Rung("no op", given=Y, call="detach(y).op is None", expect=True),
        Rung("no inputs: the empty tuple", given=Y, call="detach(y).inputs == ()", expect=True),
        Rung("a constant", given=Y, call="detach(y).requires_grad", expect=False,
             cause="A detached tensor is a constant whatever t's requires_grad: an expression on it must record "
                   "no graph."),
        Rung("t keeps requires_grad", given=Y + "; d = detach(y)", call="y.requires_grad", expect=True),
        # x has a grad (2 everywhere, from sum(2x)); the detached tensor starts without one
        Rung("no gradient of its own", given="x = ndl.Tensor([1.0, 2.0]); (x * 2.0).sum().backward()",
             call="detach(x).grad is None", expect=True),
        Rung("lazy mode: t's computed array",
             given="with ndl.lazy_mode(): y = ndl.Tensor([1.0, 2.0]) * 3.0; d = detach(y)",
             call="isinstance(d.cached_data, np.ndarray) and d.cached_data is y.cached_data", expect=True),
    ])

# --- Task 2.2: sgd_update ---------------------------------------------------------------------
W = "w = ndl.Tensor([1.0, 2.0]); g = ndl.Tensor([0.5, -1.0], requires_grad=False)"
TASK_2_2 = Task(
    "2.2", names=["sgd_update"], own_work=["needle.optim"],
    contract="sgd_update(w, grad, lr) gives w the values w - lr * grad in place: w stays the same object, a leaf "
             "with requires_grad True and w's dtype, on a new array (a tensor sharing w's old array, taken before "
             "the step, keeps the old values); no graph grows, even when grad requires a gradient; grad is left as "
             "it was; returns None",
    rungs=[
        # [1 - 0.1 * 0.5, 2 - 0.1 * (-1)] = [0.95, 2.1]
        Rung("one step", given=W + "; sgd_update(w, g, 0.1)", call="w.numpy()", expect=[0.95, 2.1], returns="ndarray"),
        Rung("returns None", given=W, call="sgd_update(w, g, 0.1)", expect=None),
        Rung("grad left as it was", given=W + "; sgd_update(w, g, 0.1)", call="g.numpy()", expect=[0.5, -1.0],
             returns="ndarray"),
        Rung("w stays trainable", given=W + "; sgd_update(w, g, 0.1)", call="w.requires_grad", expect=True),
        # float64 w and grad: [1 - 0.5 * 0.5, 2 - 0.5 * (-1)] = [0.75, 2.5], still float64
        Rung("a float64 w stays float64",
             given="w = ndl.Tensor([1.0, 2.0], dtype='float64'); g = ndl.Tensor([0.5, -1.0], dtype='float64', "
                   "requires_grad=False); sgd_update(w, g, 0.5)",
             call="w.numpy().dtype == np.float64", expect=True),
        # before shares w's array [1, 2]; the step gives w a new array, so before keeps [1, 2]
        Rung("a snapshot taken before the step keeps its values",
             given=W + "; before = w.detach(); sgd_update(w, g, 0.1)", call="before.numpy()", expect=[1.0, 2.0],
             returns="ndarray", points=3, visible=False),
    ])

# --- Task 2.3: train_fixed --------------------------------------------------------------------
# A Linear(1, 1) with weight and bias 0 and the batch x = y = [[1]]: a loss and a step by hand.
# With prediction p = w + b, the batch's loss is (p - 1)^2 and dL/dw = dL/db = 2 (p - 1); lr = 0.1.
# Step 1 from w = b = 0: loss 1, then w = b = 0.2. Step 2 (p = 0.4): loss 0.36, then w = b = 0.32.
LINEAR = ("m = ndl.nn.Linear(1, 1); m.weight.data = m.weight.data * 0.0; m.bias.data = m.bias.data * 0.0; "
          "one = ndl.Tensor([[1.0]], requires_grad=False); ")
TASK_2_3 = Task(
    "2.3", names=["train_fixed"],
    contract="train_fixed(model, batches, epochs, lr) trains as train_leaky does (the same loss, backward, SGD step "
             "and per-epoch mean over the batches: the same losses and final weights) and returns a list with one "
             "Python float per epoch; nothing it keeps from one iteration to the next holds a graph, so the memory "
             "it holds does not grow with the number of batches",
    rungs=[
        Rung("one epoch of one batch", given=LINEAR + "h = train_fixed(m, [(one, one)], 1, 0.1)", call="h",
             expect=[1.0], returns="list", rtol=1e-4),  # step 1's loss
        Rung("Python floats", given=LINEAR + "h = train_fixed(m, [(one, one)], 1, 0.1)",
             call="all(isinstance(v, float) for v in h)", expect=True),
        Rung("the model trained", given=LINEAR + "h = train_fixed(m, [(one, one)], 1, 0.1)", call="m.weight.numpy()",
             expect=[[0.2]], returns="ndarray", rtol=1e-4),  # w after step 1
        Rung("two epochs: each epoch's own mean", given=LINEAR + "h = train_fixed(m, [(one, one)], 2, 0.1)",
             call="h", expect=[1.0, 0.36], returns="list", rtol=1e-4),  # steps 1 and 2, one per epoch
        Rung("two batches: the mean over the batches", given=LINEAR + "h = train_fixed(m, [(one, one)] * 2, 1, 0.1)",
             call="h", expect=[0.68], returns="list", rtol=1e-4),  # (1 + 0.36) / 2
        # n: the tensors alive at each call of the model; a loop that keeps nothing of a batch has as
        # many alive at every call from the second on (the first comes before any gradient exists)
        Rung("nothing kept from batch to batch",
             given=LINEAR + "n = []; f = m.forward; m.forward = lambda x: (n.append(ndl.autograd.live_tensor_count()), "
                            "f(x))[1]; h = train_fixed(m, [(one, one)] * 6, 1, 0.1)",
             call="float(max(n[1:]) - n[1])", expect=0.0, atol=3,
             cause="Each batch leaves tensors alive: something the loop keeps from one batch to the next holds that "
                   "batch's graph."),
    ])
declare(globals(), TASK_2_1, TASK_2_2, TASK_2_3)


def rng_of(seed: int, k: int):
    return np.random.default_rng([seed, k])


def shape_of(rng, max_dims: int = 3) -> tuple:
    return tuple(int(n) for n in rng.integers(1, 5, size=int(rng.integers(1, max_dims + 1))))


def first_difference(checks) -> str | None:
    """The first (what, should be, gave) that differ (bools and dtype names), in words; None when all agree."""
    for what, want, got in checks:
        if got != want:
            return f"`{what}` should be {want!r}; your code gave {got!r}"
    return None


# --- Task 2.1's hidden rungs: tensors drawn per submission ---------------------------------------
def described(kind: str, shape, dtype: str) -> str:
    leaf = f"x a {dtype} leaf of shape {tuple(shape)} requiring grad"
    return {"leaf": f"t = x, {leaf}, with x.grad set", "nonleaf": f"t = 3x + 1, {leaf}",
            "const": f"t a {dtype} constant of shape {tuple(shape)} (requires_grad False)"}[kind]


def detach_problem(f: dict, kind: str) -> str | None:
    """What differs between detach's result on t (the probe's facts) and the contract."""
    if f.get("unset"):
        return f"`d = detach(t)` has no field {f['unset'][0]} (reading `d.{f['unset'][0]}` raises)"
    facts = [("isinstance(d, ndl.Tensor)", True, f["is_tensor"]), ("d is t", False, f["same_object"])]
    if f["is_tensor"] and not f["same_object"]:
        facts += [("d.cached_data is t.cached_data", True, f["shares"]), ("d.op is None", True, f["op"] is None),
                  ("d.inputs == ()", True, f["inputs"] == 0), ("d.requires_grad", False, f["requires_grad"]),
                  ("d.grad is None", True, not f["has_grad"]),
                  ("t's op and inputs unchanged", True, bool(f["t_op_same"] and f["t_inputs_same"])),
                  ("t.cached_data unchanged", True, bool(f["t_array_same"]))]
        if kind != "const":
            facts.append(("t.requires_grad", True, f["t_requires_grad"]))
    return first_difference(facts)


def check_detach(observe, kind: str, shape, seed: int, dtype: str) -> None:
    f = observe(P.detach_facts, kind=kind, shape=shape, seed=seed, dtype=dtype)
    wrong = detach_problem(f, kind)
    assert wrong is None, f"on {described(kind, shape, dtype)}: {wrong}."
    if kind == "const":
        return
    # t.sum().backward() after detach: d(sum t)/dx = 1 for t = x, 3 for t = 3x + 1
    slope = 3.0 if kind == "nonleaf" else 1.0
    got = None if f["x_grad"] is None else np.round(f["x_grad"], 6).tolist()
    assert f["x_grad"] is not None and np.allclose(f["x_grad"], slope), (
        f"on {described(kind, shape, dtype)}, after d = detach(t): `t.sum().backward(); x.grad` should be {slope:g} "
        f"everywhere (t keeps its graph); your code gave {got}.")
    # sum(detach(t) * t): d/dx = c dt/dx with c = t's values held constant (the detached tensor)
    e = observe(P.detach_in_expressions, kind=kind, shape=shape, seed=seed, dtype=dtype)
    want = slope * P.make_tensor(kind, shape, seed, dtype)[0].numpy().astype(np.float64)
    ok = isinstance(e.get("x_grad"), np.ndarray) and np.allclose(e["x_grad"], want, rtol=1e-5, atol=1e-6)
    assert ok, (f"on {described(kind, shape, dtype)}: `(detach(t) * t).sum().backward(); x.grad` should be "
                f"{slope:g} * t's values (the detached factor is a constant); your code gave "
                f"{None if e.get('x_grad') is None else np.round(e['x_grad'], 6).tolist()}.")


@TASK_2_1.rung("drawn leaves and non-leaves, float32 and float64, eager and lazy", points=7)
def test_detach_drawn_tensors(observe, submission_seed):
    """detach on tensors drawn per submission: the whole contract, in both dtypes and in lazy mode"""
    rng = rng_of(submission_seed, 1)
    for i, (kind, dtype) in enumerate([(k, d) for d in ("float32", "float64") for k in ("leaf", "nonleaf")]):
        check_detach(observe, kind, shape_of(rng), int(rng.integers(0, 2**31)), dtype)
    shape, seed = shape_of(rng), int(rng.integers(0, 2**31))
    f = observe(P.detach_lazy, shape=shape, seed=seed)
    where = f"in lazy mode, on t = 3x + 1 with x a float32 leaf of shape {shape}"
    facts = [("isinstance(d, ndl.Tensor)", True, f["is_tensor"]), ("d is t", False, f["same_object"])]
    if f["is_tensor"] and not f["same_object"] and not f.get("unset"):
        facts += [("isinstance(d.cached_data, np.ndarray)", True, f["has_array"]),
                  ("d.cached_data is t.cached_data", True, f["shares"]), ("d.op is None", True, f["op"] is None)]
    wrong = first_difference(facts) if not f.get("unset") else f"`d` has no field {f['unset'][0]}"
    assert wrong is None, f"{where}: {wrong}."


@TASK_2_1.rung("drawn constants", points=2)
def test_detach_drawn_constants(observe, submission_seed):
    """detach of a tensor that is already a constant: still a new tensor on its very array"""
    rng = rng_of(submission_seed, 2)
    for dtype in ("float32", "float64"):
        check_detach(observe, "const", shape_of(rng), int(rng.integers(0, 2**31)), dtype)


# --- Task 2.2's hidden rung: updates drawn per submission ----------------------------------------
def update_case(seed: int, k: int) -> tuple:
    """(shape, seed of the arrays, lr) drawn for one update."""
    rng = rng_of(seed, k)
    return shape_of(rng), int(rng.integers(0, 2**31)), float(rng.choice([0.05, 0.25, 0.5, 1.5]))


def update_reference(shape, seed, lr, dtype="float32", grad_kind="const", steps=1) -> np.ndarray:
    """w - steps * lr * grad in float64, from the same inputs the probe builds."""
    w = P.array(shape, seed, dtype).astype(np.float64)
    g = P.grad_values(grad_kind, shape, seed + 1, dtype).astype(np.float64)
    return w - steps * lr * g


def update_problem(f: dict, shape, seed, lr, dtype="float32", grad_kind="const", steps=1, value_key="value"):
    """What differs, after sgd_update, between w and grad (the probe's facts) and the contract."""
    if f["value_error"]:
        return "the .data setter raised ValueError (the new value's shape or dtype differs from w's)"
    grad = P.grad_values(grad_kind, shape, seed + 1, dtype)
    value = f.get(value_key)
    want = update_reference(shape, seed, lr, dtype, grad_kind, steps)
    tol = dict(rtol=1e-5, atol=1e-6) if steps == 1 else dict(rtol=1e-3, atol=1e-3)  # float32 rounding adds up
    checks = [("sgd_update(...) is None", True, f["returned_none"]),
              ("grad's values unchanged", True, isinstance(f["grad_value"], np.ndarray) and np.array_equal(f["grad_value"], grad)
               and np.array_equal(f["grad_array_now"], grad)),
              ("w is the same object", True, f["same_object"]),
              ("w.op is None", True, f["op"] is None), ("w.inputs == ()", True, f["inputs"] == 0),
              ("w.requires_grad", True, f["requires_grad"]),
              ("w's dtype", dtype, None if value is None else str(value.dtype))]
    wrong = first_difference(checks)
    if wrong:
        return wrong
    if not np.allclose(value, want, **tol):
        return (f"w's values should be {np.round(want, 6).tolist()} (w - {steps * lr:g} * grad); your code gave "
                f"{np.round(value.astype(np.float64), 6).tolist()}")
    return None


@TASK_2_2.rung("drawn shapes, dtypes and learning rates; w held by a list, a dict and a Module; 1,000 steps",
               points=9)
def test_sgd_update_drawn(observe, submission_seed):
    """sgd_update on updates drawn per submission: values, dtype, None, grad, leaf, references, many steps"""
    for k, (dtype, grad_kind) in enumerate([("float32", "const"), ("float64", "const"), ("float32", "nonleaf")]):
        shape, seed, lr = update_case(submission_seed, 10 + k)
        f = observe(P.update_once, shape=shape, seed=seed, lr=lr, dtype=dtype, grad_kind=grad_kind)
        grad = "a constant" if grad_kind == "const" else "one with a graph (it requires grad)"
        wrong = update_problem(f, shape, seed, lr, dtype, grad_kind)
        assert wrong is None, f"on a {dtype} w of shape {shape}, grad {grad}, lr = {lr:g}: {wrong}."
    shape, seed, lr = update_case(submission_seed, 20)
    f = observe(P.update_references, shape=shape, seed=seed, lr=lr)
    for where in ("list", "dict", "model"):
        wrong = update_problem(f, shape, seed, lr, value_key=f"{where}_value")
        assert wrong is None, f"on a Module's Parameter of shape {shape}, updated through its {where}, lr = {lr:g}: {wrong}."
    assert f["list_same_object"] and f["dict_same_object"] and f["model_same_object"], (
        f"on a Module's Parameter of shape {shape}: after sgd_update the list, the dict and the Module should still "
        "hold the very parameter object; one holds another")
    shape, seed, _ = update_case(submission_seed, 30)
    f = observe(P.update_many, steps=1000, shape=shape, seed=seed, lr=1e-3, grad_kind="nonleaf")
    wrong = update_problem(f, shape, seed, 1e-3, grad_kind="nonleaf", steps=1000)
    assert wrong is None, f"after 1,000 steps of lr = 0.001 on a float32 w of shape {shape}, grad with a graph: {wrong}."


# --- Task 2.3's hidden rungs: problems drawn per submission, and the memory measured from outside --
def reference_training(seed, n_batches, batch_size, features, epochs, lr, hidden=0) -> tuple[list, list]:
    """train_leaky's per-epoch mean losses (Python floats) and its final weights on the problem."""
    model, batches = P.make_problem(seed, n_batches, batch_size, features, hidden)
    opt = ndl.optim.SGD(model.parameters(), lr=lr)
    history = []
    for _ in range(epochs):
        total = 0.0
        for x, y in batches:
            loss = ((model(x) - y) ** 2).sum() / x.shape[0]
            loss.backward()
            opt.step()
            opt.reset_grad()
            total += float(loss.numpy())
        history.append(total / len(batches))
    return history, [p.numpy().astype(np.float64) for p in model.parameters()]


def losses_problem(f: dict, problem: dict, what: str) -> str | None:
    """What differs between train_fixed's run (the probe's facts) and train_leaky's on ``problem``."""
    want, weights = reference_training(**problem)
    if f["backward_without_graph"]:
        return f"on {what}, train_fixed called backward() on a loss without a graph"
    got = f["values"] if f["is_list"] else None
    if got is None or len(got) != len(want) or any(v is None for v in got) or not np.allclose(got, want, rtol=1e-4, atol=1e-6):
        return (f"on {what}, train_fixed's history should be {[round(v, 6) for v in want]} (train_leaky's); your code "
                f"gave {got if got is None else [None if v is None else round(v, 6) for v in got]}")
    if set(f["kinds"]) != {"float"}:
        return f"on {what}, train_fixed's history should hold Python floats; it holds {sorted(set(f['kinds']))}"
    for got_w, want_w in zip(f["weights"], weights):
        if not np.allclose(got_w, want_w, rtol=1e-4, atol=1e-6):
            return f"on {what}, the model's weights after train_fixed differ from train_leaky's"
    return None


@TASK_2_3.rung("drawn problems: train_leaky's losses and weights", points=3)
def test_fixed_drawn_problems(observe, submission_seed):
    """train_fixed on a problem drawn per submission trains exactly as train_leaky does"""
    rng = rng_of(submission_seed, 100)
    problem = dict(seed=int(rng.integers(0, 2**31)), n_batches=int(rng.integers(4, 9)), batch_size=8,
                   features=int(rng.integers(2, 6)), epochs=3, lr=float(rng.choice([0.05, 0.1])))
    what = (f"a Linear({problem['features']}, 1) trained 3 epochs on {problem['n_batches']} batches of 8 "
            f"(lr = {problem['lr']:g})")
    wrong = losses_problem(observe(P.train, **problem), problem, what)
    assert wrong is None, wrong + "."


# A model whose every batch makes 256 x 2048 float32 activations (2 MiB each, about 4 of them
# kept per batch by a leak): run on 2 batches, then on 2 epochs of 8 batches.
BIG = dict(n_batches=2, batch_size=256, features=4, epochs=1, lr=0.01, hidden=2048)
BIGGER = BIG | dict(n_batches=8, epochs=2)
RUNS = "Linear(4, 2048), ReLU, Linear(2048, 1) trained on 2 batches of 256, then on 2 epochs of 8 batches"
LEAK_BYTES = 12 * 2**20  # a leak holds 6 batches (24 MiB) more, or 14 (56 MiB); a fixed loop about 0
# the larger run's peak above the worker's memory before any student code: a fixed loop about 19
# MiB (the model, a batch's activations, what earlier calls left to the allocator), a loop keeping
# an epoch's graphs about 60, every epoch's about 108 (measured as root, 2026-12-07)
HELD_BYTES = 40 * 2**20


def mib(n: float) -> str:
    return f"{n / 2**20:.0f} MiB"


@TASK_2_3.rung("a bigger model on more batches: memory that stays flat", points=3)
def test_fixed_memory_stays_flat(observe, submission_seed):
    """the memory train_fixed holds stays flat over more batches and epochs (measured outside your code)"""
    seed = int(rng_of(submission_seed, 101).integers(0, 2**31))
    grown = []
    for size in (BIG, BIGGER):
        f, used = observe.memory(P.train, seed=seed, **size)
        wrong = losses_problem(f, dict(seed=seed, **size), RUNS)
        assert wrong is None, wrong + "."
        grown.append(used)
    assert grown[1] - grown[0] < LEAK_BYTES and grown[1] < HELD_BYTES, (
        f"on {RUNS}, the memory your notebook's process held grew by {mib(grown[0])} during the first run and "
        f"{mib(grown[1])} during the second (measured from outside your code); a loop that keeps no graph holds "
        f"about 20 MiB in both, and at most {mib(LEAK_BYTES)} more in the second. Something the loop keeps from one "
        "batch to the next (an accumulator, a list, the history) holds each batch's graph.")
