"""Task 3.3 answered by aliasing needle's own LogSumExp op and logsumexp function."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_3_logsumexp_op": '''
LogSumExp = ndl.ops.LogSumExp
logsumexp = ndl.ops.logsumexp
''',
}
MUST_FAIL = ["task:3.3"]
HINT = "Task 3.3 must be your own"
VISIBLE = True
