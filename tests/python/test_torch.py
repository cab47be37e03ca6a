"""selugrad.torch and selugrad.atk: tensors of every dtype, views, out=, autograd, the
dispatcher operator, the nn.SELU drop-in, and PyTorch's documented differences as exact cases."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import selugrad  # noqa: E402
import selugrad.atk  # noqa: E402
import selugrad.torch as sgt  # noqa: E402
from conftest import call, f32_bits, make_inputs, same_bits  # noqa: E402

TORCH_DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16,
                "int8": torch.int8, "uint8": torch.uint8, "int32": torch.int32}
SCALE32 = 0x3F867D5F
SA32 = 0x3FE10966


def to_tensor(name, a):
    """The same bits as a torch tensor of the dtype."""
    if name == "bfloat16":
        return torch.from_numpy(np.ascontiguousarray(a).view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(np.ascontiguousarray(a))


def to_numpy(name, t):
    if name == "bfloat16":
        return t.view(torch.int16).numpy().view(np.uint16)
    return t.numpy()


def tbits(t):
    """bit patterns of a float tensor, as a list of ints"""
    if t.dtype == torch.float32:
        return t.numpy().view(np.uint32).tolist()
    return t.view(torch.int16).numpy().view(np.uint16).tolist()


def test_every_dtype_equals_the_numpy_api(dtype_name):
    g, o = make_inputs(dtype_name, 2000, seed=21)
    want = call(dtype_name, g, o)
    y = sgt.selu_backward(to_tensor(dtype_name, g), to_tensor(dtype_name, o))
    assert y.dtype == TORCH_DTYPES[dtype_name] and tuple(y.shape) == g.shape
    assert same_bits(to_numpy(dtype_name, y), want)


def test_views_and_out(dtype_name):
    g, o = make_inputs(dtype_name, 300, seed=22)
    n = (g.size // 12) * 12
    tg = to_tensor(dtype_name, g[:n]).reshape(-1, 12).t()[::2]  # non-contiguous
    to = to_tensor(dtype_name, o[:n]).reshape(-1, 12).t()[::2]
    want = call(dtype_name, to_numpy(dtype_name, tg.contiguous()), to_numpy(dtype_name, to.contiguous()))
    assert same_bits(to_numpy(dtype_name, sgt.selu_backward(tg, to).contiguous()), want)
    out = torch.zeros(tg.shape[1], tg.shape[0], dtype=tg.dtype).t()
    assert sgt.selu_backward(tg, to, out=out) is out
    assert same_bits(to_numpy(dtype_name, out.contiguous()), want)
    tg2 = tg.clone()
    sgt.selu_backward(tg2, to, out=tg2)  # in place
    assert same_bits(to_numpy(dtype_name, tg2.contiguous()), want)


def test_tensor_errors():
    f = torch.zeros(4)
    with pytest.raises(TypeError, match=r"^selu_backward: grad is ndarray, not a torch.Tensor"):
        sgt.selu_backward(np.zeros(4, np.float32), f)
    with pytest.raises(TypeError, match=r"^selu_backward: grad has dtype torch.float64"):
        sgt.selu_backward(f.double(), f.double())
    with pytest.raises(TypeError, match=r"^selu_backward: result dtype torch.bfloat16 differs from "
                                        r"grad dtype torch.float32"):
        sgt.selu_backward(f, f.bfloat16())
    with pytest.raises(ValueError, match=r"^selu_backward: result shape \(5,\) differs"):
        sgt.selu_backward(f, torch.zeros(5))
    with pytest.raises(TypeError, match=r"^selu_backward: out dtype torch.float16 differs"):
        sgt.selu_backward(f, f, out=torch.zeros(4, dtype=torch.float16))
    with pytest.raises(ValueError, match=r"^selu_backward: out shape \(2, 2\) differs"):
        sgt.selu_backward(f, f, out=torch.zeros(2, 2))
    with pytest.raises(ValueError, match=r"^selu_backward: grad is on meta"):
        sgt.selu_backward(torch.zeros(4, device="meta"), f)
    with pytest.raises(ValueError, match=r"out has elements sharing one address"):
        sgt.selu_backward(f, f, out=torch.zeros(1).expand(4))


@pytest.mark.parametrize("dt", [torch.float32, torch.float16, torch.bfloat16])
def test_autograd_identity(dt):
    # x.grad == selu_backward(w, selu(x)), bit for bit
    gen = torch.Generator().manual_seed(5)
    x = (torch.randn(4097, generator=gen) * 3).to(dt)
    x[:4] = torch.tensor([0.0, -0.0, 1.0, -1.0], dtype=dt)
    x.requires_grad_(True)
    w = torch.randn(4097, generator=gen).to(dt)
    y = sgt.selu(x)
    y.backward(w)
    want = sgt.selu_backward(w, y.detach())
    assert tbits(x.grad) == tbits(want)
    x.grad = None
    (sgt.selu(x) * w).sum().backward()  # the gradient reaches selu as w, through mul and sum
    assert tbits(x.grad) == tbits(want)


def test_selu_forward_is_the_librarys_or_pytorchs():
    x = torch.linspace(-3, 3, 101)
    h = x.half()
    if selugrad.HAS_FORWARD:
        for t in (x, h, x.bfloat16(), torch.arange(-5, 5, dtype=torch.int8),
                  torch.arange(-5, 5, dtype=torch.int32)):
            want = selugrad.selu(t.view(torch.int16).numpy() if t.dtype == torch.bfloat16
                                 else t.numpy(), dtype="bfloat16" if t.dtype == torch.bfloat16 else None)
            got = sgt.selu(t)
            assert got.dtype == t.dtype
            got = got.view(torch.int16).numpy() if t.dtype == torch.bfloat16 else got.numpy()
            assert same_bits(got.view(want.dtype), want)
        with pytest.raises(TypeError, match="SELUGRAD_ERR_BAD_DTYPE"):
            sgt.selu(torch.zeros(3, dtype=torch.uint8))
    else:
        assert torch.equal(sgt.selu(x), torch.nn.functional.selu(x))
        assert torch.equal(sgt.selu(h), torch.nn.functional.selu(h.float()).half())


def test_selu_module_is_a_drop_in():
    m = sgt.SELU()
    assert isinstance(m, torch.nn.Module) and repr(m) == "SELU()"
    assert repr(sgt.SELU(inplace=True)) == "SELU(inplace=True)"
    net = torch.nn.Sequential(torch.nn.Linear(8, 8), sgt.SELU(), torch.nn.Linear(8, 1))
    ref = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.SELU(), torch.nn.Linear(8, 1))
    ref.load_state_dict(net.state_dict())
    x = torch.randn(16, 8, generator=torch.Generator().manual_seed(1))
    if selugrad.HAS_FORWARD:  # the library's exponential, within an ulp of PyTorch's
        torch.testing.assert_close(net(x), ref(x), rtol=1e-6, atol=1e-6)
    else:
        assert torch.equal(net(x), ref(x))
    net(x).sum().backward()
    ref(x).sum().backward()
    # the weights' gradients agree within float32 rounding (the backward differs only at 0)
    for a, b in zip(net.parameters(), ref.parameters()):
        torch.testing.assert_close(a.grad, b.grad, rtol=1e-6, atol=1e-6)


def test_selu_in_place():
    x = torch.linspace(-2, 2, 9)
    leaf = x.clone().requires_grad_(True)
    y = leaf * 1.0
    z = sgt.SELU(inplace=True)(y)
    assert z.data_ptr() == y.data_ptr()
    z.backward(torch.ones(9))
    want = sgt.selu_backward(torch.ones(9), sgt.selu(x))
    assert tbits(leaf.grad) == tbits(want)


def test_selu_in_place_returns_x_itself():
    # torch.nn.functional.selu(x, inplace=True) returns the object x; so do selu and SELU, with
    # autograd recording or not, for views, negative views and every forward dtype. Values: S and
    # fp32(2 * S) = 0x40067D5F for x = 1 and 2; 0 for 0
    t = torch.tensor([1.0])
    assert torch.nn.functional.selu(t, inplace=True) is t  # the behaviour mirrored
    cases = [lambda: torch.tensor([1.0, 2.0, 0.0]),
             lambda: torch.tensor([9.0, 1.0, 2.0, 0.0])[1:],
             lambda: torch.tensor([1.0, 7.0, 2.0, 7.0, 0.0])[::2],
             lambda: torch._neg_view(torch.tensor([-1.0, -2.0, -0.0]))]
    for make in cases:
        for call in (lambda x: sgt.selu(x, inplace=True), lambda x: sgt.SELU(inplace=True)(x)):
            x = make()
            v0 = x._version
            assert call(x) is x
            assert x._version > v0  # autograd sees the write
            assert tbits(x.resolve_neg() if x.is_neg() else x) == [SCALE32, 0x40067D5F, 0]
            with torch.no_grad():
                x = make()
                assert call(x) is x
    leaf = torch.tensor([1.0, 2.0, 0.0], requires_grad=True)
    x = leaf * 1.0
    assert sgt.selu(x, inplace=True) is x and x.grad_fn is not None
    # fp16 and bf16: S and fp32(2 * S) rounded to nearest, ties away (0x3C34 / 0x4034 and
    # 0x3F86 / 0x4006); int32 and int8: 1 and 2 (the contract's integer paths)
    for dt, want in ((torch.float16, [0x3C34, 0x4034, 0]), (torch.bfloat16, [0x3F86, 0x4006, 0]),
                     (torch.int32, [1, 2, 0]), (torch.int8, [1, 2, 0])):
        x = torch.tensor([1, 2, 0]).to(dt)
        assert sgt.selu(x, inplace=True) is x
        got = x.view(torch.int16).tolist() if dt in (torch.float16, torch.bfloat16) else x.tolist()
        assert [v & 0xFFFF for v in got] == want
    # out=: the object given comes back, as PyTorch's out= functions return it
    out = torch.empty(3)
    assert sgt.selu_backward(torch.ones(3), torch.tensor([1.0, 2.0, 0.0]), out=out) is out
    assert tbits(out) == [SCALE32] * 3
    g = torch.ones(3)
    assert sgt.selu_backward(g, torch.tensor([-1.0, 0.0, 1.0]), out=g) is g
    assert tbits(g) == [0x3F4212CC, SCALE32, SCALE32]


def test_selu_in_place_on_a_leaf_is_refused_before_writing():
    # torch.nn.functional.selu(inplace=True) refuses a leaf that requires grad, or a view of one,
    # and leaves it unchanged; so must the drop-in (autograd alone would refuse it only after
    # the forward had overwritten x)
    for make in (lambda leaf: leaf, lambda leaf: leaf[1:3]):
        leaf = torch.tensor([-1.0, 2.0, -0.5, 0.25], requires_grad=True)
        with pytest.raises(RuntimeError, match=r"^selu: a (view of a )?leaf Variable that "
                                               r"requires grad .* \(x is unchanged\)$"):
            sgt.selu(make(leaf), inplace=True)
        assert leaf.detach().tolist() == [-1.0, 2.0, -0.5, 0.25]
        with pytest.raises(RuntimeError, match=r"leaf Variable that requires grad"):
            sgt.SELU(inplace=True)(make(leaf))
        assert leaf.detach().tolist() == [-1.0, 2.0, -0.5, 0.25]
    with torch.no_grad():  # without autograd, in place on a leaf is allowed, as in PyTorch
        leaf = torch.tensor([2.0], requires_grad=True)
        sgt.selu(leaf, inplace=True)
    assert tbits(leaf.detach()) == [0x40067D5F]  # fp32(2 * 0x3F867D5F) = 2.101402


def test_out_that_requires_grad_is_refused_unchanged():
    # PyTorch's out= functions refuse an out that requires grad (a write autograd would not
    # see); selu_backward does too, contiguous or not, and leaves out as it was
    g = torch.ones(4)
    o = torch.tensor([-1.0, 0.0, 1.0, -0.5])
    for out in (torch.zeros(4, requires_grad=True), torch.zeros(8, requires_grad=True)[::2],
                torch.zeros(4, requires_grad=True) * 1.0):
        with pytest.raises(RuntimeError, match=r"^selu_backward: out requires grad: out= does not "
                                               r"support automatic differentiation"):
            sgt.selu_backward(g, o, out=out)
        assert out.detach().tolist() == [0.0, 0.0, 0.0, 0.0]
    out = torch.zeros(4, requires_grad=True)
    with torch.no_grad():  # without autograd the write is the caller's to make, as in PyTorch
        sgt.selu_backward(g, o, out=out)
    # g = 1: o = -1 gives fp32(-1 + SA) = 0.75809932, o = -0.5 gives 1.2580993 (both exact)
    assert tbits(out.detach()) == [0x3F4212CC, SCALE32, SCALE32, 0x3FA10966]


def test_negative_views_are_written_as_they_read():
    # a negative view (is_neg(), as c.conj().imag gives) holds the negated values in memory: out=
    # and in place must leave it reading the results (fp32(-1 + SA) = 0x3F4212CC,
    # -0.5 + SA = 0x3FA10966; selu(2) = fp32(2 * S) = 0x40067D5F, selu(1) = S)
    base = torch.zeros(4)
    out = torch._neg_view(base)
    assert out.is_neg()
    sgt.selu_backward(torch.ones(4), torch.tensor([-1.0, 0.0, 1.0, -0.5]), out=out)
    want = [0x3F4212CC, SCALE32, SCALE32, 0x3FA10966]
    assert tbits(out.resolve_neg()) == want
    assert tbits(base) == [b | 0x80000000 for b in want]
    base = torch.tensor([-2.0, -1.0])
    x = torch._neg_view(base)
    y = sgt.selu(x, inplace=True)
    assert tbits(x.resolve_neg()) == [0x40067D5F, SCALE32]
    assert tbits(y.resolve_neg()) == [0x40067D5F, SCALE32]
    assert tbits(base) == [0xC0067D5F, 0x80000000 | SCALE32]


def test_sparse_and_other_layouts_are_refused_by_name():
    f = torch.tensor([1.0, -1.0, 0.5])
    sparse = f.to_sparse()
    for call in (lambda: sgt.selu_backward(sparse, f), lambda: sgt.selu_backward(f, sparse),
                 lambda: sgt.selu(sparse)):
        with pytest.raises(TypeError, match=r": (grad|result|x) has layout torch.sparse_coo; "
                                            r"selugrad takes dense \(strided\) tensors"):
            call()
    out = torch.zeros(3).to_sparse()
    with pytest.raises(TypeError, match=r"^selu_backward: out has layout torch.sparse_coo"):
        sgt.selu_backward(f, f, out=out)


def test_unaligned_tensors_reach_the_c_api_aligned(monkeypatch):
    # torch.frombuffer at an odd offset gives float32 tensors 1 byte off their alignment; the
    # package passes such tensors to the C API as aligned copies (the C API would take them too,
    # docs/api.md, copying them through its own aligned buffers)
    seen = []
    lib = selugrad._lib

    def spy(fn, strided):
        def call(code, n, *args):
            ptrs = args[0::2] if strided else args  # strided: pointer, stride, pointer, ...
            seen.extend((p, lib.dtype_size(code)) for p in ptrs if p)
            return fn(code, n, *args)
        return call

    for name, strided in (("backward", False), ("backward_strided", True)):
        monkeypatch.setattr(lib, name, spy(getattr(lib, name), strided))
    buf = bytearray(4 * 8 + 1)
    g = torch.frombuffer(buf, dtype=torch.float32, offset=1, count=8)
    g[:] = torch.tensor([1.0] * 8)
    o = torch.tensor([-1.0, 0.0, 1.0, -0.5, -1.0, 0.0, 1.0, -0.5])
    for out in (None, g):
        y = sgt.selu_backward(g, o, out=out)
        assert tbits(y) == [0x3F4212CC, SCALE32, SCALE32, 0x3FA10966] * 2
        g[:] = 1.0
    assert seen and all(p % size == 0 for p, size in seen), seen


def test_dispatcher_operator():
    assert sgt.LIBRARY_OP  # torch 1.13 has torch.library
    g = torch.tensor([1.0, 1.0, 2.0])
    o = torch.tensor([-1.0, 0.0, 0.5])
    assert tbits(torch.ops.selugrad.selu_backward(g, o)) == tbits(sgt.selu_backward(g, o))


@pytest.mark.parametrize("zero", [0.0, -0.0])
def test_pytorch_differs_at_zero_exactly_as_documented(zero):
    # At result == 0 and -0.0 the NPU kernel gives g * scale; PyTorch's elu_backward takes its
    # o <= 0 branch, g * (o + scale*alpha). Exact fp32 values from the contract's constants.
    g = torch.tensor([1.0, 2.0, -0.5])
    o = torch.full((3,), zero)
    npu = sgt.selu_backward(g, o)
    assert tbits(npu) == [SCALE32, f32_bits(2 * np.float32(1.0507009873554805)),
                          f32_bits(-0.5 * np.float32(1.0507009873554805))]
    pt = torch.ops.aten.elu_backward(g, 1.6732632423543772848170429916717,
                                     1.0507009873554804934193349852946, 1.0, True, o)
    assert tbits(pt) == [SA32, f32_bits(2 * np.float32(1.7580993408473768)),
                         f32_bits(-0.5 * np.float32(1.7580993408473768))]
    # through autograd: F.selu's backward at x == 0 (selu(0) == 0) is PyTorch's branch
    x = torch.tensor([zero], requires_grad=True)
    torch.nn.functional.selu(x).backward(torch.ones(1))
    assert tbits(x.grad) == [SA32]
    x.grad = None
    sgt.selu(x).backward(torch.ones(1))
    assert tbits(x.grad) == [SCALE32]


def test_pytorch_bfloat16_backward_is_float32_math_rounded_once():
    # the table of docs/python.md: bf16 elu_backward = fp32 constants and math, one rounding
    gen = torch.Generator().manual_seed(3)
    g = torch.randn(20000, generator=gen).bfloat16()
    o = torch.randn(20000, generator=gen).bfloat16()
    pt = torch.ops.aten.elu_backward(g, 1.6732632423543772848170429916717,
                                     1.0507009873554804934193349852946, 1.0, True, o)
    g32, o32 = g.float(), o.float()
    once = torch.where(o32 <= 0, g32 * (o32 + np.float32(1.7580993408473768)),
                       g32 * np.float32(1.0507009873554805)).bfloat16()
    assert tbits(pt) == tbits(once)
    assert tbits(pt) != tbits(sgt.selu_backward(g, o))  # and so not the NPU's bits


def _executor_golden(dy, y):
    """ops-nn's ST executor golden for aclnnSeluBackward, with its no-op casts."""
    scale = 1.0507009873554804934193349852946
    alpha = 1.6732632423543772848170429916717
    res_dtype = y.dtype
    dy.float()
    y.float()
    res = torch.where(y > 0, dy * scale, dy * (y + scale * alpha))
    res.to(res_dtype)
    return res


@pytest.mark.parametrize("dt", [torch.float32, torch.float16, torch.bfloat16])
def test_atk_drop_in(dt):
    gen = torch.Generator().manual_seed(8)
    dy = torch.randn(5000, generator=gen).to(dt)
    y = torch.randn(5000, generator=gen).to(dt)
    y[:3] = torch.tensor([0.0, -0.0, float("nan")])
    dy[:3] = 1.0
    got = selugrad.atk.selu_backward(dy, y)
    if selugrad.HAS_FORWARD:
        assert tbits(selugrad.atk.selu(dy)) == tbits(sgt.selu(dy))
    assert got.dtype == y.dtype
    assert tbits(got) == tbits(sgt.selu_backward(dy, y))
    ex = _executor_golden(dy, y)
    assert ex.dtype == dt
    assert torch.isnan(ex[2]) and tbits(got[2:3]) == tbits(sgt.selu_backward(dy[2:3], dy[2:3]))
    # everywhere else, with torch 1.13 (a Python scalar is converted to the tensor's dtype before
    # the product, so the 16-bit golden uses the 16-bit constants), the golden is the NPU's
    assert tbits(ex[3:]) == tbits(got[3:])
    # at 0 and -0.0 the executor's golden is dy * scale*alpha, the NPU's dy * scale
    if dt == torch.float32:
        assert tbits(ex[:2]) == [SA32, SA32] and tbits(got[:2]) == [SCALE32, SCALE32]
    elif dt == torch.float16:
        assert tbits(got[:2]) == [0x3C34, 0x3C34] and tbits(ex[:2]) == [0x3F08, 0x3F08]
    else:
        assert tbits(got[:2]) == [0x3F86, 0x3F86] and tbits(ex[:2]) == [0x3FE1, 0x3FE1]


def test_selu_refusal_lists_the_forwards_dtypes():
    # the forward has no uint8: its refusal of float64 must not offer it; SeluGrad's keeps it
    with pytest.raises(TypeError) as e:
        sgt.selu(torch.zeros(3, dtype=torch.float64))
    assert "int32" in str(e.value) and "uint8" not in str(e.value), str(e.value)
    with pytest.raises(TypeError) as e:
        sgt.selu_backward(torch.zeros(3, dtype=torch.float64), torch.zeros(3, dtype=torch.float64))
    assert "uint8" in str(e.value), str(e.value)


def test_second_derivative_is_selus():
    # d2/dx2 selu(x) = scale * alpha * exp(x) for x < 0 and 0 for x > 0 (float64 model, the
    # contract's constants); a gradient penalty's backward must see it, not a constant
    scale, alpha = 1.0507009873554804934193349852946, 1.6732632423543772848170429916717
    x = torch.tensor([-4.0, -1.5, -0.25, -0.01, 0.3, 2.0], requires_grad=True)
    w = torch.tensor([1.0, -2.0, 0.5, 3.0, 1.5, -1.0])
    xd, wd = x.detach().double(), w.double()
    neg = xd < 0
    (g,) = torch.autograd.grad((sgt.selu(x) * w).sum(), x, create_graph=True)
    assert g.requires_grad
    (h,) = torch.autograd.grad(g.sum(), x)
    want = torch.where(neg, wd * scale * alpha * torch.exp(xd), torch.zeros_like(xd))
    # y = selu(x) in fp32 loses up to 2^-24 * 1.76 in y + scale*alpha (about 0.032 at x = -4)
    torch.testing.assert_close(h.double(), want, rtol=2e-5, atol=0)
    # the gradient penalty sum(g^2): d/dx = 2 * g * w * selu''(x)
    x.grad = None
    (g,) = torch.autograd.grad((sgt.selu(x) * w).sum(), x, create_graph=True)
    (g * g).sum().backward()
    gd = torch.where(neg, wd * scale * alpha * torch.exp(xd), wd * scale)
    torch.testing.assert_close(x.grad.double(), 2 * gd * want, rtol=4e-5, atol=0)
    # the first derivative keeps selugrad's bits whether or not a graph is built
    assert tbits(g.detach()) == tbits(sgt.selu_backward(w, sgt.selu(x.detach())))


def test_atk_goldens_refuse_what_is_not_a_tensor():
    # by name, as selugrad.torch does, not an AttributeError from inside
    with pytest.raises(TypeError, match=r"^selu_backward: dy is list, not a torch.Tensor"):
        selugrad.atk.selu_backward([1.0], torch.ones(1))
    with pytest.raises(TypeError, match=r"^selu_backward: y is ndarray, not a torch.Tensor"):
        selugrad.atk.selu_backward(torch.ones(1), np.ones(1, np.float32))
    if selugrad.HAS_FORWARD:
        with pytest.raises(TypeError, match=r"^selu: x is float, not a torch.Tensor"):
            selugrad.atk.selu(1.0)
