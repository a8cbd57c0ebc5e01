"""Input checks shared by the ops: needle never broadcasts or promotes silently."""
import numpy as np


def mismatch(op_name: str, a: np.ndarray, b: np.ndarray) -> None:
    """Raise the error for operands whose shapes or dtypes differ (the ops test
    ``a.shape != b.shape or a.dtype != b.dtype`` inline: this runs for every binary op)."""
    if a.shape != b.shape:
        raise ValueError(
            f"{op_name}: shapes {a.shape} and {b.shape} differ. needle does not broadcast "
            f"implicitly (a silent broadcast gives wrong gradients): call "
            f"broadcast_to / reshape explicitly"
        )
    raise ValueError(
        f"{op_name}: dtypes {a.dtype} and {b.dtype} differ; convert one explicitly "
        f"(needle does not promote dtypes silently)"
    )


# NumPy 2 applies a Python number at the array's dtype (NEP 50's weak scalars).
WEAK_PYTHON_SCALARS = np.lib.NumpyVersion(np.__version__) >= "2.0.0"


def scalar_like(op_name: str, a: np.ndarray, scalar):
    """The Python number ``scalar`` as a numpy scalar of ``a``'s dtype (on NumPy 2, for a float
    tensor, the number itself), so that ``a (op) scalar`` keeps that dtype on every numpy: NumPy 1.x promotes by value (float32 * 1e300 is float64,
    int32 + 2**40 is int64), NumPy 2 by type (float32 * np.float64(0.5) is float64).

    A float tensor takes any number (rounded to its dtype, as float32 arithmetic would); an
    integer tensor only integers that fit in it. Anything else would change the dtype.
    """
    kind = a.dtype.kind
    if kind == "f":
        # On NumPy 2 the Python number itself keeps the dtype, and costs less than a conversion.
        return scalar if WEAK_PYTHON_SCALARS else a.dtype.type(scalar)
    if kind in "iu" and isinstance(scalar, int):
        info = np.iinfo(a.dtype)
        if info.min <= scalar <= info.max:
            return a.dtype.type(scalar)
    raise ValueError(
        f"{op_name}: the scalar {scalar!r} would change the dtype of a tensor of dtype {a.dtype} "
        f"or overflow it (needle does not promote dtypes silently); convert the tensor first, "
        f"e.g. needle.Tensor(t, dtype=\"float32\")"
    )
