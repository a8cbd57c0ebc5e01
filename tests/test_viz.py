"""needle.viz.draw_graph: the drawing matches the graph (boxes, arrows, depths, kinds, text),
long chains collapse to a drawing of bounded size, and drawing computes nothing."""
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import needle as ndl  # noqa: E402
from needle import nn, ops  # noqa: E402
from needle.viz import draw_graph  # noqa: E402

KINDS = ("leaf", "constant", "Parameter", "op", "collapsed")


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


# --- reading the graph and the drawing independently --------------------------------------
def walk(roots):
    """Distinct values (by identity) and distinct (input, user) pairs reachable from roots."""
    seen, pairs, stack = {}, set(), list(roots)
    while stack:
        v = stack.pop()
        if id(v) not in seen:
            seen[id(v)] = v
            for x in v.inputs:
                pairs.add((id(x), id(v)))
                stack.append(x)
    return seen, pairs


def depth(v):
    return 0 if not v.inputs else 1 + max(depth(x) for x in v.inputs)


def with_gid(ax, gid):
    return [a for a in ax.patches + ax.texts if a.get_gid() == gid]


def box_texts(ax):
    return [t.get_text() for t in with_gid(ax, "node text")]


def box_named(ax, name):
    """The text artist of the box whose first line is 'name: ...'."""
    [text] = [t for t in with_gid(ax, "node text") if t.get_text().split(":")[0] == name]
    return text


def tick_under(ax, x):
    return {tick: label.get_text() for tick, label in zip(ax.get_xticks(), ax.get_xticklabels())}[x]


def assert_drawing_matches_graph(drawing, roots):
    nodes, pairs = walk(roots)
    ax = drawing.ax
    boxes = [a for kind in KINDS for a in with_gid(ax, kind)]
    assert drawing.nodes == len(nodes) == len(boxes) == len(with_gid(ax, "node text"))
    assert drawing.edges == len(pairs) == len(with_gid(ax, "edge"))
    assert drawing.hidden == drawing.markers == 0


# --- graphs from the lecture ---------------------------------------------------------------
def two_path_scale_add():
    """out = (x*s0 + b0) + (x*s1 + b1): the lecture's model with two paths from x."""
    x = ndl.Tensor([2.0], requires_grad=False)
    s0, b0, s1, b1 = (nn.Parameter([v]) for v in (1.0, 0.0, 0.5, 0.1))
    out = (x * s0 + b0) + (x * s1 + b1)
    return out, {x: "x", s0: "s0", b0: "b0", s1: "s1", b1: "b1", out: "out"}


def naive_updates(steps, size=3):
    """w = w + (-lr) * grad in a loop: each step adds an EWiseAdd and a constant leaf."""
    w0 = ndl.Tensor(np.ones(size))
    grad = ndl.Tensor(np.full(size, 0.01), requires_grad=False)
    w = w0
    for _ in range(steps):
        w = w + (-0.1) * grad
    return w0, w


def test_boxes_and_arrows_equal_the_graphs_values_and_input_pairs():
    out, _ = two_path_scale_add()
    _, w3 = naive_updates(3)
    a = ndl.Tensor([1.0, 2.0])
    tupled = (ops.fused_add_scalars(a, 1.0, 2.0)[0] * ops.make_tuple(a, a)[1]).sum()
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    loss = nn.SoftmaxLoss()(model(ndl.Tensor(np.ones((5, 4)), requires_grad=False)), np.arange(5) % 2)
    for roots in ([out], [w3], [tupled], [loss]):
        assert_drawing_matches_graph(draw_graph(roots[0], collapse_longer_than=None), roots)


def test_several_roots_draw_the_union_of_their_graphs():
    out, _ = two_path_scale_add()
    w0, w3 = naive_updates(3)
    drawing = draw_graph([out, w3, w0])  # w0 is already in w3's graph
    assert_drawing_matches_graph(drawing, [out, w3])
    assert drawing.nodes == 10 + 7


def test_an_input_used_twice_by_one_op_is_one_arrow_labelled_x2():
    b = ndl.Tensor([1.0, 2.0])
    drawing = draw_graph(b + b)
    assert (drawing.nodes, drawing.edges) == (2, 1)  # the pair (b, b + b) counts once
    assert [t.get_text() for t in with_gid(drawing.ax, "edge label")] == ["×2"]


def test_every_node_sits_at_its_own_depth():
    x = ndl.Tensor([0.5])
    c = ndl.Tensor([3.0], requires_grad=False)
    late = ndl.exp(ndl.exp(x)) + c  # a constant first used at depth 3 is still drawn at 0
    out, _ = two_path_scale_add()
    nodes, _ = walk([late, out])
    names = {v: f"n{k}" for k, v in enumerate(nodes.values())}
    drawing = draw_graph([late, out], labels=names)
    for v, name in names.items():
        assert tick_under(drawing.ax, box_named(drawing.ax, name).get_position()[0]) == str(depth(v))
    assert "depth" in drawing.ax.get_xlabel()


def test_boxes_of_one_depth_are_stacked_without_overlap():
    leaves = [ndl.Tensor([float(k)]) for k in range(8)]
    pairs = [leaves[k] * leaves[k + 1] for k in range(0, 8, 2)]
    total = (pairs[0] + pairs[1]) + (pairs[2] + pairs[3])
    ax = draw_graph(total).ax
    boxes = [a for kind in KINDS for a in with_gid(ax, kind)]
    columns = {}
    for box in boxes:
        columns.setdefault(box.get_x(), []).append((box.get_y(), box.get_y() + box.get_height()))
    assert sorted(len(c) for c in columns.values()) == [1, 2, 4, 8]
    for spans in columns.values():
        spans.sort()
        assert all(top <= next_bottom for (_, top), (next_bottom, _) in zip(spans, spans[1:]))


@pytest.mark.parametrize("figsize", [None, (4, 2.5)])
def test_text_stays_inside_its_box(figsize):
    out, names = two_path_scale_add()
    out.backward()
    ax = plt.subplots(figsize=figsize)[1] if figsize else None
    drawing = draw_graph(out, ax, labels=names)
    assert ax is None or drawing.ax is ax
    fig = drawing.ax.figure
    fig.canvas.draw()
    boxes = [b for kind in KINDS for b in with_gid(drawing.ax, kind)]
    for text in with_gid(drawing.ax, "node text"):
        x, y = text.get_position()
        box = min(boxes, key=lambda b: abs(b.get_x() + b.get_width() / 2 - x) + abs(b.get_y() + b.get_height() / 2 - y))
        inner, outer = text.get_window_extent(fig.canvas.get_renderer()), box.get_window_extent()
        assert outer.x0 <= inner.x0 and inner.x1 <= outer.x1 and outer.y0 <= inner.y0 and inner.y1 <= outer.y1


def test_leaves_constants_parameters_and_ops_are_styled_apart_with_a_legend():
    p, x = nn.Parameter([2.0]), ndl.Tensor([1.0])
    c = ndl.Tensor([3.0], requires_grad=False)
    ax = draw_graph(p * x + c).ax
    counts = {k: len(with_gid(ax, k)) for k in KINDS}
    assert counts == {"leaf": 1, "constant": 1, "Parameter": 1, "op": 2, "collapsed": 0}
    colours = {k: with_gid(ax, k)[0].get_facecolor() for k in ("leaf", "constant", "Parameter", "op")}
    assert len(set(colours.values())) == 4
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "leaf (requires grad)", "Parameter", "constant (no grad)", "op result"]
    assert sorted(t.split("\n")[0] for t in box_texts(ax)) == ["EWiseAdd", "EWiseMul", "Parameter", "constant", "leaf"]


def test_boxes_show_op_shape_value_and_after_backward_the_gradient():
    x = ndl.Tensor([3.0])
    y = x * x + 1.0
    before = draw_graph(y, labels={x: "x", y: "y"}).ax
    assert box_named(before, "x").get_text() == "x: leaf\nshape (1,)\nvalue [3]"
    assert box_named(before, "y").get_text() == "y: AddScalar(1)\nshape (1,)\nvalue [10]"
    y.backward()
    after = draw_graph(y, labels={x: "x"}).ax
    assert box_named(after, "x").get_text() == "x: leaf\nshape (1,)\nvalue [3]\ngrad [6]"  # dy/dx = 2x
    big = ndl.Tensor(np.arange(10.0).reshape(2, 5))
    big_box = box_named(draw_graph(big, labels={big: "big"}).ax, "big")
    assert big_box.get_text() == "big: leaf\nshape (2, 5)\nvalue mean 4.5"  # more than 4 numbers: their mean


def test_show_data_false_draws_ops_and_shapes_only():
    x = ndl.Tensor([3.0])
    (x * x).sum().backward()
    texts = box_texts(draw_graph(x * x, show_data=False).ax)
    assert sorted(texts) == ["EWiseMul\nshape (1,)", "leaf\nshape (1,)"]


def test_a_lazy_graph_is_drawn_without_computing_it():
    with ndl.lazy_mode():
        x = ndl.Tensor(np.ones((2, 3)))
        y = ndl.exp(x * x).sum(axes=(1,))
    drawing = draw_graph(y)
    assert_drawing_matches_graph(drawing, [y])
    assert sorted(box_texts(drawing.ax)) == [
        "EWiseMul\nnot computed", "Exp\nnot computed", "Summation((1,))\nnot computed",
        "leaf\nshape (2, 3)\nvalue mean 1"]
    assert y.cached_data is None and y.inputs[0].cached_data is None


def test_tensor_tuple_nodes():
    a = ndl.Tensor([1.0, 2.0])
    pair = ops.fused_add_scalars(a, 1.0, 2.0)
    y = pair[0] * pair[1]
    drawing = draw_graph([y, pair], labels={pair: "pair"})
    assert_drawing_matches_graph(drawing, [y])
    texts = box_texts(drawing.ax)
    assert "pair: FusedAddScalars(1, 2)\nshapes (2,), (2,)\nvalue ([2, 3], [3, 4])" in texts
    assert {t.split("\n")[0] for t in texts} >= {"TupleGetItem(0)", "TupleGetItem(1)"}


# --- collapsing long chains ----------------------------------------------------------------
@pytest.mark.parametrize("steps", [1_000, 10_000])
def test_a_long_naive_update_chain_draws_as_a_bounded_number_of_boxes(steps):
    _, w = naive_updates(steps)
    drawing = draw_graph(w)
    nodes, _ = walk([w])
    assert drawing.nodes + drawing.hidden == len(nodes) == 2 * steps + 1
    # Drawn: w0 and the first two adds with their constants, the last two with theirs.
    # Arrows: 2 + 2 into those adds' first two, add 2 -> marker -> add n-1, and 2 + 2 more.
    assert (drawing.nodes, drawing.edges, drawing.markers) == (9, 9, 1)
    hidden_adds = steps - 4
    marker = [t for t in box_texts(drawing.ax) if t.startswith("…")]
    assert marker == [f"… {2 * hidden_adds:,} more …\n{hidden_adds:,} × EWiseAdd\n{hidden_adds:,} × constant"]
    assert sorted(label.get_text() for label in drawing.ax.get_xticklabels()) == sorted(
        ["0", "1", "2", f"3…{steps - 2}", str(steps - 1), str(steps)])


def test_a_leaf_shared_along_a_chain_stays_drawn_with_one_arrow_into_the_marker():
    x = ndl.Tensor([1.0])
    y = x
    for _ in range(1000):
        y = y * x
    drawing = draw_graph(y, labels={x: "x"})
    assert drawing.nodes + drawing.hidden == 1001 and drawing.markers == 1
    # x, mul 1 (x*x), mul 2, mul 999, mul 1000; x's arrows: x2 into mul 1, one into the marker
    # for the 996 hidden muls, one into each other drawn mul.
    assert (drawing.nodes, drawing.edges) == (5, 9)
    assert sorted(t.get_text() for t in with_gid(drawing.ax, "edge label")) == ["×2", "×996"]


def exp_chain(length):
    """exp(...exp(x)): ops 2 .. length-1 are chain links (op 1 takes only a leaf, the last
    is the root), so the chain to collapse has length - 2 ops."""
    y = x = ndl.Tensor([0.0])
    for _ in range(length):
        y = ndl.exp(y * 1e-3)
    return x, y


def test_collapse_longer_than_is_the_longest_chain_drawn_in_full():
    x, y = exp_chain(5)  # ops: MulScalar, Exp alternating, 10 in all, 8 of them links
    assert draw_graph(y, collapse_longer_than=8).markers == 0
    shorter = draw_graph(y, collapse_longer_than=7)
    assert (shorter.markers, shorter.hidden, shorter.nodes) == (1, 6, 5)
    assert draw_graph(y, collapse_longer_than=None).nodes == 11
    with pytest.raises(ValueError, match="at least 2"):
        draw_graph(y, collapse_longer_than=1)


def test_a_labelled_node_is_never_hidden():
    _, y = exp_chain(50)
    middle = y
    for _ in range(50):
        middle = middle.inputs[0]
    drawing = draw_graph(y, labels={middle: "middle"})
    assert drawing.markers == 2
    assert box_named(drawing.ax, "middle").get_text().startswith("middle: ")


def test_a_100_000_deep_graph_is_walked_without_recursion():
    y = ndl.Tensor([0.0])
    for _ in range(100_000):
        y = y + 1.0
    drawing = draw_graph(y)
    assert drawing.nodes + drawing.hidden == 100_001 and drawing.nodes == 5


# --- limits and errors ---------------------------------------------------------------------
def test_max_nodes_refuses_an_unreadable_drawing():
    leaves = [ndl.Tensor([1.0]) for _ in range(16)]
    while len(leaves) > 1:  # a balanced sum: nothing to collapse, 31 nodes
        leaves = [leaves[k] + leaves[k + 1] for k in range(0, len(leaves), 2)]
    with pytest.raises(ValueError, match="31 nodes to draw .*max_nodes=30"):
        draw_graph(leaves[0], max_nodes=30)
    assert draw_graph(leaves[0], max_nodes=31).nodes == 31


def test_bad_arguments_are_named():
    x = ndl.Tensor([1.0])
    with pytest.raises(TypeError, match="Tensor or TensorTuple"):
        draw_graph(np.ones(2))
    with pytest.raises(TypeError, match="non-empty list"):
        draw_graph([])
    with pytest.raises(ValueError, match="not in the graph"):
        draw_graph(x * x, labels={ndl.Tensor([2.0]): "stray"})


def test_importing_needle_viz_does_not_import_matplotlib():
    code = "import sys, needle.viz; print('matplotlib' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
