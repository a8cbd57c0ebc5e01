"""DigitsDataset returns its features as a needle Tensor, not a numpy array."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_1_digits_dataset": '''
class DigitsDataset(ndl.data.Dataset):
    def __init__(self, X, y, transforms=None):
        super().__init__(transforms)
        self.images = np.asarray(X, dtype=np.float32).reshape(-1, 8, 8, 1) / 16
        self.labels = np.asarray(y, dtype=np.int64)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        image = self.apply_transforms(self.images[index])
        return ndl.Tensor(image.reshape(64)), self.labels[index]
''',
}
MUST_FAIL = ['test_8_1_rung1_one_row_s_features']
HINT = "Task 8.1, rung 1 (one row's features)"
NOT_HINTS = ['integer class index', 'apply_transforms']
VISIBLE = True
