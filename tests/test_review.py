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


# --- issue 45: every rule has an honest counter-example that is not flagged -------------------------
@pytest.mark.parametrize("rule, honest", [
    ("raw memory access", "import numpy as np\nfrom numpy.lib.stride_tricks import sliding_window_view\n"
                          "w = sliding_window_view(np.arange(5), 3)\nv = np.lib.stride_tricks.sliding_window_view(np.arange(5), 2)"),
    ("raw memory access", "import numpy as np\na = np.asarray([1.0])\ns = a.strides, a.shape, a.data.nbytes"),
    ("file-descriptor games", "import os\nos.makedirs('run', exist_ok=True)\nopen(os.path.join('run', 'n.txt'), 'w').write('x')"),
    ("code, closure or frame surgery", "def f(obj, name):\n    return getattr(obj, name), f.__name__, getattr(obj, 'data')"),
    ("the interpreter's internals", "import sys, time\nlimit = sys.getrecursionlimit()\nt = time.perf_counter()"),
    ("running code built from strings", "import re, ast\npattern = re.compile('a+')\nv = ast.literal_eval('1')\nmodel.eval()"),
    ("metaclass or isinstance tricks", "import numpy as np\nclass A(dict):\n    pass\nok = isinstance(A(), dict)\n"
                                       "name = A().__class__.__name__"),
    ("the grader's own code", "import needle as ndl\nfrom needle.gradcheck import central_differences"),
    ("a look-alike or invisible identifier", "t = 1.0\nτ = 2 * t\na = 3\nα = 0.1 * a\nλ = 1e-3\no = 0\nσ = 1 + o\nnaïve = 1\nΔt = 0.5"),
    ("a library function that a task declares as its own work",
     "import numpy as np\ndef logaddexp(a, b):\n    m = np.maximum(a, b)\n    return m + np.log(np.exp(a - m) + np.exp(b - m))\n"
     "def lse(x, axis=-1):\n    m = np.max(x, axis=axis, keepdims=True)\n"
     "    return np.log(np.sum(np.exp(x - m), axis=axis)) + np.squeeze(m, axis) + logaddexp(0, 0) * 0\n"
     "total = np.add.reduce(np.ones(3))\nclass Row:\n    logaddexp = None\nRow().logaddexp"),
])
def test_each_rule_leaves_honest_code_alone(rule, honest):
    from autograder.suites.lecture8 import test_03_stable_softmax

    assert review_flags(["import numpy as np", honest], {"import numpy as np"}, test_03_stable_softmax.OWN_WORK) == []


@pytest.mark.parametrize("source, what", [
    ("а = 1\na = 2\ndef f():\n    return а", "a look-alike or invisible identifier"),  # Cyrillic а shadows a
    ("def cοunt(t):\n    return 1\ncount = 2", "a look-alike or invisible identifier"),  # Greek ο inside a Latin name
    ("from numpy.lib.stride_tricks import *\nv = as_strided", "raw memory access"),
])
def test_real_look_alikes_and_hidden_raw_memory_are_still_flagged(source, what):
    assert any(f.endswith(what) for f in review_flags([source])), review_flags([source])


LSE = "a library function that a task declares as its own work (numpy.logaddexp: Task 3.1, 3.2)"


@pytest.mark.parametrize("cell", [
    "def logsumexp_stable(x, axis=-1, keepdims=False):\n    return np.logaddexp.reduce(x, axis=axis, keepdims=keepdims)",
    "from numpy import logaddexp as la\ndef f(x):\n    return la.reduce(x)",
    "def f(x):\n    return getattr(np, 'log' + 'addexp').accumulate(x)[-1]",
    "f = np._core.umath.logaddexp\ng = f",
    "def f(x):\n    return vars(np)['logaddexp'].reduce(x)",
    "from numpy import *\ndef f(x):\n    return logaddexp.reduce(x)",
    "import numpy\nreduce = numpy.logaddexp.reduce",
])
def test_a_declared_library_function_is_flagged_by_what_its_name_refers_to(cell):
    """Issue 45: what a name refers to, not how it is spelt (``np`` comes from the setup cell)."""
    from autograder.suites.lecture8 import test_03_stable_softmax

    flags = review_flags(["import numpy as np", cell], {"import numpy as np"}, test_03_stable_softmax.OWN_WORK)
    assert flags and all(f.startswith("cell 2, line ") for f in flags) and any(f.endswith(LSE) for f in flags), flags


def test_the_confusables_table_is_unicodes_and_its_generator_reads_the_file_format():
    """The vendored table (generate_confusables.py from Unicode's confusables.txt): Cyrillic а is
    Latin a, Greek τ is a small capital T (not t), σ is o; the generator reads the file's lines
    (several code points, comments, a character no identifier can hold) as UTS #39 lays them out."""
    from autograder.grade.confusables_table import PROTOTYPES
    from autograder.grade.generate_confusables import header, prototypes, render

    assert PROTOTYPES[ord("а")] == "a" and PROTOTYPES[ord("τ")] == "ᴛ" and PROTOTYPES[ord("σ")] == "o"
    assert len(PROTOTYPES) > 4000 and ord("a") not in PROTOTYPES  # a prototype maps to nothing
    sample = ("\ufeff# confusables.txt\n# Date: 2020-02-13, 01:38:49 GMT\n\n"
              "0430 ;\t0061 ;\tMA\t# ( а → a ) CYRILLIC SMALL LETTER A → LATIN SMALL LETTER A\t#\n"
              "006D ;\t0072 006E ;\tMA\t# ( m → rn )\n"
              "2024 ;\t002E ;\tMA\t# ( ․ → . ) ONE DOT LEADER → FULL STOP\n"
              "0031 0032 ;\t0078 ;\tMA\t# not a single character\n")
    assert prototypes(sample) == {"а": "a", "m": "rn"}
    assert header(sample) == "Date: 2020-02-13, 01:38:49 GMT"
    namespace: dict = {}
    exec(render(sample), namespace)
    assert namespace["PROTOTYPES"] == {0x430: "a", 0x6D: "rn"}
