"""kaiming_uniform calls np.random.uniform(-b, b) without the size: one number, wrapped in a
Tensor of shape ()."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_2_kaiming_uniform": '''
def kaiming_uniform(fan_in, fan_out):
    bound = np.sqrt(6.0 / fan_in)
    return ndl.Tensor(np.random.uniform(-bound, bound), dtype="float32", requires_grad=False)
''',
}
MUST_FAIL = ["task:7.2"]
HINT = "single number"
NOT_HINTS = ["order of the two sizes"]
VISIBLE = True
