"""Drop-in goldens for ops-nn's ATK system tests of aclnnSeluBackward, returning the NPU's bits.

ops-nn's ST executor computes its CPU golden as

    torch.where(y > 0, dy * scale, dy * (y + scale * alpha))

with `dy.float()` / `.to(res_dtype)` calls whose results are discarded, so it runs in the
tensors' own dtype with PyTorch's rounding, and at y == 0 (and -0.0) takes the branch the NPU
kernel does not (the kernel tests y < 0). Replacing that function with `selu_backward` below
gives the NPU kernel's result bit for bit; docs/python.md shows how often the two differ.
"""
from . import torch as _sgt


def selu_backward(dy, y):
    """The NPU kernel's gradInput for gradOutput dy and result y (CPU or not: the values are
    read on the CPU); a tensor of y's dtype, on the CPU."""
    _tensors("selu_backward", (("dy", dy), ("y", y)))
    dy, y = dy.detach().cpu(), y.detach().cpu()
    return _sgt.selu_backward(dy, y)


def _tensors(fn, named):
    for name, t in named:
        if not isinstance(t, _sgt.torch.Tensor):
            raise TypeError(f"{fn}: {name} is {type(t).__name__}, not a torch.Tensor")


if _sgt._sg.HAS_FORWARD:
    def selu(x):
        """SELU forward as the C library computes it (the forward contract: docs/python.md)."""
        _tensors("selu", (("x", x),))
        return _sgt._forward(x.detach().cpu(), False)

__all__ = ["selu_backward"] + (["selu"] if _sgt._sg.HAS_FORWARD else [])
