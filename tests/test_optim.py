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
