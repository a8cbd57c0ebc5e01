"""graph_depth as the number of levels of a breadth-first walk that visits each node once: it
measures the shortest path to the farthest node, so a node first reached along a short path
is never seen again along a longer one."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_2_graph_depth": '''
def graph_depth(t) -> int:
    seen = {id(t)}
    level, frontier = 0, [t]
    while True:
        nxt = []
        for node in frontier:
            for x in node.inputs:
                if id(x) not in seen:
                    seen.add(id(x))
                    nxt.append(x)
        if not nxt:
            return level
        level += 1
        frontier = nxt
''',
}
MUST_FAIL = ['test_1_2_rung4_an_input_of_two_nodes']
HINT = 'Task 1.2, rung 4 (an input of two nodes)'
VISIBLE = True
