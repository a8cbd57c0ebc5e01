"""find_topo_sort that builds the right post-order and then returns it reversed (users first, as
backward will visit them): every node before its inputs."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_1_find_topo_sort": '''
def find_topo_sort(node_list):
    order, seen = [], set()
    for root in node_list:
        stack = [(root, False)]
        while stack:
            node, done = stack.pop()
            if done:
                order.append(node)
            elif id(node) not in seen:
                seen.add(id(node))
                stack.append((node, True))
                stack.extend((x, False) for x in node.inputs if id(x) not in seen)
    return order[::-1]
''',
}
MUST_FAIL = ["task:9.1", "task:9.2"]
HINT = "the reverse of the order asked for"
VISIBLE = True
