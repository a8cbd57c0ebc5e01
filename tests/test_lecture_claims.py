"""The lecture's claims about graphs and memory, as behaviour (not timing) tests."""
import gc
import tracemalloc

import numpy as np

import needle as ndl
from needle.autograd import graph_node_count


def naive_loop(n):
    w = ndl.Tensor(np.ones(16))
    grad = ndl.Tensor(np.full(16, 0.1), requires_grad=False)
    for _ in range(n):
        w = w + (-0.01) * grad  # extends w's graph every iteration
    return w


def detached_loop(n):
    w = ndl.Tensor(np.ones(16))
    grad = ndl.Tensor(np.full(16, 0.1), requires_grad=False)
    for _ in range(n):
        w.data = w.data + (-0.01) * grad  # no graph: w stays one leaf
    return w


def traced_bytes(loop, n):
    """Bytes still allocated after running ``loop(n)`` while its result is alive."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        result = loop(n)
        gc.collect()
        used = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    del result
    return used


def test_naive_loop_graph_grows_linearly():
    # each iteration adds two nodes: the detached (-lr)*grad constant and the add
    for n in (0, 1, 10, 1000):
        assert graph_node_count(naive_loop(n)) == 1 + 2 * n


def test_naive_loop_walk_matches_the_lecture():
    w = naive_loop(3)
    assert isinstance(w.op, ndl.ops.EWiseAdd)
    assert isinstance(w.inputs[0].op, ndl.ops.EWiseAdd)
    assert w.inputs[1].op is None  # (-lr) * grad needs no gradient: a detached constant
    assert isinstance(w.inputs[0].inputs[0].op, ndl.ops.EWiseAdd)


def test_naive_loop_memory_grows_linearly():
    m1, m2 = traced_bytes(naive_loop, 2000), traced_bytes(naive_loop, 4000)
    assert m1 > 2000 * 100, f"expected >100 bytes per iteration retained, got {m1 / 2000:.0f}"
    assert 1.7 < m2 / m1 < 2.3, f"memory did not double with the iteration count: {m1} -> {m2}"


def test_detached_loop_graph_and_memory_stay_flat():
    w = detached_loop(5000)
    assert graph_node_count(w) == 1 and w.op is None and w.inputs == ()
    np.testing.assert_allclose(w.numpy(), 1 - 5000 * 0.001, rtol=1e-4)
    m_small, m_large = traced_bytes(detached_loop, 500), traced_bytes(detached_loop, 5000)
    assert m_large < 4096, f"the detached loop retained {m_large} bytes after 5000 steps"
    assert m_large - m_small < 1024


def test_data_shares_cached_data():
    w = ndl.Tensor([1.0, 2.0])
    assert w.data.cached_data is w.cached_data
    assert w.detach().cached_data is w.cached_data
