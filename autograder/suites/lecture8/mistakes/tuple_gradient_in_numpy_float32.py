"""FusedAddScalars.gradient adds the slot adjoints in numpy and wraps the sum in a new Tensor: the
values are right, but the adjoint has no graph (no second derivative) and, as a new Tensor's
default, float32 (float64 data's gradient changes dtype). One message: the numpy route."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_2_gradient": '''
def gradient(self, out_grad, node):
    g0, g1 = out_grad[0], out_grad[1]
    return ndl.Tensor(g0.numpy() + g1.numpy())


FusedAddScalars.gradient = gradient
''',
}
MUST_FAIL = ["test_gradient_composed_with_other_ops", "test_gradient_is_differentiable", "test_gradient_of_product_by_hand",
             "test_gradient_slots_used_several_times", "test_gradient_through_one_slot_only"]
HINT = "your gradient has no graph"
NOT_HINTS = ["dtype", "float32 and float64"]
VISIBLE = True
