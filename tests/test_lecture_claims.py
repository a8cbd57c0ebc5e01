"""The lecture's claims about graphs and memory, as behaviour (not timing) tests."""
import gc
import tracemalloc

import numpy as np

import needle as ndl
from needle.autograd import graph_node_count


def naive_loop(n):
    w = ndl.Tensor(np.ones(16))
    grad = ndl.Tensor(np.full(16, 0.1), requires_grad=False)
    for _ in range(n):
        w = w + (-0.01) * grad  # extends w's graph every iteration
    return w


def detached_loop(n):
    w = ndl.Tensor(np.ones(16))
    grad = ndl.Tensor(np.full(16, 0.1), requires_grad=False)
    for _ in range(n):
        w.data = w.data + (-0.01) * grad  # no graph: w stays one leaf
    return w


def traced_bytes(loop, n):
    """Bytes still allocated after running ``loop(n)`` while its result is alive."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        result = loop(n)
        gc.collect()
        used = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    del result
    return used


def test_naive_loop_graph_grows_linearly():
    # each iteration adds two nodes: the detached (-lr)*grad constant and the add
    for n in (0, 1, 10, 1000):
        assert graph_node_count(naive_loop(n)) == 1 + 2 * n


def test_naive_loop_walk_matches_the_lecture():
    w = naive_loop(3)
    assert isinstance(w.op, ndl.ops.EWiseAdd)
    assert isinstance(w.inputs[0].op, ndl.ops.EWiseAdd)
    assert w.inputs[1].op is None  # (-lr) * grad needs no gradient: a detached constant
    assert isinstance(w.inputs[0].inputs[0].op, ndl.ops.EWiseAdd)


def test_naive_loop_memory_grows_linearly():
    m1, m2 = traced_bytes(naive_loop, 2000), traced_bytes(naive_loop, 4000)
    assert m1 > 2000 * 100, f"expected >100 bytes per iteration retained, got {m1 / 2000:.0f}"
    assert 1.7 < m2 / m1 < 2.3, f"memory did not double with the iteration count: {m1} -> {m2}"


def test_detached_loop_graph_and_memory_stay_flat():
    w = detached_loop(5000)
    assert graph_node_count(w) == 1 and w.op is None and w.inputs == ()
    np.testing.assert_allclose(w.numpy(), 1 - 5000 * 0.001, rtol=1e-4)
    m_small, m_large = traced_bytes(detached_loop, 500), traced_bytes(detached_loop, 5000)
    assert m_large < 4096, f"the detached loop retained {m_large} bytes after 5000 steps"
    assert m_large - m_small < 1024


def test_data_shares_cached_data():
    w = ndl.Tensor([1.0, 2.0])
    assert w.data.cached_data is w.cached_data
    assert w.detach().cached_data is w.cached_data


# --- notebooks 05 to 08: each claim of the text, as the behaviour that backs it ----------------
from needle.models import MultiPathScaleAdd  # noqa: E402


def lecture_train(opt_of, epochs, reset=True):
    """Notebook 05's loop on the lecture's model at x = y = 2; opt_of(params) builds the optimizer."""
    model = MultiPathScaleAdd()
    opt = opt_of(model.parameters())
    x, y = ndl.Tensor([2.0], requires_grad=False), ndl.Tensor([2.0], requires_grad=False)
    losses = []
    for _ in range(epochs):
        if reset:
            opt.reset_grad()
        loss = ndl.nn.L2Loss()(model(x), y)
        losses.append(loss.numpy().item())
        loss.backward()
        opt.step()
    return np.array(losses)


def test_05_lecture_losses_shrink_by_0_64_and_0_36_with_twice_the_rate():
    # e_{k+1} = (1 - 20 lr) e_k: 0.8 for lr = 0.01, 0.6 for lr = 0.02 (the visible test's hand values)
    np.testing.assert_allclose(lecture_train(lambda p: ndl.optim.SGD(p, lr=0.01), 5), 4 * 0.64 ** np.arange(5), rtol=1e-5)
    np.testing.assert_allclose(lecture_train(lambda p: ndl.optim.SGD(p, lr=0.02), 3), [4.0, 1.44, 0.5184], rtol=1e-5)


def test_05_the_dlsys_average_is_pytorchs_momentum_times_one_minus_mu():
    rng = np.random.default_rng(0)
    mu, lr = 0.9, 0.1
    p_avg = p_torch = rng.standard_normal(3)
    u = v = np.zeros(3)
    for _ in range(20):
        g = rng.standard_normal(3)
        u = mu * u + (1 - mu) * g  # dlsys, from 0
        v = mu * v + g             # PyTorch (from 0: the same as starting at g)
        np.testing.assert_allclose(u, (1 - mu) * v, rtol=1e-12, atol=1e-15)
        p_avg, p_torch = p_avg - lr * u, p_torch - lr * (1 - mu) * v  # PyTorch's rule with lr (1 - mu)
        np.testing.assert_allclose(p_avg, p_torch, rtol=1e-12)


def test_05_no_reset_grad_is_momentum_one_an_undamped_oscillation():
    without = lecture_train(lambda p: ndl.optim.SGD(p, lr=0.01), 40, reset=False)
    momentum_one = lecture_train(lambda p: ndl.optim.SGD(p, lr=0.01, momentum=1.0), 40)
    np.testing.assert_array_equal(without, momentum_one)
    peaks = [k for k in range(1, 39) if without[k - 1] < without[k] > without[k + 1]]
    assert peaks == [6, 13, 20, 27, 34]  # every pi / arccos(0.9) = 6.97 epochs
    assert 4.0 < max(without) <= 4.21 and min(without[30:]) < 0.1 < max(without[30:])  # never damped: A^2 = 4.21


def test_05_a_new_momentum_optimizer_every_epoch_is_plain_sgd():
    model = MultiPathScaleAdd()
    x, y = ndl.Tensor([2.0], requires_grad=False), ndl.Tensor([2.0], requires_grad=False)
    fresh = []
    for _ in range(15):
        opt = ndl.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        opt.reset_grad()
        loss = ndl.nn.L2Loss()(model(x), y)
        fresh.append(loss.numpy().item())
        loss.backward()
        opt.step()
    np.testing.assert_array_equal(fresh, lecture_train(lambda p: ndl.optim.SGD(p, lr=0.01), 15))
    kept = lecture_train(lambda p: ndl.optim.SGD(p, lr=0.01, momentum=0.9), 30)
    assert kept[-1] > 100 * lecture_train(lambda p: ndl.optim.SGD(p, lr=0.01), 30)[-1]


def test_06_a_numpy_float64_scalar_upcasts_float32_only_under_numpy_2():
    x32 = np.ones(3, dtype=np.float32)
    assert (x32 + 0.5).dtype == np.float32 and (x32 + np.float32(0.5)).dtype == np.float32
    assert (x32 + np.array([0.5])).dtype == np.float64
    numpy2 = int(np.__version__.split(".")[0]) >= 2
    assert (x32 + np.float64(0.5)).dtype == (np.float64 if numpy2 else np.float32)


def test_07_naive_init_np_std_overflows_at_16_the_activations_at_36():
    np.random.seed(0)  # notebook 07's naive run
    h = np.random.randn(1000, 256).astype(np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        for layer in range(1, 37):
            h = np.maximum(0, h @ np.random.randn(256, 256).astype(np.float32))
            if layer == 15:
                assert np.isfinite(np.std(h))
            if layer == 16:  # float32's sum of squares overflows; the std itself fits
                assert np.isinf(np.std(h)) and 5e16 < np.std(h, dtype=np.float64) < 1e17
                assert np.sum(h.astype(np.float64) ** 2) > np.finfo(np.float32).max
            if layer == 35:
                assert np.isfinite(h).all() and 5e37 < h.max() < np.finfo(np.float32).max
    assert not np.isfinite(h).all()  # layer 36


def test_08_an_epoch_of_1347_digits_is_42_batches_of_32_and_one_of_3():
    dataset = ndl.data.NDArrayDataset(np.zeros((1347, 64), dtype=np.float32), np.zeros(1347, dtype=np.int64))
    sizes = [xb.shape[0] for xb, _ in ndl.data.DataLoader(dataset, batch_size=32)]
    assert len(sizes) == 43 and sizes[:-1] == [32] * 42 and sizes[-1] == 3


def test_08_softmax_loss_takes_its_log_softmax_from_the_logsoftmax_op_with_the_max_shift():
    from needle.autograd import find_topo_sort

    logits = ndl.Tensor(np.array([[1000.0, 0.0, -1000.0]], dtype=np.float32))
    loss = ndl.nn.SoftmaxLoss()(logits, ndl.Tensor([0], dtype="int64", requires_grad=False))
    ops = [type(n.op).__name__ for n in find_topo_sort([loss]) if n.op is not None]
    assert ops[0] == "LogSoftmax" and "LogSumExp" not in ops
    assert np.isfinite(loss.numpy()).all() and abs(loss.numpy().item()) < 1e-6  # no overflow: the max is subtracted


def test_08_a_dead_relu_gets_no_gradient_but_momentum_can_still_move_it():
    # one hidden unit whose pre-activation is negative for every input: its weights get zero gradient
    x = ndl.Tensor(np.abs(np.random.default_rng(0).standard_normal((8, 2))), requires_grad=False)
    for momentum, moves in ((0.0, False), (0.9, True)):
        w = ndl.nn.Parameter(np.array([[-1.0], [-1.0]], dtype=np.float32))
        opt = ndl.optim.SGD([w], lr=0.1, momentum=momentum)
        w.grad = ndl.Tensor([[0.5], [0.5]], requires_grad=False)  # a gradient from before it died
        opt.step()
        before = w.numpy().copy()
        opt.reset_grad()
        ndl.ops.relu(x @ w).sum().backward()
        assert np.all(w.grad.numpy() == 0)
        opt.step()
        assert (not np.array_equal(w.numpy(), before)) is moves


# --- the notebooks' printed claims (01 to 04), as behaviour --------------------------------------
import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

SOLUTIONS = Path(__file__).resolve().parents[1] / "solutions" / "lecture8"


def notebook_cell(notebook: str, grade_id: str) -> str:
    for cell in json.loads((SOLUTIONS / f"{notebook}.ipynb").read_text())["cells"]:
        if cell["metadata"].get("nbgrader", {}).get("grade_id") == grade_id:
            return "".join(cell["source"])
    raise LookupError(f"{notebook}: no cell {grade_id}")


def test_01_a_step_keeps_about_1300_bytes_its_parts_add_up():
    # 01, section 3: "about 1,300 bytes per iteration" (1.3 kB, about 1.3 KiB; a million steps
    # about 1.3 GB = 1.2 GiB), and the parts printed beside it add up to nearly all of it.
    def naive_training(steps):
        w = ndl.Tensor(np.ones(100))
        grad = ndl.Tensor(np.full(100, 0.01), requires_grad=False)
        for _ in range(steps):
            w = w + (-0.1) * grad
        return w

    per_step = (traced_bytes(naive_training, 4000) - traced_bytes(naive_training, 0)) / 4000
    assert 1200 < per_step < 1450, per_step
    assert 1.1 < per_step * 1e6 / 2**30 < 1.35 and 1.2 < per_step * 1e6 / 1e9 < 1.45
    w = naive_training(2)
    total, constant = w, w.inputs[1]
    parts = sum(sys.getsizeof(v) for v in (total, total.inputs, total.op, total.cached_data, constant, constant.cached_data))
    assert total.cached_data.nbytes == 400 and constant.cached_data.nbytes == 400
    assert 0.9 * per_step < parts <= per_step


def _leaky_training():
    ns = {"ndl": ndl, "np": np}
    exec(notebook_cell("02_detach", "02_detach_setup_train"), ns)
    return ns["make_problem"], ns["train_leaky"]


def test_02_the_leak_keeps_9_tensors_per_batch_and_one_more_per_epoch():
    # 02, reveal 3: live tensors grow by 9 per batch (8 held by each batch's loss + the
    # accumulating add) and by 10 at the first batch of each later epoch (history's division).
    from needle.autograd import find_topo_sort, live_tensor_count

    make_problem, train_leaky = _leaky_training()
    model, batches = make_problem()
    counts = []

    class Live(ndl.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, x):
            counts.append(live_tensor_count())
            return self.m(x)

    history = train_leaky(Live(model), batches, epochs=3, lr=0.1)
    steps = np.diff(counts[1:])
    epoch_starts = [i for i in range(len(steps)) if (i + 2) % len(batches) == 0]
    assert all(steps[i] == 10 for i in epoch_starts) and all(s == 9 for i, s in enumerate(steps) if i not in epoch_starts)
    assert graph_node_count(history[0]) == 83  # 8 batches x 9 + 8 inputs x + 2 Parameters + the division
    x0, y0 = batches[0]
    loss0 = ((model(x0) - y0) ** 2).sum() / x0.shape[0]
    given = [*model.parameters(), x0, y0]
    held = [v for v in find_topo_sort([loss0]) if not any(v is g for g in given)]
    assert len(held) == 8 and sum(v.op is None for v in held) == 1  # one of them the constant -y


def test_02_json_takes_python_and_numpy_float64_refuses_float32():
    # 02, Task 2.3's text and the cell after it
    assert isinstance(np.float64(0.25), float) and not isinstance(np.float32(0.25), float)
    json.dumps([0.25, np.float64(0.25)])
    for refused in (np.float32(0.25), np.array(0.25), ndl.Tensor([0.25])):
        try:
            json.dumps([refused])
        except TypeError:
            continue
        raise AssertionError(f"json.dumps took {type(refused)}")


def test_03_untrained_logits_n01_few_hundred_kaiming_few_units():
    # 03, section 2 (the cell after "Logits of a few hundred are not exotic")
    rng = np.random.default_rng(0)
    inputs = rng.uniform(0, 1, size=(100, 64))
    stds = []
    for scale in (lambda fan_in: 1.0, lambda fan_in: np.sqrt(2 / fan_in)):
        h = inputs
        for i, (fan_in, fan_out) in enumerate([(64, 100), (100, 100), (100, 10)]):
            h = h @ (scale(fan_in) * rng.standard_normal((fan_in, fan_out)))
            h = np.maximum(h, 0) if i < 2 else h
        stds.append((h.std(), np.abs(h).max()))
    assert stds[0][0] > 100 and stds[0][1] > 300
    assert stds[1][1] < 5


def test_03_log_of_the_stable_softmax_breaks_before_the_naive_softmax():
    # 03, question 1: naive float32 from s = 89, log(softmax_stable) from about 53 (half the rows
    # by about 110 and 65); x - lse(x) never
    rng = np.random.default_rng(0)
    scales = np.logspace(0, 3.5, 80)
    unit = rng.uniform(-1.0, 1.0, size=(2000, 10))

    def first_failing(f):
        with np.errstate(all="ignore"):
            return next((s for s in scales if not np.isfinite(f((s * unit).astype(np.float32))).all()), None)

    def naive(x):
        e = np.exp(x)
        return e / e.sum(axis=-1, keepdims=True)

    def stable(x):
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    def log_softmax(x):
        m = x.max(axis=-1, keepdims=True)
        return (x - m) - np.log(np.exp(x - m).sum(axis=-1, keepdims=True))

    naive_at, log_at = first_failing(naive), first_failing(lambda x: np.log(stable(x)))
    assert 88.7 < naive_at < 92 and 52 < log_at < 56
    assert first_failing(log_softmax) is None


def test_03_log_probability_near_1e9():
    # 03, question 2: x - lse(x) loses log 2 to float32 rounding; (x - m) - log s does not
    x = np.array([1e9, 1e9], dtype=np.float32)
    m = x.max()
    lse = m + np.log(np.exp(x - m).sum())
    assert np.spacing(np.float32(1e9)) == 64 and np.all(x - lse == 0)
    assert np.allclose((x - m) - np.log(np.exp(x - m).sum()), np.log(0.5))
    assert np.allclose(ndl.logsoftmax(ndl.Tensor(x)).numpy(), np.log(0.5))


def test_03_the_max_as_a_leaf_gets_gradient_zero():
    # 03, question 3: +1 from adding it back, -1 through the log
    from needle import ops

    x = ndl.Tensor([1.0, 2.0, 3.0])
    c = ndl.Tensor(np.max(x.numpy(), keepdims=True))
    lse = ops.log(ops.summation(ops.exp(x - ops.broadcast_to(c, x.shape)))) + ops.reshape(c, ())
    lse.backward()
    assert np.allclose(c.grad.numpy(), 0.0, atol=1e-6)
    e = np.exp([1.0, 2.0, 3.0])
    assert np.allclose(x.grad.numpy(), e / e.sum())


def test_04_a_parameter_listed_twice_moves_twice_an_empty_list_is_refused():
    # 04: needle's SGD updates a parameter once per entry of its list (reveal 3: s at 0.84 listed once,
    # 0.68 listed twice) and refuses an empty list (reveal 2)
    p = ndl.nn.Parameter([1.0])
    p.grad = ndl.Tensor([1.0], requires_grad=False)
    ndl.optim.SGD([p, p], lr=0.1).step()
    assert np.allclose(p.numpy(), [0.8])
    try:
        ndl.optim.SGD([], lr=0.01)
    except ValueError:
        return
    raise AssertionError("needle's SGD took an empty parameter list")


def test_04_a_residual_block_hands_its_adjoint_to_x_whole():
    # 04, section 2: h = x + f(x) gives x the adjoint of h along the identity path, plus f's
    class Scale(ndl.nn.Module):
        def __init__(self):
            super().__init__()
            self.s = ndl.nn.Parameter([3.0])

        def forward(self, x):
            return x * self.s

    x = ndl.Tensor([2.0])
    ndl.nn.Residual(Scale())(x).backward(ndl.Tensor([5.0], requires_grad=False))
    assert np.allclose(x.grad.numpy(), [5.0 * (1 + 3.0)])  # dL/dh (identity) + dL/dh * s (through f)


def test_06_slot_2_used_three_times_makes_four_indexing_nodes():
    # 06, Q3: L = sum(t[0] * t[2]) + sum(t[2] * t[2]): one t[0] and three t[2], each indexing a node
    # of its own, send their tuples back to t; slot 2's adjoint is their sum, t_0 + 2 t_2
    rows = [ndl.Tensor(r, dtype="float64") for r in ([1.0, 2.0], [3.0, 4.0], [5.0, 6.0])]
    t = ndl.ops.make_tuple(*rows)
    loss = (t[0] * t[2]).sum() + (t[2] * t[2]).sum()
    indexing = [v for v in ndl.autograd.find_topo_sort([loss]) if isinstance(v.op, ndl.ops.TupleGetItem)]
    assert len(indexing) == 4 and all(v.inputs[0] is t for v in indexing)
    assert sorted(v.op.index for v in indexing) == [0, 2, 2, 2]
    loss.backward()
    assert np.allclose(rows[2].grad.numpy(), [11.0, 14.0]) and np.allclose(rows[0].grad.numpy(), [5.0, 6.0])


def _paths_to_leaves(top) -> int:
    """The number of paths from ``top`` down to a leaf (each node's count once, by identity)."""
    count = {}
    stack = [(top, False)]
    while stack:
        node, inputs_done = stack.pop()
        if id(node) in count:
            continue
        if not node.inputs:
            count[id(node)] = 1
        elif inputs_done:
            count[id(node)] = sum(count[id(x)] for x in node.inputs)
        else:
            stack += [(node, True)] + [(x, False) for x in node.inputs]
    return count[id(top)]


def test_01_the_ladder_has_4e12_paths_at_62_nodes_and_3_5e20_at_a_hundred():
    # 01's hidden suite's messages: the notebook's own ladder (each node adds the two before it)
    # has about 4 x 10^12 paths at 60 adds (62 nodes) and about 3.5 x 10^20 at 98 adds (a
    # hundred nodes); 09's suite: about 7.5 x 10^18 at 90 adds.
    prev, cur = ndl.Tensor([1.0]), ndl.Tensor([1.0])
    paths = {}
    for n in range(1, 99):
        prev, cur = cur, cur + prev
        if n in (60, 90, 98):
            assert graph_node_count(cur) == n + 2
            paths[n] = _paths_to_leaves(cur)
    assert round(paths[60] / 1e12) == 4 and round(paths[98] / 1e20, 1) == 3.5 and round(paths[90] / 1e18, 1) == 7.5
    text = (SOLUTIONS.parents[1] / "autograder" / "suites" / "lecture8" / "test_01_graph_accumulation.py").read_text()
    assert text.count("about 3.5 x 10^20") == 2 and "10^18" not in text and "10^12" not in text


# --- docs/students.md's points: what the notebooks' grade cells carry -----------------------------
import re  # noqa: E402

DOCS = Path(__file__).resolve().parents[1] / "docs"


def notebook_points() -> dict:
    """{notebook: {task: points}} from the nbgrader metadata of each solution notebook's grade cells,
    and {notebook: {task}} of the tasks whose heading says stretch."""
    from autograder.course import task_of

    points, stretch = {}, {}
    for path in sorted(SOLUTIONS.glob("*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        meta = [c["metadata"].get("nbgrader", {}) for c in cells]
        points[path.stem] = {task_of(m["grade_id"]): m["points"] for m in meta
                             if m.get("grade") and m.get("points") and task_of(m.get("grade_id", ""))}
        headings = [line for c in cells if c["cell_type"] == "markdown" for line in "".join(c["source"]).splitlines()
                    if line.startswith("#")]
        stretch[path.stem] = {task for task in points[path.stem]
                              if any(f"Task {task}" in h and "stretch" in h for h in headings)}
    return points, stretch


def points_table() -> str:
    points, stretch = notebook_points()
    lines = ["| notebook | tasks: points | total |", "|---|---|---|"]
    for notebook, tasks in points.items():
        listed = ", ".join(f"{task}: {p}" + (" (stretch)" if task in stretch[notebook] else "") for task, p in tasks.items())
        lines.append(f"| `{notebook}` | {listed} | {sum(tasks.values())} |")
    return "\n".join(lines)


def test_students_md_points_are_the_notebooks():
    """docs/students.md's table of points is the one the notebooks' grade cells give (a failure
    prints the table to paste), and every "N of its M points" there or in a notebook is right."""
    text = (DOCS / "students.md").read_text()
    table = points_table()
    assert table in text, f"docs/students.md's points table is not the notebooks'; the notebooks give:\n{table}"
    points, stretch = notebook_points()
    sources = {"students.md": text} | {p.stem: p.read_text() for p in sorted(SOLUTIONS.glob("*.ipynb"))}
    claims = 0
    for where, source in sources.items():
        for task, part, total in re.findall(r"Task (\d+\.\d+)[^.\n]*?\D(\d+) of (?:its|the notebook's|the)\s+(\d+) points",
                                            source.replace("\\n\",\n    \"", " ")):
            notebook = next(nb for nb in points if nb.startswith(f"{int(task.split('.')[0]):02d}_"))
            assert (int(part), int(total)) == (points[notebook][task], sum(points[notebook].values())), (
                f"{where}: Task {task} is {part} of {total} points, but {notebook}'s grade cells give "
                f"{points[notebook][task]} of {sum(points[notebook].values())}")
            claims += 1
    assert claims >= 3  # students.md's stretch tasks, 03's and 06's intros
