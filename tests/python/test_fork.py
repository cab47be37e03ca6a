"""A child of fork() made after the parent's calls on two threads (multiprocessing with the fork
start method, as PyTorch's DataLoader workers are) gets the contract's results from its own calls
on two threads, and does not hang."""
import multiprocessing

import numpy as np
import pytest

import selugrad
from conftest import f32_bits

N = 1 << 20
SCALE = 0x3F867D5F  # the contract's scale in f32: g = 1, o >= 0
SA = np.array(0x3FE10966, np.uint32).view(np.float32)  # the contract's scale * alpha in f32
BELOW = f32_bits(np.float32(-0.5) + SA)  # g = 1, o = -0.5: round(o + SA), times 1


def _inputs():
    g = np.ones(N, np.float32)
    o = np.where(np.arange(N) % 2 == 0, np.float32(0.5), np.float32(-0.5)).astype(np.float32)
    return g, o


def _child_bits(_):
    g, o = _inputs()
    y = selugrad.selu_backward(g, o)
    b = y.view(np.uint32)
    return int(b[0::2].min()), int(b[0::2].max()), int(b[1::2].min()), int(b[1::2].max())


@pytest.fixture
def two_threads():
    selugrad.set_num_threads(2)
    yield
    selugrad.set_num_threads(0)


def test_fork_children_after_a_parent_call(two_threads):
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork start method here")
    assert BELOW == f32_bits(1.2580993)  # the contract's decimal value of -0.5 + SA
    g, o = _inputs()
    y = selugrad.selu_backward(g, o)  # the parent's pool starts its worker
    assert int(y.view(np.uint32)[0]) == SCALE and int(y.view(np.uint32)[1]) == BELOW
    with multiprocessing.get_context("fork").Pool(2) as pool:
        got = pool.map_async(_child_bits, range(4)).get(timeout=120)
    assert got == [(SCALE, SCALE, BELOW, BELOW)] * 4
