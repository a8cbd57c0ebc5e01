"""Task 7.1 answered trivially with zeros of the right shape and dtype. It must earn nothing."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    return ndl.Tensor(np.zeros((fan_in, fan_out)), dtype="float32")
''',
}
MUST_FAIL = ['task:7.1']
HINT = 'constant weights'
VISIBLE = True
