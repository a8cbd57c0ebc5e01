"""needle.data: datasets, mini-batches and image transforms, with dlsys hw2's API and
semantics (numpy's global generator, last partial batch kept)."""
import re

import numpy as np
import pytest

import needle as ndl
from needle import nn, optim
from needle.data import DataLoader, Dataset, NDArrayDataset, RandomCrop, RandomFlipHorizontal


def digits_like(n=10, d=3, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, d)), np.arange(n) % 3


def collect(loader):
    """All batches of one iteration, as lists of numpy arrays per field."""
    return [tuple(t.numpy() for t in batch) for batch in loader]


# --- NDArrayDataset ------------------------------------------------------------------
def test_ndarray_dataset_rows_are_samples():
    X, y = digits_like()
    ds = NDArrayDataset(X, y)
    assert len(ds) == 10 and isinstance(ds, Dataset)
    x3, y3 = ds[3]
    np.testing.assert_array_equal(x3, X[3])
    assert y3 == y[3]
    xs, ys = ds[2:5]  # slices and index arrays work as in numpy (dlsys's tests slice)
    np.testing.assert_array_equal(xs, X[2:5])
    np.testing.assert_array_equal(ds[np.array([4, 1])][1], y[[4, 1]])


def test_ndarray_dataset_errors():
    with pytest.raises(ValueError, match=r"different numbers of samples \(first axis lengths \[10, 9\]\)"):
        NDArrayDataset(np.zeros((10, 2)), np.zeros(9))
    with pytest.raises(ValueError, match="at least one array"):
        NDArrayDataset()
    with pytest.raises(ValueError, match="array 1 is a scalar"):
        NDArrayDataset(np.zeros(3), np.float64(2.0))


def test_dataset_base_class_needs_getitem_and_len():
    with pytest.raises(NotImplementedError, match="must define __getitem__"):
        Dataset()[0]
    with pytest.raises(NotImplementedError, match="must define __len__"):
        len(Dataset())


# --- DataLoader ------------------------------------------------------------------------
def test_batches_in_order_with_the_last_partial_batch_kept():
    X, y = digits_like(n=10)
    loader = DataLoader(NDArrayDataset(X, y), batch_size=4)
    batches = collect(loader)
    assert len(loader) == 3 and [b[0].shape for b in batches] == [(4, 3), (4, 3), (2, 3)]
    for i, (xb, yb) in enumerate(batches):
        np.testing.assert_allclose(xb, X[4 * i : 4 * i + 4], rtol=1e-7)  # float32 of X
        np.testing.assert_array_equal(yb, y[4 * i : 4 * i + 4])


def test_batch_tensors_features_float32_labels_integer_no_grad():
    X, y = digits_like()
    xb, yb = next(iter(DataLoader(NDArrayDataset(X, y.astype(np.int32)), batch_size=5)))
    assert isinstance(xb, ndl.Tensor) and isinstance(yb, ndl.Tensor)
    assert xb.dtype == np.float32, "features become float32, needle's default"
    assert yb.dtype == np.int32, "integer labels keep their dtype"
    assert not xb.requires_grad and not yb.requires_grad, "data needs no gradient"


def test_batch_size_larger_than_the_dataset_and_batch_size_one():
    X, y = digits_like(n=5)
    assert [b[0].shape for b in collect(DataLoader(NDArrayDataset(X, y), batch_size=64))] == [(5, 3)]
    batches = collect(DataLoader(NDArrayDataset(X), batch_size=1))  # default batch_size is 1 too
    assert len(batches) == 5 and all(len(b) == 1 and b[0].shape == (1, 3) for b in batches)
    assert len(collect(DataLoader(NDArrayDataset(X)))) == 5


def test_shuffle_follows_numpys_global_generator_at_each_new_iteration():
    # dlsys: every iteration visits the samples in np.random.permutation(n), drawn when it starts.
    X, y = digits_like(n=10)
    loader = DataLoader(NDArrayDataset(X, y), batch_size=4, shuffle=True)
    np.random.seed(3)
    first, second = np.random.permutation(10), np.random.permutation(10)
    np.random.seed(3)
    epoch1, epoch2 = collect(loader), collect(loader)
    for epoch, order in ((epoch1, first), (epoch2, second)):
        assert [b[1].shape for b in epoch] == [(4,), (4,), (2,)]
        np.testing.assert_array_equal(np.concatenate([b[1] for b in epoch]), y[order])
        np.testing.assert_allclose(np.concatenate([b[0] for b in epoch]), X[order], rtol=1e-7)
    assert not np.array_equal(first, second), "each epoch draws a new order"


def test_dlsys_shuffled_single_items():
    # dlsys hw2's check: NDArrayDataset(np.arange(100)) shuffled after np.random.seed(0),
    # batch_size 1: the first ten items are the first ten of np.random.permutation(100).
    np.random.seed(0)
    want = np.random.permutation(100)[:10]
    np.random.seed(0)
    batches = iter(DataLoader(NDArrayDataset(np.arange(100)), batch_size=1, shuffle=True))
    np.testing.assert_array_equal([next(batches)[0].numpy().item() for _ in range(10)], want)


def test_the_order_is_drawn_when_iteration_starts():
    loader = DataLoader(NDArrayDataset(np.arange(6)), batch_size=6, shuffle=True)
    np.random.seed(1)
    want = np.random.permutation(6)
    np.random.seed(1)
    batches = iter(loader)
    np.random.rand()  # a draw between iter() and next() does not change this epoch's order
    np.testing.assert_array_equal(next(batches)[0].numpy(), want)


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "4", None])
def test_batch_size_must_be_a_positive_integer(bad):
    with pytest.raises(ValueError, match=re.escape(f"DataLoader: batch_size must be a positive integer, got {bad!r}")):
        DataLoader(NDArrayDataset(np.zeros(3)), batch_size=bad)


def test_dataloader_needs_a_dataset():
    with pytest.raises(TypeError, match="needs a dataset with __getitem__ and __len__.*got int"):
        DataLoader(5, batch_size=2)


class SquaresWithFlips(Dataset):
    """A Dataset subclass in the PyTorch style: one sample per integer index, transforms on
    the image."""

    def __init__(self, n, transforms=None):
        super().__init__(transforms)
        self.images = np.arange(n * 4, dtype=np.float64).reshape(n, 2, 2, 1)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.apply_transforms(self.images[i]), i % 2


def test_custom_dataset_with_transforms_is_batched_sample_by_sample():
    ds = SquaresWithFlips(5, transforms=[RandomFlipHorizontal(p=1.0)])
    xb, yb = collect(DataLoader(ds, batch_size=3))[1]
    np.testing.assert_array_equal(xb, ds.images[3:5, :, ::-1, :])
    np.testing.assert_array_equal(yb, [1, 0])
    assert xb.dtype == np.float32 and yb.dtype.kind == "i"


def test_apply_transforms_applies_them_in_order_and_none_is_identity():
    calls = []
    ds = Dataset(transforms=[lambda x: calls.append("a") or x + 1, lambda x: calls.append("b") or x * 10])
    assert ds.apply_transforms(1) == 20 and calls == ["a", "b"]
    assert Dataset().apply_transforms(7) == 7


def test_a_dataset_of_bare_arrays_gives_one_tensor_batches():
    class Bare(Dataset):
        def __len__(self):
            return 3

        def __getitem__(self, i):
            return np.full(2, i)

    (batch,) = collect(DataLoader(Bare(), batch_size=3))
    np.testing.assert_array_equal(batch[0], [[0, 0], [1, 1], [2, 2]])


def test_softmax_loss_trains_through_the_dataloader():
    """End to end, as the course's digits notebook does: labels from the loader go straight
    into SoftmaxLoss, and a linear model learns a separable problem."""
    np.random.seed(0)
    X = np.random.standard_normal((60, 2))
    y = (X[:, 0] + X[:, 1] > 0).astype(np.int64)
    model = nn.Linear(2, 2)
    loss_fn, opt = nn.SoftmaxLoss(), optim.SGD(model.parameters(), lr=0.5)
    loader = DataLoader(NDArrayDataset(X, y), batch_size=16, shuffle=True)
    losses = []
    for _ in range(15):
        for xb, yb in loader:
            opt.reset_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            losses.append(loss.numpy().item())
    assert np.mean(losses[-4:]) < 0.5 * np.mean(losses[:4]), losses


# --- transforms ----------------------------------------------------------------------------
def image(h=3, w=4, c=2):
    return np.arange(h * w * c, dtype=np.float32).reshape(h, w, c)


def test_flip_horizontal_reverses_the_width_axis_when_a_draw_is_below_p():
    img = image()
    np.testing.assert_array_equal(RandomFlipHorizontal(p=1.0)(img), img[:, ::-1, :])
    np.testing.assert_array_equal(RandomFlipHorizontal(p=0.0)(img), img)
    flip = RandomFlipHorizontal()  # p = 0.5, one np.random.rand() per call, as in dlsys
    for seed in range(20):
        np.random.seed(seed)
        flips = np.random.rand() < 0.5
        np.random.seed(seed)
        np.testing.assert_array_equal(flip(img), img[:, ::-1, :] if flips else img)


def test_random_crop_by_hand(monkeypatch):
    # Shift (dx, dy) = (1, -1): out[i, j] = img[i + 1, j - 1], 0 where that pixel is outside.
    # img = [[1, 2, 3], [4, 5, 6], [7, 8, 9]] ->
    #   row 0: (img[1, -1] outside, img[1, 0], img[1, 1]) = (0, 4, 5)
    #   row 1: (outside, img[2, 0], img[2, 1]) = (0, 7, 8)
    #   row 2: img[3, .] is outside: (0, 0, 0)
    img = np.arange(1, 10, dtype=np.float32).reshape(3, 3, 1)
    draws = []

    def randint(low, high, size):
        draws.append((low, high, size))
        return np.array([1, -1])

    monkeypatch.setattr(np.random, "randint", randint)
    out = RandomCrop(padding=2)(img)
    assert draws == [(-2, 3, 2)], "the shift is drawn as np.random.randint(-padding, padding + 1, size=2)"
    np.testing.assert_array_equal(out[:, :, 0], [[0, 4, 5], [0, 7, 8], [0, 0, 0]])


def test_random_crop_matches_its_definition_for_many_seeds():
    img = image(5, 4, 3)
    crop = RandomCrop(padding=3)
    for seed in range(30):
        np.random.seed(seed)
        dx, dy = np.random.randint(-3, 4, size=2)
        np.random.seed(seed)
        out = crop(img)
        assert out.shape == img.shape and out.dtype == img.dtype
        for i, j in np.ndindex(5, 4):
            inside = 0 <= i + dx < 5 and 0 <= j + dy < 4
            np.testing.assert_array_equal(out[i, j], img[i + dx, j + dy] if inside else 0)
    np.testing.assert_array_equal(RandomCrop(padding=0)(img), img)


def test_transform_errors():
    with pytest.raises(ValueError, match=r"expects an image of shape \(H, W, C\), got shape \(3, 4\).*reshape\(H, W, 1\)"):
        RandomFlipHorizontal()(np.zeros((3, 4)))
    with pytest.raises(ValueError, match=r"RandomCrop expects an image of shape \(H, W, C\), got shape \(2, 3, 4, 1\)"):
        RandomCrop()(np.zeros((2, 3, 4, 1)))
    with pytest.raises(ValueError, match="padding must be a non-negative integer, got -1"):
        RandomCrop(padding=-1)
    with pytest.raises(ValueError, match="padding must be a non-negative integer, got 1.5"):
        RandomCrop(padding=1.5)
    with pytest.raises(ValueError, match=r"p must be a probability in \[0, 1\], got 1.5"):
        RandomFlipHorizontal(p=1.5)


def test_transforms_are_importable_as_in_dlsys():
    assert ndl.data.transforms.RandomCrop is ndl.data.RandomCrop
    assert issubclass(ndl.data.RandomFlipHorizontal, ndl.data.transforms.Transform)
