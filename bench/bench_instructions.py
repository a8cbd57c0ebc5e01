"""Instructions per MLP training step at toy sizes (batch 4, 8-8-3), where needle's graph
bookkeeping stands alone: numpy by hand, needle's op computes replayed without a graph, and
needle. Counted by valgrind's cachegrind with the hash seed and address layout fixed, so the
count repeats from run to run where wall-clock time on a shared machine does not.

    .venv/bin/python bench/bench_instructions.py [--steps 400]

Needs valgrind (apt-get install valgrind) and setarch (util-linux). Each count runs the
interpreter twice under valgrind (0 and --steps steps) and reports the difference per step:
about a minute in all.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

import bench_mlp as B

B.BATCH, B.D_IN, B.HIDDEN, B.D_OUT = 4, 8, 8, 3
CONTENDERS = ("numpy by hand", "needle's computes replayed", "needle")


def contenders():
    """The three step functions, built as bench_mlp builds them (the replay records one step)."""
    from needle import autograd

    X, y = B.make_data()
    needle_step, model = B.needle_step_fn(X, y)
    hand = B.numpy_step_fn(X, y, model)
    computes = []
    make_from_op = autograd.Value.make_from_op.__func__

    def recording(cls, op, inputs):
        computes.append((op.compute, [x.cached_data for x in inputs]))
        return make_from_op(cls, op, inputs)

    autograd.Value.make_from_op = classmethod(recording)
    needle_step()
    autograd.Value.make_from_op = classmethod(make_from_op)
    params = [(p.cached_data, p.grad.cached_data) for p in model.parameters()]

    def replay():
        for compute, arrays in computes:
            compute(*arrays)
        for data, grad in params:  # SGD's update, as needle.optim.SGD writes it
            update = grad * -B.LR
            update += data

    return dict(zip(CONTENDERS, (hand, replay, needle_step)))


def run_steps(name: str, steps: int) -> None:
    step = contenders()[name]
    for _ in range(10 + steps):  # 10 to warm caches (lru_caches, numpy's dispatch)
        step()


def count(name: str, steps: int) -> int:
    """Instructions the interpreter executes for ``steps`` steps of ``name``, set-up included."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    cmd = ["setarch", "-R", "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, __file__, "--run", name, "--steps", str(steps)]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=os.path.dirname(os.path.abspath(__file__)))
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or not found:
        raise SystemExit(f"valgrind failed for {name!r}:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--run", help=argparse.SUPPRESS)  # inside valgrind: run one contender
    args = parser.parse_args()
    if args.run:
        return run_steps(args.run, args.steps)
    missing = [tool for tool in ("valgrind", "setarch") if shutil.which(tool) is None]
    if missing:
        raise SystemExit(f"bench_instructions needs {' and '.join(missing)}: apt-get install valgrind util-linux")
    print(f"MLP {B.D_IN}-{B.HIDDEN}-{B.D_OUT}, batch {B.BATCH}: instructions per step (cachegrind, {args.steps} steps)")
    counts = {name: (count(name, args.steps) - count(name, 0)) // args.steps for name in CONTENDERS}
    for name, n in counts.items():
        print(f"  {name:28s} {n:>10,}   {n / counts['numpy by hand']:5.2f}x numpy by hand")
    bookkeeping = counts["needle"] - counts["needle's computes replayed"]
    print(f"needle's graph bookkeeping: {bookkeeping:,} per step")


if __name__ == "__main__":
    main()
