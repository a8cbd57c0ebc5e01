"""Hidden tests for 08_train_digits (Tasks 8.1 DigitsDataset, 8.2 train_epoch, 8.3 accuracy).

Graded lightly but for real: the student's code runs on small data made here. The data is
digits-like (8 x 8 images of integer pixels 0..16 around ten class prototypes, plus noise),
generated with numpy, so grading needs neither scikit-learn nor any file. Models, losses and
optimizers are needle's own (built in the probes), so these tasks do not depend on the
student's notebooks 04, 05 and 07.
"""
import numpy as np

import needle as ndl
from autograder.suite import assert_close, expect_array, graded, load_probes

P = load_probes(__file__)

# Needle's own implementation of each task: a task answered with it scores nothing.
# Subclassing ndl.data.Dataset (the API) and using DataLoader stay allowed; train_epoch and
# accuracy have no counterpart in needle.
OWN_WORK = {
    "8.1": ("DigitsDataset", ["needle.data.dataset.NDArrayDataset"]),
}

PROTOTYPE_SEED = 8


def digits_like(n: int, seed: int, noise: float = 3.0):
    """(X, y): n images of 64 integer pixels in 0..16 (float64, like load_digits' data), each
    a class prototype plus Gaussian noise, and their int64 labels 0..9."""
    prototypes = np.random.default_rng(PROTOTYPE_SEED).integers(0, 17, size=(10, 64))
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 10, size=n).astype(np.int64)
    X = np.clip(np.rint(prototypes[y] + rng.normal(0.0, noise, size=(n, 64))), 0, 16)
    return X, y


# --- Task 8.1: DigitsDataset ----------------------------------------------------------------
FEATURES = ("the features must be the pixel values divided by 16 (load_digits' pixels go from 0 to 16), "
            "so that they lie in [0, 1]")
LABELS = ("each label must stay an integer class index equal to y[i] (an int or np.int64; not a float, not one-hot): "
          "labels index the classes (np.eye(10)[y] needs integers, and so does PyTorch's cross-entropy)")
TRANSFORMS = ("apply the dataset's transforms to each image as an (8, 8, 1) array, self.apply_transforms(image), "
              "then flatten the result to (64,)")


@graded("8.1", points=2)
def test_dataset_features(observe):
    """dataset[i] = (features, label) with 64 float32 features, the pixels scaled to [0, 1]"""
    X, y = digits_like(40, seed=81)
    indices = [0, 7, 39]
    for X_in in (X, X.astype(np.int64)):  # load_digits gives float64 pixels; integer pixels must work too
        r = observe(P.dataset_items, X=X_in, y=y, indices=indices)
        assert r["len"] == 40, "len(dataset) must be the number of samples (the rows of X)"
        for item, i in zip(r["items"], indices):
            assert item["tuple"], "dataset[i] must return a tuple of two: (features, label)"
            assert item["is_array"], "the features must be a numpy array (the DataLoader stacks them into a batch)"
            assert item["shape"] == [64], "the features must be a flat array of 64 values: reshape the (8, 8, 1) image to (64,)"
            assert_close(item["values"], X[i] / 16.0, FEATURES, rtol=1e-6, atol=1e-7)
            assert item["dtype"] == "float32", "the features must be float32, needle's default dtype (np.float32)"
        b = r["batch"]
        assert b["ok"] and b["x_shape"] == [8, 64] and b["x_dtype"] == "float32", (
            "a DataLoader over your dataset must give float32 batches of shape (batch_size, 64)")


@graded("8.1", points=1)
def test_dataset_labels(observe):
    """labels stay integer class indices, in every item and in the DataLoader's batches"""
    X, y = digits_like(30, seed=82)
    indices = [0, 5, 29]
    r = observe(P.dataset_items, X=X, y=y, indices=indices)
    for item, i in zip(r["items"], indices):
        assert item["tuple"] and item["label_is_int"] and item["label"] == y[i], LABELS
    b = r["batch"]
    assert b["ok"] and b["y_kind"] in ("i", "u"), LABELS
    assert np.array_equal(expect_array(b["y"], LABELS), y[:8]), LABELS


@graded("8.1", points=1)
def test_dataset_transforms(observe):
    """the transforms are applied to each (8, 8, 1) image when it is read, then flattened"""
    # Judged against the same dataset without transforms, so that a scaling mistake is not
    # counted twice: a left-right mirror of the image must mirror the features.
    X, y = digits_like(20, seed=83)
    indices = [3, 11]
    plain = observe(P.dataset_items, X=X, y=y, indices=indices)
    r = observe(P.dataset_items, X=X, y=y, indices=indices, transforms="flip")
    assert r["transform_calls_at_init"] == 0, (
        "apply the transforms in __getitem__, each time a sample is read, not once in __init__: "
        "a random transform must draw anew every epoch")
    assert len(r["transform_shapes"]) == len(indices), TRANSFORMS
    assert all(shape == [8, 8, 1] for shape in r["transform_shapes"]), TRANSFORMS
    for item, reference in zip(r["items"], plain["items"]):
        assert item["tuple"] and item["shape"] == [64] and reference["values"] is not None, TRANSFORMS
        mirrored = np.flip(np.asarray(reference["values"]).reshape(8, 8, 1), axis=1).reshape(64)
        assert_close(item["values"], mirrored, TRANSFORMS, rtol=1e-6, atol=1e-7)
    r = observe(P.dataset_items, X=X, y=y, indices=indices, transforms="empty")  # an empty list: no change
    for item, reference in zip(r["items"], plain["items"]):
        assert item["tuple"] and reference["values"] is not None, TRANSFORMS
        assert_close(item["values"], reference["values"], TRANSFORMS, rtol=1e-6, atol=1e-7)


# --- Task 8.2: train_epoch ------------------------------------------------------------------
STEP = ("train_epoch must update the model once per batch: for every batch of the loader call "
        "loss.backward(), then opt.step() (len(loader) steps per epoch)")
BACKWARD = ("opt.step() found parameters without a gradient: call loss.backward() after opt.reset_grad() "
            "and before opt.step()")
RESET = ("the gradient used at a step includes the gradients of earlier batches: backward() adds into p.grad, "
         "so call opt.reset_grad() before every batch's loss.backward()")
MEAN = ("train_epoch must return the mean loss per sample over the whole epoch: add each batch's loss times its "
        "number of samples, then divide by the number of samples (the last batch may be smaller)")
FLOAT = "train_epoch must return a Python float (build the total from loss.numpy().item())"
LEARN = ("with your train_epoch the model does not learn (the loss does not fall, held-out accuracy stays low): "
         "for every batch call opt.reset_grad(), compute the loss, loss.backward(), opt.step()")
LOOP = ("the mean losses per epoch differ from one SGD step per batch: for every batch call opt.reset_grad(), "
        "loss = loss_fn(model(X), y), loss.backward(), opt.step(), and record the loss computed before the step")


def check_updates(r) -> None:
    """One step per batch, each with every parameter's gradient."""
    assert r["steps"] == r["batches"], STEP
    assert r["missing"] == 0, BACKWARD


def full_data_loss(sizes, seed, X, y) -> float:
    """SoftmaxLoss of the untrained model on all samples at once: the mean loss per sample."""
    model = P.make_mlp(seed, sizes)
    logits = model(ndl.Tensor(X.astype(np.float32), requires_grad=False))
    loss = ndl.nn.SoftmaxLoss()(logits, ndl.Tensor(y, dtype="int64", requires_grad=False))
    return float(loss.numpy())


def reference_epochs(X, y, sizes, seed, batch_size, shuffle, lr, epochs, momentum=0.0) -> list:
    """The loop restated with needle's classes: mean loss per sample of every epoch."""
    model = P.make_mlp(seed, sizes)
    loader = P.make_loader(X, y, batch_size, shuffle)
    opt = ndl.optim.SGD(model.parameters(), lr=lr, momentum=momentum)
    loss_fn = ndl.nn.SoftmaxLoss()
    np.random.seed(seed + 1)
    out = []
    for _ in range(epochs):
        total, count = 0.0, 0
        for xb, yb in loader:
            opt.reset_grad()
            loss = loss_fn(model(xb), yb)
            total += loss.numpy().item() * xb.shape[0]
            count += xb.shape[0]
            loss.backward()
            opt.step()
        out.append(total / count)
    return out


@graded("8.2", points=2)
def test_fresh_gradient_every_batch(observe):
    """one SGD step per batch, each on that batch's gradient only"""
    # Four copies of one batch and lr = 0 (the model never changes): every batch has the same
    # gradient, so every step must see the same gradient norm. Without reset_grad the k-th step
    # sees k times the first gradient.
    Xb, yb = digits_like(8, seed=820)
    X, y = np.tile(Xb / 16.0, (4, 1)), np.tile(yb, 4)
    r = observe(P.run_epochs, X=X, y=y, sizes=[64, 16, 10], seed=3, batch_size=8, shuffle=False, lr=0.0, epochs=2)
    check_updates(r)
    norms = expect_array(r["grad_norms"], RESET)
    assert norms.shape == (8,) and np.all(norms > 0), RESET
    assert_close(norms / norms[0], np.ones(8), RESET, rtol=1e-4, atol=0)


@graded("8.2", points=2)
def test_epoch_mean_loss(observe):
    """train_epoch returns the epoch's mean loss per sample, as a Python float"""
    # lr = 0 keeps the model fixed, so the mean loss per sample of every epoch is the loss of
    # the whole data set at once; 100 samples in batches of 16 leave a last batch of 4.
    X, y = digits_like(100, seed=821)
    X = X / 16.0
    sizes, seed = [64, 16, 10], 4
    r = observe(P.run_epochs, X=X, y=y, sizes=sizes, seed=seed, batch_size=16, shuffle=True, lr=0.0, epochs=2)
    check_updates(r)
    assert all(r["floats"]), FLOAT
    want = full_data_loss(sizes, seed, X, y)
    assert_close(r["values"], [want, want], MEAN, rtol=1e-4, atol=1e-6)


@graded("8.2", points=2)
def test_epoch_trains(observe):
    """a few epochs of train_epoch train a model that classifies held-out data"""
    X, y = digits_like(300, seed=822)
    X_eval, y_eval = digits_like(200, seed=823)
    X, X_eval = X / 16.0, X_eval / 16.0
    setting = dict(sizes=[64, 32, 10], seed=5, batch_size=30, shuffle=True, lr=0.1, momentum=0.5, epochs=4)
    r = observe(P.run_epochs, X=X, y=y, X_eval=X_eval, **setting)
    check_updates(r)
    values = expect_array(r["values"], LEARN)
    held_out = float(np.mean(expect_array(r["eval_pred"], LEARN) == y_eval))
    assert values.shape == (4,) and values[-1] < values[0] and held_out >= 0.8, LEARN
    assert_close(values, reference_epochs(X, y, **setting), LOOP, rtol=1e-3, atol=1e-5)


# --- Task 8.3: accuracy ---------------------------------------------------------------------
ACCURACY = ("accuracy must be the fraction of samples whose largest logit (argmax over the classes, axis 1) equals "
            "the label, over the whole loader: count the correct samples of every batch, then divide by the number "
            "of samples (the last batch may be smaller)")
EXTREMES = ("a model that classifies every sample right must get accuracy 1.0, and one that gets every sample wrong "
            "0.0: compare the argmax over the classes (axis 1) of the logits with the labels")
ACC_FLOAT = "accuracy must return a Python float (e.g. correct / total with integer counts)"


def partly_right_classifier(seed: int):
    """W, b of a linear classifier that gets about half of the digits-like samples right: the
    class prototypes (centered) as weights, blurred by noise."""
    prototypes = np.random.default_rng(PROTOTYPE_SEED).integers(0, 17, size=(10, 64)) / 16.0
    rng = np.random.default_rng(seed)
    W = (prototypes - prototypes.mean(axis=0)).T + rng.normal(0.0, 0.6, size=(64, 10))
    return W, rng.normal(0.0, 0.1, size=10)


@graded("8.3", points=2)
def test_accuracy_value(observe):
    """accuracy is the fraction of correctly classified samples over the whole loader"""
    W, b = partly_right_classifier(830)
    X, y = digits_like(90, seed=831)
    X = X / 16.0
    want = float(np.mean(P.predictions(P.FixedLinear(W, b), X) == y))
    for batch_size, shuffle in ((16, False), (16, True), (90, False)):  # 90 = 5 x 16 + 10
        r = observe(P.run_accuracy, W=W, b=b, X=X, y=y, batch_size=batch_size, shuffle=shuffle, seed=832)
        assert r["is_float"], ACC_FLOAT
        assert_close(r["value"], want, ACCURACY, rtol=1e-6, atol=1e-9)


@graded("8.3", points=1)
def test_accuracy_extremes(observe):
    """a perfect model scores 1.0, an always-wrong one 0.0"""
    y = np.random.default_rng(833).integers(0, 10, size=25)
    X = np.eye(10)[y]  # one-hot features: logits = x W pick row y of W
    for W, want in ((np.eye(10), 1.0), (np.roll(np.eye(10), 1, axis=1), 0.0)):
        r = observe(P.run_accuracy, W=W, b=np.zeros(10), X=X, y=y, batch_size=8)
        assert r["is_float"], ACC_FLOAT
        assert_close(r["value"], want, EXTREMES, rtol=0, atol=1e-9)
