"""count_graph_nodes that marks visited nodes with an attribute on the node (modifies the graph)."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {"task1_1_count_graph_nodes": '''
def count_graph_nodes(t) -> int:
    n = 0
    stack = [t]
    while stack:
        node = stack.pop()
        if getattr(node, "_visited", False):
            continue
        node._visited = True
        n += 1
        stack.extend(node.inputs)
    return n
'''}
MUST_FAIL = ['task:1.1']
HINT = 'Task 1.1, rung 1 (a leaf)'
VISIBLE = True
