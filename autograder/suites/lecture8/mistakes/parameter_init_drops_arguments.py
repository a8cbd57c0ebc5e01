"""Parameter given an __init__ of its own that takes only the value: Parameter(v, dtype=...), as a
Tensor is made (and as ScaleAdd makes its s and b), raises TypeError."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_1_module": '''
class Parameter(ndl.Tensor):
    """Task 4.1: a Tensor that is a trainable parameter of a Module (a marker: no new behaviour)."""

    def __init__(self, value):
        super().__init__(value)


class Module:
    """Task 4.1: base class of models, layers and losses.

    Subclasses store Parameters and sub-Modules in attributes and define ``forward``.
    """

    def parameters(self) -> list:
        """Task 4.1: every Parameter reachable from this module's attributes, each once.

        Walk ``self.__dict__`` in attribute order, depth first:
        a Parameter is collected; a Module is walked through its own attributes; a dict through
        its values; a list or a tuple through its items; anything else is ignored. A Parameter
        reached a second time (same object) is not listed again. Returns a list.
        """
        found, seen = [], {id(self)}

        def visit(value):
            if isinstance(value, Parameter):
                if id(value) not in seen:
                    seen.add(id(value))
                    found.append(value)
            elif isinstance(value, Module):
                if id(value) not in seen:  # a shared sub-module is walked once
                    seen.add(id(value))
                    visit(value.__dict__)
            elif isinstance(value, dict):
                for item in value.values():
                    visit(item)
            elif isinstance(value, (list, tuple)):
                for item in value:
                    visit(item)

        visit(self.__dict__)
        return found

    def __call__(self, *args, **kwargs):
        """Task 4.1: ``module(*args, **kwargs)`` returns ``module.forward(*args, **kwargs)``."""
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must define forward()")
''',
}
MUST_FAIL = ['test_4_2_rung1_s_and_b_are_parameters']
HINT = 'Task 4.2, rung 1 (s and b are Parameters)'
VISIBLE = False  # Task 4.1's visible rungs make no Parameter with a dtype; 4.2's catch it
