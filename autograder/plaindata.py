"""Plain-data encoding of values crossing the sandbox boundary.

Only None, bools, ints, floats (nan and inf included), strings, lists, string-keyed dicts and
numeric numpy arrays cross. Nothing is unpickled and no object of the student's reaches the
trusted process: whatever the sandbox sends, the grader gets plain data to compare.
"""
from __future__ import annotations

import base64
import json
import math

import numpy as np

MAX_DEPTH = 32
# Values in one message, counted as its commas and opening brackets and braces (one per value,
# one per container). The largest reply of the solutions counts 10,006 (09's order of a graph
# 5,000 steps deep); a wrong walk's order may count a hundred times that. A forged 64 MiB frame
# of "[]," counts 44 million, and decoding it cost the trusted process 2.8 GB and over a minute.
# Arrays cross as one base64 string each.
MAX_VALUES = 1_000_000
ALLOWED_DTYPES = {
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64",
}


class EncodeError(TypeError):
    """A probe produced something that is not plain data."""


class DecodeError(ValueError):
    """The sandbox sent something malformed."""


_INTEGERS = tuple(np.dtype(t).type for t in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"))
_FLOATS = (np.float16, np.float32, np.float64)


def _one_of(kind, types) -> bool:
    """``kind`` is one of ``types``, by identity (no hashing: a metaclass could define it)."""
    for t in types:
        if kind is t:
            return True
    return False


def to_plain(value, depth: int = 0, _type=type, _int=int, _float=float, _len=len, _isfinite=math.isfinite):
    """``value`` as JSON-ready plain data (raises EncodeError for anything else).

    Types are matched exactly (a subclass of int, str or ndarray is refused), so encoding never
    calls a method of an object the student's code made: what crosses is plain data, whoever
    encoded it."""
    if depth > MAX_DEPTH:
        raise EncodeError("value nested too deeply")
    kind = _type(value)
    if value is None or kind is bool or kind is str:
        return value
    if kind is _int or _one_of(kind, _INTEGERS):
        return _int(value)
    if kind is np.bool_:
        return bool(value)
    if kind is _float or _one_of(kind, _FLOATS):
        value = _float(value)
        return value if _isfinite(value) else {"__float__": repr(value)}
    if kind is np.ndarray:
        dtype = value.dtype.name
        if dtype not in ALLOWED_DTYPES:
            raise EncodeError(f"array of dtype {dtype}")
        data = np.ascontiguousarray(value).tobytes()
        return {"__ndarray__": base64.b64encode(data).decode("ascii"), "dtype": dtype, "shape": [_int(n) for n in value.shape]}
    if kind is list or kind is tuple:
        return [to_plain(v, depth + 1) for v in value]
    if kind is dict:
        out = {}
        for k, v in value.items():
            if _type(k) is not str or k.startswith("__"):
                raise EncodeError("dict keys must be plain strings")
            out[k] = to_plain(v, depth + 1)
        return out
    raise EncodeError("value of an unexpected type")


def from_plain(value, depth: int = 0):
    """Inverse of ``to_plain``; validates everything it rebuilds."""
    if depth > MAX_DEPTH:
        raise DecodeError("value nested too deeply")
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return [from_plain(v, depth + 1) for v in value]
    if isinstance(value, dict):
        if "__float__" in value:
            text = value["__float__"]
            if text not in ("nan", "inf", "-inf"):
                raise DecodeError("bad float")
            return float(text)
        if "__ndarray__" in value:
            return _array(value)
        return {str(k): from_plain(v, depth + 1) for k, v in value.items()}
    raise DecodeError(f"unexpected JSON value {type(value).__name__}")


def _array(spec: dict) -> np.ndarray:
    dtype, shape = spec.get("dtype"), spec.get("shape")
    if dtype not in ALLOWED_DTYPES or not isinstance(shape, list):
        raise DecodeError("bad array header")
    if not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n for n in shape) or len(shape) > 32:
        raise DecodeError("bad array shape")
    try:
        data = base64.b64decode(spec["__ndarray__"], validate=True)
    except Exception:
        raise DecodeError("bad array data") from None
    dt = np.dtype(dtype)
    if len(data) != dt.itemsize * math.prod(shape):
        raise DecodeError("array size does not match its shape")
    return np.frombuffer(data, dtype=dt).reshape(shape).copy()


def dumps(value) -> bytes:
    return json.dumps(value, allow_nan=False, separators=(",", ":")).encode("utf-8")


def loads(data: bytes):
    if data.count(b",") + data.count(b"[") + data.count(b"{") > MAX_VALUES:
        raise DecodeError("message holds too many values")
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise DecodeError("malformed message") from None
