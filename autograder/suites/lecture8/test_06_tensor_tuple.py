"""Hidden tests for 06_tensor_tuple (Tasks 6.1, 6.2 and 6.3): each task's declaration and ladder.

The data rungs are declared here, with their values derived by hand; the hidden rungs call the
judges (judges/j06_tensor_tuple.py), which read the probes' reports on the trusted side.
"""
from autograder.specification import Rung, Task, declare
from autograder.suite import load_judges

J = load_judges(__file__)

# Needle's own implementation of each task: a task answered with it scores nothing.
# needle's TensorTupleOp, make_tuple, indexing (TupleGetItem) and every other op stay allowed;
# needle has no Split (Task 6.3).
NEEDLE_FUSED = ["needle.ops.tuple.FusedAddScalars", "needle.ops.tuple.fused_add_scalars"]

# Task 6.1's rungs, by hand: compute(a) = (a + c0, a + c1), a Python tuple of numpy arrays of a's dtype.
COMPUTE = "out = FusedAddScalars(3.0, -1.0).compute(a)"
A_PAIR = "a = np.array([1.0, 2.0])"
A_PAIR_32 = "a = np.array([1.0, 2.0], dtype=np.float32)"
NODE = 'a = ndl.Tensor([1.0, 2.0], dtype="float64"); t = fused_add_scalars(a, 3.0, -1.0)'
TASK_6_1 = Task(
    "6.1", names=["FusedAddScalars", "fused_add_scalars"], own_work=NEEDLE_FUSED, label="FusedAddScalars",
    contract="FusedAddScalars(c0, c1).compute(a) returns a Python tuple of two numpy arrays, a + c0 and a + c1 in "
             "that order, of a's dtype, leaving a unchanged; fused_add_scalars(a, c0, c1) returns the one TensorTuple "
             "node made by applying the op to the Tensor a",
    rungs=[
        Rung("compute returns a Python tuple", given=f"{A_PAIR}; {COMPUTE}", call="type(out) is tuple", expect=True,
             cause="A TensorTuple's value is a Python tuple of numpy arrays: not a list, a generator or one stacked "
                   "array."),
        Rung("each output a numpy array", given=f"{A_PAIR}; {COMPUTE}",
             call="all(type(o) is np.ndarray for o in out)", expect=True,
             cause="compute works on numpy arrays and returns numpy arrays; the op makes the graph node around them."),
        # (1, 2) + 3 = (4, 5); (1, 2) - 1 = (0, 1)
        Rung("compute's two values, in order", given=f"{A_PAIR}; {COMPUTE}", call="np.stack(out)",
             expect=[[4.0, 5.0], [0.0, 1.0]]),
        # [[1, 2], [3, 4]] + 0.5 and + 2, element by element, shape kept
        Rung("a 2-D input", given="a = np.array([[1.0, 2.0], [3.0, 4.0]]); out = FusedAddScalars(0.5, 2.0).compute(a)",
             call="np.stack(out)", expect=[[[1.5, 2.5], [3.5, 4.5]], [[3.0, 4.0], [5.0, 6.0]]]),
        Rung("compute leaves a unchanged", given=f"{A_PAIR}; {COMPUTE}", call="a", expect=[1.0, 2.0],
             returns="ndarray", cause="compute must not change its input: return new arrays."),
        Rung("float32 stays float32", given=f"{A_PAIR_32}; {COMPUTE}", call="all(o.dtype == np.float32 for o in out)",
             expect=True),
        Rung("float64 stays float64", given=f"{A_PAIR}; {COMPUTE}", call="all(o.dtype == np.float64 for o in out)",
             expect=True),
        Rung("fused_add_scalars returns a TensorTuple", given=NODE, call="isinstance(t, ndl.TensorTuple)",
             expect=True, cause="fused_add_scalars returns the one TensorTuple node made by applying your op to a "
                                "(not a Python tuple, not compute's arrays)."),
        Rung("the node's slots by indexing", given=NODE, call="[t[0], t[1]]", expect=[[4.0, 5.0], [0.0, 1.0]]),
        Rung("the node is your op applied to a", given=NODE,
             call="isinstance(t.op, FusedAddScalars) and len(t.inputs) == 1 and t.inputs[0] is a", expect=True,
             cause="The TensorTuple's op is an instance of your FusedAddScalars, and its only input is a itself."),
    ])

# Task 6.2's rungs, by hand: t = (a + c0, a + c1), and d(a + c)/da is the identity whatever c is, so each
# slot's adjoint reaches a unchanged and a.grad is what the slots' adjoints add up to. The node's values
# are set in the rung (Task 6.1's compute is not called), so a mistake of 6.1 does not stop 6.2.
def fused_node(dtype: str) -> str:
    """The rungs' input: FusedAddScalars(3, -1) applied to a = (1, 2), its values (4, 5), (0, 1) set by hand."""
    np_dtype = f", dtype=np.{dtype}"
    return (f'a = ndl.Tensor([1.0, 2.0], dtype="{dtype}")\n'
            "with ndl.lazy_mode(): t = FusedAddScalars(3.0, -1.0)(a)\n"
            f"t.cached_data = (np.array([4.0, 5.0]{np_dtype}), np.array([0.0, 1.0]{np_dtype}))\n")


FUSED, FUSED_32 = fused_node("float64"), fused_node("float32")
W0 = 'ndl.Tensor([1.0, 2.0], dtype="float64", requires_grad=False)'
W1 = 'ndl.Tensor([10.0, 20.0], dtype="float64", requires_grad=False)'
TASK_6_2 = Task(
    "6.2", names=["FusedAddScalars"], own_work=NEEDLE_FUSED, label="FusedAddScalars.gradient",
    contract="FusedAddScalars.gradient(out_grad, node) returns the adjoint of the op's one input a: one Tensor of "
             "a's shape and out_grad's dtype, exact for any slot adjoints (zeros included), built with needle ops "
             "on out_grad so that backward(create_graph=True) can differentiate it",
    rungs=[
        # L = sum(t0) = sum(a + 3): dL/da = 1 per element
        Rung("slot 0 used alone", given=FUSED + "t[0].sum().backward()", call="a.grad", expect=[1.0, 1.0],
             returns="Tensor"),
        # L = sum(t1) = sum(a - 1): dL/da = 1 per element (slot 0's adjoint is zeros)
        Rung("slot 1 used alone", given=FUSED + "t[1].sum().backward()", call="a.grad", expect=[1.0, 1.0],
             returns="Tensor"),
        # L = sum(w0 * t0) + sum(w1 * t1): the slot adjoints are w0 and w1, dL/da = w0 + w1 = (1 + 10, 2 + 20)
        Rung("both slots, adjoints other than ones", given=FUSED + f"((t[0] * {W0}).sum() + (t[1] * {W1}).sum()).backward()",
             call="a.grad", expect=[11.0, 22.0], returns="Tensor"),
        Rung("float32 stays float32", given=FUSED_32 + "(t[0] * t[1]).sum().backward()",
             call="a.grad.dtype == np.float32", expect=True,
             cause="The adjoint of a keeps out_grad's dtype: build it with needle ops on the tensors in out_grad."),
        # g = dL/da = (a - 1) + (a + 3) = 2a + 2 for L = sum(t0 * t1); d(sum g)/da = 2 per element
        Rung("the gradient is differentiable",
             given=FUSED + "(t[0] * t[1]).sum().backward(create_graph=True); g = a.grad; a.grad = None; "
                           "g.sum().backward()",
             call="a.grad", expect=[2.0, 2.0], returns="Tensor",
             cause="Build the gradient with needle ops on the tensors in out_grad (not in numpy), so that "
                   "backward(create_graph=True) can differentiate it."),
    ])

# Task 6.3's rungs, by hand: slot i is the slice at index i along axis, without that axis; its adjoint
# goes back to that slice of a.grad (each element of a lives in exactly one slice, with Jacobian 1).
MATRIX = "a = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])"
MATRIX_T = 'a = ndl.Tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype="float64")'
TASK_6_3 = Task(
    "6.3", names=["Split", "split"],
    contract="Split(axis).compute(a) returns a Python tuple of a.shape[axis] numpy arrays, slot i the slice of a at "
             "index i along axis without that axis, dtype kept, a negative axis counting from the end; "
             "Split.gradient returns one Tensor of a's shape with each slot's adjoint back at its index along "
             "axis, built with needle ops on out_grad in its dtype; split(a, axis) returns the node of your op "
             "applied to a",
    rungs=[
        Rung("compute returns a Python tuple", given=f"{MATRIX}; out = Split(0).compute(a)",
             call="type(out) is tuple", expect=True,
             cause="A TensorTuple's value is a Python tuple of numpy arrays: not a list, a generator or one array."),
        Rung("each slice a numpy array", given=f"{MATRIX}; out = Split(0).compute(a)",
             call="all(type(o) is np.ndarray for o in out)", expect=True,
             cause="compute works on numpy arrays and returns numpy arrays; the op makes the graph node around them."),
        Rung("compute along axis 0: the rows", given=f"{MATRIX}; out = Split(0).compute(a)", call="np.stack(out)",
             expect=[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
        Rung("compute along axis 1: the columns", given=f"{MATRIX}; out = Split(1).compute(a)", call="np.stack(out)",
             expect=[[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]),
        # a[:, :, 0] and a[:, :, 1] of arange(12).reshape(2, 3, 2): the even and the odd numbers, shape (2, 3)
        Rung("compute along the last axis of a 3-D array", given="a = np.arange(12.0).reshape(2, 3, 2); "
             "out = Split(2).compute(a)", call="np.stack(out)",
             expect=[[[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]], [[1.0, 3.0, 5.0], [7.0, 9.0, 11.0]]]),
        # axis -1 of a (3, 2) matrix is axis 1: the columns
        Rung("compute along a negative axis", given=f"{MATRIX}; out = Split(-1).compute(a)", call="np.stack(out)",
             expect=[[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]),
        # slices of a (2, 1, 3) array along axis 0 have shape (1, 3): only the split axis goes
        Rung("another axis of size 1 kept", given="a = np.arange(6.0).reshape(2, 1, 3); out = Split(0).compute(a)",
             call="np.stack(out)", expect=[[[0.0, 1.0, 2.0]], [[3.0, 4.0, 5.0]]]),
        Rung("float32 stays float32", given=f"{MATRIX}.astype(np.float32); out = Split(1).compute(a)",
             call="all(o.dtype == np.float32 for o in out)", expect=True),
        Rung("split returns your op's node on a", given=f"{MATRIX_T}; t = split(a, 0)",
             call="isinstance(t, ndl.TensorTuple) and isinstance(t.op, Split) and len(t.inputs) == 1 and t.inputs[0] is a", expect=True,
             cause="split returns the one TensorTuple node made by applying your Split op to a."),
        Rung("the node's slots by indexing", given=f"{MATRIX_T}; t = split(a, 1)",
             call="np.stack([t[0].numpy(), t[1].numpy()])",
             expect=[[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]),
        # L = sum(t0): row 0 of a.grad is ones, the rows nobody used get zeros
        Rung("gradient: one row used", given=f"{MATRIX_T}; t = split(a, 0); t[0].sum().backward()", call="a.grad",
             expect=[[1.0, 1.0], [0.0, 0.0], [0.0, 0.0]], returns="Tensor"),
        # L = sum(1 t0 + 2 t1 + 3 t2): row i of a.grad is i + 1
        Rung("gradient: every row, each its own adjoint",
             given=f"{MATRIX_T}; t = split(a, 0); (t[0].sum() + (t[1] * 2.0).sum() + (t[2] * 3.0).sum()).backward()",
             call="a.grad", expect=[[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]], returns="Tensor"),
        # L = sum(1 t0 + 2 t1) along axis 1: column j of a.grad is j + 1
        Rung("gradient along axis 1: the columns",
             given=f"{MATRIX_T}; t = split(a, 1); (t[0].sum() + (t[1] * 2.0).sum()).backward()", call="a.grad",
             expect=[[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]], returns="Tensor"),
        Rung("gradient along a negative axis",
             given=f"{MATRIX_T}; t = split(a, -1); (t[0].sum() + (t[1] * 2.0).sum()).backward()", call="a.grad",
             expect=[[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]], returns="Tensor"),
        Rung("gradient: float32 stays float32",
             given=f"{MATRIX_T.replace('float64', 'float32')}; t = split(a, 1); (t[0] * t[1]).sum().backward()",
             call="a.grad.dtype == np.float32", expect=True,
             cause="The adjoint of a keeps out_grad's dtype: give every constant you build out_grad's dtype."),
        # L = sum(t0 * t1) along axis 0: g = [a1; a0; 0]; sum(g) = sum(a0) + sum(a1), so d(sum g)/da = [1; 1; 0]
        Rung("the gradient is differentiable",
             given=f"{MATRIX_T}; t = split(a, 0); (t[0] * t[1]).sum().backward(create_graph=True); g = a.grad; "
                   "a.grad = None; g.sum().backward()",
             call="a.grad", expect=[[1.0, 1.0], [1.0, 1.0], [0.0, 0.0]], returns="Tensor",
             cause="Build the gradient with needle ops on the tensors in out_grad (not in numpy), so that "
                   "backward(create_graph=True) can differentiate it."),
    ])
declare(globals(), TASK_6_1, TASK_6_2, TASK_6_3)


# --- the hidden rungs: every behaviour again, for points, on inputs drawn for each submission -------------
@TASK_6_1.rung("compute on drawn shapes, constants and dtypes", points=3)
def test_6_1_compute_on_drawn_inputs(observe, submission_seed):
    J.compute_returns_tuple_of_arrays(observe)
    J.compute_values(observe, submission_seed)
    J.compute_keeps_dtype(observe)


@TASK_6_1.rung("fused_add_scalars on drawn inputs", points=3)
def test_6_1_fused_add_scalars_on_drawn_inputs(observe, submission_seed):
    J.fused_add_scalars_makes_one_tensortuple_node(observe)
    J.fused_add_scalars_values_by_indexing(observe, submission_seed)


@TASK_6_2.rung("gradient of drawn slot adjoints, many shapes and constants", points=4)
def test_6_2_gradient_of_drawn_slot_adjoints(observe, submission_seed):
    J.gradient_returns_one_tensor(observe, submission_seed)
    J.gradient_of_given_slot_adjoints(observe, submission_seed)


@TASK_6_2.rung("backward through drawn graphs: one slot, reused slots, chains, float32, second order", points=6)
def test_6_2_backward_through_drawn_graphs(observe, submission_seed):
    J.gradient_through_one_slot_only(observe, submission_seed)
    J.gradient_of_product_by_hand(observe)
    J.gradient_slots_used_several_times(observe, submission_seed)
    J.gradient_composed_with_other_ops(observe, submission_seed)
    J.gradient_is_differentiable(observe)


@TASK_6_3.rung("compute and split on drawn shapes and axes", points=5)
def test_6_3_compute_and_split_on_drawn_inputs(observe, submission_seed):
    J.split_compute_returns_tuple_of_arrays(observe)
    J.split_compute_slices(observe, submission_seed)
    J.split_compute_keeps_dtype(observe)
    J.split_function(observe, submission_seed)


@TASK_6_3.rung("gradient on drawn shapes, axes and graphs", points=9)
def test_6_3_gradient_on_drawn_inputs(observe, submission_seed):
    J.split_gradient_of_given_slot_adjoints(observe, submission_seed)
    J.split_gradient_by_hand(observe)
    J.split_gradient_unused_slots(observe, submission_seed)
    J.split_gradient_central_differences(observe, submission_seed)
    J.split_gradient_is_differentiable(observe)
    J.split_negative_axis(observe, submission_seed)


# Right answers other than the instructor's: each must get full marks and pass the visible tests.
ACCEPTED = {
    "compute_with_np_add_and_op_call": {"task6_1_fused_add_scalars": '''
class FusedAddScalars(TensorTupleOp):
    """Task 6.1"""

    def __init__(self, c0, c1):
        self.c0, self.c1 = float(c0), float(c1)

    def compute(self, a):
        return tuple(np.add(a, c) for c in (self.c0, self.c1))


def fused_add_scalars(a, c0, c1):
    op = FusedAddScalars(c0, c1)
    return op(a)
'''},
    "gradient_with_ops_add": {"task6_2_gradient": '''
def gradient(self, out_grad, node):
    return ops.add(out_grad[0], out_grad[1])


FusedAddScalars.gradient = gradient
'''},
    "gradient_as_one_tuple_by_sum": {"task6_2_gradient": '''
def gradient(self, out_grad, node):
    return (sum(out_grad),)  # one adjoint per input, as a 1-tuple; sum() starts from 0


FusedAddScalars.gradient = gradient
'''},
    "split_take_and_broadcast_masks": {"task6_3_split": '''
class Split(TensorTupleOp):
    """Task 6.3"""

    def __init__(self, axis):
        self.axis = axis

    def compute(self, a):
        axis = self.axis % a.ndim
        return tuple(np.take(a, i, axis=axis) for i in range(a.shape[axis]))

    def gradient(self, out_grad, node):
        shape = node.inputs[0].shape
        axis = self.axis % len(shape)
        n = shape[axis]
        one_axis = [1] * len(shape)
        one_axis[axis] = n
        parts = []
        for i in range(n):
            g = out_grad[i]
            e = np.eye(n, dtype=g.dtype)[i].reshape(one_axis)  # 1 at index i along the axis
            slot = ops.broadcast_to(ops.reshape(g, g.shape[:axis] + (1,) + g.shape[axis:]), shape)
            parts.append(slot * ops.broadcast_to(ndl.Tensor(e, dtype=g.dtype, requires_grad=False), shape))
        return sum(parts[1:], parts[0])


def split(a, axis):
    return Split(axis)(a)
'''},
    "split_np_split_squeezed": {"task6_3_split": '''
class Split(TensorTupleOp):
    """Task 6.3"""

    def __init__(self, axis):
        self.axis = axis

    def compute(self, a):
        pieces = np.split(a, a.shape[self.axis], axis=self.axis)
        return tuple(np.squeeze(p, axis=self.axis) for p in pieces)

    def gradient(self, out_grad, node):
        a = node.inputs[0]
        axis = self.axis if self.axis >= 0 else self.axis + len(a.shape)
        kept = list(a.shape)
        kept[axis] = 1
        grad = None
        for i in range(a.shape[axis]):
            mask = np.zeros(a.shape, dtype=out_grad[i].dtype)
            index = [slice(None)] * len(a.shape)
            index[axis] = i
            mask[tuple(index)] = 1.0
            term = out_grad[i].reshape(tuple(kept)).broadcast_to(a.shape) * ndl.Tensor(mask, dtype=mask.dtype, requires_grad=False)
            grad = term if grad is None else grad + term
        return grad


def split(a, axis):
    return Split(axis)(a)
'''},
}
