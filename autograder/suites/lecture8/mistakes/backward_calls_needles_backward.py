"""Task 9.2 answered by calling needle's own backward: output_tensor.backward(out_grad)."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_2_compute_gradient_of_variables": '''
def compute_gradient_of_variables(output_tensor, out_grad):
    output_tensor.backward(out_grad)
''',
}
MUST_FAIL = ['test_9_2_rung10_a_tuple_node', 'test_backward_random_graphs', 'test_backward_many_paths', 'test_backward_deep_chain']
HINT = "Task 9.2 must be your own compute_gradient_of_variables"
VISIBLE = True
