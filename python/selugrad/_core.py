"""Dtypes, argument checks and the strided calls into the C library for NumPy arrays.

Every call ends in the C API's 1-D strided entry point (or its contiguous one). An N-D view is
first reduced to as few 1-D runs as its strides allow: size-1 dims dropped, dims whose output
stride is negative flipped (in all arrays alike, which keeps element i paired with element i),
dims ordered by the output's strides and merged wherever all arrays continue without a gap. One
run is one call and no copy; several runs are one call each, or, when the runs are short and
many, one call on contiguous copies (a call costs about a microsecond of Python, a copy a
fraction of a nanosecond per element).
"""
import itertools
import operator

import numpy as np

from . import _lib

try:  # bfloat16 arrays of the ml_dtypes package, where it is installed
    import ml_dtypes as _ml_dtypes
    _ML_BF16 = np.dtype(_ml_dtypes.bfloat16)
except ImportError:
    _ML_BF16 = None


class DType:
    """One element type of the operator: its C enum value and its names."""

    def __init__(self, code, name, short, numpy_dtype, is_float):
        self.code = code
        self.name = name  # NumPy-style: "float32", ..., "bfloat16"
        self.short = short  # the C library's and the CLI's: "f32", ..., "bf16"
        self.numpy = numpy_dtype  # the NumPy dtype that holds it (bf16: uint16 bits)
        self.itemsize = numpy_dtype.itemsize
        self.is_float = is_float

    def __repr__(self):
        return f"selugrad.{self.name}"


float32 = DType(0, "float32", "f32", np.dtype(np.float32), True)
float16 = DType(1, "float16", "f16", np.dtype(np.float16), True)
int8 = DType(2, "int8", "s8", np.dtype(np.int8), False)
int32 = DType(3, "int32", "s32", np.dtype(np.int32), False)
uint8 = DType(4, "uint8", "u8", np.dtype(np.uint8), False)
bfloat16 = DType(27, "bfloat16", "bf16", np.dtype(np.uint16), True)
DTYPES = (float32, float16, bfloat16, int8, uint8, int32)

_BY_NAME = {}
for _d in DTYPES:
    _BY_NAME[_d.name] = _BY_NAME[_d.short] = _d
_BY_NAME.update(float=float32, half=float16, bf16=bfloat16)
_BY_NUMPY = {np.dtype(np.float32): float32, np.dtype(np.float16): float16, np.dtype(np.int8): int8,
             np.dtype(np.uint8): uint8, np.dtype(np.int32): int32}
if _ML_BF16 is not None:
    _BY_NUMPY[_ML_BF16] = bfloat16
_BITS16 = (np.dtype(np.uint16), np.dtype(np.int16))
_SUPPORTED = "float32, float16, bfloat16 (as uint16 bits with dtype='bfloat16'), int8, uint8, int32"
# the SELU forward has no uint8 (docs/contract.md, "Forward per-dtype computation")
_FORWARD = "selu"


def _supported(fn):
    """The dtypes fn's messages list: the forward's lack uint8."""
    return _SUPPORTED.replace(" uint8,", "") if fn == _FORWARD else _SUPPORTED


def _names(fn):
    return ", ".join(x.name for x in DTYPES if fn != _FORWARD or x is not uint8)


def dtype_of(spec, fn="dtype_of"):
    """The DType named by spec: a name ("float16", "f16", "bfloat16", ...), a DType, or a NumPy
    dtype of the operator. TypeError for anything else."""
    if isinstance(spec, DType):
        return spec
    if isinstance(spec, str):
        d = _BY_NAME.get(spec.lower())
        if d is None:
            raise TypeError(f"{fn}: unknown dtype '{spec}' (expected one of {_names(fn)})")
        return d
    try:
        npd = np.dtype(spec)
    except TypeError:
        raise TypeError(f"{fn}: unknown dtype {spec!r}") from None
    d = _BY_NUMPY.get(npd)
    if d is None:
        raise TypeError(f"{fn}: dtype {npd} is not one of the operator's ({_supported(fn)})")
    return d


def _refuse_masked(x, name, fn):
    if isinstance(x, np.ma.MaskedArray):  # the mask would be dropped without a word
        raise TypeError(f"{fn}: {name} is a masked array; selugrad computes every element and "
                        f"keeps no mask (pass {name}.filled(value) or {name}.data)")


def _array(x, name, fn):
    """x as an array in native byte order (a '>f4' array is read through a native copy, as
    NumPy's ufuncs read it)."""
    _refuse_masked(x, name, fn)
    if not isinstance(x, np.ndarray):
        try:
            x = np.asarray(x)
        except Exception as e:  # e.g. ragged nested lists
            raise TypeError(f"{fn}: {name} is not an array ({e})") from None
    if not x.dtype.isnative:
        x = x.astype(x.dtype.newbyteorder("="))
    return x


def _own_dtype(a, name, fn, given=None):
    d = _BY_NUMPY.get(a.dtype)
    if d is not None:
        return d
    if given is not None and not isinstance(given, np.ndarray):  # a list, a Python number
        raise TypeError(f"{fn}: {name} is a {type(given).__name__}, which NumPy reads as "
                        f"{a.dtype}, not one of the operator's dtypes ({_supported(fn)}); pass "
                        f"an array of one, e.g. numpy.asarray({name}, numpy.float32)")
    if a.dtype in _BITS16:
        raise TypeError(f"{fn}: {name} is {a.dtype}: 16-bit floats held as bits need "
                        "dtype='bfloat16' or dtype='float16'")
    if a.dtype == np.float64:
        raise TypeError(f"{fn}: {name} is float64, which the operator does not have "
                        f"({_supported(fn)}); convert it, e.g. with .astype(numpy.float32)")
    raise TypeError(f"{fn}: {name} has dtype {a.dtype}, not one of the operator's "
                    f"({_supported(fn)})")


def _fits(a, d):
    """Whether array a can hold elements of d: its own dtype, or 16-bit float bits."""
    if a.dtype == d.numpy and d is not bfloat16:
        return True
    if d.itemsize == 2 and d.is_float and a.dtype in _BITS16:
        return True
    return d is bfloat16 and _ML_BF16 is not None and a.dtype == _ML_BF16


def _shape_str(s):
    return "(" + ", ".join(str(n) for n in s) + ("," if len(s) == 1 else "") + ")"


def check_args(fn, named, out, dtype):
    """Converts and checks the inputs ((name, value) pairs, the first one leading) and out.

    Returns (DType, [arrays], out array or None). Errors, in this order: not an array or an
    unsupported dtype (TypeError), dtypes that differ (TypeError), shapes that differ
    (ValueError), then out: not an array, wrong dtype (TypeError), wrong shape, read-only
    (ValueError). Inputs in non-native byte order come back as native copies; an out in
    non-native byte order is kept (run converts the result into it)."""
    arrays = [_array(v, n, fn) for n, v in named]
    names = [n for n, _ in named]
    if dtype is None:
        kinds = [_own_dtype(a, n, fn, v) for a, (n, v) in zip(arrays, named)]
        d = kinds[0]
        for a, n, k in zip(arrays[1:], names[1:], kinds[1:]):
            if k is not d or a.dtype != arrays[0].dtype:
                raise TypeError(f"{fn}: {n} dtype {a.dtype} differs from {names[0]} dtype "
                                f"{arrays[0].dtype} (expected equal dtypes)")
    else:
        d = dtype_of(dtype, fn)
        for a, n in zip(arrays, names):
            if not _fits(a, d):
                raise TypeError(f"{fn}: {n} dtype {a.dtype} cannot hold {d.name} elements "
                                f"(dtype='{d.name}')")
    shape = arrays[0].shape
    for a, n in zip(arrays[1:], names[1:]):
        if a.shape != shape:
            raise ValueError(f"{fn}: {n} shape {_shape_str(a.shape)} differs from {names[0]} shape "
                             f"{_shape_str(shape)} (expected equal shapes, no broadcasting)")
    if out is not None:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"{fn}: out is {type(out).__name__}, not a NumPy array")
        _refuse_masked(out, "out", fn)
        native = out if out.dtype.isnative else out.view(out.dtype.newbyteorder("="))
        ok = native.dtype == arrays[0].dtype if dtype is None else _fits(native, d)
        if not ok:
            raise TypeError(f"{fn}: out dtype {out.dtype} differs from {names[0]} dtype "
                            f"{arrays[0].dtype} (expected equal dtypes)")
        if out.shape != shape:
            raise ValueError(f"{fn}: out shape {_shape_str(out.shape)} differs from {names[0]} "
                             f"shape {_shape_str(shape)} (expected equal shapes)")
        if not out.flags.writeable:
            raise ValueError(f"{fn}: out is read-only")
    return d, arrays, out


def plain_dtype(g, o, out, dtype):
    """The DType when g, o (and out) are NumPy arrays with the very same native dtype object of
    the operator and one shape, and out, if given, is writable; else None (check_args decides)."""
    if dtype is not None or type(g) is not np.ndarray or type(o) is not np.ndarray:
        return None
    dt = g.dtype
    if o.dtype is not dt or o.shape != g.shape:
        return None
    if out is not None and (type(out) is not np.ndarray or out.dtype is not dt
                            or out.shape != g.shape or not out.flags.writeable):
        return None
    return _BY_NUMPY.get(dt)


def new_output(like):
    """An uninitialised array of like's dtype and shape, in like's memory order where it has one
    (so that the output's strides merge with the input's into one run)."""
    if like.flags.c_contiguous:
        return np.empty(like.shape, like.dtype)
    return np.empty_like(like, order="K")


def _data(a):
    return a.__array_interface__["data"][0]


def _same_view(a, b):
    """a and b are the same elements at the same addresses, in the same order."""
    if _data(a) != _data(b) or a.shape != b.shape:
        return False
    return all(sa == sb for n, sa, sb in zip(a.shape, a.strides, b.strides) if n > 1)


def _self_overlaps(y):
    """Whether two elements of y share an address (0 or interleaved strides)."""
    dims = sorted((abs(s), n) for n, s in zip(y.shape, y.strides) if n > 1)
    reach = 0  # bytes spanned by the smaller dims, up to the last element's start
    for s, n in dims:
        if s == 0:
            return True
        if s < reach + y.itemsize:
            break
        reach += s * (n - 1)
    else:
        return False
    # Strides that interleave: decide exactly from the element offsets (rare layouts).
    offs = np.zeros(1, dtype=np.int64)
    for n, s in zip(y.shape, y.strides):
        offs = (offs[:, None] + np.arange(n, dtype=np.int64) * s).ravel()
    return np.unique(offs).size != offs.size


def _usable(a, itemsize):
    return a.flags.aligned and all(s % itemsize == 0 for s in a.strides)


_LONG_RUN = 1024  # elements: runs at least this long are called one by one, never copied
_FEW_RUNS = 16


def run(fn_contig, fn_strided, d, inputs, y, fn):
    """y = op(*inputs) elementwise (inputs and y of one shape, d's itemsize). y may be the same
    view as an input (in place); any other overlap is computed as if out of place."""
    if not y.dtype.isnative:  # e.g. '>f4': computed natively, then converted into y
        tmp = np.empty(y.shape, y.dtype.newbyteorder("="))
        run(fn_contig, fn_strided, d, inputs, tmp, fn)
        y[...] = tmp
        return
    n = y.size
    if n == 0:  # the library still checks the dtype
        _call(fn_contig(d.code, 0, *[_data(a) for a in inputs], _data(y)))
        return
    # The common case first, with as little Python as possible: every array C-contiguous and
    # aligned, and y either an input itself or apart from it.
    yf = y.flags
    if yf.c_contiguous and yf.aligned:
        yp = y.ctypes.data
        end = yp + y.nbytes
        ptrs = []
        for a in inputs:
            af = a.flags
            if not (af.c_contiguous and af.aligned):
                break
            p = a.ctypes.data
            if p != yp and p < end and yp < p + a.nbytes:
                break
            ptrs.append(p)
        else:
            _call(fn_contig(d.code, n, *ptrs, yp))
            return
    es = d.itemsize
    code = d.code
    if _self_overlaps(y):
        raise ValueError(f"{fn}: out has elements sharing one address (a 0 or interleaved "
                         "stride); expected each element its own address")
    ins = []
    for a in inputs:
        if not _same_view(a, y) and np.may_share_memory(a, y):
            a = a.copy()  # read before y is written, as NumPy's ufuncs do
        if not _usable(a, es):
            a = np.array(a, order="C")  # a fresh, aligned copy
        ins.append(a)
    if not _usable(y, es):
        tmp = np.empty(y.shape, y.dtype)
        run(fn_contig, fn_strided, d, ins, tmp, fn)
        y[...] = tmp
        return
    arrs = ins + [y]
    if all(a.flags.c_contiguous for a in arrs):
        _call(fn_contig(code, y.size, *[_data(a) for a in arrs]))
        return
    ptrs = [_data(a) for a in arrs]
    dims = []
    for ax, n in enumerate(y.shape):
        if n == 1:
            continue
        st = [a.strides[ax] // es for a in arrs]
        if st[-1] < 0:
            for i, s in enumerate(st):
                ptrs[i] += (n - 1) * s * es
            st = [-s for s in st]
        dims.append((n, st))
    dims.sort(key=lambda t: t[1][-1], reverse=True)
    merged = []
    for n, st in dims:
        if merged:
            pn, pst = merged[-1]
            if all(ps == s * n for ps, s in zip(pst, st)):
                merged[-1] = (pn * n, st)
                continue
        merged.append((n, st))
    if not merged:
        merged = [(1, [1] * len(arrs))]
    n, st = merged[-1]
    outer = merged[:-1]
    runs = 1
    for m, _ in outer:
        runs *= m
    if runs > _FEW_RUNS and n < _LONG_RUN:  # many short runs: one call on contiguous copies
        cins = [np.ascontiguousarray(a) for a in ins]
        tmp = np.empty(y.shape, y.dtype)
        _call(fn_contig(code, y.size, *[_data(a) for a in cins], _data(tmp)))
        y[...] = tmp
        return
    args = []
    for i in range(len(arrs)):
        args.append(None)
        args.append(st[i])
    if not outer:
        for i, p in enumerate(ptrs):
            args[2 * i] = p
        _call(fn_strided(code, n, *args))
        return
    ranges = [range(m) for m, _ in outer]
    for idx in itertools.product(*ranges):
        for i, p in enumerate(ptrs):
            args[2 * i] = p + es * sum(map(operator.mul, idx, (s[i] for _, s in outer)))
        _call(fn_strided(code, n, *args))


def _call(status):
    if status != _lib.OK:
        _lib.raise_status(status)
