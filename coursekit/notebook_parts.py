"""Your parts from earlier notebooks, in a later one.

Notebooks are separate kernels: what a student defined in notebook 04 is not defined in 08.
``load_parts(namespace)`` finds the notebooks in a folder (the current one by default), runs
their setup and solution cells (the student's code, as the grader takes it), checks each part
on a small example worked out by hand, and puts it into ``namespace``: the student's own when
it passes, needle's own (``needle.nn``, ``needle.optim``, ``needle.init``) with a notice saying
why when it is missing, raises or fails its check. It prints which is which and returns a
``Parts``: name -> "yours" or "needle's".

Only the student's own kernel runs this (a notebook's setup cell); the grader reads no files.
"""
from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np

from needle import init, nn, optim
from needle.autograd import Tensor


class Parts(dict):
    """name -> "yours" or "needle's", for the parts a notebook took from earlier ones."""

    def whose(self, name: str) -> str:
        """Whose part the notebook uses under ``name``: "your" or "needle's"."""
        return "your" if self[name] == "yours" else "needle's"


def check_module(ns: dict) -> None:
    """Parameter and Module: parameters() finds the Parameters of sub-modules kept in a list,
    and module(x) returns forward(x)."""
    Parameter, Module = ns["Parameter"], ns["Module"]
    assert isinstance(Parameter, type) and issubclass(Parameter, Tensor), "Parameter is not a Tensor subclass"

    class Leaf(Module):
        def __init__(self):
            self.w = Parameter(np.ones((2, 3), dtype=np.float32))
            self.const = Tensor([1.0])

        def forward(self, x, k=1.0):
            return x * k

    class Tree(Module):
        def __init__(self):
            self.layers = [Leaf(), Leaf()]
            self.b = Parameter(np.zeros((1, 3), dtype=np.float32))

    tree = Tree()
    found = tree.parameters()
    assert len(found) == 3 and {id(p) for p in found} == {id(tree.layers[0].w), id(tree.layers[1].w), id(tree.b)}, (
        "parameters() does not find exactly the Parameters of sub-modules kept in a list")
    assert np.allclose(tree.layers[0](Tensor([2.0]), k=3.0).numpy(), [6.0]), "module(...) does not return forward(...)"


def check_l2loss(ns: dict) -> None:
    """L2Loss on a small example, its values and its gradient (the values Task 4.3's visible rungs
    derive): said by value, so that notebook 08 prints no formula of Task 4.3."""
    loss = ns["L2Loss"]()
    got = loss(Tensor([4.0, 0.0]), Tensor([3.0, 2.0])).numpy()
    assert np.allclose(got, [1.0, 4.0]), f"L2Loss()(x=[4, 0], y=[3, 2]) gives {np.round(got, 4).tolist()}, not [1, 4]"
    x = Tensor([4.0])
    loss(x, Tensor([3.0], requires_grad=False)).backward()
    assert np.allclose(x.grad.numpy(), [2.0]), (
        f"the gradient of L2Loss()(x=[4], y=[3]) in x is {np.round(x.grad.numpy(), 4).tolist()}, not [2]")


def check_sgd(ns: dict) -> None:
    """Optimizer and SGD: reset_grad() sets None; three momentum steps (lr 0.1, momentum 0.9) with
    the gradients [1, -1], [-2, 3], [0.5, -2] take w = [1, 2] to [1.059, 1.901], as PyTorch's
    torch.optim.SGD does (notebook 05's sum, step by step: -0.1 [1, -1]; -0.1 ([-2, 3] + 0.9 [1, -1]);
    -0.1 ([0.5, -2] + 0.9 [-2, 3] + 0.81 [1, -1])); b has no gradient at the steps: unchanged."""
    w, b = Tensor([1.0, 2.0]), Tensor([0.5])
    opt = ns["SGD"]([w, b], lr=0.1, momentum=0.9)
    for g in ([1.0, -1.0], [-2.0, 3.0], [0.5, -2.0]):
        b.grad = Tensor([1.0], requires_grad=False)
        opt.reset_grad()
        assert b.grad is None, "reset_grad() does not set p.grad to None"
        w.grad = Tensor(g, requires_grad=False)
        opt.step()
    assert np.allclose(w.numpy(), [1.059, 1.901]) and np.allclose(b.numpy(), [0.5]), "three momentum steps of SGD went wrong"


def check_kaiming(ns: dict) -> None:
    """kaiming_normal: a float32 Tensor (fan_in, fan_out) that keeps a ReLU layer's E[x^2] (its
    factor measured on 2,000 samples, as Task 7.1's rungs do), two calls different (numpy's global
    random state is restored afterwards)."""
    state = np.random.get_state()
    try:
        np.random.seed(0)
        W = ns["kaiming_normal"](400, 300)
        again = ns["kaiming_normal"](400, 300)
    finally:
        np.random.set_state(state)
    assert isinstance(W, Tensor) and W.shape == (400, 300) and W.dtype == np.float32, "not a float32 Tensor (fan_in, fan_out)"
    # the factor Task 7.1's contract sets to 1, measured: neither words nor code here state its variance
    x = np.random.RandomState(1).randn(2000, 400)
    factor = np.mean(np.maximum(x @ W.numpy().astype(np.float64), 0) ** 2) / np.mean(x ** 2)
    assert abs(factor - 1) < 0.05, (
        f"one ReLU layer with its weights multiplies E[x^2] by {factor:.3f}, not 1 (Task 7.1)")
    assert not np.array_equal(W.numpy(), again.numpy()), "two calls return the same weights"


NEEDLES = {"Parameter": nn.Parameter, "Module": nn.Module, "L2Loss": nn.L2Loss,
           "Optimizer": optim.Optimizer, "SGD": optim.SGD, "kaiming_normal": init.kaiming_normal}
# (names taken together or not at all, the notebook that defines them, the check)
LECTURE8_PARTS: list[tuple[tuple[str, ...], str, Callable[[dict], None]]] = [
    (("Parameter", "Module"), "04_module_parameters", check_module),
    (("L2Loss",), "04_module_parameters", check_l2loss),
    (("Optimizer", "SGD"), "05_optimizer_training", check_sgd),
    (("kaiming_normal",), "07_init_variance", check_kaiming),
]


def run_notebook(path: Path) -> dict:
    """The namespace left by running the setup and solution cells of the notebook at ``path``,
    in order, as the grader takes a student's code (their printed output dropped). A cell that
    raises leaves what it would have defined undefined: the checks notice."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    ns: dict = {"__name__": path.stem}
    for cell in cells:
        meta = cell.get("metadata", {})
        if cell.get("cell_type") != "code" or not ("setup" in meta.get("tags", []) or meta.get("nbgrader", {}).get("solution")):
            continue
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(source, f"<{path.stem}>", "exec"), ns)
        except Exception:
            pass
    return ns


def load_parts(namespace: dict, folder: str | Path = ".", parts=None, out=print) -> Parts:
    """Put each part into ``namespace``: the student's from its notebook in ``folder`` when it
    passes its check, else needle's; print which, and why; return the Parts."""
    folder = Path(folder)
    chosen_by_name = Parts()
    loaded: dict[str, dict | str] = {}
    out("Parts used in this notebook:")
    for names, notebook, check in parts or LECTURE8_PARTS:
        chosen = {n: NEEDLES[n] for n in names}
        if notebook not in loaded:
            try:
                loaded[notebook] = run_notebook(folder / f"{notebook}.ipynb")
            except FileNotFoundError:
                loaded[notebook] = f"needle's: {notebook}.ipynb is not in this folder"
            except Exception as exc:  # not JSON, not a notebook
                loaded[notebook] = f"NOTICE: needle's: {notebook}.ipynb could not be read ({type(exc).__name__})"
        if isinstance(loaded[notebook], str):
            why = loaded[notebook]
        else:
            ns = loaded[notebook]
            try:
                missing = [n for n in names if n not in ns]
                assert not missing, f"{notebook}.ipynb does not define {', '.join(missing)}"
                check(ns)
                chosen, why = {n: ns[n] for n in names}, f"yours, from {notebook}.ipynb"
            except NotImplementedError:
                why = "NOTICE: needle's, as yours raises NotImplementedError (not written yet?)"
            except Exception as exc:
                reason = str(exc) if isinstance(exc, AssertionError) and str(exc) else f"{type(exc).__name__} {exc}".strip()
                why = f"NOTICE: needle's, as yours failed a check: {reason[:120]}"
        namespace.update(chosen)
        chosen_by_name.update({n: "yours" if why.startswith("yours") else "needle's" for n in names})
        out(f"  {', '.join(names):20s} {why}")
    if "needle's" in chosen_by_name.values():
        out("To use yours: put notebooks 04, 05 and 07 in this folder, fix what a NOTICE names, save, re-run this cell.")
    return chosen_by_name
