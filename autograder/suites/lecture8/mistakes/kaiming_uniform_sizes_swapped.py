"""kaiming_uniform draws an array of shape (fan_out, fan_in)."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_2_kaiming_uniform": '''
def kaiming_uniform(fan_in, fan_out):
    b = np.sqrt(6 / fan_in)
    return ndl.Tensor(np.random.uniform(-b, b, (fan_out, fan_in)), dtype="float32", requires_grad=False)
''',
}
MUST_FAIL = ['test_7_2_rung2_shape_fan_in_fan_out', 'test_uniform_distribution', 'test_uniform_factor', 'test_uniform_reproducible']
HINT = 'Task 7.2, rung 2 (shape (fan_in, fan_out))'
VISIBLE = True
