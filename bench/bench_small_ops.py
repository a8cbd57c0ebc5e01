"""Small-op overhead: a chain of 2,000 element-wise ops on 2x2 tensors plus backward,
needle vs PyTorch CPU (when installed), side by side in one run.

    .venv/bin/python bench/bench_small_ops.py [--ops 2000] [--repeats 15] [--against REV]

--against REV adds needle as of git revision REV to the same run (see bench_mlp.py).
"""
import argparse

from _timing import host_watch, interleaved_medians, needle_at, report, try_import_torch  # sets BLAS threads first

import numpy as np

import needle as ndl


def needle_chain(n_ops, ndl=ndl):
    x0 = np.array([[0.5, -1.0], [2.0, 0.25]], dtype=np.float32)
    c = ndl.Tensor([[1.0, 0.999], [0.998, 1.001]], requires_grad=False)

    def run():
        x = ndl.Tensor(x0)
        y = x
        for i in range(n_ops // 2):
            y = y * c  # tensor-tensor op
            y = y + 0.001  # tensor-scalar op
        y.sum().backward()

    return run


def torch_chain(torch, n_ops):
    x0 = torch.tensor([[0.5, -1.0], [2.0, 0.25]])
    c = torch.tensor([[1.0, 0.999], [0.998, 1.001]])

    def run():
        x = x0.clone().requires_grad_(True)
        y = x
        for i in range(n_ops // 2):
            y = y * c
            y = y + 0.001
        y.sum().backward()

    return run


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--inner", type=int, default=3)
    parser.add_argument("--against", metavar="REV", help="also time needle as of this git revision")
    args = parser.parse_args()
    if args.against:  # resolved first: a revision that does not exist stops the run before it starts
        old, sha = needle_at(args.against)
    contenders = {"needle": needle_chain(args.ops)}
    torch = try_import_torch()
    if torch is not None:
        contenders["pytorch cpu"] = torch_chain(torch, args.ops)
    if args.against:
        contenders[f"needle {sha}"] = needle_chain(args.ops, old)
    with host_watch() as host:
        medians = interleaved_medians(contenders, args.repeats, args.inner)
    baseline = "pytorch cpu" if torch is not None else "needle"
    report(f"chain of {args.ops} ops on 2x2 + backward (median of {args.repeats})", medians, baseline)
    per_op = medians["needle"] / args.ops * 1e6
    print(f"needle: {per_op:.2f} us per op (forward + backward)")
    if torch is None:
        print("pytorch: not installed (pip install -e '.[torch]' to compare)")
    else:
        print(f"needle / pytorch cpu: {medians['needle'] / medians['pytorch cpu']:.2f}x  (target <= 0.7x)")
    if args.against:
        print(f"needle / needle {sha}: {medians['needle'] / medians[f'needle {sha}']:.2f}x")
    print(host.summary())


if __name__ == "__main__":
    main()
