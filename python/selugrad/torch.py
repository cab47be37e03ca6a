"""selugrad for PyTorch CPU tensors: SeluGrad with the NPU kernel's bits, a differentiable SELU
whose backward is selugrad's, the `selugrad::selu_backward` operator, and an nn.SELU drop-in.

Tensors are passed to the C library in place (NumPy views of their storage, bfloat16 as its
16-bit patterns): no copy for any strides. Dtypes: torch.float32, float16, bfloat16, int8,
uint8, int32. Needs torch; `import selugrad` alone does not import it.
"""
import numpy as np
import torch

import selugrad as _sg

from . import _core

_DTYPES = {torch.float32: _core.float32, torch.float16: _core.float16,
           torch.bfloat16: _core.bfloat16, torch.int8: _core.int8, torch.uint8: _core.uint8,
           torch.int32: _core.int32}
_SUPPORTED = "torch.float32, float16, bfloat16, int8, uint8, int32"


def _check(fn, named):
    for name, t in named:
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{fn}: {name} is {type(t).__name__}, not a torch.Tensor")
        if t.device.type != "cpu":
            raise ValueError(f"{fn}: {name} is on {t.device}; selugrad computes on the CPU "
                             "(move it with .cpu())")
        if t.dtype not in _DTYPES:
            supported = _SUPPORTED.replace(" uint8,", "") if fn == "selu" else _SUPPORTED
            raise TypeError(f"{fn}: {name} has dtype {t.dtype}, not one of the operator's "
                            f"({supported})")
        _check_layout(fn, name, t)
    lead, t0 = named[0]
    for name, t in named[1:]:
        if t.dtype != t0.dtype:
            raise TypeError(f"{fn}: {name} dtype {t.dtype} differs from {lead} dtype {t0.dtype} "
                            "(expected equal dtypes)")
    return _DTYPES[t0.dtype]


def _check_layout(fn, name, t):
    if t.layout != torch.strided:
        raise TypeError(f"{fn}: {name} has layout {t.layout}; selugrad takes dense (strided) "
                        "tensors (convert it with .to_dense())")


def _view(t):
    """A NumPy array over t's elements (same memory, same strides)."""
    t = t.detach()
    if t.is_neg():
        t = t.resolve_neg()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16)
    return t.numpy()


def _output_like(t, fn, out):
    if out is None:
        return torch.empty_like(t, memory_format=torch.preserve_format)
    if not isinstance(out, torch.Tensor):
        raise TypeError(f"{fn}: out is {type(out).__name__}, not a torch.Tensor")
    if out.device.type != "cpu":
        raise ValueError(f"{fn}: out is on {out.device}; selugrad computes on the CPU")
    if out.dtype != t.dtype:
        raise TypeError(f"{fn}: out dtype {out.dtype} differs from grad dtype {t.dtype} "
                        "(expected equal dtypes)")
    _check_layout(fn, "out", out)
    if out.requires_grad and torch.is_grad_enabled():  # autograd would not see the write
        raise RuntimeError(f"{fn}: out requires grad: out= does not support automatic "
                           "differentiation (as PyTorch's out= functions refuse it); out is "
                           "unchanged")
    return out


def _contiguous_call(g, o, out):
    """The common case with little Python: contiguous CPU tensors of one supported dtype and
    shape, out None or contiguous and either an input itself or apart from them. None when the
    case is another (the general path then checks and handles it)."""
    T = torch.Tensor
    if not (type(g) is T and type(o) is T and (out is None or type(out) is T)):
        return None
    d = _DTYPES.get(g.dtype)
    if (d is None or o.dtype != g.dtype or o.shape != g.shape or g.layout != torch.strided
            or o.layout != torch.strided or g.device.type != "cpu"
            or o.device.type != "cpu" or not g.is_contiguous() or not o.is_contiguous()
            or g.is_neg() or o.is_neg()):
        return None
    y = torch.empty_like(g, memory_format=torch.contiguous_format) if out is None else out
    if out is not None and (out.dtype != g.dtype or out.shape != g.shape
                            or out.layout != torch.strided or out.device.type != "cpu"
                            or not out.is_contiguous()
                            or out.requires_grad or out.is_neg()):
        return None
    n = g.numel()
    yp, gp, op = y.data_ptr(), g.data_ptr(), o.data_ptr()
    if (yp | gp | op) % d.itemsize:  # off the element's alignment: the general path copies
        return None
    nb = n * d.itemsize
    for p in (gp, op):
        if p != yp and p < yp + nb and yp < p + nb:
            return None
    st = _sg._lib.backward(d.code, n, gp, op, yp)
    if st != _sg._lib.OK:
        _sg._lib.raise_status(st)
    return y


def selu_backward(grad, result, *, out=None):
    """SeluGrad of CPU tensors, the NPU kernel's bits: grad * (result + scale*alpha) where
    result < 0, else grad * scale (docs/contract.md). grad and result of one shape and dtype
    (no broadcasting); returns a new tensor, or writes out (which may be grad or result) and
    returns it. Not differentiable itself (it is the backward)."""
    y = _contiguous_call(grad, result, out)
    if y is not None:
        return y
    d = _check("selu_backward", (("grad", grad), ("result", result)))
    y = _output_like(grad, "selu_backward", out)
    yt = _writable(y)
    _, (g, o), yv = _core.check_args("selu_backward", (("grad", _view(grad)),
                                                       ("result", _view(result))), _view(yt), d)
    _core.run(_sg._lib.backward, _sg._lib.backward_strided, d, (g, o), yv, "selu_backward")
    if yt is not y:
        y.copy_(yt)
    return y


def _writable(y):
    """y itself, or for a negative view (is_neg(), e.g. c.conj().imag), whose memory holds the
    negated values, a plain copy to compute into and then copy_ back (which negates)."""
    return y.resolve_neg() if y.is_neg() else y


def _forward(x, inplace):
    """SELU forward: the C library's where it has one, else PyTorch's (float16, which PyTorch's
    CPU SELU lacks, in float32 and rounded to float16)."""
    if _sg.HAS_FORWARD:
        _check("selu", (("x", x),))
        y = x if inplace else torch.empty_like(x, memory_format=torch.preserve_format)
        yt = _writable(y)
        _sg.selu(_view(x), out=_view(yt), dtype=_DTYPES[x.dtype])
        if yt is not y:
            y.copy_(yt)
        return y
    if x.dtype == torch.float16:
        y = torch.nn.functional.selu(x.float()).half()
        return x.copy_(y) if inplace else y
    return torch.nn.functional.selu(x, inplace=inplace)


class SeluBackwardFunction(torch.autograd.Function):
    """dx = SeluGrad(dy, y), differentiable for second derivatives (a gradient penalty, Hessian
    products): linear in dy, so its gradient there is SeluGrad(ggx, y); in y it is dy * (y +
    scale*alpha) where y < 0 and dy * scale elsewhere, so its gradient there is ggx * dy where
    y < 0 and 0 elsewhere (the contract's branch: y == 0 takes dy * scale). Autograd carries
    the y part on to x through SeluFunction's own backward, which gives SELU's second derivative
    scale * alpha * exp(x) for x < 0 and 0 for x > 0."""

    @staticmethod
    def forward(ctx, dy, y):
        ctx.save_for_backward(dy, y)
        return selu_backward(dy, y)

    @staticmethod
    def backward(ctx, ggx):
        dy, y = ctx.saved_tensors
        if ggx.dtype != y.dtype:
            ggx = ggx.to(y.dtype)
        g_dy = SeluBackwardFunction.apply(ggx, y) if ctx.needs_input_grad[0] else None
        g_y = None
        if ctx.needs_input_grad[1]:
            g_y = torch.where(y < 0, ggx * dy, torch.zeros((), dtype=y.dtype))
        return g_dy, g_y


class SeluFunction(torch.autograd.Function):
    """y = selu(x); dx = selugrad's SeluGrad(dy, y), itself differentiable (SeluBackwardFunction)."""

    @staticmethod
    def forward(ctx, x, inplace=False):
        with torch.no_grad():
            y = _forward(x, inplace)
        if inplace:
            ctx.mark_dirty(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensors
        if dy.dtype != y.dtype:
            dy = dy.to(y.dtype)
        if not torch.is_grad_enabled():  # no graph to build (create_graph=False): the call alone
            return selu_backward(dy, y), None
        return SeluBackwardFunction.apply(dy, y), None


def selu(x, inplace=False):
    """SELU, differentiable; its backward is selugrad's SeluGrad (the NPU kernel's bits). The
    forward is the C library's where it has one (selugrad.HAS_FORWARD), else PyTorch's
    (float16 computed in float32 and rounded)."""
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"selu: x is {type(x).__name__}, not a torch.Tensor")
    if inplace and x.requires_grad and torch.is_grad_enabled():
        # autograd refuses this only after the forward has run (at mark_dirty): refuse it first,
        # as torch.nn.functional.selu(inplace=True) does, so that x keeps its values.
        if x.is_leaf:
            raise RuntimeError("selu: a leaf Variable that requires grad is being used in an "
                               "in-place operation (x is unchanged)")
        if x._base is not None and x._base.is_leaf:
            raise RuntimeError("selu: a view of a leaf Variable that requires grad is being used "
                               "in an in-place operation (x is unchanged)")
    y = SeluFunction.apply(x, inplace)
    # In place, x itself, as torch.nn.functional.selu(inplace=True) returns it: where autograd
    # records nothing, apply returns a new tensor object over x's memory, not x.
    return x if inplace else y


class SELU(torch.nn.Module):
    """Drop-in for torch.nn.SELU whose backward is selugrad's SeluGrad."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, x):
        return selu(x, self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


def _register():
    """`torch.ops.selugrad.selu_backward(grad, result)`, a CPU operator of the dispatcher, where
    this torch has torch.library (1.13 and later); returns whether it is registered."""
    library = getattr(torch, "library", None)
    if library is None or not hasattr(library, "Library"):
        return False
    try:
        lib = library.Library("selugrad", "DEF")
        lib.define("selu_backward(Tensor grad, Tensor result) -> Tensor")
        lib.impl("selu_backward", lambda g, r: selu_backward(g, r), "CPU")
    except RuntimeError:  # already defined in this process (e.g. by another copy of the package)
        return hasattr(torch.ops.selugrad, "selu_backward")
    globals()["_library"] = lib  # the registration lives as long as this object
    return True


#: Whether torch.ops.selugrad.selu_backward is registered with this torch.
LIBRARY_OP = _register()
