"""Hidden tests for 08_train_digits (Tasks 8.1 DigitsDataset, 8.2 train_epoch, 8.3 accuracy).

Graded lightly but for real: the student's code runs on small data made here. The data is
digits-like (8 x 8 images of integer pixels 0..16 around ten class prototypes, plus noise),
generated with numpy, so grading needs neither scikit-learn nor any file. Models, losses and
optimizers are needle's own (built in the probes), so these tasks do not depend on the
student's notebooks 04, 05 and 07.
"""
import numpy as np

import needle as ndl
from autograder.specification import Rung, Task, declare
from autograder.suite import assert_close, expect_array, load_probes

P = load_probes(__file__)

# Needle's own implementation of Task 8.1: a task answered with it scores nothing. Subclassing
# ndl.data.Dataset (the API) and using DataLoader stay allowed; train_epoch and accuracy have no
# counterpart in needle.
NEEDLES_DATASET = ["needle.data.dataset.NDArrayDataset"]

# Three rows of pixels 0..16: row 0 one pixel of 16 (the first), row 1 all 8, row 2 one pixel of 4 (the last).
ROWS = ("X = np.zeros((3, 64)); X[0, 0] = 16.0; X[1, :] = 8.0; X[2, 63] = 4.0; y = np.array([3, 7, 1]); "
        "ds = DigitsDataset(X, y)")
# One image, its first pixel 16, read through a transform that records the shape it is given and
# mirrors the image left-right: pixel (0, 0) goes to (0, 7), position 7 once flattened.
MIRRORED = ("shapes = []; mirror = lambda image: (shapes.append(image.shape), image[:, ::-1, :])[1]; "
            "X = np.zeros((1, 64)); X[0, 0] = 16.0; ds = DigitsDataset(X, np.array([3]), transforms=[mirror])")
TASK_8_1 = Task(
    "8.1", names=["DigitsDataset"], own_work=NEEDLES_DATASET,
    contract="DigitsDataset(X, y, transforms=None), a subclass of ndl.data.Dataset: len is the number of rows; "
             "dataset[i] is (features, label): the features, a float32 numpy array of shape (64,), are row i of X "
             "scaled to [0, 1] by one factor (the pixels' range, whatever the data's brightest pixel), after the "
             "transforms have seen the sample as an (H, W, C) image, at every read (not once in __init__); the label "
             "y[i], an integer; the caller's X and the stored data are left as they were",
    rungs=[
        # one row of 16s, the brightest pixel: 16 / 16 = 1 in each of the 64 features
        Rung("one row's features", given="X = np.full((1, 64), 16.0); ds = DigitsDataset(X, np.array([7]))",
             call="ds[0][0]", expect=[1.0] * 64, returns="ndarray", points=0),
        # one row of 8s, the data's brightest pixel 8: still divided by 16, 8 / 16 = 0.5
        Rung("one scale, whatever the brightest pixel",
             given="X = np.full((1, 64), 8.0); ds = DigitsDataset(X, np.array([7]))", call="ds[0][0][:2]",
             expect=[0.5, 0.5], returns="ndarray", points=0),
        # row 0's first feature 16 / 16 = 1, row 2's last 4 / 16 = 0.25, row 2's label 1
        Rung("row i with label i", given=ROWS, call="[float(ds[0][0][0]), float(ds[2][0][63]), float(ds[2][1])]",
             expect=[1.0, 0.25, 1.0], points=0),
        Rung("float32 features", given=ROWS, call="ds[1][0].dtype == np.float32", expect=True, points=0),
        Rung("an integer label", given=ROWS, call="isinstance(ds[1][1], (int, np.integer)) and ds[1][1] == 7",
             expect=True, points=0, cause="The label stays y[i], an integer class index (an int or np.int64)."),
        # read twice: 0.5 again; the caller's X keeps its 8
        Rung("reading changes nothing", given=ROWS + "; first = ds[1][0]; again = ds[1][0]",
             call="[float(again[0]), float(X[1, 0])]", expect=[0.5, 8.0], points=0),
        Rung("no transform while constructing", given=MIRRORED, call="len(shapes)", expect=0, points=0),
        Rung("the transform given the image in (H, W, C) layout", given=MIRRORED + "; item = ds[0]", call="shapes",
             expect=[[8.0, 8.0, 1.0]], points=0),
        Rung("the transformed image as the features", given=MIRRORED, call="ds[0][0][[0, 7]]", expect=[0.0, 1.0],
             returns="ndarray", points=0),
    ])
# A one-weight model h = w x + b from w = 1, b = 0, the squared error averaged over the batch, targets 0:
# x = 1, 2, 3 in batches of 2 (the last holds 1 sample).
LINE = ("m = ndl.nn.Linear(1, 1); m.weight.data = ndl.Tensor([[1.0]]); m.bias.data = ndl.Tensor([[0.0]]); "
        "loss_fn = lambda h, t: ((h - t) ** 2).sum() / h.shape[0]; ")
LOADER = "lambda n: ndl.data.DataLoader(ndl.data.NDArrayDataset(np.array([[1.0], [2.0], [3.0]], dtype=np.float32)[:n], np.zeros((n, 1), dtype=np.float32)), 2)"
TASK_8_2 = Task(
    "8.2", names=["train_epoch"],
    contract="train_epoch(model, loss_fn, opt, loader): for every batch of the loader, in order, one step of opt with "
             "the gradient of that batch's loss alone; returns the epoch's mean loss per sample (every sample counted "
             "once, each batch's loss that of the parameters its step started from) as a Python float; keeps no "
             "batch's graph",
    rungs=[
        # lr = 0, one batch x = 1, 2: (1 + 4) / 2 = 2.5
        Rung("one batch", given=LINE + f"batches = {LOADER}",
             call="train_epoch(m, loss_fn, ndl.optim.SGD(m.parameters(), lr=0.0), batches(2))", expect=2.5,
             points=0),
        Rung("a Python float", given=LINE + f"batches = {LOADER}",
             call="train_epoch(m, loss_fn, ndl.optim.SGD(m.parameters(), lr=0.0), batches(2))", expect=2.5,
             returns="float", points=0),
        # lr = 0, batches (1, 2) and (3): every sample once, (1 + 4 + 9) / 3 = 14 / 3 (the mean of the batch means
        # would be (2.5 + 9) / 2 = 5.75)
        Rung("batches of unequal size", given=LINE + f"batches = {LOADER}",
             call="train_epoch(m, loss_fn, ndl.optim.SGD(m.parameters(), lr=0.0), batches(3))", expect=14 / 3,
             points=0),
        # lr = 0.1: batch 1 (loss 2.5) has dL/dw = (2*1*1 + 2*2*2) / 2 = 5, dL/db = (2 + 4) / 2 = 3: w = 0.5, b = -0.3;
        # batch 2: h = 1.5 - 0.3 = 1.2, loss 1.44. Mean per sample (2 * 2.5 + 1.44) / 3 = 6.44 / 3
        Rung("one step per batch", given=LINE + f"batches = {LOADER}",
             call="train_epoch(m, loss_fn, ndl.optim.SGD(m.parameters(), lr=0.1), batches(3))", expect=6.44 / 3,
             points=0),
        # after batch 2: dL/dw = 2 * 3 * 1.2 = 7.2, dL/db = 2.4: w = 0.5 - 0.72 = -0.22, b = -0.3 - 0.24 = -0.54
        Rung("the model after the epoch",
             given=LINE + f"batches = {LOADER}; train_epoch(m, loss_fn, ndl.optim.SGD(m.parameters(), lr=0.1), batches(3))",
             call="[m.weight.numpy(), m.bias.numpy()]", expect=[[[-0.22]], [[-0.54]]], points=0),
        # a gradient left in p.grad (that of batch 1) must not reach the step: w = 0.5, b = -0.3 as above (with it,
        # the step is twice as large: w = 0, b = -0.6)
        Rung("gradients left before the epoch",
             given=LINE + f"batches = {LOADER}; loss_fn(m(ndl.Tensor([[1.0], [2.0]])), ndl.Tensor([[0.0], [0.0]])).backward(); "
                          "train_epoch(m, loss_fn, ndl.optim.SGD(m.parameters(), lr=0.1), batches(2))",
             call="[m.weight.numpy(), m.bias.numpy()]", expect=[[[0.5]], [[-0.3]]], points=0),
    ])
# logits = the features themselves (one-hot rows): sample i is predicted as the class of its 1.
IDENTITY = "model = lambda x: x; "
ONE_HOT = "batches = lambda rows, labels, size: ndl.data.DataLoader(ndl.data.NDArrayDataset(np.eye(10, dtype=np.float32)[rows], np.array(labels)), size); "
TASK_8_3 = Task(
    "8.3", names=["accuracy"],
    contract="accuracy(model, loader): the fraction of the loader's samples whose prediction (the class of their "
             "largest logit) equals their label, over every sample once, as a Python float",
    rungs=[
        # predictions 0, 1, 2 for labels 0, 1, 2: 3 of 3
        Rung("one batch, all right", given=IDENTITY + ONE_HOT, call="accuracy(model, batches([0, 1, 2], [0, 1, 2], 3))",
             expect=1.0, points=0),
        # predictions 0, 1, 2, 2 for labels 0, 1, 2, 3: 3 of 4
        Rung("one batch, one wrong", given=IDENTITY + ONE_HOT,
             call="accuracy(model, batches([0, 1, 2, 2], [0, 1, 2, 3], 4))", expect=0.75, points=0),
        # batches of 2, 2 and 1; predictions 0, 1, 2, 3, 3 for labels 0..4: 4 of 5 (per batch 1, 1, 0)
        Rung("batches of unequal size", given=IDENTITY + ONE_HOT,
             call="accuracy(model, batches([0, 1, 2, 3, 3], [0, 1, 2, 3, 4], 2))", expect=0.8, points=0),
    ])
declare(globals(), TASK_8_1, TASK_8_2, TASK_8_3)


PROTOTYPE_SEED = 8


def digits_like(n: int, seed: int, noise: float = 3.0, brightest: int = 16):
    """(X, y): n images of 64 integer pixels in 0..brightest (float64, like load_digits' data),
    each a class prototype plus Gaussian noise, and their int64 labels 0..9. With the default
    brightest = 16 and n >= 20 some pixel is 16 (a prototype pixel of 16 plus noise, clipped)."""
    prototypes = np.random.default_rng(PROTOTYPE_SEED).integers(0, 17, size=(10, 64))
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 10, size=n).astype(np.int64)
    X = np.clip(np.rint(prototypes[y] + rng.normal(0.0, noise, size=(n, 64))), 0, brightest)
    return X, y


# --- Task 8.1: DigitsDataset ----------------------------------------------------------------
FEATURES = ("the features must be the pixel values divided by 16 (load_digits' pixels go from 0 to 16), "
            "so that they lie in [0, 1]")
LABELS = ("each label must stay an integer class index equal to y[i] (an int or np.int64; not a float, not one-hot): "
          "labels index the classes (np.eye(10)[y] needs integers, and so does PyTorch's cross-entropy)")
ARRAY = "the features must be a numpy array (the DataLoader stacks them into a batch)"
TRANSFORMS = ("apply the dataset's transforms to each image as an (8, 8, 1) array, self.apply_transforms(image), "
              "then flatten the result to (64,)")


MAX_SCALED = ("you divide by the largest pixel of this data (X.max()): divide by 16, the largest possible pixel value "
              "of load_digits, so that every set of digits is scaled alike, whatever its brightest pixel")
SHUFFLED = ("dataset[i] returned another sample's pixels: keep row i of X with label i of y, in their order (the "
            "DataLoader shuffles, the dataset must not)")
READ_CHANGES = ("reading an item changed the dataset's stored pixels (dataset[i] read twice gave different "
                "features): divide into a new array, not in place")
X_CHANGED = ("DigitsDataset changed the X it was given, its caller's array (X is the caller's data, used again "
             "elsewhere): divide into a new array, not in place")


def reading_problem(r, X_in) -> str | None:
    """What reading the items twice showed (the probe's ``again``): the caller's X changed, or
    the second read of an item differs from the first."""
    after = expect_array(r["X_after"], X_CHANGED)
    if after.shape != X_in.shape or not np.array_equal(after, np.asarray(X_in, dtype=np.float64)):
        return X_CHANGED
    # the first read comes as a digest of its values (the probe did not keep them while reading again)
    for first, second in zip(r["digests"], r["again"], strict=True):  # strict: a reply short of items fails
        if first is not None and second["values"] is not None and P.values_digest(second["values"]) != first:
            return READ_CHANGES
    return None


def features_problem(item, X, i) -> str | None:
    """What is wrong with the features of dataset[i] (X: the pixels given to the dataset)."""
    values = item["values"]
    if values is None or np.shape(values) != (64,):
        return None  # judged by the shape and type checks
    if np.allclose(values, X[i] / 16.0, rtol=1e-6, atol=1e-7):
        return None
    if X.max() < 16 and np.allclose(values, X[i] / X.max(), rtol=1e-6, atol=1e-7):
        return MAX_SCALED
    if any(np.allclose(values, row / 16.0, rtol=1e-6, atol=1e-7) for j, row in enumerate(X) if j != i):
        return SHUFFLED
    return FEATURES


def check_dataset_features(observe, submission_seed):
    """dataset[i] = (features, label) with 64 float32 features, the pixels of row i scaled to [0, 1]"""
    X, y = digits_like(40, seed=submission_seed + 81)
    dim, _ = digits_like(40, seed=submission_seed + 84, brightest=12)  # digits whose brightest pixel is 12, not 16
    indices = [0, 7, 39]
    # load_digits gives float64 pixels; integer pixels must work too, and so must dimmer digits
    for X_in, X_ref in ((X, X), (X.astype(np.int64), X), (dim, dim)):
        r = observe(P.dataset_items, X=X_in, y=y, indices=indices, again=True)
        assert r["len"] == 40, "len(dataset) must be the number of samples (the rows of X)"
        problem = reading_problem(r, X_in)  # every item read twice: reads must change nothing
        assert problem is None, problem
        for item, i in zip(r["again"], indices, strict=True):  # strict: a reply short of items fails
            assert item["tuple"], "dataset[i] must return a tuple of two: (features, label)"
            assert item["is_array"], ARRAY
            assert item["shape"] == [64], "the features must be a flat array of 64 values: reshape the (8, 8, 1) image to (64,)"
            problem = features_problem(item, X_ref, i)
            assert problem is None, problem
            assert item["dtype"] == "float32", "the features must be float32, needle's default dtype (np.float32)"
        b = r["batch"]
        assert b["ok"] and b["x_shape"] == [8, 64] and b["x_dtype"] == "float32", (
            "a DataLoader over your dataset must give float32 batches of shape (batch_size, 64)")


def check_dataset_labels(observe, submission_seed):
    """labels stay integer class indices, in every item and in the DataLoader's batches"""
    X, y = digits_like(30, seed=submission_seed + 82)
    indices = [0, 5, 29]
    r = observe(P.dataset_items, X=X, y=y, indices=indices)
    for item, i in zip(r["items"], indices, strict=True):
        assert item["tuple"] and item["label_is_int"], LABELS
        assert item["label"] == y[i], SHUFFLED if features_problem(item, X, i) == SHUFFLED else LABELS
    b = r["batch"]
    assert b["ok"] or all(item["is_array"] for item in r["items"]), ARRAY  # the batch fails on the features
    assert b["ok"] and b["y_kind"] in ("i", "u"), LABELS
    assert np.array_equal(expect_array(b["y"], LABELS), y[:8]), LABELS


def check_dataset_transforms(observe, submission_seed):
    """the transforms are applied to each (8, 8, 1) image when it is read, then flattened"""
    # Judged against the same dataset without transforms, so that a scaling mistake is not
    # counted twice: a left-right mirror of the image must mirror the features.
    X, y = digits_like(20, seed=submission_seed + 83)
    indices = [3, 11]
    plain = observe(P.dataset_items, X=X, y=y, indices=indices)
    r = observe(P.dataset_items, X=X, y=y, indices=indices, transforms="flip")
    assert r["transform_calls_at_init"] == 0, (
        "apply the transforms in __getitem__, each time a sample is read, not once in __init__: "
        "a random transform must draw anew every epoch")
    assert len(r["transform_shapes"]) == len(indices), TRANSFORMS
    assert all(shape == [8, 8, 1] for shape in r["transform_shapes"]), TRANSFORMS
    # an item without transforms: the same index of the dataset built without them, or (if that
    # dataset puts its samples in another order, a mistake of its own) any row of X scaled by 16
    def untransformed(reference):
        return [np.asarray(reference["values"])] + [row / 16.0 for row in X]

    def mirror(values):
        return np.flip(np.asarray(values).reshape(8, 8, 1), axis=1).reshape(64)

    def among(values, candidates) -> bool:
        return values is not None and any(np.allclose(values, c, rtol=1e-6, atol=1e-7) for c in candidates)

    for item, reference in zip(r["items"], plain["items"], strict=True):
        assert reference["is_array"] or not reference["tuple"], ARRAY
        assert item["tuple"] and item["shape"] == [64] and reference["values"] is not None, TRANSFORMS
        assert among(item["values"], [mirror(v) for v in untransformed(reference)]), TRANSFORMS
    r = observe(P.dataset_items, X=X, y=y, indices=indices, transforms="empty")  # an empty list: no change
    for item, reference in zip(r["items"], plain["items"], strict=True):
        assert item["tuple"] and reference["values"] is not None, TRANSFORMS
        assert among(item["values"], untransformed(reference)), TRANSFORMS


@TASK_8_1.rung('random digits, integer pixels, transforms and DataLoader batches', points=4)
def test_task_8_1_random_digits_integer_pixels_transforms_and_dataloader_batches(observe, submission_seed):
    """random digits, integer pixels, transforms and DataLoader batches"""
    check_dataset_features(observe, submission_seed)
    check_dataset_labels(observe, submission_seed)
    check_dataset_transforms(observe, submission_seed)



# --- Task 8.2: train_epoch ------------------------------------------------------------------
# No needle function does Task 8.2's or 8.3's work (needle has no training loop and no accuracy):
# nothing to excise. Points come from what train_epoch returned and from the model's parameters
# afterwards, both compared with the loop run here with needle's classes on the same data,
# model and shuffles. What the optimizer recorded in the worker (steps taken, gradients missing
# or accumulated) only helps name a mistake.
STEP = ("train_epoch must update the model once per batch, by the gradient of that batch's loss (len(loader) steps "
        "per epoch)")
BACKWARD = ("opt.step() found parameters without a gradient: a step follows what p.grad holds when it is called, "
            "and each step must follow its batch's gradient")
RESET = ("the gradient used at a step includes the gradients of earlier batches (backward() adds into p.grad, and "
         "only reset_grad() clears it): each step must use its batch's gradient alone")
MEAN = ("train_epoch must return the mean loss per sample over the whole epoch, in which every sample counts once: "
        "each batch's loss is a mean over its batch, and the batches need not be equal (the last may be smaller)")
FLOAT = ("train_epoch must return a Python float, not a needle Tensor or a numpy value: add up each batch's loss as a "
         "Python number (its array's single element)")
LOOP = ("the model after your epochs differs from that of one step per batch, in the loader's order, each by the "
        "gradient of that batch's loss alone")
RECORDED_AFTER = ("train_epoch returned the mean of the losses computed after each step: each batch's loss must be "
                  "that of the parameters its step started from")
KEEPS_GRAPHS = ("the memory train_epoch holds grows with the number of batches: what the loop adds up across batches "
                "holds each batch's loss tensor, and with it that batch's whole graph, until the epoch ends (notebook 02's "
                "leak); add up Python numbers, as train_fixed does")
# A hidden layer of 2048 units in batches of 256: each batch's graph holds about three 2 MiB activations.
# One epoch of 2 batches, then one of 16: a loop that keeps every batch's graph holds about 84 MiB more at
# its peak; one that keeps none, about the same. Measured from outside the student's process.
WIDE = dict(sizes=[64, 2048, 10], seed=6, batch_size=256, shuffle=False, lr=0.0, epochs=1)
GRAPH_BYTES = 24 * 2**20


def full_data_loss(sizes, seed, X, y) -> float:
    """SoftmaxLoss of the untrained model on all samples at once: the mean loss per sample."""
    model = P.make_mlp(seed, sizes)
    logits = model(ndl.Tensor(X.astype(np.float32), requires_grad=False))
    loss = ndl.nn.SoftmaxLoss()(logits, ndl.Tensor(y, dtype="int64", requires_grad=False))
    return float(loss.numpy())


def reference_epochs(X, y, sizes, seed, batch_size, shuffle, lr, epochs, momentum=0.0, variant="right", stale=False):
    """(the mean loss per sample of every epoch, the parameters afterwards) of the loop restated
    (the mean per sample: each batch mean m_b times its size n_b is the sum of its samples' losses,
    so the epoch's mean is sum(n_b m_b) / sum(n_b))
    with needle's classes, or of a known mistake: "no_reset" (gradients accumulate over the
    batches), "no_step" (the model never changes), "mean_of_batches" (the mean of the batch
    means returned), "after_step" (the loss recomputed after each step recorded). ``stale``
    gradients in p.grad before the epoch change nothing of the right loop: it resets them first."""
    model = P.make_mlp(seed, sizes)
    loader = P.make_loader(X, y, batch_size, shuffle)
    opt = ndl.optim.SGD(model.parameters(), lr=lr, momentum=momentum)
    loss_fn = ndl.nn.SoftmaxLoss()
    np.random.seed(seed + 1)
    out = []
    for _ in range(epochs):
        total, count, means = 0.0, 0, []
        for xb, yb in loader:
            if variant != "no_reset":
                opt.reset_grad()
            loss = loss_fn(model(xb), yb)
            recorded = loss.numpy().item()
            loss.backward()
            if variant != "no_step":
                opt.step()
            if variant == "after_step":
                recorded = loss_fn(model(xb), yb).numpy().item()
            total += recorded * xb.shape[0]
            count += xb.shape[0]
            means.append(recorded)
        out.append(float(np.mean(means)) if variant == "mean_of_batches" else total / count)
    return np.array(out), [np.array(p.numpy(), dtype=np.float64) for p in model.parameters()]


def same_params(got, want) -> bool:
    return len(got) == len(want) and all(
        np.shape(g) == np.shape(w) and np.allclose(g, w, rtol=1e-4, atol=1e-6) for g, w in zip(got, want))


def check_epochs(observe, X, y, **setting):
    """Run train_epoch through the probe; the model afterwards and the returned means must be
    those of the loop run here. A wrong model is named by the training mistake it matches, a
    wrong return value (with the right model) by the return mistake: never one for the other."""
    r = observe(P.run_epochs, X=X, y=y, **setting)
    want_values, want_params = reference_epochs(X, y, **setting)
    if not same_params(r["params"], want_params):
        if same_params(r["params"], reference_epochs(X, y, **setting, variant="no_step")[1]):
            raise AssertionError(BACKWARD if r["missing"] and r["steps"] else STEP)
        if same_params(r["params"], reference_epochs(X, y, **setting, variant="no_reset")[1]):
            raise AssertionError(RESET)
        raise AssertionError(STEP if r["steps"] != r["batches"] else LOOP)
    assert all(r["floats"]), FLOAT
    values = expect_array(r["values"], MEAN)
    if not (values.shape == want_values.shape and np.allclose(values, want_values, rtol=1e-4, atol=1e-6)):
        after = reference_epochs(X, y, **setting, variant="after_step")[0]
        raise AssertionError(RECORDED_AFTER if np.allclose(values, after, rtol=1e-4, atol=1e-6) else MEAN)
    return r


def check_fresh_gradient_every_batch(observe, submission_seed):
    """one SGD step per batch, each on that batch's gradient only"""
    # Four copies of one batch: every step must use that batch's gradient at the current
    # parameters, not the sum of the gradients of the batches so far.
    Xb, yb = digits_like(8, seed=submission_seed + 820)
    X, y = np.tile(Xb / 16.0, (4, 1)), np.tile(yb, 4)
    check_epochs(observe, X, y, sizes=[64, 16, 10], seed=3, batch_size=8, shuffle=False, lr=0.2, epochs=2)
    # the same with a gradient left in every p.grad before the epoch: the first step must not use it
    check_epochs(observe, X, y, sizes=[64, 16, 10], seed=3, batch_size=8, shuffle=False, lr=0.2, epochs=1, stale=True)


def check_epoch_mean_loss(observe, submission_seed):
    """train_epoch returns the epoch's mean loss per sample, as a Python float, and keeps no batch's graph
    (memory measured outside your code)"""
    # lr = 0 keeps the model fixed, so the mean loss per sample of every epoch is the loss of
    # the whole data set at once; 100 samples in batches of 16 leave a last batch of 4.
    X, y = digits_like(100, seed=submission_seed + 821)
    X = X / 16.0
    sizes, seed = [64, 16, 10], 4
    r = observe(P.run_epochs, X=X, y=y, sizes=sizes, seed=seed, batch_size=16, shuffle=True, lr=0.0, epochs=2)
    want = full_data_loss(sizes, seed, X, y)
    if not (all(r["floats"]) and np.allclose(r["values"], [want, want], rtol=1e-4, atol=1e-6)):
        # a loop that took no step per batch is named as such (the optimizer's record: a hint only)
        assert r["steps"] == r["batches"], STEP
        assert all(r["floats"]), FLOAT
        assert_close(r["values"], [want, want], MEAN, rtol=1e-4, atol=1e-6)
    # the same data with lr > 0: the means of a model that moves, batch after batch
    check_epochs(observe, X, y, sizes=sizes, seed=seed, batch_size=16, shuffle=True, lr=0.1, epochs=2)
    check_no_graph_kept(observe, submission_seed + 823)


def check_no_graph_kept(observe, seed: int) -> None:
    """The memory train_epoch's loop holds stays flat when the epoch has eight times the batches."""
    grown = []
    for batches in (2, 16):
        X, y = digits_like(WIDE["batch_size"] * batches, seed=seed)
        grown.append(observe.memory(P.run_epochs, X=X / 16.0, y=y, **WIDE)[1])
    assert grown[1] - grown[0] < GRAPH_BYTES, KEEPS_GRAPHS


def check_epoch_trains(observe, submission_seed):
    """a few epochs of train_epoch train a model that classifies held-out data"""
    X, y = digits_like(300, seed=submission_seed + 822)
    check_epochs(observe, X / 16.0, y, sizes=[64, 32, 10], seed=5, batch_size=30, shuffle=True, lr=0.1, momentum=0.5,
                 epochs=4)


@TASK_8_2.rung('training on random digits: repeated batches, the mean per sample, no graph kept (memory), an MLP with momentum', points=6)
def test_task_8_2_training_on_random_digits(observe, submission_seed):
    """training on random digits: repeated batches, the mean per sample, no graph kept (memory), an MLP with momentum"""
    check_fresh_gradient_every_batch(observe, submission_seed)
    check_epoch_mean_loss(observe, submission_seed)
    check_epoch_trains(observe, submission_seed)



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


BATCHES = ("accuracy divides by the number of batches: divide the number of correctly classified samples by the "
           "number of samples")
SMALLER_LAST = ("accuracy counts loader.batch_size samples for every batch, but the last batch can be smaller: count "
                "the samples each batch actually holds")
FLAT_ARGMAX = ("accuracy takes one argmax over the whole batch of logits: take it along the classes, axis 1, one "
               "prediction per sample")


MAX_VALUE = ("accuracy compares the largest logit's value with the label: a sample's prediction is the class whose "
             "logit is largest, the position of the maximum along axis 1 (argmax), not the maximum itself")
PERCENT = "accuracy returned a percentage: return the fraction of correct samples, between 0 and 1"


def accuracy_message(value, logits, y, batch_size, fallback, shuffled=False) -> str:
    """The message for a wrong accuracy (batches of ``batch_size``), by the slip it matches. The
    slips that depend on which samples share a batch are judged on unshuffled batches only."""
    batches = [(logits[k:k + batch_size], y[k:k + batch_size]) for k in range(0, len(y), batch_size)]
    correct = sum(int((lg.argmax(axis=1) == yb).sum()) for lg, yb in batches)
    flat = sum(int((lg.argmax() == yb).sum()) for lg, yb in batches) / len(y)
    by_value = sum(int((lg.max(axis=1) == yb).sum()) for lg, yb in batches) / len(y)
    if np.isclose(value, 100 * correct / len(y)) and correct:
        return PERCENT
    if np.isclose(value, by_value) and not np.isclose(by_value, correct / len(y)):
        return MAX_VALUE
    if np.isclose(value, correct / len(batches)):
        return BATCHES
    if len(y) % batch_size and np.isclose(value, correct / (len(batches) * batch_size)):
        return SMALLER_LAST  # every batch counted as a full one
    if not shuffled and np.isclose(value, flat) and not np.isclose(flat, correct / len(y)):
        return FLAT_ARGMAX
    return fallback


def check_accuracy_value(observe, submission_seed):
    """accuracy is the fraction of correctly classified samples over the whole loader"""
    W, b = partly_right_classifier(submission_seed + 830)
    X, y = digits_like(90, seed=submission_seed + 831)
    X = X / 16.0
    logits = X @ W + b
    want = float(np.mean(P.predictions(P.FixedLinear(W, b), X) == y))
    for batch_size, shuffle in ((16, False), (90, False), (16, True)):  # 90 = 5 x 16 + 10
        r = observe(P.run_accuracy, W=W, b=b, X=X, y=y, batch_size=batch_size, shuffle=shuffle, seed=submission_seed + 832)
        assert r["is_float"], ACC_FLOAT
        if not np.isclose(r["value"], want, rtol=1e-6, atol=1e-9):
            raise AssertionError(accuracy_message(r["value"], logits, y, batch_size, ACCURACY, shuffled=shuffle))


def check_accuracy_extremes(observe, submission_seed):
    """a perfect model scores 1.0, an always-wrong one 0.0"""
    y = np.random.default_rng(submission_seed + 833).integers(0, 10, size=25)
    X = np.eye(10)[y]  # one-hot features: logits = x W pick row y of W
    for W, want in ((np.eye(10), 1.0), (np.roll(np.eye(10), 1, axis=1), 0.0)):
        r = observe(P.run_accuracy, W=W, b=np.zeros(10), X=X, y=y, batch_size=8)
        assert r["is_float"], ACC_FLOAT
        if not np.isclose(r["value"], want, rtol=0, atol=1e-9):
            raise AssertionError(accuracy_message(r["value"], X @ W, y, 8, EXTREMES))


@TASK_8_3.rung('random data: a partly right classifier, shuffled and unequal batches, a perfect and an always-wrong model', points=3)
def test_task_8_3_random_data(observe, submission_seed):
    """random data: a partly right classifier, shuffled and unequal batches, a perfect and an always-wrong model"""
    check_accuracy_value(observe, submission_seed)
    check_accuracy_extremes(observe, submission_seed)
