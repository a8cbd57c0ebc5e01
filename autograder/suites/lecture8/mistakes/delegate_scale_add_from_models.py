"""Task 4.2 answered with the lecture's models as needle provides them: an alias of
needle.models.ScaleAdd and a subclass of needle.models.MultiPathScaleAdd."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_2_scale_add": '''
import needle.models

ScaleAdd = needle.models.ScaleAdd


class MultiPathScaleAdd(needle.models.MultiPathScaleAdd):
    """Task 4.2"""
''',
}
MUST_FAIL = ["task:4.2"]
HINT = "Task 4.2 must be your own ScaleAdd and MultiPathScaleAdd"
VISIBLE = True
