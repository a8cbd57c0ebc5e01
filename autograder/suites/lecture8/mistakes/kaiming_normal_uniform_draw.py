"""kaiming_normal draws from a uniform with the right variance (U(-b, b), b = sqrt(6 / fan_in)), where the
task asks for a normal: every ReLU factor is right, the distribution is not."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    b = np.sqrt(6.0 / fan_in)
    return ndl.Tensor(np.random.uniform(-b, b, (fan_in, fan_out)), dtype="float32", requires_grad=False)
''',
}
MUST_FAIL = ['test_7_1_rung6_a_normal_distribution', 'test_normal_distribution']
HINT = 'Task 7.1, rung 6 (a normal distribution)'
VISIBLE = True
