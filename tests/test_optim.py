"""Optimizers: PyTorch's update rules, restated in numpy here (always) and checked against
PyTorch itself when the optional ``torch`` extra is installed."""
import numpy as np
import pytest

import needle as ndl
from needle import nn, optim

STEPS = 6


def grad_sequence(shape, seed=0):
    r = np.random.default_rng(seed)
    return [r.standard_normal(shape) for _ in range(STEPS)]


def run_needle(opt_cls, p0, grads, **kwargs):
    """Apply the optimizer to one parameter with a given sequence of gradients (float64)."""
    p = nn.Parameter(p0, dtype="float64")
    opt = opt_cls([p], **kwargs)
    trajectory = []
    for g in grads:
        opt.reset_grad()
        p.grad = ndl.Tensor(g, dtype="float64", requires_grad=False)
        opt.step()
        trajectory.append(p.numpy().copy())
    return trajectory


def sgd_reference(p, grads, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
    """torch.optim.SGD's documented algorithm."""
    p, buf, out = p.copy(), None, []
    for g in grads:
        g = g + weight_decay * p
        if momentum != 0:
            buf = g.copy() if buf is None else momentum * buf + (1 - dampening) * g
            g = g + momentum * buf if nesterov else buf
        p = p - lr * g
        out.append(p)
    return out


def adam_reference(p, grads, lr, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.0):
    """torch.optim.Adam's documented algorithm (amsgrad off)."""
    p, m, v, out = p.copy(), 0.0, 0.0, []
    for t, g in enumerate(grads, start=1):
        g = g + weight_decay * p
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g**2
        m_hat, v_hat = m / (1 - beta1**t), v / (1 - beta2**t)
        p = p - lr * m_hat / (np.sqrt(v_hat) + eps)
        out.append(p)
    return out


SGD_CONFIGS = [
    dict(lr=0.1),
    dict(lr=0.05, momentum=0.9),
    dict(lr=0.05, momentum=0.9, dampening=0.3),
    dict(lr=0.05, momentum=0.8, nesterov=True),
    dict(lr=0.1, weight_decay=0.01),
    dict(lr=0.02, momentum=0.5, weight_decay=0.1, nesterov=True),
]
ADAM_CONFIGS = [
    dict(lr=1e-3),
    dict(lr=0.1, beta1=0.5, beta2=0.9),
    dict(lr=0.01, weight_decay=0.05),
    dict(lr=0.01, eps=1e-2),
]


@pytest.mark.parametrize("config", SGD_CONFIGS, ids=str)
def test_sgd_matches_restated_rule(config):
    p0, grads = np.array([[1.0, -2.0], [0.5, 3.0]]), grad_sequence((2, 2))
    got = run_needle(optim.SGD, p0, grads, **config)
    np.testing.assert_allclose(got, sgd_reference(p0, grads, **config), rtol=1e-12)


@pytest.mark.parametrize("config", ADAM_CONFIGS, ids=str)
def test_adam_matches_restated_rule(config):
    p0, grads = np.array([1.0, -2.0, 0.0]), grad_sequence((3,), seed=1)
    got = run_needle(optim.Adam, p0, grads, **config)
    np.testing.assert_allclose(got, adam_reference(p0, grads, **config), rtol=1e-12)


def test_sgd_momentum_by_hand():
    # p0 = 1, lr = 0.1, momentum 0.9, g = 1 each step:
    # buf1 = 1 -> p1 = 0.9; buf2 = 0.9 * 1 + 1 = 1.9 -> p2 = 0.9 - 0.19 = 0.71
    got = run_needle(optim.SGD, np.array([1.0]), [np.array([1.0])] * 2, lr=0.1, momentum=0.9)
    np.testing.assert_allclose(np.ravel(got), [0.9, 0.71], rtol=1e-14)


def test_adam_first_step_by_hand():
    # t = 1: m_hat = g, v_hat = g^2, so the step is lr * g / (|g| + eps) = lr * sign(g) (eps -> 0)
    got = run_needle(optim.Adam, np.array([1.0, 1.0]), [np.array([3.0, -0.5])], lr=0.1, eps=0.0)
    np.testing.assert_allclose(got[0], [0.9, 1.1], rtol=1e-14)


def run_needle_params(opt_cls, p0s, grad_lists, **kwargs):
    """One optimizer over several float64 parameters; grad_lists[i][k] is parameter i's gradient
    at step k (None: no gradient that step). Returns each parameter's final value."""
    params = [nn.Parameter(p0, dtype="float64") for p0 in p0s]
    opt = opt_cls(params, **kwargs)
    for step_grads in zip(*grad_lists):
        opt.reset_grad()
        for p, g in zip(params, step_grads):
            p.grad = None if g is None else ndl.Tensor(g, dtype="float64", requires_grad=False)
        opt.step()
    return [p.numpy() for p in params]


def test_adam_two_parameters_constant_gradient_by_hand():
    """Each parameter's bias correction counts its own steps, however many parameters share Adam."""
    # With a constant g, m_t = (1 - b1^t) g and v_t = (1 - b2^t) g^2, so m_hat = g and v_hat = g^2:
    # every step is lr * g / |g| = lr * sign(g) (eps = 0). Two steps of lr = 0.1 from 1:
    # g = 2 -> 0.8, g = -0.5 -> 1.2. (A step counter shared by both gives 0.814 and 1.153.)
    got = run_needle_params(optim.Adam, [np.array([1.0]), np.array([1.0])],
                            [[np.array([2.0])] * 2, [np.array([-0.5])] * 2], lr=0.1, eps=0.0)
    np.testing.assert_allclose(np.ravel(got), [0.8, 1.2], rtol=1e-12)


def test_adam_keeps_state_per_parameter_and_counts_only_its_steps():
    """Two parameters of different shapes, one without a gradient at some steps: each follows
    the restated rule on its own gradients alone (PyTorch's per-parameter state)."""
    a0, b0 = np.array([1.0, -2.0, 0.0]), np.array([[0.5, 3.0], [-1.0, 2.0]])
    ga, gb = grad_sequence((3,), seed=2), grad_sequence((2, 2), seed=3)
    gb = [None if k in (1, 2) else g for k, g in enumerate(gb)]  # b skips steps 2 and 3
    config = dict(lr=0.1, beta1=0.8, beta2=0.95)
    a, b = run_needle_params(optim.Adam, [a0, b0], [ga, gb], **config)
    np.testing.assert_allclose(a, adam_reference(a0, ga, **config)[-1], rtol=1e-12)
    np.testing.assert_allclose(b, adam_reference(b0, [g for g in gb if g is not None], **config)[-1], rtol=1e-12)


def test_sgd_momentum_keeps_a_buffer_per_parameter():
    """SGD with momentum over two parameters of different shapes: each has its own buffer."""
    a0, b0 = np.array([1.0, -2.0, 0.0]), np.array([[0.5, 3.0], [-1.0, 2.0]])
    ga, gb = grad_sequence((3,), seed=4), grad_sequence((2, 2), seed=5)
    for config in (dict(lr=0.05, momentum=0.9, dampening=0.3), dict(lr=0.05, momentum=0.8, nesterov=True)):
        a, b = run_needle_params(optim.SGD, [a0, b0], [ga, gb], **config)
        np.testing.assert_allclose(a, sgd_reference(a0, ga, **config)[-1], rtol=1e-12)
        np.testing.assert_allclose(b, sgd_reference(b0, gb, **config)[-1], rtol=1e-12)


def test_sgd_momentum_two_parameters_by_hand():
    """Momentum buffers of two parameters do not mix."""
    # lr = 0.1, momentum 0.9, constant g: buf1 = g, buf2 = 1.9 g, so p2 = p0 - 0.1 * 2.9 g.
    # a: p0 = 1, g = 1 -> 0.71; b: p0 = (0, 0), g = (2, -1) -> (-0.58, 0.29)
    a, b = run_needle_params(optim.SGD, [np.array([1.0]), np.zeros(2)],
                             [[np.array([1.0])] * 2, [np.array([2.0, -1.0])] * 2], lr=0.1, momentum=0.9)
    np.testing.assert_allclose(a, [0.71], rtol=1e-14)
    np.testing.assert_allclose(b, [-0.58, 0.29], rtol=1e-14)


def _torch():
    return pytest.importorskip("torch", reason="optional oracle: pip install -e '.[torch]'")


def _run_torch(torch_opt, p0, grads, **kwargs):
    torch = _torch()
    p = torch.nn.Parameter(torch.tensor(p0, dtype=torch.float64))
    opt = torch_opt(torch)([p], **kwargs)
    out = []
    for g in grads:
        opt.zero_grad()
        p.grad = torch.tensor(g, dtype=torch.float64)
        opt.step()
        out.append(p.detach().numpy().copy())
    return out


@pytest.mark.parametrize("config", SGD_CONFIGS, ids=str)
def test_sgd_matches_pytorch(config):
    p0, grads = np.array([[1.0, -2.0], [0.5, 3.0]]), grad_sequence((2, 2))
    want = _run_torch(lambda t: t.optim.SGD, p0, grads, **config)
    np.testing.assert_allclose(run_needle(optim.SGD, p0, grads, **config), want, rtol=1e-12)


@pytest.mark.parametrize("config", ADAM_CONFIGS, ids=str)
def test_adam_matches_pytorch(config):
    p0, grads = np.array([1.0, -2.0, 0.0]), grad_sequence((3,), seed=1)
    kwargs = dict(config)
    betas = (kwargs.pop("beta1", 0.9), kwargs.pop("beta2", 0.999))
    want = _run_torch(lambda t: t.optim.Adam, p0, grads, betas=betas, **kwargs)
    np.testing.assert_allclose(run_needle(optim.Adam, p0, grads, **config), want, rtol=1e-10)


@pytest.mark.parametrize("make_opt", [lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9), lambda ps: optim.Adam(ps)])
def test_steps_keep_identity_grow_no_graph_and_skip_missing_grads(make_opt):
    a, b = nn.Parameter([1.0, 2.0]), nn.Parameter([3.0])
    held = [a, b]
    opt = make_opt(held)
    for _ in range(100):
        opt.reset_grad()
        (a * a).sum().backward()  # b gets no gradient
        opt.step()
    assert held[0] is a and a.op is None and a.inputs == () and a.requires_grad
    assert ndl.autograd.graph_node_count(a) == 1
    np.testing.assert_array_equal(b.numpy(), [3.0])  # skipped: grad is None
    assert b.grad is None
    assert a.dtype == np.float32


def test_sgd_step_is_p_minus_lr_g_bit_for_bit_into_a_new_array():
    # SGD scales the gradient into a fresh array and adds p into it: (-lr g) + p rounds exactly
    # as p - lr g does (one rounding each, the same operands), and p's old array is left as it was,
    # so a detached copy taken before the step keeps the old values.
    rng = np.random.default_rng(3)
    for dtype, lr in (("float32", 0.01), ("float64", 0.3), ("float32", np.float64(0.01))):
        p = nn.Parameter(rng.standard_normal((7, 5)).astype(dtype), dtype=dtype)
        before = p.detach()
        old = p.numpy().copy()
        (p * ndl.Tensor(rng.standard_normal((7, 5)), dtype=dtype)).sum().backward()
        g = p.grad.numpy()
        optim.SGD([p], lr=lr).step()
        expected = (old - lr * g).astype(dtype)
        assert p.dtype == np.dtype(dtype) and np.array_equal(p.numpy(), expected)
        np.testing.assert_array_equal(before.numpy(), old)


def test_reset_grad_clears():
    p = nn.Parameter([1.0])
    (p * 2).backward()
    opt = optim.SGD([p], lr=0.1)
    opt.reset_grad()
    assert p.grad is None


def test_optimizer_argument_errors():
    p = nn.Parameter([1.0])
    with pytest.raises(ValueError, match="empty parameter list"):
        optim.SGD([], lr=0.1)
    with pytest.raises(TypeError, match="item 1 is list"):
        optim.SGD([p, [1.0]], lr=0.1)
    with pytest.raises(ValueError, match="invalid lr: -1"):
        optim.SGD([p], lr=-1)
    with pytest.raises(ValueError, match="Nesterov momentum requires momentum > 0"):
        optim.SGD([p], lr=0.1, nesterov=True)
    with pytest.raises(ValueError, match="invalid beta1: 1.0"):
        optim.Adam([p], beta1=1.0)


def test_optimizer_accepts_a_generator():
    p = nn.Parameter([1.0])
    opt = optim.SGD((q for q in [p]), lr=0.1)
    assert opt.params == [p]
