"""DigitsDataset scales the pixels by 255 (the MNIST habit): load_digits' pixels go from 0 to 16,
so the features end up in [0, 0.063] instead of [0, 1]."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_1_digits_dataset": '''
class DigitsDataset(ndl.data.Dataset):
    def __init__(self, X, y, transforms=None):
        super().__init__(transforms)
        self.images = np.asarray(X, dtype=np.float32).reshape(-1, 8, 8, 1) / np.float32(255)
        self.labels = np.asarray(y, dtype=np.int64)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        image = self.apply_transforms(self.images[index])
        return image.reshape(64), self.labels[index]
''',
}
MUST_FAIL = ['test_8_1_rung1_one_row_s_features']
HINT = "Task 8.1, rung 1 (one row's features)"
VISIBLE = True
