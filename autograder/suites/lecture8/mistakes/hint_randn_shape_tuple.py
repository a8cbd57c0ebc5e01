"""kaiming_normal that passes the shape to np.random.randn as one tuple: randn takes each size as
an argument of its own, and raises TypeError (audit case w07_normal_randn_tuple)."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    w = np.random.randn((fan_in, fan_out)) * np.sqrt(2 / fan_in)
    return ndl.Tensor(w, dtype="float32", requires_grad=False)
''',
}
MUST_FAIL = ['task:7.1']
HINT = "take each size as an argument of its own"
VISIBLE = True
