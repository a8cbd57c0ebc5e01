"""needle.nn: the parameter walk, layers, losses, and the lecture's model and training loop."""
import numpy as np
import pytest

import needle as ndl
from needle import nn
from needle.gradcheck import gradcheck
from needle.models import MultiPathScaleAdd, ScaleAdd

rng = np.random.default_rng(2)


def test_multipath_scale_add_gradient_by_hand():
    # h = (s0 x + b0) + (s1 x + b1) = 4 at s = 1, b = 0, x = 2; L = (h - y)^2 with y = 3.
    # dL/dh = 2(h - y) = 2; dL/ds_k = dL/dh * x = 4; dL/db_k = dL/dh * 1 = 2 (both paths).
    model = MultiPathScaleAdd()
    loss = nn.L2Loss()(model(ndl.Tensor([2.0])), ndl.Tensor([3.0]))
    np.testing.assert_array_equal(loss.numpy(), [1.0])
    loss.backward()
    for path in (model.path0, model.path1):
        np.testing.assert_array_equal(path.s.grad.numpy(), [4.0])
        np.testing.assert_array_equal(path.b.grad.numpy(), [2.0])


def test_lecture_training_loop_reproduces_printed_losses():
    # x = y = 2, lr = 0.01: h - y shrinks by 0.8 per step, so the loss is 4 * 0.64^k.
    x, y = ndl.Tensor([2.0]), ndl.Tensor([2.0])
    model = MultiPathScaleAdd()
    l2loss = nn.L2Loss()
    opt = ndl.optim.SGD(model.parameters(), lr=0.01)
    losses = []
    for _ in range(10):
        opt.reset_grad()
        loss = l2loss(model(x), y)
        losses.append(float(loss.numpy()[0]))
        loss.backward()
        opt.step()
    np.testing.assert_allclose(losses[:3], [4.0, 2.56, 1.6384], rtol=1e-6)
    np.testing.assert_allclose(losses, [4.0 * 0.64**k for k in range(10)], rtol=1e-5)


# --- parameters() and friends ------------------------------------------------------------
class Containers(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Parameter([1.0])
        self.plain = ndl.Tensor([5.0])  # a Tensor, not a Parameter: not trainable
        self.listed = [nn.Parameter([2.0]), ScaleAdd(), 7, "text"]
        self.nested = {"a": (nn.Parameter([3.0]), {"deep": [self.shared]}), "m": ScaleAdd()}
        self.again = self.shared  # the same object twice: counted once


def test_parameters_walk_dicts_lists_tuples_and_modules_once_in_order():
    m = Containers()
    names = [name for name, _ in m.named_parameters()]
    assert names == [
        "shared", "listed.0", "listed.1.s", "listed.1.b", "nested.a.0", "nested.m.s", "nested.m.b",
    ]
    params = m.parameters()
    assert len(params) == len({id(p) for p in params}) == 7
    assert params[0] is m.shared and all(isinstance(p, nn.Parameter) for p in params)


def test_shared_submodule_counted_once():
    inner = ScaleAdd()
    outer = nn.Sequential(inner, inner)
    assert len(outer.parameters()) == 2
    assert [n for n, _ in outer.named_parameters()] == ["layers.0.s", "layers.0.b"]


def test_children_modules_and_train_eval_recurse():
    m = nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.Dropout(0.5), nn.ReLU()))
    assert [type(c).__name__ for c in m.children()] == ["Linear", "Sequential"]
    assert len(m.modules()) == 5
    assert all(x.training for x in m.modules())
    assert m.eval() is m and not any(x.training for x in m.modules())
    m.train()
    assert all(x.training for x in m.modules())


def test_module_without_super_init_still_works():
    class Bare(nn.Module):
        def __init__(self):
            self.w = nn.Parameter([1.0])

        def forward(self, x):
            return x * self.w

    b = Bare()
    assert b.training and b.parameters() == [b.w]
    b.eval()
    assert not b.training


def test_self_reference_does_not_loop():
    m = ScaleAdd()
    m.me = m
    m.stuff = [m, {"again": m}]
    assert len(m.parameters()) == 2


def test_forward_must_be_defined():
    with pytest.raises(NotImplementedError, match="must define forward"):
        nn.Module()(1)


def test_repr_shows_structure():
    text = repr(nn.Sequential(nn.Linear(2, 3), nn.ReLU()))
    assert "Linear(in_features=2, out_features=3, bias=True)" in text and "ReLU()" in text


# --- layers ----------------------------------------------------------------------------
def test_linear_shapes_init_and_forward():
    np.random.seed(0)
    lin = nn.Linear(20, 5)
    assert lin.weight.shape == (20, 5) and lin.bias.shape == (1, 5)
    assert isinstance(lin.weight, nn.Parameter) and lin.weight.dtype == np.float32
    assert np.abs(lin.weight.numpy()).max() <= np.sqrt(6 / 20)
    x = rng.standard_normal((4, 20)).astype(np.float32)
    out = lin(ndl.Tensor(x))
    np.testing.assert_allclose(out.numpy(), x @ lin.weight.numpy() + lin.bias.numpy(), rtol=1e-5, atol=1e-6)
    assert nn.Linear(3, 2, bias=False).parameters() and len(nn.Linear(3, 2, bias=False).parameters()) == 1


def test_linear_weight_is_kaiming_uniform_reaching_its_bound():
    """Linear's weight is U(-b, b) with b = sqrt(2) * sqrt(3 / in) = sqrt(6 / in) (kaiming, ReLU gain)."""
    # 16 x 2000 draws: either end missing 0.99 b has probability 0.995^32000, nil (the seed is fixed anyway).
    # Xavier's bound sqrt(6 / (in + out)) would be 11 times smaller here.
    np.random.seed(0)
    w = nn.Linear(16, 2000, dtype="float64").weight.numpy()
    bound = np.sqrt(6 / 16)
    assert np.abs(w).max() <= bound and w.max() > 0.99 * bound and w.min() < -0.99 * bound


def test_linear_bias_is_uniform_within_one_over_sqrt_in():
    """Linear's bias is U(-1/sqrt(in), 1/sqrt(in)) as in PyTorch, and reaches both ends."""
    # 2000 draws: each end within 1% of the bound fails to be hit with probability 0.995^2000 ~ 5e-5.
    np.random.seed(0)
    b = nn.Linear(16, 2000, dtype="float64").bias.numpy()
    bound = 1 / np.sqrt(16)  # 0.25 (1 / in would be 0.0625)
    assert np.abs(b).max() <= bound and b.max() > 0.99 * bound and b.min() < -0.99 * bound


def test_linear_input_error():
    with pytest.raises(ValueError, match=r"Linear\(3, 2\) got input of shape \(4, 5\)"):
        nn.Linear(3, 2)(ndl.Tensor(np.ones((4, 5))))


def test_linear_gradcheck():
    lin = nn.Linear(3, 2, dtype="float64")

    def f(x, w, b):
        lin.weight, lin.bias = w, b
        return lin(x)

    gradcheck(f, rng.standard_normal((4, 3)), rng.standard_normal((3, 2)), rng.standard_normal((1, 2)))


def test_sequential_residual_flatten_identity_relu():
    x = ndl.Tensor(rng.standard_normal((2, 3, 4)))
    flat = nn.Flatten()(x)
    assert flat.shape == (2, 12)
    np.testing.assert_array_equal(nn.Identity()(flat).numpy(), flat.numpy())
    np.testing.assert_array_equal(nn.ReLU()(flat).numpy(), np.maximum(flat.numpy(), 0))
    lin = nn.Linear(12, 12)
    res = nn.Residual(nn.Sequential(lin, nn.ReLU()))
    expected = np.maximum(flat.numpy() @ lin.weight.numpy() + lin.bias.numpy(), 0) + flat.numpy()
    np.testing.assert_allclose(res(flat).numpy(), expected, rtol=1e-5, atol=1e-6)
    assert len(nn.Sequential(lin, nn.ReLU(), lin)) == 3 and nn.Sequential(lin)[0] is lin


def _np_softmax_loss(z, y):
    z = z - z.max(axis=1, keepdims=True)
    lse = np.log(np.exp(z).sum(axis=1))
    return np.mean(lse - z[np.arange(len(y)), y])


def test_softmax_loss_forward_and_hand_gradient():
    z = rng.standard_normal((5, 4))
    y = np.array([0, 3, 1, 1, 2])
    logits = ndl.Tensor(z, dtype="float64")
    loss = nn.SoftmaxLoss()(logits, ndl.Tensor(y, dtype="int64", requires_grad=False))
    np.testing.assert_allclose(loss.numpy(), _np_softmax_loss(z, y), rtol=1e-12)
    loss.backward()
    # d/dz_i (lse(z_i) - z_i[y_i]) / N = (softmax(z_i) - onehot(y_i)) / N
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(logits.grad.numpy(), (p - np.eye(4)[y]) / 5, rtol=1e-10, atol=1e-12)


def test_softmax_loss_is_stable_and_gradchecks():
    z = np.array([[1000.0, 0.0, -1000.0]])
    loss = nn.SoftmaxLoss()(ndl.Tensor(z), [0])
    assert loss.numpy() == pytest.approx(0.0, abs=1e-6)
    gradcheck(lambda z: nn.SoftmaxLoss()(z, [2, 0, 1]), rng.standard_normal((3, 3)))


def test_softmax_loss_label_errors():
    with pytest.raises(ValueError, match=r"labels have shape \(2,\), expected \(3,\)"):
        nn.SoftmaxLoss()(ndl.Tensor(np.ones((3, 4))), [0, 1])
    with pytest.raises(ValueError, match=r"labels must lie in \[0, 4\)"):
        nn.SoftmaxLoss()(ndl.Tensor(np.ones((2, 4))), [0, 4])


def test_layernorm_forward_and_gradcheck():
    x = rng.standard_normal((3, 5))
    ln = nn.LayerNorm1d(5, dtype="float64")
    out = ln(ndl.Tensor(x, dtype="float64")).numpy()
    expected = (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(out, expected, rtol=1e-10)

    def f(x, w, b):
        ln.weight, ln.bias = w, b
        return ln(x)

    gradcheck(f, x, rng.standard_normal(5), rng.standard_normal(5))


def test_batchnorm_train_eval_and_running_stats_like_pytorch():
    x = rng.standard_normal((6, 3)) * 2 + 1
    bn = nn.BatchNorm1d(3, momentum=0.1, dtype="float64")
    out = bn(ndl.Tensor(x, dtype="float64")).numpy()
    np.testing.assert_allclose(out, (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-5), rtol=1e-10)
    np.testing.assert_allclose(bn.running_mean.numpy(), 0.9 * 0 + 0.1 * x.mean(0), rtol=1e-12)
    np.testing.assert_allclose(bn.running_var.numpy(), 0.9 * 1 + 0.1 * x.var(0, ddof=1), rtol=1e-12)
    assert len(bn.parameters()) == 2  # running stats are buffers, not parameters
    bn.eval()
    x2 = rng.standard_normal((2, 3))
    out2 = bn(ndl.Tensor(x2, dtype="float64")).numpy()
    expected = (x2 - bn.running_mean.numpy()) / np.sqrt(bn.running_var.numpy() + 1e-5)
    np.testing.assert_allclose(out2, expected, rtol=1e-10)


def test_batchnorm_gradcheck_in_training_mode():
    bn = nn.BatchNorm1d(3, dtype="float64")

    def f(x, w, b):
        bn.weight, bn.bias = w, b
        return bn(x)

    gradcheck(f, rng.standard_normal((4, 3)), rng.standard_normal(3), rng.standard_normal(3))


def test_dropout_inverted_scaling_and_eval_identity():
    np.random.seed(0)
    x = ndl.Tensor(np.ones((200, 100)))
    drop = nn.Dropout(0.25)
    out = drop(x).numpy()
    kept = out != 0
    assert kept.mean() == pytest.approx(0.75, abs=0.01)
    np.testing.assert_allclose(out[kept], 1 / 0.75, rtol=1e-6)
    drop.eval()
    assert drop(x) is x
    with pytest.raises(ValueError, match=r"p must be in \[0, 1\)"):
        nn.Dropout(1.0)


def test_mlp_trains_on_a_separable_problem():
    np.random.seed(0)
    X = rng.standard_normal((64, 2)).astype(np.float32)
    y = (X[:, 0] + X[:, 1] > 0).astype(np.int64)
    model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 2))
    opt = ndl.optim.Adam(model.parameters(), lr=0.05)
    loss_fn = nn.SoftmaxLoss()
    for _ in range(60):
        opt.reset_grad()
        loss = loss_fn(model(ndl.Tensor(X)), y)
        loss.backward()
        opt.step()
    accuracy = (model(ndl.Tensor(X)).numpy().argmax(1) == y).mean()
    assert accuracy >= 0.95, f"accuracy {accuracy}"
