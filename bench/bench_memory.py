"""Memory held by w after n updates: the lecture's naive loop (w = w + (-lr) * grad) vs
the detached update (w.data = w.data + (-lr) * grad), side by side in one run.

    .venv/bin/python bench/bench_memory.py [--plot docs/memory.png]
"""
import argparse
import gc
import tracemalloc

import numpy as np

import needle as ndl
from needle.autograd import graph_node_count

SIZE = 1000  # floats per weight tensor


def naive(n):
    w = ndl.Tensor(np.ones(SIZE))
    g = ndl.Tensor(np.full(SIZE, 0.01), requires_grad=False)
    for _ in range(n):
        w = w + (-0.1) * g
    return w


def detached(n):
    w = ndl.Tensor(np.ones(SIZE))
    g = ndl.Tensor(np.full(SIZE, 0.01), requires_grad=False)
    for _ in range(n):
        w.data = w.data + (-0.1) * g
    return w


def held(loop, n):
    gc.collect()
    tracemalloc.start()
    w = loop(n)
    gc.collect()
    used = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return used, graph_node_count(w)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plot", default=None, help="write a PNG of memory against iterations")
    args = parser.parse_args()
    steps = [0, 1000, 2000, 5000, 10000]
    rows = [(n, *held(naive, n), *held(detached, n)) for n in steps]
    print(f"{'iterations':>10}  {'naive KiB':>10} {'nodes':>7}  {'detached KiB':>12} {'nodes':>5}")
    for n, mn, cn, md, cd in rows:
        print(f"{n:>10}  {mn / 1024:>10.0f} {cn:>7}  {md / 1024:>12.1f} {cd:>5}")
    n, mn, _, md, _ = rows[-1]
    print(f"after {n} iterations the naive loop holds {mn / max(md, 1):.0f}x the memory of the detached one "
          f"({(mn - rows[0][1]) / n:.0f} bytes per iteration vs {(md - rows[0][3]) / n:.2f})")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6, 3.2))
        ax.plot(steps, [r[1] / 2**20 for r in rows], "o-", label="w = w + (-lr) * grad")
        ax.plot(steps, [r[3] / 2**20 for r in rows], "s-", label="w.data = w.data + (-lr) * grad")
        ax.set(xlabel="iterations", ylabel="memory held by w (MiB)", title=f"weights of {SIZE} floats, float32")
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.plot, dpi=110)
        print(f"wrote {args.plot}")


if __name__ == "__main__":
    main()
