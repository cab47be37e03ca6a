"""An independent model of SeluGrad, written from the contract (docs/contract.md) alone.

Exact rational arithmetic (fractions.Fraction) and one explicit round-to-nearest-even per
operation, per element, in pure Python: slow, and shares no code or method with the C library
(which computes in binary floating point) or with the package's NumPy helpers.

    y = g * (o + SA)   where o < 0        (branch B: t = round(o + SA), y = round(g * t))
    y = g * scale      otherwise          (branch A: y = round(g * scale); o = -0.0 and NaN too)

float16/bfloat16 round after every operation with their own constants; int8/uint8 are converted
exactly to float16, computed as float16, rounded half to even to an integer and saturated;
int32 is converted to float32 (nearest even), computed as float32, truncated toward zero and
saturated.
"""
import math
from fractions import Fraction

import numpy as np

SCALE = Fraction("1.0507009873554804934193349852946")
ALPHA = Fraction("1.6732632423543772848170429916717")
SA = Fraction("1.7580993408473768599402175208123")  # scale * alpha, as the contract gives it

NAN = "nan"


class Format:
    """An IEEE binary format: p significand bits (with the hidden one), w exponent bits."""

    def __init__(self, p, w):
        self.p, self.w = p, w
        self.bits = p + w
        self.bias = (1 << (w - 1)) - 1
        self.emin = 1 - self.bias
        self.emax = self.bias
        self.largest = (2 - Fraction(1, 1 << (p - 1))) * Fraction(2) ** self.emax

    def decode(self, b):
        """bits -> (sign, Fraction magnitude) | (sign, inf) | NAN"""
        b = int(b)
        sign = b >> (self.bits - 1)
        e = (b >> (self.p - 1)) & ((1 << self.w) - 1)
        m = b & ((1 << (self.p - 1)) - 1)
        if e == (1 << self.w) - 1:
            return (sign, math.inf) if m == 0 else NAN
        if e == 0:
            return sign, m * Fraction(2) ** (self.emin - (self.p - 1))
        return sign, (m + (1 << (self.p - 1))) * Fraction(2) ** (e - self.bias - (self.p - 1))

    def encode(self, v):
        if v is NAN:
            return None  # any NaN
        sign, mag = v
        if mag == math.inf:
            return (sign << (self.bits - 1)) | (((1 << self.w) - 1) << (self.p - 1))
        if mag == 0:
            return sign << (self.bits - 1)
        e = _floor_log2(mag)
        if e < self.emin:  # subnormal
            m = mag / Fraction(2) ** (self.emin - (self.p - 1))
            assert m.denominator == 1
            return (sign << (self.bits - 1)) | int(m)
        m = mag / Fraction(2) ** (e - (self.p - 1)) - (1 << (self.p - 1))
        assert m.denominator == 1
        return (sign << (self.bits - 1)) | ((e + self.bias) << (self.p - 1)) | int(m)

    def round(self, sign, exact):
        """Round-to-nearest-even of sign * exact (exact >= 0, a Fraction)."""
        if exact == 0:
            return sign, Fraction(0)
        e = max(_floor_log2(exact), self.emin)
        q = Fraction(2) ** (e - (self.p - 1))
        n = _round_half_even(exact / q)
        r = n * q
        if r > self.largest:
            return sign, math.inf
        return sign, r

    def const(self, x):
        return self.round(0, x)


def _floor_log2(x):
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if Fraction(2) ** e > x:
        e -= 1
    return e


def _round_half_even(x):
    f = math.floor(x)
    rest = x - f
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and f % 2 == 1):
        f += 1
    return f


F32, F16, BF16 = Format(24, 8), Format(11, 5), Format(8, 8)


def add(fmt, a, b):
    if a is NAN or b is NAN:
        return NAN
    (sa, ma), (sb, mb) = a, b
    if ma == math.inf or mb == math.inf:
        if ma == math.inf and mb == math.inf and sa != sb:
            return NAN
        return (sa, ma) if ma == math.inf else (sb, mb)
    exact = (-ma if sa else ma) + (-mb if sb else mb)
    if exact == 0:  # x + (-x) = +0 when rounding to nearest; -0 + -0 = -0
        return (1 if sa and sb else 0), Fraction(0)
    return fmt.round(1 if exact < 0 else 0, abs(exact))


def mul(fmt, a, b):
    if a is NAN or b is NAN:
        return NAN
    (sa, ma), (sb, mb) = a, b
    s = sa ^ sb
    if ma == math.inf or mb == math.inf:
        return NAN if (ma == 0 or mb == 0) else (s, math.inf)
    return fmt.round(s, ma * mb)


def negative(a):
    """a < 0: false for -0.0 and NaN."""
    return a is not NAN and a[0] == 1 and a[1] != 0


def selugrad_float(fmt, g, o):
    """One element in fmt, from decoded values."""
    scale, sa = fmt.const(SCALE), fmt.const(SA)
    if negative(o):
        return mul(fmt, g, add(fmt, o, sa))
    return mul(fmt, g, scale)


def _as_float(fmt, i):
    return fmt.round(1 if i < 0 else 0, Fraction(abs(int(i))))


def _to_int_half_even(v, lo, hi):
    sign, mag = v
    x = -mag if sign else mag
    if mag == math.inf:
        return lo if sign else hi
    return min(max(_round_half_even(x), lo), hi)


def _to_int_trunc(v, lo, hi):
    sign, mag = v
    if mag == math.inf:
        return lo if sign else hi
    t = math.floor(mag)  # toward zero
    return min(max(-t if sign else t, lo), hi)


_FLOAT_FMT = {"float32": F32, "float16": F16, "bfloat16": BF16}
_INT_RANGE = {"int8": (-128, 127), "uint8": (0, 255), "int32": (-2 ** 31, 2 ** 31 - 1)}


def backward(dtype, g, o):
    """The model on arrays: float dtypes take and give bit patterns (uint16/uint32 arrays),
    integer dtypes their integers. NaN results are given as None in a list (any NaN)."""
    g, o = np.ravel(g), np.ravel(o)
    out = []
    if dtype in _FLOAT_FMT:
        fmt = _FLOAT_FMT[dtype]
        for gb, ob in zip(g.tolist(), o.tolist()):
            out.append(fmt.encode(selugrad_float(fmt, fmt.decode(gb), fmt.decode(ob))))
        return out
    lo, hi = _INT_RANGE[dtype]
    fmt = F32 if dtype == "int32" else F16
    for gi, oi in zip(g.tolist(), o.tolist()):
        v = selugrad_float(fmt, _as_float(fmt, gi), _as_float(fmt, oi))
        out.append(_to_int_trunc(v, lo, hi) if dtype == "int32" else _to_int_half_even(v, lo, hi))
    return out


def bits_of(a, dtype):
    """The bit patterns of a float array (bfloat16 arrays are already uint16 bits)."""
    if dtype == "float32":
        return np.ascontiguousarray(a).view(np.uint32)
    return np.ascontiguousarray(a).view(np.uint16)
