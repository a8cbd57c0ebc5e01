"""train moves the parameters itself, p.data = p.data - opt.lr * p.grad.data over opt.params, instead
of calling opt.step(): right for plain SGD, whatever its lr, but it ignores the optimizer's own rule
(momentum, Adam)."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_2_train": '''
def train(model, loss_fn, opt, x, y, epochs) -> list:
    losses = []
    for _ in range(epochs):
        opt.reset_grad()
        loss = loss_fn(model(x), y)
        losses.append(loss.numpy().item())
        loss.backward()
        for p in opt.params:
            if p.grad is not None:
                p.data = p.data - opt.lr * p.grad.data
    return losses
''',
}
MUST_FAIL = ['test_task_5_2_other_models_losses_and_optimizers_ten_epochs_stale_gradients']
HINT = 'Task 5.2, rung 9 (other models, losses and optimizers, ten epochs, stale gradients)'
