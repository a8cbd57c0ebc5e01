"""Draw a needle computational graph with matplotlib (no system packages).

``draw_graph(t)`` draws every distinct Value reachable from ``t`` through ``inputs`` once (by
identity), as a box that shows its op (or "leaf", "constant", "Parameter"), its shape, its
value (the numbers when there are at most four, else their mean) and, once ``backward`` has
set it, its gradient. An arrow runs from each input to each op that uses it. Boxes stand in
columns by depth: a leaf at depth 0, any other node at 1 + the largest depth of its inputs.

Long chains (the graph that a naive ``w = w + (-lr) * grad`` loop grows) are drawn as their
first and last nodes around one "… k more …" box, so a 10,000-step loop draws as ten boxes.

The artists carry gids, so a drawing can be inspected: each box patch has its kind ("leaf",
"constant", "Parameter", "op", "collapsed"), its text "node text", each arrow "edge".
matplotlib is imported only when drawing: ``import needle.viz`` stays cheap.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from statistics import fmean
from typing import TYPE_CHECKING

import numpy as np

from .autograd import Value, find_topo_sort
from .nn import Parameter

if TYPE_CHECKING:
    from matplotlib.axes import Axes

# kind -> (legend entry, face colour, border line style)
STYLES = {
    "leaf": ("leaf (requires grad)", "#cfe2ff", "solid"),
    "Parameter": ("Parameter", "#c8eac4", "solid"),
    "constant": ("constant (no grad)", "#e4e4e4", "solid"),
    "op": ("op result", "#fff0c2", "solid"),
    "collapsed": ("collapsed chain", "white", "dashed"),
}
SMALL = 4  # arrays with at most this many elements are printed in full
MAX_CHARS = 36  # longer lines are cut, so every box has the same width
# Box size as a fraction of the column and row pitch; the rest is room for arrows.
BOX_W, BOX_H = 0.8, 0.8
FONT_PT = 8.0
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
    x: int = 0  # column rank
    y: float = 0.0


def draw_graph(
    roots,
    ax: "Axes | None" = None,
    *,
    labels: dict | None = None,
    show_data: bool = True,
    collapse_longer_than: int | None = 6,
    max_nodes: int = 300,
) -> GraphDrawing:
    """Draw the graph behind ``roots`` (a Tensor, a TensorTuple, or a list of them) on ``ax``
    (a new figure sized to fit when None; on a given axes the font shrinks to fit the boxes)
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

    An input used several times by one op (``b + b``) is one arrow, labelled "×2".
    """
    roots = _as_roots(roots)
    names = _names_by_id(labels)
    order = find_topo_sort(roots)  # iterative: a 100,000-deep graph is fine
    boxes, hidden, markers = _boxes(order, roots, names, show_data, collapse_longer_than, max_nodes)
    columns = _layout(boxes)
    ax, edges = _render(boxes, columns, ax)
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


def _kind(v: Value) -> str:
    if v.op is not None:
        return "op"
    if isinstance(v, Parameter) or any(c.__name__ == "Parameter" for c in type(v).__mro__):
        return "Parameter"  # needle's, or a course notebook's own Parameter class
    return "leaf" if v.requires_grad else "constant"


def _boxes(order, roots, names, show_data, collapse_longer_than, max_nodes):
    """One box per drawn value, in topological order, plus a marker per collapsed chain.
    Returns (boxes, number of hidden values, number of markers)."""
    n = len(order)
    index = {id(v): i for i, v in enumerate(order)}
    missing = names.keys() - index.keys()
    if missing:
        raise ValueError(f"draw_graph: {len(missing)} labelled tensor(s) are not in the graph")
    inputs = [[index[id(x)] for x in v.inputs] for v in order]  # every slot, repeats kept
    depth = [0] * n
    users: list[list[int]] = [[] for _ in range(n)]  # distinct users
    for i, ins in enumerate(inputs):
        if ins:
            depth[i] = 1 + max(depth[j] for j in ins)
        for j in dict.fromkeys(ins):
            users[j].append(i)
    pinned = {index[id(r)] for r in roots} | {index[k] for k in names}

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
            lines.append("value " + _numbers(data))
        if v.grad is not None:
            grad = v.grad.cached_data
            lines.append("grad " + ("not computed" if grad is None else _numbers(grad)))
    return [_fit(s) for s in lines]


def _marker_lines(order, gone: list[int]) -> list[str]:
    kinds = Counter(type(order[i].op).__name__ if order[i].op is not None else _kind(order[i]) for i in gone)
    return [f"… {len(gone):,} more …"] + [f"{k:,} × {what}" for what, k in kinds.most_common(2)]


def _op_text(op) -> str:
    """The op's class and its settings when short: AddScalar(-0.1), TupleGetItem(0)."""
    settings = [f"{s:.3g}" if isinstance(s, float) else repr(s) for s in vars(op).values() if s is not None]
    text = f"{type(op).__name__}({', '.join(settings)})" if settings else type(op).__name__
    return text if len(text) <= MAX_CHARS else type(op).__name__


def _numbers(data) -> str:
    if isinstance(data, tuple):
        return "(" + ", ".join(_numbers(a) for a in data) + ")"
    a = np.asarray(data)
    if a.size <= SMALL:
        return np.array2string(a, separator=", ", formatter={"all": lambda x: f"{x:.3g}"})
    return f"mean {a.mean():.3g}"


def _fit(line: str) -> str:
    return line if len(line) <= MAX_CHARS else line[: MAX_CHARS - 1] + "…"


def _layout(boxes: list[_Box]) -> list[tuple[int, int]]:
    """Set each box's x (its column's rank) and y; return the columns, left to right.
    In a column, boxes go in the order of the mean height of their inputs, one row apart, so
    arrows cross little and boxes never overlap. Leaves go first in graph order, then, in a
    second sweep, in the order of the mean height of their users."""
    columns = sorted({b.column for b in boxes})
    by_column: dict[tuple[int, int], list[_Box]] = {c: [] for c in columns}
    users: dict[int, list[_Box]] = {id(b): [] for b in boxes}
    for b in boxes:
        by_column[b.column].append(b)
        for src, _ in b.inputs:
            users[id(src)].append(b)
    for sweep in range(2):
        for x, c in enumerate(columns):  # left to right: inputs are placed before their users
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
            for k in ranked:
                ys.append(wanted[k] if not ys else min(wanted[k], ys[-1] - 1))
            shift = fmean(wanted) - fmean(ys)
            for k, y in zip(ranked, ys):
                members[k].x, members[k].y = x, y + shift
    return columns


def _arrows(boxes: list[_Box], n_columns: int) -> list[tuple[list[tuple[float, float]], int]]:
    """(points, times used) of each arrow. Arrows end at ports spread along the user's left
    side, the highest input at the top."""
    rows = {x: [b.y for b in boxes if b.x == x] for x in range(n_columns)}
    arrows = []
    for b in boxes:
        sources = sorted(b.inputs, key=lambda s: -s[0].y)
        step = BOX_H * 0.5 / max(len(sources) - 1, 1)
        for k, (src, times) in enumerate(sources):
            start = (src.x + BOX_W / 2, src.y)
            end = (b.x - BOX_W / 2, b.y + ((len(sources) - 1) / 2 - k) * step)
            arrows.append((_route(start, end, [(x, rows[x]) for x in range(src.x + 1, b.x)]), times))
    return arrows


def _render(boxes: list[_Box], columns, ax):
    """Draw boxes, arrows, axis and legend; return the axes and the number of arrows."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Patch
    from matplotlib.path import Path

    arrows = _arrows(boxes, len(columns))
    route_ys = [y for points, _ in arrows for _, y in points]
    top = max([b.y + 0.5 for b in boxes] + [y + 0.2 for y in route_ys])
    bottom = min([b.y - 0.5 for b in boxes] + [y - 0.2 for y in route_ys])
    chars = max(len(s) for b in boxes for s in b.lines)
    lines = max(len(b.lines) for b in boxes)
    if ax is None:  # size the figure so that FONT_PT text fits the boxes
        col_in = (chars * CHAR_EM * FONT_PT / 72 + PAD_IN) / BOX_W
        row_in = (lines * LINE_EM * FONT_PT / 72 + PAD_IN) / BOX_H
        left, right, low, high = 0.25, 1.9, 0.65, 0.45  # margins (inches): ticks, legend, title
        # At least as wide as the x label, which is about 3.3 inches.
        width, height = max(len(columns) * col_in, 3.4) + left + right, (top - bottom) * row_in + low + high
        fig, ax = plt.subplots(figsize=(width, height))
        fig.subplots_adjust(left=left / width, right=1 - right / width, bottom=low / height, top=1 - high / height)
    # The largest font (up to FONT_PT) whose text fits the boxes on this axes.
    extent = ax.get_window_extent()
    col_in = extent.width / ax.figure.dpi / len(columns)
    row_in = extent.height / ax.figure.dpi / (top - bottom)
    font = min(
        FONT_PT,
        (BOX_W * col_in - PAD_IN) * 72 / (chars * CHAR_EM),
        (BOX_H * row_in - PAD_IN) * 72 / (lines * LINE_EM),
    )
    for b in boxes:
        _, color, line_style = STYLES[b.kind]
        ax.add_patch(FancyBboxPatch(
            (b.x - BOX_W / 2, b.y - BOX_H / 2), BOX_W, BOX_H, boxstyle="round,pad=0,rounding_size=0.04",
            facecolor=color, edgecolor="0.3", linestyle=line_style, linewidth=0.9, zorder=2, gid=b.kind,
        ))
        ax.text(b.x, b.y, "\n".join(b.lines), ha="center", va="center", fontsize=font,
                linespacing=LINE_EM, zorder=3, gid="node text")
    for points, times in arrows:
        ax.add_patch(FancyArrowPatch(path=Path(points), arrowstyle="-|>", mutation_scale=9, color="0.35",
                                     linewidth=0.8, zorder=1, gid="edge"))
        if times > 1:  # above the last stretch (which is this arrow's alone), on the side it leaves free
            (xa, ya), (xb, yb) = points[-2:]
            ax.text((xa + xb) / 2, (ya + yb) / 2, f"×{times:,}", ha="right" if yb > ya else "left", va="bottom",
                    fontsize=font,
                    zorder=3, gid="edge label")
    ax.set_xlim(-0.5, len(columns) - 0.5)
    ax.set_ylim(bottom, top)
    ax.set_xticks(range(len(columns)), [str(lo) if lo == hi else f"{lo}…{hi}" for lo, hi in columns])
    ax.set_xlabel("depth: ops on the longest path from a leaf")
    ax.set_yticks([])
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    kinds = [k for k in STYLES if any(b.kind == k for b in boxes)]
    ax.legend(handles=[Patch(facecolor=STYLES[k][1], edgecolor="0.3", linestyle=STYLES[k][2], label=STYLES[k][0])
                       for k in kinds],
              loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=FONT_PT)
    return ax, len(arrows)


def _route(start, end, skipped: list[tuple[int, list[float]]]) -> list[tuple[float, float]]:
    """Points of an arrow from ``start`` to ``end``: straight, except that across each column
    it skips (given as its x and its boxes' heights) it runs level through the gap between boxes
    nearest to the straight line, so it never passes behind a box."""
    (x0, y0), (x1, y1) = start, end
    points = [start]
    for x, row_ys in skipped:
        straight = y0 + (y1 - y0) * (x - x0) / (x1 - x0)
        y = _nearest_free(straight, row_ys)
        points += [(x - BOX_W / 2, y), (x + BOX_W / 2, y)]
    return points + [end]


def _nearest_free(y: float, row_ys: list[float]) -> float:
    """The height nearest ``y`` where a level line misses every box of a column: boxes are at
    least a row apart, so halfway between rows (or beyond the ends) is always free."""
    def free(h):
        return all(abs(h - r) > BOX_H / 2 + 0.02 for r in row_ys)

    if free(y):
        return y
    return min((r + side * 0.5 for r in row_ys for side in (1, -1) if free(r + side * 0.5)), key=lambda h: abs(h - y))
