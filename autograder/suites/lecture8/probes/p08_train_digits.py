"""Probes for 08_train_digits: the student's DigitsDataset on given arrays, and the student's
train_epoch / accuracy driving models, losses and optimizers built here from needle's own
classes, on data given by the trusted side.

Everything a probe returns is plain data; the trusted suite holds the expected values. The
builders below are also imported by the suite, to compute references with needle's classes."""
import numpy as np

import needle as ndl
from autograder.probing import as_number, need, probe, values_digest


# --- builders (also used by the trusted side) -----------------------------------------------
def make_mlp(seed: int, sizes: list):
    """Linear, ReLU, ..., Linear from needle.nn with the given layer sizes; the weights come from
    np.random.seed(seed) (needle's initializers draw from numpy's global generator)."""
    state = np.random.get_state()
    np.random.seed(seed)
    layers = []
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
        if i:
            layers.append(ndl.nn.ReLU())
        layers.append(ndl.nn.Linear(int(a), int(b)))
    np.random.set_state(state)
    return ndl.nn.Sequential(*layers)


def make_loader(X, y, batch_size: int, shuffle: bool):
    """needle's DataLoader over an NDArrayDataset: float32 features, int64 labels."""
    dataset = ndl.data.NDArrayDataset(np.asarray(X, dtype=np.float32), np.asarray(y, dtype=np.int64))
    return ndl.data.DataLoader(dataset, batch_size=int(batch_size), shuffle=bool(shuffle))


class FixedLinear(ndl.nn.Module):
    """logits = x W + b with the given W (in, out) and b (out,)."""

    def __init__(self, W, b):
        super().__init__()
        self.weight = ndl.nn.Parameter(np.asarray(W, dtype=np.float32))
        self.bias = ndl.nn.Parameter(np.asarray(b, dtype=np.float32).reshape(1, -1))

    def forward(self, x):
        return x @ self.weight + ndl.ops.broadcast_to(self.bias, (x.shape[0], self.bias.shape[1]))


class CountingSGD:
    """The course's optimizer interface and nothing more (params, reset_grad() or zero_grad(), step()), over
    needle's SGD: a train_epoch that works with it works with the student's own SGD of notebook
    05. It also records, at every step(), how many parameters had no gradient and the norm of the
    gradients it was given: a record in the worker, which may shape a hint and never a grade."""

    def __init__(self, params, lr, momentum=0.0):
        self._sgd = ndl.optim.SGD(params, lr=lr, momentum=momentum)
        self.params = self._sgd.params
        self.steps = 0
        self.missing = 0
        self.grad_norms = []

    def reset_grad(self):
        self._sgd.reset_grad()

    zero_grad = reset_grad  # PyTorch's name, as the course's optimizers have it

    def step(self):
        self.steps += 1
        total = 0.0
        for p in self.params:
            if p.grad is None:
                self.missing += 1
            else:
                total += float(np.sum(np.asarray(p.grad.numpy(), dtype=np.float64) ** 2))
        self.grad_norms.append(total ** 0.5)
        self._sgd.step()


def predictions(model, X) -> np.ndarray:
    """The class each sample's largest logit points at."""
    logits = model(ndl.Tensor(np.asarray(X, dtype=np.float32), requires_grad=False))
    return np.asarray(logits.numpy()).argmax(axis=1).astype(np.int64)


def _is_float(v) -> bool:
    """A Python float (numpy's float64 is one); not an array, a Tensor or a float32 scalar."""
    return isinstance(v, float)


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


# --- Task 8.1: DigitsDataset ----------------------------------------------------------------
class RecordingFlip:
    """A transform: mirrors an (H, W, C) image left-right and records the shape of every input
    (anything that is not 3-D is returned unchanged)."""

    def __init__(self):
        self.shapes = []

    def __call__(self, img):
        shape = [int(n) for n in np.shape(img)]
        self.shapes.append(shape)
        return np.flip(np.asarray(img), axis=1) if len(shape) == 3 else img


def _item(item) -> dict:
    """What dataset[i] returned, as plain data."""
    report = {"tuple": isinstance(item, tuple) and len(item) == 2, "is_array": False, "dtype": "", "shape": [],
              "values": None, "label_is_int": False, "label": float("nan")}
    if not report["tuple"]:
        return report
    features, label = item
    if issubclass(type(features), np.ndarray):
        # shape, dtype and values all read from the array's memory, through ndarray's own view:
        # a subclass can override .shape or .dtype to claim what its data is not
        features = np.ndarray.view(features, np.ndarray)
        report["is_array"] = True
        report["dtype"] = str(features.dtype)
        report["shape"] = [int(n) for n in features.shape]
        if features.dtype.kind in "biuf":
            report["values"] = np.asarray(features, dtype=np.float64)
    if isinstance(label, np.ndarray) and label.ndim == 0:
        label = label[()]
    report["label_is_int"] = _is_int(label)
    report["label"] = as_number(label)
    return report


def _pixels(X) -> np.ndarray:
    """The values of the X given to the dataset (this probe's own array), read from its memory."""
    return np.array(np.ndarray.view(X, np.ndarray), dtype=np.float64)


@probe("DigitsDataset")
def dataset_items(ns, X, y, indices, transforms=None, batch_size=8, again=False):
    """DigitsDataset(X, y[, transforms]): its length, the items at ``indices``, the transform's
    calls (while the dataset was built, then while the items were read: the shapes it saw), and
    the first batch of a DataLoader over it. With ``again``, the items at ``indices`` read a
    second time, and the X given to the dataset as it is after the reads (the trusted side
    compares both with what it knows: reading must change neither)."""
    DigitsDataset = need(ns, "DigitsDataset")
    flip = RecordingFlip()
    if transforms is None:
        dataset = DigitsDataset(X, y)
    else:
        dataset = DigitsDataset(X, y, transforms={"flip": [flip], "empty": []}[transforms])
    at_init = len(flip.shapes)
    n = len(dataset)
    items = [_item(dataset[int(i)]) for i in indices]
    seen = flip.shapes[at_init:]
    reread = {}
    if again:
        # The first read's values are not kept while the items are read again (a second read could
        # copy them from this frame): only their digests, strings nothing can edit in place.
        digests = tuple(values_digest(item["values"]) for item in items)
        items = [{k: v for k, v in item.items() if k != "values"} for item in items]
        reread = {"again": [_item(dataset[int(i)]) for i in indices], "X_after": _pixels(X), "digests": list(digests)}
    batch = {"ok": False, "x_shape": [], "x_dtype": "", "y_kind": "", "y": None}
    try:
        xb, yb = next(iter(ndl.data.DataLoader(dataset, batch_size=int(batch_size))))
        xs = np.ndarray.view(xb.numpy(), np.ndarray)  # as the features: the array's own shape and dtype
        batch = {"ok": True, "x_shape": [int(v) for v in xs.shape], "x_dtype": str(xs.dtype),
                 "y_kind": np.asarray(yb.numpy()).dtype.kind, "y": np.asarray(yb.numpy(), dtype=np.float64)}
    except Exception:
        pass
    return {"len": n if _is_int(n) else -1, "items": items, "transform_calls_at_init": at_init,
            "transform_shapes": seen, "batch": batch} | reread


# --- Task 8.2: train_epoch ------------------------------------------------------------------
@probe("train_epoch")
def run_epochs(ns, X, y, sizes, seed, batch_size, shuffle, lr, epochs, momentum=0.0, X_eval=None, stale=False):
    """train_epoch(model, SoftmaxLoss(), SGD, loader) for ``epochs`` epochs from a fixed model
    and fixed shuffles (``stale``: with a gradient of 5s already in every p.grad, as after a
    gradient check): what it returned and the model's parameters afterwards (what the trusted side
    grades), and what the optimizer saw (steps, missing gradients, gradient norms: for hints)."""
    train_epoch = need(ns, "train_epoch")
    model = make_mlp(seed, sizes)
    for p in model.parameters() if stale else []:
        p.grad = ndl.Tensor(np.full(p.shape, 5.0, dtype=np.float32), requires_grad=False)
    loader = make_loader(X, y, batch_size, shuffle)
    opt = CountingSGD(model.parameters(), lr=lr, momentum=momentum)
    loss_fn = ndl.nn.SoftmaxLoss()
    np.random.seed(seed + 1)  # the loader's shuffles
    returned = [train_epoch(model, loss_fn, opt, loader) for _ in range(epochs)]
    out = {
        "values": np.array([as_number(v) for v in returned], dtype=np.float64),
        "floats": [_is_float(v) for v in returned],
        "steps": opt.steps,
        "batches": len(loader) * epochs,
        "missing": opt.missing,
        "grad_norms": np.array(opt.grad_norms, dtype=np.float64),
        "params": [np.asarray(p.numpy(), dtype=np.float64) for p in model.parameters()],
    }
    if X_eval is not None:
        out["eval_pred"] = predictions(model, X_eval)
    return out


# --- Task 8.3: accuracy ---------------------------------------------------------------------
@probe("accuracy")
def run_accuracy(ns, W, b, X, y, batch_size, shuffle=False, seed=0):
    """accuracy(model, loader) for a linear model with the given weights."""
    accuracy = need(ns, "accuracy")
    model = FixedLinear(W, b)
    loader = make_loader(X, y, batch_size, shuffle)
    np.random.seed(seed)
    value = accuracy(model, loader)
    return {"value": as_number(value), "is_float": _is_float(value)}
