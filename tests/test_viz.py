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


def depth_ticks(ax):
    """The tick labels of the depth axis: x when depth runs right, y when it runs down."""
    return ax.get_xticklabels() if "depth" in ax.get_xlabel() else ax.get_yticklabels()


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
        "leaf (requires grad)", "Parameter", "constant (requires no grad)", "op result"]
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
    assert sorted(label.get_text() for label in depth_ticks(drawing.ax)) == sorted(
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


# --- the gradient debuggers ------------------------------------------------------------------
from needle.viz import MARKS, debug_adjoints, debug_gradients  # noqa: E402


def f64(values):
    return ndl.Tensor(values, dtype="float64")


def op_nodes(root):
    nodes, _ = walk([root])
    return [v for v in nodes.values() if v.op is not None]


def reverse_mode(output, out_grad):
    """Reverse-mode AD as notebook 09 asks for it (every node's .grad is its adjoint), written
    here independently of needle's backward so that debug_adjoints has a right answer to check."""
    order, seen = [], set()
    stack = [(output, False)]
    while stack:
        v, done = stack.pop()
        if done:
            order.append(v)
        elif id(v) not in seen:
            seen.add(id(v))
            stack.append((v, True))
            stack.extend((x, False) for x in v.inputs)
    partials = {id(output): [out_grad]}
    for v in reversed(order):
        parts = [p for p in partials.pop(id(v), []) if p is not None]
        if not parts:
            continue
        total = parts[0]
        for p in parts[1:]:
            total = total + p
        v.grad = total
        if v.op is not None:
            for x, p in zip(v.inputs, v.op.gradient_as_tuple(total, v)):
                partials.setdefault(id(x), []).append(p)


class MulForgetsOutGrad(ops.EWiseMul):
    """a * b whose gradient returns the local derivatives (b, a), not out_grad * (b, a)."""

    def gradient(self, out_grad, node):
        a, b = node.inputs
        return b, a


class ExpTwice(ops.Exp):
    """exp(a) whose gradient is off by a factor 2."""

    def gradient(self, out_grad, node):
        return out_grad * node * 2.0


class FusedDropsSlot1(ops.FusedAddScalars):
    """(a + c0, a + c1) whose gradient forgets the adjoint of slot 1."""

    def gradient(self, out_grad, node):
        return out_grad[0]


def every_op_graph():
    """One graph with most of needle's ops, tuple ops included, away from kinks (ReLU at 0)."""
    rng = np.random.default_rng(3)
    a, b = f64(rng.standard_normal((2, 3))), f64(rng.uniform(0.5, 2.0, (2, 3)))
    w = f64(rng.standard_normal((3, 4)))
    h = ops.relu(a @ w + 0.05) + ops.log(b).sum(axes=(1,)).reshape((2, 1)).broadcast_to((2, 4)) * 0.5
    z = ops.logsumexp(h, axes=(1,)) / ops.summation(b ** 2.0, axes=(1,))
    pair = ops.fused_add_scalars(z, 1.0, -2.0)
    tup = ops.make_tuple(pair[0] * pair[1], ops.exp(a).transpose())
    return (tup[0].sum() - tup[1].sum()) * 0.25


def test_debug_gradients_of_a_correct_graph_is_ok():
    out = every_op_graph()
    report = debug_gradients(out)
    assert report.ok and report.first_wrong is None
    assert len(report.nodes) == len(op_nodes(out)) >= 20  # every op node, each once
    assert {type(n.node.op).__name__ for n in report.nodes} >= {
        "MatMul", "ReLU", "Log", "Summation", "Reshape", "BroadcastTo", "LogSumExp", "EWiseDiv", "PowerScalar",
        "FusedAddScalars", "TupleGetItem", "MakeTensorTuple", "Transpose", "Exp"}
    assert all(n.ok and n.max_error < 1e-6 for n in report.nodes)
    assert report.nodes[0].node is out  # the order backward calls them: the output's op first
    assert str(report).startswith(f"✓ the gradients of all {len(report.nodes)} ops agree")


def test_a_gradient_that_forgets_out_grad_is_found_with_the_hand_derived_adjoint():
    a, b = f64([1.0, 2.0]), f64([3.0, 4.0])
    out = MulForgetsOutGrad()(a, b)
    report = debug_gradients(out, out_grad=[10.0, 100.0])
    f = report.first_wrong
    assert not report.ok and f.node is out and f.op == "MulForgetsOutGrad" and f.input == 0
    # L = sum(a * b * g) with g = out_grad: dL/da = b * g = (3 * 10, 4 * 100) = (30, 400), and
    # the gradient returned b = (3, 4) alone
    np.testing.assert_allclose(f.expected, [30.0, 400.0], rtol=1e-8)
    np.testing.assert_array_equal(f.got, [3.0, 4.0])
    np.testing.assert_array_equal(f.values[0], [1.0, 2.0])
    np.testing.assert_array_equal(f.values[1], [3.0, 4.0])
    assert "multiply by out_grad" in f.problem
    text = str(report)
    assert "MulForgetsOutGrad, input 0 of 2" in text and "[30, 400]" in text and "[3, 4]" in text


def test_a_wrong_op_inside_a_graph_is_the_first_wrong_and_the_others_are_right():
    x = f64([[0.5, -1.0, 2.0]])
    out = (ExpTwice()(x * 0.5) + x).sum()
    report = debug_gradients(out)
    assert [n.ok for n in report.nodes] == [True, True, False, True]  # Summation, EWiseAdd, ExpTwice, MulScalar
    f = report.first_wrong
    assert f.op == "ExpTwice" and f.input == 0 and "2 times the expected adjoint" in f.problem
    # d/du sum(exp(u) * g) = exp(u) * g, with u = x / 2 and g the random out_grad it was given
    np.testing.assert_allclose(f.expected, np.exp([[0.25, -0.5, 1.0]]) * f.out_grad, rtol=1e-7)
    np.testing.assert_allclose(f.got, 2 * f.expected, rtol=1e-7)


def test_a_tensor_tuple_gradient_that_drops_a_slot():
    a = f64([1.0, 2.0])
    pair = FusedDropsSlot1(1.0, 2.0)(a)
    out = pair[0] * pair[1]
    report = debug_gradients(out)
    f = report.first_wrong
    assert f.op == "FusedDropsSlot1(1, 2)" and f.input == 0
    # d/da of sum((a + 1) * g0 + (a + 2) * g1) = g0 + g1; the gradient returned g0 only
    g0, g1 = f.out_grad
    np.testing.assert_allclose(f.expected, g0 + g1, rtol=1e-7)
    np.testing.assert_allclose(f.got, g0)
    assert sum(not n.ok for n in report.nodes) == 1  # the two TupleGetItems and the product are right


class ExpNanGradient(ops.Exp):
    """exp(a) whose gradient is nan in its first two entries and right in the third."""

    def gradient(self, out_grad, node):
        return out_grad * node * ndl.Tensor([np.nan, np.nan, 1.0], dtype="float64", requires_grad=False)


def test_a_nan_gradient_is_the_largest_error_and_says_nan():
    # got [nan, nan, right]: the error is nan at index 0, not the 0 of the one right entry
    report = debug_gradients(ExpNanGradient()(f64([0.5, -1.0, 2.0])), out_grad=[1.0, 1.0, 1.0])
    f = report.first_wrong
    assert not report.ok and f.op == "ExpNanGradient" and np.isnan(f.got[:2]).all()
    text = str(report)
    assert "largest error nan, at index (0,)" in text, text
    assert "largest error 0" not in text


def test_the_worst_error_counts_nan_then_inf_above_any_finite_error():
    from needle.viz import _worst

    want = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert _worst(np.array([[1.0, 2.5], [3.0, np.nan]]), want)[0] == (1, 1)
    index, error = _worst(np.array([[1.0, 2.5], [3.0, np.nan]]), want)
    assert np.isnan(error)
    assert _worst(np.array([[1.0, np.inf], [3.0, 9.0]]), want) == ((0, 1), float("inf"))
    assert _worst(np.array([[1.0, np.inf], [np.nan, 9.0]]), want)[0] == (1, 0)  # nan before inf
    assert _worst(np.array([[1.0, 2.5], [3.0, 9.0]]), want) == ((1, 1), 5.0)  # all finite: the largest
    # the same infinity or nan in both is no error
    assert _worst(np.array([np.inf, np.nan, 1.5]), np.array([np.inf, np.nan, 1.0])) == ((2,), 0.5)
    assert _worst(np.array([np.nan, np.nan]), np.array([np.nan, np.nan])) == ((0,), 0.0)


def malformed(returns):
    class Malformed(ops.EWiseMul):
        def gradient(self, out_grad, node):
            return returns(out_grad, node)
    return Malformed()


@pytest.mark.parametrize("returns, problem", [
    (lambda g, node: None, "gradient returned None"),
    (lambda g, node: ((g * node.inputs[1]).numpy(), g * node.inputs[0]), "is a numpy array: return a needle Tensor"),
    (lambda g, node: (g.sum(), g * node.inputs[0]), "shape (), expected (3,)"),
    (lambda g, node: g * node.inputs[1], "one value for an op with 2 inputs"),
    (lambda g, node: (g, g, g), "3 adjoints for an op with 2 inputs"),
    (lambda g, node: (None, g * node.inputs[0]), "its adjoint of input 0 is None"),
    (lambda g, node: 1 / 0, "gradient raised ZeroDivisionError"),
])
def test_malformed_gradients_are_reported_not_raised(returns, problem):
    a, b = f64([1.0, 2.0, 3.0]), f64([4.0, 5.0, 6.0])
    report = debug_gradients(malformed(returns)(a, b).sum())
    assert not report.ok and problem in report.first_wrong.problem
    assert report.first_wrong.input == 0
    np.testing.assert_allclose(report.first_wrong.expected, b.numpy() * report.first_wrong.out_grad)
    assert problem in str(report)


def test_float32_graphs_are_checked_in_float64_and_left_untouched():
    x = ndl.Tensor([0.3, -0.7])
    out = ops.exp(x * x).sum()
    assert debug_gradients(out).ok
    assert x.grad is None and out.grad is None and x.dtype == np.float32


def test_out_grad_must_have_the_outputs_shape():
    out = f64([1.0, 2.0]) * 3.0
    with pytest.raises(ValueError, match=r"out_grad must have the output's shape \(2,\), got \(3,\)"):
        debug_gradients(out, out_grad=np.ones(3))
    with pytest.raises(TypeError, match="needle Tensor or TensorTuple"):
        debug_adjoints(np.ones(2))


def test_debug_adjoints_of_a_right_backward_is_ok():
    out = every_op_graph()
    g = ndl.Tensor(np.ones(()), dtype="float64", requires_grad=False)
    reverse_mode(out, g)
    report = debug_adjoints(out, g)
    nodes, _ = walk([out])
    assert report.ok and len(report.nodes) == sum(v.requires_grad for v in nodes.values())
    assert all(n.max_error < 1e-6 for n in report.nodes)
    assert str(report).startswith("✓ the adjoints in .grad of all")


def test_debug_adjoints_finds_an_overwritten_adjoint_of_a_shared_node():
    s = f64([3.0])
    y = s * s + s  # s is used three times
    reverse_mode(y, f64([2.0]))
    s.grad = f64([12.0])  # what overwriting gives: only the last partial, 2 * 2s = 12
    report = debug_adjoints(y, f64([2.0]))
    f = report.first_wrong
    assert f.node is s and f.op == "leaf" and f.input is None
    # dy/ds = 2s + 1 = 7, times the output's adjoint 2: 14
    np.testing.assert_allclose(f.expected, [14.0], rtol=1e-8)
    np.testing.assert_array_equal(f.got, [12.0])
    # without the order of the visits, two mistakes give this: both named, neither asserted
    assert f.problem.startswith("wrong values: .grad holds the partial adjoints of uses 1 and 2 only, of 3: either they "
                                "are not all summed, or this leaf got its .grad before its other users had sent theirs")
    assert "this leaf is used 3 times" in f.details[0]
    assert [n.ok for n in report.nodes] == [True, True, False]


@pytest.mark.parametrize("corrupt, problem", [
    ("none_but_output", "only the output's .grad is set"),
    ("leaves_only", "not only of the leaves"),
    ("nothing", "no .grad on the output"),
    ("numpy", "is a numpy array: store a needle Tensor"),
    ("ones_at_output", "start from out_grad"),
    ("shape", "shape (2,), expected (1,)"),
])
def test_debug_adjoints_names_what_is_wrong(corrupt, problem):
    a, b = f64([2.0]), f64([5.0])
    h = a * b
    out = h + a
    g = f64([3.0])
    reverse_mode(out, g)
    if corrupt == "none_but_output":
        a.grad = b.grad = h.grad = None
    elif corrupt == "leaves_only":
        out.grad = h.grad = None
    elif corrupt == "nothing":
        a.grad = b.grad = h.grad = out.grad = None
    elif corrupt == "numpy":
        h.grad = h.grad.numpy()
    elif corrupt == "ones_at_output":
        out.grad = f64([1.0])
    elif corrupt == "shape":
        h.grad = f64([3.0, 3.0])
    report = debug_adjoints(out, g)
    assert not report.ok and problem in report.first_wrong.problem, report.first_wrong.problem


def test_debug_adjoints_skips_constants_and_handles_tuples():
    a = f64([1.0, 2.0])
    c = ndl.Tensor([5.0, 6.0], dtype="float64", requires_grad=False)
    t = ops.fused_add_scalars(a * c, 1.0, 2.0)
    out = t[0] * t[1] + t[0]
    g = f64([1.0, -1.0])
    reverse_mode(out, g)
    report = debug_adjoints(out, g)
    assert report.ok and c not in [n.node for n in report.nodes]
    t.grad = t.grad[0].detach()  # a Tensor where the tuple's adjoint belongs
    wrong = debug_adjoints(out, g).first_wrong
    assert wrong.node is t and "shape" in wrong.problem


# --- drawing what the debuggers found -----------------------------------------------------------
def test_a_report_draws_the_graph_with_each_checked_node_marked(recwarn):
    a, b = f64([1.0, 2.0]), f64([3.0, 4.0])
    out = ops.exp(MulForgetsOutGrad()(a, b) * 0.1).sum()
    report = debug_gradients(out)
    drawing = report.draw(labels={a: "a", b: "b"})
    assert_drawing_matches_graph(drawing, [out])
    edges = [p.get_edgecolor() for kind in KINDS for p in with_gid(drawing.ax, kind)]
    red, green = (matplotlib.colors.to_rgba(MARKS[m][1]) for m in ("wrong", "ok"))
    assert edges.count(red) == 1 and edges.count(green) == 3  # 4 ops checked, the leaves not
    [wrong] = [t.get_text() for t in with_gid(drawing.ax, "node text") if t.get_text().startswith("✗")]
    # a * b = (3, 8); expected and got of input 0 (2 numbers: printed in full)
    f = report.first_wrong
    assert wrong.splitlines()[:3] == ["✗ MulForgetsOutGrad", "shape (2,)", "value [3, 8]"]
    assert wrong.splitlines()[-2:] == [
        "expected [" + ", ".join(f"{x:.5g}" for x in f.expected) + "]", "got [3, 4]"]
    assert drawing.ax.get_title(loc="left") == report.headline() == "✗ 1 of 4 ops with a wrong gradient; first: MulForgetsOutGrad, input 0"
    legend = [t.get_text() for t in drawing.ax.get_legend().get_texts()]
    assert "✓ checked: right" in legend and "✗ first wrong (see its numbers)" in legend
    drawing.ax.figure.canvas.draw()
    assert not [w for w in recwarn if "Glyph" in str(w.message)]


def test_an_adjoint_report_draws_each_nodes_grad_and_the_expected_value():
    s = f64([3.0])
    y = s * s + s
    reverse_mode(y, f64([1.0]))
    s.grad = s.grad.numpy()  # drawn as what it is, not a crash
    drawing = debug_adjoints(y, f64([1.0])).draw(labels={s: "s"})
    assert drawing.ax.get_title(loc="left") == "✗ 1 of 3 checked nodes with a wrong adjoint in .grad; first: s (leaf)"
    texts = box_texts(drawing.ax)
    [wrong] = [t for t in texts if t.startswith("✗")]
    assert "grad: a ndarray, not a needle value" in wrong and wrong.endswith("expected [7]\ngot [7]")


def test_a_wrong_node_is_never_hidden_in_a_collapsed_chain():
    x = f64([0.5])
    y = x
    for k in range(40):
        y = ExpTwice()(y * 0.01) if k == 20 else y * 1.0
    report = debug_gradients(y)
    drawing = report.draw()
    assert drawing.markers == 2  # the chain is cut at the wrong node, which stays drawn
    assert any(t.startswith("✗ ExpTwice") for t in box_texts(drawing.ax))


def test_marks_are_checked():
    x = ndl.Tensor([1.0])
    with pytest.raises(ValueError, match="mark one of"):
        draw_graph(x * 2, marks={x: ("fine", [])})
    with pytest.raises(ValueError, match="not in the graph"):
        draw_graph(x * 2, marks={ndl.Tensor([2.0]): ("ok", [])})


# --- readable at the width Jupyter shows -------------------------------------------------------
from needle.viz import FONT_PT, MAX_WIDTH_PX, MIN_FONT_PT  # noqa: E402


def leaky_epoch(n_batches=2):
    """The graph a training loop keeps when it sums each batch's loss tensor: ten depths."""
    w, b = nn.Parameter(np.ones((2, 1))), nn.Parameter(np.zeros((1, 1)))
    total = 0.0
    for k in range(n_batches):
        x = ndl.Tensor(np.full((4, 2), k + 1.0), requires_grad=False)
        y = ndl.Tensor(np.ones((4, 1)), requires_grad=False)
        total += (((x @ w + b.broadcast_to((4, 1))) - y) ** 2).sum() / 4
    return total / n_batches


def softmax_chain():
    """log(sum(exp(x - c))) + c with c a leaf: eight depths, boxes of four long lines."""
    x, c = ndl.Tensor([1.0, 2.0, 3.0]), ndl.Tensor([3.0])
    out = ops.log(ops.summation(ops.exp(x - ops.broadcast_to(c, (3,))))) + ops.reshape(c, ())
    out.backward()
    return out, {x: "x", c: "max (a leaf now)", out: "lse"}


@pytest.mark.parametrize("graph", ["leaky_epoch", "softmax_chain", "naive_updates"])
def test_a_deep_graph_is_drawn_downwards_no_wider_than_jupyter_shows_it(graph):
    # as notebook 02 draws it, without values: with them its widest rows need more even at MIN_FONT_PT
    root, labels, show_data = {"leaky_epoch": lambda: (leaky_epoch(), {}, False),
                               "softmax_chain": lambda: (*softmax_chain(), True),
                               "naive_updates": lambda: (naive_updates(10_000, size=2)[1], {}, True)}[graph]()
    rightwards = draw_graph(root, labels=labels, show_data=show_data, direction="right").ax.figure
    assert rightwards.get_size_inches()[0] * rightwards.dpi > MAX_WIDTH_PX  # too wide that way
    drawing = draw_graph(root, labels=labels, show_data=show_data)
    fig = drawing.ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    # What Jupyter shows: the figure cropped to what is drawn (bbox_inches="tight").
    assert fig.get_tightbbox(renderer).width * fig.dpi <= MAX_WIDTH_PX
    assert "depth" in drawing.ax.get_ylabel()
    fonts = {t.get_fontsize() for t in with_gid(drawing.ax, "node text")}
    assert min(fonts) >= MIN_FONT_PT and max(fonts) <= FONT_PT
    for text in with_gid(drawing.ax, "node text"):  # and the text still fits its box
        x, y = text.get_position()
        boxes = [b for kind in KINDS for b in with_gid(drawing.ax, kind)]
        box = min(boxes, key=lambda b: abs(b.get_x() + b.get_width() / 2 - x) + abs(b.get_y() + b.get_height() / 2 - y))
        inner, outer = text.get_window_extent(renderer), box.get_window_extent()
        assert outer.x0 <= inner.x0 and inner.x1 <= outer.x1 and outer.y0 <= inner.y0 and inner.y1 <= outer.y1


def test_downwards_every_node_sits_in_the_row_of_its_depth_and_rows_do_not_overlap():
    out, _ = two_path_scale_add()
    nodes, _ = walk([out])
    names = {v: f"n{k}" for k, v in enumerate(nodes.values())}
    drawing = draw_graph(out, labels=names, direction="down")
    assert_drawing_matches_graph(drawing, [out])
    ax = drawing.ax
    ticks = {tick: label.get_text() for tick, label in zip(ax.get_yticks(), ax.get_yticklabels())}
    for v, name in names.items():
        assert ticks[box_named(ax, name).get_position()[1]] == str(depth(v))
    boxes = [a for kind in KINDS for a in with_gid(ax, kind)]
    rows = {}
    for box in boxes:
        rows.setdefault(box.get_y(), []).append((box.get_x(), box.get_x() + box.get_width()))
    for spans in rows.values():
        spans.sort()
        assert all(right <= next_left for (_, right), (next_left, _) in zip(spans, spans[1:]))
    with pytest.raises(ValueError, match="direction"):
        draw_graph(out, direction="up")


def test_a_shallow_graph_stays_left_to_right():
    out, names = two_path_scale_add()
    drawing = draw_graph(out, labels=names)
    assert "depth" in drawing.ax.get_xlabel()
    assert drawing.ax.figure.get_size_inches()[0] * drawing.ax.figure.dpi <= MAX_WIDTH_PX


def test_numbers_keep_the_digits_that_tell_nearby_values_apart_within_a_box_line():
    a, b = ndl.Tensor([-498.90, -497.90]), ndl.Tensor([-498.95, -497.95])
    ax = draw_graph([a, b], labels={a: "a", b: "b"}).ax
    assert box_named(ax, "a").get_text().splitlines()[-1] == "value [-498.9, -497.9]"
    assert box_named(ax, "b").get_text().splitlines()[-1] == "value [-498.95, -497.95]"  # 3 digits: -499, -498
    c = ndl.Tensor([0.123456, -0.234567, 0.345678, -0.456789])
    line = box_named(draw_graph(c, labels={c: "c"}).ax, "c").get_text().splitlines()[-1]
    assert line == "value [0.123, -0.235, 0.346, -0.457]"  # 4 numbers: 3 digits fit, 5 would not
    m = ndl.Tensor([[1.5], [2.25]])
    assert box_named(draw_graph(m, labels={m: "m"}).ax, "m").get_text().endswith("value [[1.5], [2.25]]")


# --- the debugger names a cause only where it is certain (issue 47) ------------------------------
import re  # noqa: E402
from collections import deque  # noqa: E402

from needle.autograd import Value, find_topo_sort  # noqa: E402


def _backward_over(order, output, out_grad, passed_on=lambda partial, adjoint: partial, keep=None):
    """Visit ``order`` (output first); sum each node's partial adjoints (or keep one of them, with
    ``keep``) into .grad; send each input ``passed_on(partial, adjoint)``."""
    partials = {id(output): [out_grad]}
    for node in order:
        received = partials.pop(id(node), [])
        if not received:
            continue
        adjoint = received[-1] if keep else received[0]
        for p in ([] if keep else received[1:]):
            adjoint = adjoint + p
        node.grad = adjoint
        if node.op is not None:
            for x, p in zip(node.inputs, node.op.gradient_as_tuple(adjoint, node)):
                if p is not None:
                    partials.setdefault(id(x), []).append(passed_on(p, adjoint))


def right(output, out_grad):
    _backward_over(reversed(find_topo_sort([output])), output, out_grad)


def overwrites(output, out_grad):
    """Missing sum: each partial adjoint stored in place of the previous one (the last is kept)."""
    _backward_over(reversed(find_topo_sort([output])), output, out_grad, keep=True)


def chain_rule_twice(output, out_grad):
    _backward_over(reversed(find_topo_sort([output])), output, out_grad, passed_on=lambda p, adjoint: p * adjoint)


def breadth_first(output, out_grad):
    """Order: nodes visited as a queue from the output reaches them, not in reverse topological order."""
    order, queue, seen = [], deque([output]), {id(output)}
    while queue:
        node = queue.popleft()
        order.append(node)
        for x in node.inputs:
            if id(x) not in seen:
                seen.add(id(x))
                queue.append(x)
    _backward_over(order, output, out_grad)


def pre_order(output, out_grad):
    """Order: the reverse of a pre-order "topological sort" (each node listed before its inputs)."""
    order, seen, stack = [], set(), [output]
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            order.append(node)
            stack.extend(node.inputs)
    _backward_over(order, output, out_grad)


TRUE_CAUSE = {overwrites: "sum", chain_rule_twice: "twice", breadth_first: "order", pre_order: "order"}
CAUSES = {"visited before one of its users": "order", "its user ": "order", "partial adjoints not summed": "sum",
          "chain rule applied twice": "twice", "a wrong op gradient": "gradient", "its .grad is not what it was sent": "lost",
          "wrong values": None}


def planted_graphs():
    """(name, output, out_grad): a diamond, a chain that uses its input again at the end, a node
    used three times, a leaf used by the output and by an input of the output, an inner node used three times."""
    x = f64([1.5])
    yield "diamond", ops.exp(x * 2.0) * (x * 3.0), f64([1.0])
    x = f64([0.7])
    yield "chain", ((x * 3.0) * 5.0) * x, f64([2.0])
    s = f64([3.0])
    yield "used three times", s * s + s, f64([2.0])
    x = f64([1.2])
    yield "x + 2x", x + x * 2.0, f64([1.0])
    x = f64([1.2])
    a = x * 2.0
    yield "inner node used three times", (a * a + a) * x, f64([1.0])


def named_cause(problem: str):
    return next(cause for start, cause in CAUSES.items() if problem.startswith(start))


def test_debug_adjoints_names_the_planted_cause_or_none_never_a_wrong_one():
    named = {}
    for mistake, true in TRUE_CAUSE.items():
        for name, output, out_grad in planted_graphs():
            for recorded in (True, False):
                for v in find_topo_sort([output]):
                    v.grad = None
                if recorded:
                    report = debug_adjoints(output, out_grad, backward=mistake)
                else:
                    mistake(output, out_grad)
                    report = debug_adjoints(output, out_grad)
                if report.ok:  # the mistake makes no difference on this graph (an order that happens to be right)
                    continue
                f = report.first_wrong
                cause = named_cause(f.problem)
                assert cause in (None, true), f"{mistake.__name__} on {name}: named {cause!r}:\n{report}"
                named[(mistake.__name__, name, recorded)] = cause
                # what differs, always: the uses and the partial adjoints, expected and got
                assert re.match(r"(this leaf|the \w+(\(\S+\))? node) is used (once|twice|\d+ times): ", f.details[0])
                assert any(line.startswith("the partial adjoints it ") for line in f.details)
                assert f.got is not None and not np.allclose(f.got, f.expected)
    # with the visits recorded, the certain causes are named ...
    assert named[("overwrites", "used three times", True)] == "sum"
    assert named[("overwrites", "diamond", True)] == "sum"
    assert named[("overwrites", "inner node used three times", True)] == "sum"
    assert named[("pre_order", "inner node used three times", True)] == "order"
    twice = [k for k in named if k[0] == "chain_rule_twice"]
    assert len(twice) >= 6 and all(named[k] == "twice" for k in twice)
    # ... and a leaf whose .grad was set before one of its users had sent its partial adjoint may
    # have been visited too early or may have dropped that partial: no cause named
    assert named[("breadth_first", "x + 2x", True)] is None and named[("pre_order", "chain", True)] is None
    # without the order, a missing sum and an order mistake look the same: neither is named
    assert named[("overwrites", "used three times", False)] is None
    assert named[("pre_order", "inner node used three times", False)] is None


def test_an_order_mistake_is_named_with_the_steps_that_show_it():
    x = f64([1.2])
    a = x * 2.0
    out = (a * a + a) * x
    f = debug_adjoints(out, f64([1.0]), backward=pre_order).first_wrong
    assert f.problem.startswith("visited before one of its users: the MulScalar(2) node at step 2, its user the EWiseMul "
                                "node at step 3"), f.problem
    assert "the MulScalar(2) node was visited at step 2 of 4" in f.details
    assert "its .grad equals the partial adjoints of use 3 only, of 3" in f.details


def test_recording_a_backward_leaves_needle_as_it_was():
    slot, add_gradient = Value.__dict__["grad"], ops.EWiseAdd.__dict__["gradient"]
    s = f64([3.0])
    y = s * s + s

    def raises(output, out_grad):
        right(output, out_grad)
        raise ZeroDivisionError("the student's own error")

    with pytest.raises(ZeroDivisionError, match="the student's own error"):
        debug_adjoints(y, f64([1.0]), backward=raises)
    assert Value.__dict__["grad"] is slot and ops.EWiseAdd.__dict__["gradient"] is add_gradient
    assert not [cls for cls in (ops.EWiseAdd, ops.EWiseMul) if "recording" in cls.gradient.__qualname__]
    report = debug_adjoints(y, f64([1.0]), backward=right)
    assert report.ok and np.allclose(s.grad.numpy(), [7.0])
