"""FusedAddScalars.compute returns a generator expression instead of a tuple: it has no length and is used up once read."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_1_fused_add_scalars": '''
class FusedAddScalars(TensorTupleOp):
    def __init__(self, c0, c1):
        self.c0 = c0
        self.c1 = c1

    def compute(self, a):
        return (a + c for c in (self.c0, self.c1))


def fused_add_scalars(a, c0, c1):
    return FusedAddScalars(c0, c1)(a)
''',
}
MUST_FAIL = ['test_compute_values', 'test_compute_returns_tuple_of_arrays', 'test_compute_keeps_dtype', 'test_fused_add_scalars_makes_one_tensortuple_node', 'test_fused_add_scalars_values_by_indexing']
HINT = 'compute returned a generator or iterator'
VISIBLE = True
