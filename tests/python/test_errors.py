"""Every error of the NumPy API: its type and its message."""
import numpy as np
import pytest

import selugrad

F32 = np.zeros(4, np.float32)


@pytest.mark.parametrize("grad,result,kw,exc,msg", [
    (F32.astype(np.float64), F32, {}, TypeError, r"grad is float64, which the operator does not have"),
    (F32, F32.astype(np.float64), {}, TypeError, r"result is float64"),
    (F32.astype(np.int64), F32, {}, TypeError, r"grad has dtype int64, not one of the operator's"),
    (np.array(["a", "b"]), np.array(["a", "b"]), {}, TypeError, r"grad has dtype <U1, not one of"),
    (np.array([None, 1], object), F32, {}, TypeError, r"grad has dtype object"),
    (F32.astype(np.complex64), F32, {}, TypeError, r"grad has dtype complex64"),
    # lists and Python numbers become float64 or int64 arrays, which have no .astype to suggest
    ([1.0, 2.0], [1.0, 2.0], {}, TypeError,
     r"grad is a list, which NumPy reads as float64, not one of the operator's dtypes \(float32, "
     r".*\); pass an array of one, e.g. numpy.asarray\(grad, numpy.float32\)$"),
    (F32, [1, 2, 3, 4], {}, TypeError, r"result is a list, which NumPy reads as int64"),
    (2.0, 1.0, {}, TypeError, r"grad is a float, which NumPy reads as float64"),
    (F32.astype(np.uint16), F32.astype(np.uint16), {}, TypeError,
     r"grad is uint16: 16-bit floats held as bits need dtype='bfloat16' or dtype='float16'"),
    (F32, F32.astype(np.float16), {}, TypeError,
     r"result dtype float16 differs from grad dtype float32 \(expected equal dtypes\)"),
    (F32.astype(np.int8), F32.astype(np.uint8), {}, TypeError, r"result dtype uint8 differs"),
    (F32, np.zeros(5, np.float32), {}, ValueError,
     r"result shape \(5,\) differs from grad shape \(4,\) \(expected equal shapes, no broadcasting\)"),
    (np.zeros((2, 3), np.float32), np.zeros((3, 2), np.float32), {}, ValueError,
     r"result shape \(3, 2\) differs from grad shape \(2, 3\)"),
    (np.zeros((1, 4), np.float32), F32, {}, ValueError, r"result shape \(4,\) differs"),
    (F32, F32, {"dtype": "float64"}, TypeError, r"unknown dtype 'float64'"),
    (F32, F32, {"dtype": np.float64}, TypeError, r"dtype float64 is not one of the operator's"),
    (F32, F32, {"dtype": "bfloat16"}, TypeError, r"grad dtype float32 cannot hold bfloat16 elements"),
    (F32.astype(np.uint16), F32, {"dtype": "float16"}, TypeError,
     r"result dtype float32 cannot hold float16 elements"),
    (F32, F32, {"out": np.zeros(4, np.float16)}, TypeError,
     r"out dtype float16 differs from grad dtype float32"),
    (F32, F32, {"out": np.zeros(5, np.float32)}, ValueError,
     r"out shape \(5,\) differs from grad shape \(4,\)"),
    (F32, F32, {"out": [0.0] * 4}, TypeError, r"out is list, not a NumPy array"),
])
def test_argument_errors(grad, result, kw, exc, msg):
    with pytest.raises(exc, match="^selu_backward: " + msg):
        selugrad.selu_backward(grad, result, **kw)


def test_read_only_out():
    out = np.zeros(4, np.float32)
    out.flags.writeable = False
    with pytest.raises(ValueError, match=r"^selu_backward: out is read-only$"):
        selugrad.selu_backward(F32, F32, out=out)
    with pytest.raises(ValueError, match="read-only"):
        selugrad.selu_backward(F32, F32, out=np.broadcast_to(np.float32(0), (4,)))


@pytest.mark.parametrize("shape,strides", [((4,), (0,)), ((2, 3), (4, 4)), ((3, 3), (8, 4))])
def test_out_whose_elements_share_memory(shape, strides):
    base = np.zeros(16, np.float32)
    out = np.lib.stride_tricks.as_strided(base, shape, strides, writeable=True)
    g = np.ones(shape, np.float32)
    with pytest.raises(ValueError, match=r"^selu_backward: out has elements sharing one address"):
        selugrad.selu_backward(g, g, out=out)
    assert not base.any()


def test_interleaved_out_without_sharing_is_accepted():
    base = np.zeros(16, np.float32)
    # element strides (2, 3) on shape (3, 2): offsets 0 2 4 / 3 5 7, interleaved but distinct
    out = np.lib.stride_tricks.as_strided(base, (3, 2), (8, 12), writeable=True)
    g = np.arange(6, dtype=np.float32).reshape(3, 2) - 3
    selugrad.selu_backward(g, g, out=out)
    assert np.array_equal(out, selugrad.selu_backward(g, g))
    assert sorted(np.flatnonzero(base).tolist()) == [0, 2, 3, 4, 5, 7] or not g.all()


def test_library_messages_for_what_the_library_rejects():
    # the C library's own status name and text, unchanged
    with pytest.raises(ValueError, match=r"^SELUGRAD_ERR_BAD_ARGUMENT: selugrad_set_num_threads: "):
        selugrad.set_num_threads(5000)
    with pytest.raises(ValueError, match=r"^SELUGRAD_ERR_BAD_ARGUMENT: selugrad_set_num_threads: "):
        selugrad.set_num_threads(-1)
    assert selugrad.get_num_threads() >= 1


def test_set_num_threads_takes_whole_numbers_only():
    # a C int argument would wrap 2^32 + 2 to 2 and 2^40 to 0 (the default), and int() would
    # truncate 1.5: each is refused and the count stays as it was
    selugrad.set_num_threads(1)
    try:
        for n in (2**32 + 2, 2**40, -2**40):
            with pytest.raises(ValueError, match=r"^set_num_threads: n must be 0 \(default\) to "
                                                 r"1024, got -?\d+$"):
                selugrad.set_num_threads(n)
        for n in (1.5, "2", None):
            with pytest.raises(TypeError, match=r"^set_num_threads: n must be a whole number"):
                selugrad.set_num_threads(n)
        assert selugrad.get_num_threads() == 1
        selugrad.set_num_threads(np.int64(2))
        assert selugrad.get_num_threads() == 2
    finally:
        selugrad.set_num_threads(0)


def test_unknown_dtype_names():
    with pytest.raises(TypeError, match=r"unknown dtype 'f64'"):
        selugrad.dtype_of("f64")
    with pytest.raises(TypeError, match=r"unknown dtype 'f64'"):
        selugrad.kernel_name("f64")
    assert selugrad.dtype_of("bf16") is selugrad.bfloat16
    assert selugrad.dtype_of(np.float16) is selugrad.float16


def test_no_forward_without_the_library_symbol():
    if selugrad.HAS_FORWARD:
        pytest.skip("the C library has selugrad_forward: test_forward.py covers selu")
    assert not hasattr(selugrad, "selu")
