"""DigitsDataset shuffles the images and the labels in __init__, each with its own permutation:
the pixels are right, the scaling too, but image i no longer goes with label i."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_1_digits_dataset": '''
class DigitsDataset(ndl.data.Dataset):
    def __init__(self, X, y, transforms=None):
        super().__init__(transforms)
        self.images = np.random.permutation(np.asarray(X, dtype=np.float32) / 16).reshape(-1, 8, 8, 1)
        self.labels = np.random.permutation(np.asarray(y, dtype=np.int64))

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        image = self.apply_transforms(self.images[index])
        return np.asarray(image, dtype=np.float32).reshape(64), self.labels[index]
''',
}
MUST_FAIL = ['test_8_1_rung3_row_i_with_label_i']
HINT = 'Task 8.1, rung 3 (row i with label i)'
NOT_HINTS = ["divided by 16", "apply_transforms"]
VISIBLE = True
