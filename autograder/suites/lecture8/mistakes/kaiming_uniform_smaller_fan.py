"""kaiming_uniform with the smaller of the two fans, sqrt(6 / min(fan_in, fan_out)): right on square layers
and on layers wider than their input, too wide on narrower ones."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_2_kaiming_uniform": '''
def kaiming_uniform(fan_in, fan_out):
    b = np.sqrt(6.0 / min(fan_in, fan_out))
    return ndl.Tensor(np.random.uniform(-b, b, (fan_in, fan_out)), dtype="float32", requires_grad=False)
''',
}
MUST_FAIL = ['test_uniform_factor']
HINT = 'Task 7.2, rung 11 (the factor is 1 on narrower and wider layers of other sizes)'
