"""selugrad: CANN's SeluGrad (aclnnSeluBackward) for NumPy arrays and PyTorch tensors, with the
NPU kernel's results bit for bit, computed by the C library this package carries.

    selu_backward(grad, result, *, out=None, dtype=None)   gradInput from gradOutput and result
    verify(actual, grad, result)                            judge a result dumped from an NPU
    load_npu_dump(path, dtype=None, shape=None)             read a .npy or raw .bin dump
    selugrad.torch, selugrad.atk                            PyTorch tensors (needs torch)

The page: docs/python.md.
"""
import importlib as _importlib
import operator as _operator

from . import _core, _lib
from ._core import DTYPES, DType, bfloat16, dtype_of, float16, float32, int8, int32, uint8
from ._dump import load_npu_dump
from ._verify import Mismatch, VerifyReport, verify

__version__ = _lib.version().decode()

#: Whether the C library has the SELU forward (selugrad_forward and selugrad_forward_strided);
#: `selu` exists only then.
HAS_FORWARD = _lib.forward is not None


def selu_backward(grad, result, *, out=None, dtype=None):
    """SeluGrad: gradInput = grad * (result + scale*alpha) where result < 0, else grad * scale,
    rounded as the NPU kernel rounds for the dtype (docs/contract.md).

    grad (aclnn's gradOutput) and result (the SELU forward output) are arrays of one shape and
    one dtype: float32, float16, int8, uint8, int32, or bfloat16 as uint16 bit patterns with
    dtype="bfloat16" (or ml_dtypes.bfloat16 arrays). Any strides. Returns a new array of that
    dtype and shape, or writes out (which may be grad or result itself) and returns it.
    TypeError for dtypes, ValueError for shapes and out, with the library's message for what
    the library rejects. The GIL is released while the kernel runs."""
    d = _core.plain_dtype(grad, result, out, dtype)
    if d is not None:  # arrays of one native dtype and shape: the checks are done
        g, o = grad, result
    else:
        d, (g, o), out = _core.check_args("selu_backward", (("grad", grad), ("result", result)),
                                          out, dtype)
    y = _core.new_output(g) if out is None else out
    _core.run(_lib.backward, _lib.backward_strided, d, (g, o), y, "selu_backward")
    return y


if HAS_FORWARD:
    def selu(x, *, out=None, dtype=None):
        """SELU forward, as the C library's selugrad_forward computes it (its dtypes: float32,
        float16, bfloat16, int8, int32). Same conventions and errors as selu_backward."""
        d, (a,), out = _core.check_args("selu", (("x", x),), out, dtype)
        y = _core.new_output(a) if out is None else out
        _core.run(_lib.forward, _lib.forward_strided, d, (a,), y, "selu")
        return y


def set_num_threads(n):
    """Threads asked per call (the calling thread counts as one); 0 restores the default. A call
    on the library's own pool runs on at most the CPUs this process may use. Results never
    depend on it. ValueError with the library's message for values it rejects; TypeError for
    anything but a whole number."""
    try:
        n = _operator.index(n)
    except TypeError:
        raise TypeError(f"set_num_threads: n must be a whole number, not {type(n).__name__}") from None
    if not -2**31 <= n < 2**31:  # beyond the C int, which would wrap
        raise ValueError(f"set_num_threads: n must be 0 (default) to 1024, got {n}")
    st = _lib.set_num_threads(n)
    if st != _lib.OK:
        _lib.raise_status(st)


def get_num_threads():
    """Threads asked per call: the count set, or the default (a call on the library's own pool
    runs on at most the CPUs this process may use)."""
    return _lib.get_num_threads()


def kernel_name(dtype):
    """The C kernel variant that runs for dtype on this CPU, e.g. 'f32_selugrad__avx512'."""
    return _lib.kernel_name(dtype_of(dtype, "kernel_name").code).decode()


def __getattr__(name):  # selugrad.torch and selugrad.atk load on first use (they need torch)
    if name in ("torch", "atk"):
        return _importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'selugrad' has no attribute '{name}'")


__all__ = ["selu_backward", "verify", "VerifyReport", "Mismatch", "load_npu_dump",
           "set_num_threads", "get_num_threads", "kernel_name", "dtype_of", "DType", "DTYPES",
           "float32", "float16", "bfloat16", "int8", "uint8", "int32", "HAS_FORWARD"]
if HAS_FORWARD:
    __all__.append("selu")
