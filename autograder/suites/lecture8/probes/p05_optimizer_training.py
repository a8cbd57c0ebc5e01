"""Probes for 05_optimizer_training: SGD trajectories on given gradients with the student's
Optimizer / SGD, and the student's train loop on models built from needle's own classes.

Everything a probe returns is plain data; the trusted suite holds the expected values. The
builders below are also imported by the suite, to compute references with needle's classes."""
import numpy as np

import needle as ndl
from needle.models import MultiPathScaleAdd  # the lecture's model, needle's own (Task 5.2 does not depend on 4.2)
from autograder.probing import as_number, need, probe


def _grad(p):
    if not isinstance(p, ndl.Tensor) or p.grad is None:
        return None
    return np.asarray(p.grad.numpy(), dtype=np.float64)


# --- Optimizer / SGD (Task 5.1) -------------------------------------------------------------
_READS = [0]


class CountedGrad(ndl.Tensor):
    """A gradient Tensor that counts how often its values are read (every read of a Tensor's
    values, by an op, numpy(), .data or detach(), goes through realize_cached_data): tells a
    step() that computed something from the gradients from one that did nothing."""

    __slots__ = ()

    def realize_cached_data(self):
        _READS[0] += 1
        return super().realize_cached_data()


def _set_grads(params, grads, made: list) -> None:
    """grads[i]: an array (a new gradient Tensor), None (no gradient) or "keep" (leave p.grad). Each
    gradient made is kept in ``made`` until the probe returns, so no later one takes its id: a step
    that looks its buffers up by id(p.grad) finds none, at every step alike."""
    for p, g in zip(params, grads):
        if isinstance(g, str):
            continue
        p.grad = None if g is None else CountedGrad(np.asarray(g, dtype=np.float32), requires_grad=False)
        made.append(p.grad)


def _step(opt, params) -> dict:
    """opt.step(), and what it touched: gradient reads, list entries replaced."""
    _READS[0] = 0
    opt.step()
    entries = getattr(opt, "params", None)
    replaced = isinstance(entries, list) and any(e is not p for e, p in zip(entries, params))
    return {"reads": _READS[0], "replaced": replaced}


@probe("Optimizer", "SGD", "Parameter")
def reset_grad(ns, shapes, use_sgd=False):
    """Give parameters gradients, call reset_grad(); report grads and values afterwards."""
    Parameter = need(ns, "Parameter")
    params = [Parameter(np.full(shape, 1.5, dtype=np.float32)) for shape in shapes]
    before = []
    for i, p in enumerate(params):
        if i % 3 != 2:  # some parameters start without a gradient
            p.grad = ndl.Tensor(np.full(p.shape, 0.25, dtype=np.float32), requires_grad=False)
        before.append(p.grad)
    opt = need(ns, "SGD")(params, lr=0.1) if use_sgd else need(ns, "Optimizer")(params)
    opt.reset_grad()
    if not all(_holds_grad(p) for p in params):
        return {"deleted": True}
    return {
        "grad_none": [p.grad is None for p in params],
        "untouched": all(p.grad is g for p, g in zip(params, before)),
        "zeros": any((isinstance(p.grad, ndl.Tensor) and not np.any(p.grad.numpy()))
                     or (type(p.grad) in (int, float) and p.grad == 0) for p in params),
        "values": [np.asarray(p.numpy(), dtype=np.float64) for p in params],
    }


def _holds_grad(p) -> bool:
    """Has ``p`` its .grad slot (reset_grad's `del p.grad` empties it: reading it then raises)?"""
    if not isinstance(p, ndl.autograd.Value):
        return True
    try:
        ndl.autograd.Value.__dict__["grad"].__get__(p)
    except AttributeError:
        return False
    return True


def _fails_on_none(SGD, Parameter, lr, momentum) -> bool:
    """Does step() fail on a lone parameter whose grad is None?"""
    q = Parameter(np.ones(2, dtype=np.float32))
    try:
        (SGD([q], lr=lr) if momentum is None else SGD([q], lr=lr, momentum=momentum)).step()
    except Exception:
        return True
    return False


@probe("SGD", "Parameter")
def sgd_trajectory(ns, init, grads, lr, momentum=None, reset=False):
    """Parameters from ``init``; per step, set their grads from ``grads[step]`` and call step()
    (with ``reset``, opt.reset_grad() first, as a training loop calls it before backward()).

    Returns the parameters' values after every step (and each p.grad's values after it), what
    each step touched, and whether a step raised on a parameter without gradient."""
    SGD, Parameter = need(ns, "SGD"), need(ns, "Parameter")
    params = [Parameter(np.asarray(a, dtype=np.float32)) for a in init]
    opt = SGD(params, lr=lr) if momentum is None else SGD(params, lr=lr, momentum=momentum)
    values, grads_after, touched, made = [], [], [], []
    for step_grads in grads:
        if reset:
            opt.reset_grad()
        _set_grads(params, step_grads, made)
        try:
            touched.append(_step(opt, params))
        except Exception:
            if all(p.grad is not None for p in params) or not _fails_on_none(SGD, Parameter, lr, momentum):
                raise
            return {"raised_on_none": True}
        values.append([np.array(p.numpy(), dtype=np.float64) for p in params])
        grads_after.append([_grad(p) for p in params])
    return {"raised_on_none": False, "values": values, "grads_after": grads_after,
            "reads": sum(t["reads"] for t in touched), "replaced": any(t["replaced"] for t in touched)}


@probe("SGD", "Parameter")
def fresh_sgd(ns, momentum):
    """An SGD (lr 0.1) steps w = 1 with gradient 1; then a new SGD steps the same w with gradient 1:
    how far did each move it? (The same from buffers of its own; more the second time from the
    first one's.)"""
    SGD, Parameter = need(ns, "SGD"), need(ns, "Parameter")
    w = Parameter(np.ones(1, dtype=np.float32))
    made, moves = [], []
    for _ in range(2):
        opt = SGD([w], lr=0.1, momentum=momentum)
        before = np.array(w.numpy(), dtype=np.float64)
        _set_grads([w], [np.ones(1)], made)
        opt.step()
        moves.append(before - np.array(w.numpy(), dtype=np.float64))
    return {"first": moves[0], "second": moves[1]}


@probe("SGD", "Parameter")
def sgd_identity(ns, momentum, steps):
    """A model's attributes hold the parameters; after a few SGD steps, what do they look like?"""
    SGD, Parameter = need(ns, "SGD"), need(ns, "Parameter")
    rng = np.random.default_rng(7)
    w = Parameter(rng.standard_normal((2, 3)).astype(np.float32))
    b = Parameter(rng.standard_normal((2, 3)).astype(np.float32))
    holder = {"w": w, "b": b}  # like a model's attributes
    before = [w.numpy().copy(), b.numpy().copy()]
    opt = SGD([w, b], lr=0.1, momentum=momentum)
    reads, replaced, written = 0, False, False
    for _ in range(steps):
        given = [rng.standard_normal(p.shape).astype(np.float32) for p in (w, b)]
        for p, g in zip((w, b), given):
            p.grad = CountedGrad(g.copy(), requires_grad=False)
        touched = _step(opt, [w, b])
        reads, replaced = reads + touched["reads"], replaced or touched["replaced"]
        written = written or any(_grad(p) is not None and not np.array_equal(_grad(p), g) for p, g in zip((w, b), given))
    facts = {"changed": [], "leaf": [], "no_inputs": [], "requires_grad": [], "float32": [], "shape_kept": [],
             "array_data": [], "reads": reads, "replaced": replaced, "grad_written": written}
    for p, old in zip((holder["w"], holder["b"]), before):
        data = p.cached_data
        facts["array_data"].append(isinstance(data, np.ndarray))
        facts["changed"].append(isinstance(data, np.ndarray) and data.shape == old.shape and not np.array_equal(data, old))
        facts["leaf"].append(p.op is None)
        facts["no_inputs"].append(len(p.inputs) == 0)
        facts["requires_grad"].append(p.requires_grad is True)
        facts["float32"].append(isinstance(data, np.ndarray) and data.dtype == np.float32)
        facts["shape_kept"].append(isinstance(data, np.ndarray) and data.shape == old.shape)
    return facts


# --- train (Task 5.2) -----------------------------------------------------------------------
class MeanSquaredError(ndl.nn.Module):
    """mean over the batch of (h - y)^2: a one-element (0-d) loss."""

    def forward(self, h, y):
        z = h - y
        return (z * z).sum() / z.shape[0]


class TiltedL2Loss(ndl.nn.Module):
    """(h - y)^2 + 0.5 h, summed: a loss that is not symmetric in its two arguments (L2Loss is), so
    that a loop calling loss_fn(y, prediction) records other losses."""

    def forward(self, h, y):
        z = h - y
        return (z * z + h * 0.5).sum()


class SummedL2Loss(ndl.nn.Module):
    """L2Loss summed to a 0-d Tensor: the same value as the lecture's loss, of shape ()."""

    def forward(self, h, y):
        return ndl.nn.L2Loss()(h, y).sum()


def make_setting(setting: str, stale: bool = False, seed: int = 5):
    """(model, loss_fn, opt, x, y) for a named training setting, built from needle's classes.

    "lecture": the lecture's model at x = y = 2, L2Loss (shape (1,)), SGD lr = 0.01;
    "lecture_0d": the same with the loss summed to shape (); "lr_002": the same with lr = 0.02;
    "momentum": another point, SGD with momentum; "tilted": the lecture's model with a loss that is
    not symmetric in its arguments (TiltedL2Loss); "mlp_adam": a small MLP, a mean squared error
    (shape ()) and Adam; "linear": needle's Linear(1, 1), L2Loss of shape (1, 1), SGD.

    ``stale``: the parameters already hold gradients from an earlier backward() (as after a
    gradient check), which a correct loop must clear before its first step. ``seed``: the MLP's
    data (the trusted side draws it from the submission's seed)."""
    if setting in ("lecture", "lecture_0d", "lr_002", "momentum", "tilted"):
        model = MultiPathScaleAdd()
        loss_fn = {"lecture_0d": SummedL2Loss, "tilted": TiltedL2Loss}.get(setting, ndl.nn.L2Loss)()
        if setting == "momentum":
            x = ndl.Tensor([1.5], requires_grad=False)
            y = ndl.Tensor([-1.0], requires_grad=False)
            opt = ndl.optim.SGD(model.parameters(), lr=0.02, momentum=0.8)
        else:
            x = ndl.Tensor([2.0], requires_grad=False)
            y = ndl.Tensor([2.0], requires_grad=False)
            opt = ndl.optim.SGD(model.parameters(), lr=0.02 if setting == "lr_002" else 0.01)
    elif setting in ("mlp_adam", "linear"):
        rng_state = np.random.get_state()
        np.random.seed(4)  # needle's initializers draw from numpy's global generator
        if setting == "linear":
            model = ndl.nn.Linear(1, 1)
        else:
            model = ndl.nn.Sequential(ndl.nn.Linear(3, 5), ndl.nn.ReLU(), ndl.nn.Linear(5, 1))
        np.random.set_state(rng_state)
        if setting == "linear":
            x = ndl.Tensor([[2.0]], requires_grad=False)
            y = ndl.Tensor([[2.0]], requires_grad=False)
            loss_fn = ndl.nn.L2Loss()
            opt = ndl.optim.SGD(model.parameters(), lr=0.05)
        else:
            rng = np.random.default_rng(seed)
            x = ndl.Tensor(rng.standard_normal((8, 3)), requires_grad=False)
            y = ndl.Tensor(rng.standard_normal((8, 1)), requires_grad=False)
            loss_fn = MeanSquaredError()
            opt = ndl.optim.Adam(model.parameters(), lr=0.05)
    else:
        raise ValueError(f"unknown setting {setting!r}")
    if stale:
        loss = loss_fn(model(x), y)
        (loss.sum() if loss.shape else loss).backward()
    return model, loss_fn, opt, x, y


@probe("train")
def run_train(ns, setting, epochs, stale=False, seed=5):
    """train(model, loss_fn, opt, x, y, epochs) on a named setting: the recorded losses, and the
    model's parameters afterwards (what the loop did to them)."""
    model, loss_fn, opt, x, y = make_setting(setting, stale, seed)
    train = need(ns, "train")
    # For the hint only: did the model return an output that the loss function given to train never saw?
    calls, outputs = [], []
    loss_class, model_class = type(loss_fn), type(model)

    def run_model(self, *args, **kwargs):
        out = model_class.__call__(self, *args, **kwargs)
        outputs.append(1)
        return out

    loss_fn.__class__ = type(loss_class.__name__, (loss_class,), {
        "__call__": lambda self, *args, **kwargs: calls.append(1) or loss_class.__call__(self, *args, **kwargs)})
    model.__class__ = type(model_class.__name__, (model_class,), {"__call__": run_model})

    def own_loss() -> bool:
        return bool(outputs) and not calls

    try:
        losses = train(model, loss_fn, opt, x, y, epochs)
    except Exception as exc:
        text = str(exc)
        if isinstance(exc, TypeError) and "0-dimensional" in text:  # float() of an array of shape (1,): NumPy's own message
            return {"float_of_array": True}
        if isinstance(exc, IndexError) and ("scalar variable" in text or "0-dimensional" in text):
            return {"indexed_0d": True}  # loss.numpy()[0] on a 0-dimensional loss: NumPy's own message
        if own_loss():  # an error of a loss the student made up
            return {"own_loss": True}
        raise
    items = list(losses) if isinstance(losses, (list, tuple)) else []
    return {
        "own_loss": own_loss(),
        "is_list": isinstance(losses, list),
        "kinds": [_kind(v) for v in items],
        "losses": np.array([as_number(v) for v in items], dtype=np.float64),
        "params": [np.array(p.numpy(), dtype=np.float64) for p in model.parameters()],
    }


def _kind(v) -> str:
    """What a recorded loss is: "float" (a Python float), "Tensor" (with its graph), "detached
    Tensor" (no op), "array", "numpy scalar", "other"."""
    if type(v) is float:
        return "float"
    if isinstance(v, ndl.Tensor):
        return "Tensor" if v.op is not None else "detached Tensor"
    if isinstance(v, np.ndarray):
        return "array"
    if isinstance(v, np.generic):
        return "numpy scalar"
    return "other"
