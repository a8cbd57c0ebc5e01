"""softmax_stable that replaces -inf by -1e9 before the usual shift: masked entries get 0, but a
row that is all -inf becomes a row of equal logits and gets a uniform distribution instead of
zeros."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_1_softmax_stable": '''
def softmax_stable(x, axis=-1):
    x = np.where(np.isneginf(x), -1e9, x)
    m = np.max(x, axis=axis, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=axis, keepdims=True)
''',
}
MUST_FAIL = ['test_3_1_rung5_inf_entries_and_a_row_all_inf']
HINT = 'Task 3.1, rung 5 (-inf entries and a row all -inf)'
VISIBLE = True
