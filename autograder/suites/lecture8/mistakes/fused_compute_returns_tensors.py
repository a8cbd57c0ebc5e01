"""FusedAddScalars.compute returns needle Tensors instead of numpy arrays: compute works on the
inputs' arrays and returns arrays; the op makes the graph node around them."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_1_fused_add_scalars": '''
class FusedAddScalars(TensorTupleOp):
    def __init__(self, c0, c1):
        self.c0 = c0
        self.c1 = c1

    def compute(self, a):
        return ndl.Tensor(a + self.c0, requires_grad=False), ndl.Tensor(a + self.c1, requires_grad=False)


def fused_add_scalars(a, c0, c1):
    return FusedAddScalars(c0, c1)(a)
''',
}
MUST_FAIL = ['test_6_1_rung2_each_output_a_numpy_array']
HINT = 'Task 6.1, rung 2 (each output a numpy array)'
VISIBLE = True
