"""Datasets and mini-batches, with dlsys hw2's API (``needle.data``).

>>> import numpy as np, needle as ndl
>>> X, y = np.random.rand(10, 4), np.arange(10) % 3
>>> for xb, yb in ndl.data.DataLoader(ndl.data.NDArrayDataset(X, y), batch_size=4):
...     pass  # xb: float32 Tensor (4, 4), then (4, 4), then (2, 4); yb: int64 Tensor
"""
from . import transforms
from .dataloader import DataLoader
from .dataset import Dataset, NDArrayDataset
from .transforms import RandomCrop, RandomFlipHorizontal, Transform

__all__ = [
    "DataLoader", "Dataset", "NDArrayDataset", "RandomCrop", "RandomFlipHorizontal",
    "Transform", "transforms",
]
