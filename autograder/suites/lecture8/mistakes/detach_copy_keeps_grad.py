"""detach as a shallow copy of t with the graph cut (copy.copy, then op, inputs and requires_grad
reset): it shares the array and is a leaf, but carries t's .grad over; the task says the result
has no grad (a fresh leaf starts with grad None)."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_1_detach": '''
import copy


def detach(t):
    d = copy.copy(t)
    d.op, d.inputs, d.requires_grad = None, (), False
    d.cached_data = t.realize_cached_data()
    return d
''',
}
MUST_FAIL = ["test_detach_returns_new_leaf"]
HINT = "carries t's .grad"
VISIBLE = True
