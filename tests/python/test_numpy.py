"""selugrad.selu_backward on NumPy arrays: every dtype against the independent model, views,
out=, in place, and the contract's reference values."""
import numpy as np
import pytest

import golden
import selugrad
from conftest import HOLDERS, bf16_from_f32, bf16_to_f32, call, f16_bits, f32_bits, make_inputs, same_bits


def test_model_constants_are_the_contracts():
    # the table of docs/contract.md, "Math": scale and scale*alpha as each format holds them
    assert golden.F32.encode(golden.F32.const(golden.SCALE)) == 0x3F867D5F
    assert golden.F32.encode(golden.F32.const(golden.SA)) == 0x3FE10966
    assert golden.F16.encode(golden.F16.const(golden.SCALE)) == 0x3C34
    assert golden.F16.encode(golden.F16.const(golden.SA)) == 0x3F08
    assert golden.BF16.encode(golden.BF16.const(golden.SCALE)) == 0x3F86
    assert golden.BF16.encode(golden.BF16.const(golden.SA)) == 0x3FE1
    assert abs(golden.SCALE * golden.ALPHA - golden.SA) < 1e-30


O_REF = [-2, -1, -0.5, 0, 0.5, 1, 3]


def test_reference_values_float32():
    o = np.array(O_REF, np.float32)
    y = selugrad.selu_backward(np.ones_like(o), o)
    assert y.dtype == np.float32
    np.testing.assert_array_equal(
        y, np.array([-0.24190068, 0.75809932, 1.2580993, 1.050701, 1.050701, 1.050701, 1.050701],
                    np.float32))


def test_reference_values_float16():
    o = np.array(O_REF, np.float16)
    y = selugrad.selu_backward(np.ones_like(o), o)
    assert y.dtype == np.float16
    assert y.tolist() == [-0.2421875, 0.7578125, 1.2578125] + [1.05078125] * 4
    g = np.array([-0.89990234], np.float16)
    y = selugrad.selu_backward(g, np.array([0.25], np.float16))
    assert y.view(np.uint16)[0] == f16_bits(-0.94580078)  # one rounding would give -0.9453125


def test_reference_values_bfloat16():
    o = bf16_from_f32(np.array(O_REF, np.float32))
    y = selugrad.selu_backward(bf16_from_f32(np.ones(7, np.float32)), o, dtype="bfloat16")
    assert y.dtype == np.uint16
    assert bf16_to_f32(y).tolist() == [-0.2421875, 0.7578125, 1.2578125] + [1.046875] * 4
    y = selugrad.selu_backward(bf16_from_f32([0.30078125]), bf16_from_f32([-0.69921875]),
                               dtype="bf16")
    assert bf16_to_f32(y).tolist() == [0.3203125]


@pytest.mark.parametrize("name,pairs", [
    ("int8", [((1, -2), 0), ((1, -1), 1), ((1, 0), 1), ((10, 5), 11), ((10, -1), 8),
              ((-3, -1), -2), ((127, 3), 127), ((100, -5), -128)]),
    ("int32", [((1, -1), 0), ((1, 0), 1), ((10, 5), 10), ((10, -1), 7), ((127, 3), 133),
               ((2, -1), 1), ((100, -5), -324)]),
])
def test_reference_values_integers(name, pairs):
    holder = HOLDERS[name][0]
    g = np.array([p[0][0] for p in pairs], holder)
    o = np.array([p[0][1] for p in pairs], holder)
    y = selugrad.selu_backward(g, o)
    assert y.dtype == holder
    assert y.tolist() == [p[1] for p in pairs]


def _check_against_model(name, g, o, y):
    want = golden.backward(name, g if name in ("int8", "uint8", "int32") or name == "bfloat16"
                           else golden.bits_of(g, name),
                           o if name in ("int8", "uint8", "int32") or name == "bfloat16"
                           else golden.bits_of(o, name))
    if name in ("int8", "uint8", "int32"):
        assert y.tolist() == want
        return
    got = golden.bits_of(y, name).tolist() if name != "bfloat16" else y.tolist()
    fmt = {"float32": golden.F32, "float16": golden.F16, "bfloat16": golden.BF16}[name]
    bad = []
    for i, (w, b) in enumerate(zip(want, got)):
        if w is None:  # any NaN
            if fmt.decode(b) is not golden.NAN:
                bad.append(i)
        elif w != b:
            bad.append(i)
    assert not bad, f"{len(bad)} mismatches, first at {bad[0]}: g {g[bad[0]]!r} o {o[bad[0]]!r}"


def test_every_dtype_against_the_model(dtype_name):
    g, o = make_inputs(dtype_name, 3000, seed=7)
    _check_against_model(dtype_name, g, o, call(dtype_name, g, o))


@pytest.mark.parametrize("name", ["int8", "uint8"])
def test_every_8bit_pair_against_the_model(name):
    holder = HOLDERS[name][0]
    v = np.arange(256, dtype=np.int64) + (np.iinfo(holder).min)
    g, o = (a.ravel().astype(holder) for a in np.meshgrid(v, v))
    _check_against_model(name, g, o, selugrad.selu_backward(g, o))


def test_ml_dtypes_bfloat16_when_installed():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    g = np.array([1, 1, 0.30078125], ml_dtypes.bfloat16)
    o = np.array([-1, 0, -0.69921875], ml_dtypes.bfloat16)
    y = selugrad.selu_backward(g, o)
    assert y.dtype == g.dtype
    assert y.astype(np.float32).tolist() == [0.7578125, 1.046875, 0.3203125]


def _contiguous_result(name, g, o):
    return call(name, np.array(g, order="C"), np.array(o, order="C"))


VIEWS = {
    "transpose": lambda a: a.reshape(6, 5, 4).transpose(2, 0, 1),
    "reversed": lambda a: a[::-1],
    "step3": lambda a: a[::3],
    "reversed step": lambda a: a.reshape(12, 10)[::-2, ::-3],
    "column": lambda a: a.reshape(12, 10)[:, 3],
    "fortran": lambda a: np.asfortranarray(a.reshape(8, 15)),
    "rank 10": lambda a: a[:96].reshape(2, 2, 2, 2, 2, 3, 1, 1, 1, 1),
    "rank 0": lambda a: a[5].reshape(()),
    "interleaved": lambda a: a.reshape(10, 12)[:, ::2].T,
}


@pytest.mark.parametrize("view", list(VIEWS))
def test_views_equal_contiguous(dtype_name, view):
    g, o = make_inputs(dtype_name, 40, seed=3)
    g, o = g[:120], o[:120]
    gv, ov = VIEWS[view](g), VIEWS[view](o)
    want = _contiguous_result(dtype_name, gv, ov)
    y = call(dtype_name, gv, ov)
    assert y.shape == gv.shape and y.dtype == g.dtype
    assert same_bits(y, want)
    # mixed layouts: grad as a view, result contiguous
    assert same_bits(call(dtype_name, gv, np.array(ov, order="C")), want)


def test_many_short_rows_and_few_long_rows():
    # many runs of 7 (computed on contiguous copies) and few runs of 3000 (one call per run)
    rng = np.random.default_rng(1)
    for shape in [(5000, 14), (4, 6000)]:
        g = rng.normal(size=shape).astype(np.float32)[:, ::2]
        o = rng.normal(size=shape).astype(np.float32).T.copy().T[:, ::2]
        want = selugrad.selu_backward(np.ascontiguousarray(g), np.ascontiguousarray(o))
        assert same_bits(selugrad.selu_backward(g, o), want)


def test_broadcast_inputs():
    g = np.broadcast_to(np.array([2.0], np.float32), (4, 5))  # 0 strides
    o = np.broadcast_to(np.array([-1, 0, 1, -2, 3], np.float32), (4, 5))
    want = selugrad.selu_backward(np.ascontiguousarray(g), np.ascontiguousarray(o))
    assert same_bits(selugrad.selu_backward(g, o), want)


def test_out_argument(dtype_name):
    g, o = make_inputs(dtype_name, 50, seed=5)
    want = call(dtype_name, g, o)
    out = np.empty_like(g)
    assert call(dtype_name, g, o, out=out) is out
    assert same_bits(out, want)
    big = np.zeros((2, g.size), g.dtype)
    view = big[1, ::-1]
    assert call(dtype_name, g[::-1], o[::-1], out=view) is view
    assert same_bits(view, want[::-1])
    assert not big[0].any()


@pytest.mark.parametrize("which", ["grad", "result"])
def test_in_place(dtype_name, which):
    g, o = make_inputs(dtype_name, 50, seed=11)
    want = call(dtype_name, g, o)
    g2, o2 = g.copy(), o.copy()
    target = g2 if which == "grad" else o2
    assert call(dtype_name, g2, o2, out=target) is target
    assert same_bits(target, want)
    # in place on a strided view of a larger array
    big_g, big_o = np.repeat(g, 2).reshape(-1, 2), np.repeat(o, 2).reshape(-1, 2)
    t = (big_g if which == "grad" else big_o)[::-1, 1]
    call(dtype_name, big_g[::-1, 1], big_o[::-1, 1], out=t)
    assert same_bits(t[::-1], want)


def test_out_overlapping_an_input_is_computed_as_if_out_of_place():
    rng = np.random.default_rng(2)
    a = rng.normal(size=101).astype(np.float32)
    o = rng.normal(size=100).astype(np.float32)
    want = selugrad.selu_backward(a[:-1].copy(), o)
    selugrad.selu_backward(a[:-1], o, out=a[1:])  # out is grad shifted by one element
    assert same_bits(a[1:], want)
    b = rng.normal(size=(10, 11)).astype(np.float32)
    want = selugrad.selu_backward(b[:, :10].copy(), b[:, 1:].copy())
    selugrad.selu_backward(b[:, :10], b[:, 1:], out=b[:, 1:].T.T)
    assert same_bits(b[:, 1:], want)


def test_empty_arrays(dtype_name):
    holder = HOLDERS[dtype_name][0]
    for shape in [(0,), (3, 0, 2)]:
        g = np.empty(shape, holder)
        y = call(dtype_name, g, g.copy())
        assert y.shape == shape and y.dtype == holder


def test_unaligned_arrays():
    g = np.linspace(-1, 1, 64, dtype=np.float32)
    buf = np.zeros(64 * 4 + 2, np.uint8)
    un = np.ndarray((64,), np.float32, buf, offset=2)  # misaligned, writable
    un[:] = np.linspace(-3, 3, 64, dtype=np.float32)
    o = np.linspace(-2, 2, 64, dtype=np.float32)
    want = selugrad.selu_backward(un.copy(), o)
    assert same_bits(selugrad.selu_backward(un, o), want)
    out_buf = np.zeros(64 * 4 + 1, np.uint8)
    out = np.ndarray((64,), np.float32, out_buf, offset=1)
    selugrad.selu_backward(g, o, out=out)
    assert same_bits(out, selugrad.selu_backward(g, o))


@pytest.mark.parametrize("name, offset", [("float32", 1), ("float32", 2), ("float32", 3),
                                          ("float16", 1), ("int32", 1), ("int32", 3)])
def test_any_byte_offset(name, offset):
    # np.frombuffer at an offset off the element's alignment: read-only inputs, a writable out,
    # in place, and a strided view, each against the independent model (docs/api.md: any byte
    # address gives the same bits)
    g, o = make_inputs(name, 300, seed=offset)

    def at_offset(a):  # read-only: bytes
        return np.frombuffer(bytes(offset) + a.tobytes(), dtype=a.dtype, offset=offset)

    gu, ou = at_offset(g), at_offset(o)
    assert not gu.flags.aligned and not gu.flags.writeable
    _check_against_model(name, g, o, selugrad.selu_backward(gu, ou))
    out_buf = bytearray(g.nbytes + offset)
    out = np.frombuffer(out_buf, dtype=g.dtype, offset=offset)
    assert out.flags.writeable and not out.flags.aligned
    assert selugrad.selu_backward(g, o, out=out) is out
    _check_against_model(name, g, o, out)
    out[:] = g  # in place on the misaligned array
    assert selugrad.selu_backward(out, ou, out=out) is out
    _check_against_model(name, g, o, out)
    step = at_offset(np.repeat(g, 2))[::2]  # a stride of 2 elements at the odd address
    assert step.strides == (2 * g.itemsize,) and not step.flags.aligned
    _check_against_model(name, g, o, selugrad.selu_backward(step, ou))


def test_threads_setting_does_not_change_bits():
    g, o = make_inputs("float16", 200000, seed=9)
    before = selugrad.get_num_threads()
    try:
        selugrad.set_num_threads(1)
        one = selugrad.selu_backward(g, o)
        selugrad.set_num_threads(2)
        two = selugrad.selu_backward(g, o)
    finally:
        selugrad.set_num_threads(0)
    assert same_bits(one, two)
    assert selugrad.get_num_threads() == before


def test_package_facts():
    assert selugrad.__version__.count(".") == 2
    for name in HOLDERS:
        assert selugrad.kernel_name(name).startswith(selugrad.dtype_of(name).short + "_")
    assert f32_bits(1.0) == 0x3F800000  # the helper the tests use


def test_non_native_byte_order_is_read_and_written_by_value(dtype_name):
    # '>f4' and the like: the values count, not the bytes, as for NumPy's ufuncs; the inputs are
    # read through native copies (so out may be one of them), out gets the values in its order
    g, o = make_inputs(dtype_name, 500, seed=33)
    gb, ob = g.astype(g.dtype.newbyteorder(">")), o.astype(o.dtype.newbyteorder(">"))
    y = call(dtype_name, gb, ob)
    assert y.dtype.isnative
    _check_against_model(dtype_name, g, o, y)
    out = np.zeros(g.shape, g.dtype.newbyteorder(">"))
    assert call(dtype_name, g, o, out=out) is out
    _check_against_model(dtype_name, g, o, out.astype(g.dtype))
    assert call(dtype_name, gb, ob, out=gb) is gb  # in place
    _check_against_model(dtype_name, g, o, gb.astype(g.dtype))


def test_masked_arrays_are_refused():
    # the mask would be lost: the result is a plain array of every element
    m = np.ma.array(np.ones(3, np.float32), mask=[False, True, False])
    f = np.ones(3, np.float32)
    for args, kw, name in (((m, f), {}, "grad"), ((f, m), {}, "result"), ((f, f), {"out": m}, "out")):
        with pytest.raises(TypeError, match=rf"^selu_backward: {name} is a masked array"):
            selugrad.selu_backward(*args, **kw)
    with pytest.raises(TypeError, match=r"^selu: x is a masked array"):
        selugrad.selu(m)
    assert np.array_equal(m.data, f)  # nothing written
