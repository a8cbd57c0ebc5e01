"""Hidden tests for 10_op_gradients (Tasks 10.1 BroadcastTo, 10.2 Summation, 10.3 MatMul gradients).

Each task is declared once, below (``Task``): its data rungs call the student's gradient on the
smallest inputs, one behaviour each, with values derived by hand (the visible tests climb the same
rungs); its one hidden rung, worth the task's points, runs the checks further down on shapes and
values drawn per submission (judges/j10_op_gradients.py). The probes call the student's gradient on nodes whose forward values
they set (numpy's), directly or through needle's backward in a small graph, and report each adjoint
as an array. Every expected value is computed here: by hand (the derivation beside it) or by
float64 central differences of numpy's forward contracted with the output adjoint, over every
element. A wrong adjoint there names the shape mistake whose result it equals on that case (forgot
the new leading axes, forgot the stretched size-1 axes, no reshape back, averaged, no batch
reduction, ...), or a generic message when none fits.
"""
from autograder.specification import Rung, Task, declare
from autograder.suite import load_judges

J = load_judges(__file__)

# needle's own gradient of each op and the helper that holds its answer (which axes broadcasting
# repeated; the kept shape of a reduction; a batched product's reduction): a task answered with
# them scores nothing. Every forward op stays allowed.
F64 = "dtype='float64'"


def tensor(values: str) -> str:
    """A float64 needle Tensor's constructor, as a rung's input shows it."""
    return f"ndl.Tensor({values}, {F64})"


# Each data rung calls the student's gradient directly on the op's node (the call judged is
# `y.op.gradient(g, y)`: the adjoint of the input for out_grad g); the values are derived by hand.
TASK_10_1 = Task(
    "10.1", names=["BroadcastTo", "broadcast_to"], label="BroadcastTo.gradient",
    own_work=["needle.ops.shape.BroadcastTo.gradient", "needle.ops.shape._repeated_axes"],
    contract="BroadcastTo(shape).gradient(out_grad, node) is the adjoint of the input: out_grad summed over every "
             "axis along which broadcasting repeated the input (the new leading axes, and the input's size-1 axes "
             "stretched to a larger size), as one needle Tensor of the input's shape",
    rungs=[
        # y_ij = x_j: x_j is used once per row, so its adjoint is the column sum of g: (1+3+5, 2+4+6) = (9, 12)
        Rung("a new leading axis: (2,) to (3, 2)",
             given=f"x = {tensor('[1.0, 2.0]')}; y = broadcast_to(x, (3, 2)); "
                   f"g = {tensor('[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]')}",
             call="y.op.gradient(g, y)", expect=[9.0, 12.0], returns="Tensor"),
        # y_ij = x_i0: the row sums of g = [[0..3], [4..7], [8..11]], kept as a column: 6, 22, 38
        Rung("a stretched size-1 axis: (3, 1) to (3, 4)",
             given=f"x = {tensor('[[1.0], [2.0], [3.0]]')}; y = broadcast_to(x, (3, 4)); "
                   f"g = ndl.Tensor(np.arange(12.0).reshape(3, 4), {F64})",
             call="y.op.gradient(g, y)", expect=[[6.0], [22.0], [38.0]], returns="Tensor"),
        # y_kij = x_i0: sum over the new axis k and the stretched axis j (axis 2 of y, not 1) of
        # g = arange(12).reshape(2, 3, 2): row i gets g[0, i] + g[1, i] summed: 0+1+6+7, 2+3+8+9, 4+5+10+11
        Rung("both: (3, 1) to (2, 3, 2)",
             given=f"x = {tensor('[[1.0], [2.0], [3.0]]')}; y = broadcast_to(x, (2, 3, 2)); "
                   f"g = ndl.Tensor(np.arange(12.0).reshape(2, 3, 2), {F64})",
             call="y.op.gradient(g, y)", expect=[[14.0], [22.0], [30.0]], returns="Tensor"),
    ])
X23 = "x = ndl.Tensor(np.arange(6.0).reshape(2, 3), dtype='float64')"
TASK_10_2 = Task(
    "10.2", names=["Summation", "summation"], label="Summation.gradient",
    own_work=["needle.ops.shape.Summation.gradient", "needle.ops.shape.kept_shape", "needle.ops.shape._kept_shape"],
    contract="Summation(axes, keepdims).gradient(out_grad, node) is the adjoint of the input: out_grad copied along "
             "every summed axis (axes None: every axis; an int; a tuple; negative axes count from the end; with or "
             "without keepdims), as one needle Tensor of the input's shape",
    rungs=[
        # y_j = sum_i x_ij: each x_ij gets g_j, the same in both rows
        Rung("axes=0 on a (2, 3) input", given=f"{X23}; y = summation(x, 0); g = {tensor('[1.0, 2.0, 3.0]')}",
             call="y.op.gradient(g, y)", expect=[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]], returns="Tensor"),
        # y_i = sum_j x_ij: each x_ij gets g_i, the same along each row
        Rung("axes=1 on a (2, 3) input", given=f"{X23}; y = summation(x, 1); g = {tensor('[2.0, -1.0]')}",
             call="y.op.gradient(g, y)", expect=[[2.0, 2.0, 2.0], [-1.0, -1.0, -1.0]], returns="Tensor"),
        # y_j = sum_ik x_ijk over axes 0 and 2 of a (2, 3, 2) input: each x_ijk gets g_j
        Rung("a tuple of axes: (0, 2) on a (2, 3, 2) input",
             given=f"x = ndl.Tensor(np.zeros((2, 3, 2)), {F64}); y = summation(x, (0, 2)); g = {tensor('[1.0, 2.0, 3.0]')}",
             call="y.op.gradient(g, y)", expect=[[[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]] * 2, returns="Tensor"),
        # y = sum of every element: each gets the one number g = 5
        Rung("axes=None on a (2, 3) input", given=f"{X23}; y = summation(x); g = ndl.Tensor(np.array(5.0), {F64})",
             call="y.op.gradient(g, y)", expect=[[5.0] * 3] * 2, returns="Tensor"),
        # keepdims: y has shape (2, 1), and each x_ij still gets g_i0
        Rung("keepdims=True: axes=1 on a (2, 3) input",
             given=f"{X23}; y = summation(x, 1, keepdims=True); g = {tensor('[[2.0], [-1.0]]')}",
             call="y.op.gradient(g, y)", expect=[[2.0, 2.0, 2.0], [-1.0, -1.0, -1.0]], returns="Tensor"),
        # axis -1 is axis 1 here: the same as the rung axes=1
        Rung("a negative axis: -1 on a (2, 3) input", given=f"{X23}; y = summation(x, -1); g = {tensor('[2.0, -1.0]')}",
             call="y.op.gradient(g, y)", expect=[[2.0, 2.0, 2.0], [-1.0, -1.0, -1.0]], returns="Tensor"),
    ])
A22, B22 = "[[1.0, 2.0], [3.0, 4.0]]", "[[5.0, 6.0], [7.0, 8.0]]"
TASK_10_3 = Task(
    "10.3", names=["MatMul", "matmul"], label="MatMul.gradient",
    own_work=["needle.ops.matmul.MatMul.gradient", "needle.ops.matmul._sum_to_shape"],
    contract="MatMul().gradient(out_grad, node) is the pair (grad_a, grad_b): the 2-D product rule applied to each "
             "matrix of the batch (the last two axes), then summed over every batch axis along which that operand "
             "was broadcast (its missing leading axes and its stretched size-1 batch axes); each a needle Tensor of "
             "its operand's shape",
    rungs=[
        # g picks c_00 = a_00 b_00 + a_01 b_10: grad_a = [[b_00, b_10], [0, 0]] = [[5, 7], [0, 0]],
        # grad_b = [[a_00, 0], [a_01, 0]] = [[1, 0], [2, 0]]
        Rung("2-D: out_grad picks c[0, 0]",
             given=f"a = {tensor(A22)}; b = {tensor(B22)}; c = matmul(a, b); g = {tensor('[[1.0, 0.0], [0.0, 0.0]]')}",
             call="c.op.gradient(g, c)", expect=[[[5.0, 7.0], [0.0, 0.0]], [[1.0, 0.0], [2.0, 0.0]]]),
        # a batch of two, a[k] = a + 10k, one b; g all ones: grad_b_jm = sum over k and the rows i of a[k]_ij:
        # (1 + 3) + (11 + 13) = 28 for j = 0, (2 + 4) + (12 + 14) = 32 for j = 1, the same in both columns m
        Rung("a batch (2, 2, 2) times one b (2, 2): b's adjoint",
             given=f"a = ndl.Tensor(np.array([{A22}]) + np.array([0.0, 10.0])[:, None, None], {F64}); b = {tensor(B22)}; "
                   f"c = matmul(a, b); g = ndl.Tensor(np.ones((2, 2, 2)), {F64})",
             call="c.op.gradient(g, c)[1]", expect=[[28.0, 28.0], [32.0, 32.0]], returns="Tensor"),
        # a of shape (1, 2, 2) against b[k] = b + k, k = 0, 1; g all ones: grad_a_ij = sum_k sum_m b[k]_jm, the row
        # sums of b and of b + 1: (11 + 13, 15 + 17) = (24, 32) in every row i, kept of shape (1, 2, 2)
        Rung("a stretched size-1 batch axis: a (1, 2, 2) times b (2, 2, 2): a's adjoint",
             given=f"a = ndl.Tensor(np.array([{A22}]), {F64}); b = ndl.Tensor(np.array([{B22}]) + np.array([0.0, 1.0])[:, None, None], {F64}); "
                   f"c = matmul(a, b); g = ndl.Tensor(np.ones((2, 2, 2)), {F64})",
             call="c.op.gradient(g, c)[0]", expect=[[[24.0, 32.0], [24.0, 32.0]]], returns="Tensor"),
    ])
declare(globals(), TASK_10_1, TASK_10_2, TASK_10_3)


@TASK_10_1.rung("shapes drawn per submission, by hand and by central differences", points=8)
def test_broadcast_gradient(observe, submission_seed):
    """BroadcastTo's gradient on shapes and values drawn per submission, against central differences"""
    J.check_broadcast_gradient_by_hand(observe)
    J.check_broadcast_new_leading_axes(observe, submission_seed)
    J.check_broadcast_stretched_axes(observe, submission_seed)
    J.check_broadcast_size_one_kept_and_equal_shapes(observe, submission_seed)
    J.check_broadcast_gradient_any_shape(observe, submission_seed)
    J.check_broadcast_in_a_composed_graph(observe, submission_seed)


@TASK_10_2.rung("every form of axes and keepdims on inputs drawn per submission, by hand and by central differences", points=10)
def test_summation_gradient(observe, submission_seed):
    """Summation's gradient on inputs drawn per submission, against central differences"""
    J.check_summation_gradient_by_hand(observe)
    J.check_summation_axes_forms(observe, submission_seed)
    J.check_summation_keepdims(observe, submission_seed)
    J.check_summation_negative_axes(observe, submission_seed)
    J.check_summation_in_a_composed_graph(observe, submission_seed)


@TASK_10_3.rung("batch shapes drawn per submission, by hand and by central differences", points=12)
def test_matmul_gradient(observe, submission_seed):
    """MatMul's gradient on shapes drawn per submission, against central differences"""
    J.check_matmul_gradient_by_hand(observe)
    J.check_matmul_one_operand_batched(observe, submission_seed)
    J.check_matmul_batch_axes_broadcast(observe, submission_seed)
    J.check_matmul_in_a_composed_graph(observe, submission_seed)


# Right answers other than the instructor's: each must get full marks and pass the visible tests.
ACCEPTED = {
    "broadcast_one_axis_at_a_time": {"task10_1_broadcast_to_gradient": '''
class BroadcastTo(ops.BroadcastTo):
    def gradient(self, out_grad, node):
        in_shape = node.inputs[0].shape
        grad = out_grad
        while len(grad.shape) > len(in_shape):  # the new leading axes, one at a time
            grad = ops.summation(grad, 0)
        for axis, n in enumerate(in_shape):
            if n == 1 and grad.shape[axis] != 1:
                grad = ops.summation(grad, axis, keepdims=True)
        return grad


def broadcast_to(a, shape):
    return BroadcastTo(shape)(a)
'''},
    "summation_keepdims_branch": {"task10_2_summation_gradient": '''
class Summation(ops.Summation):
    def gradient(self, out_grad, node):
        shape = node.inputs[0].shape
        if self.keepdims:
            return ops.broadcast_to(out_grad, shape)
        axes = range(len(shape)) if self.axes is None else np.atleast_1d(self.axes)
        kept = list(shape)
        for axis in axes:
            kept[int(axis)] = 1  # a negative index counts from the end, as in numpy
        return ops.broadcast_to(ops.reshape(out_grad, tuple(kept)), shape)


def summation(a, axes=None, keepdims=False):
    return Summation(axes, keepdims)(a)
'''},
}
