"""DigitsDataset divides the stored image in place when an item is read (image = self.images[index];
image /= 16): the first read is right, every later read divides the stored pixels again
(0.9375, then 0.0586, ...), so the second epoch trains on other, fading digits."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_1_digits_dataset": '''
class DigitsDataset(ndl.data.Dataset):
    def __init__(self, X, y, transforms=None):
        super().__init__(transforms)
        self.images = np.asarray(X, dtype=np.float32).reshape(-1, 8, 8, 1)
        self.labels = np.asarray(y, dtype=np.int64)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        image = self.images[index]
        image /= 16
        image = self.apply_transforms(image)
        return np.asarray(image, dtype=np.float32).reshape(64), self.labels[index]
''',
}
MUST_FAIL = ['test_8_1_rung6_reading_changes_nothing']
HINT = 'Task 8.1, rung 6 (reading changes nothing)'
NOT_HINTS = ["divided by 16", "another sample"]
VISIBLE = True
