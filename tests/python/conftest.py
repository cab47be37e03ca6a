"""Shared helpers of the Python tests: inputs per dtype, with the special values."""
import numpy as np
import pytest

import selugrad

# name -> (the array dtype that holds it, the keyword selu_backward needs)
HOLDERS = {
    "float32": (np.float32, None),
    "float16": (np.float16, None),
    "bfloat16": (np.uint16, "bfloat16"),
    "int8": (np.int8, None),
    "uint8": (np.uint8, None),
    "int32": (np.int32, None),
}
DTYPE_NAMES = list(HOLDERS)


def f32_bits(x):
    return int(np.array(x, np.float32).view(np.uint32))


def f16_bits(x):
    return int(np.array(x, np.float16).view(np.uint16))


def bf16_from_f32(x):
    """bf16 patterns of float32 values that bf16 holds exactly (the upper halves)."""
    b = np.asarray(x, np.float32).view(np.uint32)
    assert np.all(b & 0xFFFF == 0), "not a bf16 value"
    return (b >> 16).astype(np.uint16)


def bf16_to_f32(b):
    return (np.asarray(b, np.uint16).astype(np.uint32) << 16).view(np.float32)


_SPECIAL_BITS = {
    # +-0, +-min subnormal, +-max subnormal, +-min normal, +-1, +-max, +-inf, quiet NaN,
    # -SA's neighbourhood, near 0 on both sides
    "float32": [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF,
                0x00800000, 0x80800000, 0x3F800000, 0xBF800000, 0x7F7FFFFF, 0xFF7FFFFF,
                0x7F800000, 0xFF800000, 0x7FC00000, 0xBFE10966, 0xBFE10965, 0xBFE10967,
                0x33D6BF95, 0xB3D6BF95],
    "float16": [0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x83FF, 0x0400, 0x8400, 0x3C00, 0xBC00,
                0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0xBF08, 0xBF07, 0xBF09, 0x1400, 0x9400],
    "bfloat16": [0x0000, 0x8000, 0x0001, 0x8001, 0x007F, 0x807F, 0x0080, 0x8080, 0x3F80, 0xBF80,
                 0x7F7F, 0xFF7F, 0x7F80, 0xFF80, 0x7FC0, 0xBFE1, 0xBFE0, 0xBFE2, 0x3400, 0xB400],
}
_INT_EDGES = {
    "int8": [-128, -127, -2, -1, 0, 1, 2, 126, 127],
    "uint8": [0, 1, 2, 127, 128, 254, 255],
    "int32": [-2 ** 31, -2 ** 31 + 1, -2 ** 24 - 1, -2, -1, 0, 1, 2, 2 ** 24 + 1, 2 ** 31 - 1],
}


def make_inputs(name, n, seed):
    """(grad, result) of n elements each for dtype name: random values in a useful range,
    random bit patterns, and every pair of the special values."""
    rng = np.random.default_rng(seed)
    holder, _ = HOLDERS[name]
    if name in _INT_EDGES:
        info = np.iinfo(holder)
        lo, hi = (max(info.min, -100000), min(info.max, 100000)) if name == "int32" else (info.min, info.max)
        g = rng.integers(lo, hi, n, endpoint=True, dtype=np.int64)
        o = rng.integers(lo, hi, n, endpoint=True, dtype=np.int64)
        edges = np.array(_INT_EDGES[name], np.int64)
        gg, oo = np.meshgrid(edges, edges)
        g = np.concatenate([g, gg.ravel(), rng.integers(info.min, info.max, n, endpoint=True)])
        o = np.concatenate([o, oo.ravel(), rng.integers(info.min, info.max, n, endpoint=True)])
        return g.astype(holder), o.astype(holder)
    vals = rng.normal(0.0, 2.0, (2, n)).astype(np.float32)
    if name == "float32":
        g, o = vals
        bits = rng.integers(0, 2 ** 32, (2, n), dtype=np.uint64).astype(np.uint32).view(np.float32)
    elif name == "float16":
        g, o = vals.astype(np.float16)
        bits = rng.integers(0, 2 ** 16, (2, n), dtype=np.uint32).astype(np.uint16).view(np.float16)
    else:
        g, o = (vals.view(np.uint32) >> 16).astype(np.uint16)
        bits = rng.integers(0, 2 ** 16, (2, n), dtype=np.uint32).astype(np.uint16)
    sp = np.array(_SPECIAL_BITS[name], np.uint32 if name == "float32" else np.uint16)
    gg, oo = np.meshgrid(sp, sp)
    if name != "bfloat16":
        gg, oo = gg.view(g.dtype), oo.view(g.dtype)
    return (np.concatenate([g, bits[0], gg.ravel()]).astype(g.dtype),
            np.concatenate([o, bits[1], oo.ravel()]).astype(o.dtype))


def call(name, g, o, **kw):
    """selugrad.selu_backward with the dtype keyword name needs."""
    _, kwd = HOLDERS[name]
    if kwd is not None:
        kw.setdefault("dtype", kwd)
    return selugrad.selu_backward(g, o, **kw)


def same_bits(a, b):
    a, b = np.ascontiguousarray(a), np.ascontiguousarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    return np.array_equal(a.view(np.uint8), b.view(np.uint8))


@pytest.fixture(params=DTYPE_NAMES)
def dtype_name(request):
    return request.param
