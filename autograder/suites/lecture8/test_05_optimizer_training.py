"""Hidden tests for 05_optimizer_training (Tasks 5.1 and 5.2)."""
import numpy as np

import needle as ndl
from autograder.suite import assert_close, expect_array, graded, load_probes

P = load_probes(__file__)

# Needle's own implementation of each task: a task answered with it (calling it, an alias,
# a subclass of its class) scores nothing. needle's Tensor, ops and nn stay allowed.
OWN_WORK = {
    "5.1": ("Optimizer and SGD", ["needle.optim"]),
}


def f32(v):
    """What a float becomes in a float32 Tensor (the probes build float32 inputs)."""
    return np.asarray(v, dtype=np.float32).astype(np.float64)


# --- Task 5.1: Optimizer and SGD ------------------------------------------------------------


def pytorch_sgd(init, grads, lr, momentum=None):
    """torch.optim.SGD(params, lr, momentum) (dampening 0, no weight decay, no Nesterov), in float64.

    Per step, for every parameter p whose gradient g is not None:
        momentum == 0:  p <- p - lr * g
        otherwise:      buf <- g on p's first update, else momentum * buf + g;  p <- p - lr * buf
    A parameter without a gradient is skipped entirely (its buffer too).
    grads[t][i]: an array, None, or "keep" (the gradient of the previous step stays)."""
    momentum = momentum or 0.0
    params = [f32(a).copy() for a in init]
    current = [None] * len(params)
    bufs = [None] * len(params)
    values = []
    for step in grads:
        for i, g in enumerate(step):
            if not isinstance(g, str):
                current[i] = None if g is None else f32(g)
        for i, g in enumerate(current):
            if g is None:
                continue
            if momentum:
                bufs[i] = g.copy() if bufs[i] is None else momentum * bufs[i] + g
                g = bufs[i]
            params[i] = params[i] - lr * g
        values.append([p.copy() for p in params])
    return values


def random_problem(seed, shapes, steps):
    rng = np.random.default_rng(seed)
    init = [rng.standard_normal(s) for s in shapes]
    grads = [[rng.standard_normal(s) for s in shapes] for _ in range(steps)]
    return init, grads


def check_trajectory(observe, init, grads, lr, momentum, message):
    r = observe(P.sgd_trajectory, init=init, grads=grads, lr=lr, momentum=momentum)
    want = pytorch_sgd(init, grads, lr, momentum)
    for step, (got_step, want_step) in enumerate(zip(r["values"], want)):
        for got, exp in zip(got_step, want_step):
            assert_close(got, exp, message + f" (parameter values differ after step {step + 1})", rtol=1e-5, atol=1e-5)
    return r


@graded("5.1", points=2)
def test_reset_grad_sets_none(observe):
    """reset_grad sets every parameter's grad to None"""
    shapes = [(2,), (3,), (1,), (2, 2)]
    for use_sgd in (False, True):
        r = observe(P.reset_grad, shapes=shapes, use_sgd=use_sgd)
        assert all(r["grad_none"]), (
            "after reset_grad() some parameter still has a gradient: set p.grad = None for every parameter "
            "(None, not a zero Tensor: backward() then starts afresh)"
            + (" (SGD must inherit reset_grad from Optimizer)" if use_sgd else "")
        )
        for v, s in zip(r["values"], shapes):
            assert_close(v, np.full(s, 1.5), "reset_grad must not change the parameters' values")


@graded("5.1", points=2)
def test_sgd_plain_trajectory(observe):
    """SGD without momentum: p <- p - lr * grad over several steps"""
    # one parameter w = 1, gradient 2 at every step, lr = 0.1: w = 0.8, 0.6, 0.4 (by hand)
    r = observe(P.sgd_trajectory, init=[[1.0]], grads=[[[2.0]]] * 3, lr=0.1)
    assert_close(np.array([v[0][0] for v in r["values"]]), [0.8, 0.6, 0.4],
                 "SGD.step must do p <- p - lr * p.grad for every parameter", rtol=1e-5, atol=1e-6)
    init, grads = random_problem(401, [(1,), (3,), (2, 3)], steps=4)
    check_trajectory(observe, init, grads, 0.1, None, "SGD without momentum must update p <- p - lr * p.grad")
    init, grads = random_problem(402, [(4,), (2, 2)], steps=3)
    check_trajectory(observe, init, grads, 0.35, 0.0, "SGD with momentum=0.0 must update p <- p - lr * p.grad")


@graded("5.1", points=3)
def test_sgd_momentum_trajectory(observe):
    """SGD with momentum follows PyTorch's rule (the buffer starts at the first gradient)"""
    # w = 1, g = 1 every step, lr = 0.1, momentum 0.9 (by hand):
    #   step 1: buf = g = 1                 -> w = 1 - 0.1 * 1 = 0.9
    #   step 2: buf = 0.9 * 1 + 1 = 1.9     -> w = 0.9 - 0.19 = 0.71
    #   step 3: buf = 0.9 * 1.9 + 1 = 2.71  -> w = 0.71 - 0.271 = 0.439
    r = observe(P.sgd_trajectory, init=[[1.0]], grads=[[[1.0]]] * 3, lr=0.1, momentum=0.9)
    got = np.array([v[0][0] for v in r["values"]])
    assert_close(got[:1], [0.9], (
        "the first momentum step must move p by lr * g: PyTorch starts the buffer AT the first gradient "
        "(buf = g), not at zero with buf = momentum * buf + (1 - momentum) * g"
    ), rtol=1e-5, atol=1e-6)
    assert_close(got, [0.9, 0.71, 0.439], "SGD momentum must use buf <- momentum * buf + g and p <- p - lr * buf",
                 rtol=1e-5, atol=1e-6)
    init, grads = random_problem(403, [(1,), (3,), (2, 3)], steps=5)
    check_trajectory(observe, init, grads, 0.05, 0.9, "SGD with momentum must follow PyTorch's rule, one buffer per parameter")
    init, grads = random_problem(404, [(2,), (3, 1)], steps=4)
    check_trajectory(observe, init, grads, 0.2, 0.5, "SGD with momentum must follow PyTorch's rule, one buffer per parameter")


@graded("5.1", points=2)
def test_sgd_skips_none_grads(observe):
    """SGD skips parameters whose grad is None"""
    rng = np.random.default_rng(405)
    init = [rng.standard_normal(3), rng.standard_normal(2), rng.standard_normal(2)]
    g = lambda n: rng.standard_normal(n)  # noqa: E731
    # parameter 2 never has a gradient; 0 and 1 have gaps
    grads = [[g(3), None, None], [None, g(2), None], [g(3), g(2), None], [g(3), None, None]]
    for momentum in (None, 0.9):
        r = check_trajectory(observe, init, grads, 0.1, momentum, (
            "a parameter whose grad is None must be skipped (no update, its momentum buffer untouched); the "
            "others updated as usual"
        ))
        for step in r["values"]:
            assert np.array_equal(step[2], f32(init[2])), "a parameter that never had a gradient must keep its value exactly"


@graded("5.1", points=2)
def test_sgd_keeps_identity_no_graph(observe):
    """SGD updates the parameters in place: same objects, leaves, no graph"""
    for momentum in (0.0, 0.9):
        f = observe(P.sgd_identity, momentum=momentum, steps=3)
        assert all(f["array_data"]), "after step() a parameter's data is not a numpy array: assign a Tensor or array to p.data"
        assert all(f["changed"]), (
            "the model's own parameter objects were not updated: `p = p - lr * g` (or replacing list items) only "
            "rebinds names; write the new value into the same object with p.data = ..."
        )
        assert all(f["leaf"]) and all(f["no_inputs"]), (
            "after step() a parameter has an op / inputs: the update grew a graph; update through p.data"
        )
        assert all(f["requires_grad"]), "after step() a parameter no longer requires grad: keep it a trainable leaf"
        assert all(f["float32"]) and all(f["shape_kept"]), "step() changed a parameter's dtype or shape: keep float32 and its shape"


@graded("5.1", points=1)
def test_sgd_same_gradient_kept(observe):
    """SGD with momentum leaves p.grad unchanged, even when it is reused"""
    # the same gradient Tensor stays in p.grad for three steps (no reset_grad in between)
    rng = np.random.default_rng(406)
    init, g = [rng.standard_normal(4)], rng.standard_normal(4)
    grads = [[g], ["keep"], ["keep"]]
    r = check_trajectory(observe, init, grads, 0.1, 0.9, (
        "with the same gradient kept in p.grad the momentum steps go wrong: do not update the momentum buffer "
        "in place while it shares memory with p.grad"
    ))
    for step in r["grads_after"]:
        assert step[0] is not None, "step() must not remove or replace p.grad"
        assert_close(step[0], f32(g), "step() changed p.grad: only read the gradient")


# --- Task 5.2: train ------------------------------------------------------------------------


def reference_losses(setting, epochs, stale=False):
    """The recorded losses of the loop restated with needle's own classes."""
    model, loss_fn, opt, x, y = P.make_setting(setting, stale)
    out = []
    for _ in range(epochs):
        opt.reset_grad()
        loss = loss_fn(model(x), y)
        out.append(loss.numpy().item())
        loss.backward()
        opt.step()
    return out


def lecture_losses(epochs):
    # x = y = 2, lr = 0.01, every s = 1, b = 0: h = 4, e = h - y = 2, loss_0 = e^2 = 4.
    # One step: each s_i moves by -lr * 2 e x and each b_i by -lr * 2 e, so
    #   h changes by 2 (x ds + db) = -4 lr e (x^2 + 1) = -0.2 e,  e_{k+1} = 0.8 e_k,
    # and loss_k = 4 * 0.64^k: 4.0, 2.56, 1.6384, ... (the lecture's printout).
    return 4.0 * 0.64 ** np.arange(epochs)


@graded("5.2", points=2)
def test_train_lecture_losses(observe):
    """train reproduces the lecture's losses 4.0, 2.56, 1.6384, ..."""
    r = observe(P.run_train, setting="lecture", epochs=10)
    losses = expect_array(r["losses"], "train must return the list of losses")
    assert losses.shape == (10,), "train must record one loss per epoch"
    assert_close(losses[:1], [4.0], (
        "the first recorded loss is not the loss of the initial parameters: record the loss computed BEFORE "
        "opt.step() (the loss of the model as it was when you evaluated it)"
    ), rtol=1e-5)
    assert_close(losses, lecture_losses(10), (
        "the recorded losses do not follow the lecture's run: in every epoch clear the gradients, compute the loss, "
        "record it, loss.backward(), opt.step()"
    ), rtol=1e-5, atol=0)


@graded("5.2", points=1)
def test_train_returns_floats(observe):
    """train returns a list of Python floats, one per epoch"""
    r = observe(P.run_train, setting="lecture", epochs=3)
    assert r["is_list"], "train must return a list"
    assert len(r["floats"]) == 3, "train must return one loss per epoch"
    assert all(r["floats"]), (
        "train must record Python floats (e.g. loss.numpy().item()), not arrays, numpy scalars or Tensors: "
        "a Tensor kept in the list also keeps its whole graph alive"
    )
    r = observe(P.run_train, setting="lecture", epochs=0)
    assert r["is_list"] and r["floats"] == [], "train with epochs=0 must return an empty list"


@graded("5.2", points=2)
def test_train_other_models(observe):
    """train works unchanged with another model, loss and optimizer"""
    for setting, epochs in (("momentum", 12), ("mlp_adam", 15)):
        r = observe(P.run_train, setting=setting, epochs=epochs)
        losses = expect_array(r["losses"], "train must return the list of losses")
        assert losses.shape == (epochs,), "train must record one loss per epoch"
        assert_close(losses, reference_losses(setting, epochs), (
            "with another model / loss / optimizer the recorded losses are wrong: use only the arguments "
            "(model(x), loss_fn(..., y), opt.reset_grad(), opt.step()) and record each loss before the step"
        ), rtol=1e-5, atol=1e-7)


@graded("5.2", points=1)
def test_train_clears_stale_gradients(observe):
    """train resets gradients left over from an earlier backward()"""
    # the parameters already hold gradients (as after a gradient check): they must be cleared first
    r = observe(P.run_train, setting="lecture", epochs=5, stale=True)
    losses = expect_array(r["losses"], "train must return the list of losses")
    assert losses.shape == (5,), "train must record one loss per epoch"
    assert_close(losses, lecture_losses(5), (
        "gradients left in p.grad before training changed the run: call opt.reset_grad() at the start of every "
        "epoch, before loss.backward() (backward accumulates into p.grad)"
    ), rtol=1e-5, atol=0)
