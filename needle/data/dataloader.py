"""Mini-batches of a Dataset as needle Tensors."""
from __future__ import annotations

from typing import Iterator

import numpy as np

from ..autograd import Tensor


def _as_tensor(column) -> Tensor:
    """Stack one field of a batch's samples: integer fields (labels) keep their integer dtype,
    all others become float32 (needle's default). Data needs no gradient."""
    array = np.stack(column)
    if array.dtype.kind not in "iu":
        array = array.astype(np.float32)
    return Tensor.make_const(array)


class DataLoader:
    """Iterate over ``dataset`` in batches of ``batch_size`` samples (the last one may be
    smaller), each a tuple with one Tensor per field of the samples, e.g. ``(X_batch, y_batch)``.
    A sample is a tuple of fields (as ``NDArrayDataset`` returns) or a single array.

    With ``shuffle=True`` every new iteration (every epoch) visits the samples in the order
    ``np.random.permutation(len(dataset))``, drawn from numpy's global generator when the
    iteration starts, so ``np.random.seed(s)`` reproduces it.
    """

    def __init__(self, dataset, batch_size: int = 1, shuffle: bool = False):
        if not (hasattr(dataset, "__getitem__") and hasattr(dataset, "__len__")):
            raise TypeError(
                f"DataLoader needs a dataset with __getitem__ and __len__ (a needle.data.Dataset), "
                f"got {type(dataset).__name__}"
            )
        if not isinstance(batch_size, (int, np.integer)) or isinstance(batch_size, bool) or batch_size < 1:
            raise ValueError(f"DataLoader: batch_size must be a positive integer, got {batch_size!r}")
        self.dataset = dataset
        self.batch_size = int(batch_size)
        self.shuffle = shuffle

    def __len__(self) -> int:
        """The number of batches per iteration."""
        return -(-len(self.dataset) // self.batch_size)

    def __iter__(self) -> Iterator[tuple]:
        n = len(self.dataset)
        # Drawn here, not on the first next(): iter() is when an epoch starts.
        order = np.random.permutation(n) if self.shuffle else np.arange(n)
        return self._batches(order)

    def _batches(self, order: np.ndarray) -> Iterator[tuple]:
        for start in range(0, len(order), self.batch_size):
            # Sample by sample (PyTorch's default collate): any Dataset works, and a random
            # transform draws anew for every sample.
            samples = [self._sample(int(i)) for i in order[start : start + self.batch_size]]
            yield tuple(_as_tensor(field) for field in zip(*samples))

    def _sample(self, index: int) -> tuple:
        sample = self.dataset[index]
        return sample if isinstance(sample, tuple) else (sample,)
