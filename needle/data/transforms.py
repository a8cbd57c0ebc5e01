"""Random data augmentation of one image, an (H, W, C) numpy array (dlsys hw2's transforms).

Randomness comes from numpy's global generator, so ``np.random.seed(s)`` reproduces it.
"""
import numpy as np


def _check_image(name: str, img: np.ndarray) -> None:
    if np.ndim(img) != 3:
        raise ValueError(
            f"{name} expects an image of shape (H, W, C), got shape {np.shape(img)} "
            f"(add a channel axis to a grayscale image: img.reshape(H, W, 1))"
        )


class Transform:
    """A callable from one sample (an image) to a transformed one."""

    def __call__(self, x):
        raise NotImplementedError(f"{type(self).__name__} must define __call__")


class RandomFlipHorizontal(Transform):
    """Mirror the image left-right (reverse the W axis) with probability ``p``."""

    def __init__(self, p: float = 0.5):
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"RandomFlipHorizontal: p must be a probability in [0, 1], got {p}")
        self.p = p

    def __call__(self, img: np.ndarray) -> np.ndarray:
        _check_image("RandomFlipHorizontal", img)
        flip = np.random.rand() < self.p  # one draw per call, as dlsys: seeds reproduce its tests
        return np.flip(img, axis=1) if flip else img


class RandomCrop(Transform):
    """Shift the image by (dx, dy) drawn uniformly from [-padding, padding]^2, filling with 0:
    out[i, j] = img[i + dx, j + dy] where that pixel exists, else 0 (zero-pad by ``padding``,
    then crop back to H x W)."""

    def __init__(self, padding: int = 3):
        if not isinstance(padding, (int, np.integer)) or isinstance(padding, bool) or padding < 0:
            raise ValueError(f"RandomCrop: padding must be a non-negative integer, got {padding!r}")
        self.padding = int(padding)

    def __call__(self, img: np.ndarray) -> np.ndarray:
        _check_image("RandomCrop", img)
        p = self.padding
        shift_x, shift_y = np.random.randint(low=-p, high=p + 1, size=2)
        h, w = img.shape[:2]
        padded = np.pad(img, ((p, p), (p, p), (0, 0)))
        return padded[p + shift_x : p + shift_x + h, p + shift_y : p + shift_y + w, :]
