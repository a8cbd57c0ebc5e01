"""Review flags: constructs no honest answer needs, read from the submission's code on the
trusted side; honest solutions and every plain mistake raise none."""
import pytest

from autograder.check.selfcheck import grading_cells, load_mistake
from autograder.grade.review import review_flags
from conftest import LECTURE8

# Delegations spelled to hide needle's name: flagged (they also score 0 for their task).
OBFUSCATED = {"delegate_count_topo_sort_by_getattr", "delegate_kaiming_uniform_from_sys_modules"}


@pytest.mark.parametrize("source, what", [
    ("import numpy as np\na = np.zeros(3)\np = a.__array_interface__['data'][0]", "raw memory access"),
    ("from numpy.lib.stride_tricks import as_strided", "raw memory access"),
    ("import ctypes", "raw memory access"),
    ("import os\nos.dup2(1, 4)", "file-descriptor games"),
    ("import os\nos.write(4, b'x')", "file-descriptor games"),
    ("def f(): pass\nf.__code__ = (lambda: 1).__code__", "code, closure or frame surgery"),
    ("def f(x):\n    return f.__closure__", "code, closure or frame surgery"),
    ("g = (lambda: 0).__globals__", "code, closure or frame surgery"),
    ("import sys\nm = sys.modules['needle']", "the interpreter's internals"),
    ("import gc", "the interpreter's internals"),
    ("import inspect", "the interpreter's internals"),
    ("from autograder.probing import graph_digest", "the grader's own code"),
    ("import sys\nm = getattr(sys, 'modules')", "the interpreter's internals"),
    ("def f(g):\n    return getattr(g, ''.join(('_', '_code_', '_')))", "code, closure or frame surgery"),
    ("def f(g):\n    return getattr(g, '-'.join(['tb', 'frame']).replace('-', '_'))", "code, closure or frame surgery"),
    ("import importlib", "the interpreter's internals"),
    ("class M(type):\n    def __instancecheck__(cls, o):\n        return True", "metaclass or isinstance tricks"),
    ("class T(metaclass=type):\n    pass", "metaclass or isinstance tricks"),
    ("exec('x = 1')", "running code built from strings"),
    ("y = eval('1 + 1')", "running code built from strings"),
    ("c = compile('1', '<s>', 'eval')", "running code built from strings"),
    ("v = getattr(object, '__sub' + 'classes__')", "code, closure or frame surgery"),
    ("v = getattr(object, '__subclasses__')", "code, closure or frame surgery"),
    ("count = 1\nсount = 2", "a look-alike or invisible identifier"),  # Cyrillic с
    ("xㅤ = 1", "a look-alike or invisible identifier"),  # U+3164 Hangul filler
])
def test_each_construct_is_flagged_with_its_line(source, what):
    flags = review_flags(["# setup", source])
    assert any(f.startswith("cell 2, line ") and f.endswith(what) for f in flags), flags


def test_flags_carry_no_text_of_the_submission():
    flags = review_flags(["SECRET_name = 1\nimport ctypes  # SECRET comment"])
    assert flags == ["cell 1, line 2: raw memory access"]


def test_honest_code_is_not_flagged():
    honest = '''
import math, copy, functools, itertools, collections
import numpy as np
import needle as ndl
α = 0.5
def count_graph_nodes(t):
    seen, stack = set(), [t]
    while stack:
        v = stack.pop()
        if id(v) not in seen:
            seen.add(id(v))
            stack.extend(v.inputs)
    return len(seen)
class Module:
    def parameters(self):
        out = []
        for name, value in vars(self).items():
            out.append(getattr(self, name))
        return out
'''
    assert review_flags([honest]) == []


def test_setup_cells_of_the_course_are_not_read():
    setup = "import importlib\nexec('x = 1')"
    assert review_flags([setup, "y = 2"], instructors={setup}) == []


@pytest.mark.parametrize("notebook", LECTURE8.notebooks())
def test_solutions_raise_no_flag(notebook):
    cells = grading_cells(LECTURE8, notebook)
    assert review_flags([c.source for c in cells if c.solution]) == []


def test_mistake_fixtures_raise_no_flag_but_hidden_delegations_do():
    for path in sorted(LECTURE8.mistakes_dir.glob("*.py")):
        flags = review_flags(list(load_mistake(path)["CELLS"].values()))
        assert bool(flags) == (path.stem in OBFUSCATED), (path.stem, flags)
