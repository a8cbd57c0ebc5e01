"""Parameter and Module with no walk of the tree: a module's Parameters are those made after it was
(a log kept by Parameter.__init__). The grader builds a tree after the module's __init__, in attribute
order, so this scored 12/12 (red team, round 10); it is wrong for a Parameter made before its module
and for one made after it that the module does not hold, the case the hidden test now has."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_1_module": '''
import weakref

_MADE = []  # every Parameter, in the order it was made


class Parameter(ndl.Tensor):
    """Task 4.1: a Tensor that is a trainable parameter of a Module (a marker: no new behaviour)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _MADE.append(weakref.ref(self))


class Module:
    """No walk of the tree at all: a module's Parameters are those made after it was."""

    def __init__(self):
        self.training = True
        self._born = len(_MADE)

    def parameters(self) -> list:
        start = self.__dict__.get("_born", 0)
        return [p for p in (r() for r in _MADE[start:]) if p is not None]

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError()
''',
}
MUST_FAIL = ['test_4_1_rung7_what_the_module_holds_not_when_it_was_made']
HINT = 'Task 4.1, rung 7 (what the module holds, not when it was made)'
VISIBLE = True
