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


# --- notebooks 05 to 08: each claim of the text, as the behaviour that backs it ----------------
from needle.models import MultiPathScaleAdd  # noqa: E402


def lecture_train(opt_of, epochs, reset=True):
    """Notebook 05's loop on the lecture's model at x = y = 2; opt_of(params) builds the optimizer."""
    model = MultiPathScaleAdd()
    opt = opt_of(model.parameters())
    x, y = ndl.Tensor([2.0], requires_grad=False), ndl.Tensor([2.0], requires_grad=False)
    losses = []
    for _ in range(epochs):
        if reset:
            opt.reset_grad()
        loss = ndl.nn.L2Loss()(model(x), y)
        losses.append(loss.numpy().item())
        loss.backward()
        opt.step()
    return np.array(losses)


def test_05_lecture_losses_shrink_by_0_64_and_0_36_with_twice_the_rate():
    # e_{k+1} = (1 - 20 lr) e_k: 0.8 for lr = 0.01, 0.6 for lr = 0.02 (the visible test's hand values)
    np.testing.assert_allclose(lecture_train(lambda p: ndl.optim.SGD(p, lr=0.01), 5), 4 * 0.64 ** np.arange(5), rtol=1e-5)
    np.testing.assert_allclose(lecture_train(lambda p: ndl.optim.SGD(p, lr=0.02), 3), [4.0, 1.44, 0.5184], rtol=1e-5)


def test_05_the_dlsys_average_is_pytorchs_momentum_times_one_minus_mu():
    rng = np.random.default_rng(0)
    mu, lr = 0.9, 0.1
    p_avg = p_torch = rng.standard_normal(3)
    u = v = np.zeros(3)
    for _ in range(20):
        g = rng.standard_normal(3)
        u = mu * u + (1 - mu) * g  # dlsys, from 0
        v = mu * v + g             # PyTorch (from 0: the same as starting at g)
        np.testing.assert_allclose(u, (1 - mu) * v, rtol=1e-12, atol=1e-15)
        p_avg, p_torch = p_avg - lr * u, p_torch - lr * (1 - mu) * v  # PyTorch's rule with lr (1 - mu)
        np.testing.assert_allclose(p_avg, p_torch, rtol=1e-12)


def test_05_no_reset_grad_is_momentum_one_an_undamped_oscillation():
    without = lecture_train(lambda p: ndl.optim.SGD(p, lr=0.01), 40, reset=False)
    momentum_one = lecture_train(lambda p: ndl.optim.SGD(p, lr=0.01, momentum=1.0), 40)
    np.testing.assert_array_equal(without, momentum_one)
    peaks = [k for k in range(1, 39) if without[k - 1] < without[k] > without[k + 1]]
    assert peaks == [6, 13, 20, 27, 34]  # every pi / arccos(0.9) = 6.97 epochs
    assert 4.0 < max(without) <= 4.21 and min(without[30:]) < 0.1 < max(without[30:])  # never damped: A^2 = 4.21


def test_05_a_new_momentum_optimizer_every_epoch_is_plain_sgd():
    model = MultiPathScaleAdd()
    x, y = ndl.Tensor([2.0], requires_grad=False), ndl.Tensor([2.0], requires_grad=False)
    fresh = []
    for _ in range(15):
        opt = ndl.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        opt.reset_grad()
        loss = ndl.nn.L2Loss()(model(x), y)
        fresh.append(loss.numpy().item())
        loss.backward()
        opt.step()
    np.testing.assert_array_equal(fresh, lecture_train(lambda p: ndl.optim.SGD(p, lr=0.01), 15))
    kept = lecture_train(lambda p: ndl.optim.SGD(p, lr=0.01, momentum=0.9), 30)
    assert kept[-1] > 100 * lecture_train(lambda p: ndl.optim.SGD(p, lr=0.01), 30)[-1]


def test_06_a_numpy_float64_scalar_upcasts_float32_only_under_numpy_2():
    x32 = np.ones(3, dtype=np.float32)
    assert (x32 + 0.5).dtype == np.float32 and (x32 + np.float32(0.5)).dtype == np.float32
    assert (x32 + np.array([0.5])).dtype == np.float64
    numpy2 = int(np.__version__.split(".")[0]) >= 2
    assert (x32 + np.float64(0.5)).dtype == (np.float64 if numpy2 else np.float32)


def test_07_naive_init_np_std_overflows_at_16_the_activations_at_36():
    np.random.seed(0)  # notebook 07's naive run
    h = np.random.randn(1000, 256).astype(np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        for layer in range(1, 37):
            h = np.maximum(0, h @ np.random.randn(256, 256).astype(np.float32))
            if layer == 15:
                assert np.isfinite(np.std(h))
            if layer == 16:  # float32's sum of squares overflows; the std itself fits
                assert np.isinf(np.std(h)) and 5e16 < np.std(h, dtype=np.float64) < 1e17
                assert np.sum(h.astype(np.float64) ** 2) > np.finfo(np.float32).max
            if layer == 35:
                assert np.isfinite(h).all() and 5e37 < h.max() < np.finfo(np.float32).max
    assert not np.isfinite(h).all()  # layer 36


def test_08_an_epoch_of_1347_digits_is_42_batches_of_32_and_one_of_3():
    dataset = ndl.data.NDArrayDataset(np.zeros((1347, 64), dtype=np.float32), np.zeros(1347, dtype=np.int64))
    sizes = [xb.shape[0] for xb, _ in ndl.data.DataLoader(dataset, batch_size=32)]
    assert len(sizes) == 43 and sizes[:-1] == [32] * 42 and sizes[-1] == 3


def test_08_softmax_loss_takes_its_log_softmax_from_the_logsoftmax_op_with_the_max_shift():
    from needle.autograd import find_topo_sort

    logits = ndl.Tensor(np.array([[1000.0, 0.0, -1000.0]], dtype=np.float32))
    loss = ndl.nn.SoftmaxLoss()(logits, ndl.Tensor([0], dtype="int64", requires_grad=False))
    ops = [type(n.op).__name__ for n in find_topo_sort([loss]) if n.op is not None]
    assert ops[0] == "LogSoftmax" and "LogSumExp" not in ops
    assert np.isfinite(loss.numpy()).all() and abs(loss.numpy().item()) < 1e-6  # no overflow: the max is subtracted


def test_08_a_dead_relu_gets_no_gradient_but_momentum_can_still_move_it():
    # one hidden unit whose pre-activation is negative for every input: its weights get zero gradient
    x = ndl.Tensor(np.abs(np.random.default_rng(0).standard_normal((8, 2))), requires_grad=False)
    for momentum, moves in ((0.0, False), (0.9, True)):
        w = ndl.nn.Parameter(np.array([[-1.0], [-1.0]], dtype=np.float32))
        opt = ndl.optim.SGD([w], lr=0.1, momentum=momentum)
        w.grad = ndl.Tensor([[0.5], [0.5]], requires_grad=False)  # a gradient from before it died
        opt.step()
        before = w.numpy().copy()
        opt.reset_grad()
        ndl.ops.relu(x @ w).sum().backward()
        assert np.all(w.grad.numpy() == 0)
        opt.step()
        assert (not np.array_equal(w.numpy(), before)) is moves
