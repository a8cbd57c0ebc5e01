"""Input checks shared by the binary ops: needle never broadcasts or promotes silently."""
import numpy as np


def check_same_shape_and_dtype(op_name: str, a: np.ndarray, b: np.ndarray) -> None:
    if a.shape != b.shape:
        raise ValueError(
            f"{op_name}: shapes {a.shape} and {b.shape} differ. needle does not broadcast "
            f"implicitly (a silent broadcast gives wrong gradients): call "
            f"broadcast_to / reshape explicitly"
        )
    if a.dtype != b.dtype:
        raise ValueError(
            f"{op_name}: dtypes {a.dtype} and {b.dtype} differ; convert one explicitly "
            f"(needle does not promote dtypes silently)"
        )
