"""The lecture's example models, built from needle.nn: a one-parameter-pair ``ScaleAdd`` and
``MultiPathScaleAdd``, two of them added (its gradient reaches each path's parameters).

    h = ScaleAdd(s, b)(x) = x * s + b
    h = MultiPathScaleAdd()(x) = (x * s0 + b0) + (x * s1 + b1)
"""
from __future__ import annotations

from .nn import Module, Parameter


class ScaleAdd(Module):
    """x * s + b, with Parameters s = [init_s] and b = [init_b] (float32)."""

    def __init__(self, init_s=1.0, init_b=0.0):
        super().__init__()
        self.s = Parameter([init_s], dtype="float32")
        self.b = Parameter([init_b], dtype="float32")

    def forward(self, x):
        return x * self.s + self.b


class MultiPathScaleAdd(Module):
    """path0(x) + path1(x), two ScaleAdds: d h / d s_i = x, d h / d b_i = 1 on each path."""

    def __init__(self):
        super().__init__()
        self.path0 = ScaleAdd()
        self.path1 = ScaleAdd()

    def forward(self, x):
        return self.path0(x) + self.path1(x)
