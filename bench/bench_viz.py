"""Drawing a long graph: needle.viz.draw_graph (rendered with Agg) of the naive update loop's
graph after 10,000 steps vs after 100, side by side in one run. Long chains collapse, so the
big graph should cost little more than the small one (target: under a second).

    .venv/bin/python bench/bench_viz.py [--steps 10000] [--baseline-steps 100] [--repeats 7]
"""
import argparse

from _timing import interleaved_medians  # sets BLAS threads first

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import needle as ndl  # noqa: E402
from needle.viz import draw_graph  # noqa: E402


def naive_updates(steps):
    """w after ``steps`` of w = w + (-lr) * grad: 2 * steps + 1 nodes."""
    w = ndl.Tensor(np.ones(100))
    grad = ndl.Tensor(np.full(100, 0.01), requires_grad=False)
    for _ in range(steps):
        w = w + (-0.1) * grad
    return w


def drawing_of(w):
    def run():
        drawing = draw_graph(w)
        drawing.ax.figure.canvas.draw()  # render, not just build the artists
        plt.close(drawing.ax.figure)

    return run


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--baseline-steps", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    big, small = f"{args.steps} steps", f"{args.baseline_steps} steps"
    graphs = {big: naive_updates(args.steps), small: naive_updates(args.baseline_steps)}
    medians = interleaved_medians({name: drawing_of(w) for name, w in graphs.items()}, args.repeats, inner=1)
    print(f"draw_graph + Agg render of the naive update loop's graph (median of {args.repeats})")
    for name, w in graphs.items():
        drawing = draw_graph(w)
        plt.close(drawing.ax.figure)
        print(f"  {name:>12}: {drawing.nodes + drawing.hidden:>6} nodes, {drawing.nodes} drawn"
              f"  {medians[name] * 1e3:7.1f} ms")
    print(f"{big} / {small}: {medians[big] / medians[small]:.2f}x  "
          f"({medians[big]:.2f} s; target < 1 s)")


if __name__ == "__main__":
    main()
