"""Element-wise arithmetic: tensor-tensor and tensor-scalar.

Each op is its forward value plus its chain rule; the adjoint of an input is
``out_grad`` times the partial derivative of the output with respect to it.

A scalar op keeps the tensor's dtype: its scalar (a Python or numpy number) is stored as a
Python number and applied as a number of the tensor's dtype (see ``scalar_like``).
"""
from ..autograd import TensorOp, as_scalar
from ._checks import mismatch, scalar_like


class EWiseAdd(TensorOp):
    """a + b;  d/da = 1, d/db = 1."""

    def compute(self, a, b):
        if a.shape != b.shape or a.dtype != b.dtype:
            mismatch("add", a, b)
        return a + b

    def gradient(self, out_grad, node):
        return out_grad, out_grad


def add(a, b):
    return EWiseAdd()(a, b)


class AddScalar(TensorOp):
    """a + c;  d/da = 1."""

    def __init__(self, scalar):
        self.scalar = as_scalar(scalar, "add_scalar")

    def compute(self, a):
        return a + scalar_like("add_scalar", a, self.scalar)

    def gradient(self, out_grad, node):
        return out_grad


def add_scalar(a, scalar):
    return AddScalar(scalar)(a)


class EWiseMul(TensorOp):
    """a * b;  d/da = b, d/db = a."""

    def compute(self, a, b):
        if a.shape != b.shape or a.dtype != b.dtype:
            mismatch("multiply", a, b)
        return a * b

    def gradient(self, out_grad, node):
        a, b = node.inputs
        # Like torch's ctx.needs_input_grad: a constant factor (a mask) needs no adjoint.
        return (out_grad * b if a.requires_grad else None), (out_grad * a if b.requires_grad else None)


def multiply(a, b):
    return EWiseMul()(a, b)


class MulScalar(TensorOp):
    """a * c;  d/da = c."""

    def __init__(self, scalar):
        self.scalar = as_scalar(scalar, "mul_scalar")

    def compute(self, a):
        return a * scalar_like("mul_scalar", a, self.scalar)

    def gradient(self, out_grad, node):
        return out_grad * self.scalar


def mul_scalar(a, scalar):
    return MulScalar(scalar)(a)


class EWisePow(TensorOp):
    """a ** b;  d/da = b a^(b-1), d/db = a^b log a."""

    def compute(self, a, b):
        if a.shape != b.shape or a.dtype != b.dtype:
            mismatch("power", a, b)
        return a**b

    def gradient(self, out_grad, node):
        a, b = node.inputs
        # Skip d/db for a constant exponent: log(a) would be nan for a negative base.
        grad_a = out_grad * b * a ** (b - 1) if a.requires_grad else None
        return grad_a, (out_grad * node * log(a) if b.requires_grad else None)


def power(a, b):
    return EWisePow()(a, b)


class PowerScalar(TensorOp):
    """a ** c for a number c;  d/da = c a^(c-1)."""

    def __init__(self, scalar):
        self.scalar = as_scalar(scalar, "power_scalar")

    def compute(self, a):
        if a.dtype.kind in "iu" and self.scalar < 0:
            raise ValueError(
                f"power_scalar: negative powers of a tensor of dtype {a.dtype} are fractions; "
                f"convert the tensor to a float dtype first"
            )
        return a ** scalar_like("power_scalar", a, self.scalar)

    def gradient(self, out_grad, node):
        if self.scalar == 0:  # a^0 = 1 everywhere: avoid 0 * a^-1 = nan at a = 0
            return out_grad * 0
        a = node.inputs[0]
        return out_grad * (a ** (self.scalar - 1) * self.scalar)


def power_scalar(a, scalar):
    return PowerScalar(scalar)(a)


class EWiseDiv(TensorOp):
    """a / b;  d/da = 1/b, d/db = -a/b^2."""

    def compute(self, a, b):
        if a.shape != b.shape or a.dtype != b.dtype:
            mismatch("divide", a, b)
        return a / b

    def gradient(self, out_grad, node):
        a, b = node.inputs
        grad_a = out_grad / b
        return grad_a, (-grad_a * a / b if b.requires_grad else None)


def divide(a, b):
    return EWiseDiv()(a, b)


class DivScalar(TensorOp):
    """a / c;  d/da = 1/c."""

    def __init__(self, scalar):
        self.scalar = as_scalar(scalar, "divide_scalar")

    def compute(self, a):
        if a.dtype.kind != "f":  # true division of integers gives fractions
            raise ValueError(
                f"divide_scalar: dividing a tensor of dtype {a.dtype} would change its dtype (needle "
                f"does not promote dtypes silently); convert the tensor to a float dtype first"
            )
        return a / scalar_like("divide_scalar", a, self.scalar)

    def gradient(self, out_grad, node):
        return out_grad / self.scalar


def divide_scalar(a, scalar):
    return DivScalar(scalar)(a)


class Negate(TensorOp):
    """-a;  d/da = -1."""

    def compute(self, a):
        return -a

    def gradient(self, out_grad, node):
        return -out_grad


def negate(a):
    return Negate()(a)


from .nonlinear import log  # noqa: E402  (EWisePow's gradient uses log)
