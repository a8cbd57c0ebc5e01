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
MUST_FAIL = ["test_depth_takes_longest_path", "test_depth_shared_nodes"]
HINT = "first reached along a short path"
VISIBLE = True
