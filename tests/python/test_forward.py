"""selugrad.selu (the SELU forward of the C library), where the library has it.

The contract's steps (docs/contract.md, "Forward per-dtype computation"): m = min(x, 0);
e = exp(m); t = (e - 1) * A; t = min(t, 0); y = (max(x, 0) + t) * S, each rounded to nearest
even in fp32, with an exponential within 1 ulp of the true one. So e is the correctly rounded
exp or one of its two fp32 neighbours; the model below computes y for all three (NumPy float32
arithmetic, float64 exp rounded once) and the library's result must be one of them. 16-bit
results: the fp32 y rounded to nearest, ties away from zero; int32: truncated and saturated;
int8: the exact fp16 path.
"""
import numpy as np
import pytest

import selugrad
from conftest import bf16_from_f32, bf16_to_f32, same_bits

pytestmark = pytest.mark.skipif(not selugrad.HAS_FORWARD,
                                reason="the C library has no selugrad_forward")

A = np.uint32(0x3FD62D7D).view(np.float32)
S = np.uint32(0x3F867D5F).view(np.float32)


def model_f32_candidates(x):
    """(3, n) float32: y for e = RN(exp(m)) and its two neighbours."""
    x = np.asarray(x, np.float32)
    with np.errstate(all="ignore"):
        m = np.minimum(x, np.float32(0))
        e0 = np.exp(m.astype(np.float64)).astype(np.float32)
        out = []
        for e in (e0, np.nextafter(e0, np.float32(-1)), np.nextafter(e0, np.float32(2))):
            e = np.where(e0 == 0, e0, e)  # exp rounds to 0 far below: no neighbour below 0
            t = (e - np.float32(1)) * A
            t = np.minimum(t, np.float32(0))
            p = np.maximum(x, np.float32(0))
            out.append((p + t) * S)
    return np.stack(out)


def round_away(v64, p, emin, largest):
    """float64 values rounded to a binary format to nearest, ties away from zero."""
    with np.errstate(all="ignore"):
        _, e = np.frexp(v64)
        q = np.ldexp(1.0, np.maximum(e - 1, emin) - (p - 1))
        r = np.copysign(np.floor(np.abs(v64) / q + 0.5) * q, v64)
        r = np.where(np.abs(r) > largest, np.copysign(np.inf, v64), r)
    return np.where(np.isfinite(v64), r, v64)


def test_float32_is_the_contracts_steps():
    rng = np.random.default_rng(1)
    x = np.concatenate([rng.normal(0, 3, 20000), rng.uniform(-110, 5, 20000),
                        -np.logspace(-30, 2, 2000), np.logspace(-30, 38, 2000)]).astype(np.float32)
    y = selugrad.selu(x)
    assert y.dtype == np.float32
    cand = model_f32_candidates(x)
    ok = np.any(cand.view(np.uint32) == y.view(np.uint32), axis=0)
    assert ok.all(), f"x = {x[~ok][:5]!r}, y = {y[~ok][:5]!r}, model {cand[:, ~ok][:, :5]!r}"
    pos = x > 0
    assert same_bits(y[pos], x[pos] * S)  # exact contract: the positive branch has no exp


def test_float32_specials():
    x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, -200.0], np.float32)
    y = selugrad.selu(x)
    assert y.view(np.uint32)[0] == 0x7FC00000  # the canonical quiet NaN
    assert y[1] == np.inf
    assert y[2] == -A * S and y[5] == -A * S  # e = 0: y = -A * S
    assert y.view(np.uint32)[3] == 0 and y.view(np.uint32)[4] == 0  # -0.0 gives +0.0


@pytest.mark.parametrize("name", ["float16", "bfloat16"])
def test_16bit_every_input(name):
    bits = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    if name == "float16":
        x32 = bits.view(np.float16).astype(np.float32)
        y = selugrad.selu(bits.view(np.float16)).view(np.uint16)
        fmt, nan = (11, -14, 65504.0), 0x7E00
    else:
        x32 = bf16_to_f32(bits)
        y = selugrad.selu(bits, dtype="bfloat16")
        fmt, nan = (8, -126, float.fromhex("0x1.fep+127")), 0x7FC0
    cand = model_f32_candidates(x32).astype(np.float64)
    r = round_away(cand, *fmt)
    if name == "float16":
        cbits = r.astype(np.float16).view(np.uint16)
    else:
        cbits = (r.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    isnan = np.isnan(x32)
    assert (y[isnan] == nan).all()
    ok = np.any(cbits == y, axis=0) | isnan
    assert ok.all(), f"x bits {bits[~ok][:5]}, y {y[~ok][:5]}, model {cbits[:, ~ok][:, :5]}"


def test_int8_every_input_exactly():
    x = np.arange(-128, 128, dtype=np.int64)
    y = selugrad.selu(x.astype(np.int8))
    # positive: fp16_rtz(x * 1.05078125) truncated, i.e. floor(x * 269 / 256), wrapped to int8
    want = np.where(x > 0, (x * 269) // 256, np.where(x < 0, -1, 0))
    want = ((want + 128) % 256) - 128
    assert y.tolist() == want.tolist()
    assert selugrad.selu(np.array([127], np.int8)).tolist() == [-123]


def test_int32():
    x = np.array([-2 ** 31, -5, -1, 0, 1, 2, 100, 2 ** 24 + 1, 2043858111, 2043858112, 2 ** 31 - 1],
                 np.int64)
    y = selugrad.selu(x.astype(np.int32))
    pos = np.trunc(x.astype(np.float32) * S).astype(np.float64)
    want = np.where(x < 0, -1, np.minimum(pos, 2 ** 31 - 1)).astype(np.int64)
    assert y.tolist() == want.tolist()


def test_uint8_is_the_librarys_dtype_error():
    with pytest.raises(TypeError, match=r"^SELUGRAD_ERR_BAD_DTYPE: selugrad_forward"):
        selugrad.selu(np.zeros(4, np.uint8))
    with pytest.raises(TypeError, match=r"^SELUGRAD_ERR_BAD_DTYPE: selugrad_forward"):
        selugrad.selu(np.zeros(0, np.uint8))


@pytest.mark.parametrize("x, dtype", [(np.zeros(3, np.float64), None),
                                      (np.zeros(3, np.complex64), None),
                                      (np.zeros(3, np.float32), "f64")])
def test_refusals_list_the_forwards_dtypes(x, dtype):
    # the forward has no uint8: a refusal's list of what it takes must not offer it
    with pytest.raises(TypeError) as e:
        selugrad.selu(x, dtype=dtype)
    assert "int32" in str(e.value) and "uint8" not in str(e.value), str(e.value)
    with pytest.raises(TypeError) as e:  # SeluGrad's list keeps it
        selugrad.selu_backward(x, x, dtype=dtype)
    assert "uint8" in str(e.value), str(e.value)


def test_views_out_and_in_place():
    rng = np.random.default_rng(2)
    x = rng.normal(0, 2, (30, 40)).astype(np.float32)
    want = selugrad.selu(x)
    assert same_bits(selugrad.selu(x.T), want.T)
    assert same_bits(selugrad.selu(x[::-3, ::2]), want[::-3, ::2])
    out = np.empty((40, 30), np.float32).T
    assert selugrad.selu(x, out=out) is out and same_bits(out, want)
    x2 = x.copy()
    selugrad.selu(x2, out=x2)
    assert same_bits(x2, want)
    xb = bf16_from_f32(np.array([-1.0, 0.5], np.float32))
    assert selugrad.selu(xb, dtype="bf16").dtype == np.uint16
    with pytest.raises(ValueError, match=r"^selu: out shape \(3,\) differs from x shape \(2,\)"):
        selugrad.selu(np.zeros(2, np.float32), out=np.zeros(3, np.float32))


@pytest.mark.parametrize("offset", [1, 2, 3])
def test_float32_at_any_byte_offset(offset):
    # x, out and in place at an address off float32's alignment (docs/api.md: any byte address)
    rng = np.random.default_rng(offset)
    x = np.concatenate([rng.normal(0, 3, 5000), rng.uniform(-110, 5, 5000)]).astype(np.float32)
    cand = model_f32_candidates(x).view(np.uint32)
    xu = np.frombuffer(bytes(offset) + x.tobytes(), np.float32, offset=offset)
    out = np.frombuffer(bytearray(x.nbytes + offset), np.float32, offset=offset)
    assert not xu.flags.aligned and not out.flags.aligned
    for y in (selugrad.selu(xu), selugrad.selu(x, out=out)):
        assert np.any(cand == y.view(np.uint32), axis=0).all()
    out[:] = x
    assert selugrad.selu(out, out=out) is out
    assert np.any(cand == out.view(np.uint32), axis=0).all()


def test_out_returns_the_array_given():
    # NumPy's convention (ufuncs with out=): the out array itself comes back, in place too
    x = np.array([1.0, 2.0, 0.0], np.float32)
    out = np.empty(3, np.float32)
    assert selugrad.selu(x, out=out) is out
    assert selugrad.selu(x, out=x) is x
    assert x.view(np.uint32).tolist() == [0x3F867D5F, 0x40067D5F, 0]
    view = np.zeros(6, np.float32)[::2]
    assert selugrad.selu(np.float32([1, 2, 0]), out=view) is view
    g = np.ones(3, np.float32)
    assert selugrad.selu_backward(g, np.float32([-1, 0, 1]), out=g) is g
    assert g.view(np.uint32).tolist() == [0x3F4212CC, 0x3F867D5F, 0x3F867D5F]


def test_forward_and_backward_compose():
    # for x away from 0, selu_backward(1, selu(x)) is the derivative: scale, or selu(x) + SA
    x = np.linspace(-4, 4, 801, dtype=np.float32)
    x = x[np.abs(x) > 0.01]
    d = selugrad.selu_backward(np.ones_like(x), selugrad.selu(x)).astype(np.float64)
    x64 = x.astype(np.float64)
    scale, alpha = 1.0507009873554804934193349852946, 1.6732632423543772848170429916717
    exact = np.where(x64 > 0, scale, scale * alpha * np.exp(x64))
    np.testing.assert_allclose(d, exact, rtol=0, atol=4e-7 * 4)
