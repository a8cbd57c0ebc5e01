"""count_graph_nodes empties each node's inputs as it counts, and caches its answers by output node
(a WeakKeyDictionary), so a second count of the same node repeats the first: the two-call check
passed (red team, round 10). The second count is now of a new node over the output."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_1_count_graph_nodes": '''
import weakref

_ANSWERED = weakref.WeakKeyDictionary()  # output -> the count given the first time


def count_graph_nodes(t) -> int:
    """Counts, then empties every node's inputs (edits the graph); a second call on the same
    output answers what the first did."""
    if t in _ANSWERED:
        return _ANSWERED[t]
    seen = {}
    stack = [t]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen[id(node)] = node
        stack.extend(node.inputs)
    for node in seen.values():
        node.inputs = ()
    _ANSWERED[t] = len(seen)
    return len(seen)
''',
}
MUST_FAIL = ['test_count_leaves_graph_unchanged']
HINT = 'Task 1.1, rung 11 (counted right twice, once with a node on top: the graph left unchanged)'
