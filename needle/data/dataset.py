"""Datasets: indexable collections of samples, each a tuple (features, label, ...)."""
from __future__ import annotations

import numpy as np


class Dataset:
    """A collection of samples: subclasses define ``__getitem__`` and ``__len__``.

    ``transforms`` is a list of callables applied in order by ``apply_transforms``, which a
    subclass's ``__getitem__`` calls on the part of the sample they transform (an image).
    """

    def __init__(self, transforms: list | None = None):
        self.transforms = transforms

    def __getitem__(self, index):
        raise NotImplementedError(f"{type(self).__name__} must define __getitem__")

    def __len__(self) -> int:
        raise NotImplementedError(f"{type(self).__name__} must define __len__")

    def apply_transforms(self, x):
        for transform in self.transforms or ():
            x = transform(x)
        return x


class NDArrayDataset(Dataset):
    """Samples are rows of the given arrays: ``dataset[i] = (arrays[0][i], arrays[1][i], ...)``.

    ``i`` may be an int, a slice or an array of indices, as numpy indexing allows.
    """

    def __init__(self, *arrays):
        super().__init__()
        if not arrays:
            raise ValueError("NDArrayDataset needs at least one array, e.g. NDArrayDataset(X, y)")
        self.arrays = tuple(np.asarray(a) for a in arrays)
        for i, a in enumerate(self.arrays):
            if a.ndim == 0:
                raise ValueError(f"NDArrayDataset: array {i} is a scalar; expected one row per sample")
        lengths = [len(a) for a in self.arrays]
        if len(set(lengths)) > 1:
            raise ValueError(
                f"NDArrayDataset: the arrays have different numbers of samples (first axis "
                f"lengths {lengths}); expected the same length for all"
            )

    def __len__(self) -> int:
        return len(self.arrays[0])

    def __getitem__(self, index) -> tuple:
        return tuple(a[index] for a in self.arrays)
