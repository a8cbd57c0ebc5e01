"""Task 7.1 answered by calling needle's own kaiming_normal."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    return ndl.init.kaiming_normal(fan_in, fan_out)
''',
}
MUST_FAIL = ['task:7.1']
HINT = "Task 7.1 must be your own kaiming_normal"
VISIBLE = True
