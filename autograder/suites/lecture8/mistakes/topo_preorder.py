"""find_topo_sort reuses notebook 01's count walk: each node is listed when first reached, so
before its inputs (pre-order), and backward over its reverse visits leaves first."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_1_find_topo_sort": '''
def find_topo_sort(node_list):
    order, seen = [], set()
    stack = list(node_list)
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        stack.extend(node.inputs)
    return order
''',
}
MUST_FAIL = ["task:9.1", "task:9.2"]
HINT = "after all of its inputs"
VISIBLE = True
