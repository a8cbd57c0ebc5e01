"""coursekit.notebook_parts: notebook 08 takes the student's parts from notebooks 04, 05 and 07."""
import json
import shutil

import numpy as np
import pytest

import needle as ndl
from conftest import LECTURE8
from coursekit.notebook_parts import check_kaiming, check_sgd, load_parts

PART_NOTEBOOKS = ("04_module_parameters", "05_optimizer_training", "07_init_variance")


def folder_with(tmp_path, source="solutions"):
    """A folder holding notebooks 04, 05 and 07: the instructor's solutions, or the release (stubs)."""
    for name in PART_NOTEBOOKS:
        path = LECTURE8.source_notebook(name) if source == "solutions" else LECTURE8.released_notebook(name)
        shutil.copy(path, tmp_path / f"{name}.ipynb")
    return tmp_path


def replace_cell(path, grade_id, source):
    nb = json.loads(path.read_text())
    (cell,) = [c for c in nb["cells"] if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == grade_id]
    cell["source"] = source
    path.write_text(json.dumps(nb))


def test_the_students_parts_are_used_when_they_pass(tmp_path):
    ns, lines = {}, []
    parts = load_parts(ns, folder_with(tmp_path), out=lines.append)
    assert dict(parts) == {n: "yours" for n in ("Parameter", "Module", "L2Loss", "Optimizer", "SGD", "kaiming_normal")}
    assert ns["SGD"] is not ndl.optim.SGD and ns["SGD"].__module__ == "05_optimizer_training"
    assert ns["kaiming_normal"] is not ndl.init.kaiming_normal
    assert parts.whose("SGD") == "your"
    assert lines[0] == "Parts used in this notebook:" and not any("NOTICE" in line for line in lines)


def test_stubs_missing_and_unreadable_notebooks_give_needles_with_a_notice(tmp_path):
    folder = folder_with(tmp_path, source="release")  # every part a stub that raises NotImplementedError
    (folder / "07_init_variance.ipynb").unlink()
    ns, lines = {}, []
    parts = load_parts(ns, folder, out=lines.append)
    assert set(parts.values()) == {"needle's"}
    assert ns["SGD"] is ndl.optim.SGD and ns["Module"] is ndl.nn.Module and ns["kaiming_normal"] is ndl.init.kaiming_normal
    text = "\n".join(lines)
    assert "raises NotImplementedError" in text and "07_init_variance.ipynb is not in this folder" in text
    assert lines[-1].startswith("To use yours")
    (folder / "05_optimizer_training.ipynb").write_text("not json")
    lines.clear()
    load_parts({}, folder, out=lines.append)
    assert any("05_optimizer_training.ipynb could not be read" in line for line in lines)


def test_a_part_that_fails_its_check_is_replaced_and_named(tmp_path):
    folder = folder_with(tmp_path)
    replace_cell(folder / "04_module_parameters.ipynb", "task4_3_l2_loss",
                 "class L2Loss(Module):\n    def forward(self, x, y):\n        return (x - y) ** 2 * 0.5\n")
    ns, lines = {}, []
    parts = load_parts(ns, folder, out=lines.append)
    assert parts["L2Loss"] == "needle's" and ns["L2Loss"] is ndl.nn.L2Loss
    assert parts["Module"] == "yours"  # the other part of the same notebook is still the student's
    # said by value: (4 - 3)^2 / 2 = 0.5 and (0 - 2)^2 / 2 = 2, where (x - y)^2 gives 1 and 4 (no formula printed)
    assert any("L2Loss" in line and "failed a check: L2Loss()(x=[4, 0], y=[3, 2]) gives [0.5, 2.0], not [1, 4]" in line
               for line in lines), lines


def test_the_sgd_check_catches_a_buffer_one_step_late():
    class Late(ndl.optim.Optimizer):
        """Moves p by the buffer of the step before, then adds the gradient: right only for a
        constant gradient."""

        def __init__(self, params, lr, momentum=0.0):
            super().__init__(params)
            self.lr, self.momentum, self.buffers = lr, momentum, {}

        def step(self):
            for p in self.params:
                if p.grad is not None:
                    v = self.buffers.get(id(p), p.grad.data)
                    p.data = p.data - self.lr * v
                    self.buffers[id(p)] = self.momentum * v + p.grad.data

    class LastGradient(ndl.optim.Optimizer):
        """A buffer of the last gradient only, momentum * previous g + g: PyTorch's for two steps."""

        def __init__(self, params, lr, momentum=0.0):
            super().__init__(params)
            self.lr, self.momentum, self.previous = lr, momentum, {}

        def step(self):
            for p in self.params:
                if p.grad is not None:
                    last = self.previous.get(id(p))
                    self.previous[id(p)] = p.grad.data
                    p.data = p.data - self.lr * (p.grad.data if last is None else self.momentum * last + p.grad.data)

    check_sgd({"SGD": ndl.optim.SGD})  # needle's own passes
    for wrong in (Late, LastGradient):
        with pytest.raises(AssertionError, match="three momentum steps"):
            check_sgd({"SGD": wrong})


def test_the_kaiming_check_keeps_the_global_random_state():
    np.random.seed(5)
    want = np.random.rand()
    np.random.seed(5)
    check_kaiming({"kaiming_normal": ndl.init.kaiming_normal})
    assert np.random.rand() == want
    with pytest.raises(AssertionError, match="same weights"):
        check_kaiming({"kaiming_normal": lambda fan_in, fan_out: (np.random.seed(0), ndl.init.kaiming_normal(fan_in, fan_out))[1]})
