"""kaiming_uniform keeps numpy's float64 (dtype="float64", "for precision"), where the task asks for float32."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_2_kaiming_uniform": '''
def kaiming_uniform(fan_in, fan_out):
    b = np.sqrt(6.0 / fan_in)
    return ndl.Tensor(np.random.uniform(-b, b, (fan_in, fan_out)), dtype="float64", requires_grad=False)
''',
}
MUST_FAIL = ['test_7_2_rung3_float32', 'test_uniform_distribution', 'test_uniform_factor', 'test_uniform_reproducible']
HINT = 'Task 7.2, rung 3 (float32)'
VISIBLE = True
