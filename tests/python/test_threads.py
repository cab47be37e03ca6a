"""Calls from several Python threads at once give the results of the calls made one by one, and
the GIL is released while the C library computes."""
import sys
import threading
import time

import numpy as np

import selugrad
from conftest import HOLDERS, call, make_inputs, same_bits


def test_concurrent_calls_equal_sequential_ones():
    cases = []
    for k, name in enumerate(list(HOLDERS) * 2):
        g, o = make_inputs(name, 20000 + 997 * k, seed=100 + k)
        if k % 3 == 1:
            g, o = g[::-1], o[::-1]
        cases.append((name, g, o))
    want = [call(name, g, o) for name, g, o in cases]
    got = [[None] * len(cases) for _ in range(4)]
    errors = []
    start = threading.Barrier(4)

    def worker(t):
        try:
            start.wait()
            for rnd in range(5):
                for i in range(len(cases)):
                    j = (i + t + rnd) % len(cases)
                    name, g, o = cases[j]
                    out = np.empty_like(g)
                    call(name, g, o, out=out)
                    if got[t][j] is None:
                        got[t][j] = out
                    elif not same_bits(got[t][j], out):
                        errors.append((t, j))
        except Exception as e:  # surfaced below, with the thread that raised it
            errors.append((t, repr(e)))

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    for t in range(4):
        for j in range(len(cases)):
            assert same_bits(got[t][j], want[j]), (t, j)


def test_errors_in_threads_keep_their_own_messages():
    msgs = {}

    def worker(t):
        try:
            selugrad.set_num_threads(2000 + t)
        except ValueError as e:
            msgs[t] = str(e)

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for t in range(4):
        assert f"got {2000 + t}" in msgs[t]


def test_the_gil_is_released_during_a_call():
    # The switch interval is made so long that the main thread keeps the GIL unless it releases
    # it itself; the other thread counts only while it holds the GIL. So the count moves during
    # the main thread's calls only if the calls release the GIL.
    g = np.ones(4 << 20, np.float32)
    o = np.full(4 << 20, -0.5, np.float32)
    y = np.empty_like(g)
    count = [0]
    stop = threading.Event()

    def counter():
        while not stop.is_set():
            count[0] += 1
            time.sleep(0)  # releases the GIL, so the main thread gets it back after each call

    old = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    th = threading.Thread(target=counter)
    th.start()
    moved = 0
    try:
        for _ in range(20):
            before = count[0]
            selugrad.selu_backward(g, o, out=y)
            moved += count[0] - before
    finally:
        stop.set()
        sys.setswitchinterval(old)
        th.join()
    assert moved > 0
