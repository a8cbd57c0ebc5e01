"""Task 3.3 answered with a subclass of needle's LogSumExp that overrides nothing."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_3_logsumexp_op": '''
class LogSumExp(ndl.ops.LogSumExp):
    """Task 3.3"""


def logsumexp(a, axes=None):
    return LogSumExp(axes)(a)
''',
}
MUST_FAIL = ["task:3.3"]
HINT = "Task 3.3 must be your own"
VISIBLE = True
