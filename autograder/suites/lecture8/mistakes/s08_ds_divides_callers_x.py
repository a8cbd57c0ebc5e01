"""DigitsDataset scales the X it is given in place (X /= 16 on the caller's float64 array): its
items are right, but the caller's data is divided by 16 at every DigitsDataset built on it (the
notebook's X_train, its test set, any other dataset made from the same array)."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_1_digits_dataset": '''
class DigitsDataset(ndl.data.Dataset):
    def __init__(self, X, y, transforms=None):
        super().__init__(transforms)
        X = np.asarray(X)
        X /= 16
        self.images = X.reshape(-1, 8, 8, 1)
        self.labels = np.asarray(y, dtype=np.int64)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        image = self.apply_transforms(self.images[index])
        return np.asarray(image, dtype=np.float32).reshape(64), self.labels[index]
''',
}
MUST_FAIL = ['test_8_1_rung6_reading_changes_nothing']
HINT = 'Task 8.1, rung 6 (reading changes nothing)'
NOT_HINTS = ["divided by 16", "another sample"]
VISIBLE = True
