"""Time per training step of a 784-256-10 ReLU MLP (batch 128, softmax loss, SGD):
needle vs the same forward/backward written by hand in numpy, and vs PyTorch CPU when
installed. Prints medians and ratios measured side by side in one run.

    .venv/bin/python bench/bench_mlp.py [--repeats 15] [--inner 20] [--against REV]

--against REV adds needle as of git revision REV (e.g. HEAD, to time uncommitted changes)
as one more contender in the same run: on a noisy machine, the way to see a change's effect.
"""
import argparse

from _timing import host_watch, interleaved_medians, needle_at, report, try_import_torch  # sets BLAS threads first

import numpy as np

import needle as ndl

BATCH, D_IN, HIDDEN, D_OUT, LR = 128, 784, 256, 10, 0.01


def make_data(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((BATCH, D_IN)).astype(np.float32)
    y = rng.integers(0, D_OUT, BATCH)
    return X, y


def needle_step_fn(X, y, ndl=ndl):
    nn = ndl.nn
    np.random.seed(0)
    model = nn.Sequential(nn.Linear(D_IN, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, D_OUT))
    loss_fn = nn.SoftmaxLoss()
    opt = ndl.optim.SGD(model.parameters(), lr=LR)
    x = ndl.Tensor(X, requires_grad=False)

    def step():
        opt.reset_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()

    return step, model


def numpy_step_fn(X, y, model):
    """The same network and update, forward and backward derived by hand."""
    W1, b1 = model.layers[0].weight.numpy().copy(), model.layers[0].bias.numpy().copy()
    W2, b2 = model.layers[2].weight.numpy().copy(), model.layers[2].bias.numpy().copy()
    rows = np.arange(BATCH)

    def step():
        nonlocal W1, b1, W2, b2
        z1 = X @ W1 + b1
        h = np.maximum(z1, 0)
        logits = h @ W2 + b2
        shifted = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(shifted)
        lse = np.log(e.sum(axis=1))
        loss = np.mean(lse - shifted[rows, y])  # noqa: F841  (computed, as needle does)
        dlogits = e / e.sum(axis=1, keepdims=True)
        dlogits[rows, y] -= 1
        dlogits /= BATCH
        dW2, db2 = h.T @ dlogits, dlogits.sum(axis=0, keepdims=True)
        dz1 = (dlogits @ W2.T) * (z1 > 0)
        dW1, db1 = X.T @ dz1, dz1.sum(axis=0, keepdims=True)
        W1, b1, W2, b2 = W1 - LR * dW1, b1 - LR * db1, W2 - LR * dW2, b2 - LR * db2

    return step


def torch_step_fn(torch, X, y, model):
    net = torch.nn.Sequential(torch.nn.Linear(D_IN, HIDDEN), torch.nn.ReLU(), torch.nn.Linear(HIDDEN, D_OUT))
    with torch.no_grad():
        net[0].weight.copy_(torch.from_numpy(model.layers[0].weight.numpy().T.copy()))
        net[2].weight.copy_(torch.from_numpy(model.layers[2].weight.numpy().T.copy()))
    opt = torch.optim.SGD(net.parameters(), lr=LR)
    loss_fn = torch.nn.CrossEntropyLoss()
    x, t = torch.from_numpy(X), torch.from_numpy(y)

    def step():
        opt.zero_grad()
        loss = loss_fn(net(x), t)
        loss.backward()
        opt.step()

    return step


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--inner", type=int, default=20)
    parser.add_argument("--against", metavar="REV", help="also time needle as of this git revision")
    args = parser.parse_args()
    if args.against:  # resolved first: a revision that does not exist stops the run before it starts
        old, sha = needle_at(args.against)
    X, y = make_data()
    needle_step, model = needle_step_fn(X, y)  # layers built outside the timed region
    contenders = {"numpy by hand": numpy_step_fn(X, y, model), "needle": needle_step}
    torch = try_import_torch()
    if torch is not None:
        contenders["pytorch cpu"] = torch_step_fn(torch, X, y, model)
    if args.against:
        contenders[f"needle {sha}"] = needle_step_fn(X, y, old)[0]
    with host_watch() as host:
        medians = interleaved_medians(contenders, args.repeats, args.inner)
    report(f"MLP {D_IN}-{HIDDEN}-{D_OUT}, batch {BATCH}, SoftmaxLoss + SGD (median of {args.repeats})", medians, "numpy by hand")
    # three decimals: the goal's edge is where this ratio sits, and 1.10x hides which side of it
    print(f"needle / numpy by hand: {medians['needle'] / medians['numpy by hand']:.3f}x  (target <= 1.10x)")
    if torch is None:
        print("pytorch: not installed (pip install -e '.[torch]' to compare)")
    else:
        print(f"needle / pytorch cpu:   {medians['needle'] / medians['pytorch cpu']:.2f}x")
    if args.against:
        print(f"needle / needle {sha}: {medians['needle'] / medians[f'needle {sha}']:.2f}x")
    print(host.summary())


if __name__ == "__main__":
    main()
