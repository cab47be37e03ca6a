"""Property tests (hypothesis): for random dtypes, shapes, strides and values, with the special
values mixed in, selu_backward on views equals the C library called on contiguous copies."""
import ctypes

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import selugrad
from conftest import HOLDERS, same_bits

_LIB = ctypes.CDLL(selugrad._lib._PATH)  # the library itself, declared here independently
_LIB.selugrad_backward.restype = ctypes.c_int
_LIB.selugrad_backward.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_void_p,
                                   ctypes.c_void_p, ctypes.c_void_p]
_CODE = {"float32": 0, "float16": 1, "int8": 2, "int32": 3, "uint8": 4, "bfloat16": 27}


def c_call(name, g, o):
    """The C API's contiguous entry point on contiguous copies."""
    g, o = np.array(g, order="C"), np.array(o, order="C")
    y = np.empty_like(g)
    assert _LIB.selugrad_backward(_CODE[name], g.size, g.ctypes.data, o.ctypes.data,
                                  y.ctypes.data) == 0
    return y


def _elements(name):
    holder = HOLDERS[name][0]
    if name in ("float32", "float16"):
        return hnp.from_dtype(np.dtype(holder), allow_nan=True, allow_infinity=True,
                              allow_subnormal=True)
    return hnp.from_dtype(np.dtype(holder))  # integers; bf16: every 16-bit pattern


@st.composite
def view_cases(draw):
    name = draw(st.sampled_from(list(HOLDERS)))
    holder = HOLDERS[name][0]
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=7))
    # base arrays twice as large in every dim, then a view: a step (maybe negative) per dim
    steps = [draw(st.sampled_from([1, 2, -1, -2])) for _ in shape]
    base_shape = tuple(2 * n + 1 for n in shape)
    bases = [draw(hnp.arrays(holder, base_shape, elements=_elements(name))) for _ in range(2)]
    index = tuple(slice(None, None, s) for s in steps) + (Ellipsis,)
    views = []
    for b in bases:
        v = b[index][tuple(slice(0, n) for n in shape) + (Ellipsis,)]
        if len(shape) >= 2 and draw(st.booleans()):
            perm = draw(st.permutations(range(len(shape))))
            v = np.ascontiguousarray(v.transpose(perm)).transpose(np.argsort(perm))
        views.append(v)
    assert views[0].shape == tuple(shape)
    return name, views[0], views[1], draw(st.sampled_from(["new", "out", "strided out"]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(view_cases())
def test_views_equal_the_c_call_on_contiguous_copies(case):
    name, g, o, how = case
    want = c_call(name, g, o)
    kw = {"dtype": "bfloat16"} if name == "bfloat16" else {}
    if how == "new":
        y = selugrad.selu_backward(g, o, **kw)
    else:
        big = np.zeros(tuple(2 * n + 1 for n in g.shape), g.dtype)
        first = tuple(slice(0, n) for n in g.shape) + (Ellipsis,)
        out = big[first] if how == "out" else \
            big[tuple(slice(None, None, -2) for _ in g.shape) + (Ellipsis,)][first]
        y = selugrad.selu_backward(g, o, out=out, **kw)
        assert y is out
    assert y.shape == g.shape and y.dtype == g.dtype
    assert same_bits(y, want.reshape(g.shape))


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(list(HOLDERS)), st.integers(1, 5000), st.data())
def test_in_place_equals_the_c_call(name, n, data):
    holder = HOLDERS[name][0]
    g = data.draw(hnp.arrays(holder, n, elements=_elements(name)))
    o = data.draw(hnp.arrays(holder, n, elements=_elements(name)))
    want = c_call(name, g, o)
    kw = {"dtype": "bfloat16"} if name == "bfloat16" else {}
    selugrad.selu_backward(g, o, out=o, **kw)
    assert same_bits(o, want)
