"""The C library, loaded with ctypes from the package directory.

Only public symbols of include/selugrad/selugrad.h are used. ctypes releases the GIL for the
duration of every call into a CDLL, so other Python threads run while a kernel runs. The
library's error message is kept per thread and read right after the failing call, on the same
thread.
"""
import ctypes
import os

_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libselugrad.so")

try:
    lib = ctypes.CDLL(_PATH)
except OSError as e:  # a source checkout that was never built, or a foreign platform
    raise ImportError(
        f"selugrad: cannot load {_PATH} ({e}); install the package with "
        "`pip install --no-build-isolation --no-index .` from the repository root") from None

_int, _size, _ptr, _ssize = ctypes.c_int, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_ssize_t


def _declare(name, restype, argtypes):
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = argtypes
    return fn


backward = _declare("selugrad_backward", _int, [_int, _size, _ptr, _ptr, _ptr])
backward_strided = _declare("selugrad_backward_strided", _int,
                            [_int, _size, _ptr, _ssize, _ptr, _ssize, _ptr, _ssize])
last_error = _declare("selugrad_last_error", ctypes.c_char_p, [])
status_name = _declare("selugrad_status_name", ctypes.c_char_p, [_int])
dtype_size = _declare("selugrad_dtype_size", _size, [_int])
dtype_name = _declare("selugrad_dtype_name", ctypes.c_char_p, [_int])
kernel_name = _declare("selugrad_kernel_name", ctypes.c_char_p, [_int])
version = _declare("selugrad_version", ctypes.c_char_p, [])
set_num_threads = _declare("selugrad_set_num_threads", _int, [_int])
get_num_threads = _declare("selugrad_get_num_threads", _int, [])

# The SELU forward, where this build of the library has it:
#   selugrad_forward(dtype, n, x, y) and selugrad_forward_strided(dtype, n, x, xs, y, ys).
forward = forward_strided = None
if hasattr(lib, "selugrad_forward") and hasattr(lib, "selugrad_forward_strided"):
    forward = _declare("selugrad_forward", _int, [_int, _size, _ptr, _ptr])
    forward_strided = _declare("selugrad_forward_strided", _int,
                               [_int, _size, _ptr, _ssize, _ptr, _ssize])

# selugrad_status values
OK, ERR_NULL_POINTER, ERR_BAD_DTYPE, ERR_OVERLAP, ERR_BAD_ARGUMENT, ERR_NO_MEMORY, ERR_INTERNAL = range(7)


def raise_status(status):
    """Raises the Python exception for a failed call, with the library's own message."""
    msg = (last_error() or b"").decode("utf-8", "replace") or status_name(status).decode()
    if status == ERR_BAD_DTYPE:
        raise TypeError(msg)
    if status == ERR_NO_MEMORY:
        raise MemoryError(msg)
    if status == ERR_INTERNAL:
        raise RuntimeError(msg)
    raise ValueError(msg)
