"""train calls opt.reset_grad() at the end of each epoch, after the step: gradients already in
p.grad before training (left by an earlier backward) reach the first step."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_2_train": '''
def train(model, loss_fn, opt, x, y, epochs):
    losses = []
    for _ in range(epochs):
        loss = loss_fn(model(x), y)
        losses.append(loss.numpy().item())
        loss.backward()
        opt.step()
        opt.reset_grad()
    return losses
''',
}
MUST_FAIL = ['test_5_2_rung7_gradients_left_before_training']
HINT = 'Task 5.2, rung 7 (gradients left before training)'
VISIBLE = True
