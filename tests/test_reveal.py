"""needle.reveal: a reveal's output folded under a summary line; warnings about wrong functions."""
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from needle import reveal as reveal_module  # noqa: E402
from needle.reveal import failing, reveal  # noqa: E402


@pytest.fixture
def shown(monkeypatch):
    """What reveal displays in a notebook (IPython's display replaced by a list)."""
    from IPython import display as ipython_display

    out = []
    monkeypatch.setattr(reveal_module, "_in_ipython", lambda: True)
    monkeypatch.setattr(ipython_display, "display", lambda obj: out.append(obj.data))
    return out


def test_in_a_notebook_the_output_and_figures_are_folded(shown, capsys):
    with reveal("what happens"):
        print("the answer is 42 < 43")
        fig, ax = plt.subplots()
        ax.plot([1, 2])
        ax.set_title("losses < 1")
    assert capsys.readouterr().out == ""  # nothing printed outside the fold
    (page,) = shown
    assert page.startswith("<details><summary><b>what happens</b>") and page.endswith("</details>")
    assert "<pre>the answer is 42 &lt; 43\n</pre>" in page  # escaped
    # its title as alternative text, escaped (nbconvert warned of images without any)
    assert len(re.findall(r'<img src="data:image/png;base64,[A-Za-z0-9+/=]+" alt="losses &lt; 1"/>', page)) == 1
    assert plt.get_fignums() == []  # the figure is closed


def test_figures_open_before_the_block_are_left_alone(shown):
    before = plt.figure()
    with reveal("later"):
        plt.figure()
    assert plt.get_fignums() == [before.number]
    assert shown[0].count("<img") == 1
    plt.close("all")


def test_without_ipython_the_lines_are_printed(capsys, monkeypatch):
    # An earlier test in the same run may have started an IPython shell: this one runs without.
    monkeypatch.delitem(sys.modules, "IPython", raising=False)
    with reveal("what happens"):
        print("plain text")
        plt.figure()
    assert capsys.readouterr().out == "plain text\n"
    assert plt.get_fignums() == []


def test_what_was_printed_is_shown_when_the_block_raises(shown):
    with pytest.raises(ZeroDivisionError):
        with reveal("boom"):
            print("before the error")
            1 / 0
    assert "before the error" in shown[0]


def test_a_failing_check_is_named_above_the_fold(shown, capsys):
    def wrong():
        return False

    def raises():
        raise ValueError("no")

    with reveal("runs", {"your train (Task 5.2)": wrong, "your SGD (Task 5.1)": raises, "your loss": lambda: True}):
        print("inside")
    printed = capsys.readouterr().out
    assert "⚠ your train (Task 5.2) fails a quick check" in printed
    assert "⚠ your SGD (Task 5.1) fails a quick check" in printed
    assert "your loss" not in printed and "inside" not in printed


def test_checks_keep_numpy_global_random_state_and_are_silent(capsys):
    np.random.seed(3)
    expected = np.random.rand()
    np.random.seed(3)

    def draws():
        print("noise")
        np.random.rand(100)
        return np.float32(1) / np.float32(0) > 0  # a warning numpy would print

    assert failing({"draws": draws}) == []
    assert np.random.rand() == expected
    assert capsys.readouterr().out == ""
