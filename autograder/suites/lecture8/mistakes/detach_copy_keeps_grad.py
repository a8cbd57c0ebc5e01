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
MUST_FAIL = ['test_2_1_rung8_no_gradient_of_its_own', 'test_detach_drawn_tensors']
HINT = 'Task 2.1, rung 8 (no gradient of its own)'
VISIBLE = True
