"""needle.hints: one cause, from a fixed vocabulary, and the student's own line; no string made
by student code in a grader's message (autograder.hints.explain)."""
import pytest

import needle as ndl
from autograder.hints import explain
from needle import hints


def raised(source: str, index: int = 0, ns=None) -> BaseException:
    try:
        exec(compile(source, f"<cell {index}>", "exec"), {"ndl": ndl} if ns is None else ns)
    except Exception as exc:  # noqa: BLE001 - the point is to look at it
        return exc
    raise AssertionError("no exception")


@pytest.mark.parametrize("source, cause, shown", [
    ("def f(t):\n    return t.op.inputs\nf(ndl.Tensor([1.0]))", "none_attribute", "`.inputs`'s owner is None"),
    ("x = undefined_thing + 1", "name_not_defined", "(`undefined_thing`)"),
    ("ndl.Tensor([1.0, 2.0]) + ndl.Tensor([1.0])", "shape_mismatch", "needle's `add`"),
    ("ndl.Tensor([[1.0, 2.0]]) @ ndl.Tensor([[1.0, 2.0]])", "shape_mismatch", "needle's `matmul`"),
    ("import numpy as np\nnp.ones(3) + np.ones(2)", "shape_mismatch", "a numpy operation"),
    ("i = 1.5\n[1, 2][i]", "float_index", "a float where an integer is needed"),
    ("def f():\n    pass\nf() + 1", "none_used", "forgot its return"),
    ("{}[[1]] = 2", "unhashable", "(a list)"),
    ("def g(n):\n    return g(n + 1)\ng(0)", "recursion", "explicit stack"),
    ("raise NotImplementedError()", "not_implemented", "not implemented yet"),
    ("ndl.Tensor([1.0]) + [1.0]", None, ""),
])
def test_each_common_mistake_gets_its_cause_and_the_line(source, cause, shown):
    exc = raised(source, index=1)
    info = hints.classify(exc)
    if cause is not None:
        assert info["cause"] == cause
    cells = ["# setup", source]
    text = explain(type(exc).__name__, info, cells)
    assert shown in text
    assert info["where"][0] == 1 and f"line {info['where'][1]} of your cell" in text


def test_the_line_is_named_with_the_function_that_holds_it():
    exc = raised("import numpy as np\n\nclass SGD:\n    def step(self):\n        for p in self.params:\n            p.grad.data\nSGD.params = [ndl.Tensor([1.0])]\nSGD().step()")
    text = explain("AttributeError", hints.classify(exc), ["import numpy as np\n\nclass SGD:\n    def step(self):\n        for p in self.params:\n            p.grad.data\n"])
    assert "at line 6 of your cell, in `def step(self):`: `p.grad.data`: an attribute of None: `.data`'s owner is None" in text


def test_details_not_in_the_line_are_not_repeated():
    """A detail the student's code chose (an exception message, a class name) is shown only when
    that very name is in the line read from the notebook, or is a known type or op."""
    forged = {"cause": "name_not_defined", "detail": "SECRET_INPUT_IS_42", "where": [0, 1]}
    assert "SECRET" not in explain("NameError", forged, ["x = y + 1"])
    forged = {"cause": "type_mix", "detail": "Leak42,Leak43", "where": [0, 1]}
    assert "Leak" not in explain("TypeError", forged, ["x = a + b"])
    forged = {"cause": "shape_mismatch", "detail": "leak_op", "where": [0, 1]}
    assert "leak" not in explain("ValueError", forged, ["x = a + b"]) and "a needle op" in explain("ValueError", forged, ["x = a + b"])
    forged = {"cause": "not_a_cause", "detail": "x", "where": [7, 99]}
    assert explain("ValueError", forged, ["x = a + b"]) == "your code raised ValueError"


def test_install_adds_one_hint_line_under_the_traceback(capsys):
    ipapp = pytest.importorskip("IPython.testing.globalipapp")
    shell = ipapp.start_ipython()
    assert hints.install()
    shell.run_cell("import needle as ndl\ndef count_graph_nodes(t):\n    return t.op.inputs\n")
    shell.run_cell("count_graph_nodes(ndl.Tensor([1.0]))")
    out = capsys.readouterr().out
    assert "AttributeError" in out
    assert "hint: at line 3 of your cell, in `def count_graph_nodes(t):`: `return t.op.inputs`: an attribute of None" in out


def test_a_notebook_shows_the_hint_under_the_traceback_and_still_fails():
    """In a real kernel: `import needle` installs the hints; the cell still counts as an error."""
    import nbclient
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import needle as ndl\ndef f(t):\n    return t.op.inputs"),
                nbformat.v4.new_code_cell("f(ndl.Tensor([1.0]))")]
    client = nbclient.NotebookClient(nb, kernel_name="python3", allow_errors=True, timeout=120)
    client.execute()
    outputs = nb.cells[1].outputs
    assert outputs[0]["output_type"] == "error" and outputs[0]["ename"] == "AttributeError"
    assert any("hint: at line 3 of your cell, in `def f(t):`" in o.get("text", "") for o in outputs)
    with pytest.raises(nbclient.exceptions.CellExecutionError):
        nbclient.NotebookClient(nb, kernel_name="python3", timeout=120).execute()
