"""load_npu_dump(): the .npy and raw .bin tensor dumps that `selugrad verify` reads.

The same rules as the CLI (tools/selugrad/npy.c, docs/cli.md): .npy files carry their dtype and
shape; bf16 has no NumPy type and is stored as '<u2' (also read from '<i2' and '|V2'), which
means bf16 unless dtype says float16. A raw .bin file (little-endian) needs the dtype, and the
shape unless it is 1-D; its size must be exactly the shape's.
"""
import operator
import os

import numpy as np

from . import _core

_NPY_KIND = {"f4": _core.float32, "f2": _core.float16, "i1": _core.int8, "u1": _core.uint8,
             "i4": _core.int32, "u2": _core.bfloat16, "i2": _core.bfloat16, "V2": _core.bfloat16}


def _shape_of(shape):
    """The shape as a tuple of whole numbers >= 0 (a negative or fractional dim is refused)."""
    if shape is None:
        return None
    bad = ValueError(f"load_npu_dump: bad shape {shape!r}: dims are whole numbers >= 0 "
                     "(e.g. 4x8x16 or (4, 8, 16))")
    try:
        if isinstance(shape, str):  # the CLI's spelling: 4x8x16, or "scalar"
            dims = () if shape == "scalar" else tuple(
                int(s) if s.isdigit() else -1 for s in shape.split("x"))
        else:
            dims = (operator.index(shape),) if not hasattr(shape, "__iter__") else tuple(
                operator.index(n) for n in shape)
    except TypeError:
        raise bad from None
    if any(n < 0 for n in dims):
        raise bad
    return dims


def _check_npy_header(path):
    """Refuses, before anything is allocated, a .npy header whose shape has a negative dim or
    claims more or less data than the file holds (as the CLI does): np.load would allocate the
    whole claimed array first, or read a negative dim as 'the rest of the file'. A file that is
    no .npy at all is left to np.load's own message."""
    fmt = np.lib.format
    with open(path, "rb") as f:
        try:
            version = fmt.read_magic(f)
            if version == (1, 0):
                shape, _, dt = fmt.read_array_header_1_0(f)
            elif version == (2, 0):
                shape, _, dt = fmt.read_array_header_2_0(f)
            else:  # (3, 0): the 2.0 header in UTF-8, read by NumPy's private reader
                shape, _, dt = fmt._read_array_header(f, version)
        except (ValueError, AttributeError, TypeError, SyntaxError):
            return
        offset = f.tell()
    if any(not isinstance(n, int) or n < 0 for n in shape):
        raise ValueError(f"load_npu_dump: {path}: malformed shape {shape!r} in the .npy header "
                         "(dims are whole numbers >= 0)")
    n = 1
    for d in shape:
        n *= d
    if not dt.hasobject:
        _check_data_size(path, os.path.getsize(path) - offset, shape, n, dt.itemsize)


def _check_data_size(path, size, shape, n, es):
    """Refuses a file whose size bytes of data are not the n elements of es bytes its shape
    needs."""
    if n * es != size:
        raise ValueError(f"load_npu_dump: {path}: file is {'shorter' if n * es > size else 'longer'} "
                         f"than its shape says ({size} bytes of data, the shape "
                         f"{_core._shape_str(shape)} needs {n} elements of {es} bytes)")


def load_npu_dump(path, dtype=None, shape=None):
    """Reads a tensor dump: a NumPy .npy file, or a raw little-endian .bin file (any other name is
    read as .npy). dtype: a name ("float16", "f16", "bfloat16", ...) or NumPy dtype; needed for
    .bin, and for .npy it must agree with the file (a '<u2' file is bf16 unless dtype is
    float16). shape: a tuple or "4x8x16"; for .npy it must equal the file's, for .bin it gives
    the shape (default: 1-D from the size). Returns a NumPy array; float16 as numpy.float16,
    bfloat16 as uint16 bit patterns (pass dtype='bfloat16' to selu_backward and verify).
    ValueError (or OSError for a file that cannot be opened) with the file named."""
    want = None if dtype is None else _core.dtype_of(dtype, "load_npu_dump")
    shape = _shape_of(shape)
    if os.path.isdir(path):
        raise IsADirectoryError(f"load_npu_dump: {path} is a directory")
    if str(path).endswith(".bin"):
        if want is None:
            raise ValueError(f"load_npu_dump: {path}: a .bin file needs dtype")
        size = os.path.getsize(path)
        es = want.itemsize
        if size % es:
            raise ValueError(f"load_npu_dump: {path}: {size} bytes is not a whole number of "
                             f"{es}-byte {want.short} elements (check the dtype)")
        if shape is None:
            shape = (size // es,)
        _check_data_size(path, size, shape, int(np.prod(shape, dtype=np.int64)), es)
        a = np.fromfile(path, dtype=want.numpy.newbyteorder("<")).reshape(shape)
        return a.astype(want.numpy.newbyteorder("="), copy=False)
    _check_npy_header(path)
    try:
        a = np.load(path, allow_pickle=False)
    except ValueError as e:
        raise ValueError(f"load_npu_dump: {path}: not a readable .npy file ({e})") from None
    if not isinstance(a, np.ndarray):
        raise ValueError(f"load_npu_dump: {path}: not a .npy file")
    kind = _NPY_KIND.get(f"{a.dtype.kind}{a.dtype.itemsize}" if a.dtype.kind != "V"
                         else f"V{a.dtype.itemsize}")
    if kind is None:
        raise ValueError(f"load_npu_dump: {path}: unsupported .npy dtype '{a.dtype.str}'")
    if a.dtype.kind == "V":
        a = a.view(np.uint16)
    a = a.astype(a.dtype.newbyteorder("="), copy=False)
    if want is not None and want is not kind:
        if kind is _core.bfloat16 and want is _core.float16:  # 16-bit patterns: either format
            a = a.view(np.uint16).view(np.float16)
            kind = want
        else:
            raise ValueError(f"load_npu_dump: {path}: .npy dtype '{a.dtype.str}' is not "
                             f"{want.short} (the dtype asked for)")
    if kind is _core.bfloat16:
        a = a.view(np.uint16)
    if shape is not None and tuple(a.shape) != shape:
        raise ValueError(f"load_npu_dump: {path}: shape {_core._shape_str(shape)} differs from the "
                         f"file's shape {_core._shape_str(a.shape)}")
    return a
