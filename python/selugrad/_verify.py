"""verify(): judge a SeluGrad result made elsewhere (e.g. dumped from an NPU).

Two checks, as `selugrad verify` makes them: bit for bit against the NPU kernel's result (the C
library), and the precision standard (MERE and MARE against the float64 golden; integers must be
exact). The report adds the ulp distance of each mismatch and the largest one, a final verdict,
and hints where another reading of the inputs explains the mismatches (arrays swapped, the other
16-bit float format, float32 math rounded once as CPU goldens do, PyTorch's branch at 0).
"""
import collections

import numpy as np

from . import _core, _lib, _numerics

Mismatch = collections.namedtuple(
    "Mismatch", "index multi_index grad result expected actual expected_bits actual_bits ulp")
Mismatch.__doc__ = ("One element that differs from the NPU kernel's result: flat index (C order), "
                    "multi-index, the inputs and both results as Python numbers, both results' bit "
                    "patterns, and their distance in ulps (the difference for integers).")


class VerifyReport:
    """The outcome of verify(). Fields:

    dtype (DType), shape, size; mismatches (elements whose bits differ from the NPU kernel's
    result), first (a list of Mismatch, up to `show`), max_ulp (largest distance over all
    elements, 0 when bit-exact; inf when a NaN meets a number), bit_exact; mere, mare,
    mare_index, threshold (MERE bound, MARE's is ten times it; 0 for integers), special_bad
    (elements whose inf/NaN differ from the golden's, or, for integers, that differ at all),
    precision_ok; passed (both checks); verdict (one line); hints (a list of strings).
    repr() gives the text `selugrad verify` prints; to_dict() the same as plain data."""

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def to_dict(self):
        d = {k: v for k, v in self.__dict__.items() if k != "first"}
        d["dtype"] = self.dtype.name
        d["first"] = [m._asdict() for m in self.first]
        return d

    def __repr__(self):
        d = self.dtype
        lines = [f"selugrad.verify: {d.short}, shape {_shape_x(self.shape)}, "
                 f"{self.size} element{'' if self.size == 1 else 's'}"]
        s = "" if self.mismatches == 1 else "s"
        line = f"bit-exact: {'PASS' if self.bit_exact else 'FAIL'}, {self.mismatches} mismatching element{s}"
        if self.mismatches:
            line += f", largest distance {_ulps(self.max_ulp)}"
        lines.append(line)
        for m in self.first:
            idx = ",".join(str(i) for i in m.multi_index)
            lines.append(f"  [{m.index}] ({idx}) gradOutput {_elem(d, m.grad, None)} "
                         f"result {_elem(d, m.result, None)} "
                         f"expected {_elem(d, m.expected, m.expected_bits)} "
                         f"got {_elem(d, m.actual, m.actual_bits)}, {_ulps(m.ulp)}")
        if self.mismatches > len(self.first):
            lines.append(f"  ... {self.mismatches - len(self.first)} more")
        ok = "PASS" if self.precision_ok else "FAIL"
        if not d.is_float:
            lines.append(f"precision: {ok}, integer results unequal to the exact result: "
                         f"{self.special_bad}")
        elif self.size == 0:
            lines.append(f"precision: {ok}, no elements")
        else:
            t = self.threshold
            lines.append(f"precision: {ok}, MERE {self.mere:.6g} ({'<' if self.mere < t else '>='} "
                         f"{t:.6g}), MARE {self.mare:.6g} ({'<' if self.mare < 10 * t else '>='} "
                         f"{10 * t:.6g}) at [{self.mare_index}], inf/NaN mismatches "
                         f"{self.special_bad}")
        lines += [f"hint: {h}" for h in self.hints]
        lines.append(f"verdict: {self.verdict}")
        return "\n".join(lines)


def _shape_x(shape):
    return "x".join(str(n) for n in shape) if shape else "scalar"


def _ulps(u):
    if u == np.inf:
        return "NaN against a number"
    u = int(u)
    return f"{u} ulp" + ("" if u == 1 else "s")


def _elem(d, value, bits):
    if not d.is_float:
        return str(int(value))
    text = f"{value:.9g}"
    if bits is None:
        return text
    return f"{text} (0x{bits:0{2 * d.itemsize}X})"


def _mismatch_count(expected, actual, d):
    return int(np.count_nonzero(_numerics.uint_view(expected, d) != _numerics.uint_view(actual, d)))


def _cast_once(x64, d):
    """float64 values rounded once to d, as an array holding d (bf16: uint16 bits)."""
    r = _numerics.round_to(d, x64)
    if d is _core.bfloat16:
        return (r.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    return r.astype(d.numpy)


def _readings(g, o, actual, result_arr, d):
    """Other readings of the inputs: (what, expected, compared-with) for the hints."""
    yield ("result and actual (gradInput) exchanged", lambda: _model(g, actual, d), result_arr)
    yield ("grad (gradOutput) and result exchanged", lambda: _model(o, g, d), actual)
    if d.is_float and d.itemsize == 2:
        other = _core.float16 if d is _core.bfloat16 else _core.bfloat16
        yield (f"the data read as {other.name} (dtype='{other.name}')",
               lambda: _model(g, o, other, bits=True), actual)
    if d.is_float and d is not _core.float32:
        def once(branch_le):
            # float32 math with float32 constants, one rounding at the end: PyTorch's CPU kernels
            g32 = _numerics.values(g, d).astype(np.float32)
            o32 = _numerics.values(o, d).astype(np.float32)
            scale, sa = _numerics.CONSTANTS["float32"]
            with np.errstate(all="ignore"):
                neg = o32 <= 0 if branch_le else o32 < 0
                y = np.where(neg, g32 * (o32 + np.float32(sa)), g32 * np.float32(scale))
            return _cast_once(y.astype(np.float64), d)
        yield ("float32 math rounded once to the dtype (as CPU goldens compute), not the NPU's "
               "rounding after every operation", lambda: once(False), actual)
        yield ("PyTorch's elu_backward (float32 math rounded once, branch result <= 0)",
               lambda: once(True), actual)


def _model(g, o, d, bits=False):
    if bits:  # 16-bit patterns reinterpreted as d
        g, o = g.view(np.uint16), o.view(np.uint16)
    return _core_backward(g, o, d)


def _core_backward(g, o, d):
    y = np.empty(g.shape, g.dtype)
    _core.run(_lib.backward, _lib.backward_strided, d, (g, o), y, "verify")
    return y


def verify(actual, grad, result, *, dtype=None, show=10):
    """Judges `actual` (aclnn's gradInput, e.g. dumped from an NPU) for the inputs grad
    (gradOutput) and result (the SELU forward output): bit for bit against the NPU kernel's
    result and by the precision standard. Arrays of one shape and dtype (bfloat16: uint16 bits
    with dtype='bfloat16'); `show` mismatches are listed (default 10). Returns a VerifyReport."""
    if not isinstance(show, int) or show < 0:
        raise ValueError(f"verify: show must be a whole number >= 0, not {show!r}")
    d, (a, g, o), _ = _core.check_args(
        "verify", (("actual", actual), ("grad", grad), ("result", result)), None, dtype)
    expected = _core_backward(g, o, d)
    eb, ab = _numerics.uint_view(expected, d), _numerics.uint_view(a, d)
    diff = (eb != ab).ravel()
    flat = np.flatnonzero(diff)
    nmis = int(flat.size)
    ulp = _numerics.ulp_distance(expected.ravel()[flat], np.ravel(a)[flat], d)
    max_ulp = float(ulp.max()) if nmis else 0.0
    first = []
    gv, ov = np.ravel(_numerics.values(g, d)), np.ravel(_numerics.values(o, d))
    ev, av = np.ravel(_numerics.values(expected, d)), np.ravel(_numerics.values(a, d))
    ebf, abf = eb.ravel(), np.ravel(ab)
    for k, i in enumerate(flat[:show].tolist()):
        mi = tuple(int(x) for x in np.unravel_index(i, a.shape)) if a.shape else ()
        first.append(Mismatch(i, mi, _num(gv[i], d), _num(ov[i], d), _num(ev[i], d), _num(av[i], d),
                              int(ebf[i]), int(abf[i]), float(ulp[k])))
    n = a.size
    if d.is_float:
        threshold = _numerics.THRESHOLD[d.name]
        rel, bad = _numerics.precision(a, g, o, d)
        rel, bad = rel.ravel(), bad.ravel()
        special = int(np.count_nonzero(bad))
        mere = float(rel.sum() / n) if n else 0.0
        worst = int(np.argmax(rel)) if n else 0
        mare = float(rel[worst]) if n else 0.0
        precision_ok = special == 0 and mere < threshold and mare < 10 * threshold
    else:
        threshold, mere, mare, worst, special = 0.0, 0.0, 0.0, 0, nmis
        precision_ok = nmis == 0
    hints = _hints(g, o, a, d, nmis, flat, ov) if nmis else []
    bit_exact = nmis == 0
    if bit_exact and precision_ok:
        verdict = "PASS: bit-identical to the NPU kernel's result"
    else:
        what = (f"{nmis} of {n} elements are not the NPU kernel's bits (largest distance "
                f"{_ulps(max_ulp)})" if nmis else "bit-identical to the NPU kernel's result")
        prec = ("the precision standard passes" if precision_ok else
                "the precision standard fails too" if nmis else "but the precision standard fails")
        verdict = f"FAIL: {what}; {prec}"
    return VerifyReport(dtype=d, shape=tuple(a.shape), size=int(n), mismatches=nmis, first=first,
                        max_ulp=max_ulp, bit_exact=bit_exact, mere=mere, mare=mare,
                        mare_index=worst, threshold=threshold, special_bad=special,
                        precision_ok=precision_ok, passed=bit_exact and precision_ok,
                        verdict=verdict, hints=hints)


def _other_branch_at_zero(g, a, d, flat, ov):
    """How many mismatches at result == +-0 hold grad * scale*alpha, rounded the NPU's way (dtype
    constants) or PyTorch's (float32 constants, float32 math, one rounding)."""
    idx = flat[ov[flat] == 0]
    if idx.size == 0:
        return 0
    gz = np.ravel(_numerics.values(g, d))[idx]
    got = np.ravel(_numerics.uint_view(a, d))[idx]
    sa_d = _numerics.CONSTANTS[d.name][1]
    sa32 = np.float32(_numerics.CONSTANTS["float32"][1])
    with np.errstate(all="ignore"):
        npu_way = _cast_once(gz * sa_d, d)
        torch_way = _cast_once((gz.astype(np.float32) * sa32).astype(np.float64), d)
    hits = (_numerics.uint_view(npu_way, d) == got) | (_numerics.uint_view(torch_way, d) == got)
    return int(np.count_nonzero(hits))


def _num(v, d):
    return float(v) if d.is_float else int(v)


def _hints(g, o, a, d, nmis, flat, ov):
    n = a.size
    hints = []
    for what, make, against in _readings(g, o, a, o, d):
        try:
            alt = make()
        except (TypeError, ValueError):
            continue
        m = _mismatch_count(alt, against, d)
        if m == 0 or (m * 10 <= nmis and nmis >= 10):
            hints.append(f"{n - m} of {n} elements match with {what}")
    if d.is_float:
        at_zero = _other_branch_at_zero(g, a, d, flat, ov)
        if at_zero:
            hints.append(f"{at_zero} of the {nmis} mismatches are where result is 0 or -0.0 and "
                         "the value is grad * (result + scale*alpha): the branch PyTorch's "
                         "elu_backward (and ops-nn's ATK golden) takes there; the NPU kernel "
                         "gives grad * scale")
    if not hints and nmis == n and n > 1:
        hints.append("every element differs: check the dtype and which array is gradOutput "
                     "(grad), result and gradInput (actual)")
    return hints
