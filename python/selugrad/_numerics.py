"""Element values, bits, ulp distances and the float64 golden of the precision standard.

The golden is the one `selugrad verify` uses (docs/cli.md, "The golden and the precision
standard"): g * (o + SA) where o < 0, else g * scale, in float64 with the dtype's own constants,
rounded once (to nearest even, overflow to inf) to the dtype before the error is taken.
"""
import numpy as np

from . import _core

# (scale, scale*alpha) as the dtype holds them (docs/contract.md, "Math"): fp32 0x3F867D5F / 0x3FE10966,
# fp16 0x3C34 / 0x3F08, bf16 0x3F86 / 0x3FE1. int8/uint8 compute in fp16, int32 in fp32.
CONSTANTS = {
    "float32": (float.fromhex("0x1.0cfabep+0"), float.fromhex("0x1.c212ccp+0")),
    "float16": (1.05078125, 1.7578125),
    "bfloat16": (1.046875, 1.7578125),
}

# precision standard thresholds on MERE (MARE: ten times as much)
THRESHOLD = {"float16": 2.0 ** -10, "bfloat16": 2.0 ** -7, "float32": 2.0 ** -13}

# (significand bits, lowest normal exponent, largest finite value)
_FORMAT = {
    "float32": (24, -126, float.fromhex("0x1.fffffep+127")),
    "float16": (11, -14, 65504.0),
    "bfloat16": (8, -126, float.fromhex("0x1.fep+127")),
}


def round_to(d, x):
    """x (float64) rounded once to d's floating format, to nearest even, as float64 values."""
    p, emin, largest = _FORMAT[d.name]
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        _, e = np.frexp(x)
        q = np.ldexp(1.0, np.maximum(e - 1, emin) - (p - 1))  # the spacing of d at |x|
        r = np.rint(x / q) * q  # exact scaling by a power of two, then one rounding
        r = np.where(np.abs(r) > largest, np.copysign(np.inf, x), r)
    return np.where(np.isfinite(x), r, x)


def uint_view(a, d):
    """The bit patterns of a's elements (any strides) as unsigned integers of d's size."""
    return a.view(np.dtype(f"u{d.itemsize}"))


def values(a, d):
    """The elements of a (holding d) as float64 (a signalling NaN, as a dump may hold, converts
    to a quiet one without NumPy's 'invalid value' warning)."""
    if d is _core.bfloat16:
        bits = uint_view(a, d).astype(np.uint32) << np.uint32(16)  # uint32 for 0-d too
        a = bits.view(np.float32)
    elif d is _core.float16 and a.dtype != np.float16:  # float16 bits in a 16-bit integer
        a = a.view(np.float16)
    with np.errstate(invalid="ignore"):
        return a.astype(np.float64)


def ulp_distance(expected, actual, d):
    """Per element: how many representable values of d lie between expected and actual (the
    difference for integers); 0 for equal values (also +0 against -0); inf where exactly one
    of the two is NaN."""
    if not d.is_float:
        return np.abs(expected.astype(np.int64) - actual.astype(np.int64)).astype(np.float64)
    bits = 8 * d.itemsize
    mask = (1 << (bits - 1)) - 1

    def ordered(a):
        b = uint_view(a, d).astype(np.int64)
        mag = b & mask
        return np.where(b >> (bits - 1) != 0, -mag, mag)

    dist = np.abs(ordered(expected) - ordered(actual)).astype(np.float64)
    ne, na = np.isnan(values(expected, d)), np.isnan(values(actual, d))
    dist[ne & na] = 0.0
    dist[ne != na] = np.inf
    return dist


def golden(g, o, d):
    """The float64 golden, unrounded, with d's constants (float dtypes)."""
    scale, sa = CONSTANTS[d.name]
    with np.errstate(invalid="ignore", over="ignore"):
        return np.where(o < 0, g * (o + sa), g * scale)


def precision(actual, g, o, d):
    """Per element relative errors against the rounded golden, and which elements' inf/NaN do
    not match the golden's: (rel, special_bad). Float dtypes only."""
    gr = round_to(d, golden(values(g, d), values(o, d), d))
    a = values(actual, d)
    gnan, ginf = np.isnan(gr), np.isinf(gr)
    anan, ainf = np.isnan(a), np.isinf(a)
    bad = np.where(gnan, ~anan, np.where(ginf, a != gr, anan | ainf))
    with np.errstate(invalid="ignore", over="ignore"):
        rel = np.abs(a - gr) / (np.abs(gr) + 1e-7)
    rel = np.where(bad | gnan | ginf, 0.0, rel)
    return rel, bad
