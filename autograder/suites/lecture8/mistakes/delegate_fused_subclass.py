"""Task 6.1 answered with a subclass of needle's own FusedAddScalars."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_1_fused_add_scalars": '''
class FusedAddScalars(ndl.ops.FusedAddScalars):
    """Task 6.1"""


def fused_add_scalars(a, c0, c1):
    return FusedAddScalars(c0, c1)(a)
''',
}
MUST_FAIL = ["task:6.1", "task:6.2"]
HINT = "must be your own"
VISIBLE = True
