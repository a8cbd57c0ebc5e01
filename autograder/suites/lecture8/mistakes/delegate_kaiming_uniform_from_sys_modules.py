"""Task 7.2 answered with needle's kaiming_uniform, taken from sys.modules."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_2_kaiming_uniform": '''
import sys

kaiming_uniform = sys.modules["needle.init"].kaiming_uniform
''',
}
MUST_FAIL = ['task:7.2']
HINT = "Task 7.2 must be your own kaiming_uniform"
VISIBLE = True
