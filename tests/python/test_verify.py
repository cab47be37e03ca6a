"""selugrad.verify and selugrad.load_npu_dump: fabricated NPU dumps, as a user would check them."""
import warnings

import numpy as np
import pytest

import selugrad
from conftest import bf16_from_f32, f16_bits, make_inputs


def _case(dtype=np.float16, shape=(4, 8, 16), seed=0):
    rng = np.random.default_rng(seed)
    g = rng.normal(0, 1, shape).astype(dtype)
    o = rng.normal(0, 1, shape).astype(dtype)
    return g, o, selugrad.selu_backward(g, o)


def test_bit_exact_result_passes():
    g, o, y = _case()
    r = selugrad.verify(y, g, o)
    assert (r.passed, r.bit_exact, r.precision_ok, r.mismatches, r.max_ulp) == (True, True, True, 0, 0)
    assert r.first == [] and r.hints == []
    assert r.shape == (4, 8, 16) and r.size == 512 and r.dtype is selugrad.float16
    text = repr(r)
    assert text.splitlines()[0] == "selugrad.verify: f16, shape 4x8x16, 512 elements"
    assert "bit-exact: PASS, 0 mismatching elements" in text
    assert text.splitlines()[-1] == "verdict: PASS: bit-identical to the NPU kernel's result"


def test_three_corrupted_elements_are_found_with_their_distance():
    g, o, y = _case()
    bad = y.copy()
    flat = bad.reshape(-1).view(np.uint16)
    flat[17] += 1  # 1 ulp (same sign direction: the magnitude grows by one unit)
    flat[200] += 3
    flat[511] ^= 0x8000  # the sign
    r = selugrad.verify(bad, g, o)
    assert r.mismatches == 3 and not r.bit_exact and not r.passed
    assert [m.index for m in r.first] == [17, 200, 511]
    assert r.first[0].multi_index == (0, 1, 1) and r.first[2].multi_index == (3, 7, 15)
    assert [m.ulp for m in r.first[:2]] == [1.0, 3.0]
    e = int(y.reshape(-1).view(np.uint16)[511]) & 0x7FFF
    assert r.first[2].ulp == 2 * e  # from +v to -v through zero
    assert r.max_ulp == 2 * e
    m = r.first[0]
    assert m.expected_bits == int(y.reshape(-1).view(np.uint16)[17])
    assert m.actual_bits == m.expected_bits + 1
    assert m.grad == float(g.reshape(-1)[17]) and m.result == float(o.reshape(-1)[17])
    text = repr(r)
    assert "bit-exact: FAIL, 3 mismatching elements, largest distance" in text
    assert f"  [17] (0,1,1) gradOutput " in text and ", 1 ulp" in text
    assert text.splitlines()[-1].startswith("verdict: FAIL: 3 of 512 elements are not the NPU "
                                            "kernel's bits")


def test_one_ulp_error_passes_the_standard_but_not_the_verdict():
    g = np.array([1.0], np.float32)
    o = np.array([0.5], np.float32)
    y = selugrad.selu_backward(g, o)
    bad = y.copy()
    bad.view(np.uint32)[0] += 1
    r = selugrad.verify(bad, g, o)
    assert (r.bit_exact, r.precision_ok, r.passed, r.max_ulp) == (False, True, False, 1.0)
    assert r.verdict == ("FAIL: 1 of 1 elements are not the NPU kernel's bits (largest distance "
                         "1 ulp); the precision standard passes")
    # relative error of one fp32 ulp of 1.050701 against the rounded golden
    assert r.mare == pytest.approx(2.0 ** -23 / (1.0507010221 + 1e-7), rel=1e-6)
    assert r.mare_index == 0


def test_precision_failure_and_specials():
    g = np.array([1, 1, 1, 1], np.float16)
    o = np.array([1, -1, 0.5, 2], np.float16)
    y = selugrad.selu_backward(g, o)
    bad = y.copy()
    bad[1] = np.float16(0.5)  # far off
    bad[2] = np.float16(np.nan)  # NaN against a number
    r = selugrad.verify(bad, g, o)
    assert r.mismatches == 2 and not r.precision_ok and r.special_bad == 1
    assert r.max_ulp == np.inf
    assert r.mare_index == 1
    assert "NaN against a number" in repr(r)
    assert r.verdict.endswith("the precision standard fails too")


def test_integer_dtypes_are_exact_or_fail():
    g = np.array([1, 10, 127], np.int8)
    o = np.array([-1, -1, 3], np.int8)
    y = selugrad.selu_backward(g, o)
    assert y.tolist() == [1, 8, 127]
    r = selugrad.verify(y, g, o)
    assert r.passed and "integer results unequal to the exact result: 0" in repr(r)
    bad = y.copy()
    bad[1] = 9
    r = selugrad.verify(bad, g, o)
    assert (r.mismatches, r.special_bad, r.max_ulp, r.precision_ok) == (1, 1, 1.0, False)
    assert "[1] (1) gradOutput 10 result -1 expected 8 got 9, 1 ulp" in repr(r)


def test_hint_result_and_gradinput_swapped():
    g, o, y = _case(np.float32, (512,), seed=1)
    r = selugrad.verify(o, g, y)  # gradInput passed as result and the other way round
    assert r.mismatches > 400
    assert any(h.startswith("512 of 512 elements match with result and actual (gradInput) "
                            "exchanged") for h in r.hints), r.hints


def test_hint_grad_and_result_swapped():
    g, o, y = _case(np.float32, (512,), seed=2)
    r = selugrad.verify(selugrad.selu_backward(o, g), g, o)
    assert any("grad (gradOutput) and result exchanged" in h for h in r.hints), r.hints


def test_hint_float16_data_read_as_bfloat16():
    g, o, y = _case(np.float16, (4, 8, 16), seed=3)
    bits = [a.view(np.uint16) for a in (y, g, o)]
    r = selugrad.verify(*bits, dtype="bfloat16")  # the CLI's reading of a '<u2' dump
    assert r.mismatches > 256
    assert any(h.startswith("512 of 512 elements match with the data read as float16 "
                            "(dtype='float16')") for h in r.hints), r.hints
    assert selugrad.verify(*bits, dtype="float16").passed


def test_hint_float32_math_rounded_once():
    g, o = make_inputs("float16", 2000, seed=4)
    g, o = g[:2000], o[:2000]
    ok = np.isfinite(g) & np.isfinite(o)
    g, o = g[ok], o[ok]
    with np.errstate(all="ignore"):
        g32, o32 = g.astype(np.float32), o.astype(np.float32)
        once = np.where(o32 < 0, g32 * (o32 + np.float32(1.7580993408473768)),
                        g32 * np.float32(1.0507009873554805)).astype(np.float16)
    r = selugrad.verify(once, g, o)
    assert r.mismatches > 50
    assert any("float32 math rounded once" in h for h in r.hints), r.hints


def test_hint_pytorch_branch_at_zero():
    g = np.array([1, 2, -3, 1], np.float32)
    o = np.array([0, -0.0, 0, 1], np.float32)
    torch_like = np.where(o <= 0, g * (o + np.float32(1.7580993408473768)),
                          g * np.float32(1.0507009873554805)).astype(np.float32)
    r = selugrad.verify(torch_like, g, o)
    assert r.mismatches == 3
    assert any(h.startswith("3 of the 3 mismatches are where result is 0 or -0.0") for h in r.hints)


def test_hint_every_element_differs():
    g = np.array([1, 2], np.float32)
    o = np.array([1, 2], np.float32)
    r = selugrad.verify(np.array([7, 9], np.float32), g, o)
    assert r.hints == ["every element differs: check the dtype and which array is gradOutput "
                       "(grad), result and gradInput (actual)"]


def test_show_and_to_dict():
    g, o, y = _case(np.float32, (100,), seed=5)
    bad = y + np.float32(1)
    r = selugrad.verify(bad, g, o, show=2)
    assert len(r.first) == 2 and r.mismatches == 100
    assert "  ... 98 more" in repr(r)
    d = r.to_dict()
    assert d["dtype"] == "float32" and d["mismatches"] == 100 and len(d["first"]) == 2
    assert d["first"][0]["index"] == 0
    with pytest.raises(ValueError, match="show must be a whole number"):
        selugrad.verify(bad, g, o, show=-1)


def test_verify_argument_errors():
    g, o, y = _case(np.float32, (10,))
    with pytest.raises(ValueError, match=r"^verify: grad shape \(9,\) differs from actual shape"):
        selugrad.verify(y, g[:9], o)
    with pytest.raises(TypeError, match=r"^verify: result dtype float16 differs"):
        selugrad.verify(y, g, o.astype(np.float16))


def test_bfloat16_report_values():
    g = bf16_from_f32(np.array([1.0, 0.30078125], np.float32))
    o = bf16_from_f32(np.array([-1.0, -0.69921875], np.float32))
    y = selugrad.selu_backward(g, o, dtype="bfloat16")
    bad = y.copy()
    bad[1] += 2
    r = selugrad.verify(bad, g, o, dtype="bfloat16")
    m = r.first[0]
    assert (m.index, m.expected, m.expected_bits, m.ulp) == (1, 0.3203125, 0x3EA4, 2.0)
    assert "expected 0.3203125 (0x3EA4) got" in repr(r)


def test_zero_dimensional_arrays_of_every_dtype():
    # rank 0 is one element (as aclnn's scalar tensors): g = 1, o = 1 gives g * scale, which
    # is 0x3F867D5F in float32, 0x3C34 in float16, 0x3F86 in bfloat16 and 1 for the integers
    for dt, one, want, name in ((np.float32, np.float32(1), 0x3F867D5F, None),
                                (np.float16, np.float16(1), 0x3C34, None),
                                (np.uint16, np.uint16(0x3F80), 0x3F86, "bfloat16"),
                                (np.int8, np.int8(1), 1, None), (np.uint8, np.uint8(1), 1, None),
                                (np.int32, np.int32(1), 1, None)):
        g = np.array(one, dt)
        y = np.array(want, np.uint32).astype(np.uint16 if np.dtype(dt).itemsize == 2 else dt)
        if dt == np.float32:
            y = np.array(want, np.uint32).view(np.float32)
        elif dt == np.float16:
            y = y.view(np.float16)
        r = selugrad.verify(y, g, g, dtype=name)
        assert r.shape == () and r.size == 1 and r.passed, repr(r)
        off = y.reshape(1).copy()
        off.view(np.uint8)[0] ^= 1  # the lowest bit (little-endian): 1 ulp, or 1 -> 0
        off = off.reshape(())
        r = selugrad.verify(off, g, g, dtype=name)
        assert r.mismatches == 1 and r.max_ulp == 1 and not r.bit_exact, repr(r)


def test_signalling_nans_in_a_dump_give_no_warning():
    # an NPU dump may hold signalling NaNs; reading them is no floating-point error of the user's
    g = np.float32([1.0, 1.0])
    o = np.float32([-1.0, 1.0])
    for dt, bits, name in ((np.uint32, [0x7F800001, 0x3F867D5F], None),
                           (np.uint16, [0x7C01, 0x3C34], None), (np.uint16, [0x7F81, 0x3F86], "bf16")):
        ref = {None: np.float32 if dt == np.uint32 else np.float16}.get(name, np.uint16)
        gg, oo = (g.astype(ref), o.astype(ref)) if name is None else (
            np.uint16([0x3F80, 0x3F80]), np.uint16([0xBF80, 0x3F80]))
        actual = np.array(bits, dt).view(gg.dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            r = selugrad.verify(actual, gg, oo, dtype=name)
        # element 0 (expected a number) is NaN against a number; element 1 is g * scale, exact
        assert r.mismatches == 1 and r.first[0].index == 0 and r.max_ulp == np.inf, repr(r)


# ---- load_npu_dump ----

def test_npy_round_trip_every_dtype(tmp_path):
    for dt in (np.float32, np.float16, np.int8, np.uint8, np.int32):
        a = np.arange(24).reshape(2, 3, 4).astype(dt)
        np.save(tmp_path / "a.npy", a)
        b = selugrad.load_npu_dump(tmp_path / "a.npy")
        assert b.dtype == dt and b.shape == (2, 3, 4) and np.array_equal(a, b)
        b = selugrad.load_npu_dump(str(tmp_path / "a.npy"), np.dtype(dt).name, (2, 3, 4))
        assert np.array_equal(a, b)


def test_npy_16bit_patterns(tmp_path):
    bits = np.array([0x3C00, 0x3F80], np.uint16)
    np.save(tmp_path / "u2.npy", bits)
    b = selugrad.load_npu_dump(tmp_path / "u2.npy")  # the CLI's reading: bf16
    assert b.dtype == np.uint16 and b.tolist() == [0x3C00, 0x3F80]
    h = selugrad.load_npu_dump(tmp_path / "u2.npy", "float16")
    assert h.dtype == np.float16 and h.view(np.uint16).tolist() == [0x3C00, 0x3F80]
    np.save(tmp_path / "i2.npy", bits.view(np.int16))
    assert selugrad.load_npu_dump(tmp_path / "i2.npy", "bf16").dtype == np.uint16
    with pytest.raises(ValueError, match=r"\.npy dtype '<f2' is not bf16"):
        np.save(tmp_path / "f2.npy", bits.view(np.float16))
        selugrad.load_npu_dump(tmp_path / "f2.npy", "bfloat16")


def test_bin_files(tmp_path):
    a = np.arange(-12, 12, dtype=np.float16).reshape(4, 6)
    a.tofile(tmp_path / "a.bin")
    b = selugrad.load_npu_dump(tmp_path / "a.bin", "f16", (4, 6))
    assert b.dtype == np.float16 and np.array_equal(a, b)
    assert selugrad.load_npu_dump(tmp_path / "a.bin", "f16", "4x6").shape == (4, 6)
    assert selugrad.load_npu_dump(tmp_path / "a.bin", "f16").shape == (24,)
    assert selugrad.load_npu_dump(tmp_path / "a.bin", "bf16").dtype == np.uint16
    with pytest.raises(ValueError, match=r"a\.bin: a \.bin file needs dtype"):
        selugrad.load_npu_dump(tmp_path / "a.bin")
    with pytest.raises(ValueError, match=r"46 bytes is not a whole number of 4-byte f32 elements"):
        (tmp_path / "c.bin").write_bytes(b"\0" * 46)
        selugrad.load_npu_dump(tmp_path / "c.bin", "f32")
    with pytest.raises(ValueError, match=r"file is shorter than its shape says \(48 bytes of data, "
                                         r"the shape \(5, 6\) needs 30 elements of 2 bytes\)"):
        selugrad.load_npu_dump(tmp_path / "a.bin", "f16", (5, 6))
    with pytest.raises(ValueError, match=r"file is longer than its shape says"):
        selugrad.load_npu_dump(tmp_path / "a.bin", "f16", (2, 6))
    # a negative or fractional dim is a bad shape, not a size mismatch (-4 x -6 is 24 elements,
    # and 4.5 is not 4)
    for shape in ((-4, -6), "4x-6", (4.5, 6), "4x6.0", "4x", "", -24):
        with pytest.raises(ValueError, match=r"^load_npu_dump: bad shape .*: dims are whole "
                                             r"numbers >= 0"):
            selugrad.load_npu_dump(tmp_path / "a.bin", "f16", shape)
    assert selugrad.load_npu_dump(tmp_path / "a.bin", "f16", np.int64(24)).shape == (24,)
    assert selugrad.load_npu_dump(tmp_path / "a.bin", "f16", [np.int32(4), 6]).shape == (4, 6)


def test_dump_errors(tmp_path):
    np.save(tmp_path / "d.npy", np.zeros(3))
    with pytest.raises(ValueError, match=r"unsupported \.npy dtype '<f8'"):
        selugrad.load_npu_dump(tmp_path / "d.npy")
    np.save(tmp_path / "f.npy", np.zeros((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"shape \(3, 2\) differs from the file's shape \(2, 3\)"):
        selugrad.load_npu_dump(tmp_path / "f.npy", shape=(3, 2))
    with pytest.raises(ValueError, match=r"\.npy dtype '<f4' is not s32"):
        selugrad.load_npu_dump(tmp_path / "f.npy", "int32")
    (tmp_path / "junk.npy").write_bytes(b"not numpy")
    with pytest.raises(ValueError, match=r"junk\.npy: not a readable \.npy file"):
        selugrad.load_npu_dump(tmp_path / "junk.npy")
    with pytest.raises(FileNotFoundError):
        selugrad.load_npu_dump(tmp_path / "missing.npy")
    with pytest.raises(IsADirectoryError):
        selugrad.load_npu_dump(tmp_path)
    with pytest.raises(TypeError, match=r"^load_npu_dump: unknown dtype 'f64'"):
        selugrad.load_npu_dump(tmp_path / "f.npy", "f64")


def test_fabricated_npu_dumps_end_to_end(tmp_path):
    # what a user does: dumps of gradOutput, result and the NPU's gradInput, three corrupted
    g, o, y = _case(np.float16, (4, 8, 16), seed=6)
    bad = y.copy()
    bad.reshape(-1)[[3, 100, 400]] += np.float16(0.0625)
    for name, a in (("g", g), ("o", o), ("y", bad)):
        np.save(tmp_path / f"{name}.npy", a)
    ld = lambda n: selugrad.load_npu_dump(tmp_path / f"{n}.npy")
    r = selugrad.verify(ld("y"), ld("g"), ld("o"))
    assert r.mismatches == 3 and [m.index for m in r.first] == [3, 100, 400]
    # the same dump as raw uint16 .npy files: bf16 by default, and the hint says so
    for name, a in (("g", g), ("o", o), ("y", bad)):
        np.save(tmp_path / f"{name}.npy", a.view(np.uint16))
    r = selugrad.verify(ld("y"), ld("g"), ld("o"), dtype="bfloat16")
    assert any("read as float16" in h for h in r.hints), r.hints
    assert f16_bits(1.0) == 0x3C00


def _npy_with_header(path, header_dict, body):
    """A version 1.0 .npy file with this header text and these data bytes."""
    h = header_dict.encode()
    h += b" " * ((64 - (10 + len(h) + 1) % 64) % 64) + b"\n"
    path.write_bytes(b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h + body)


@pytest.mark.parametrize("shape, size, msg", [
    ("(-3,)", 16, r"malformed shape \(-3,\) in the \.npy header"),
    ("(1000000000000,)", 16, r"file is shorter than its shape says \(16 bytes of data, the shape "
                             r"\(1000000000000,\) needs 1000000000000 elements of 4 bytes\)"),
    ("(2, 2)", 20, r"file is longer than its shape says"),
])
def test_load_npu_dump_refuses_a_header_the_data_do_not_fit(tmp_path, shape, size, msg):
    # as the CLI: before anything is allocated (np.load would try 4 TB, or read -3 as "the rest")
    p = tmp_path / "bad.npy"
    _npy_with_header(p, f"{{'descr': '<f4', 'fortran_order': False, 'shape': {shape}, }}",
                     bytes(size))
    with pytest.raises(ValueError, match=r"^load_npu_dump: .*bad\.npy: " + msg):
        selugrad.load_npu_dump(p)
