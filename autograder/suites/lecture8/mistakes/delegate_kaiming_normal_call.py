"""Task 6.1 answered by calling needle's own kaiming_normal."""
NOTEBOOK = "06_init_variance"
CELLS = {
    "task6_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    return ndl.init.kaiming_normal(fan_in, fan_out)
''',
}
MUST_FAIL = ["task:6.1"]
HINT = "Task 6.1 must be your own kaiming_normal"
VISIBLE = True
