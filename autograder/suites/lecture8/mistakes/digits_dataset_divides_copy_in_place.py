"""DigitsDataset copies X, then divides the copy in place (self.images /= 16): the caller's X is safe,
and float pixels work, but load_digits-like integer pixels make numpy refuse the in-place true
division into an integer array."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_1_digits_dataset": '''
class DigitsDataset(ndl.data.Dataset):
    def __init__(self, X, y, transforms=None):
        super().__init__(transforms)
        self.images = np.array(X).reshape(-1, 8, 8, 1)
        self.images /= 16
        self.labels = np.asarray(y, dtype=np.int64)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        image = self.apply_transforms(self.images[index])
        return np.asarray(image, dtype=np.float32).reshape(64), self.labels[index]
''',
}
MUST_FAIL = ['test_task_8_1_random_digits_integer_pixels_transforms_and_dataloader_batches']
HINT = 'Task 8.1, rung 10 (random digits, integer pixels, transforms and DataLoader batches)'
