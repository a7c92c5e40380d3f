"""Plain data across the process boundary: JSON with tags for tuples, sets, bytes and the like.

The decoder only ever builds builtin values (and, for arrays, numpy arrays), so whatever the
solution process sends, the test process compares values with honest builtin equality.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from typing import Any

MAX_ITEMS = 1_000_000  # an iterator returned by the solution is materialized up to this length
TAG = "__t"


class Unencodable(TypeError):
    """A value that is not plain data."""


def encode(value: Any, ref: Callable[[Any], int] | None = None) -> Any:
    """`value` as JSON-ready data; objects go through `ref` (a handle) when given, else raise."""
    t = type(value)
    if value is None or t in (bool, int, str):
        return value
    if t is float:
        return value if math.isfinite(value) else {TAG: "float", "v": repr(value)}
    if t is list:
        return [encode(v, ref) for v in value]
    if isinstance(value, tuple):  # namedtuples compare equal to tuples
        return {TAG: "tuple", "v": [encode(v, ref) for v in value]}
    if isinstance(value, dict):
        return {TAG: "dict", "v": [[encode(k, ref), encode(v, ref)] for k, v in value.items()]}
    if isinstance(value, (set, frozenset)):
        return {
            TAG: type(value).__name__ if t in (set, frozenset) else "set",
            "v": [encode(v, ref) for v in value],
        }
    if isinstance(value, (bytes, bytearray)):
        return {TAG: "bytes", "v": bytes(value).decode("latin-1")}
    if t is complex:
        return {TAG: "complex", "v": [repr(value.real), repr(value.imag)]}
    if isinstance(value, (bool, int)):
        return int(value)
    if isinstance(value, float):
        return encode(float(value))
    if isinstance(value, str):
        return str(value)
    if isinstance(value, list):
        return [encode(v, ref) for v in value]
    numpy = _numpy_value(value)
    if numpy is not None:
        return numpy
    if isinstance(value, Iterator):  # a generator: the tests can still iterate over it
        items = []
        for item in value:
            items.append(encode(item, ref))
            if len(items) > MAX_ITEMS:
                raise Unencodable("the iterator returned by the solution is too long")
        return {TAG: "iter", "v": items}
    if ref is not None:
        return {TAG: "ref", "id": ref(value), "repr": _short_repr(value)}
    raise Unencodable(f"a {t.__name__} is not plain data")


def _numpy_value(value: Any) -> Any:
    module = type(value).__module__ or ""
    if not module.startswith("numpy"):
        return None
    if hasattr(value, "tolist") and hasattr(value, "dtype") and hasattr(value, "shape"):
        if value.shape == ():
            return encode(value.item())
        return {TAG: "ndarray", "v": encode(value.tolist()), "dtype": str(value.dtype)}
    return None


def _short_repr(value: Any) -> str:
    try:
        return repr(value)[:200]
    except Exception:
        return f"<{type(value).__name__}>"


def decode(data: Any, ref: Callable[[int, str], Any] | None = None) -> Any:
    """Builtin values from `encode`'s output; a handle becomes `ref(id, repr)`."""
    if isinstance(data, list):
        return [decode(v, ref) for v in data]
    if not isinstance(data, dict):
        return data if data is None or type(data) in (bool, int, float, str) else None
    tag, v = data.get(TAG), data.get("v", [])
    v = v if v is not None else []
    if tag == "tuple":
        return tuple(decode(x, ref) for x in v)
    if tag == "dict":
        return {_hashable(decode(k, ref)): decode(x, ref) for k, x in v}
    if tag in ("set", "frozenset"):
        items = (_hashable(decode(x, ref)) for x in v)
        return set(items) if tag == "set" else frozenset(items)
    if tag == "bytes":
        return str(v).encode("latin-1")
    if tag == "float":
        return float(str(v))
    if tag == "complex":
        return complex(float(v[0]), float(v[1]))
    if tag == "iter":
        return iter([decode(x, ref) for x in v])
    if tag == "ndarray":
        import numpy

        return numpy.array(decode(v, ref), dtype=str(data.get("dtype")))
    if tag == "ref" and ref is not None:
        return ref(int(data["id"]), str(data.get("repr", "")))
    raise ValueError(f"malformed value from the solution process: {str(data)[:100]}")


def _hashable(value: Any) -> Any:
    hash(value)
    return value


def dumps(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def loads(line: bytes) -> dict[str, Any]:
    message = json.loads(line)
    if not isinstance(message, dict):
        raise ValueError("malformed message")
    return message
