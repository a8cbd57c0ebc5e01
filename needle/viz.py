"""Draw a needle computational graph with matplotlib (no system packages).

``draw_graph(t)`` draws every distinct Value reachable from ``t`` through ``inputs`` once (by
identity), as a box that shows its op (or "leaf", "constant", "Parameter"), its shape, its
value (the numbers when there are at most four, else their mean, with up to 5 significant
digits) and, once ``backward`` has set it, its gradient. An arrow runs from each input to each
op that uses it. Boxes stand in columns by depth, left to right: a leaf at depth 0, any other
node at 1 + the largest depth of its inputs. A graph too deep for a readable figure that wide
(MAX_WIDTH_PX) is drawn in rows by depth, top to bottom.

Long chains (the graph that a naive ``w = w + (-lr) * grad`` loop grows) are drawn as their
first and last nodes around one "… k more …" box, so a 10,000-step loop draws as ten boxes.

The artists carry gids, so a drawing can be inspected: each box patch has its kind ("leaf",
"constant", "Parameter", "op", "collapsed"), its text "node text", each arrow "edge".
matplotlib is imported only when drawing: ``import needle.viz`` stays cheap.

Two gradient debuggers beside it, which trust no gradient, only the ops' ``compute`` and
float64 central differences (``needle.gradcheck``):

* ``debug_gradients(output)``: is each op's ``gradient`` right, for the inputs it has in
  this graph? (an op you wrote: its backward)
* ``debug_adjoints(output, out_grad)``: is the adjoint stored in each node's ``.grad`` right?
  (a backward pass you wrote: reverse-mode AD; ``backward=`` runs it, recording the order in
  which it visits the nodes, so that a wrong adjoint's cause can be named when it is certain)

Each returns a ``GradientReport``: ``ok``, a record per node, the first wrong node with its
values, the expected and the obtained numbers, a verdict as text (``print(report)``) and
``report.draw()``, the graph with each checked node marked and the first wrong one annotated.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from statistics import fmean
from typing import TYPE_CHECKING, Any

import numpy as np

from .adjoint_causes import explain, ones_out_grad, record_backward
from .autograd import Tensor, TensorTuple, Value, find_topo_sort, no_grad
from .gradcheck import as_float64, node_adjoints, op_adjoints
from .nn import Parameter


def figure_png(fig, dpi: float | None = None) -> str:
    """A matplotlib figure as base64 PNG, for an <img> of an HTML page (the notebooks' folded
    reveals, the instructor's insights); ``dpi``: the figure's own unless given."""
    import base64
    import io

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight", dpi=dpi or fig.dpi)
    return base64.b64encode(buffer.getvalue()).decode("ascii")

if TYPE_CHECKING:
    from matplotlib.axes import Axes

# kind -> (legend entry, face colour, border line style)
STYLES = {
    "leaf": ("leaf (requires grad)", "#cfe2ff", "solid"),
    "Parameter": ("Parameter", "#c8eac4", "solid"),
    # "requires no grad", not "has no grad": a hand-written backward may store one on it anyway
    "constant": ("constant (requires no grad)", "#e4e4e4", "solid"),
    "op": ("op result", "#fff0c2", "solid"),
    "collapsed": ("collapsed chain", "white", "dashed"),
}
# mark -> (legend entry, border colour, border width, prefix of the box's first line)
MARKS = {
    "ok": ("checked: right", "#2e7d32", 1.6, "✓ "),
    "wrong": ("checked: wrong", "#c62828", 1.6, "✗ "),
    "first wrong": ("first wrong (see its numbers)", "#c62828", 3.2, "✗ "),
}
SMALL = 4  # arrays with at most this many elements are printed in full
DIGITS = (5, 4, 3)  # significant digits of printed numbers: the most whose line fits MAX_CHARS
MAX_CHARS = 36  # longer lines are cut
# Jupyter shows an output at most about this wide (pixels at the figure's dpi) and shrinks a wider
# one, its text with it: past this width, "auto" draws depth downwards when that is narrower.
MAX_WIDTH_PX = 1000
# Drawn rightwards, each box is as large as the largest: this fraction of the column and row
# pitch; the rest is room for arrows.
BOX_W, BOX_H = 0.8, 0.8
# Drawn downwards, each box is as wide as its own text; room between boxes in a row and between rows.
GAP_ACROSS_IN, GAP_DOWN_IN = 0.3, 0.45
FONT_PT = 8.0
MIN_FONT_PT = 7.0  # a new figure wider than MAX_WIDTH_PX shrinks, its text down to this size
CHAR_EM, LINE_EM = 0.64, 1.25  # DejaVu Sans digit width and line height, in font sizes
PAD_IN = 0.12  # blank margin inside a box, in inches


@dataclass(frozen=True)
class GraphDrawing:
    """What ``draw_graph`` drew: ``nodes`` graph values as boxes, ``edges`` arrows, and
    ``markers`` "… k more …" boxes that together stand for ``hidden`` values.
    Without collapsing, ``nodes`` is the graph's count of distinct values and ``edges`` its
    count of distinct (input, user) pairs; in general ``nodes + hidden`` is the former."""

    ax: "Axes"
    nodes: int
    edges: int
    hidden: int
    markers: int


@dataclass(eq=False)
class _Box:
    lines: list[str]
    kind: str
    column: tuple[int, int]  # (first depth, last depth): equal except for a collapsed chain
    inputs: list[tuple["_Box", int]] = field(default_factory=list)  # (source, times used)
    x: int = 0  # column rank: the position along the flow, in steps of one depth
    y: float = 0.0  # the position across the flow
    mark: str | None = None  # a key of MARKS
    slot: float = 1.0  # room across the flow, the gap to its neighbours included (the widest: 1)
    extent: float = BOX_H  # the box's own size across the flow


@dataclass(frozen=True)
class _Flow:
    """Which way depth runs, the size of the layout's units in inches (``depth_in`` from one
    depth to the next; ``across_in`` across the flow, the slot of the widest box) and ``box``,
    each box's size along the flow in depth units."""

    down: bool
    depth_in: float
    across_in: float
    box: float

    def xy(self, depth: float, across: float) -> tuple[float, float]:
        """Data coordinates of a layout point; drawn downwards, the top of a column is leftmost."""
        return (-across, -depth) if self.down else (depth, across)


def draw_graph(
    roots,
    ax: "Axes | None" = None,
    *,
    labels: dict | None = None,
    show_data: bool = True,
    collapse_longer_than: int | None = 6,
    max_nodes: int = 300,
    marks: dict | None = None,
    direction: str = "auto",
) -> GraphDrawing:
    """Draw the graph behind ``roots`` (a Tensor, a TensorTuple, or a list of them) on ``ax``
    (a new figure sized to fit when None, with text at FONT_PT, shrunk towards MIN_FONT_PT if
    still wider than MAX_WIDTH_PX pixels; on a given axes the font shrinks to fit the boxes)
    and return what was drawn, a ``GraphDrawing``.

    - ``labels``: {tensor: name}; the name heads the tensor's box, and a named tensor is
      never hidden in a collapsed chain.
    - ``show_data``: print values and gradients; False draws only ops and shapes. A node of a
      lazily built graph that has not been computed says "not computed": drawing never
      computes anything (call ``realize_cached_data()`` first to see values).
    - ``collapse_longer_than``: a chain of more than this many ops, each the only user of the
      previous one and taking no other input but leaves, is drawn as its first op, one
      "… k more …" box and its last op. k counts the hidden ops and the leaves that only
      they use; a drawn leaf that hidden ops use has one arrow into the box, labelled with
      the number of uses. None draws every node.
    - ``max_nodes``: refuse (ValueError) to draw more boxes than this: the picture would be
      unreadable and slow. Draw a smaller graph, or raise the limit.
    - ``marks``: {tensor: (mark, extra lines)}, what a check found (the debuggers below use
      it): mark "ok" (green border, ✓), "wrong" (red border, ✗) or "first wrong" (a thick red
      border, ✗); the extra lines are added to the box's text. A node marked other than "ok"
      is never hidden in a collapsed chain.
    - ``direction``: where depth runs: "right" (columns by depth, every box the size of the
      largest), "down" (rows by depth, each box as wide as its text, the legend below) or
      "auto": right, unless the default figure would then be wider than MAX_WIDTH_PX pixels
      (at ``ax``'s dpi, or matplotlib's) and down makes it narrower.

    An input used several times by one op (``b + b``) is one arrow, labelled "×2".
    """
    roots = _as_roots(roots)
    names = _names_by_id(labels)
    marked = _marks_by_id(marks)
    order = find_topo_sort(roots)  # iterative: a 100,000-deep graph is fine
    if direction not in ("auto", "right", "down"):
        raise ValueError(f'draw_graph direction: expected "auto", "right" or "down", got {direction!r}')
    boxes, hidden, markers = _boxes(order, roots, names, marked, show_data, collapse_longer_than, max_nodes)
    ax, edges = _render(boxes, *_plan(boxes, direction, ax), ax)
    return GraphDrawing(ax=ax, nodes=len(boxes) - markers, edges=edges, hidden=hidden, markers=markers)


def _as_roots(roots) -> list[Value]:
    if isinstance(roots, Value):
        return [roots]
    roots = list(roots)
    if not roots or not all(isinstance(r, Value) for r in roots):
        raise TypeError("draw_graph takes a needle Tensor or TensorTuple, or a non-empty list of them")
    return roots


def _names_by_id(labels: dict | None) -> dict[int, str]:
    labels = labels or {}
    if not all(isinstance(v, Value) for v in labels):
        raise TypeError("draw_graph labels must map needle Tensors to names")
    return {id(v): str(name) for v, name in labels.items()}


def _marks_by_id(marks: dict | None) -> dict[int, tuple[str, list[str]]]:
    marks = marks or {}
    for v, mark in marks.items():
        if not isinstance(v, Value):
            raise TypeError("draw_graph marks must map needle Tensors to (mark, extra lines)")
        if not (isinstance(mark, tuple) and len(mark) == 2 and mark[0] in MARKS):
            raise ValueError(f"draw_graph marks: expected (mark, extra lines) with mark one of {list(MARKS)}, got {mark!r}")
    return {id(v): (mark, [str(line) for line in lines]) for v, (mark, lines) in marks.items()}


def _kind(v: Value) -> str:
    if v.op is not None:
        return "op"
    if isinstance(v, Parameter) or any(c.__name__ == "Parameter" for c in type(v).__mro__):
        return "Parameter"  # needle's, or a course notebook's own Parameter class
    return "leaf" if v.requires_grad else "constant"


def _boxes(order, roots, names, marked, show_data, collapse_longer_than, max_nodes):
    """One box per drawn value, in topological order, plus a marker per collapsed chain.
    Returns (boxes, number of hidden values, number of markers)."""
    n = len(order)
    index = {id(v): i for i, v in enumerate(order)}
    missing = names.keys() - index.keys()
    if missing:
        raise ValueError(f"draw_graph: {len(missing)} labelled tensor(s) are not in the graph")
    if marked.keys() - index.keys():
        raise ValueError(f"draw_graph: {len(marked.keys() - index.keys())} marked tensor(s) are not in the graph")
    inputs = [[index[id(x)] for x in v.inputs] for v in order]  # every slot, repeats kept
    depth = [0] * n
    users: list[list[int]] = [[] for _ in range(n)]  # distinct users
    for i, ins in enumerate(inputs):
        if ins:
            depth[i] = 1 + max(depth[j] for j in ins)
        for j in dict.fromkeys(ins):
            users[j].append(i)
    pinned = {index[id(r)] for r in roots} | {index[k] for k in names} | {index[k] for k, (m, _) in marked.items() if m != "ok"}

    runs, gone, run_of = _collapse(order, inputs, users, pinned, collapse_longer_than)
    drawn = n - len(run_of)
    if drawn > max_nodes:
        raise ValueError(
            f"draw_graph: {drawn} nodes to draw (of {n}), more than max_nodes={max_nodes}; "
            f"draw a smaller graph or pass a larger max_nodes"
        )

    box_of: dict[int, _Box] = {}
    boxes: list[_Box] = []
    marker_of_tail = {run[-2]: r for r, run in enumerate(runs)}  # last hidden op -> chain
    for i, v in enumerate(order):
        if i in run_of:
            continue
        box = _Box(_node_lines(v, names.get(id(v)), show_data), _kind(v), (depth[i], depth[i]))
        if id(v) in marked:
            box.mark, extra = marked[id(v)]
            box.lines = [_fit(MARKS[box.mark][3] + box.lines[0])] + box.lines[1:] + [_fit(s) for s in extra]
        for j, times in Counter(inputs[i]).items():
            if j in marker_of_tail:  # i ends a collapsed chain: draw its marker first
                r = marker_of_tail[j]
                run = runs[r]
                marker = _Box(_marker_lines(order, gone[r]), "collapsed", (depth[run[1]], depth[run[-2]]))
                # Arrows into the marker: from the chain's first op and from drawn leaves it uses.
                used = Counter(k for m in run[1:-1] for k in inputs[m] if k not in run_of)
                marker.inputs = [(box_of[k], count) for k, count in used.items()]
                boxes.append(marker)
                box_of[j] = marker
            box.inputs.append((box_of[j], times))
        box_of[i] = box
        boxes.append(box)
    return boxes, len(run_of), len(runs)


def _collapse(order, inputs, users, pinned, collapse_longer_than):
    """The chains to collapse, the values each hides (its ops but the first and last, and
    the leaves that only those use), and the chain that hides each hidden value."""
    if collapse_longer_than is None:
        return [], [], {}
    if collapse_longer_than < 2:
        raise ValueError("collapse_longer_than must be at least 2 (first and last are always drawn)")
    runs = [run for run in _chains(order, inputs, users, pinned) if len(run) > collapse_longer_than]
    gone = [run[1:-1] for run in runs]
    run_of = {i: r for r, hidden in enumerate(gone) for i in hidden}
    for j, v in enumerate(order):
        if v.op is None and j not in pinned and users[j] and all(u in run_of for u in users[j]):
            r = run_of[users[j][0]]
            gone[r].append(j)
            run_of[j] = r
    return runs, gone, run_of


def _chains(order, inputs, users, pinned) -> list[list[int]]:
    """Maximal runs of chain links, each in graph order. A link is an op, neither a root nor
    labelled, with one distinct user and one distinct input that is not a leaf (any number
    of leaves besides); the next link of a run is its user."""
    links = set()
    for i, v in enumerate(order):
        if v.op is not None and i not in pinned and len(users[i]) == 1:
            if len({j for j in inputs[i] if order[j].op is not None}) == 1:
                links.add(i)
    runs = []
    for i in sorted(links):
        if not any(j in links for j in inputs[i]):  # i starts a run
            run = [i]
            while users[run[-1]][0] in links:
                run.append(users[run[-1]][0])
            runs.append(run)
    return runs


def _node_lines(v: Value, name: str | None, show_data: bool) -> list[str]:
    what = _op_text(v.op) if v.op is not None else _kind(v)
    lines = [f"{name}: {what}" if name else what]
    data = v.cached_data
    if data is None:
        lines.append("not computed")
    elif isinstance(data, tuple):
        lines.append("shapes " + ", ".join(str(a.shape) for a in data))
    else:
        lines.append(f"shape {data.shape}")
    if show_data:
        if data is not None:
            lines.append("value " + _numbers(data, MAX_CHARS - len("value ")))
        if isinstance(v.grad, Value):
            grad = v.grad.cached_data
            lines.append("grad " + ("not computed" if grad is None else _numbers(grad, MAX_CHARS - len("grad "))))
        elif v.grad is not None:  # what a hand-written backward stored (debug_adjoints draws it)
            lines.append(f"grad: a {type(v.grad).__name__}, not a needle value")
    return [_fit(s) for s in lines]


def _marker_lines(order, gone: list[int]) -> list[str]:
    kinds = Counter(type(order[i].op).__name__ if order[i].op is not None else _kind(order[i]) for i in gone)
    return [f"… {len(gone):,} more …"] + [f"{k:,} × {what}" for what, k in kinds.most_common(2)]


def _op_text(op) -> str:
    """The op's class and its settings when short: AddScalar(-0.1), TupleGetItem(0). Settings
    left at None or False (Summation's keepdims) are not shown."""
    settings = [f"{s:.3g}" if isinstance(s, float) else repr(s) for s in vars(op).values() if s is not None and s is not False]
    text = f"{type(op).__name__}({', '.join(settings)})" if settings else type(op).__name__
    return text if len(text) <= MAX_CHARS else type(op).__name__


def _numbers(data, room: int = MAX_CHARS) -> str:
    """The numbers (their mean when more than SMALL) with the most significant digits of DIGITS
    that fit in ``room`` characters: 5 tell -498.9 from -498.95, which 3 both print as -499."""
    for digits in DIGITS:
        text = _numbers_at(data, digits)
        if len(text) <= room:
            break
    return text


def _numbers_at(data, digits: int) -> str:
    if isinstance(data, tuple):
        return "(" + ", ".join(_numbers_at(a, digits) for a in data) + ")"
    a = np.asarray(data)
    if a.size <= SMALL:
        text = np.array2string(a, separator=", ", formatter={"all": lambda x: f"{x:.{digits}g}"})
        return text.replace("\n", "")  # a matrix's rows on one line: a box line is one line
    return f"mean {a.mean():.{digits}g}"


def _fit(line: str) -> str:
    return line if len(line) <= MAX_CHARS else line[: MAX_CHARS - 1] + "…"


def _plan(boxes: list[_Box], direction: str, ax):
    """Lay the boxes out (see ``draw_graph``'s ``direction``); return the flow, the columns,
    the arrows and the span across the flow (lowest, highest)."""
    import matplotlib

    dpi = ax.figure.dpi if ax is not None else matplotlib.rcParams["figure.dpi"]
    plans = []
    for down in {"right": [False], "down": [True], "auto": [False, True]}[direction]:
        flow = _flow(boxes, down)
        columns = _layout(boxes)
        arrows = _arrows(boxes, len(columns), flow)
        plans.append((flow, columns, arrows, _span(boxes, arrows)))
        if _figure_size(boxes, *plans[-1])[0] * dpi <= MAX_WIDTH_PX:
            break
    best = min(plans, key=lambda plan: _figure_size(boxes, *plan)[0])
    if best is not plans[-1]:  # the boxes hold the last layout tried
        _flow(boxes, best[0].down)
        _layout(boxes)
    return best


def _text_in(box: _Box) -> tuple[float, float]:
    """Width and height in inches of a box that holds its text at FONT_PT."""
    chars = max(len(s) for s in box.lines)
    return chars * CHAR_EM * FONT_PT / 72 + PAD_IN, len(box.lines) * LINE_EM * FONT_PT / 72 + PAD_IN


def _flow(boxes: list[_Box], down: bool) -> _Flow:
    """The flow rightwards or downwards, each box's slot and extent across it set to match."""
    sizes = [_text_in(b) for b in boxes]
    wide, tall = max(w for w, _ in sizes), max(h for _, h in sizes)
    if not down:
        for b in boxes:
            b.slot, b.extent = 1.0, BOX_H
        return _Flow(False, wide / BOX_W, tall / BOX_H, BOX_W)
    across_in = wide + GAP_ACROSS_IN
    for b, (w, _) in zip(boxes, sizes):
        b.slot, b.extent = (w + GAP_ACROSS_IN) / across_in, w / across_in
    return _Flow(True, tall + GAP_DOWN_IN, across_in, tall / (tall + GAP_DOWN_IN))


def _layout(boxes: list[_Box]) -> list[tuple[int, int]]:
    """Set each box's x (its column's rank) and y; return the columns, in depth order.
    In a column, boxes go in the order of the mean height of their inputs, their slots side by
    side, so arrows cross little and boxes never overlap. Leaves go first in graph order, then,
    in a second sweep, in the order of the mean height of their users."""
    columns = sorted({b.column for b in boxes})
    by_column: dict[tuple[int, int], list[_Box]] = {c: [] for c in columns}
    users: dict[int, list[_Box]] = {id(b): [] for b in boxes}
    for b in boxes:
        by_column[b.column].append(b)
        for src, _ in b.inputs:
            users[id(src)].append(b)
    for sweep in range(2):
        for x, c in enumerate(columns):  # in depth order: inputs are placed before their users
            members = by_column[c]
            wanted = [
                fmean(src.y for src, _ in b.inputs) if b.inputs
                else -k if sweep == 0
                else fmean(u.y for u in users[id(b)]) if users[id(b)]
                else b.y
                for k, b in enumerate(members)
            ]
            ranked = sorted(range(len(members)), key=lambda k: -wanted[k])  # top first, stable
            ys: list[float] = []
            for n, k in enumerate(ranked):
                below = ys[-1] - (members[ranked[n - 1]].slot + members[k].slot) / 2 if ys else wanted[k]
                ys.append(min(wanted[k], below))
            shift = fmean(wanted) - fmean(ys)
            for k, y in zip(ranked, ys):
                members[k].x, members[k].y = x, y + shift
    return columns


def _arrows(boxes: list[_Box], n_columns: int, flow: _Flow) -> list[tuple[list[tuple[float, float]], int]]:
    """(points in layout coordinates, times used) of each arrow. Arrows end at ports spread
    along the user's near side, the highest input first."""
    rows = {x: [b for b in boxes if b.x == x] for x in range(n_columns)}
    arrows = []
    for b in boxes:
        sources = sorted(b.inputs, key=lambda s: -s[0].y)
        step = b.extent * 0.5 / max(len(sources) - 1, 1)
        for k, (src, times) in enumerate(sources):
            start = (src.x + flow.box / 2, src.y)
            end = (b.x - flow.box / 2, b.y + ((len(sources) - 1) / 2 - k) * step)
            arrows.append((_route(start, end, [rows[x] for x in range(src.x + 1, b.x)], flow.box), times))
    return arrows


def _span(boxes: list[_Box], arrows) -> tuple[float, float]:
    """The lowest and the highest point across the flow that a box slot or an arrow reaches."""
    route_ys = [y for points, _ in arrows for _, y in points]
    return (min([b.y - b.slot / 2 for b in boxes] + [y - 0.2 for y in route_ys]),
            max([b.y + b.slot / 2 for b in boxes] + [y + 0.2 for y in route_ys]))


def _figure_size(boxes: list[_Box], flow: _Flow, columns, arrows, span):
    """Width and height in inches of a new figure that holds the drawing at FONT_PT, its
    margins (left, right, bottom, top, in inches) and the legend's number of columns."""
    along, across = len(columns) * flow.depth_in, (span[1] - span[0]) * flow.across_in
    entries = len({b.kind for b in boxes}) + len({b.mark for b in boxes} - {None})
    if not flow.down:  # ticks below, legend right, title above; at least as wide as the x label
        longest = max(len(STYLES[b.kind][0]) for b in boxes)
        longest = max([longest] + [len(MARKS[b.mark][0]) + 2 for b in boxes if b.mark])
        left, right, low, high = 0.25, 0.45 + longest * 0.6 * FONT_PT / 72, 0.65, 0.45
        return max(along, 3.4) + left + right, across + low + high, (left, right, low, high), 1
    left, right, high = 0.95, 0.15, 0.45  # ticks and label left, title above, legend below
    width = max(across, 2.5) + left + right
    ncol = max(1, min(entries, int(width // 2.1)))
    low = 0.15 + 0.2 * -(-entries // ncol)
    return width, max(along, 3.4) + low + high, (left, right, low, high), ncol


def _render(boxes: list[_Box], flow: _Flow, columns, arrows, span, ax):
    """Draw boxes, arrows, axis and legend; return the axes and the number of arrows."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Patch
    from matplotlib.path import Path

    width, height, (left, right, low, high), ncol = _figure_size(boxes, flow, columns, arrows, span)
    if ax is None:  # sized so that FONT_PT text fits the boxes, shrunk if that is too wide
        room = MAX_WIDTH_PX / plt.rcParams["figure.dpi"] - left - right
        shrink = min(1.0, max(MIN_FONT_PT / FONT_PT, room / (width - left - right)))
        width, height = left + right + (width - left - right) * shrink, low + high + (height - low - high) * shrink
        fig, ax = plt.subplots(figsize=(width, height))
        fig.subplots_adjust(left=left / width, right=1 - right / width, bottom=low / height, top=1 - high / height)
    # The largest font (up to FONT_PT) whose text fits every box on this axes.
    bottom, top = span
    extent = ax.get_window_extent()
    wide_in, high_in = extent.width / ax.figure.dpi, extent.height / ax.figure.dpi
    if flow.down:
        depth_in, across_in = high_in / len(columns), wide_in / (top - bottom)
    else:
        depth_in, across_in = wide_in / len(columns), high_in / (top - bottom)
    font = FONT_PT
    for b in boxes:
        along, across = flow.box * depth_in, b.extent * across_in
        box_w, box_h = (across, along) if flow.down else (along, across)
        font = min(font, (box_w - PAD_IN) * 72 / (max(len(s) for s in b.lines) * CHAR_EM),
                   (box_h - PAD_IN) * 72 / (len(b.lines) * LINE_EM))
    for b in boxes:
        _, color, line_style = STYLES[b.kind]
        _, edge, line_width, _ = MARKS[b.mark] if b.mark else (None, "0.3", 0.9, None)
        x, y = flow.xy(b.x, b.y)
        w, h = (b.extent, flow.box) if flow.down else (flow.box, b.extent)
        ax.add_patch(FancyBboxPatch(
            (x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0,rounding_size=0.04",
            facecolor=color, edgecolor=edge, linestyle=line_style, linewidth=line_width, zorder=2, gid=b.kind,
        ))
        ax.text(x, y, "\n".join(b.lines), ha="center", va="center", fontsize=font,
                linespacing=LINE_EM, zorder=3, gid="node text")
    for points, times in arrows:
        points = [flow.xy(*p) for p in points]
        ax.add_patch(FancyArrowPatch(path=Path(points), arrowstyle="-|>", mutation_scale=9, color="0.35",
                                     linewidth=0.8, zorder=1, gid="edge"))
        if times > 1:  # by the last stretch (which is this arrow's alone), on the side it leaves free
            (xa, ya), (xb, yb) = points[-2:]
            side = ("right" if xb < xa else "left") if flow.down else ("right" if yb > ya else "left")
            ax.text((xa + xb) / 2, (ya + yb) / 2, f"×{times:,}", ha=side, va="bottom", fontsize=font,
                    zorder=3, gid="edge label")
    ticks = [str(lo) if lo == hi else f"{lo}…{hi}" for lo, hi in columns]
    label = "depth: ops on the longest path from a leaf"
    if flow.down:
        ax.set_xlim(-top, -bottom)
        ax.set_ylim(0.5 - len(columns), 0.5)
        ax.set_yticks([-k for k in range(len(columns))], ticks)
        ax.set_ylabel(label)
        ax.set_xticks([])
        hide = ("right", "top", "bottom")
    else:
        ax.set_xlim(-0.5, len(columns) - 0.5)
        ax.set_ylim(bottom, top)
        ax.set_xticks(range(len(columns)), ticks)
        ax.set_xlabel(label)
        ax.set_yticks([])
        hide = ("left", "right", "top")
    for side in hide:
        ax.spines[side].set_visible(False)
    kinds = [k for k in STYLES if any(b.kind == k for b in boxes)]
    handles = [Patch(facecolor=STYLES[k][1], edgecolor="0.3", linestyle=STYLES[k][2], label=STYLES[k][0]) for k in kinds]
    handles += [Patch(facecolor="white", edgecolor=MARKS[m][1], linewidth=MARKS[m][2], label=MARKS[m][3] + MARKS[m][0])
                for m in MARKS if any(b.mark == m for b in boxes)]
    if flow.down:
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.01), ncol=ncol, frameon=False,
                  fontsize=FONT_PT)
    else:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=FONT_PT)
    return ax, len(arrows)


def _route(start, end, skipped: list[list[_Box]], box: float) -> list[tuple[float, float]]:
    """Points of an arrow from ``start`` to ``end``: straight, except that across each column
    it skips (given as its boxes; ``box`` is their size along the flow) it runs level through
    the gap between boxes nearest to the straight line, so it never passes behind a box."""
    (x0, y0), (x1, y1) = start, end
    points = [start]
    for row in skipped:
        x = row[0].x
        straight = y0 + (y1 - y0) * (x - x0) / (x1 - x0)
        y = _nearest_free(straight, row)
        points += [(x - box / 2, y), (x + box / 2, y)]
    return points + [end]


def _nearest_free(y: float, row: list[_Box]) -> float:
    """The height nearest ``y`` where a level line misses every box of a column: slots do not
    overlap, so the edge of a slot (halfway between neighbours, or beyond the ends) is free."""
    def free(h):
        return all(abs(h - b.y) > b.extent / 2 + 0.02 for b in row)

    if free(y):
        return y
    return min((b.y + side * b.slot / 2 for b in row for side in (1, -1) if free(b.y + side * b.slot / 2)),
               key=lambda h: abs(h - y))


# --- gradient debuggers ------------------------------------------------------------------------
SHOWN = 6  # numbers printed per array in a report's text


@dataclass(frozen=True)
class NodeCheck:
    """One checked node: its op's name ("leaf" for a leaf), the shapes checked (each input's
    for an op's gradient, the node's own for an adjoint), the largest |got - expected| over
    all elements (inf when what was got is not an array of the right shape), whether it is
    right, and what is wrong ("" when right)."""

    node: Value
    op: str
    shapes: list
    max_error: float
    ok: bool
    problem: str = ""


@dataclass(frozen=True)
class WrongNode:
    """The first wrong node of a report, with the numbers to see why.

    ``input`` is the op's input whose adjoint is wrong (debug_gradients) or None (the node's
    own adjoint, debug_adjoints); ``values`` the op's input values (debug_gradients) or
    [the node's value] (debug_adjoints), in float64; ``out_grad`` the output adjoint the op's
    gradient was given (debug_gradients); ``expected`` the central differences and ``got``
    what the gradient returned or .grad holds, as arrays (tuples of arrays for a TensorTuple;
    ``got`` is None when there was no array to compare)."""

    node: Value
    op: str
    input: int | None
    values: list
    expected: Any
    got: Any
    problem: str
    out_grad: Any = None
    details: tuple = ()  # debug_adjoints: what the node was sent and when it was visited, a line each


@dataclass(frozen=True)
class GradientReport:
    """What ``debug_gradients`` or ``debug_adjoints`` found: a ``NodeCheck`` per checked node
    in reverse topological order (each node after all of its users: the output first, as a
    backward pass visits them), and the first wrong one. ``print(report)`` gives the verdict;
    ``report.draw()`` the graph."""

    output: Value
    checked: str  # "gradient": each op's gradient; "adjoint": each node's .grad
    nodes: list
    first_wrong: WrongNode | None

    @property
    def ok(self) -> bool:
        return self.first_wrong is None

    def headline(self, labels: dict | None = None) -> str:
        """The verdict in one line; ``labels`` ({tensor: name}) names the first wrong node."""
        wrong = sum(not n.ok for n in self.nodes)
        largest = max((n.max_error for n in self.nodes), default=0.0)
        if self.checked == "gradient":
            if not wrong:
                return (f"✓ the gradients of all {_count(len(self.nodes), 'op')} agree with float64 central "
                        f"differences of their compute (largest error {largest:.1e})")
            f = self.first_wrong
            return f"✗ {wrong} of {_count(len(self.nodes), 'op')} with a wrong gradient; first: {_named(f, labels)}, input {f.input}"
        if not wrong:
            return (f"✓ the adjoints in .grad of all {_count(len(self.nodes), 'checked node')} agree with float64 "
                    f"central differences (largest error {largest:.1e})")
        return f"✗ {wrong} of {_count(len(self.nodes), 'checked node')} with a wrong adjoint in .grad; first: {_named(self.first_wrong, labels)}"

    def __str__(self) -> str:
        f = self.first_wrong
        if f is None:
            return self.headline() + "."
        lines = [self.headline() + "."]
        if self.checked == "gradient":
            n_inputs = len(f.values)
            lines += [
                f"The first wrong op in the order backward calls them: {f.op}, input {f.input} of {n_inputs} "
                f"(shape {_shape(f.expected)}).",
                f"  problem    {f.problem}",
                "  inputs     " + ", ".join(f"x{i} = {_few(v)}" for i, v in enumerate(f.values)),
                f"  out_grad   {_few(f.out_grad)}",
                f"  expected   {_few(f.expected)}   (float64 central differences of compute, contracted with out_grad)",
                f"  got        {_few(f.got)}   (gradient(out_grad, node), entry {f.input})",
            ]
        else:
            lines += [
                f"The first wrong node in reverse topological order (each node after all of its users, "
                f"as backward visits them): {f.op}, shape {_shape(f.values[0])}.",
                f"  problem    {f.problem}",
                f"  value      {_few(f.values[0])}",
                f"  expected   {_few(f.expected)}   (float64 central differences of sum(output * out_grad) w.r.t. this node)",
                f"  got        {_few(f.got)}   (its .grad)",
            ]
            lines += [f"  {'seen' if i == 0 else '':10s} {line}" for i, line in enumerate(f.details)]
        worst = _worst(f.got, f.expected)
        if worst is not None:
            index, error = worst
            lines.append(f"  largest error {error:.3g}, at index {index}")
        return "\n".join(lines)

    def draw(self, ax: "Axes | None" = None, *, labels: dict | None = None) -> GraphDrawing:
        """The graph (``draw_graph``) with each checked node marked right or wrong, the first
        wrong one annotated with the expected and the obtained numbers, the verdict as title."""
        marks = {n.node: ("ok" if n.ok else "wrong", []) for n in self.nodes}
        f = self.first_wrong
        if f is not None:
            head = [f"input {f.input}: {_fit_problem(f.problem)}"] if self.checked == "gradient" else [_fit_problem(f.problem)]
            marks[f.node] = ("first wrong", head + _box_numbers(f.expected, f.got))
        drawing = draw_graph(self.output, ax, labels=labels, marks=marks)
        drawing.ax.set_title(self.headline(labels), fontsize=FONT_PT + 1, loc="left")
        return drawing


def debug_gradients(output: Value, out_grad=None, *, eps: float = 1e-6, rtol: float = 1e-4,
                    atol: float = 1e-6) -> GradientReport:
    """Check the backward of every op in the graph of ``output``, each on its own.

    For every op node, in the order a backward pass calls them, ``op.gradient(g, node)`` is
    computed for the node's actual input values (in float64) and an output adjoint ``g`` (a
    fixed random array of the node's output shape; ``out_grad`` for ``output``'s own op when
    given), and compared, over all elements of every input, with the float64 central
    differences of sum(op.compute(inputs) * g). No ``.grad`` and no backward pass is trusted.

    Works for TensorTupleOps (``g`` is then a TensorTuple) and reports, rather than raises, a
    gradient that raises, returns None, a numpy array, the wrong number of adjoints or the
    wrong shape. An entry i is right when |got - expected| <= atol + rtol |expected|.
    """
    order = _graph(output, "debug_gradients")
    root_grad = None if out_grad is None else _out_grad(output, out_grad, "debug_gradients")
    rng = np.random.default_rng(0)  # the same random out_grad every run
    checks, first = [], None
    for v in reversed(order):
        if v.op is None:
            continue
        g = root_grad if v is output and root_grad is not None else _random_like(v.realize_cached_data(), rng)
        check, wrong = _check_op(v, g, eps, rtol, atol)
        checks.append(check)
        first = first or wrong
    return GradientReport(output, "gradient", checks, first)


def debug_adjoints(output: Value, out_grad=None, *, backward=None, eps: float = 1e-6, rtol: float = 1e-4,
                   atol: float = 1e-6) -> GradientReport:
    """Check the adjoint a backward pass stored in each node's ``.grad``.

    ``backward``: your reverse-mode AD (``compute_gradient_of_variables``), run here as
    ``backward(output, out_grad)`` with every op gradient call recorded, so that the report can
    say in which order the nodes were visited; without it, run your backward first.

    After a reverse-mode AD pass from ``output`` with output adjoint ``out_grad`` (default:
    ones of the output's shape), every node that requires grad should hold in ``.grad`` a
    needle Tensor (a TensorTuple for a tuple node), its adjoint: the derivative of
    sum(output * out_grad) with respect to the node's value. That is what notebook 09's
    ``compute_gradient_of_variables`` stores (needle's own ``backward()`` keeps the leaves'
    only). Each is compared, over all elements, with float64 central differences in which
    the node's value is perturbed and everything computed from it is recomputed with the
    ops' ``compute``: no gradient is trusted. Constants (requires_grad=False) are not checked.

    The first wrong node is the first in reverse topological order (each node after all of its
    users, as backward visits them), so every node that uses it has the right adjoint. The
    report says what differs (expected and got, the partial adjoints from each use and which add
    up to .grad; with ``backward``, when each node was visited) and names a cause only where it
    is certain (needle.adjoint_causes). Costs two forward passes per element of every node: for
    graphs of tens of nodes.
    """
    order = _graph(output, "debug_adjoints")
    trace = None
    if backward is not None:
        trace = record_backward(backward, output, out_grad if out_grad is not None else ones_out_grad(output))
    if out_grad is None:
        value = output.realize_cached_data()
        weights = tuple(np.ones_like(a, dtype=np.float64) for a in value) if isinstance(value, tuple) \
            else np.ones_like(value, dtype=np.float64)
    else:
        weights = _out_grad(output, out_grad, "debug_adjoints")
    expected = node_adjoints(order, weights, eps)
    expected_by_id = {id(v): want for v, want in zip(order, expected)}
    checked = [(v, want) for v, want in zip(order, expected) if v.requires_grad and want is not None][::-1]
    stored = [_stored(v.grad) for v, _ in checked]
    checks, first = [], None
    for (v, want), (got, form) in zip(checked, stored):
        error, problem = _compare(got, want, form, rtol, atol)
        details = []
        if problem == "wrong values" and v is not output and first is None:
            problem, details = explain(v, got, want, order, expected_by_id, trace, rtol, atol, eps)
        elif problem == "wrong values" or form:
            problem = _adjoint_problem(v, output, form, checked, stored)
        value = as_float64(v.realize_cached_data())
        checks.append(NodeCheck(v, _op_name(v), [_shape(value)], error, not problem, problem))
        if problem and first is None:
            first = WrongNode(v, _op_name(v), None, [value], want, got, problem, details=tuple(details))
    return GradientReport(output, "adjoint", checks, first)


def _graph(output, who: str) -> list:
    if not isinstance(output, Value):
        raise TypeError(f"{who} takes a needle Tensor or TensorTuple (a graph's output), got {type(output).__name__}")
    return find_topo_sort([output])


def _out_grad(output: Value, out_grad, who: str):
    """``out_grad`` as float64 array(s) of the output's shape(s), or a ValueError saying why not."""
    value = output.realize_cached_data()
    if isinstance(out_grad, Value):
        out_grad = out_grad.realize_cached_data()
    if isinstance(value, tuple):
        ok = isinstance(out_grad, (tuple, list)) and len(out_grad) == len(value) and all(
            np.shape(g) == a.shape for g, a in zip(out_grad, value))
        if ok:
            return tuple(np.asarray(g, dtype=np.float64) for g in out_grad)
    elif np.shape(out_grad) == value.shape:
        return np.asarray(out_grad, dtype=np.float64)
    raise ValueError(f"{who}: out_grad must have the output's shape {_shape(value)}, got {_shape(out_grad)}")


def _random_like(value, rng):
    if isinstance(value, tuple):
        return tuple(rng.standard_normal(a.shape) for a in value)
    return rng.standard_normal(np.shape(value))


def _as_leaf(value) -> Value:
    """A float64 leaf holding ``value`` (a tuple: a TensorTuple), requiring grad, so that the
    op's gradient is asked for every input's adjoint."""
    if isinstance(value, tuple):
        return TensorTuple.make_const(value, requires_grad=True)
    return Tensor.make_const(value, requires_grad=value.dtype.kind == "f")


def _check_op(v: Value, g, eps: float, rtol: float, atol: float):
    """(NodeCheck, WrongNode or None) for the gradient of op node ``v`` with output adjoint g."""
    op, name = v.op, _op_name(v)
    values = [as_float64(x.realize_cached_data()) for x in v.inputs]
    shapes = [_shape(x) for x in values]

    def wrong(problem, expected=None):
        """The op's whole gradient is unusable: shown as input 0's."""
        check = NodeCheck(v, name, shapes, float("inf"), False, problem)
        return check, WrongNode(v, name, 0 if expected else None, values, (expected or [None])[0], None, problem, g)

    try:
        out = op.compute(*values)
        expected = op_adjoints(op, values, g, eps)
    except Exception as exc:
        return wrong(f"compute raised {type(exc).__name__} on float64 inputs: {exc}")
    if any(np.asarray(a).dtype.kind == "f" and np.asarray(a).dtype != np.float64
           for a in (out if isinstance(out, tuple) else (out,))):
        return wrong("compute does not keep float64 (central differences need it): keep the inputs' dtype")
    node = (TensorTuple if isinstance(out, tuple) else Tensor).__new__(TensorTuple if isinstance(out, tuple) else Tensor)
    node._init(op, tuple(_as_leaf(x) for x in values), out, True)
    g_node = TensorTuple.make_const(g) if isinstance(g, tuple) else Tensor.make_const(g)
    try:
        with no_grad():
            result = op.gradient(g_node, node)
    except Exception as exc:
        return wrong(f"gradient raised {type(exc).__name__}: {exc}", expected)
    entries, problem = _entries(result, len(values))
    if problem:
        return wrong(problem, expected)
    largest, first_problem = 0.0, None
    for i, (entry, want) in enumerate(zip(entries, expected)):
        if want is None:  # an integer input: not differentiated
            continue
        got, form = _stored(entry, f"its adjoint of input {i}", "return")
        error, problem = _compare(got, want, form, rtol, atol)
        if problem == "wrong values":
            problem = _gradient_problem(op, values, i, got, want, rtol, atol, eps)
        largest = max(largest, error)
        if problem and first_problem is None:
            first_problem = (i, problem, want, got)
    if first_problem:
        i, problem, want, got = first_problem
        return NodeCheck(v, name, shapes, largest, False, problem), WrongNode(v, name, i, values, want, got, problem, g)
    return NodeCheck(v, name, shapes, largest, True), None


def _entries(result, n: int):
    """gradient's result as one entry per input, or a problem."""
    if result is None:
        return None, "gradient returned None: return the adjoint of each input (a tuple for several inputs)"
    if isinstance(result, (tuple, list)) and not isinstance(result, Value):
        if len(result) != n:
            return None, f"gradient returned {_count(len(result), 'adjoint')} for an op with {_count(n, 'input')}"
        return list(result), ""
    if n != 1:
        return None, f"gradient returned one value for an op with {n} inputs: return a tuple, one adjoint per input"
    return [result], ""


def _stored(value, what: str = "its .grad", verb: str = "store"):
    """(array or tuple of arrays, "") for a needle value; (what there is to show, the problem) else."""
    if isinstance(value, Value):
        data = value.realize_cached_data()
        return (as_float64(data), "") if data is not None else (None, f"{what} has no value")
    if value is None:
        return None, f"{what} is None"
    if isinstance(value, np.ndarray):
        return as_float64(value), f"{what} is a numpy array: {verb} a needle Tensor (built with needle ops, it stays part of a graph)"
    return None, f"{what} is a {type(value).__name__}: {verb} a needle Tensor"


def _compare(got, want, form: str, rtol: float, atol: float):
    """(largest |got - want|, "" or the problem) over all elements."""
    if form:
        error = _error(got, want)
        return (error if error is not None else float("inf")), form
    if isinstance(want, tuple) != isinstance(got, tuple) or _shape(got) != _shape(want):
        return float("inf"), f"shape {_shape(got)}, expected {_shape(want)}"
    pairs = zip(got, want) if isinstance(want, tuple) else [(got, want)]
    error, right = 0.0, True
    for a, b in pairs:
        a = np.asarray(a, dtype=np.float64)
        if a.size:
            error = max(error, float(np.nanmax(np.where(np.isfinite(a), np.abs(a - b), np.inf))))
        right = right and bool(np.all(np.isfinite(a)) and np.allclose(a, b, rtol=rtol, atol=atol))
    return error, "" if right else "wrong values"


def _error(got, want) -> float | None:
    if got is None or isinstance(got, tuple) != isinstance(want, tuple) or _shape(got) != _shape(want):
        return None
    pairs = zip(got, want) if isinstance(want, tuple) else [(got, want)]
    return max((float(np.max(np.abs(np.asarray(a, dtype=np.float64) - b))) for a, b in pairs if np.size(b)), default=0.0)


def _gradient_problem(op, values, i, got, want, rtol, atol, eps) -> str:
    """What wrong values from an op's gradient look like: out_grad forgotten, a constant factor."""
    if isinstance(want, tuple):
        return "wrong values"
    ones = op.compute(*values)
    ones = tuple(np.ones_like(a) for a in ones) if isinstance(ones, tuple) else np.ones_like(ones)
    if np.allclose(got, op_adjoints(op, values, ones, eps)[i], rtol=rtol, atol=atol):
        return "wrong values: they are the adjoint for out_grad = ones, multiply by out_grad (the chain rule)"
    scale = float(np.vdot(got, want) / np.vdot(want, want)) if np.any(want) else 0.0
    if np.any(want) and np.allclose(got, scale * want, rtol=rtol, atol=atol):
        return f"wrong values: {scale:.4g} times the expected adjoint"
    return "wrong values"


def _adjoint_problem(v: Value, output: Value, form: str, checked: list, stored: list) -> str:
    """What a missing or malformed ``v.grad``, or a wrong one on the output, means, judged from
    the whole graph (wrong values elsewhere: needle.adjoint_causes.explain)."""
    others_have_grad = any(got is not None for (u, _), (got, _) in zip(checked, stored) if u is not output)
    leaves_have_grad = any(got is not None for (u, _), (got, _) in zip(checked, stored) if u.op is None)
    if form and v.grad is None:
        if v.op is not None and leaves_have_grad:
            return "no .grad on this op node while the leaves have theirs: store the adjoint of every node, not only of the leaves"
        if v is output:
            return "no .grad on the output: store each node's adjoint in its .grad (the output's own is out_grad)"
        if not others_have_grad and output.grad is not None:
            return ("only the output's .grad is set: its adjoint never reached its inputs. Process the nodes in reverse "
                    "topological order (the output first), passing each node's partial adjoints on to its inputs")
        return "no .grad on this node: store each node's adjoint (the sum of its partial adjoints) in its .grad"
    if form:
        return form
    if v is output:
        return "the output's .grad must be out_grad itself: start from out_grad"
    return "wrong values"


def _named(f: WrongNode, labels: dict | None) -> str:
    name = {id(k): v for k, v in (labels or {}).items()}.get(id(f.node))
    return f"{name} ({f.op})" if name else f.op


def _op_name(v: Value) -> str:
    return _op_text(v.op) if v.op is not None else _kind(v)


def _shape(value):
    if value is None:
        return None
    if isinstance(value, tuple):
        return tuple(_shape(a) for a in value)
    return tuple(np.shape(value))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _few(value) -> str:
    """Up to SHOWN numbers of an array (a tuple: each slot), for a report's text."""
    if value is None:
        return "None"
    if isinstance(value, tuple):
        return "(" + ", ".join(_few(a) for a in value) + ")"
    a = np.asarray(value)
    flat = a.reshape(-1)
    shown = ", ".join(f"{x:.4g}" for x in flat[:SHOWN])
    more = f", … {a.size} numbers of shape {a.shape}" if a.size > SHOWN else ""
    return f"[{shown}{more}]"


def _worst(got, want):
    """(index, error) of the largest |got - want|, for arrays of equal shape; else None.

    A nan or an infinite error (got nan or inf where another number is expected) is larger than
    any finite one: its index is reported, with the error nan or inf. Entries equal in both (the
    same infinity, nan in both) have error 0."""
    if got is None or want is None or isinstance(got, tuple) or isinstance(want, tuple) or _shape(got) != _shape(want):
        return None
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    if got.size == 0:
        return None
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(got - want)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    diff = np.where(same, 0.0, diff)
    for bad in (np.isnan(diff), np.isinf(diff)):  # nan first, then inf: the worst errors there are
        if bad.any():
            k = np.unravel_index(int(np.argmax(bad)), diff.shape)
            break
    else:
        k = np.unravel_index(int(np.argmax(diff)), diff.shape)
    return tuple(int(i) for i in k), float(diff[k])


def _box_numbers(expected, got) -> list[str]:
    """Two lines for the first wrong node's box: all numbers when few, else the worst element."""
    worst = _worst(got, expected)
    if worst is None or np.asarray(expected).size <= SMALL:
        return ["expected " + _numbers(expected, MAX_CHARS - len("expected ")),
                "got " + ("None" if got is None else _numbers(got, MAX_CHARS - len("got ")))]
    index, _ = worst
    where = ", ".join(map(str, index))
    return [f"expected[{where}] {expected[index]:.4g}", f"got[{where}] {got[index]:.4g}"]


def _fit_problem(problem: str) -> str:
    return problem.split(":")[0]
