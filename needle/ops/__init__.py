"""needle's operators: each a class with ``compute`` (numpy) and ``gradient`` (ops),
plus a lowercase function that applies it."""
from .arithmetic import (
    AddScalar, DivScalar, EWiseAdd, EWiseDiv, EWiseMul, EWisePow, MulScalar, Negate,
    PowerScalar, add, add_scalar, divide, divide_scalar, multiply, mul_scalar, negate,
    power, power_scalar,
)
from .logsumexp import LogSoftmax, LogSoftmaxBackward, LogSumExp, logsoftmax, logsoftmax_backward, logsumexp
from .matmul import MatMul, matmul
from .nonlinear import Exp, Log, ReLU, exp, log, relu
from .shape import BroadcastTo, Reshape, Summation, Transpose, broadcast_to, reshape, summation, transpose
from .tuple import (
    FusedAddScalars, MakeTensorTuple, TupleGetItem, fused_add_scalars, make_tuple,
    tuple_get_item,
)

__all__ = [
    "AddScalar", "DivScalar", "EWiseAdd", "EWiseDiv", "EWiseMul", "EWisePow", "MulScalar",
    "Negate", "PowerScalar", "add", "add_scalar", "divide", "divide_scalar", "multiply",
    "mul_scalar", "negate", "power", "power_scalar",
    "LogSoftmax", "LogSoftmaxBackward", "LogSumExp", "logsoftmax", "logsoftmax_backward", "logsumexp",
    "MatMul", "matmul",
    "Exp", "Log", "ReLU", "exp", "log", "relu",
    "BroadcastTo", "Reshape", "Summation", "Transpose", "broadcast_to", "reshape",
    "summation", "transpose",
    "FusedAddScalars", "MakeTensorTuple", "TupleGetItem", "fused_add_scalars", "make_tuple",
    "tuple_get_item",
]
